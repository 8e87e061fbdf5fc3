package cli

import (
	"context"

	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"strconv"
	"strings"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/evaluate"
	"github.com/pueval/pueval/evaluate/page"
	"github.com/pueval/pueval/internal/scorefile"
)

// evaluateHelp is the long help of `pueval evaluate -h`: what the input
// must be and what the numbers mean.
const evaluateHelp = `The input is a CSV with a header: the --label column is 1 for the labeled examples (the set L,
labeled positive) and 0 or empty for the unlabeled ones (U). Which columns are read as what:
- With a --score column (default "score") and no --classifier, the file holds held-out scores
  (the score files of pueval correct): the scores must come from a model that did not train on
  those rows, and higher must mean more positive. The other columns are ignored (an identifier
  is no feature), unless --feature-columns names features for km1 and km2.
- Otherwise the classifier (--classifier: nnet-bag, the papers' bag of 100 nets, by default, or
  gbdt) is trained labeled against unlabeled on the features and scores every row held out
  (nnet-bag: out of bag; gbdt: out of fold, 5 folds). The features are every column but the
  label, --truth, --ignore and the score column, or those --feature-columns names.
- A file with exactly one column besides the label (and --truth, --ignore) that is not the
  score column is refused without --classifier: pass --score NAME to read it as held-out scores,
  or --classifier to train on it as a feature.
The output says which column was read as what ("columns"), and warns about a feature column
that looks like a row number or an identifier (integers in steps, or different in every row).

alpha is the fraction of positives among the unlabeled examples, beta among the labeled
ones (1: clean labels; 0.9: one labeled example in ten is really negative). Give both with
--alpha and --beta, or let every estimator that applies estimate them (--estimators): the
estimate is the mean of the score-reading estimators' (alphamax-n, alphamax, distcurve) alpha
and beta; each estimator's own numbers are listed beside it.

AUC and AUC-PR are about U with its true labels; accuracy, balanced accuracy, F1 and MCC
about all the data, L and U, with their true labels (best value over thresholds, with the
threshold to deploy: predict positive when score >= threshold), and with --threshold T also
at your own threshold T. "pu" numbers read labeled as positive and unlabeled as negative;
they are biased. The intervals (--bootstrap N) resample L and U with the scores held fixed:
they cover the sampling of the data, not the training of the model. With estimated priors
they also cover a region of alpha and beta around the estimate, sized on a benchmark of real
data sets so that 95 % intervals hold the truth in about 95 % of its cases: wide on small
samples and weak models. The bounds
are Claesen et al.'s over the estimators' alpha and assume clean labels. Everything
assumes that the labeled examples are a random sample of their class (SCAR).`

// evaluateFlags are the flags of `pueval evaluate`.
type evaluateFlags struct {
	cols                                                      columnFlags
	input, truth, ignore, featureCols, classifier, estimators string
	outside, format, htmlDir, scoresOut                       string
	alpha, beta, level, threshold                             float64
	bootstrap, kmRows, boundsResamples, workers               int
	seed                                                      uint64
	// set holds the names of the flags given on the command line.
	set map[string]bool
}

// warnSuspectFeature is the code of the warning on a feature column that
// looks like a row number or an identifier.
const warnSuspectFeature = "feature-looks-like-identifier"

func runEvaluate(ctx context.Context, e *env, args []string) error {
	f, help, err := parseEvaluateFlags(e, args)
	if help || err != nil {
		return err
	}
	opts, err := f.options()
	if err != nil {
		return err
	}
	classifier, err := f.classifierConfig()
	if err != nil {
		return err
	}
	t, err := readInput(ctx, f.input, scorefile.Spec{}, f.spec)
	if err != nil {
		return err
	}
	in := evaluate.Input{Scores: t.Scores, Labeled: t.Labeled(), Features: featureMatrix(t), Truth: t.Truth}
	if t.Scores == nil {
		opts.Classifier = classifier
	}
	res, err := evaluate.Run(ctx, in, opts)
	if err != nil {
		return fmt.Errorf("%s: %w", f.input, err)
	}
	hintKMRows(res.Estimators)
	for _, w := range t.SuspectFeatures(suspectHint) {
		res.Warnings = append(res.Warnings, evaluate.Warning{Code: warnSuspectFeature, Message: w})
	}
	return f.writeOutputs(e, args, &evaluateOutput{Result: res, Columns: t.Columns}, in, t.Scores)
}

