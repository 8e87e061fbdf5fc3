package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/estimators/bounds"
	"github.com/pueval/pueval/internal/scorefile"
	"github.com/pueval/pueval/report"
)

// boundsReport is the JSON output of `pueval bounds`.
type boundsReport struct {
	N              int `json:"n"`
	KnownPositives int `json:"known_positives"`
	KnownNegatives int `json:"known_negatives"`
	Unlabeled      int `json:"unlabeled"`
	// Beta is the fraction of positives among the unlabeled the bounds
	// assume: low = high for --beta.
	Beta struct {
		Low    number `json:"low"`
		High   number `json:"high"`
		Source string `json:"source"` // "--beta", "--beta-interval" or "peek"
	} `json:"beta"`
	Peek *peekReport `json:"peek,omitempty"`
	Band bandReport  `json:"band"`
	Ties string      `json:"ties"`
	PU   puReport    `json:"pu"`
	AUC  areaBounds  `json:"auc"`
	AUPR areaBounds  `json:"aupr"`
	// NegativeBased are the bounds from the known negatives' rank CDF, and
	// Tighter the narrower of the two for each area, when there are known
	// negatives.
	NegativeBased *areasReport   `json:"negative_based,omitempty"`
	Tighter       *tighterReport `json:"tighter,omitempty"`
	Warnings      []string       `json:"warnings,omitempty"`
}

type peekReport struct {
	Positives int    `json:"positives"`
	Negatives int    `json:"negatives"`
	Credible  string `json:"credible"`
	Level     number `json:"level"`
}

type bandReport struct {
	Kind      string `json:"kind"`
	Resamples int    `json:"resamples,omitempty"`
	Seed      uint64 `json:"seed,omitempty"`
	Level     number `json:"level"`
}

// puReport is "U as negative": the known positives against everything else
// (the bounds at beta = 0).
type puReport struct {
	AUC  number `json:"auc"`
	AUPR number `json:"aupr"`
}

type areaBounds struct {
	Lower number `json:"lower"`
	Upper number `json:"upper"`
}

type areasReport struct {
	AUC  areaBounds `json:"auc"`
	AUPR areaBounds `json:"aupr"`
}

type tighterBounds struct {
	areaBounds
	From string `json:"from"` // "positives" or "negatives"
}

type tighterReport struct {
	AUC  tighterBounds `json:"auc"`
	AUPR tighterBounds `json:"aupr"`
}

func areaOf(i bounds.Interval) areaBounds { return areaBounds{number(i.Low), number(i.High)} }

// boundsFlags are the parsed flags of `pueval bounds`.
type boundsFlags struct {
	input, betaFlag, interval, band, ties, credible, format, plot string
	resamples, peekPos, peekNeg                                   int
	level                                                         float64
	seed                                                          uint64
	set                                                           map[string]bool
}

