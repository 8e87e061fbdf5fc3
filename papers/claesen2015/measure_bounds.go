package claesen2015

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments"

	"github.com/pueval/pueval/estimators/bounds"
	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/metrics"
)

// BoundsMeasure is the measure "bounds": Claesen et al. 2015's lower and
// upper bounds on the AUC and the AUPR of the ranking of all the cell's
// instances (known positives L, unlabeled U and known negatives) from the
// rank CDF of the known positives (package estimators/bounds), at
// multiples of the true beta (the fraction of positives in U: the record's
// alpha). It records the metrics "auc-bounds" and "aupr-bounds" with keys
//
//	truth:same-model        the true value: the ranking judged with the true labels
//	pu                      the known positives against everything else
//	BAND-lower:SOURCE       the lower bound with the band BAND (bootstrap, dkw) at beta SOURCE
//	BAND-upper:SOURCE       the upper bound
//	BAND-neg-lower:SOURCE   the bounds from the rank CDF of the known negatives (App. C), when there are some
//	BAND-neg-upper:SOURCE
//	point:SOURCE            the point estimate: the ECDF as band, real-valued counts (auc-bounds only)
//	affine:SOURCE           (AUC_PU - b/2)/(1 - b), the affine value the point estimate follows (auc-bounds only)
//
// and the metric "rank-cdf" with BAND-coverage: the fraction of the
// cut-offs at which the rank CDF of the latent positives lies inside the
// band (the paper's Fig. 5 claim).
//
// where SOURCE is "real" (the true beta), "real*F" (F times it, capped
// below 1) or "real*LO..HI" (the interval [LO, HI] times it: the lower curve
// at LO, the upper at HI). For the first `curves` repeats it also records
// curves (Record.Curves): the rank CDF of the known positives ("cdf-known"),
// of the latent positives ("cdf-latent") and the first band's edges
// ("cdf-BAND-lower", "cdf-BAND-upper"), x the rank over n; the true ROC and
// PR curves ("truth-roc", "truth-pr"); the first band's lower and upper ROC
// curves at every beta ("BAND-lower-roc:SOURCE", ...) and PR curves at the
// true beta and the intervals.
//
//	metrics:
//	  - {name: bounds, bands: [bootstrap, dkw], resamples: 2000, level: 0.95, ties: grouped,
//	     betas: [1, 0, 0.88, 1.25], intervals: [[0.88, 1.25]], curves: 1}
//
// Known negatives need a ranking source (their scores are the data's own).
type BoundsMeasure struct {
	Bands     []string     `yaml:"bands"`     // bootstrap (resampled rank CDF), dkw (Dvoretzky-Kiefer-Wolfowitz)
	Resamples int          `yaml:"resamples"` // bootstrap resamples
	Level     float64      `yaml:"level"`     // confidence of the band
	Ties      string       `yaml:"ties"`      // grouped (tied scores move together) or input-order (the published code's)
	Betas     []float64    `yaml:"betas"`     // multiples of the true beta
	Intervals [][2]float64 `yaml:"intervals"` // [LO, HI] multiples of the true beta
	Curves    int          `yaml:"curves"`    // record curves for repeats 0..curves-1
}

// maxCurvePoints of a bounds curve: enough for a figure.
const boundsCurvePoints = 200

func (m *BoundsMeasure) Name() string { return "bounds" }

func (m *BoundsMeasure) Validate() error {
	var errs []error
	if len(m.Bands) == 0 {
		errs = append(errs, fmt.Errorf("bands: list at least one of bootstrap, dkw"))
	}
	for i, b := range m.Bands {
		if b != "bootstrap" && b != "dkw" {
			errs = append(errs, fmt.Errorf("bands[%d] = %q: want bootstrap or dkw", i, b))
		} else if slices.Index(m.Bands, b) != i {
			errs = append(errs, fmt.Errorf("bands: %q listed twice", b))
		}
	}
	if m.Resamples < 10 || m.Resamples > 100000 {
		errs = append(errs, fmt.Errorf("resamples = %d: want an integer in [10, 100000]", m.Resamples))
	}
	if !(m.Level > 0 && m.Level < 1) {
		errs = append(errs, fmt.Errorf("level = %v: want a confidence in (0, 1)", m.Level))
	}
	if _, err := bounds.ParseTies(m.Ties); err != nil {
		errs = append(errs, fmt.Errorf("ties = %q: want grouped or input-order", m.Ties))
	}
	if len(m.Betas) == 0 && len(m.Intervals) == 0 {
		errs = append(errs, fmt.Errorf("betas: list at least one multiple of the true beta (1: the true beta)"))
	}
	for i, f := range m.Betas {
		if !(f >= 0) || math.IsInf(f, 0) || slices.Index(m.Betas, f) != i {
			errs = append(errs, fmt.Errorf("betas[%d] = %v: want distinct numbers >= 0", i, f))
		}
	}
	for i, iv := range m.Intervals {
		if !(iv[0] >= 0 && iv[0] <= iv[1]) || math.IsInf(iv[1], 0) {
			errs = append(errs, fmt.Errorf("intervals[%d] = %v: want [LO, HI] with 0 <= LO <= HI", i, iv))
		}
	}
	if m.Curves < 0 {
		errs = append(errs, fmt.Errorf("curves = %d: want the number of repeats whose curves are recorded, >= 0", m.Curves))
	}
	return experiments.JoinErrors("measure bounds", errs)
}

