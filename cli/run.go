package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// command is one subcommand of pueval. To add one, write its run function in
// a file of its own, list it in commands and document it in docs/cli.md (a
// test compares that page with every command's flags).
type command struct {
	name    string
	args    string // synopsis of the arguments, for help
	summary string // one line of pueval help: at most summaryWidth characters
	about   string // the first paragraph of -h; summary when empty
	run     func(ctx context.Context, env *env, args []string) error
}

// summaryWidth keeps each line of pueval help within 80 columns.
const summaryWidth = 64

// env carries the streams of one invocation, so that tests can call Run directly.
type env struct {
	stdout, stderr io.Writer
}

var commands []command

// commandHelp is the longer help of a command, printed by -h after its
// summary: what its input must be and what its numbers mean. It is a
// function because some help lists what the binary's plug-ins registered.
var commandHelp = map[string]func() string{
	"evaluate":      func() string { return evaluateHelp },
	"correct":       func() string { return correctHelp },
	"estimate":      func() string { return estimateHelp },
	"bounds":        func() string { return boundsHelp },
	"run":           runHelpText,
	"reproduce":     reproduceHelpText,
	"verify":        func() string { return verifyHelp },
	"reproduce-all": reproduceAllHelp,
}

func init() {
	// Assigned in init because the help command refers to the list itself.
	// The practitioner's commands first, then the reproductions', then the rest.
	commands = []command{
		{"evaluate", "--input FILE [--label COLUMN] [--score COLUMN | --classifier nnet-bag|gbdt] [--alpha A --beta B] [--estimators a,b|all] [--bootstrap N] [--level L] [--seed S] [--truth COLUMN] [--ignore a,b] [--feature-columns a,b] [--outside drop|clip] [--threshold T] [--format json|table] [--html DIR] [--scores-out FILE]",
			"how good a model really is, from positive-unlabeled data",
			"tell how good a model really is from positive-unlabeled data: train it (or read its held-out scores), estimate alpha and beta with every estimator, recover ROC/PR curves, AUC, AUC-PR, acc, bacc, F1, MCC with bootstrap intervals and bounds", runEvaluate},
		{"correct", "--input FILE [--score COLUMN] [--label COLUMN] (--alpha A --beta B | --estimate METHOD) [--outside drop|clip] [--bootstrap N [--level L] [--seed S]] [--format json|table] [--plot DIR]",
			"recover the true AUC, AUC-PR, F1, MCC, ... of PU scores",
			"recover the true AUC, AUC-PR, acc, bacc, F1, MCC of a classifier from its scores on labeled and unlabeled data", runCorrect},
		{"estimate", "--input FILE [--method alphamax|alphamax-n|distcurve|km1|km2|all] [--scale rank|raw] [--knee drop|blend|concave-start|fixed|published] [--curve OUT.csv] [--score COLUMN] [--label COLUMN] [--ignore a,b] [--feature-columns a,b] [--features zscore|minmax|raw] [--km-max-rows N] [--seed S] [--format json|table]",
			"estimate the class prior alpha and the label noise beta",
			"estimate the class prior alpha and label noise beta of PU scores (AlphaMax, AlphaMax-N, DistCurve) or features (KM1, KM2), one method or all side by side", runEstimate},
		{"bounds", "--input FILE [--score COLUMN] [--label COLUMN] [--negatives V] (--alpha A | --alpha-interval LO,HI | --peek-positives N --peek-negatives M) [--band bootstrap|dkw] [--resamples N] [--level L] [--seed S] [--ties grouped|input-order] [--format json|table] [--plot DIR]",
			"bounds on the ROC and PR curves, AUC and AUPR (Claesen 2015)",
			"bound the ROC and PR curves, AUC and AUPR of a classifier from positive and unlabeled data (Claesen et al. 2015)", runBounds},
		{"metrics", "--input FILE [--score COLUMN] [--label COLUMN] [--format json|table] [--pu]",
			"AUC, AUC-PR, AUL and best thresholds of a labeled sample",
			"ROC/PR/lift areas and best thresholds of a scored, labeled sample", runMetrics},
		{"reproduce", "PAPER [-o DIR] [-j N] [--repeats N] [--datasets a,b]",
			"run a paper's built-in config, then write its report",
			"run a paper's built-in config into results/PAPER, then write its report", runReproduce},
		{"reproduce-all", "[--smoke] [-o DIR] [-j N] [--papers a,b]",
			"reproduce every paper, then write a landing page",
			"reproduce every paper (resumable), then write DIR/index.html, a landing page linking the reports", runReproduceAll},
		{"run", "CONFIG [-o DIR] [-j N] [--repeats N] [--datasets a,b] [--shard k/n]",
			"run an experiment config into DIR/records.jsonl",
			"run an experiment config (a file, or the name of a built-in one) into DIR/records.jsonl", runRun},
		{"report", "DIR",
			"write the tables and figures of a results directory",
			"write the tables and figures of a results directory into DIR/report (index.html)", runReport},
		{"verify", "DIR [--reference FILE] [--write-reference FILE]",
			"compare a run's records with its paper's reference digests",
			"compare the records of a results directory, cell by cell, with the reference digests of its config", runVerify},
		{"config", "check CONFIG",
			"check an experiment config: every error with its line",
			"check an experiment config: every error at once with its line", runConfig},
		{"merge", "OUT SHARD_DIR... [--config CONFIG] [--partial]",
			"merge the shards of a run (run --shard k/n) into one directory",
			"merge the results directories of the shards of a run (pueval run --shard k/n) into OUT, as one run would have written them", runMerge},
		{"slurm", "CONFIG --array N [-o DIR] [--partition P] [--time T] [--cpus-per-task C] [-j N] [--repeats N] [--datasets a,b] [--pueval PATH] [--submit]",
			"write (and submit) a Slurm job array that runs a config",
			"write (and with --submit, submit) a Slurm job array that runs CONFIG as N shards, and a job after it that merges them into DIR and writes the report", runSlurm},
		{"figure", "NAME --out DIR",
			"draw a paper's figure from its equations alone (no data)",
			"draw a figure of the papers from their equations alone (no data needed)", runFigure},
		{"datasets", "list|describe|verify|fetch|export [flags] [NAME...]",
			"list, load, verify, fetch and export the catalog's data sets",
			"list, load, verify, fetch and export the UCI data sets of the catalog", runDatasets},
		{"version", "", "print the version of pueval (also pueval --version)", "", runVersion},
		{"help", "[COMMAND]", "show help for pueval or for one command", "", runHelp},
	}
}

