package evaluate

import (
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

// curve is a curve read point by point: n points, point i at (x, y),
// x non-decreasing. The band grid reads it; thin keeps some of its points.
type curve struct {
	n  int
	at func(i int) (x, y float64)
}

// xy is a curve as two slices, X non-decreasing.
type xy struct{ x, y []float64 }

func (c xy) curve() curve {
	return curve{len(c.x), func(i int) (float64, float64) { return c.x[i], c.y[i] }}
}

// rocCurve is Algorithm 1's curve of num, (FPR, TPR).
func rocCurve(num *recovery.Numbers) curve {
	return curve{len(num.ROC), func(i int) (float64, float64) { p := num.ROC[i]; return p.X, p.Y }}
}

// prCurve is the PR curve read off num's ROC curve (recovery's PRFromROC),
// (recall, precision). Its recall is the ROC curve's TPR, which Algorithm 1
// made non-decreasing.
func prCurve(num *recovery.Numbers) curve {
	return curve{len(num.ROC) - 1, func(i int) (float64, float64) { p := num.PR(i); return p.X, p.Y }}
}

// value returns the curve's value at x, read as the polygon through its
// points (the trapezoid rule's reading), on the last segment that reaches
// x: where the curve is vertical at x, its highest point for a ROC curve
// (Algorithm 1 orders a vertical run by ascending TPR). Outside the
// curve's X range, its first or last value.
func (c curve) value(x float64) float64 {
	n := c.n
	if n == 0 {
		return nan64
	}
	xAt := func(i int) float64 { v, _ := c.at(i); return v }
	// The last index with x_i <= x.
	lo, hi := 0, n // invariant: x_j <= x for j < lo, > x for j >= hi
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if xAt(m) <= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := lo - 1
	switch {
	case i < 0:
		_, y := c.at(0)
		return y
	case i == n-1:
		_, y := c.at(i)
		return y
	}
	x0, y0 := c.at(i)
	x1, y1 := c.at(i + 1)
	if x1 == x0 {
		return y0
	}
	return y0 + (y1-y0)*(x-x0)/(x1-x0)
}

// grid reads the curve at every point of the band grid.
func (c curve) grid() []float64 {
	g := gridX()
	for i, x := range g {
		g[i] = c.value(x)
	}
	return g
}

// thin returns at most k points of c, evenly spaced by index, the first
// and the last always kept.
func thin(c xy, k int) []Point { return thinCurve(c.curve(), k) }

// thinCurve is thin of a curve read point by point.
func thinCurve(c curve, k int) []Point {
	idx := thinIndices(c.n, k)
	out := make([]Point, len(idx))
	for j, i := range idx {
		x, y := c.at(i)
		out[j] = Point{Float(x), Float(y)}
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

// thinROC is thin of r.ROC() without building the whole curve (10^7
// points take a seventh of a second): the kept points only.
func thinROC(r *metrics.Ranking, k int) []Point {
	idx := thinIndices(r.Len(), k)
	out := make([]Point, len(idx))
	for j, i := range idx {
		out[j] = Point{Float(r.FPR(i)), Float(r.TPR(i))}
	}
	return out
}

// thinPR is thin of r.PR() likewise: point i of r.PR() is threshold
// i+1.
func thinPR(r *metrics.Ranking, k int) []Point {
	idx := thinIndices(r.Len()-1, k)
	out := make([]Point, len(idx))
	for j, i := range idx {
		out[j] = Point{Float(r.TPR(i + 1)), Float(r.Confusion(i + 1).Precision())}
	}
	return out
}

// curvesOf returns the PU curves and, with num, the recovered ones.
func curvesOf(r *metrics.Ranking, num *recovery.Numbers, opts Options) Curves {
	c := Curves{
		ROC: Curve{PU: thinROC(r, opts.CurvePoints), Recovered: []Point{}},
		PR:  Curve{PU: thinPR(r, opts.CurvePoints), Recovered: []Point{}},
	}
	if num != nil {
		c.ROC.Recovered = thinCurve(rocCurve(num), opts.CurvePoints)
		c.PR.Recovered = thinCurve(prCurve(num), opts.CurvePoints)
	}
	return c
}
