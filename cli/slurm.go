package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/internal/slurm"
)

// slurmFlags are the flags of `pueval slurm`: those of the shards' pueval
// run, and the jobs'.
type slurmFlags struct {
	run                      runFlags
	tasks, cpus              int
	partition, limit, binary string
	submit                   bool
}

func runSlurm(ctx context.Context, e *env, args []string) error {
	path, f, help, err := parseSlurmFlags(e, args)
	if help || err != nil {
		return err
	}
	sel, err := f.check()
	if err != nil {
		return err
	}
	// The config must load here, and have a cell for every task.
	cat, err := (&datasetsOpts{cache: f.run.cache}).readCatalog()
	if err != nil {
		return err
	}
	cfg, err := experiments.ReadConfig(path, loadOptions(cat.Names()))
	if err != nil {
		return err
	}
	cells, err := cfg.Cells(sel)
	if err != nil {
		return err
	}
	if f.tasks > len(cells) {
		return fmt.Errorf("--array %d: the config %s selects %d cells, so at most %d tasks have work", f.tasks, path, len(cells), len(cells))
	}
	job, err := f.job(path, cfg)
	if err != nil {
		return err
	}
	if err := checkJobDirs(ctx, e, &f.run, cfg, sel, job); err != nil {
		return err
	}
	if err := writeJob(job); err != nil {
		return err
	}
	arrayPath, mergePath := filepath.Join(job.Dir, slurm.ArrayScript), filepath.Join(job.Dir, slurm.MergeScript)
	fmt.Fprintf(e.stdout, "wrote %s: %d tasks, shard K/%d of %s (%d cells) into %s/K, logs in %s\n",
		arrayPath, job.Tasks, job.Tasks, cfg.Experiment, len(cells), filepath.Join(job.Dir, slurm.ShardsDir), filepath.Join(job.Dir, slurm.LogDir))
	fmt.Fprintf(e.stdout, "wrote %s: after every task succeeded, merges the shards into %s and writes %s\n",
		mergePath, job.Dir, filepath.Join(job.Dir, "report"))
	if !f.submit {
		fmt.Fprintf(e.stdout, "submit both with %s (or run pueval slurm again with --submit)\n", filepath.Join(job.Dir, slurm.SubmitScript))
		return nil
	}
	return submitJob(ctx, e, job)
}

// parseSlurmFlags declares and parses the flags of `pueval slurm` and
// returns its config argument.
func parseSlurmFlags(e *env, args []string) (path string, f *slurmFlags, help bool, err error) {
	f = &slurmFlags{}
	fs := flagSet("slurm")
	fs.StringVar(&f.run.out, "o", "", "results `directory` (default results/EXPERIMENT): shards in DIR/shards/K, scripts and logs in DIR/slurm, the merge and the report in DIR")
	fs.IntVar(&f.run.workers, "j", 1, "cells each shard runs at once; each cell trains its nets on all the cores it sees (`N`)")
	fs.IntVar(&f.run.repeats, "repeats", 0, "run only the first `N` repeats of every grid point (0 = all)")
	fs.StringVar(&f.run.datasets, "datasets", "", "run only these data sets, comma-separated `a,b`")
	fs.StringVar(&f.run.cache, "cache", "", "data cache `dir` every task reads (default $PUEVAL_DATA, else ~/.cache/pueval on each node): put it on a shared file system")
	fs.StringVar(&f.run.scoreCache, "score-cache", "", "score cache `dir` (default: scores/ in the data cache)")
	fs.BoolVar(&f.run.noScoreCache, "no-score-cache", false, "the tasks train every classifier, reading and writing no cached scores")
	fs.IntVar(&f.tasks, "array", 0, "number of array tasks, one shard of the grid each (`N`; required)")
	fs.StringVar(&f.partition, "partition", "", "sbatch --partition of the jobs (`name`; default: the cluster's)")
	fs.StringVar(&f.limit, "time", "", "sbatch --time of each job (`limit`, e.g. 2:00:00 or 1-0; default: the partition's)")
	fs.IntVar(&f.cpus, "cpus-per-task", 0, "sbatch --cpus-per-task of the array tasks (`N`; default: the cluster's)")
	fs.StringVar(&f.binary, "pueval", "", "the pueval binary the jobs run, as the nodes see it (`path`; default: this one)")
	fs.BoolVar(&f.submit, "submit", false, "submit the array and the merge job with sbatch and print their job ids")
	path, help, err = parseWithPositional(e, fs, args, "config file")
	return path, f, help, err
}

