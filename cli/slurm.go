package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments"
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
