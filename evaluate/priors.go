package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pueval/pueval/estimators/recovery"
)

// Estimated priors: their point estimate and the region of priors the
// intervals cover.
//
// The point estimate is the mean of the estimators' alpha and beta (the
// score-reading ones that gave usable priors; the others where none did):
// on the practitioner's benchmark (internal/benchevaluate) its recovered AUC
// errs less than any one estimator's below 10^5 rows.
//
// No estimator's own bootstrap interval holds the true priors as often as
// it says: every AlphaMax-type estimator returns the largest share of the
// labeled distribution the unlabeled one can hold, which exceeds alpha
// wherever the classes overlap (irreducibility fails), the more so the
// weaker the model, and the estimators share that bias. So the recovered
// numbers' intervals cover a region of priors around the point estimate:
// alpha in [alpha - dLo, alpha + dHi] and beta - alpha in [gap e^-wLo,
// gap e^wHi], with
//
//	dLo = a1 + b1 s + c1 w,  dHi = a2 + b2 s,  wLo = a3 + b3 s,  wHi = a4 + b4 s + c4 w,
//
// s = 1/sqrt(labeled rows) and w = max(0, 0.9 - the recovered AUC), the
// model's weakness. A number's interval is its value at the point
// estimate widened, on each side, by the quadrature sum of its sampling
// offset (its [SamplingInterval] with the priors held at the point
// estimate) and its farthest value over a grid of the region.
//
// The coefficients (regionCoefficients) were fitted on the tuning cases of
// the practitioner's benchmark (internal/benchevaluate, its -grid export
// of every case's numbers on a grid of priors): the smallest mean width of
// the AUC, AUC-PR, F1 and MCC intervals such that each holds the truth in
// at least 95 % of all tuning cases and 93 % of the cases of every band of
// labeled rows (below 30, 100, 300, 1,000, 3,000 and above), with plain
// percentile sampling offsets. The sampling intervals' inflation and bias
// correction make the intervals a little wider than that fit (the mean
// AUC interval 0.42 on the benchmark where the fit gave 0.40) and raise
// their coverage. The benchmark's validation cases, which played no part
// in the fit, check them (docs/evaluate-benchmark.md).

// regionCoefficients are a1, b1, c1, a2, b2, a3, b3, a4, b4, c4 above.
var regionCoefficients = [10]float64{0.106, 1.5584, 0.484, 0.023, 1.5259, 0.2125, 3.5079, 0.1182, 4.4389, 1.6252}

// consensus returns the mean of the usable estimators' alpha and beta and
// their names: the score-reading estimators', or every usable one's when
// no score-reading one gave usable priors; ok is false when none did.
func consensus(es []EstimatorResult) (alpha, beta float64, names []string, ok bool) {
	for _, scores := range []bool{true, false} {
		var sa, sb float64
		names = names[:0]
		for _, e := range es {
			usable := e.Error == "" && recovery.CheckPriors(float64(e.Alpha), float64(e.Beta)) == nil
			if !usable || (scores && e.Reads != "scores") {
				continue
			}
			sa, sb = sa+float64(e.Alpha), sb+float64(e.Beta)
			names = append(names, e.Method)
		}
		if len(names) > 0 {
			n := float64(len(names))
			return sa / n, sb / n, names, true
		}
	}
	return math.NaN(), math.NaN(), nil, false
}

// methodName says which estimators' priors the point estimate is.
func methodName(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return "mean of " + strings.Join(names, ", ")
}

// priorRegion is the region of priors around (alpha, beta) that the
// intervals cover (see the comment at the top of this file): nL labeled
// rows, auc the recovered AUC at (alpha, beta).
func priorRegion(alpha, beta float64, nL int, auc float64) PriorRegion {
	c := regionCoefficients
	s := 1 / math.Sqrt(float64(max(nL, 1)))
	w := 0.0
	if !math.IsNaN(auc) {
		w = max(0, 0.9-auc)
	}
	dLo, dHi := c[0]+float64(c[1]*s)+float64(c[2]*w), c[3]+float64(c[4]*s)
	wLo, wHi := c[5]+float64(c[6]*s), c[7]+float64(c[8]*s)+float64(c[9]*w)
	gap := beta - alpha
	r := PriorRegion{
		Alpha: Interval{Float(max(0, alpha-dLo)), Float(min(alpha+dHi, 1))},
		Gap:   Interval{Float(gap * math.Exp(-wLo)), Float(min(gap*math.Exp(wHi), 1))},
	}
	r.Beta = Interval{Float(min(1, float64(r.Alpha.Low+r.Gap.Low))), Float(min(1, float64(r.Alpha.High+r.Gap.High)))}
	return r
}