func (m *BoundsMeasure) Key() string {
	return fmt.Sprintf("bounds/v1 bands=%s resamples=%d level=%v ties=%s betas=%v intervals=%v curves=%d",
		strings.Join(m.Bands, ","), m.Resamples, m.Level, m.Ties, m.Betas, m.Intervals, m.Curves)
}

func (m *BoundsMeasure) New() (experiments.Measure, error) { return m, m.Validate() }

// boundsBeta is one beta setting: its key source and its interval.
type boundsBeta struct {
	source   string
	interval bounds.Interval
	point    bool // a single beta (not an interval): point estimate and affine value too
}

// betaSettings turns the multiples into betas for a true beta, capped below 1.
func (m *BoundsMeasure) betaSettings(beta float64) []boundsBeta {
	capped := func(f float64) float64 { return math.Min(f*beta, 1-1e-9) }
	var out []boundsBeta
	for _, f := range m.Betas {
		src := results.Real
		if f != 1 {
			src += "*" + strconv.FormatFloat(f, 'g', -1, 64)
		}
		out = append(out, boundsBeta{source: src, interval: bounds.PointInterval(capped(f)), point: true})
	}
	for _, iv := range m.Intervals {
		src := fmt.Sprintf("%s*%s..%s", results.Real, strconv.FormatFloat(iv[0], 'g', -1, 64), strconv.FormatFloat(iv[1], 'g', -1, 64))
		out = append(out, boundsBeta{source: src, interval: bounds.Interval{Low: capped(iv[0]), High: capped(iv[1])}})
	}
	return out
}

func (m *BoundsMeasure) Measure(_ context.Context, c *experiments.CellRun, out *experiments.Values) error {
	cr, err := m.rankCell(c)
	if err != nil {
		return err
	}
	out.Set(aucBounds, results.TruthKey("same-model"), cr.trueRank.AUC())
	out.Set(auprBounds, results.TruthKey("same-model"), cr.trueRank.AveragePrecision())
	out.Set(aucBounds, results.PU, cr.puRank.AUC())
	out.Set(auprBounds, results.PU, cr.puRank.AveragePrecision())
	curves := c.Cell.Repeat < m.Curves
	settings := m.betaSettings(c.Alpha)
	for bi, bandName := range m.Bands {
		if err := m.bandBounds(c, cr, out, bandName, settings, curves && bi == 0); err != nil {
			return err
		}
	}
	// The point estimate and its affine value (the paper's AUC_est =
	// (AUC_PU - b/2)/(1 - b) with real-valued counts and no clamp).
	for _, s := range settings {
		if !s.point {
			continue
		}
		lower, _, err := cr.r.Tables(cr.r.ECDF(), s.interval.Low, bounds.RealValued)
		if err != nil {
			return fmt.Errorf("point estimate at beta %v: %w", s.interval.Low, err)
		}
		out.Set(aucBounds, results.RecoveryKey("point", s.source), lower.AUC())
		b := s.interval.Low
		out.Set(aucBounds, results.RecoveryKey("affine", s.source), (cr.puRank.AUC()-float64(b/2))/(1-b))
	}
	if curves {
		cr.setCurves(out)
	}
	return nil
}

// The metrics the measure writes.
const aucBounds, auprBounds = "auc-bounds", "aupr-bounds"

// rankedCell is a cell's instances ranked for the bounds: in data order
// (ties: input-order breaks ties by it, as the published code breaks them
// by file order), with their known labels and true labels.
type rankedCell struct {
	labels           []bounds.Label
	truth            []bool
	r                *bounds.Ranking
	trueRank, puRank *metrics.Ranking
}

