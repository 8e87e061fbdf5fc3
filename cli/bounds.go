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
	// Alpha is the fraction of positives among the unlabeled the bounds
	// assume (Claesen et al.'s beta): low = high for --alpha.
	Alpha struct {
		Low    number `json:"low"`
		High   number `json:"high"`
		Source string `json:"source"` // "--alpha", "--alpha-interval" or "peek"
	} `json:"alpha"`
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
	// Columns says which column of the input was read as what.
	Columns scorefile.Columns `json:"columns"`
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
// (the bounds at alpha = 0).
type puReport struct {
	AUC  number `json:"auc"`
	AUPR number `json:"aupr"`
}

type areaBounds struct {
	Lower number `json:"lower"`
	Upper number `json:"upper"`
	// LowerAt and UpperAt are, for an interval of alpha, the alpha at which
	// the lower and the upper bound lie: the bounds hold for every alpha of
	// the interval, and their extremes can lie inside it.
	LowerAt *number `json:"lower_at,omitempty"`
	UpperAt *number `json:"upper_at,omitempty"`
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

func areaOf(i bounds.Interval) areaBounds {
	return areaBounds{Lower: number(i.Low), Upper: number(i.High)}
}

// areasOf are the AUC and AUPR bounds of b, with the alpha of each extreme
// when b is over an interval.
func areasOf(b bounds.Bounds) (auc, aupr areaBounds) {
	auc, aupr = areaOf(b.AUC), areaOf(b.AUPR)
	if b.Beta.Low != b.Beta.High {
		at := func(x float64) *number { n := number(x); return &n }
		auc.LowerAt, auc.UpperAt = at(b.At.AUCLow), at(b.At.AUCHigh)
		aupr.LowerAt, aupr.UpperAt = at(b.At.AUPRLow), at(b.At.AUPRHigh)
	}
	return auc, aupr
}

// boundsFlags are the parsed flags of `pueval bounds`.
type boundsFlags struct {
	cols                                                 columnFlags
	input, negatives, band, ties, credible, format, plot string
	alpha, interval                                      string // --alpha and --alpha-interval (or their aliases)
	alphaName, intervalName                              string // the flags given for them, for errors
	resamples, peekPos, peekNeg                          int
	level                                                float64
	seed                                                 uint64
	set                                                  map[string]bool
}

// boundsHelp is the long help of `pueval bounds -h`.
const boundsHelp = `The input is a score file whose label column is 1 for the known positives (a random sample
of the positives) and 0 or empty for the unlabeled rows, as the other commands read it. Rows
whose label is --negatives V (e.g. --negatives 0, then the unlabeled rows are those with an
empty label or -1) are known negatives; without --negatives no row is.

alpha is the fraction of positives among the unlabeled rows: what pueval correct, estimate and
evaluate call alpha, and what Claesen et al. call beta (--beta and --beta-interval are kept as
aliases of --alpha and --alpha-interval). Give it as --alpha, as an interval --alpha-interval
LO,HI, or from labels checked by hand (--peek-positives N --peek-negatives M). Over an
interval the bounds hold for every alpha in it: the lower bound is the smallest over the
interval, the upper the largest (each alpha of the interval is tried), and the output says at
which alpha each lies (lower_at, upper_at): not always at an end.`

func runBounds(ctx context.Context, e *env, args []string) error {
	f, help, err := parseBoundsFlags(e, args)
	if help || err != nil {
		return err
	}
	if err := resolveFormat(e, &f.format); err != nil {
		return err
	}
	opts, err := f.check()
	if err != nil {
		return err
	}
	d, err := f.read(ctx)
	if err != nil {
		return err
	}
	labels := make([]bounds.Label, len(d.Labels))
	for i, l := range d.Labels {
		switch l {
		case scorefile.Labeled:
			labels[i] = bounds.Positive
		case scorefile.KnownNegative:
			labels[i] = bounds.Negative
		}
	}
	r, err := bounds.RankContext(ctx, d.Scores, labels, opts.ties)
	if err != nil {
		return fmt.Errorf("%s: %w", f.input, err)
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	rep, res, err := computeBounds(ctx, r, *f, opts)
	if err != nil {
		return err
	}
	rep.Columns = d.Columns
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

// parseBoundsFlags declares and parses the flags of `pueval bounds`.
func parseBoundsFlags(e *env, args []string) (*boundsFlags, bool, error) {
	fs := flagSet("bounds")
	f := &boundsFlags{set: map[string]bool{}}
	var alpha, beta, alphaIv, betaIv string
	fs.StringVar(&f.input, "input", "", "CSV `file` with a header naming a score and a label column: label 1 = known positive, 0 or empty = unlabeled (see --negatives)")
	f.cols.add(fs)
	fs.StringVar(&f.negatives, "negatives", "", "the label `V` of the known negatives (e.g. 0: then the unlabeled rows are those with an empty label or -1); without it no row is a known negative")
	fs.StringVar(&alpha, "alpha", "", "`A`: the fraction of positives among the unlabeled examples, in [0, 1) (the --alpha of pueval correct; Claesen et al.'s beta)")
	fs.StringVar(&beta, "beta", "", "`A`: alias of --alpha: Claesen et al.'s name")
	fs.StringVar(&alphaIv, "alpha-interval", "", "an interval `LO,HI` for that fraction (when it is not known exactly)")
	fs.StringVar(&betaIv, "beta-interval", "", "`LO,HI`: alias of --alpha-interval: Claesen et al.'s name")
	fs.IntVar(&f.peekPos, "peek-positives", 0, "derive the alpha interval from peeked labels: `N` positives found among the unlabeled examples checked (with --peek-negatives)")
	fs.IntVar(&f.peekNeg, "peek-negatives", 0, "`M` negatives found among the unlabeled examples checked (with --peek-positives)")
	fs.StringVar(&f.credible, "credible", "equal-tailed", "credible `interval` of alpha from the peeked labels, Beta(1 + N, 1 + M): equal-tailed or hpd (shortest)")
	fs.StringVar(&f.band, "band", "bootstrap", "confidence `band` on the rank CDF of the known positives: bootstrap or dkw")
	fs.IntVar(&f.resamples, "resamples", 2000, "bootstrap `resamples`")
	fs.Float64Var(&f.level, "level", 0.95, "confidence `level` of the band, and of the credible interval with --peek-*")
	fs.Uint64Var(&f.seed, "seed", 1, "`seed` of the bootstrap (the output is the same for the same seed)")
	fs.StringVar(&f.ties, "ties", "grouped", "`mode` for tied scores: grouped (tied scores move together) or input-order (ties broken by row order, as the published code)")
	fs.StringVar(&f.format, "format", "", formatUsage)
	fs.StringVar(&f.plot, "plot", "", "also draw the ROC and PR bounds with the PU curve into `directory` (roc and pr, as PNG, PDF and SVG)")
	if help, err := parseFlags(e, fs, args); help || err != nil {
		return nil, help, err
	}
	if err := noArgs(fs); err != nil {
		return nil, false, err
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	var err error
	if f.alphaName, f.alpha, err = alias(f.set, "alpha", alpha, "beta", beta); err != nil {
		return nil, false, err
	}
	if f.intervalName, f.interval, err = alias(f.set, "alpha-interval", alphaIv, "beta-interval", betaIv); err != nil {
		return nil, false, err
	}
	return f, false, nil
}

// alias returns the flag given of name and its alias (with its value), and
// records it in set under name; giving both is an error.
func alias(set map[string]bool, name, value, aliasName, aliasValue string) (string, string, error) {
	switch {
	case set[name] && set[aliasName]:
		return "", "", fmt.Errorf("give --%s or its alias --%s, not both", name, aliasName)
	case set[aliasName]:
		set[name] = true
		return "--" + aliasName, aliasValue, nil
	}
	return "--" + name, value, nil
}

// read reads the input: scores, labels 1 (known positive), 0 or empty
// (unlabeled) and --negatives (known negative).
func (f *boundsFlags) read(ctx context.Context) (*scorefile.Table, error) {
	spec := f.cols.scoreSpec()
	spec.Negatives = f.negatives
	if f.negatives == "" {
		spec.LabelHint = func(v string) string {
			return fmt.Sprintf("; if %q marks known negatives, pass --negatives %s", v, v)
		}
	}
	d, err := readInput(ctx, f.input, spec, nil)
	if err != nil {
		return nil, err
	}
	nPos, nUnl := d.Count(scorefile.Labeled), d.Count(scorefile.Unlabeled)
	switch {
	case nPos == 0:
		return nil, fmt.Errorf("%s: no known positive (label 1): the bounds start from the rank distribution of the known positives", f.input)
	case nPos == d.N():
		return nil, fmt.Errorf("%s: every row is a known positive: nothing to bound", f.input)
	case nUnl == 0:
		return nil, fmt.Errorf("%s: no unlabeled row (--negatives %s read the other %d rows as known negatives): alpha, the fraction of positives among the unlabeled, has nothing to act on and the bounds would be the PU numbers; give the unlabeled rows an empty label or -1 (or 0, without --negatives %s)",
			f.input, f.negatives, d.N()-nPos, f.negatives)
	}
	return d, nil
}

// boundsOptions are the flags' values once checked.
type boundsOptions struct {
	ties     bounds.Ties
	credible bounds.Credible
	alpha    bounds.Interval
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
	if f.set["negatives"] {
		if err := scorefile.CheckNegatives(f.negatives); err != nil {
			return o, fmt.Errorf("--negatives %q: %w", f.negatives, err)
		}
	}
	if o.ties, err = bounds.ParseTies(f.ties); err != nil {
		return o, fmt.Errorf("--ties %q: want grouped or input-order", f.ties)
	}
	if o.credible, err = bounds.ParseCredible(f.credible); err != nil {
		return o, fmt.Errorf("--credible %q: want equal-tailed or hpd", f.credible)
	}
	o.alpha, err = f.alphaInterval(o.credible)
	return o, err
}

// alphaInterval is the interval of alpha that --alpha, --alpha-interval or
// --peek-* give (exactly one of them).
func (f *boundsFlags) alphaInterval(credible bounds.Credible) (bounds.Interval, error) {
	var iv bounds.Interval
	var err error
	peek := f.set["peek-positives"] || f.set["peek-negatives"]
	given := 0
	for _, b := range []bool{f.set["alpha"], f.set["alpha-interval"], peek} {
		if b {
			given++
		}
	}
	if given != 1 {
		return iv, errors.New("give exactly one of --alpha A, --alpha-interval LO,HI, or --peek-positives N --peek-negatives M (alpha: the fraction of positives among the unlabeled; --beta and --beta-interval are aliases)")
	}
	switch {
	case f.set["alpha"]:
		a, err := parseAlpha(f.alphaName, f.alpha, f.alpha)
		return bounds.PointInterval(a), err
	case f.set["alpha-interval"]:
		parts := strings.Split(f.interval, ",")
		if len(parts) != 2 {
			return iv, fmt.Errorf("%s %q: want two numbers LO,HI, got %d", f.intervalName, f.interval, len(parts))
		}
		if iv.Low, err = parseAlpha(f.intervalName, f.interval, parts[0]); err != nil {
			return iv, err
		}
		if iv.High, err = parseAlpha(f.intervalName, f.interval, parts[1]); err != nil {
			return iv, err
		}
		if iv.Low > iv.High {
			return iv, fmt.Errorf("%s %q: LO is above HI", f.intervalName, f.interval)
		}
		return iv, nil
	}
	if !f.set["peek-positives"] || !f.set["peek-negatives"] {
		return iv, errors.New("give both --peek-positives and --peek-negatives")
	}
	if f.peekPos < 0 || f.peekNeg < 0 {
		return iv, fmt.Errorf("--peek-positives %d --peek-negatives %d: want counts >= 0", f.peekPos, f.peekNeg)
	}
	if iv, err = bounds.CredibleInterval(f.peekPos, f.peekNeg, f.level, credible); err != nil {
		return iv, err
	}
	// An HPD interval of a posterior piled up at 1 may end at 1, which
	// leaves no latent negative: keep it just below.
	iv.High = min(iv.High, 1-1e-9)
	iv.Low = min(iv.Low, iv.High)
	return iv, nil
}

// parseAlpha reads s, a part of the value of flag flagName, as a fraction
// of positives among the unlabeled, in [0, 1).
func parseAlpha(flagName, value, s string) (float64, error) {
	a, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err == nil && a >= 0 && a < 1 {
		return a, nil
	}
	if value == s {
		return 0, fmt.Errorf("%s %q: want a fraction in [0, 1) (the positives among the unlabeled)", flagName, s)
	}
	return 0, fmt.Errorf("%s %q: %q is not a fraction in [0, 1) (the positives among the unlabeled)", flagName, value, strings.TrimSpace(s))
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
	rep.Alpha.Low, rep.Alpha.High = number(o.alpha.Low), number(o.alpha.High)
	switch {
	case f.set["alpha"]:
		rep.Alpha.Source = "--alpha"
	case f.set["alpha-interval"]:
		rep.Alpha.Source = "--alpha-interval"
	default:
		rep.Alpha.Source = "peek"
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
		return r.BootstrapContext(ctx, rand.New(rand.NewPCG(f.seed, stream)), f.resamples, f.level)
	}
	pb, err := band(r, 1)
	if err != nil {
		return rep, res, err
	}
	if err := stopped(ctx); err != nil {
		return rep, res, err
	}
	if res.pos, err = r.BoundsContext(ctx, pb, o.alpha); err != nil {
		return rep, res, err
	}
	if res.pu, err = r.Bounds(pb, bounds.PointInterval(0)); err != nil {
		return rep, res, err
	}
	rep.PU = puReport{number(res.pu.AUC.Low), number(res.pu.AUPR.Low)}
	rep.AUC, rep.AUPR = areasOf(res.pos)
	if r.KnownNegatives() > 0 {
		nb, err := band(r.Flip(), 2)
		if err != nil {
			return rep, res, err
		}
		neg, err := r.NegativeBoundsContext(ctx, nb, o.alpha)
		if err != nil {
			return rep, res, err
		}
		res.neg = &neg
		rep.NegativeBased = &areasReport{}
		rep.NegativeBased.AUC, rep.NegativeBased.AUPR = areasOf(neg)
		rep.Tighter = &tighterReport{AUC: tighter(res.pos.AUC, neg.AUC), AUPR: tighter(res.pos.AUPR, neg.AUPR)}
	}
	if res.pos.AUC.Low > res.pos.AUC.High {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the lower AUC bound %.4f is above the upper %.4f: the bounds' areas, trapezoids over sorted points, need not keep their order on a ranking no better than random", res.pos.AUC.Low, res.pos.AUC.High))
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

// attained says at which alpha of an interval the bounds lie ("" for a
// single alpha).
func attained(a areaBounds) string {
	if a.LowerAt == nil {
		return ""
	}
	return fmt.Sprintf("lower at alpha %.4f, upper at %.4f", float64(*a.LowerAt), float64(*a.UpperAt))
}

func writeBoundsTable(e *env, rep boundsReport) error {
	t := newTable(e.stdout)
	columnsRow(t, rep.Columns)
	t.row("n", rep.N)
	t.row("known_positives", rep.KnownPositives)
	t.row("known_negatives", rep.KnownNegatives)
	t.row("unlabeled", rep.Unlabeled)
	if rep.Alpha.Low == rep.Alpha.High {
		t.row("alpha", float64(rep.Alpha.Low))
	} else {
		t.row("alpha", float64(rep.Alpha.Low), float64(rep.Alpha.High))
	}
	t.row("alpha_source", rep.Alpha.Source)
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
	t.row("auc", float64(rep.AUC.Lower), float64(rep.AUC.Upper), float64(rep.PU.AUC), attained(rep.AUC))
	t.row("aupr", float64(rep.AUPR.Lower), float64(rep.AUPR.Upper), float64(rep.PU.AUPR), attained(rep.AUPR))
	if n := rep.NegativeBased; n != nil {
		t.row("negative-based auc", float64(n.AUC.Lower), float64(n.AUC.Upper), "", attained(n.AUC))
		t.row("negative-based aupr", float64(n.AUPR.Lower), float64(n.AUPR.Upper), "", attained(n.AUPR))
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
	alpha := fmt.Sprintf("alpha %.3f", float64(rep.Alpha.Low))
	if rep.Alpha.Low != rep.Alpha.High {
		alpha = fmt.Sprintf("alpha in [%.3f, %.3f]", float64(rep.Alpha.Low), float64(rep.Alpha.High))
	}
	title := func(kind string) string { return fmt.Sprintf("%s bounds, %s", kind, alpha) }
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
