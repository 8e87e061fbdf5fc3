package claesen2015

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Interval is a lower and an upper bound.
type Interval struct{ Lower, Upper float64 }

// Width is Upper - Lower.
func (iv Interval) Width() float64 { return iv.Upper - iv.Lower }

// Contains says Lower <= x <= Upper.
func (iv Interval) Contains(x float64) bool { return iv.Lower <= x && x <= iv.Upper }

// interval reads the BAND-lower:SOURCE and BAND-upper:SOURCE of a metric;
// NaN where absent.
func interval(r results.Record, metric, band, src string) Interval {
	lo, ok1 := value(r, metric, results.RecoveryKey(band+"-lower", src))
	hi, ok2 := value(r, metric, results.RecoveryKey(band+"-upper", src))
	if !ok1 || !ok2 {
		return Interval{math.NaN(), math.NaN()}
	}
	return Interval{lo, hi}
}

// Fig5Cell is one covtype cell of Figure 5 (bootstrap band).
type Fig5Cell struct {
	KP     float64 // fraction of the positives known
	Repeat int
	// Coverage is the share of cut-offs where the latent positives' rank CDF
	// lies inside the bootstrap band (rank-cdf bootstrap-coverage),
	// DKWCoverage inside the DKW band (NaN without one).
	Coverage, DKWCoverage float64
	// The bounds at the true beta, at the interval (lower curve at its low
	// end, upper at its high end), and the AUC at beta-hat 0 (= AUC_PU).
	AUC, AUPR                 Interval
	AUCInterval, AUPRInterval Interval
	AUCZero                   float64
	AUCTruth, AUPRTruth       float64
	IntervalSource            string // "real*0.88..1.25", "" without one
}

// Figure5Cells reads the ok covtype records, by known-positives then repeat.
func Figure5Cells(recs []results.Record) []Fig5Cell {
	var out []Fig5Cell
	for _, r := range okRecords(recs, fig5Dataset) {
		c := Fig5Cell{KP: gridFloat(r, "known-positives"), Repeat: r.Repeat, IntervalSource: intervalSource(r),
			Coverage: math.NaN(), DKWCoverage: math.NaN(), AUCZero: math.NaN(), AUCTruth: math.NaN(), AUPRTruth: math.NaN()}
		if v, ok := value(r, cdfMetric, "bootstrap-coverage"); ok {
			c.Coverage = v
		}
		if v, ok := value(r, cdfMetric, "dkw-coverage"); ok {
			c.DKWCoverage = v
		}
		c.AUC, c.AUPR = interval(r, aucMetric, "bootstrap", results.Real), interval(r, auprMetric, "bootstrap", results.Real)
		c.AUCInterval = interval(r, aucMetric, "bootstrap", c.IntervalSource)
		c.AUPRInterval = interval(r, auprMetric, "bootstrap", c.IntervalSource)
		if v, ok := value(r, aucMetric, key("bootstrap-lower", 0)); ok {
			c.AUCZero = v
		}
		if v, ok := value(r, aucMetric, truthKey); ok {
			c.AUCTruth = v
		}
		if v, ok := value(r, auprMetric, truthKey); ok {
			c.AUPRTruth = v
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b Fig5Cell) int { return cmp.Or(cmp.Compare(a.KP, b.KP), cmp.Compare(a.Repeat, b.Repeat)) })
	return out
}

// Figure5Table is one row per covtype cell.
func Figure5Table(cells []Fig5Cell) report.Table {
	t := report.Table{Caption: "Figure 5 (covtype): band coverage of the latent positives' rank CDF, and bootstrap AUC and AUPR bounds at beta-hat = beta, at beta-hat 0 and over the interval",
		Labels: []report.Column{{Name: "known positives", CSV: "known_positives"}, {Name: "repeat"}},
		Values: []report.Column{{Name: "bootstrap band coverage", CSV: "coverage"}, {Name: "DKW band coverage", CSV: "dkw_coverage"},
			{Name: "AUC lower", CSV: "auc_lower"}, {Name: "AUC upper", CSV: "auc_upper"}, {Name: "true AUC", CSV: "auc_truth"},
			{Name: "AUC at 0", CSV: "auc_beta0"}, {Name: "AUC interval lower", CSV: "auc_interval_lower"}, {Name: "AUC interval upper", CSV: "auc_interval_upper"},
			{Name: "AUPR lower", CSV: "aupr_lower"}, {Name: "AUPR upper", CSV: "aupr_upper"}, {Name: "true AUPR", CSV: "aupr_truth"},
			{Name: "AUPR interval lower", CSV: "aupr_interval_lower"}, {Name: "AUPR interval upper", CSV: "aupr_interval_upper"}}}
	for _, c := range cells {
		t.Rows = append(t.Rows, report.Row{Labels: []report.Label{{Text: g(c.KP)}, {Text: strconv.Itoa(c.Repeat)}},
			Values: []float64{c.Coverage, c.DKWCoverage, c.AUC.Lower, c.AUC.Upper, c.AUCTruth, c.AUCZero, c.AUCInterval.Lower, c.AUCInterval.Upper,
				c.AUPR.Lower, c.AUPR.Upper, c.AUPRTruth, c.AUPRInterval.Lower, c.AUPRInterval.Upper}})
	}
	return t
}

