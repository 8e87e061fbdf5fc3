// Command bench-evaluate runs the practitioner's benchmark of pueval
// evaluate (package benchevaluate) and prints its tables; `make
// bench-evaluate` runs it (QUICK=1: the quick design).
//
// Usage:
//
//	bench-evaluate [-quick] [-j N] [-seed S] [-json FILE] [-cache DIR] [-cases REGEXP] [-max-rows N] [-set tuning|validation]
//	bench-evaluate -from FILE   # the tables of an earlier run's JSON
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"time"

	"github.com/pueval/pueval/configs"
	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/internal/benchevaluate"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bench-evaluate:", err)
		os.Exit(1)
	}
}

type flags struct {
	design, jsonOut, from, cache, cases, set string
	quick, grid                              bool
	seed                                     uint64
	bootstrap, aloneMaxRows, maxRows, jobs   int
}

func parse(args []string, stderr io.Writer) (flags, error) {
	var f flags
	fs := flag.NewFlagSet("bench-evaluate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.design, "design", "full", "`design`: full or quick")
	fs.BoolVar(&f.quick, "quick", false, "the quick design (same as -design quick)")
	fs.Uint64Var(&f.seed, "seed", 1, "the `seed` every split, model and evaluation derives its streams from")
	fs.IntVar(&f.bootstrap, "bootstrap", benchevaluate.DefaultBootstrap, "evaluate's bootstrap `resamples` (pueval evaluate's default)")
	fs.IntVar(&f.aloneMaxRows, "alone-max-rows", -1, "largest case (`rows`) evaluated again with each estimator alone; -1: the design's (quick 5000, full 15000), 0: none")
	fs.IntVar(&f.jobs, "j", runtime.GOMAXPROCS(0), "cases run at once (`workers`); never changes a number")
	fs.StringVar(&f.cache, "cache", "", "score cache `dir` (default: bench-evaluate/ under the data cache, $PUEVAL_DATA)")
	fs.StringVar(&f.jsonOut, "json", "", "write every case's numbers to this JSON `file` (default results/bench-evaluate/DESIGN.json; - for none)")
	fs.StringVar(&f.from, "from", "", "print the tables of an earlier run's JSON `file` instead of running")
	fs.StringVar(&f.cases, "cases", "", "run only the cases whose ID matches this `regexp` (IDs: source/nN/cC/aALPHA/bBETA/rREP/MODEL/SCALE)")
	fs.IntVar(&f.maxRows, "max-rows", 0, "run only the cases of at most this many `rows` (0: all)")
	fs.StringVar(&f.set, "set", "", "run only the tuning or the validation `set` (default both)")
	fs.BoolVar(&f.grid, "grid", false, "also record each case's recovered numbers on a grid of priors around the estimated ones (for fitting the region evaluate's intervals cover)")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if f.quick {
		f.design = "quick"
	}
	switch {
	case f.jobs < 1:
		return f, fmt.Errorf("-j %d: want at least 1 worker", f.jobs)
	case f.bootstrap < 1:
		return f, fmt.Errorf("-bootstrap %d: want at least 1 resample (the benchmark measures intervals)", f.bootstrap)
	case f.set != "" && f.set != "tuning" && f.set != "validation":
		return f, fmt.Errorf("-set %q: want tuning or validation", f.set)
	case f.maxRows < 0:
		return f, fmt.Errorf("-max-rows %d: want 0 (all) or a number of rows", f.maxRows)
	}
	return f, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parse(args, stderr)
	if err != nil {
		return err
	}
	if f.from != "" {
		res, err := readResult(f.from)
		if err != nil {
			return err
		}
		benchevaluate.WriteTables(stdout, res)
		return nil
	}
	opts, err := options(f, stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := benchevaluate.Run(ctx, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "bench-evaluate: %d cases in %s\n", len(res.Cases), time.Since(start).Round(time.Second))
	out := f.jsonOut
	if out == "" {
		out = filepath.Join("results", "bench-evaluate", opts.Design.Name+".json")
	}
	if out != "-" {
		if err := writeResult(out, res); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "bench-evaluate: every case's numbers in %s\n", out)
	}
	benchevaluate.WriteTables(stdout, res)
	for _, c := range res.Cases {
		if c.Error != "" {
			return errors.New("some cases failed (listed above the tables)")
		}
	}
	return nil
}

// options turns the flags into the benchmark's options.
func options(f flags, stderr io.Writer) (benchevaluate.Options, error) {
	design, err := benchevaluate.DesignNamed(f.design)
	if err != nil {
		return benchevaluate.Options{}, fmt.Errorf("-design: %w", err)
	}
	dopts, err := datasets.DefaultOptions()
	if err != nil {
		return benchevaluate.Options{}, err
	}
	cat, err := datasets.ReadCatalogFS(configs.FS, configs.DatasetsFile)
	if err != nil {
		return benchevaluate.Options{}, err
	}
	st, err := datasets.Open(cat, dopts)
	if err != nil {
		return benchevaluate.Options{}, err
	}
	cache := f.cache
	if cache == "" {
		cache = filepath.Join(dopts.CacheDir, "bench-evaluate")
	}
	alone := f.aloneMaxRows
	if alone < 0 {
		alone = design.AloneMaxRows
	}
	var re *regexp.Regexp
	if f.cases != "" {
		if re, err = regexp.Compile(f.cases); err != nil {
			return benchevaluate.Options{}, fmt.Errorf("-cases: %w", err)
		}
	}
	keep := func(c benchevaluate.Case) bool {
		return (re == nil || re.MatchString(c.ID())) && (f.maxRows == 0 || c.N <= f.maxRows) &&
			(f.set == "" || c.Validation == (f.set == "validation"))
	}
	return benchevaluate.Options{Design: design, Seed: f.seed, Bootstrap: f.bootstrap, AloneMaxRows: alone,
		Workers: f.jobs, Cache: benchevaluate.Cache{Dir: cache}, Load: st.LoadShared, Keep: keep, Log: stderr, Grid: f.grid}, nil
}

func writeResult(path string, res *benchevaluate.Result) error {
	b, err := json.MarshalIndent(res, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func readResult(path string) (*benchevaluate.Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var res benchevaluate.Result
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if res.Schema != benchevaluate.Schema {
		return nil, fmt.Errorf("%s: schema %q, want %q", path, res.Schema, benchevaluate.Schema)
	}
	return &res, nil
}
