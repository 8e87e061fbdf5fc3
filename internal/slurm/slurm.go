// Package slurm writes the batch scripts that run a pueval experiment on a
// Slurm cluster: a job array with one shard of the grid per task (pueval run
// --shard $SLURM_ARRAY_TASK_ID/N into DIR/shards/K), and a job that runs
// after every task succeeded (sbatch --dependency=afterok) to merge the
// shards into DIR (pueval merge) and write the report (pueval report).
//
// The scripts are plain text from [Job]'s methods, so they can be read,
// tested and edited before submission; [SubmitArgs] are the sbatch command
// lines that submit them and [ParseJobID] reads what sbatch --parsable
// prints. The package runs nothing itself.
package slurm

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Job describes one experiment to run as a Slurm job array.
type Job struct {
	// Pueval is the absolute path of the pueval binary on the cluster's
	// nodes.
	Pueval string
	// Config is the absolute path of the config file, or the name of a
	// config built into pueval.
	Config string
	// Experiment names the jobs (pueval-EXPERIMENT, pueval-EXPERIMENT-merge).
	Experiment string
	// Dir is the absolute results directory: the shards go to Dir/shards/K,
	// the scripts and the jobs' logs to Dir/slurm, the merged results and
	// the report to Dir itself.
	Dir string
	// Tasks is the number of array tasks, one shard each (N >= 1).
	Tasks int
	// Partition, Time and CPUsPerTask are sbatch's --partition, --time and
	// --cpus-per-task for the array tasks (empty or 0: the cluster's
	// default); the merge job gets the same partition and time, one CPU.
	Partition   string
	Time        string
	CPUsPerTask int
	// RunArgs are more flags of pueval run for every shard (-j, --repeats,
	// --datasets, --cache, --score-cache, ...).
	RunArgs []string
	// Env are NAME=VALUE settings exported by both scripts before pueval
	// runs (the data cache and the UCI mirror the scripts were written with).
	Env []string
}

// Files of a job, relative to Job.Dir.
const (
	ScriptDir    = "slurm"
	ArrayScript  = "slurm/array.sh"
	MergeScript  = "slurm/merge.sh"
	SubmitScript = "slurm/submit.sh"
	LogDir       = "slurm/logs"
	ShardsDir    = "shards"
)

// ShardDir is the results directory of shard k of a job writing into dir.
func ShardDir(dir string, k int) string {
	return filepath.Join(dir, ShardsDir, strconv.Itoa(k))
}