// check checks the flags and returns the selection of the shards' runs.
func (f *slurmFlags) check() (experiments.Selection, error) {
	if f.tasks < 1 {
		return experiments.Selection{}, fmt.Errorf("--array %d: want the number of array tasks, at least 1 (see 'pueval slurm -h')", f.tasks)
	}
	if f.cpus < 0 {
		return experiments.Selection{}, fmt.Errorf("--cpus-per-task %d: want at least 1", f.cpus)
	}
	if f.limit != "" {
		if err := slurm.CheckTime(f.limit); err != nil {
			return experiments.Selection{}, err
		}
	}
	return f.run.selection()
}

// job is the Slurm job of config cfg (read from path), validated: its
// paths absolute, its binary this one unless --pueval names another.
func (f *slurmFlags) job(path string, cfg *experiments.Config) (*slurm.Job, error) {
	job := &slurm.Job{Experiment: cfg.Experiment, Tasks: f.tasks, Partition: f.partition, Time: f.limit, CPUsPerTask: f.cpus}
	var err error
	if job.Config = configPathOf(cfg.Source); job.Config == cfg.Source {
		if job.Config, err = filepath.Abs(path); err != nil {
			return nil, err
		}
	}
	out := f.run.out
	if out == "" {
		out = filepath.Join("results", cfg.Experiment)
	}
	if job.Dir, err = filepath.Abs(out); err != nil {
		return nil, err
	}
	if job.Pueval = f.binary; job.Pueval == "" {
		if job.Pueval, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("the path of this pueval: %w (name the binary with --pueval)", err)
		}
	}
	if job.Pueval, err = filepath.Abs(job.Pueval); err != nil {
		return nil, err
	}
	if job.RunArgs, err = shardRunArgs(&f.run); err != nil {
		return nil, err
	}
	job.Env = pinnedEnv()
	if err := job.Validate(); err != nil {
		return nil, err
	}
	return job, nil
}

// checkJobDirs makes, before anything is written or submitted, the checks
// that would otherwise fail only once the array ran: each shard's directory
// that exists gets the checks of pueval run -o (experiments.Runner.Check:
// its lock, its config, the data its manifest records) and must hold only
// cells of its shard (what the merge checks), and the job's directory must
// be a place the merge job can write (checkMergeTarget).
func checkJobDirs(ctx context.Context, e *env, f *runFlags, cfg *experiments.Config, sel experiments.Selection, job *slurm.Job) error {
	if _, err := os.Stat(job.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := checkMergeTarget(job.Dir, cfg); err != nil {
		return err
	}
	var r *experiments.Runner
	for k := 1; k <= job.Tasks; k++ {
		dir := slurm.ShardDir(job.Dir, k)
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if r == nil {
			store, _, err := (&datasetsOpts{cache: f.cache}).open(e, nil)
			if err != nil {
				return err
			}
			r = &experiments.Runner{Config: cfg, Data: store, Log: e.stderr}
		}
		shard := sel
		shard.Shard, shard.Shards = k, job.Tasks
		cells, err := cfg.Cells(shard)
		if err != nil {
			return err
		}
		if err := r.Check(ctx, cells, dir); err != nil {
			return fmt.Errorf("shard %d/%d: %w", k, job.Tasks, err)
		}
		if err := checkShardCells(dir, cells, k, job.Tasks); err != nil {
			return err
		}
	}
	return nil
}

// checkShardCells refuses a shard directory that holds a record of a cell
// not of shard k/n of this selection (a directory of another --array,
// --repeats or --datasets): the merge would refuse it.
func checkShardCells(dir string, cells []experiments.Cell, k, n int) error {
	recs, err := results.ReadRecords(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("shard %d/%d: %w", k, n, err)
	}
	mine := make(map[string]bool, len(cells))
	for _, c := range cells {
		mine[c.ID] = true
	}
	for _, rec := range recs {
		if !mine[rec.Cell] {
			return fmt.Errorf("shard %d/%d: %s holds cell %s, which is not a cell of shard %d/%d of this selection "+
				"(the directory was written with another --array, --repeats or --datasets), so the merge would refuse it after the array ran: "+
				"choose another -o, or delete %s", k, n, dir, rec.Cell, k, n, dir)
		}
	}
	return nil
}

// checkMergeTarget refuses a job directory the merge job could not write
// its merge into: one in use (its lock held), one that holds the results of
// a run (pueval run -o, finished or not: a merge never overwrites them),
// records without a manifest, or a merge of another config.
func checkMergeTarget(dir string, cfg *experiments.Config) error {
	lock, err := results.LockDir(dir)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	const after = "the merge job would refuse to write there once the array ran"
	man, err := results.ReadManifest(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if fi, serr := os.Stat(filepath.Join(dir, results.RecordsFile)); serr == nil && fi.Size() > 0 {
			return fmt.Errorf("%s holds records but no %s: %s; choose another -o", dir, results.ManifestFile, after)
		}
		return nil
	case err != nil:
		return err
	case len(man.Shards) == 0:
		state := "an unfinished run"
		if man.Finished != nil {
			state = "a finished run"
		}
		return fmt.Errorf("%s holds the results of %s (pueval run, not a merge of shards): %s; choose another -o "+
			"(or continue that run there with pueval run -o %s)", dir, state, after, dir)
	case man.ConfigKey != cfg.KeyHash():
		what := ""
		if diff := experiments.DiffSettings(man.Settings, cfg.Settings()); man.Settings != nil && diff != "" {
			what = " (the directory's -> this one's: " + diff + ")"
		}
		return fmt.Errorf("%s holds a merge of another configuration (experiment %s from %s, config key %.12s)%s: %s; choose another -o",
			dir, man.Experiment, man.Config, man.ConfigKey, what, after)
	}
	return nil
}

// shardRunArgs are the flags of pueval run that every shard gets.
func shardRunArgs(f *runFlags) ([]string, error) {
	args := []string{"-j", strconv.Itoa(f.workers)}
	if f.repeats > 0 {
		args = append(args, "--repeats", strconv.Itoa(f.repeats))
	}
	if f.datasets != "" {
		args = append(args, "--datasets", f.datasets)
	}
	for _, p := range []struct{ flag, dir string }{{"--cache", f.cache}, {"--score-cache", f.scoreCache}} {
		if p.dir == "" {
			continue
		}
		abs, err := filepath.Abs(p.dir)
		if err != nil {
			return nil, err
		}
		args = append(args, p.flag, abs)
	}
	if f.noScoreCache {
		args = append(args, "--no-score-cache")
	}
	return args, nil
}

// pinnedEnv are the PUEVAL_* variables set here (the data cache, the UCI
// mirror, the papers' data folders), relative paths made absolute: the
// scripts export them, so the tasks read what this shell would, wherever and
// whenever they run.
func pinnedEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, val, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "PUEVAL_") || strings.HasPrefix(name, "PUEVAL_TEST") || val == "" {
			continue
		}
		if !strings.Contains(val, "://") && !filepath.IsAbs(val) {
			if _, err := os.Stat(val); err == nil {
				if abs, err := filepath.Abs(val); err == nil {
					val = abs
				}
			}
		}
		env = append(env, name+"="+val)
	}
	slices.Sort(env)
	return env
}