// The band claims of Figure 5. The bootstrap band (the paper's) is
// pointwise 95 %: at each cut-off it holds the CDF with about that
// probability, but one split's known positives wander as a whole, so a
// split can leave it over long stretches. Its claim is therefore on the
// typical split: in the median cell of each known-positive fraction the
// latent positives' CDF is inside at >= MinCoverage of the cut-offs (the
// level of the AUC coverage claims). The DKW band is simultaneous: it must
// hold the CDF at >= MinDKWCoverage of the cut-offs in every cell. The
// specification's check on the paper's own 5 % split (>= 99 % of the 40,000
// positions, ties in input order) is a test of package estimators/bounds.
const MinDKWCoverage = 0.99

// Figure5Claims checks, over the covtype cells: the two band claims above;
// the bootstrap bounds at the true beta contain the true AUC in at least
// MinCoverage of the cells; the AUPR bounds are wider than the AUC bounds in
// every cell. A cell lacking the values a claim compares is left out of
// that claim's count (and of "every cell" it leaves the claim unchecked,
// unless another cell refutes it).
func Figure5Claims(cells []Fig5Cell) []report.Claim {
	band := report.Claim{Item: "Fig. 5", Test: fmt.Sprintf("the 95 %% bootstrap band contains the rank CDF of the latent positives (a pointwise band: at >= %.0f %% of the cut-offs in the median split of each known-positive fraction; the worst split is shown beside it, not judged)", 100*MinCoverage)}
	dkw := report.Claim{Item: "Fig. 5", Test: fmt.Sprintf("the 95 %% DKW band (simultaneous) contains it at >= %.0f %% of the cut-offs in every split", 100*MinDKWCoverage)}
	contain := report.Claim{Item: "Fig. 5", Test: fmt.Sprintf("the ROC bounds at beta-hat = beta contain the true AUC (in >= %.0f %% of the splits)", 100*MinCoverage)}
	wider := report.Claim{Item: "Fig. 5", Test: "the PR bounds are wider than the ROC bounds (AUPR width > AUC width, every split)"}
	if len(cells) == 0 {
		return []report.Claim{band, dkw, contain, wider}
	}
	fig5BandClaims(cells, &band, &dkw)
	fig5ContainClaim(cells, &contain)
	fig5WiderClaim(cells, &wider)
	return []report.Claim{band, dkw, contain, wider}
}

// fig5BandClaims checks the bootstrap band on the median split of each
// known-positive fraction and the DKW band on every split.
func fig5BandClaims(cells []Fig5Cell, band, dkw *report.Claim) {
	var kps []float64
	byKP := map[float64][]float64{}
	worst := map[float64]Fig5Cell{}
	var dkws []float64
	for _, c := range cells {
		if !math.IsNaN(c.Coverage) {
			if w, seen := worst[c.KP]; !seen || c.Coverage < w.Coverage {
				worst[c.KP] = c
			}
			if _, seen := byKP[c.KP]; !seen {
				kps = append(kps, c.KP)
			}
			byKP[c.KP] = append(byKP[c.KP], c.Coverage)
		}
		if !math.IsNaN(c.DKWCoverage) {
			dkws = append(dkws, c.DKWCoverage)
		}
	}
	if len(kps) == 0 {
		band.Detail = "the records hold no rank-cdf bootstrap-coverage"
	} else {
		ok := true
		var parts []string
		for _, kp := range kps {
			covs := byKP[kp]
			q := percentiles(covs, 0, 0.5)
			ok = ok && q[1] >= MinCoverage
			parts = append(parts, fmt.Sprintf("kp %s: median split %.1f %%, worst split %.1f %% (repeat %d), mean %.1f %% over %d splits",
				g(kp), 100*q[1], 100*worst[kp].Coverage, worst[kp].Repeat, 100*mean(covs), len(covs)))
		}
		band.Verdict, band.Detail = report.VerdictOf(ok), "share of the cut-offs inside the band: "+strings.Join(parts, "; ")
	}
	if len(dkws) == 0 {
		dkw.Detail = "the records hold no rank-cdf dkw-coverage"
		return
	}
	q := percentiles(dkws, 0, 0.5)
	below := len(dkws) - countAtLeast(dkws, MinDKWCoverage)
	dkw.Verdict = report.VerdictOver(len(dkws)-below, below, len(cells)-len(dkws))
	dkw.Detail = fmt.Sprintf("lowest %.2f %%, median %.2f %% over %d splits; inside at every cut-off in %d", 100*q[0], 100*q[1], len(dkws), countAtLeast(dkws, 1))
	if n := len(cells) - len(dkws); n > 0 {
		dkw.Detail += fmt.Sprintf("; %d split(s) without dkw-coverage", n)
	}
}

