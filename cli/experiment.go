package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// runFlags are the execution settings of `pueval run` and `pueval reproduce`.
// None of them changes a cell's result.
type runFlags struct {
	out, datasets, shard, cache, scoreCache string
	cpuProfile                              string
	workers, repeats                        int
	noScoreCache, noReport                  bool
}

func (f *runFlags) register(fs *flag.FlagSet, reproduce bool) {
	fs.StringVar(&f.out, "o", "", "output `directory` (default results/EXPERIMENT)")
	fs.IntVar(&f.workers, "j", 1, "cells run at once; each cell trains its nets on all cores (`N`)")
	fs.IntVar(&f.repeats, "repeats", 0, "run only the first `N` repeats of every grid point (0 = all)")
	fs.StringVar(&f.datasets, "datasets", "", "run only these data sets, comma-separated `a,b`")
	fs.StringVar(&f.shard, "shard", "", "run only shard `k/n` of the grid (cells whose grid index is k-1 mod n)")
	fs.StringVar(&f.cache, "cache", "", "data cache `dir` (default $PUEVAL_DATA, else $XDG_CACHE_HOME/pueval or ~/.cache/pueval)")
	fs.StringVar(&f.scoreCache, "score-cache", "", "score cache `dir` (default: scores/ in the data cache; shared by experiments)")
	fs.BoolVar(&f.noScoreCache, "no-score-cache", false, "train every classifier, reading and writing no cached scores")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `file` (go tool pprof; samples carry the labels dataset and stage)")
	if reproduce {
		fs.BoolVar(&f.noReport, "no-report", false, "skip the report after the run")
	}
}

func (f *runFlags) selection() (experiments.Selection, error) {
	sel := experiments.Selection{Repeats: f.repeats}
	if f.workers < 1 {
		return sel, fmt.Errorf("-j %d: want at least 1 cell at a time", f.workers)
	}
	if f.repeats < 0 {
		return sel, fmt.Errorf("--repeats %d: want a positive number", f.repeats)
	}
	if f.datasets != "" {
		for _, d := range strings.Split(f.datasets, ",") {
			if d = strings.TrimSpace(d); d != "" {
				sel.Datasets = append(sel.Datasets, d)
			}
		}
	}
	if f.shard != "" {
		k, n, ok := strings.Cut(f.shard, "/")
		a, err1 := strconv.Atoi(k)
		b, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || b < 1 || a < 1 || a > b {
			return sel, fmt.Errorf("--shard %q: want k/n with 1 <= k <= n", f.shard)
		}
		sel.Shard, sel.Shards = a, b
	}
	return sel, nil
}