// writeJob writes the scripts and makes the directories the jobs write to
// (Slurm does not create a log's directory).
func writeJob(job *slurm.Job) error {
	for _, d := range []string{slurm.LogDir, slurm.ShardsDir} {
		if err := os.MkdirAll(filepath.Join(job.Dir, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	for _, s := range []struct{ rel, text string }{
		{slurm.ArrayScript, job.ArrayScript()}, {slurm.MergeScript, job.MergeScript()}, {slurm.SubmitScript, job.SubmitScript()},
	} {
		p := filepath.Join(job.Dir, filepath.FromSlash(s.rel))
		if err := os.WriteFile(p, []byte(s.text), 0o755); err != nil {
			return err
		}
		if err := os.Chmod(p, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// submitJob submits the array, then the merge job after it, and prints
// their ids.
func submitJob(ctx context.Context, e *env, job *slurm.Job) error {
	if _, err := exec.LookPath("sbatch"); err != nil {
		return fmt.Errorf("--submit: sbatch is not in PATH: run %s where Slurm is installed", filepath.Join(job.Dir, slurm.SubmitScript))
	}
	arrayArgs, mergeArgs := job.SubmitArgs()
	arrayID, err := sbatch(ctx, arrayArgs)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "submitted array job %s: %d tasks\n", arrayID, job.Tasks)
	mergeID, err := sbatch(ctx, mergeArgs(arrayID))
	if err != nil {
		return fmt.Errorf("%w (array job %s is submitted; submit the merge job with sbatch --dependency=afterok:%s --kill-on-invalid-dep=yes %s)",
			err, arrayID, arrayID, filepath.Join(job.Dir, slurm.MergeScript))
	}
	fmt.Fprintf(e.stdout, "submitted merge job %s: runs after every task of %s succeeded\n", mergeID, arrayID)
	return nil
}

// sbatch runs sbatch with args and returns the job id it prints.
func sbatch(ctx context.Context, args []string) (string, error) {
	cmd := exec.CommandContext(ctx, "sbatch", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		var ee *exec.ExitError
		if errors.As(err, &ee) && msg != "" {
			return "", fmt.Errorf("sbatch %s: %v: %s", strings.Join(args, " "), err, msg)
		}
		return "", fmt.Errorf("sbatch %s: %w", strings.Join(args, " "), err)
	}
	id, err := slurm.ParseJobID(stdout.String())
	if err != nil {
		return "", fmt.Errorf("sbatch %s: %w", strings.Join(args, " "), err)
	}
	return id, nil
}