func (m *BoundsMeasure) rankCell(c *experiments.CellRun) (*rankedCell, error) {
	type inst struct {
		row   int
		score float64
		label bounds.Label
	}
	var all []inst
	for i, row := range c.Rows {
		l := bounds.Unlabeled
		if i < c.NL {
			l = bounds.Positive
		}
		all = append(all, inst{row, c.Scores[i], l})
	}
	if len(c.Split.Negatives) > 0 {
		if c.Data.Scores == nil {
			return nil, fmt.Errorf("bounds: known negatives need a ranking source (their scores are the data's own)")
		}
		for _, row := range c.Split.Negatives {
			all = append(all, inst{row, c.Data.Scores[row], bounds.Negative})
		}
	}
	slices.SortFunc(all, func(a, b inst) int { return a.row - b.row })
	scores, known := make([]float64, len(all)), make([]bool, len(all))
	cr := &rankedCell{labels: make([]bounds.Label, len(all)), truth: make([]bool, len(all))}
	for i, x := range all {
		scores[i], cr.labels[i], cr.truth[i], known[i] = x.score, x.label, c.Data.Y[x.row], x.label == bounds.Positive
	}
	ties, _ := bounds.ParseTies(m.Ties)
	var err error
	if cr.r, err = bounds.Rank(scores, cr.labels, ties); err != nil {
		return nil, fmt.Errorf("bounds: %w", err)
	}
	if cr.trueRank, err = metrics.Rank(scores, cr.truth); err != nil {
		return nil, fmt.Errorf("bounds: the true labels: %w", err)
	}
	if cr.puRank, err = metrics.Rank(scores, known); err != nil {
		return nil, fmt.Errorf("bounds: known positives against the rest: %w", err)
	}
	return cr, nil
}

// bandBounds sets the bounds of one band at every beta setting (and, with
// known negatives, the negative-based ones), the band's coverage of the
// latent positives' rank CDF and, with curves, the bound curves and the
// band.
func (m *BoundsMeasure) bandBounds(c *experiments.CellRun, cr *rankedCell, out *experiments.Values, bandName string, settings []boundsBeta, curves bool) error {
	r := cr.r
	band, err := m.band(r, bandName, c, "bounds/"+bandName)
	if err != nil {
		return err
	}
	var negBand *bounds.Band
	if r.KnownNegatives() > 0 {
		nb, err := m.band(r.Flip(), bandName, c, "bounds/"+bandName+"/negatives")
		if err != nil {
			return err
		}
		negBand = &nb
	}
	// Over an interval, the paper's rule (Lemma 4: the lower curve at the
	// low end, the upper at the high end), as the published code computes
	// it: the reproduction reports what the paper's method gives. pueval
	// bounds reports the extremes over the interval instead
	// (bounds.Ranking.Bounds), which can differ where the clamp binds.
	for _, s := range settings {
		b, err := r.EndBounds(band, s.interval)
		if err != nil {
			return fmt.Errorf("bounds at beta %v: %w", s.interval, err)
		}
		setBounds(out, bandName, s.source, b)
		if negBand != nil {
			nb, err := r.EndNegativeBounds(*negBand, s.interval)
			if err != nil {
				return fmt.Errorf("negative-based bounds at beta %v: %w", s.interval, err)
			}
			setBounds(out, bandName+"-neg", s.source, nb)
		}
		if curves {
			out.SetCurve(results.RecoveryKey(bandName+"-lower-roc", s.source), curvePoints(b.Lower.ROC()))
			out.SetCurve(results.RecoveryKey(bandName+"-upper-roc", s.source), curvePoints(b.Upper.ROC()))
			if s.source == results.Real || !s.point {
				out.SetCurve(results.RecoveryKey(bandName+"-lower-pr", s.source), curvePoints(b.LowerPR.PR()))
				out.SetCurve(results.RecoveryKey(bandName+"-upper-pr", s.source), curvePoints(b.UpperPR.PR()))
			}
		}
	}
	out.Set("rank-cdf", bandName+"-coverage", latentCoverage(r, band, cr.labels, cr.truth))
	if curves {
		out.SetCurve("cdf-"+bandName+"-lower", bandCurve(band, r.N(), false))
		out.SetCurve("cdf-"+bandName+"-upper", bandCurve(band, r.N(), true))
	}
	return nil
}

// setCurves records the rank CDFs of the known and the latent positives
// and the true ROC and PR curves.
func (cr *rankedCell) setCurves(out *experiments.Values) {
	order := cr.r.Order()
	out.SetCurve("cdf-known", rankCDF(order, func(i int) bool { return cr.labels[i] == bounds.Positive }))
	out.SetCurve("cdf-latent", rankCDF(order, func(i int) bool { return cr.labels[i] == bounds.Unlabeled && cr.truth[i] }))
	var roc, pr [][2]float64
	for _, p := range cr.trueRank.ROC() {
		roc = append(roc, [2]float64{p.FPR, p.TPR})
	}
	for _, p := range cr.trueRank.PR() {
		pr = append(pr, [2]float64{p.Recall, p.Precision})
	}
	out.SetCurve("truth-roc", roc)
	out.SetCurve("truth-pr", pr)
}

