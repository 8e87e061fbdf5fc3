package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/evaluate"
	"github.com/pueval/pueval/internal/scorefile"
	"github.com/pueval/pueval/metrics"
	"github.com/pueval/pueval/report"
)

// priorEstimate is what a class-prior estimator gives `pueval correct
// --estimate`: alpha (positives among the unlabeled), beta (positives among
// the labeled) and warnings. It is reported under "estimate" in the output.
type priorEstimate struct {
	Method   string   `json:"method"`
	Knee     string   `json:"knee,omitempty"`
	Alpha    number   `json:"alpha"`
	Beta     number   `json:"beta"`
	Warnings []string `json:"warnings,omitempty"`
}

// estimatePrior runs the class-prior estimator method (a name of package
// classprior's registry, with its recommended options: the rank scale and
// the drop rule for the AlphaMax family) on PU scores. The random source only matters when an
// options cap subsamples the scores (not by default); it is fixed so that
// `pueval correct` is deterministic.
func estimatePrior(ctx context.Context, method string, labeled, unlabeled []float64) (priorEstimate, error) {
	c, err := classprior.Recommended(method)
	if err != nil {
		return priorEstimate{}, err
	}
	if fr, ok := c.(classprior.FeatureReader); ok && fr.ReadsFeatures() {
		return priorEstimate{}, fmt.Errorf("%s reads the examples' features; a score file has none", method)
	}
	est, err := c.New()
	if err != nil {
		return priorEstimate{}, err
	}
	e, err := est.Estimate(ctx, classprior.Input{Labeled: labeled, Unlabeled: unlabeled}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		return priorEstimate{}, err
	}
	return priorEstimate{Alpha: number(e.Alpha), Beta: number(e.Beta), Knee: e.Knee, Warnings: e.Warnings}, nil
}

// scoreEstimators lists the registered estimators that read scores only:
// those --estimate accepts.
func scoreEstimators() []string {
	var names []string
	for _, n := range classprior.Names() {
		c, _ := classprior.Defaults(n)
		if fr, ok := c.(classprior.FeatureReader); !ok || !fr.ReadsFeatures() {
			names = append(names, n)
		}
	}
	return names
}

// correctReport is the JSON output of `pueval correct`.
type correctReport struct {
	Alpha      number         `json:"alpha"`
	Beta       number         `json:"beta"`
	C          number         `json:"c"`
	Pi         number         `json:"pi"`
	NLabeled   int            `json:"n_labeled"`
	NUnlabeled int            `json:"n_unlabeled"`
	Outside    string         `json:"outside"`
	Estimate   *priorEstimate `json:"estimate,omitempty"`
	AUC        struct {
		PU       number `json:"pu"`
		Direct   number `json:"direct"`
		Indirect number `json:"indirect"`
	} `json:"auc"`
	AUCPR struct {
		PU       number `json:"pu"`
		Indirect number `json:"indirect"`
	} `json:"aucpr"`
	Acc  thresholdReport `json:"acc"`
	BAcc thresholdReport `json:"bacc"`
	F1   thresholdReport `json:"f1"`
	MCC  thresholdReport `json:"mcc"`
	// Bootstrap holds the intervals of --bootstrap N.
	Bootstrap *correctBootstrap `json:"bootstrap,omitempty"`
	// Columns says which column of the input was read as what.
	Columns scorefile.Columns `json:"columns"`
}

// correctBootstrap is the bootstrap of `pueval correct --bootstrap N`:
// evaluate's intervals of the recovered numbers (evaluate.BootstrapMethod;
// alpha's and beta's, with --estimate, which are estimated again in every
// resample, are percentile intervals).
type correctBootstrap struct {
	Resamples   int                 `json:"resamples"`
	Used        int                 `json:"used"`
	Level       number              `json:"level"`
	Seed        uint64              `json:"seed"`
	ReEstimated bool                `json:"re_estimated"`
	Alpha       *evaluate.Interval  `json:"alpha,omitempty"`
	Beta        *evaluate.Interval  `json:"beta,omitempty"`
	AUC         correctAUCIntervals `json:"auc"`
	AUCPR       struct {
		Indirect *evaluate.Interval `json:"indirect"`
	} `json:"aucpr"`
	Acc  *evaluate.Interval `json:"acc"`
	BAcc *evaluate.Interval `json:"bacc"`
	F1   *evaluate.Interval `json:"f1"`
	MCC  *evaluate.Interval `json:"mcc"`
}

type correctAUCIntervals struct {
	Direct   *evaluate.Interval `json:"direct"`
	Indirect *evaluate.Interval `json:"indirect"`
}

