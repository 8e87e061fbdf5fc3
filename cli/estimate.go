package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/evaluate"
	"github.com/pueval/pueval/internal/scorefile"
)

// estimateReport is the JSON output of `pueval estimate`.
type estimateReport struct {
	Method     string        `json:"method"`
	Knee       string        `json:"knee"`
	Alpha      number        `json:"alpha"` // positives among the unlabeled
	Beta       number        `json:"beta"`  // positives among the labeled
	NLabeled   int           `json:"n_labeled"`
	NUnlabeled int           `json:"n_unlabeled"`
	Runs       []estimateRun `json:"runs"`
	Warnings   []string      `json:"warnings"`
	KM         *kmTrace      `json:"km,omitempty"` // km1, km2: how the estimate was reached
}

// estimateRun summarises one AlphaMax run (its curve goes to --curve).
type estimateRun struct {
	Curve    string  `json:"curve"`    // "unlabeled": U as mixture (alpha/beta); "labeled": L as mixture (kappa)
	Estimate number  `json:"estimate"` // the run's result
	Knee     number  `json:"knee"`     // the knee part of the rule
	Drop     *number `json:"drop,omitempty"`
	BinWidth number  `json:"bin_width"`
	Bins     int     `json:"bins"`
}

// estimateHelp is the long help of `pueval estimate -h`.
const estimateHelp = `alpha is the fraction of positives among the unlabeled examples (the class prior), beta
among the labeled ones (1: clean labels). The score-reading methods (alphamax, alphamax-n,
distcurve) read a score file (score,label; label 1 = labeled, 0 = unlabeled) whose scores
are a classifier's held-out scores for telling labeled from unlabeled, higher = more like
the labeled. km1 and km2 read the features of a CSV instead (every column but --label).
--method all runs every method that applies to the file, side by side: the score-reading
ones when it has a score column, km1 and km2 when it has feature columns (on a random
subsample of --km-max-rows rows: their kernel matrix is dense).`

func runEstimate(ctx context.Context, e *env, args []string) error {
	fs := flagSet("estimate")
	input := fs.String("input", "", "CSV `file` with header score,label (label 1 = labeled, 0 = unlabeled); for km1 and km2 a CSV of features with a header and a label column (--label)")
	method := fs.String("method", "alphamax-n", "estimator: alphamax (clean labels, beta = 1), alphamax-n (noisy labels), distcurve (scores), km1 or km2 (features), or all (every one that applies, side by side)")
	ignore := fs.String("ignore", "", "--method all: comma-separated `columns` that are not features (identifiers, a truth column)")
	kmRows := fs.Int("km-max-rows", evaluate.DefaultKMMaxRows, "--method all: km1 and km2 read a random subsample of at most `N` rows")
	label := fs.String("label", "label", "km1, km2: the `column` that is 1 for the labeled (component) rows and 0 for the unlabeled (mixture) rows; every other column is a feature")
	features := fs.String("features", "zscore", "km1, km2: feature `scaling` over all rows: zscore, minmax or raw (the published code's)")
	seed := fs.Uint64("seed", 1, "distcurve: `seed` of the curve's random draws")
	knee := fs.String("knee", classprior.DefaultKnee, "rule that picks alpha on the likelihood curve: "+strings.Join(classprior.Knees(), ", "))
	curve := fs.String("curve", "", "write the log-likelihood curve(s) to this CSV `file` (alpha,loglik,run)")
	format := fs.String("format", "json", "output `format`: json or table")
	if help, err := parseInputFlags(e, fs, args, input, format); help || err != nil {
		return err
	}
	switch *method {
	case "all":
		if *kmRows < 20 {
			return fmt.Errorf("--km-max-rows %d: want at least 20", *kmRows)
		}
		return estimateAll(ctx, e, *input, *label, splitList(*ignore), *seed, *kmRows, *format)
	case classprior.KM1Name, classprior.KM2Name:
		return estimateKM(ctx, e, *method, *input, *label, *features, *format)
	case classprior.DistCurveName:
		return estimateDistCurve(ctx, e, *input, *seed, *format)
	}
	return estimateAlphaMax(ctx, e, *method, *knee, *input, *curve, *format)
}