// evaluateOutput is the JSON output of `pueval evaluate`: the evaluation
// and which column of the input was read as what.
type evaluateOutput struct {
	*evaluate.Result
	Columns scorefile.Columns `json:"columns"`
}

// spec chooses, from the input's header, how to read it: held-out scores
// (the --score column exists and no --classifier is given), or features to
// train on; a lone column that is neither is refused.
func (f *evaluateFlags) spec(r *scorefile.Reader) (scorefile.Spec, error) {
	spec := scorefile.Spec{Label: f.cols.labelColumn(), Ignore: splitList(f.ignore), IgnoreFlag: "--ignore",
		FeatureColumns: splitList(f.featureCols), FeatureFlag: "--feature-columns",
		TooMany: "split the file or subsample it"}
	if f.truth != "" {
		spec.Truth = scorefile.Column{Name: f.truth, Flag: "--truth"}
	}
	if !f.set["classifier"] && (f.set["score"] || r.Has(f.cols.score)) {
		spec.Score = f.cols.scoreColumn()
		return spec, nil
	}
	spec.Features = scorefile.OtherColumns
	spec.Ignore = ignoreScoreColumn(r, spec, f.cols.score)
	cols, err := r.Columns(spec)
	if err != nil {
		return spec, err
	}
	switch {
	case len(cols.Features) == 0:
		return spec, fmt.Errorf("%s: no feature column to train on besides the label (columns: %q)", r.Name(), r.Header())
	case len(cols.Features) == 1 && !f.set["classifier"] && len(spec.FeatureColumns) == 0:
		return spec, fmt.Errorf("%s: one column besides the label, %q, and it is not the score column %q: pass --score %s to read it as held-out scores, or --classifier to train on it as a feature",
			r.Name(), cols.Features[0], f.cols.score, cols.Features[0])
	}
	return spec, nil
}