// thresholdReport is one PSB-2019 threshold metric: the PU and the recovered
// maximum over thresholds. Threshold is where the recovered one is attained
// (the threshold to deploy), PUThreshold where the PU one is.
type thresholdReport struct {
	PU          number `json:"pu"`
	Recovered   number `json:"recovered"`
	Threshold   number `json:"threshold"`
	PUThreshold number `json:"pu_threshold"`
}

func (c *correctReport) measure(m recovery.Measure) *thresholdReport {
	switch m {
	case recovery.Accuracy:
		return &c.Acc
	case recovery.BalancedAccuracy:
		return &c.BAcc
	case recovery.F1:
		return &c.F1
	}
	return &c.MCC
}

// correctHelp is the long help of `pueval correct -h`.
const correctHelp = `The scores must be held out (out-of-fold or out-of-bag: from a model that did not train on
those rows) and higher must mean more positive. Label 1 marks the labeled examples (the set
L), 0 the unlabeled ones (U). alpha is the fraction of positives among the unlabeled
examples, beta among the labeled ones (1: clean labels); the recovery needs beta > alpha.
auc and aucpr are about U with its true labels (AAAI-2017); acc, bacc, f1 and mcc about all
the data, L and U, with their true labels (PSB-2019). "pu" numbers read labeled as positive
and unlabeled as negative. --bootstrap N adds pueval evaluate's intervals: L and U are
resampled with the scores held fixed (with --estimate, alpha and beta are estimated again in
every resample). For the whole evaluation from features, see pueval evaluate.`

// correctFlags are the flags of `pueval correct`.
type correctFlags struct {
	cols                                      columnFlags
	input, estimate, outside, format, plotDir string
	alpha, beta, level                        float64
	bootstrap, workers                        int
	seed                                      uint64
	// set holds the names of the flags given on the command line.
	set map[string]bool
}

