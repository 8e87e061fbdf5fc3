package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/report"
)

// reproduceAllHelp is the longer help of pueval reproduce-all: what it
// does and the reproductions this binary registers.
func reproduceAllHelp() string {
	var b strings.Builder
	b.WriteString(reproduceAllText + "\n\nThe papers and their configs (full; smoke):\n")
	for _, r := range experiments.Reproductions() {
		fmt.Fprintf(&b, "  %s: %s; %s\n", r.Paper, strings.Join(r.Full, ", "), strings.Join(r.Smoke, ", "))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// reproduceAllText is the fixed part of reproduceAllHelp.
const reproduceAllText = `Runs the reproduction of every paper this binary knows (each paper's configs, in the order listed
below) into DIR/CONFIG with its report, as pueval reproduce does, then writes DIR/index.html: a
landing page with one card per paper (the claims that hold, do not hold and were not checked, each
run compared with its reference digests as pueval verify does, the cells, the time spent, the links
to the reports). Interrupted, it continues where it stopped when run again: finished runs are not
run again, and the time of each run adds up over the calls (DIR/reproduce-all.json). The runs share
one score cache (the default: scores/ in the data cache). --smoke runs the papers' smoke configs
instead (seconds each) and writes the same page.`

// timesFile keeps, in reproduce-all's output directory, the wall-clock
// seconds spent on each config's run and report, summed over the calls.
const timesFile = "reproduce-all.json"

func runReproduceAll(ctx context.Context, e *env, args []string) error {
	fs := flagSet("reproduce-all")
	root := fs.String("o", "results", "output `directory`: each config's run goes to DIR/CONFIG, the landing page to DIR/index.html")
	smoke := fs.Bool("smoke", false, "run the papers' smoke configs instead of the full reproductions")
	only := fs.String("papers", "", "reproduce only these papers, comma-separated `a,b`")
	var f runFlags
	fs.IntVar(&f.workers, "j", 1, "cells run at once; each cell trains its nets on all cores (`N`)")
	fs.StringVar(&f.cache, "cache", "", "data cache `dir` (default $PUEVAL_DATA, else $XDG_CACHE_HOME/pueval or ~/.cache/pueval)")
	fs.StringVar(&f.scoreCache, "score-cache", "", "score cache `dir` (default: scores/ in the data cache; shared by the papers)")
	fs.BoolVar(&f.noScoreCache, "no-score-cache", false, "train every classifier, reading and writing no cached scores")
	if help, err := parseFlags(e, fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (see 'pueval reproduce-all -h')", fs.Arg(0))
	}
	papers, err := selectReproductions(*only)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*root, 0o755); err != nil {
		return err
	}
	times, err := readTimes(*root)
	if err != nil {
		return err
	}
	// A run that cannot start or finish (its data missing) leaves its card
	// without a report and the others go on; an interruption stops all.
	var failed []string
	var errs []error
	for _, p := range papers {
		for _, cfg := range configsOf(p, *smoke) {
			ok, err := reproduceOne(ctx, e, *root, cfg, f, times)
			if ctx.Err() != nil {
				return err
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "pueval: reproduce-all: %v\n", err)
				errs = append(errs, err)
				continue
			}
			if !ok {
				failed = append(failed, cfg)
			}
		}
	}
	if err := writeLanding(*root, papers, *smoke, times); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s\n", filepath.Join(*root, "index.html"))
	if len(errs) > 0 {
		return fmt.Errorf("%d run(s) stopped with an error (above; the landing page marks them): %w", len(errs), errors.Join(errs...))
	}
	if len(failed) > 0 {
		return &cellsFailedError{dir: *root, runs: failed}
	}
	return nil
}