// fig5ContainClaim checks the share of the splits whose bounds at the true
// beta contain the true AUC, over the splits that hold both.
func fig5ContainClaim(cells []Fig5Cell, contain *report.Claim) {
	n, nIn, nInterval := 0, 0, 0
	var outside []string
	for _, c := range cells {
		if math.IsNaN(c.AUC.Width()) || math.IsNaN(c.AUCTruth) {
			continue
		}
		n++
		if c.AUC.Contains(c.AUCTruth) {
			nIn++
		} else {
			outside = append(outside, fmt.Sprintf("kp %s repeat %d: [%s, %s] vs %s", g(c.KP), c.Repeat, f3(c.AUC.Lower), f3(c.AUC.Upper), f3(c.AUCTruth)))
		}
		if c.AUCInterval.Contains(c.AUCTruth) {
			nInterval++
		}
	}
	if n == 0 {
		contain.Detail = "the records hold no AUC bounds at beta-hat = beta with the true AUC"
		return
	}
	contain.Verdict = report.VerdictOf(float64(nIn) >= MinCoverage*float64(n))
	contain.Detail = fmt.Sprintf("%d/%d splits (the interval bounds: %d/%d)", nIn, n, nInterval, n)
	if len(outside) > 0 {
		contain.Detail += "; outside: " + strings.Join(outside, ", ")
	}
}

// fig5WiderClaim checks that the AUPR bounds are wider than the AUC bounds
// in every split that holds both.
func fig5WiderClaim(cells []Fig5Cell, wider *report.Claim) {
	nWider, missing := 0, 0
	var narrower []string
	var aucW, auprW []float64
	for _, c := range cells {
		if math.IsNaN(c.AUC.Width()) || math.IsNaN(c.AUPR.Width()) {
			missing++
			continue
		}
		aucW, auprW = append(aucW, c.AUC.Width()), append(auprW, c.AUPR.Width())
		if c.AUPR.Width() > c.AUC.Width() {
			nWider++
		} else {
			narrower = append(narrower, fmt.Sprintf("kp %s repeat %d", g(c.KP), c.Repeat))
		}
	}
	if len(aucW) == 0 {
		wider.Detail = "the records hold no AUC and AUPR bounds at beta-hat = beta"
		return
	}
	wider.Verdict = report.VerdictOver(nWider, len(narrower), missing)
	wider.Detail = fmt.Sprintf("%d/%d splits; mean width AUPR %s, AUC %s", nWider, len(aucW), f3(mean(auprW)), f3(mean(aucW)))
	if len(narrower) > 0 {
		wider.Detail += "; not in: " + strings.Join(narrower, ", ")
	}
	if missing > 0 {
		wider.Detail += fmt.Sprintf("; %d split(s) without both bounds", missing)
	}
}

// countAtLeast counts the xs >= t.
func countAtLeast(xs []float64, t float64) int {
	n := 0
	for _, x := range xs {
		if x >= t {
			n++
		}
	}
	return n
}