// parseWithPositional parses flags that may come before or after one positional argument.
func parseWithPositional(e *env, fs *flag.FlagSet, args []string, what string) (pos string, help bool, err error) {
	if help, err = parseFlags(e, fs, args); help || err != nil {
		return "", help, err
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return "", false, &missingArgError{what: what, command: fs.Name()}
	}
	pos = rest[0]
	if help, err = parseFlags(e, fs, rest[1:]); help || err != nil {
		return "", help, err
	}
	if fs.NArg() > 0 {
		return "", false, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return pos, false, nil
}

// missingArgError says that a command's positional argument is missing.
type missingArgError struct{ what, command string }

func (e *missingArgError) Error() string {
	return fmt.Sprintf("name the %s (see 'pueval %s -h')", e.what, e.command)
}

// builtinConfigList lists the built-in configs (experiments.BuiltinConfigs:
// those the papers this binary imports registered), comma-separated, in
// lines of at most about width characters each starting with indent.
func builtinConfigList(indent string, width int) string {
	names := experiments.BuiltinConfigs()
	if len(names) == 0 {
		return indent + "(none: this binary imports no paper that registers configs; run a config file)"
	}
	var b strings.Builder
	line := indent
	for i, n := range names {
		if i < len(names)-1 {
			n += ","
		}
		if line != indent && len(line)+1+len(n) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += n
	}
	b.WriteString(line)
	return b.String()
}

// runHelpText is the longer help of pueval run.
func runHelpText() string {
	return "CONFIG is a config file, or the name of one of the built-in configs of this binary:\n" +
		builtinConfigList("  ", 100)
}

// reproduceHelpText is the longer help of pueval reproduce: every built-in
// config, one line each, under the title of the paper whose report it writes.
func reproduceHelpText() string {
	return "PAPER is the name of one of the built-in configs of this binary (registered by the papers\n" +
		"it imports), listed under the paper whose report it writes; a -smoke config runs the\n" +
		"paper's whole pipeline on a tiny grid in seconds. Data come from the cache ($PUEVAL_DATA),\n" +
		"else from $PUEVAL_UCI_MIRROR, else from the UCI archive.\n\n" + paperConfigList("  ")
}

// paperConfigList groups the built-in configs by the report they name (a
// paper's title as its heading, in the order of the configs' names) and
// gives each config a line: its name and its description.
func paperConfigList(indent string) string {
	names := experiments.BuiltinConfigs()
	if len(names) == 0 {
		return builtinConfigList(indent, 100)
	}
	var catNames []string
	if cat, err := (&datasetsOpts{}).readCatalog(); err == nil {
		catNames = cat.Names()
	}
	type entry struct{ name, about string }
	var order []string
	groups := map[string][]entry{}
	width := 0
	for _, n := range names {
		heading, about := "other configs", ""
		if cfg, err := experiments.ReadConfig(n, loadOptions(catNames)); err != nil {
			about = "(does not load: " + err.Error() + ")"
		} else {
			about = cfg.Description
			if p, ok := report.Lookup(cfg.Report); ok && p.Title != "" {
				heading = p.Title
			}
		}
		if _, seen := groups[heading]; !seen {
			order = append(order, heading)
		}
		groups[heading] = append(groups[heading], entry{n, about})
		width = max(width, len(n))
	}
	var b strings.Builder
	for i, h := range order {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s%s\n", indent, h)
		for _, e := range groups[h] {
			fmt.Fprintf(&b, "%s  %-*s  %s\n", indent, width, e.name, e.about)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func runRun(ctx context.Context, e *env, args []string) error {
	fs := flagSet("run")
	var f runFlags
	f.register(fs, false)
	path, help, err := parseWithPositional(e, fs, args, "config file")
	if help || err != nil {
		return err
	}
	_, err = runExperiment(ctx, e, path, &f)
	return err
}

// runExperiment loads a config and runs it; it returns the output directory.
func runExperiment(ctx context.Context, e *env, path string, f *runFlags) (string, error) {
	dopts := &datasetsOpts{cache: f.cache}
	cat, err := dopts.readCatalog()
	if err != nil {
		return "", err
	}
	cfg, err := experiments.ReadConfig(path, loadOptions(cat.Names()))
	if err != nil {
		return "", err
	}
	sel, err := f.selection()
	if err != nil {
		return "", err
	}
	cells, err := cfg.Cells(sel)
	if err != nil {
		return "", err
	}
	store, _, err := dopts.open(e, nil)
	if err != nil {
		return "", err
	}
	out := f.out
	if out == "" {
		out = filepath.Join("results", cfg.Experiment)
	}
	var cache *results.Cache
	if !f.noScoreCache {
		dir := f.scoreCache
		if dir == "" {
			dir = filepath.Join(store.Options().CacheDir, "scores")
		}
		if cache, err = results.OpenCache(dir); err != nil {
			return "", fmt.Errorf("score cache: %w (--score-cache DIR puts it elsewhere; --no-score-cache runs without it)", err)
		}
	}
	r := &experiments.Runner{Config: cfg, Data: store, Cache: cache, Workers: f.workers, Log: e.stderr, CodeVersion: Version(), Selection: sel}
	kernel := cfg.KernelName()
	if kernel == "" {
		kernel = "n/a"
	}
	fmt.Fprintf(e.stderr, "pueval: %s: %d cells (%s), -j %d, %d cores, kernel %s, results in %s\n",
		cfg.Experiment, len(cells), cfg.Source, max(1, f.workers), runtime.NumCPU(), kernel, out)
	stopProfile, err := startCPUProfile(f.cpuProfile)
	if err != nil {
		return "", err
	}
	sum, err := r.Run(ctx, cells, out)
	if perr := stopProfile(); perr != nil && err == nil {
		err = perr
	}
	// A run refused before its first cell (the directory in use, an unwritable
	// disk) has nothing to sum up: its error alone says what happened.
	if err == nil || sum.Ran+sum.Skipped > 0 {
		fmt.Fprintf(e.stderr, "pueval: %s: %d cells run (%d failed), %d from earlier runs, %d classifiers trained, %d from the score cache, %s\n",
			cfg.Experiment, sum.Ran, sum.Failed, sum.Skipped, sum.Trained, sum.CacheHits, sum.Duration.Round(time.Second))
	}
	if err == nil && sum.Failed > 0 {
		err = &cellsFailedError{failed: sum.Failed, ran: sum.Ran, dir: out}
	}
	if err == nil && sum.Ran+sum.Skipped == 0 && len(sum.Unavailable) > 0 {
		err = noDataError(cfg.Experiment, sum.Unavailable, store.Options().CacheDir)
	}
	return out, err
}

// noDataError says that a run had no cell to run because every data set it
// selected was skipped, and how to provide the data.
func noDataError(experiment string, unavailable map[string]string, cacheDir string) error {
	return fmt.Errorf("%s: no cell ran: all %d of its data sets were skipped, their data missing (the lines above say which files); "+
		"set %s to a directory or http(s) URL laid out like %s (the UCI archive), or put the files in the data cache %s (set by %s)",
		experiment, len(unavailable), datasets.EnvMirror, datasets.DefaultMirror, cacheDir, datasets.EnvData)
}

// cellsFailedError says that a run finished but some of its cells failed;
// pueval then exits with status 3 (exitCellsFailed), not 1.
// For pueval reproduce-all, runs names the runs with failed cells.
type cellsFailedError struct {
	failed, ran int
	dir         string
	runs        []string
}

func (e *cellsFailedError) Error() string {
	if len(e.runs) > 0 {
		return fmt.Sprintf("some cells failed in %s (their reports in %s list them)", strings.Join(e.runs, ", "), e.dir)
	}
	return fmt.Sprintf("%d of the %d cells run failed (their records in %s say why; the report lists them)", e.failed, e.ran, e.dir)
}

// startCPUProfile starts a CPU profile into path (nothing when path is
// empty) and returns the function that stops it and closes the file.
func startCPUProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

func runReproduce(ctx context.Context, e *env, args []string) error {
	fs := flagSet("reproduce")
	var f runFlags
	f.register(fs, true)
	paper, help, err := parseWithPositional(e, fs, args, "paper")
	if missing := (*missingArgError)(nil); errors.As(err, &missing) {
		return fmt.Errorf("name the paper, one of the built-in configs:\n%s\n(see 'pueval reproduce -h')", builtinConfigList("  ", 100))
	}
	if help || err != nil {
		return err
	}
	if f.out == "" {
		f.out = filepath.Join("results", paper)
	}
	out, err := runExperiment(ctx, e, paper, &f)
	var failed *cellsFailedError
	if err != nil && !errors.As(err, &failed) {
		return err
	}
	if !f.noReport {
		if rerr := writeReport(ctx, e, out, true); rerr != nil {
			return rerr
		}
	}
	return err
}

func runReport(ctx context.Context, e *env, args []string) error {
	fs := flagSet("report")
	dir, help, err := parseWithPositional(e, fs, args, "results directory")
	if help || err != nil {
		return err
	}
	return writeReport(ctx, e, dir, false)
}

// writeReport renders the report of a results directory into DIR/report,
// with the run compared with its config's reference digests (pueval
// verify's verdict, in the run's facts); showVerify prints that verdict
// after the report's path, as the last line of pueval reproduce.
// Rendering does not check ctx (a figure is drawn whole); after a signal the
// command still fails, whether the report stopped at a check here or
// finished first (Main's grace exit ends it if neither comes in time), so a
// signal always ends pueval report with the error status.
func writeReport(ctx context.Context, e *env, dir string, showVerify bool) error {
	recs, err := results.ReadRecords(dir)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s: no records", dir)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("stopped before writing the report: %w", context.Cause(ctx))
	}
	// The report directory is locked while it is written (a run may still
	// be appending to the records it reads: that is safe, they are read as
	// they stand); its files are written atomically.
	out := filepath.Join(dir, "report")
	lock, err := results.LockDir(out)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	man, err := results.ReadManifest(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	line, problem := verification(dir, recs, man)
	index, err := report.Write(out, report.Input{Records: recs, Manifest: man, Verify: report.Verification{Line: line, Problem: problem}})
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("stopped, after writing the report into %s in full: %w", out, context.Cause(ctx))
	}
	fmt.Fprintf(e.stdout, "%s\n", index)
	if showVerify {
		fmt.Fprintf(e.stdout, "%s: %s\n", dir, line)
	}
	return nil
}

// loadOptions are the checks of a config against this binary: the data-set
// catalog's names and the registered reports.
func loadOptions(catalog []string) experiments.LoadOptions {
	return experiments.LoadOptions{Catalog: catalog, Reports: report.Names()}
}

func runConfig(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] != "check" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			c, _ := lookup("config")
			fmt.Fprintf(e.stdout, "Usage: pueval config %s\n\n%s.\n", c.args, upperFirst(c.aboutText()))
			return nil
		}
		return errors.New("want 'pueval config check CONFIG'")
	}
	fs := flagSet("config")
	path, help, err := parseWithPositional(e, fs, args[1:], "config file")
	if help || err != nil {
		return err
	}
	cat, err := (&datasetsOpts{}).readCatalog()
	if err != nil {
		return err
	}
	cfg, err := experiments.ReadConfig(path, loadOptions(cat.Names()))
	if err != nil {
		return err
	}
	// The resolved plan: every plug-in with all its options, defaults
	// included, so that a reader sees what a run computes; the cells are
	// counted, not expanded (ReadConfig refused more than MaxCells).
	fmt.Fprintf(e.stdout, "config: %s (sha256 %s)\n%scells: %d\n", cfg.Source, cfg.Hash, cfg.Plan(), cfg.CellCount())
	printDerivation(e, cfg)
	fmt.Fprintln(e.stdout, "ok")
	return nil
}

// printDerivation says which built-in config cfg derives from and what it
// changed (experiments.Config.Derivation), when it derives from one.
func printDerivation(e *env, cfg *experiments.Config) {
	d := cfg.Derivation()
	if d == nil {
		return
	}
	if len(d.Differences) == 0 {
		fmt.Fprintf(e.stdout, "derived from: %s (no setting differs)\n", d.Config)
		return
	}
	fmt.Fprintf(e.stdout, "derived from: %s, differing in (its value -> this one's):\n", d.Config)
	for _, diff := range d.Differences {
		fmt.Fprintf(e.stdout, "  %s\n", diff)
	}
}