func runBounds(ctx context.Context, e *env, args []string) error {
	fs := flagSet("bounds")
	var f boundsFlags
	fs.StringVar(&f.input, "input", "", "CSV `file` with header score,label: label 1 = known positive, 0 = known negative, empty or -1 = unlabeled")
	fs.StringVar(&f.betaFlag, "beta", "", "`B`: the fraction of positives among the unlabeled examples, in [0, 1): Claesen et al.'s beta, which is the AAAI-2017 paper's alpha (the --alpha of pueval correct), not its beta")
	fs.StringVar(&f.interval, "beta-interval", "", "an interval `LO,HI` for that fraction (when it is not known exactly): the lower curves use LO, the upper HI")
	fs.IntVar(&f.peekPos, "peek-positives", 0, "derive the beta interval from peeked labels: `N` positives found among the unlabeled examples checked (with --peek-negatives)")
	fs.IntVar(&f.peekNeg, "peek-negatives", 0, "`M` negatives found among the unlabeled examples checked (with --peek-positives)")
	fs.StringVar(&f.credible, "credible", "equal-tailed", "credible `interval` of beta from the peeked labels, Beta(1 + N, 1 + M): equal-tailed or hpd (shortest)")
	fs.StringVar(&f.band, "band", "bootstrap", "confidence `band` on the rank CDF of the known positives: bootstrap or dkw")
	fs.IntVar(&f.resamples, "resamples", 2000, "bootstrap `resamples`")
	fs.Float64Var(&f.level, "level", 0.95, "confidence `level` of the band, and of the credible interval with --peek-*")
	fs.Uint64Var(&f.seed, "seed", 1, "`seed` of the bootstrap (the output is the same for the same seed)")
	fs.StringVar(&f.ties, "ties", "grouped", "`mode` for tied scores: grouped (tied scores move together) or input-order (ties broken by row order, as the published code)")
	fs.StringVar(&f.format, "format", "json", "output `format`: json or table")
	fs.StringVar(&f.plot, "plot", "", "also draw the ROC and PR bounds with the PU curve into `directory` (roc and pr, as PNG, PDF and SVG)")
	if help, err := parseFlags(e, fs, args); help || err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	opts, err := f.check()
	if err != nil {
		return err
	}

	d, err := scorefile.ReadPUFileContext(ctx, f.input)
	if err != nil {
		return err
	}
	if d.Count(scorefile.KnownPositive) == 0 {
		return fmt.Errorf("%s: no known positive (label 1): the bounds start from the rank distribution of the known positives", f.input)
	}
	if d.Count(scorefile.KnownPositive) == len(d.Labels) {
		return fmt.Errorf("%s: every row is a known positive: nothing to bound", f.input)
	}
	labels := make([]bounds.Label, len(d.Labels))
	for i, l := range d.Labels {
		switch l {
		case scorefile.KnownPositive:
			labels[i] = bounds.Positive
		case scorefile.KnownNegative:
			labels[i] = bounds.Negative
		}
	}
	r, err := bounds.Rank(d.Scores, labels, opts.ties)
	if err != nil {
		return fmt.Errorf("%s: %w", f.input, err)
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	rep, res, err := computeBounds(ctx, r, f, opts)
	if err != nil {
		return err
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(e.stderr, "pueval: bounds: warning: %s\n", w)
	}
	if f.plot != "" {
		if err := plotBounds(res, rep, f.plot); err != nil {
			return err
		}
	}
	if f.format == "json" {
		return writeJSON(e.stdout, rep)
	}
	return writeBoundsTable(e, rep)
}

// boundsOptions are the flags' values once checked.
type boundsOptions struct {
	ties     bounds.Ties
	credible bounds.Credible
	beta     bounds.Interval
}

// check validates the flags before the file is read, naming the flag.
func (f *boundsFlags) check() (boundsOptions, error) {
	var o boundsOptions
	var err error
	switch {
	case f.input == "":
		return o, errors.New("--input is required")
	case f.band != "bootstrap" && f.band != "dkw":
		return o, fmt.Errorf("--band %q: want bootstrap or dkw", f.band)
	case !(f.level > 0 && f.level < 1):
		return o, fmt.Errorf("--level %v: want a confidence level in (0, 1)", f.level)
	case f.resamples < 1:
		return o, fmt.Errorf("--resamples %d: want at least 1", f.resamples)
	}
	if err := checkFormat(f.format); err != nil {
		return o, err
	}
	if o.ties, err = bounds.ParseTies(f.ties); err != nil {
		return o, fmt.Errorf("--ties %q: want grouped or input-order", f.ties)
	}
	if o.credible, err = bounds.ParseCredible(f.credible); err != nil {
		return o, fmt.Errorf("--credible %q: want equal-tailed or hpd", f.credible)
	}
	peek := f.set["peek-positives"] || f.set["peek-negatives"]
	given := 0
	for _, b := range []bool{f.set["beta"], f.set["beta-interval"], peek} {
		if b {
			given++
		}
	}
	if given != 1 {
		return o, errors.New("give exactly one of --beta B, --beta-interval LO,HI, or --peek-positives N --peek-negatives M (beta: the fraction of positives among the unlabeled)")
	}
	switch {
	case f.set["beta"]:
		b, err := parseBeta("--beta", f.betaFlag)
		if err != nil {
			return o, err
		}
		o.beta = bounds.PointInterval(b)
	case f.set["beta-interval"]:
		lo, hi, ok := strings.Cut(f.interval, ",")
		if !ok {
			return o, fmt.Errorf("--beta-interval %q: want LO,HI", f.interval)
		}
		if o.beta.Low, err = parseBeta("--beta-interval", lo); err != nil {
			return o, err
		}
		if o.beta.High, err = parseBeta("--beta-interval", hi); err != nil {
			return o, err
		}
		if o.beta.Low > o.beta.High {
			return o, fmt.Errorf("--beta-interval %q: LO is above HI", f.interval)
		}
	default:
		if !f.set["peek-positives"] || !f.set["peek-negatives"] {
			return o, errors.New("give both --peek-positives and --peek-negatives")
		}
		if f.peekPos < 0 || f.peekNeg < 0 {
			return o, fmt.Errorf("--peek-positives %d --peek-negatives %d: want counts >= 0", f.peekPos, f.peekNeg)
		}
		if o.beta, err = bounds.CredibleInterval(f.peekPos, f.peekNeg, f.level, o.credible); err != nil {
			return o, err
		}
		// An HPD interval of a posterior piled up at 1 may end at 1, which
		// leaves no latent negative: keep it just below.
		o.beta.High = min(o.beta.High, 1-1e-9)
		o.beta.Low = min(o.beta.Low, o.beta.High)
	}
	return o, nil
}

// parseBeta reads a fraction of positives among the unlabeled, in [0, 1).
func parseBeta(flagName, s string) (float64, error) {
	b, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(b >= 0 && b < 1) {
		return 0, fmt.Errorf("%s %q: want a fraction in [0, 1) (the positives among the unlabeled)", flagName, s)
	}
	return b, nil
}

// boundsResult holds the curves for the plot.
type boundsResult struct {
	pos, pu  bounds.Bounds
	neg      *bounds.Bounds
	bandName string
}

// computeBounds builds the band(s) and the bounds.
func computeBounds(ctx context.Context, r *bounds.Ranking, f boundsFlags, o boundsOptions) (boundsReport, boundsResult, error) {
	var rep boundsReport
	var res boundsResult
	rep.N, rep.KnownPositives, rep.KnownNegatives, rep.Unlabeled = r.N(), r.KnownPositives(), r.KnownNegatives(), r.Unlabeled()
	rep.Beta.Low, rep.Beta.High = number(o.beta.Low), number(o.beta.High)
	switch {
	case f.set["beta"]:
		rep.Beta.Source = "--beta"
	case f.set["beta-interval"]:
		rep.Beta.Source = "--beta-interval"
	default:
		rep.Beta.Source = "peek"
		rep.Peek = &peekReport{Positives: f.peekPos, Negatives: f.peekNeg, Credible: o.credible.String(), Level: number(f.level)}
	}
	rep.Band = bandReport{Kind: f.band, Level: number(f.level)}
	if f.band == "bootstrap" {
		rep.Band.Resamples, rep.Band.Seed = f.resamples, f.seed
	}
	rep.Ties = o.ties.String()

	// The positive- and negative-based bands draw from separate streams of
	// the seed, so that adding known negatives leaves the first unchanged.
	band := func(r *bounds.Ranking, stream uint64) (bounds.Band, error) {
		if f.band == "dkw" {
			return r.DKW(f.level)
		}
		return r.Bootstrap(rand.New(rand.NewPCG(f.seed, stream)), f.resamples, f.level)
	}
	pb, err := band(r, 1)
	if err != nil {
		return rep, res, err
	}
	if err := stopped(ctx); err != nil {
		return rep, res, err
	}
	if res.pos, err = r.Bounds(pb, o.beta); err != nil {
		return rep, res, err
	}
	if res.pu, err = r.Bounds(pb, bounds.PointInterval(0)); err != nil {
		return rep, res, err
	}
	rep.PU = puReport{number(res.pu.AUC.Low), number(res.pu.AUPR.Low)}
	rep.AUC, rep.AUPR = areaOf(res.pos.AUC), areaOf(res.pos.AUPR)
	if r.KnownNegatives() > 0 {
		nb, err := band(r.Flip(), 2)
		if err != nil {
			return rep, res, err
		}
		neg, err := r.NegativeBounds(nb, o.beta)
		if err != nil {
			return rep, res, err
		}
		res.neg = &neg
		rep.NegativeBased = &areasReport{AUC: areaOf(neg.AUC), AUPR: areaOf(neg.AUPR)}
		rep.Tighter = &tighterReport{AUC: tighter(res.pos.AUC, neg.AUC), AUPR: tighter(res.pos.AUPR, neg.AUPR)}
	}
	if o.beta.Low != o.beta.High && res.pu.AUC.Low <= 0.5 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the PU AUC is %.4f, not above 1/2: the ranking is not better than random, so the ends of the beta interval need not bound the curves (Lemma 4)", res.pu.AUC.Low))
	}
	if res.pos.AUC.Low > res.pos.AUC.High {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the lower AUC bound %.4f is above the upper %.4f", res.pos.AUC.Low, res.pos.AUC.High))
	}
	res.bandName = f.band
	return rep, res, stopped(ctx)
}