func runCorrect(ctx context.Context, e *env, args []string) error {
	f, help, err := parseCorrectFlags(e, args)
	if help || err != nil {
		return err
	}
	out, err := f.check()
	if err != nil {
		return err
	}
	d, err := readScores(ctx, f.input, f.cols)
	if err != nil {
		return err
	}
	r, err := metrics.Rank(d.Scores, d.Labeled())
	if err != nil {
		return fmt.Errorf("%s: %w (label 1 = labeled, 0 or empty = unlabeled)", f.input, err)
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	a, b, est, err := f.prior(ctx, e, d)
	if err != nil {
		return err
	}
	rc, err := recovery.New(r, a, b)
	if err != nil {
		if est != nil {
			return fmt.Errorf("--estimate %s gave alpha %v, beta %v: %w", f.estimate, a, b, err)
		}
		return fmt.Errorf("--alpha %v --beta %v: %w", a, b, err)
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	s, err := rc.Summary(out)
	if err != nil {
		return err
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	rep := newCorrectReport(r, &s, out, est)
	rep.Columns = d.Columns
	if f.plotDir != "" {
		if err := plotCorrection(rc, out, f.plotDir); err != nil {
			return err
		}
	}
	if f.bootstrap > 0 {
		if rep.Bootstrap, err = f.bootstrapIntervals(ctx, e, d, a, b, out); err != nil {
			return err
		}
	}
	if f.format == "json" {
		return writeJSON(e.stdout, rep)
	}
	return writeCorrectTable(e.stdout, &rep)
}

// parseCorrectFlags declares and parses the flags of `pueval correct`.
func parseCorrectFlags(e *env, args []string) (f *correctFlags, help bool, err error) {
	f = &correctFlags{set: map[string]bool{}}
	fs := flagSet("correct")
	fs.StringVar(&f.input, "input", "", "CSV `file` with a header naming a score and a label column (label 1 = labeled, 0 or empty = unlabeled)")
	f.cols.add(fs)
	fs.Float64Var(&f.alpha, "alpha", 0, "proportion of positives among the unlabeled examples")
	fs.Float64Var(&f.beta, "beta", 0, "proportion of positives among the labeled examples (1 = clean labels)")
	fs.StringVar(&f.estimate, "estimate", "", "estimate alpha and beta from the scores with this `method` ("+strings.Join(scoreEstimators(), ", ")+") instead of --alpha/--beta")
	fs.StringVar(&f.outside, "outside", "drop", "`mode` of the indirect ROC/PR recovery for points outside [0,1]^2: drop (the paper's) or clip")
	fs.StringVar(&f.format, "format", "", formatUsage)
	fs.StringVar(&f.plotDir, "plot", "", "also draw the PU and recovered ROC and PR curves into `directory` (roc.png, pr.png, with PDF and SVG)")
	fs.IntVar(&f.bootstrap, "bootstrap", 0, fmt.Sprintf("add bootstrap intervals (pueval evaluate's) from `N` resamples of L and U (scores held fixed; with --estimate, alpha and beta estimated again in each; at most %d)", evaluate.MaxBootstrap))
	fs.Float64Var(&f.level, "level", 0.95, "confidence `level` of the --bootstrap intervals")
	fs.Uint64Var(&f.seed, "seed", 1, "`seed` of the --bootstrap resamples (the output is the same for the same seed)")
	fs.IntVar(&f.workers, "j", 0, "`workers` of the --bootstrap (0: every core); never changes a number")
	if help, err := parseInputFlags(e, fs, args, &f.input, &f.format); help || err != nil {
		return nil, help, err
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	return f, false, nil
}

// check checks the flags' values and their combination, and returns the
// --outside mode.
func (f *correctFlags) check() (recovery.Outside, error) {
	out, err := recovery.ParseOutside(f.outside)
	if err != nil {
		return out, fmt.Errorf("--outside %q: want drop or clip", f.outside)
	}
	switch {
	case f.bootstrap < 0 || f.bootstrap > evaluate.MaxBootstrap:
		return out, fmt.Errorf("--bootstrap %d: want 0 (no intervals) or a number of resamples up to %d (each one's curves are kept until the intervals are taken)", f.bootstrap, evaluate.MaxBootstrap)
	case !(f.level > 0 && f.level < 1):
		return out, fmt.Errorf("--level %v: want a confidence level in (0, 1)", f.level)
	case f.workers < 0:
		return out, fmt.Errorf("-j %d: want 0 (every core) or a number of workers", f.workers)
	}
	switch {
	case f.estimate != "" && (f.set["alpha"] || f.set["beta"]):
		return out, errors.New("give either --alpha and --beta or --estimate, not both")
	case f.estimate != "":
		if !slices.Contains(scoreEstimators(), f.estimate) {
			return out, fmt.Errorf("--estimate %q: unknown method (want %s)", f.estimate, strings.Join(scoreEstimators(), ", "))
		}
	case !f.set["alpha"] || !f.set["beta"]:
		return out, errors.New("give --alpha and --beta (use --beta 1 for clean labels), or --estimate METHOD")
	}
	return out, nil
}

// prior returns alpha and beta: those of the flags, or with --estimate the
// estimator's (est, whose warnings go to stderr).
func (f *correctFlags) prior(ctx context.Context, e *env, d *scorefile.Table) (alpha, beta float64, est *priorEstimate, err error) {
	if f.estimate == "" {
		return f.alpha, f.beta, nil, nil
	}
	labeled, unlabeled := splitScores(d)
	pe, err := estimatePrior(ctx, f.estimate, labeled, unlabeled)
	if err != nil {
		return 0, 0, nil, fmt.Errorf("--estimate %s on %s: %w", f.estimate, f.input, err)
	}
	pe.Method = f.estimate
	for _, w := range pe.Warnings {
		fmt.Fprintf(e.stderr, "pueval: correct: warning: %s: %s\n", f.estimate, w)
	}
	return float64(pe.Alpha), float64(pe.Beta), &pe, nil
}

// newCorrectReport is the report of the recovered numbers s of ranking r.
func newCorrectReport(r *metrics.Ranking, s *recovery.Summary, out recovery.Outside, est *priorEstimate) correctReport {
	rep := correctReport{
		Alpha: number(s.Alpha), Beta: number(s.Beta), C: number(s.C), Pi: number(s.Pi),
		NLabeled: r.Positives(), NUnlabeled: r.Negatives(), Outside: out.String(), Estimate: est,
	}
	rep.AUC.PU, rep.AUC.Direct, rep.AUC.Indirect = number(s.AUC.PU), number(s.AUC.Direct), number(s.AUC.Indirect)
	rep.AUCPR.PU, rep.AUCPR.Indirect = number(s.AUCPR.PU), number(s.AUCPR.Indirect)
	for _, m := range recovery.Measures {
		o := s.Optima(m)
		*rep.measure(m) = thresholdReport{
			PU: number(o.PU.Value), Recovered: number(o.Recovered.Value),
			Threshold: number(o.Recovered.Threshold), PUThreshold: number(o.PU.Threshold),
		}
	}
	return rep
}

// bootstrapIntervals runs --bootstrap N on the scores d at alpha a and beta
// b (with --estimate, estimated again in every resample).
func (f *correctFlags) bootstrapIntervals(ctx context.Context, e *env, d *scorefile.Table, a, b float64, out recovery.Outside) (*correctBootstrap, error) {
	iv, err := evaluate.BootstrapScores(ctx, d.Scores, d.Labeled(), f.estimate, a, b, f.bootstrap, f.level, out, f.seed, f.workers)
	if err != nil {
		return nil, fmt.Errorf("--bootstrap on %s: %w", f.input, err)
	}
	bs := &correctBootstrap{Resamples: iv.Resamples, Used: iv.Used, Level: number(f.level), Seed: f.seed,
		ReEstimated: f.estimate != "", Alpha: iv.Alpha, Beta: iv.Beta, AUC: correctAUCIntervals{iv.Direct, iv.AUC}}
	bs.AUCPR.Indirect = iv.AUCPR
	bs.Acc, bs.BAcc, bs.F1, bs.MCC = iv.Measures[0], iv.Measures[1], iv.Measures[2], iv.Measures[3]
	if iv.Used < iv.Resamples {
		fmt.Fprintf(e.stderr, "pueval: correct: warning: %d of %d bootstrap resamples gave beta <= alpha (or no estimate) and are left out: the intervals are too narrow\n", iv.Resamples-iv.Used, iv.Resamples)
	}
	return bs, nil
}

// writeCorrectTable writes the report of `pueval correct --format table`.
func writeCorrectTable(w io.Writer, rep *correctReport) error {
	t := newTable(w)
	columnsRow(t, rep.Columns)
	if rep.Estimate != nil {
		t.row("estimate", rep.Estimate.Method)
	}
	t.row("alpha", float64(rep.Alpha))
	t.row("beta", float64(rep.Beta))
	t.row("c", float64(rep.C))
	t.row("pi", float64(rep.Pi))
	t.row("n_labeled", rep.NLabeled)
	t.row("n_unlabeled", rep.NUnlabeled)
	t.row("outside", rep.Outside)
	t.row("", "pu", "direct", "indirect")
	t.row("auc", float64(rep.AUC.PU), float64(rep.AUC.Direct), float64(rep.AUC.Indirect))
	t.row("aucpr", float64(rep.AUCPR.PU), "", float64(rep.AUCPR.Indirect))
	t.row("", "pu", "recovered", "at score >=", "pu at score >=")
	for _, m := range recovery.Measures {
		tr := rep.measure(m)
		t.row("max "+m.String(), float64(tr.PU), float64(tr.Recovered), tr.Threshold, tr.PUThreshold)
	}
	if rep.Bootstrap != nil {
		bootstrapRows(t, rep.Bootstrap)
	}
	return t.flush()
}

// bootstrapRows adds the intervals of --bootstrap to the table.
func bootstrapRows(t *table, bs *correctBootstrap) {
	how := "alpha and beta held fixed"
	if bs.ReEstimated {
		how = "alpha and beta estimated again in every resample"
	}
	t.row("bootstrap", fmt.Sprintf("%d resamples (%d used), seed %d, %s", bs.Resamples, bs.Used, bs.Seed, how))
	t.row("", strconv.FormatFloat(100*float64(bs.Level), 'g', -1, 64)+" % interval")
	if bs.ReEstimated {
		t.row("alpha", ivText(bs.Alpha))
		t.row("beta", ivText(bs.Beta))
	}
	t.row("auc direct", ivText(bs.AUC.Direct))
	t.row("auc indirect", ivText(bs.AUC.Indirect))
	t.row("aucpr indirect", ivText(bs.AUCPR.Indirect))
	for _, r := range []struct {
		name string
		iv   *evaluate.Interval
	}{{"max acc", bs.Acc}, {"max bacc", bs.BAcc}, {"max f1", bs.F1}, {"max mcc", bs.MCC}} {
		t.row(r.name, ivText(r.iv))
	}
}

// ivText formats an interval for a table: [low, high], or "-".
func ivText(iv *evaluate.Interval) string {
	if iv == nil {
		return "-"
	}
	return fmt.Sprintf("[%s, %s]", number(iv.Low), number(iv.High))
}

// plotCorrection draws the PU and recovered curves into dir.
func plotCorrection(rc *recovery.Recovery, o recovery.Outside, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--plot: %w", err)
	}
	figs, err := report.CorrectionFigures(rc, o)
	if err != nil {
		return fmt.Errorf("--plot: %w", err)
	}
	for _, f := range figs {
		if _, err := f.Save(dir); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
	}
	return nil
}