// aboutText is the first paragraph of a command's -h.
func (c command) aboutText() string {
	if c.about != "" {
		return c.about
	}
	return c.summary
}

// Exit statuses of pueval.
const (
	exitError       = 1
	exitCellsFailed = 3
)

// exitCode is the exit status for an error Run returned.
func exitCode(err error) int {
	var failed *cellsFailedError
	if errors.As(err, &failed) {
		return exitCellsFailed
	}
	return exitError
}

// Run executes pueval with the given arguments (without the program name),
// writing to stdout and stderr: the testable core of Main, which prints the
// error Run returns and maps it to the exit status (exitCode). Every error it
// returns starts with "pueval:".
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	e := &env{stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		printOverview(stderr)
		return errors.New("pueval: no command given")
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		printOverview(stdout)
		return nil
	case "-version", "--version":
		return runVersion(ctx, e, args[1:])
	}
	c, ok := lookup(name)
	if !ok {
		return fmt.Errorf("pueval: unknown command %q (run 'pueval help' for the list)", name)
	}
	if err := c.run(ctx, e, args[1:]); err != nil {
		if strings.HasPrefix(err.Error(), "pueval:") {
			return err
		}
		return fmt.Errorf("pueval: %s: %w", c.name, err)
	}
	return nil
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// printOverview is pueval help: one line per command, within 80 columns.
func printOverview(w io.Writer) {
	fmt.Fprintln(w, "pueval: the true performance of classifiers from positive-unlabeled data")
	fmt.Fprintln(w, "\nUsage: pueval COMMAND [flags]\n\nCommands:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nRun 'pueval COMMAND -h' for the flags of a command (all in docs/cli.md).")
	fmt.Fprintf(w, "\nExit status: 0 done (every cell of a run ok), %d an error (the message says\n"+
		"what and where), %d a run or reproduction finished but some of its cells\n"+
		"failed (their records say why; the report lists them).\n", exitError, exitCellsFailed)
}

func runHelp(ctx context.Context, e *env, args []string) error {
	fs := flagSet("help")
	if help, err := parseFlags(e, fs, args); help || err != nil {
		return err
	}
	args = fs.Args()
	if len(args) == 0 {
		printOverview(e.stdout)
		return nil
	}
	c, ok := lookup(args[0])
	if !ok {
		return fmt.Errorf("unknown command %q", args[0])
	}
	return c.run(ctx, e, []string{"-h"})
}

// flagSet returns a flag set for command name whose errors are returned, not printed.
func flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args into fs. It reports help=true (and prints the usage
// to stdout) when -h was given; parse errors come back naming the command.
func parseFlags(e *env, fs *flag.FlagSet, args []string) (help bool, err error) {
	err = fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		c, _ := lookup(fs.Name())
		fmt.Fprintf(e.stdout, "Usage: pueval %s %s\n\n%s.\n", c.name, c.args, upperFirst(c.aboutText()))
		if long, ok := commandHelp[c.name]; ok {
			fmt.Fprintf(e.stdout, "\n%s\n", long())
		}
		if hasFlags(fs) {
			fmt.Fprintln(e.stdout, "\nFlags:")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("pueval: %s: %v (see 'pueval %s -h')", fs.Name(), err, fs.Name())
	}
	return false, nil
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
