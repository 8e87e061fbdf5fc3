package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
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
	Scale      string        `json:"scale"` // where the histograms were drawn: rank or raw
	Knee       string        `json:"knee"`
	Alpha      number        `json:"alpha"` // positives among the unlabeled
	Beta       number        `json:"beta"`  // positives among the labeled
	NLabeled   int           `json:"n_labeled"`
	NUnlabeled int           `json:"n_unlabeled"`
	Runs       []estimateRun `json:"runs"`
	Warnings   []string      `json:"warnings"`
	KM         *kmTrace      `json:"km,omitempty"` // km1, km2: how the estimate was reached
	// Columns says which column of the input was read as what.
	Columns scorefile.Columns `json:"columns"`
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
distcurve) read a score file (label 1 = labeled, 0 or empty = unlabeled; the columns named by
--score and --label) whose scores are a classifier's held-out scores for telling labeled from
unlabeled, higher = more like the labeled. km1 and km2 read the features of a CSV instead:
every column but --label, --ignore and the score column, or those --feature-columns names.
--method all runs every method that applies to the file, side by side: when the file has the
--score column, the score-reading ones on it, and km1 and km2 only on the features
--feature-columns names (the other columns are ignored: an identifier is no feature); without
it, km1 and km2 on every other column. A file with exactly one column besides the label and
the ignored ones is refused: pass --score NAME or --feature-columns NAME to say what it is.
The output says which column was read as what, and warns about a feature column that looks
like a row number or an identifier.`

// estimateFlags are the flags of `pueval estimate`.
type estimateFlags struct {
	cols                                                                     columnFlags
	input, method, ignore, featureCols, features, knee, scale, curve, format string
	kmRows                                                                   int
	seed                                                                     uint64
	// set holds the names of the flags given on the command line.
	set map[string]bool
}

// estimateMethods are the values of --method.
var estimateMethods = []string{classprior.AlphaMaxName, classprior.AlphaMaxNName, classprior.DistCurveName, classprior.KM1Name, classprior.KM2Name, "all"}

// estimateFlagMethods are the methods that read each method-specific flag.
var estimateFlagMethods = map[string][]string{
	"knee":            {classprior.AlphaMaxName, classprior.AlphaMaxNName},
	"scale":           {classprior.AlphaMaxName, classprior.AlphaMaxNName},
	"curve":           {classprior.AlphaMaxName, classprior.AlphaMaxNName},
	"score":           {classprior.AlphaMaxName, classprior.AlphaMaxNName, classprior.DistCurveName, "all"},
	"seed":            {classprior.DistCurveName, classprior.KM1Name, classprior.KM2Name, "all"},
	"features":        {classprior.KM1Name, classprior.KM2Name},
	"km-max-rows":     {classprior.KM1Name, classprior.KM2Name, "all"},
	"ignore":          {classprior.KM1Name, classprior.KM2Name, "all"},
	"feature-columns": {classprior.KM1Name, classprior.KM2Name, "all"},
}

func runEstimate(ctx context.Context, e *env, args []string) error {
	f, help, err := parseEstimateFlags(e, args)
	if help || err != nil {
		return err
	}
	if err := f.check(); err != nil {
		return err
	}
	switch f.method {
	case "all":
		return estimateAll(ctx, e, f)
	case classprior.KM1Name, classprior.KM2Name:
		return estimateKM(ctx, e, f)
	case classprior.DistCurveName:
		return estimateDistCurve(ctx, e, f)
	}
	return estimateAlphaMax(ctx, e, f)
}

// parseEstimateFlags declares and parses the flags of `pueval estimate`.
func parseEstimateFlags(e *env, args []string) (*estimateFlags, bool, error) {
	f := &estimateFlags{set: map[string]bool{}}
	fs := flagSet("estimate")
	fs.StringVar(&f.input, "input", "", "CSV `file` with a header: a score and a label column (label 1 = labeled, 0 or empty = unlabeled); for km1 and km2 features and a label column")
	fs.StringVar(&f.method, "method", "alphamax-n", "estimator: alphamax (clean labels, beta = 1), alphamax-n (noisy labels), distcurve (scores), km1 or km2 (features), or all (every one that applies, side by side)")
	f.cols.add(fs)
	fs.StringVar(&f.ignore, "ignore", "", "km1, km2, all: comma-separated `columns` that are not features (identifiers, a truth column)")
	fs.StringVar(&f.featureCols, "feature-columns", "", "km1, km2, all: comma-separated feature `columns` (default for km1 and km2: every column but the label, the score and --ignore; for all: none when the file has a score column)")
	fs.IntVar(&f.kmRows, "km-max-rows", 0, "km1, km2, all: read a random subsample of at most `N` rows, L and U in their proportions (the kernel matrix is N x N; default: every row for km1 and km2, as the published code, up to 100000; 2000 for all)")
	fs.StringVar(&f.features, "features", "zscore", "km1, km2: feature `scaling` over all rows: zscore, minmax or raw (the published code's)")
	fs.Uint64Var(&f.seed, "seed", 1, "distcurve, km1, km2, all: `seed` of the random draws (the curve's, the --km-max-rows subsample)")
	fs.StringVar(&f.knee, "knee", "", "alphamax, alphamax-n: rule that picks alpha on the likelihood curve: "+strings.Join(classprior.Knees(), ", ")+
		" (default: "+classprior.DefaultRankKnee+" on the rank scale, "+classprior.DefaultKnee+" on the raw scale)")
	fs.StringVar(&f.scale, "scale", classprior.ScaleRank, "alphamax, alphamax-n: where the histograms are drawn: "+classprior.ScaleRank+
		" (the scores' ranks: the same estimate for any strictly increasing transform of the scores) or "+classprior.ScaleRaw+" (the scores as given, as published)")
	fs.StringVar(&f.curve, "curve", "", "alphamax, alphamax-n: write the log-likelihood curve(s) to this CSV `file` (alpha,loglik,run)")
	fs.StringVar(&f.format, "format", "", formatUsage)
	if help, err := parseInputFlags(e, fs, args, &f.input, &f.format); help || err != nil {
		return nil, help, err
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	return f, false, nil
}

// check refuses an unknown method, a flag the method does not read, and
// an output file that is the input, before the input is read.
func (f *estimateFlags) check() error {
	if !slices.Contains(estimateMethods, f.method) {
		return fmt.Errorf("--method %q: want %s or all", f.method, strings.Join(estimateMethods[:len(estimateMethods)-1], ", "))
	}
	for _, name := range slices.Sorted(maps.Keys(estimateFlagMethods)) {
		if ms := estimateFlagMethods[name]; f.set[name] && !slices.Contains(ms, f.method) {
			return fmt.Errorf("--%s: --method %s does not read it (only %s do)", name, f.method, strings.Join(ms, ", "))
		}
	}
	if f.knee != "" && !slices.Contains(classprior.Knees(), f.knee) {
		return fmt.Errorf("--knee %q: want one of %s", f.knee, strings.Join(classprior.Knees(), ", "))
	}
	if !slices.Contains(classprior.Scales(), f.scale) {
		return fmt.Errorf("--scale %q: want one of %s", f.scale, strings.Join(classprior.Scales(), ", "))
	}
	if f.set["km-max-rows"] && f.kmRows < minKMRows {
		return fmt.Errorf("--km-max-rows %d: want at least %d", f.kmRows, minKMRows)
	}
	return notInput("--curve", f.curve, f.input)
}

// estimateAlphaMax runs AlphaMax or AlphaMax-N with the scale of --scale
// and the knee rule of --knee on a score file.
func estimateAlphaMax(ctx context.Context, e *env, f *estimateFlags) error {
	// The AlphaMax family: the flags are its options.
	var cfg classprior.Config
	switch o := (classprior.Options{Scale: f.scale, Knee: f.knee}); f.method {
	case classprior.AlphaMaxName:
		cfg = &classprior.AlphaMax{Options: o}
	default:
		cfg = &classprior.AlphaMaxN{Options: o}
	}
	est, err := cfg.New()
	if err != nil {
		return err
	}
	d, err := readScores(ctx, f.input, f.cols)
	if err != nil {
		return err
	}
	labeled, unlabeled := splitScores(d)
	// No subsampling caps are set, so no random source is needed.
	r, err := est.Estimate(ctx, classprior.Input{Labeled: labeled, Unlabeled: unlabeled}, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", f.input, err)
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	if f.curve != "" {
		if err := writeCurves(f.curve, r.Curves); err != nil {
			return err
		}
	}
	rep := newEstimateReport(r, len(labeled), len(unlabeled))
	rep.Columns = d.Columns
	if f.format == "json" {
		return writeJSON(e.stdout, rep)
	}
	return writeEstimateTable(e.stdout, rep)
}

// newEstimateReport is the report of AlphaMax's estimate r from nL labeled
// and nU unlabeled scores.
func newEstimateReport(r classprior.Estimate, nL, nU int) estimateReport {
	rep := estimateReport{
		Method: r.Method, Scale: r.Scale, Knee: r.Knee, Alpha: number(r.Alpha), Beta: number(r.Beta),
		NLabeled: nL, NUnlabeled: nU, Warnings: r.Warnings,
	}
	if rep.Warnings == nil {
		rep.Warnings = []string{} // an empty list, not null, for consumers
	}
	for _, c := range r.Curves {
		run := estimateRun{Curve: c.Name, Estimate: number(c.Estimate), Knee: number(c.Knee), BinWidth: number(c.BinWidth), Bins: c.Bins}
		if r.Knee == classprior.KneeBlend || r.Knee == classprior.KneeDrop {
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
	columnsRow(t, rep.Columns)
	t.row("method", rep.Method)
	t.row("scale", rep.Scale)
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
	// Columns says which column of the input was read as what; Warnings
	// are about the input (a feature that looks like an identifier).
	Columns  scorefile.Columns `json:"columns"`
	Warnings []string          `json:"warnings"`
}

// allSpec is how --method all reads the input: with a score column (the
// one --score names), the scores, and features only where
// --feature-columns names them; without one, every other column as a
// feature. A lone column besides the label is refused: it may be scores
// under another name or one feature.
func (f *estimateFlags) allSpec(r *scorefile.Reader) (scorefile.Spec, error) {
	spec := scorefile.Spec{Label: f.cols.labelColumn(), Ignore: splitList(f.ignore), IgnoreFlag: "--ignore",
		FeatureColumns: splitList(f.featureCols), FeatureFlag: "--feature-columns"}
	if f.set["score"] || r.Has(f.cols.score) {
		spec.Score = f.cols.scoreColumn()
		if len(spec.FeatureColumns) == 0 && f.set["km-max-rows"] {
			return spec, fmt.Errorf("--km-max-rows: km1 and km2 do not run on %s: it has a score column %q, and its other columns are features only where --feature-columns names them", r.Name(), f.cols.score)
		}
		return spec, nil
	}
	spec.Features = scorefile.OtherColumns
	cols, err := r.Columns(spec)
	if err != nil {
		return spec, err
	}
	switch {
	case len(cols.Features) == 0:
		return spec, fmt.Errorf("%s: neither a score column %q nor feature columns besides the label %q", r.Name(), f.cols.score, cols.Label)
	case len(cols.Features) == 1 && len(spec.FeatureColumns) == 0:
		return spec, fmt.Errorf("%s: one column besides the label, %q, and it is not the score column %q: pass --score %s to read it as scores, or --feature-columns %s to read it as km1's and km2's feature",
			r.Name(), cols.Features[0], f.cols.score, cols.Features[0], cols.Features[0])
	}
	return spec, nil
}

// estimateAll runs every estimator that applies to the file: the
// score-reading ones on its score column, the feature-reading ones on its
// feature columns.
func estimateAll(ctx context.Context, e *env, f *estimateFlags) error {
	t, err := readInput(ctx, f.input, scorefile.Spec{}, f.allSpec)
	if err != nil {
		return err
	}
	if err := someOfEach(t, f.input); err != nil {
		return err
	}
	kmRows := evaluate.DefaultKMMaxRows
	if f.set["km-max-rows"] {
		kmRows = f.kmRows
	}
	in := evaluate.Input{Scores: t.Scores, Labeled: t.Labeled(), Features: featureMatrix(t)}
	ms, agree, err := evaluate.Estimate(ctx, in, evaluate.Options{Seed: f.seed, KMMaxRows: kmRows})
	if err != nil {
		return fmt.Errorf("%s: %w", f.input, err)
	}
	hintKMRows(ms)
	rep := estimateAllReport{Methods: ms, Agreement: agree, NLabeled: t.Count(scorefile.Labeled), Columns: t.Columns,
		Warnings: t.SuspectFeatures(suspectHint)}
	rep.NUnlabeled = t.N() - rep.NLabeled
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	if f.format == "json" {
		return writeJSON(e.stdout, rep)
	}
	return writeEstimateAllTable(e.stdout, rep)
}

// writeEstimateAllTable writes the report of --method all as a table.
func writeEstimateAllTable(w io.Writer, rep estimateAllReport) error {
	t := newTable(w)
	columnsRow(t, rep.Columns)
	t.row("n_labeled", rep.NLabeled)
	t.row("n_unlabeled", rep.NUnlabeled)
	t.row("method", "reads", "alpha", "beta", "beta-alpha", "rows", "seconds", "note")
	for _, m := range rep.Methods {
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
	if a := rep.Agreement; a != nil {
		t.row("agreement", fmt.Sprintf("%d estimators: alpha %v to %v, beta %v to %v, beta-alpha %v to %v", a.Estimators,
			number(a.Alpha.Min), number(a.Alpha.Max), number(a.Beta.Min), number(a.Beta.Max), number(a.BetaMinusAlpha.Min), number(a.BetaMinusAlpha.Max)))
	}
	for _, w := range rep.Warnings {
		t.row("warning", w)
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