// setBounds records the AUC and AUPR intervals of b under PREFIX-lower:SOURCE
// and PREFIX-upper:SOURCE.
func setBounds(out *experiments.Values, prefix, source string, b bounds.Bounds) {
	for _, m := range []struct {
		metric string
		iv     bounds.Interval
	}{{"auc-bounds", b.AUC}, {"aupr-bounds", b.AUPR}} {
		out.Set(m.metric, results.RecoveryKey(prefix+"-lower", source), m.iv.Low)
		out.Set(m.metric, results.RecoveryKey(prefix+"-upper", source), m.iv.High)
	}
}

// band builds the named band of the known positives of r.
func (m *BoundsMeasure) band(r *bounds.Ranking, name string, c *experiments.CellRun, stream string) (bounds.Band, error) {
	var b bounds.Band
	var err error
	if name == "dkw" {
		b, err = r.DKW(m.Level)
	} else {
		b, err = r.Bootstrap(c.Rand(stream), m.Resamples, m.Level)
	}
	if err != nil {
		return bounds.Band{}, fmt.Errorf("bounds: %s band: %w", name, err)
	}
	return b, nil
}

// latentCoverage is the fraction of the cut-offs (every rank with ties:
// input-order, the end of every tie group with ties: grouped) at which the
// rank CDF of the latent positives (unlabeled, truly positive) lies inside
// the band: the paper's Fig. 5 claim that the band, built from the known
// positives, contains the latent positives' CDF.
func latentCoverage(r *bounds.Ranking, band bounds.Band, labels []bounds.Label, truth []bool) float64 {
	order := r.Order()
	latent := 0
	for i := range labels {
		if labels[i] == bounds.Unlabeled && truth[i] {
			latent++
		}
	}
	if latent == 0 {
		return math.NaN()
	}
	inside, seen, pos := 0, 0, 0
	for c := range r.Cutoffs() {
		rank := r.CutoffRank(c)
		for ; pos <= rank; pos++ {
			if i := order[pos]; labels[i] == bounds.Unlabeled && truth[i] {
				seen++
			}
		}
		lo, hi := band.At(rank)
		if cdf := float64(seen) / float64(latent); cdf >= lo-1e-12 && cdf <= hi+1e-12 {
			inside++
		}
	}
	return float64(inside) / float64(r.Cutoffs())
}

// curvePoints converts a curve's points, thinned to a figure's resolution.
func curvePoints(pts []bounds.Point) [][2]float64 {
	out := make([][2]float64, len(pts))
	for i, p := range pts {
		out[i] = [2]float64{p.X, p.Y}
	}
	return experiments.Downsample(out, boundsCurvePoints)
}

// bandCurve is a band edge as (rank/n, value) points.
func bandCurve(b bounds.Band, n int, upper bool) [][2]float64 {
	out := make([][2]float64, len(b.Ranks))
	for i, rk := range b.Ranks {
		v := b.Lower[i]
		if upper {
			v = b.Upper[i]
		}
		out[i] = [2]float64{float64(rk) / float64(n), v}
	}
	return experiments.Downsample(out, boundsCurvePoints)
}

// rankCDF is the rank CDF of the instances that in() selects, as (rank/n,
// fraction at or above that rank) at each of them.
func rankCDF(order []int, in func(i int) bool) [][2]float64 {
	total := 0
	for _, i := range order {
		if in(i) {
			total++
		}
	}
	var out [][2]float64
	seen := 0
	for rank, i := range order {
		if in(i) {
			seen++
			out = append(out, [2]float64{float64(rank) / float64(len(order)), float64(seen) / float64(total)})
		}
	}
	return experiments.Downsample(out, boundsCurvePoints)
}

// Compile-time checks.
var (
	_ experiments.MeasureConfig = (*BoundsMeasure)(nil)
	_ experiments.Measure       = (*BoundsMeasure)(nil)
)

func init() {
	experiments.Measures.Register("bounds", "Claesen et al. 2015: bounds on the AUC and AUPR from the rank CDF of the known positives (and negatives), at multiples of the true beta",
		func() experiments.MeasureConfig {
			return &BoundsMeasure{Bands: []string{"bootstrap"}, Resamples: 1000, Level: 0.95, Ties: "grouped", Betas: []float64{1}, Curves: 1}
		})
}