// Figure5Charts are the three panels of one covtype cell: the rank CDFs
// with the band, the ROC bounds and the PR bounds. Each beta-hat's bounds
// share a colour, the upper one solid and the lower one dashed.
func Figure5Charts(r results.Record) []report.LineChart {
	iv := intervalSource(r)
	ivName := strings.TrimPrefix(iv, results.Real+"*")
	cdf := report.LineChart{Title: "(a) rank CDF", XLabel: "rank r (normalized)", YLabel: "CDF", XMin: 0, XMax: 1, YMin: 0, YMax: 1}
	cdf.Series = addCurve(cdf.Series, r, "cdf-latent", "latent positives", colorTruth, false)
	cdf.Series = addCurve(cdf.Series, r, "cdf-known", "known positives", report.ColorGreen, false)
	cdf.Series = addCurve(cdf.Series, r, "cdf-bootstrap-upper", "95 % band, upper", report.ColorRed, true)
	cdf.Series = addCurve(cdf.Series, r, "cdf-bootstrap-lower", "95 % band, lower", report.ColorBlue, true)
	roc := report.LineChart{Title: "(b) ROC curves", XLabel: "FPR", YLabel: "TPR", XMin: 0, XMax: 1, YMin: 0, YMax: 1, Diagonal: true}
	pr := report.LineChart{Title: "(c) PR curves", XLabel: "recall", YLabel: "precision", XMin: 0, XMax: 1, YMin: 0, YMax: 1}
	roc.Series = addCurve(roc.Series, r, "truth-roc", "true curve", colorTruth, false)
	pr.Series = addCurve(pr.Series, r, "truth-pr", "true curve", colorTruth, false)
	for _, c := range []struct {
		src, name string
		col       int
	}{{results.Real, "beta-hat = beta", 3}, {Source(0), "beta-hat = 0", 7}, {iv, ivName + " x beta", 0}} {
		if c.src == "" {
			continue
		}
		for _, side := range []string{"upper", "lower"} {
			name := c.name + ", " + side
			dashed := side == "lower"
			roc.Series = addCurve(roc.Series, r, results.RecoveryKey("bootstrap-"+side+"-roc", c.src), name, paletteColor(c.col), dashed)
			pr.Series = addCurve(pr.Series, r, results.RecoveryKey("bootstrap-"+side+"-pr", c.src), name, paletteColor(c.col), dashed)
		}
	}
	cdf.LegendBelow, roc.LegendBelow, pr.LegendBelow = true, true, true
	return []report.LineChart{cdf, roc, pr}
}

// writeFigure5 adds Figure 5's section: per known-positives fraction the
// panels of its first repeat with curves, then the table and the claims.
func writeFigure5(s *section, in report.Input) error {
	s.heading("Figure 5: rank CDF, ROC and PR bounds on covtype (the paper's RESVM ranking)")
	cells := Figure5Cells(in.Records)
	claims := Figure5Claims(cells)
	if len(cells) == 0 {
		s.noRecords(absence(in, fig5Dataset), claims...)
		return nil
	}
	rs := okRecords(in.Records, fig5Dataset)
	var kps []float64
	for _, c := range cells {
		if report.IndexFloat(kps, c.KP) < 0 {
			kps = append(kps, c.KP)
		}
	}
	for _, kp := range kps {
		var sub []results.Record
		for _, r := range rs {
			if gridFloat(r, "known-positives") == kp || (math.IsNaN(kp) && math.IsNaN(gridFloat(r, "known-positives"))) {
				sub = append(sub, r)
			}
		}
		r, ok := curveRecord(sub, "truth-roc")
		if !ok {
			s.para(fmt.Sprintf("No curves in the records of known positives %s: its panels are not drawn.", g(kp)), true)
			continue
		}
		f, err := report.Panels("fig5-kp"+g(kp), 30*vg.Centimeter, 15*vg.Centimeter, 3, Figure5Charts(r))
		if err != nil {
			return err
		}
		caption := fmt.Sprintf("Figure 5, %.4g %% of the positives known (|P_L| %d, |U| %d, beta %.4f, repeat %d): the rank CDF of the known and the latent positives with the 95 %% bootstrap band; bounds on the ROC and PR curves at beta-hat = beta, 0 and over the interval (upper solid, lower dashed), with the true curves. PR bounds are recorded at beta and the interval only. "+
			"The lower PR bounds start at (0, 0) and rise almost vertically: that is the bound itself, not the drawing. Above the first known positives the band's lower edge is 0, so the lower bound counts no latent positive there; "+
			"its tables at those cut-offs have TP = 0 and FP > 0, precision TP/(TP + FP) = 0 at recall 0 (the paper's PR points are the tables' (recall, precision)), "+
			"and over its first few true positives, a sliver of recall, its precision climbs from near 0.",
			100*kp, r.Sizes.Labeled, r.Sizes.Unlabeled, r.Alpha, r.Repeat)
		if err := s.figure(f, caption); err != nil {
			return err
		}
	}
	if err := s.table(Figure5Table(cells), "fig5-table"); err != nil {
		return err
	}
	s.claimList(claims...)
	return nil
}