// selectReproductions are the registered reproductions, or those named in
// only (comma-separated).
func selectReproductions(only string) ([]experiments.Reproduction, error) {
	all := experiments.Reproductions()
	if len(all) == 0 {
		return nil, errors.New("this binary registers no paper reproduction")
	}
	if only == "" {
		return all, nil
	}
	var out []experiments.Reproduction
	var names []string
	for _, r := range all {
		names = append(names, r.Paper)
	}
	for _, name := range strings.Split(only, ",") {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(all, func(r experiments.Reproduction) bool { return r.Paper == name })
		if i < 0 {
			return nil, fmt.Errorf("--papers: no paper %q (known: %s)", name, strings.Join(names, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

// configsOf are the configs of p's full or smoke reproduction.
func configsOf(p experiments.Reproduction, smoke bool) []string {
	if smoke {
		return p.Smoke
	}
	return p.Full
}

// reproduceOne runs cfg into root/cfg and writes its report, adding the
// time it took to times (saved at once, so an interrupted call keeps it).
// ok is false when the run finished with failed cells.
func reproduceOne(ctx context.Context, e *env, root, cfg string, f runFlags, times map[string]float64) (ok bool, err error) {
	f.out = filepath.Join(root, cfg)
	fmt.Fprintf(e.stderr, "pueval: reproduce-all: %s into %s\n", cfg, f.out)
	start := time.Now()
	defer func() {
		times[cfg] += time.Since(start).Seconds()
		if werr := writeTimes(root, times); werr != nil && err == nil {
			err = werr
		}
	}()
	out, err := runExperiment(ctx, e, cfg, &f)
	var failed *cellsFailedError
	if err != nil && !errors.As(err, &failed) {
		return false, fmt.Errorf("%s: %w (run pueval reproduce-all again to continue)", cfg, err)
	}
	if rerr := writeReport(ctx, e, out, true); rerr != nil {
		return false, fmt.Errorf("%s: report: %w", cfg, rerr)
	}
	return failed == nil, nil
}

// readTimes reads root/reproduce-all.json (empty when there is none).
func readTimes(root string) (map[string]float64, error) {
	times := map[string]float64{}
	b, err := os.ReadFile(filepath.Join(root, timesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return times, nil
	}
	if err != nil {
		return nil, err
	}
	var v struct {
		Seconds map[string]float64 `json:"seconds"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to start the times afresh)", filepath.Join(root, timesFile), err)
	}
	for k, s := range v.Seconds {
		times[k] = s
	}
	return times, nil
}

// writeTimes writes root/reproduce-all.json.
func writeTimes(root string, times map[string]float64) error {
	b, err := json.MarshalIndent(struct {
		Seconds map[string]float64 `json:"seconds"`
	}{times}, "", "  ")
	if err != nil {
		return err
	}
	return report.WriteFile(filepath.Join(root, timesFile), append(b, '\n'))
}

// writeLanding writes root/index.html from the reports of the papers' runs.
func writeLanding(root string, papers []experiments.Reproduction, smoke bool, times map[string]float64) error {
	l := report.Landing{Title: "pueval: the papers' reproductions"}
	if smoke {
		l.Title = "pueval: the papers' smoke runs"
	}
	var total time.Duration
	for _, p := range papers {
		lp := report.LandingPaper{Paper: p.Paper}
		for _, cfg := range configsOf(p, smoke) {
			run := report.LandingRun{Config: cfg, Took: time.Duration(times[cfg] * float64(time.Second))}
			total += run.Took
			o, err := report.ReadOverview(filepath.Join(root, cfg, "report"))
			switch {
			case err == nil:
				run.Report, run.Overview = cfg+"/report/index.html", o
			case errors.Is(err, fs.ErrNotExist):
				run.Missing = fmt.Sprintf("%s has no report yet (run pueval reproduce-all again)", filepath.Join(root, cfg))
			default:
				return err
			}
			lp.Runs = append(lp.Runs, run)
		}
		l.Papers = append(l.Papers, lp)
	}
	l.CodeVersion, l.Took = Version(), total
	return report.WriteLanding(root, l)
}
