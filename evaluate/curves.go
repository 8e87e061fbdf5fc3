package evaluate

import (
	"context"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/metrics"
)

// bandGrid is the number of grid points of a curve's bootstrap band: X =
// 0, 0.01, ..., 1.
const bandGrid = 101

// gridX returns the band grid.
func gridX() []float64 {
	x := make([]float64, bandGrid)
	for i := range x {
		x[i] = float64(i) / float64(bandGrid-1)
	}
	return x
}

// xy is a curve as two slices, X non-decreasing.
type xy struct{ x, y []float64 }

func rocXY(pts []metrics.ROCPoint) xy {
	c := xy{make([]float64, len(pts)), make([]float64, len(pts))}
	for i, p := range pts {
		c.x[i], c.y[i] = p.FPR, p.TPR
	}
	return c
}

func prXY(pts []metrics.PRPoint) xy {
	c := xy{make([]float64, len(pts)), make([]float64, len(pts))}
	for i, p := range pts {
		c.x[i], c.y[i] = p.Recall, p.Precision
	}
	return c
}

// at returns the curve's value at x, read as the polygon through its
// points (the trapezoid rule's reading), on the last segment that reaches
// x: where the curve is vertical at x, its highest point for a ROC curve
// (Algorithm 1 orders a vertical run by ascending TPR). Outside the
// curve's X range, its first or last value.
func (c xy) at(x float64) float64 {
	n := len(c.x)
	if n == 0 {
		return nan64
	}
	// The last index with c.x[i] <= x.
	lo, hi := 0, n // invariant: c.x[j] <= x for j < lo, > x for j >= hi
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c.x[m] <= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := lo - 1
	switch {
	case i < 0:
		return c.y[0]
	case i == n-1:
		return c.y[i]
	}
	x0, x1 := c.x[i], c.x[i+1]
	if x1 == x0 {
		return c.y[i]
	}
	return c.y[i] + (c.y[i+1]-c.y[i])*(x-x0)/(x1-x0)
}

// grid reads the curve at every point of the band grid.
func (c xy) grid() []float64 {
	g := gridX()
	for i, x := range g {
		g[i] = c.at(x)
	}
	return g
}

// monotoneX returns c with x made non-decreasing by a running maximum (a
// recovered recall can dip; the area rule counts it once).
func (c xy) monotoneX() xy {
	out := xy{append([]float64(nil), c.x...), c.y}
	for i := 1; i < len(out.x); i++ {
		out.x[i] = max(out.x[i], out.x[i-1])
	}
	return out
}

// thin returns at most k points of c, evenly spaced by index, the first
// and the last always kept.
func thin(c xy, k int) []Point {
	idx := thinIndices(len(c.x), k)
	out := make([]Point, len(idx))
	for j, i := range idx {
		out[j] = Point{Float(c.x[i]), Float(c.y[i])}
	}
	return out
}

// thinIndices returns the indices thin keeps of n points: at most k,
// evenly spaced, the first and the last always kept.
func thinIndices(n, k int) []int {
	idx := make([]int, min(n, k))
	for j := range idx {
		if n <= k {
			idx[j] = j
		} else {
			idx[j] = int(float64(j) * float64(n-1) / float64(k-1))
		}
	}
	return idx
}

// thinROC is thin(rocXY(r.ROC()), k) without building the whole curve (10^7
// points take a seventh of a second): the kept points only.
func thinROC(r *metrics.Ranking, k int) []Point {
	idx := thinIndices(r.Len(), k)
	out := make([]Point, len(idx))
	for j, i := range idx {
		out[j] = Point{Float(r.FPR(i)), Float(r.TPR(i))}
	}
	return out
}

// thinPR is thin(prXY(r.PR()), k) likewise: point i of r.PR() is threshold
// i+1.
func thinPR(r *metrics.Ranking, k int) []Point {
	idx := thinIndices(r.Len()-1, k)
	out := make([]Point, len(idx))
	for j, i := range idx {
		out[j] = Point{Float(r.TPR(i + 1)), Float(r.Confusion(i + 1).Precision())}
	}
	return out
}

// curvesOf returns the PU curves and, with rc, the recovered ones (its
// curve sorted already), asking ctx between them.
func curvesOf(ctx context.Context, r *metrics.Ranking, rc *recovery.Recovery, opts Options) (Curves, error) {
	c := Curves{
		ROC: Curve{PU: thinROC(r, opts.CurvePoints), Recovered: []Point{}},
		PR:  Curve{PU: thinPR(r, opts.CurvePoints), Recovered: []Point{}},
	}
	if rc == nil {
		return c, stopped(ctx)
	}
	var roc []metrics.ROCPoint
	var pr []metrics.PRPoint
	err := steps(ctx,
		func() { roc = rc.ROC(opts.Outside) },
		func() { c.ROC.Recovered = thin(rocXY(roc), opts.CurvePoints) },
		func() { pr = rc.PRCurveOf(opts.Outside, recovery.DefaultPRCurve) },
		func() { c.PR.Recovered = thin(prXY(pr), opts.CurvePoints) })
	if err != nil {
		return Curves{}, err
	}
	return c, nil
}
