package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/recovery"
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
// classprior's registry, with its default options: knee rule "blend" for the
// AlphaMax family) on PU scores. The random source only matters when an
// options cap subsamples the scores (not by default); it is fixed so that
// `pueval correct` is deterministic.
func estimatePrior(ctx context.Context, method string, labeled, unlabeled []float64) (priorEstimate, error) {
	c, err := classprior.Defaults(method)
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

func runCorrect(ctx context.Context, e *env, args []string) error {
	fs := flagSet("correct")
	input := fs.String("input", "", "CSV `file` with header score,label (label 1 = labeled, 0 = unlabeled)")
	alpha := fs.Float64("alpha", 0, "proportion of positives among the unlabeled examples")
	beta := fs.Float64("beta", 0, "proportion of positives among the labeled examples (1 = clean labels)")
	estimate := fs.String("estimate", "", "estimate alpha and beta from the scores with this `method` ("+strings.Join(scoreEstimators(), ", ")+") instead of --alpha/--beta")
	outside := fs.String("outside", "drop", "`mode` of the indirect ROC/PR recovery for points outside [0,1]^2: drop (the paper's) or clip")
	format := fs.String("format", "json", "output `format`: json or table")
	plotDir := fs.String("plot", "", "also draw the PU and recovered ROC and PR curves into `directory` (roc.png, pr.png, with PDF and SVG)")
	if help, err := parseFlags(e, fs, args); help || err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *input == "" {
		return errors.New("--input is required")
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	out, err := recovery.ParseOutside(*outside)
	if err != nil {
		return fmt.Errorf("--outside %q: want drop or clip", *outside)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case *estimate != "" && (set["alpha"] || set["beta"]):
		return errors.New("give either --alpha and --beta or --estimate, not both")
	case *estimate != "":
		if !slices.Contains(scoreEstimators(), *estimate) {
			return fmt.Errorf("--estimate %q: unknown method (want %s)", *estimate, strings.Join(scoreEstimators(), ", "))
		}
	case !set["alpha"] || !set["beta"]:
		return errors.New("give --alpha and --beta (use --beta 1 for clean labels), or --estimate METHOD")
	}

	d, err := scorefile.ReadFileContext(ctx, *input)
	if err != nil {
		return err
	}
	r, err := metrics.Rank(d.Scores, d.Labels)
	if err != nil {
		return fmt.Errorf("%s: %w (label 1 = labeled, 0 = unlabeled)", *input, err)
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	var est *priorEstimate
	a, b := *alpha, *beta
	if *estimate != "" {
		labeled, unlabeled := split(d)
		pe, err := estimatePrior(ctx, *estimate, labeled, unlabeled)
		if err != nil {
			return fmt.Errorf("--estimate %s on %s: %w", *estimate, *input, err)
		}
		pe.Method = *estimate
		est = &pe
		a, b = float64(pe.Alpha), float64(pe.Beta)
		for _, w := range pe.Warnings {
			fmt.Fprintf(e.stderr, "pueval: correct: warning: %s: %s\n", *estimate, w)
		}
	}
	rc, err := recovery.New(r, a, b)
	if err != nil {
		if est != nil {
			return fmt.Errorf("--estimate %s gave alpha %v, beta %v: %w", *estimate, a, b, err)
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
	if *plotDir != "" {
		if err := plotCorrection(rc, out, *plotDir); err != nil {
			return err
		}
	}
	if *format == "json" {
		return writeJSON(e.stdout, rep)
	}
	t := newTable(e.stdout)
	if est != nil {
		t.row("estimate", est.Method)
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
	return t.flush()
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

// split returns the scores of the labeled (label 1) and unlabeled (label 0) rows.
func split(d scorefile.Data) (labeled, unlabeled []float64) {
	for i, s := range d.Scores {
		if d.Labels[i] {
			labeled = append(labeled, s)
		} else {
			unlabeled = append(unlabeled, s)
		}
	}
	return labeled, unlabeled
}