func tighter(pos, neg bounds.Interval) tighterBounds {
	if bounds.Tighter(pos, neg) == pos {
		return tighterBounds{areaOf(pos), "positives"}
	}
	return tighterBounds{areaOf(neg), "negatives"}
}

func writeBoundsTable(e *env, rep boundsReport) error {
	t := newTable(e.stdout)
	t.row("n", rep.N)
	t.row("known_positives", rep.KnownPositives)
	t.row("known_negatives", rep.KnownNegatives)
	t.row("unlabeled", rep.Unlabeled)
	if rep.Beta.Low == rep.Beta.High {
		t.row("beta", float64(rep.Beta.Low))
	} else {
		t.row("beta", float64(rep.Beta.Low), float64(rep.Beta.High))
	}
	t.row("beta_source", rep.Beta.Source)
	if p := rep.Peek; p != nil {
		t.row("peek", fmt.Sprintf("%d positives, %d negatives (%s, level %v)", p.Positives, p.Negatives, p.Credible, p.Level))
	}
	band := rep.Band.Kind
	if rep.Band.Resamples > 0 {
		band = fmt.Sprintf("%s (%d resamples, seed %d)", band, rep.Band.Resamples, rep.Band.Seed)
	}
	t.row("band", band, "level", float64(rep.Band.Level))
	t.row("ties", rep.Ties)
	t.row("", "lower", "upper", "pu")
	t.row("auc", float64(rep.AUC.Lower), float64(rep.AUC.Upper), float64(rep.PU.AUC))
	t.row("aupr", float64(rep.AUPR.Lower), float64(rep.AUPR.Upper), float64(rep.PU.AUPR))
	if n := rep.NegativeBased; n != nil {
		t.row("negative-based auc", float64(n.AUC.Lower), float64(n.AUC.Upper))
		t.row("negative-based aupr", float64(n.AUPR.Lower), float64(n.AUPR.Upper))
		t.row("tighter auc", float64(rep.Tighter.AUC.Lower), float64(rep.Tighter.AUC.Upper), "from "+rep.Tighter.AUC.From)
		t.row("tighter aupr", float64(rep.Tighter.AUPR.Lower), float64(rep.Tighter.AUPR.Upper), "from "+rep.Tighter.AUPR.From)
	}
	return t.flush()
}