// estimateAlphaMax runs AlphaMax or AlphaMax-N (method) with the knee rule
// knee on a score file.
func estimateAlphaMax(ctx context.Context, e *env, method, knee, input, curve, format string) error {
	// The AlphaMax family: the flags are its options.
	var cfg classprior.Config
	switch o := (classprior.Options{Knee: knee}); method {
	case classprior.AlphaMaxName:
		cfg = &classprior.AlphaMax{Options: o}
	case classprior.AlphaMaxNName:
		cfg = &classprior.AlphaMaxN{Options: o}
	default:
		return fmt.Errorf("--method %q: want %s, %s, %s, %s or %s", method, classprior.AlphaMaxName, classprior.AlphaMaxNName,
			classprior.DistCurveName, classprior.KM1Name, classprior.KM2Name)
	}
	if !slices.Contains(classprior.Knees(), knee) {
		return fmt.Errorf("--knee %q: want one of %s", knee, strings.Join(classprior.Knees(), ", "))
	}
	est, err := cfg.New()
	if err != nil {
		return err
	}
	d, err := scorefile.ReadFileContext(ctx, input)
	if err != nil {
		return err
	}
	labeled, unlabeled := split(d)
	// No subsampling caps are set, so no random source is needed.
	r, err := est.Estimate(ctx, classprior.Input{Labeled: labeled, Unlabeled: unlabeled}, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", input, err)
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	if curve != "" {
		if err := writeCurves(curve, r.Curves); err != nil {
			return err
		}
	}
	rep := newEstimateReport(r, len(labeled), len(unlabeled))
	if format == "json" {
		return writeJSON(e.stdout, rep)
	}
	return writeEstimateTable(e.stdout, rep)
}

// newEstimateReport is the report of AlphaMax's estimate r from nL labeled
// and nU unlabeled scores.
func newEstimateReport(r classprior.Estimate, nL, nU int) estimateReport {
	rep := estimateReport{
		Method: r.Method, Knee: r.Knee, Alpha: number(r.Alpha), Beta: number(r.Beta),
		NLabeled: nL, NUnlabeled: nU, Warnings: r.Warnings,
	}
	if rep.Warnings == nil {
		rep.Warnings = []string{} // an empty list, not null, for consumers
	}
	for _, c := range r.Curves {
		run := estimateRun{Curve: c.Name, Estimate: number(c.Estimate), Knee: number(c.Knee), BinWidth: number(c.BinWidth), Bins: c.Bins}
		if r.Knee == classprior.KneeBlend {
			drop := number(c.Drop)
			run.Drop = &drop
		}
		rep.Runs = append(rep.Runs, run)
	}
	return rep
}

// writeEstimateTable writes the report of `pueval estimate --format table`.
func writeEstimateTable(w io.Writer, rep estimateReport) error {
	t := newTable(w)
	t.row("method", rep.Method)
	t.row("knee", rep.Knee)
	t.row("alpha", float64(rep.Alpha), "positives among the unlabeled")
	t.row("beta", float64(rep.Beta), "positives among the labeled")
	t.row("n_labeled", rep.NLabeled)
	t.row("n_unlabeled", rep.NUnlabeled)
	for _, run := range rep.Runs {
		what := "alpha/beta (unlabeled as mixture)"
		if run.Curve == classprior.CurveLabeled {
			what = "kappa = (1-beta)/(1-alpha) (labeled as mixture)"
		}
		t.row("run "+run.Curve, float64(run.Estimate), what)
	}
	for _, w := range rep.Warnings {
		t.row("warning", w)
	}
	return t.flush()
}

// estimateAllReport is the JSON output of `pueval estimate --method all`.
type estimateAllReport struct {
	NLabeled   int                        `json:"n_labeled"`
	NUnlabeled int                        `json:"n_unlabeled"`
	Methods    []evaluate.EstimatorResult `json:"methods"`
	Agreement  *evaluate.Agreement        `json:"agreement"`
}

// estimateAll runs every estimator that applies to the file: the
// score-reading ones on its score column, the feature-reading ones on its
// other columns.
func estimateAll(ctx context.Context, e *env, input, label string, ignore []string, seed uint64, kmRows int, format string) error {
	head, err := readHeader(input)
	if err != nil {
		return err
	}
	spec := tableSpec{label: label, ignore: ignore, maxRows: scorefileMaxRows, tooMany: "split the file or subsample it", noFeatures: true}
	if i := slices.IndexFunc(head, func(h string) bool { return strings.EqualFold(h, "score") }); i >= 0 {
		spec.score = head[i]
	}
	ft, err := readFeatureTable(ctx, input, spec)
	if err != nil {
		return err
	}
	in := evaluate.Input{Scores: ft.Scores, Labeled: ft.Labeled, Features: ft.X}
	if in.Scores == nil && in.Features == nil {
		return fmt.Errorf("%s: neither a score column nor feature columns besides %q", input, label)
	}
	ms, agree, err := evaluate.Estimate(ctx, in, evaluate.Options{Seed: seed, KMMaxRows: kmRows})
	if err != nil {
		return fmt.Errorf("%s: %w", input, err)
	}
	rep := estimateAllReport{Methods: ms, Agreement: agree}
	for _, l := range ft.Labeled {
		if l {
			rep.NLabeled++
		}
	}
	rep.NUnlabeled = len(ft.Labeled) - rep.NLabeled
	if format == "json" {
		return writeJSON(e.stdout, rep)
	}
	t := newTable(e.stdout)
	t.row("n_labeled", rep.NLabeled)
	t.row("n_unlabeled", rep.NUnlabeled)
	t.row("method", "reads", "alpha", "beta", "beta-alpha", "rows", "seconds", "note")
	for _, m := range ms {
		var note []string
		if m.CleanLabels {
			note = append(note, "assumes beta = 1")
		}
		if m.Subsampled {
			note = append(note, "random subsample")
		}
		if m.Error != "" {
			note = append(note, "failed: "+m.Error)
		}
		note = append(note, m.Warnings...)
		t.row(m.Method, m.Reads, float64(m.Alpha), float64(m.Beta), float64(m.BetaMinusAlpha), m.Rows, strconv.FormatFloat(m.Seconds, 'f', 3, 64), strings.Join(note, "; "))
	}
	if a := agree; a != nil {
		t.row("agreement", fmt.Sprintf("%d estimators: alpha %v to %v, beta %v to %v, beta-alpha %v to %v", a.Estimators,
			number(a.Alpha.Min), number(a.Alpha.Max), number(a.Beta.Min), number(a.Beta.Max), number(a.BetaMinusAlpha.Min), number(a.BetaMinusAlpha.Max)))
	}
	return t.flush()
}

// writeCurves writes every run's corrected log-likelihood curve as CSV rows
// alpha,loglik,run, one per grid point and run.
func writeCurves(path string, curves []classprior.Curve) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--curve: %w", err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "alpha,loglik,run")
	for _, c := range curves {
		for i, a := range c.Alpha {
			fmt.Fprintf(w, "%s,%s,%s\n", strconv.FormatFloat(a, 'g', -1, 64), strconv.FormatFloat(c.LogLik[i], 'g', -1, 64), c.Name)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("--curve %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--curve %s: %w", path, err)
	}
	return nil
}