// parseEvaluateFlags declares and parses the flags of `pueval evaluate`.
func parseEvaluateFlags(e *env, args []string) (f *evaluateFlags, help bool, err error) {
	f = &evaluateFlags{set: map[string]bool{}}
	fs := flagSet("evaluate")
	fs.StringVar(&f.input, "input", "", "CSV `file` with a header: features and the --label column, or held-out scores in the --score column")
	fs.StringVar(&f.cols.label, "label", "label", "the `column` that is 1 for labeled and 0 or empty for unlabeled rows")
	fs.StringVar(&f.truth, "truth", "", "a `column` with the true class (1 positive, 0 negative), for benchmark data only: adds the true numbers, and is not a feature")
	fs.StringVar(&f.ignore, "ignore", "", "comma-separated `columns` that are not features (identifiers, dates)")
	fs.StringVar(&f.featureCols, "feature-columns", "", "comma-separated feature `columns` (default: every column but the label, --truth, --ignore and the score column when training; none when reading scores)")
	fs.StringVar(&f.classifier, "classifier", "", "train this `classifier` on the features: nnet-bag (out-of-bag scores) or gbdt (out-of-fold scores); default nnet-bag, or the --score column when there is one")
	fs.StringVar(&f.cols.score, "score", "score", "the `column` of held-out scores, read when it exists and no --classifier is given")
	fs.Float64Var(&f.alpha, "alpha", 0, "the fraction of positives among the unlabeled examples, if known (with --beta)")
	fs.Float64Var(&f.beta, "beta", 0, "the fraction of positives among the labeled examples, if known (with --alpha; 1 = clean labels)")
	fs.StringVar(&f.estimators, "estimators", "all", "class-prior `estimators` to run, comma-separated (the mean of the score-reading ones gives alpha and beta; the others' when none reads scores), or all that apply: "+strings.Join(evaluate.Applicable(true), ", "))
	fs.Float64Var(&f.threshold, "threshold", 0, "also give accuracy, balanced accuracy, F1 and MCC when predicting positive at score >= `T` (the threshold you deploy), beside their best values over thresholds")
	fs.IntVar(&f.bootstrap, "bootstrap", 200, fmt.Sprintf("bootstrap `resamples` for the intervals (0: none; at most %d)", evaluate.MaxBootstrap))
	fs.Float64Var(&f.level, "level", 0.95, "confidence `level` of the intervals and of the bounds' band")
	fs.Uint64Var(&f.seed, "seed", 1, "`seed` of the classifier, the estimators and the bootstrap: the output is the same for the same seed")
	fs.StringVar(&f.outside, "outside", "drop", "`mode` of the recovered ROC curve for points outside [0,1]^2: drop (the paper's) or clip")
	fs.IntVar(&f.kmRows, "km-max-rows", evaluate.DefaultKMMaxRows, "km1, km2: read a random subsample of at most `N` rows (their kernel matrix is N x N)")
	fs.IntVar(&f.boundsResamples, "bounds-resamples", evaluate.DefaultBoundsResamples, "resamples of the band of Claesen's bounds (`N`; 0: no bounds)")
	fs.StringVar(&f.format, "format", "", formatUsage+"; with a table the warnings go to stderr")
	fs.StringVar(&f.htmlDir, "html", "", "also write an HTML page with the curves, intervals, estimators and warnings into `directory` (index.html)")
	fs.StringVar(&f.scoresOut, "scores-out", "", "also write the scores as a CSV `file` (score,label[,truth]), for pueval correct and metrics")
	fs.IntVar(&f.workers, "j", 0, "`workers` of the bootstrap and the classifier (0: every core); never changes a number")
	if help, err := parseInputFlags(e, fs, args, &f.input, &f.format); help || err != nil {
		return nil, help, err
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	return f, false, nil
}

// options checks the flags and returns the evaluation's options (all but
// the classifier).
func (f *evaluateFlags) options() (evaluate.Options, error) {
	opts := evaluate.Options{Bootstrap: f.bootstrap, Level: f.level, Seed: f.seed, KMMaxRows: f.kmRows, Workers: f.workers}
	var err error
	if opts.Outside, err = recovery.ParseOutside(f.outside); err != nil {
		return opts, fmt.Errorf("--outside %q: want drop or clip", f.outside)
	}
	if opts.Estimators, err = evaluate.ParseEstimators(f.estimators); err != nil {
		return opts, fmt.Errorf("--estimators %q: %w", f.estimators, err)
	}
	switch {
	case f.set["alpha"] != f.set["beta"]:
		return opts, errors.New("give both --alpha and --beta (use --beta 1 for clean labels), or neither to estimate them")
	case f.set["alpha"]:
		if err := recovery.CheckPriors(f.alpha, f.beta); err != nil {
			return opts, fmt.Errorf("--alpha %v --beta %v: %w", f.alpha, f.beta, err)
		}
		opts.Priors = &evaluate.GivenPriors{Alpha: f.alpha, Beta: f.beta}
	}
	if f.set["threshold"] {
		if math.IsNaN(f.threshold) || math.IsInf(f.threshold, 0) {
			return opts, fmt.Errorf("--threshold %v: want a finite score (predict positive when score >= T)", f.threshold)
		}
		opts.Threshold = &f.threshold
	}
	if err := notInput("--scores-out", f.scoresOut, f.input); err != nil {
		return opts, err
	}
	switch {
	case f.set["classifier"] && f.set["score"]:
		return opts, errors.New("give --score (read held-out scores) or --classifier (train on the features), not both")
	case f.bootstrap < 0 || f.bootstrap > evaluate.MaxBootstrap:
		return opts, fmt.Errorf("--bootstrap %d: want 0 (no intervals) or a number of resamples up to %d (each one's curves are kept until the intervals are taken)", f.bootstrap, evaluate.MaxBootstrap)
	case !(f.level > 0 && f.level < 1):
		return opts, fmt.Errorf("--level %v: want a confidence level in (0, 1)", f.level)
	case f.kmRows < minKMRows:
		return opts, fmt.Errorf("--km-max-rows %d: want at least %d", f.kmRows, minKMRows)
	case f.boundsResamples < 0:
		return opts, fmt.Errorf("--bounds-resamples %d: want 0 (no bounds) or a number of resamples", f.boundsResamples)
	case f.workers < 0:
		return opts, fmt.Errorf("-j %d: want 0 (every core) or a number of workers", f.workers)
	}
	opts.BoundsResamples = f.boundsResamples
	if f.boundsResamples == 0 {
		opts.BoundsResamples = -1
	}
	return opts, nil
}

// classifierConfig is the classifier --classifier names (default nnet-bag),
// with the workers of -j.
func (f *evaluateFlags) classifierConfig() (classifiers.Config, error) {
	name := f.classifier
	if name == "" {
		name = classifiers.NNetBagName
	}
	if name != classifiers.GBDTName && name != classifiers.NNetBagName {
		return nil, fmt.Errorf("--classifier %q: want %s or %s", name, classifiers.GBDTName, classifiers.NNetBagName)
	}
	cfg, err := classifiers.Defaults(name)
	if err != nil {
		return nil, err
	}
	switch c := cfg.(type) {
	case *classifiers.GBDT:
		c.Workers = f.workers
	case *classifiers.NNetBag:
		c.Workers = f.workers
	}
	return cfg, nil
}

// writeOutputs writes the result: the scores of --scores-out, the page of
// --html, then the JSON or the table (its warnings to stderr).
func (f *evaluateFlags) writeOutputs(e *env, args []string, out *evaluateOutput, in evaluate.Input, given []float64) error {
	res := out.Result
	if f.scoresOut != "" {
		if err := writeScores(f.scoresOut, res, in, given); err != nil {
			return err
		}
	}
	if f.htmlDir != "" {
		if err := page.Write(f.htmlDir, res, page.Meta{Input: f.input, Command: "pueval evaluate " + strings.Join(args, " "), Columns: out.Columns.String()}); err != nil {
			return fmt.Errorf("--html: %w", err)
		}
	}
	if f.format == "json" {
		return writeJSON(e.stdout, out)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "pueval: evaluate: warning [%s]: %s\n", w.Code, w.Message)
	}
	return writeEvaluateTable(e.stdout, f.input, out)
}