// Colours of the plots: the PU curve red, the positive-based bounds blue,
// the negative-based green, each lower bound a lighter shade of its upper.
var (
	boundsPUColor   = color.RGBA{R: 0xd6, G: 0x3a, B: 0x3a, A: 0xff}
	boundsPosColors = [2]color.Color{color.RGBA{R: 0x86, G: 0xb0, B: 0xea, A: 0xff}, color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}}
	boundsNegColors = [2]color.Color{color.RGBA{R: 0x94, G: 0xd6, B: 0xa4, A: 0xff}, color.RGBA{R: 0x1e, G: 0x7a, B: 0x38, A: 0xff}}
)

// plotBounds draws roc.{png,pdf,svg} and pr.{png,pdf,svg} into dir: the PU
// curve (U as negative), the lower and upper bounds, and the negative-based
// ones when there are known negatives.
func plotBounds(res boundsResult, rep boundsReport, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--plot: %w", err)
	}
	xy := func(pts []bounds.Point) (x, y []float64) {
		for _, p := range pts {
			x, y = append(x, p.X), append(y, p.Y)
		}
		return x, y
	}
	beta := fmt.Sprintf("beta %.3f", float64(rep.Beta.Low))
	if rep.Beta.Low != rep.Beta.High {
		beta = fmt.Sprintf("beta in [%.3f, %.3f]", float64(rep.Beta.Low), float64(rep.Beta.High))
	}
	title := func(kind string) string { return fmt.Sprintf("%s bounds, %s", kind, beta) }
	// roc picks the curves and areas of the ROC bounds, pr those of the PR
	// bounds (they differ for negative-based bounds over an interval).
	type pick func(bounds.Bounds) (lower, upper []bounds.Point, area bounds.Interval)
	roc := func(b bounds.Bounds) ([]bounds.Point, []bounds.Point, bounds.Interval) {
		return b.Lower.ROC(), b.Upper.ROC(), b.AUC
	}
	pr := func(b bounds.Bounds) ([]bounds.Point, []bounds.Point, bounds.Interval) {
		return b.LowerPR.PR(), b.UpperPR.PR(), b.AUPR
	}
	series := func(p pick) []report.Series {
		var s []report.Series
		pu, _, puArea := p(res.pu)
		x, y := xy(pu)
		s = append(s, report.Series{Name: fmt.Sprintf("PU: U as negative (%.3f)", puArea.Low), X: x, Y: y, Color: boundsPUColor, Dashed: true})
		add := func(b bounds.Bounds, who string, c [2]color.Color) {
			lower, upper, a := p(b)
			x, y := xy(upper)
			s = append(s, report.Series{Name: fmt.Sprintf("upper, %s (%.3f)", who, a.High), X: x, Y: y, Color: c[1]})
			x, y = xy(lower)
			s = append(s, report.Series{Name: fmt.Sprintf("lower, %s (%.3f)", who, a.Low), X: x, Y: y, Color: c[0]})
		}
		add(res.pos, "known positives", boundsPosColors)
		if res.neg != nil {
			add(*res.neg, "known negatives", boundsNegColors)
		}
		return s
	}
	charts := []struct {
		name string
		lc   report.LineChart
	}{
		{"roc", report.LineChart{Title: title("ROC"), XLabel: "false positive rate", YLabel: "true positive rate",
			Diagonal: true, XMin: 0, XMax: 1, YMin: 0, YMax: 1, Series: series(roc)}},
		{"pr", report.LineChart{Title: title("PR"), XLabel: "recall", YLabel: "precision",
			XMin: 0, XMax: 1, YMin: 0, YMax: 1, Series: series(pr)}},
	}
	for _, c := range charts {
		fig, err := c.lc.Figure(c.name, 17*vg.Centimeter, 10*vg.Centimeter)
		if err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
		if _, err := fig.Save(dir); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
	}
	return nil
}