// regionSteps is the number of grid points along each side of the region
// (alpha and beta - alpha), the point estimate's coordinates added.
const regionSteps = 5

// grid returns the usable priors (alpha, beta) of a grid over the region:
// alpha evenly spaced from its low to its high end, beta - alpha evenly
// spaced in its logarithm, each with the point estimate's own value added;
// beta capped at 1. The recovered numbers need not be monotone in the
// priors (the clipping of the recovered curves bends them), so the grid
// covers the region's inside, not only its corners.
func (r PriorRegion) grid(alpha, beta float64) [][2]float64 {
	as := withCenter(spaced(float64(r.Alpha.Low), float64(r.Alpha.High), regionSteps, false), alpha)
	gs := withCenter(spaced(float64(r.Gap.Low), float64(r.Gap.High), regionSteps, true), beta-alpha)
	var out [][2]float64
	for _, a := range as {
		for _, g := range gs {
			b := min(a+g, 1)
			if recovery.CheckPriors(a, b) == nil {
				out = append(out, [2]float64{a, b})
			}
		}
	}
	return out
}

// spaced returns k points from lo to hi, evenly spaced (in the logarithm
// when logScale and both ends are positive).
func spaced(lo, hi float64, k int, logScale bool) []float64 {
	out := make([]float64, k)
	for i := range out {
		t := float64(i) / float64(k-1)
		if logScale && lo > 0 && hi > 0 {
			out[i] = math.Exp(math.Log(lo) + float64(t*(math.Log(hi)-math.Log(lo))))
		} else {
			out[i] = lo + float64(t*(hi-lo))
		}
	}
	return out
}

// withCenter returns xs with c added (xs is ascending and stays so).
func withCenter(xs []float64, c float64) []float64 {
	i := sort.SearchFloat64s(xs, c)
	if i < len(xs) && xs[i] == c {
		return xs
	}
	return slices.Insert(xs, i, c)
}

// regionNumbers recovers the numbers at every grid point of the region
// around res.Priors, on opts.Workers goroutines (each point's numbers in
// its own slot: the same for any worker count); t is the input's tally.
func (res *Result) regionNumbers(ctx context.Context, t recovery.Tally, opts Options) ([]recovery.Numbers, error) {
	p := res.Priors
	pts := p.Region.grid(float64(p.Alpha), float64(p.Beta))
	out := make([]recovery.Numbers, len(pts))
	errs := make([]error, opts.Workers)
	var wg sync.WaitGroup
	for w := range opts.Workers {
		wg.Go(func() {
			var ws recovery.Workspace
			for i := w; i < len(pts) && errs[w] == nil; i += opts.Workers {
				out[i], errs[w] = recoverTally(ctx, &ws, t, pts[i][0], pts[i][1], opts.Outside)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("the region of priors: %w", err)
	}
	return out, nil
}

// widen widens a number's sampling interval iv (around its value at the
// point estimate, center) by its spread over the region's grid points
// (values): each side's offset is the root of the sum of squares of the
// sampling offset and the farthest value's distance on that side, clipped
// to [lo, hi] (the number's range). The quadrature sum treats not knowing
// the priors and sampling as independent errors, as the calibration did.
func widen(iv *Interval, center float64, values []float64, lo, hi float64) *Interval {
	if iv == nil || math.IsNaN(center) {
		return iv
	}
	below, above := max(0, center-float64(iv.Low)), max(0, float64(iv.High)-center)
	vlo, vhi := center, center
	for _, v := range values {
		if !math.IsNaN(v) {
			vlo, vhi = min(vlo, v), max(vhi, v)
		}
	}
	out := Interval{Float(center - math.Hypot(center-vlo, below)), Float(center + math.Hypot(vhi-center, above))}
	out.Low, out.High = max(out.Low, Float(lo)), min(out.High, Float(hi))
	return &out
}