// splitList splits a comma-separated flag value; "" is no value.
func splitList(s string) []string {
	var out []string
	for _, c := range strings.Split(s, ",") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// nanF is the number of a cell that has none.
var nanF = math.NaN()

// writeScores writes the scores the evaluation used (score,label[,truth]):
// the given ones, or the classifier's held-out scores (Result.Scores.Values,
// which the JSON leaves out).
func writeScores(path string, res *evaluate.Result, in evaluate.Input, given []float64) error {
	scores := given
	if scores == nil {
		scores = res.Scores.Values
	}
	var b strings.Builder
	b.WriteString("score,label")
	if in.Truth != nil {
		b.WriteString(",truth")
	}
	b.WriteString("\n")
	for i, s := range scores {
		b.WriteString(strconv.FormatFloat(s, 'g', -1, 64))
		b.WriteString(map[bool]string{true: ",1", false: ",0"}[in.Labeled[i]])
		if in.Truth != nil {
			b.WriteString(map[bool]string{true: ",1", false: ",0"}[in.Truth[i]])
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("--scores-out: %w", err)
	}
	return nil
}

// ci formats an interval as [low, high], or "" without one.
func ci(iv *evaluate.Interval) string {
	if iv == nil {
		return ""
	}
	return fmt.Sprintf("[%s, %s]", f3(iv.Low), f3(iv.High))
}

// f3 formats a number at 4 significant decimals for the table.
func f3(x evaluate.Float) string {
	if !x.Ok() {
		if float64(x) > 0 {
			return "+Inf"
		}
		return "-"
	}
	return strconv.FormatFloat(float64(x), 'f', 4, 64)
}

// writeEvaluateTable writes the result as aligned text.
func writeEvaluateTable(w io.Writer, input string, out *evaluateOutput) error {
	res := out.Result
	t := newTable(w)
	evaluateInputRows(t, input, res, out.Columns)
	t.row("")
	evaluateEstimatorRows(t, res)
	t.row("")
	evaluateMetricRows(t, res)
	if b := res.Bounds; b != nil {
		band := fmt.Sprintf("%s band of %d resamples", b.Band, b.Resamples)
		if b.Resamples == 0 {
			band = strings.ToUpper(b.Band) + " band"
		}
		t.row("")
		t.row("bounds", fmt.Sprintf("Claesen et al. on L u U (labeled read as positives), for every alpha in [%s, %s], %s: auc [%s, %s], aupr [%s, %s]",
			f3(b.ClaesenBeta.Low), f3(b.ClaesenBeta.High), band, f3(b.AUC.Low), f3(b.AUC.High), f3(b.AUPR.Low), f3(b.AUPR.High)))
	}
	if len(res.Warnings) > 0 {
		t.row("")
		t.row("warnings", fmt.Sprintf("%d (on stderr; in the JSON under warnings)", len(res.Warnings)))
	}
	return t.flush()
}

// evaluateInputRows are the table's rows of the input and its columns,
// the scores, the priors and the intervals' bootstrap.
func evaluateInputRows(t *table, input string, res *evaluate.Result, cols scorefile.Columns) {
	t.row("input", fmt.Sprintf("%s: %d labeled, %d unlabeled (c = %s)", input, res.NLabeled, res.NUnlabeled, f3(res.C)))
	columnsRow(t, cols)
	sc := res.Scores
	if sc.Source == "given" {
		t.row("scores", fmt.Sprintf("given (%d distinct)", sc.Distinct))
	} else {
		t.row("scores", fmt.Sprintf("trained %s, %s, seed %d (%.1f s; %d distinct)", sc.Classifier, sc.HeldOut, sc.Seed, sc.Seconds, sc.Distinct))
	}
	p := res.Priors
	pri := fmt.Sprintf("given: alpha %s, beta %s", f3(p.Alpha), f3(p.Beta))
	if p.Source == "estimated" {
		pri = fmt.Sprintf("estimated (%s): alpha %s, beta %s", p.Method, f3(p.Alpha), f3(p.Beta))
		if p.Region != nil {
			pri += fmt.Sprintf("; the intervals allow for alpha in %s and beta in %s", ci(&p.Region.Alpha), ci(&p.Region.Beta))
		}
	}
	if !p.Valid {
		pri += " (unusable: no recovered numbers)"
	}
	t.row("priors", pri)
	if b := res.Bootstrap; b != nil {
		how := "alpha and beta as given"
		if p.Region != nil {
			how = "widened over the region of alpha and beta above"
		}
		t.row("intervals", fmt.Sprintf("%s %%, bootstrap (%s), %d resamples (%d used), seed %d; %s", strconv.FormatFloat(100*float64(b.Level), 'g', -1, 64), b.Method, b.Resamples, b.Used, b.Seed, how))
	}
}

// evaluateEstimatorRows are the table's rows of the estimators, side by
// side, and their agreement.
func evaluateEstimatorRows(t *table, res *evaluate.Result) {
	t.row("estimator", "reads", "alpha", "beta", "beta-alpha", "auc", "aucpr", "f1", "mcc", "seconds", "note")
	for _, es := range res.Estimators {
		note := []string{}
		if es.CleanLabels {
			note = append(note, "assumes beta = 1")
		}
		if es.Subsampled {
			note = append(note, fmt.Sprintf("%d-row subsample", es.Rows))
		}
		if es.Error != "" {
			note = append(note, "failed: "+es.Error)
		} else if es.Recovered == nil {
			note = append(note, "beta <= alpha: nothing recovered")
		}
		h := evaluate.Headline{AUC: evaluate.Float(nanF), AUCPR: evaluate.Float(nanF), F1: evaluate.Float(nanF), MCC: evaluate.Float(nanF)}
		if es.Recovered != nil {
			h = *es.Recovered
		}
		t.row(es.Method, es.Reads, f3(es.Alpha), f3(es.Beta), f3(es.BetaMinusAlpha), f3(h.AUC), f3(h.AUCPR), f3(h.F1), f3(h.MCC),
			strconv.FormatFloat(es.Seconds, 'f', 3, 64), strings.Join(note, "; "))
	}
	if a := res.Agreement; a != nil {
		t.row("agreement", fmt.Sprintf("%d estimators: alpha %s to %s, beta %s to %s, beta-alpha %s to %s; auc %s to %s, f1 %s to %s",
			a.Estimators, f3(a.Alpha.Min), f3(a.Alpha.Max), f3(a.Beta.Min), f3(a.Beta.Max), f3(a.BetaMinusAlpha.Min), f3(a.BetaMinusAlpha.Max),
			f3(a.AUC.Min), f3(a.AUC.Max), f3(a.F1.Min), f3(a.F1.Max)))
	}
}

// evaluateMetricRows are the table's rows of the PU, recovered (and with
// --truth true) numbers with their intervals and thresholds.
func evaluateMetricRows(t *table, res *evaluate.Result) {
	level := "interval"
	if b := res.Bootstrap; b != nil {
		level = strconv.FormatFloat(100*float64(b.Level), 'g', -1, 64) + " % interval"
	}
	hasTruth := res.Truth != nil
	head := []any{"number", "on", "pu", "recovered", level, "at score >=", "pu at score >="}
	if hasTruth {
		head = append(head, "truth")
	}
	t.row(head...)
	m := res.Metrics
	var tr evaluate.Truth
	if hasTruth {
		tr = *res.Truth
	}
	thr := func(x *evaluate.Float) string {
		return evaluate.FormatThreshold(x, "-", func(v float64) string { return number(v).String() })
	}
	var trAt evaluate.TruthAtThreshold
	if tr.AtThreshold != nil {
		trAt = *tr.AtThreshold
	}
	for _, r := range []struct {
		name          string
		m             evaluate.Metric
		truth, trueAt evaluate.Float
	}{{"auc", m.AUC, tr.AUC, evaluate.Float(nanF)}, {"aucpr", m.AUCPR, tr.AUCPR, evaluate.Float(nanF)}, {"acc", m.Acc, tr.Acc, trAt.Acc},
		{"bacc", m.BAcc, tr.BAcc, trAt.BAcc}, {"f1", m.F1, tr.F1, trAt.F1}, {"mcc", m.MCC, tr.MCC, trAt.MCC}} {
		set := "U"
		if r.m.Set == "D" {
			set = "L u U"
		}
		name := r.name
		if r.m.Threshold != nil {
			name = "max " + name
		}
		row := []any{name, set, f3(r.m.PU), f3(r.m.Recovered), ci(r.m.Interval), thr(r.m.Threshold), thr(r.m.PUThreshold)}
		if hasTruth {
			row = append(row, f3(r.truth))
		}
		t.row(row...)
		if a := r.m.AtThreshold; a != nil {
			row := []any{r.name + " at threshold", set, f3(a.PU), f3(a.Recovered), ci(a.Interval), thr(&a.Threshold), thr(&a.Threshold)}
			if hasTruth {
				row = append(row, f3(r.trueAt))
			}
			t.row(row...)
		}
		if r.m.Direct != nil {
			row := []any{"auc direct", set, "", f3(*r.m.Direct), ci(r.m.DirectInterval), "", ""}
			if hasTruth {
				row = append(row, "")
			}
			t.row(row...)
		}
	}
	if hasTruth {
		p := res.Priors
		t.row("alpha, beta", "", "", f3(p.Alpha)+", "+f3(p.Beta), "", "", "", f3(tr.Alpha)+", "+f3(tr.Beta))
	}
}