var (
	// partitionRE: Slurm partition names, comma-separated (a job may name several).
	partitionRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$`)
	// timeRE: sbatch --time's formats: minutes, minutes:seconds,
	// hours:minutes:seconds, days-hours, days-hours:minutes,
	// days-hours:minutes:seconds.
	timeRE  = regexp.MustCompile(`^(?:(\d+)-(\d+)(?::(\d+)(?::(\d+))?)?|(\d+)(?::(\d+)(?::(\d+))?)?)$`)
	envRE   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	nameBad = regexp.MustCompile(`[^A-Za-z0-9_.+-]`)
)

// MaxTimeDays bounds a job's time limit: sbatch stores limits in minutes
// and reads an overflowing number as some other limit, and no partition
// grants more than a year (UNLIMITED asks for no limit).
const MaxTimeDays = 365

// CheckTime checks a time limit in one of sbatch --time's formats
// ("minutes", "minutes:seconds", "hours:minutes:seconds", "days-hours",
// "days-hours:minutes", "days-hours:minutes:seconds", or UNLIMITED):
// minutes and seconds after a colon below 60, hours after a day below 24,
// and in all more than 0 (sbatch reads 0 as no limit: UNLIMITED says so)
// and at most MaxTimeDays days.
func CheckTime(s string) error {
	if s == "UNLIMITED" || s == "INFINITE" {
		return nil
	}
	m := timeRE.FindStringSubmatch(s)
	if m == nil {
		return fmt.Errorf("--time %q: want minutes, minutes:seconds, hours:minutes:seconds, days-hours, days-hours:minutes or days-hours:minutes:seconds (sbatch's formats)", s)
	}
	// Each field as a number, capped so that the total cannot overflow:
	// any field above the cap is past MaxTimeDays whatever its unit.
	const capped = MaxTimeDays*24*60*60 + 1
	num := func(v string) int64 {
		if v == "" {
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n > capped {
			return capped
		}
		return n
	}
	below := func(v string, limit int64, what string) error {
		if v != "" && num(v) >= limit {
			return fmt.Errorf("--time %q: %s %s is not below %d", s, what, v, limit)
		}
		return nil
	}
	var secs int64
	var err error
	switch {
	case m[1] != "": // days-hours[:minutes[:seconds]]
		err = errors.Join(below(m[2], 24, "hours"), below(m[3], 60, "minutes"), below(m[4], 60, "seconds"))
		secs = num(m[1])*86400 + num(m[2])*3600 + num(m[3])*60 + num(m[4])
	case m[7] != "": // hours:minutes:seconds
		err = errors.Join(below(m[6], 60, "minutes"), below(m[7], 60, "seconds"))
		secs = num(m[5])*3600 + num(m[6])*60 + num(m[7])
	case m[6] != "": // minutes:seconds
		err = below(m[6], 60, "seconds")
		secs = num(m[5])*60 + num(m[6])
	default: // minutes
		secs = num(m[5]) * 60
	}
	switch {
	case err != nil:
		return err
	case secs == 0:
		return fmt.Errorf("--time %q: a limit of 0, which sbatch reads as no limit: write UNLIMITED for that, or a positive limit", s)
	case secs > MaxTimeDays*86400:
		return fmt.Errorf("--time %q: more than %d days (write UNLIMITED for no limit)", s, MaxTimeDays)
	}
	return nil
}

// Validate checks a job: absolute paths, at least one task, sbatch's
// formats for the partition and the time, a positive CPU count.
func (j *Job) Validate() error {
	var errs []error
	if !filepath.IsAbs(j.Pueval) {
		errs = append(errs, fmt.Errorf("the pueval binary %q is not an absolute path", j.Pueval))
	}
	if !filepath.IsAbs(j.Dir) {
		errs = append(errs, fmt.Errorf("the results directory %q is not an absolute path", j.Dir))
	}
	if strings.ContainsRune(j.Config, '/') && !filepath.IsAbs(j.Config) {
		errs = append(errs, fmt.Errorf("the config %q is neither an absolute path nor a built-in config's name", j.Config))
	}
	if j.Config == "" {
		errs = append(errs, errors.New("no config"))
	}
	if j.Tasks < 1 {
		errs = append(errs, fmt.Errorf("--array %d: want at least 1 task", j.Tasks))
	}
	if j.Partition != "" && !partitionRE.MatchString(j.Partition) {
		errs = append(errs, fmt.Errorf("--partition %q: want a partition name (letters, digits, _ . -), or several separated by commas", j.Partition))
	}
	if j.Time != "" {
		if err := CheckTime(j.Time); err != nil {
			errs = append(errs, err)
		}
	}
	if j.CPUsPerTask < 0 {
		errs = append(errs, fmt.Errorf("--cpus-per-task %d: want at least 1 (0: the cluster's default)", j.CPUsPerTask))
	}
	for _, e := range j.Env {
		if !envRE.MatchString(e) {
			errs = append(errs, fmt.Errorf("environment setting %q is not NAME=VALUE", e))
		}
	}
	for _, s := range []string{j.Pueval, j.Config, j.Dir} {
		if strings.ContainsAny(s, "\n\r\x00") {
			errs = append(errs, fmt.Errorf("%q contains a line break", s))
		}
	}
	// The logs' paths go into #SBATCH lines, where Slurm splits at white
	// space and reads % as a pattern (%a: the task).
	if strings.ContainsAny(j.Dir, " \t'\"%\\") {
		errs = append(errs, fmt.Errorf("the results directory %q contains white space, a quote, %% or \\, which #SBATCH --output cannot name: choose another -o", j.Dir))
	}
	return errors.Join(errs...)
}

// jobName is a job name Slurm and a shell take: the experiment's name with
// anything unusual replaced.
func (j *Job) jobName(suffix string) string {
	name := "pueval"
	if j.Experiment != "" {
		name += "-" + nameBad.ReplaceAllString(j.Experiment, "_")
	}
	return name + suffix
}

func (j *Job) path(rel string) string { return filepath.Join(j.Dir, filepath.FromSlash(rel)) }

// directives are the #SBATCH lines shared by both scripts.
func (j *Job) directives(b *strings.Builder, cpus int) {
	if j.Partition != "" {
		fmt.Fprintf(b, "#SBATCH --partition=%s\n", j.Partition)
	}
	if j.Time != "" {
		fmt.Fprintf(b, "#SBATCH --time=%s\n", j.Time)
	}
	if cpus > 0 {
		fmt.Fprintf(b, "#SBATCH --cpus-per-task=%d\n", cpus)
	}
}

// exports writes the script's environment settings.
func (j *Job) exports(b *strings.Builder) {
	if len(j.Env) == 0 {
		return
	}
	b.WriteString("# The environment pueval slurm ran in (the data cache and the mirror every task reads):\n")
	for _, e := range j.Env {
		name, val, _ := strings.Cut(e, "=")
		fmt.Fprintf(b, "export %s=%s\n", name, Quote(val))
	}
}

// ArrayScript is the job-array script: task K runs shard K/N into
// Dir/shards/K. A shard whose cells partly failed (pueval's exit status 3)
// still counts as done, so the merge runs and the report lists them.
func (j *Job) ArrayScript() string {
	var b strings.Builder
	n := strconv.Itoa(j.Tasks)
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# Written by pueval slurm: experiment %s as %d shards, one per array task.\n", j.Experiment, j.Tasks)
	fmt.Fprintf(&b, "# Task K runs shard K/%d into %s/K. To run shard K again (after scancel, a failure or the\n", j.Tasks, Quote(filepath.Join(j.Dir, ShardsDir)))
	b.WriteString("# time limit; it keeps its finished cells) once array job ID is over, then merge:\n")
	fmt.Fprintf(&b, "#   again=$(sbatch --parsable --array=K --dependency=afterany:ID %s)\n", Quote(j.path(ArrayScript)))
	fmt.Fprintf(&b, "#   sbatch --dependency=afterok:$again --kill-on-invalid-dep=yes %s\n", Quote(j.path(MergeScript)))
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", j.jobName(""))
	fmt.Fprintf(&b, "#SBATCH --array=1-%d\n", j.Tasks)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", j.path(LogDir+"/shard-%a.out"))
	fmt.Fprintf(&b, "#SBATCH --open-mode=append\n")
	j.directives(&b, j.CPUsPerTask)
	b.WriteString("set -u\n")
	j.exports(&b)
	b.WriteString("k=${SLURM_ARRAY_TASK_ID:?not an array task: submit this script with sbatch}\n")
	fmt.Fprintf(&b, "echo \"pueval slurm: array job ${SLURM_ARRAY_JOB_ID:-?} task $k of %s on $(hostname) at $(date -u +%%FT%%TZ)\"\n", n)
	args := []string{Quote(j.Pueval), "run", Quote(j.Config), "-o", Quote(filepath.Join(j.Dir, ShardsDir)) + `/"$k"`, "--shard", `"$k"/` + n}
	for _, a := range j.RunArgs {
		args = append(args, Quote(a))
	}
	b.WriteString(strings.Join(args, " ") + "\n")
	b.WriteString("status=$?\n")
	b.WriteString("# 3: the shard finished and some of its cells failed (their records say why; the report lists them).\n")
	b.WriteString("if [ \"$status\" -eq 3 ]; then exit 0; fi\n")
	b.WriteString("exit \"$status\"\n")
	return b.String()
}

// MergeScript is the script of the job that runs after the array: it
// merges the shards into Dir and writes Dir/report.
func (j *Job) MergeScript() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# Written by pueval slurm: merges the %d shards of experiment %s into %s and writes its report.\n", j.Tasks, j.Experiment, Quote(j.Dir))
	fmt.Fprintf(&b, "# Submit it after the array: sbatch --dependency=afterok:ARRAY_JOB_ID --kill-on-invalid-dep=yes %s\n", Quote(j.path(MergeScript)))
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", j.jobName("-merge"))
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", j.path(LogDir+"/merge.out"))
	fmt.Fprintf(&b, "#SBATCH --open-mode=append\n")
	j.directives(&b, 1)
	b.WriteString("set -eu\n")
	j.exports(&b)
	fmt.Fprintf(&b, "echo \"pueval slurm: merge job ${SLURM_JOB_ID:-?} on $(hostname) at $(date -u +%%FT%%TZ)\"\n")
	fmt.Fprintf(&b, "shards=()\nfor k in $(seq 1 %d); do shards+=(%s/\"$k\"); done\n", j.Tasks, Quote(filepath.Join(j.Dir, ShardsDir)))
	fmt.Fprintf(&b, "%s merge %s \"${shards[@]}\"\n", Quote(j.Pueval), Quote(j.Dir))
	fmt.Fprintf(&b, "%s report %s\n", Quote(j.Pueval), Quote(j.Dir))
	return b.String()
}

// SubmitArgs are the arguments of sbatch that submit the array and, once
// its job id is known, the merge job (afterok: it runs when every task
// succeeded; --kill-on-invalid-dep: Slurm cancels it, rather than keeping
// it pending forever, when a task fails or is cancelled).
func (j *Job) SubmitArgs() (array []string, merge func(arrayID string) []string) {
	array = []string{"--parsable", j.path(ArrayScript)}
	merge = func(id string) []string {
		return []string{"--parsable", "--dependency=afterok:" + id, "--kill-on-invalid-dep=yes", j.path(MergeScript)}
	}
	return array, merge
}

// SubmitScript is a shell script that submits the array and the merge job
// and prints their ids: what pueval slurm --submit does.
func (j *Job) SubmitScript() string {
	array, merge := j.SubmitArgs()
	q := func(args []string) string {
		out := make([]string, len(args))
		for i, a := range args {
			out[i] = Quote(a)
		}
		return strings.Join(out, " ")
	}
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "# Written by pueval slurm: submits the %d-task array of experiment %s and the merge job after it.\n", j.Tasks, j.Experiment)
	b.WriteString("set -eu\n")
	fmt.Fprintf(&b, "array=$(sbatch %s)\n", q(array))
	b.WriteString("array=${array%%;*}\n")
	mergeArgs := q(merge("ARRAY"))
	mergeArgs = strings.Replace(mergeArgs, "--dependency=afterok:ARRAY", `--dependency=afterok:"$array"`, 1)
	fmt.Fprintf(&b, "merge=$(sbatch %s)\n", mergeArgs)
	b.WriteString("merge=${merge%%;*}\n")
	fmt.Fprintf(&b, "echo \"array job $array (%d tasks), merge job $merge (after the array)\"\n", j.Tasks)
	return b.String()
}

// ParseJobID reads the job id that sbatch --parsable prints ("ID" or
// "ID;CLUSTER").
func ParseJobID(out string) (string, error) {
	line := strings.TrimSpace(out)
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[i+1:])
	}
	id, _, _ := strings.Cut(line, ";")
	if id == "" || strings.Trim(id, "0123456789") != "" {
		return "", fmt.Errorf("sbatch printed %q, not a job id", strings.TrimSpace(out))
	}
	return id, nil
}

// Quote quotes s for the shell when it needs it: a word of letters,
// digits and / . _ - + = : , @ % stays as it is, anything else goes in single quotes.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
