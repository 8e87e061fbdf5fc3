package classprior

import (
	"math"
	"slices"
)

// Products are rounded (float64) before they are added: the same bits on
// arm64, where Go fuses multiply-adds, as on amd64.

// smooth replaces each value of f (on the ascending grid x) by the median of
// the values at its k nearest grid points, itself included, as the published
// inflectionScript does with knnsearch; distance ties go to the lower index.
func smooth(x, f []float64, k int) []float64 {
	n := len(x)
	k = min(k, n)
	out := make([]float64, n)
	buf := make([]float64, 0, k)
	for i := range x {
		l, r := i, i
		for r-l+1 < k {
			if r == n-1 || (l > 0 && x[i]-x[l-1] <= x[r+1]-x[i]) {
				l--
			} else {
				r++
			}
		}
		buf = append(buf[:0], f[l:r+1]...)
		out[i] = median(buf)
	}
	return out
}

// median is MATLAB's median: the middle value, or the mean of the two middle
// values of an even count. It sorts v.
func median(v []float64) float64 {
	slices.Sort(v)
	m := len(v) / 2
	if len(v)%2 == 1 {
		return v[m]
	}
	return (v[m-1] + v[m]) / 2
}

// flatTol is the relative range below which a curve counts as flat: a
// mixture identical to the component gives a curve that is constant up to
// rounding, and normalising the rounding noise would make a knee of it.
const flatTol = 1e-10

// normalise maps f linearly onto [0, 1]; flat reports a curve constant up to
// rounding (range at most flatTol times its magnitude).
func normalise(f []float64) (out []float64, flat bool) {
	lo, hi := slices.Min(f), slices.Max(f)
	out = make([]float64, len(f))
	if !(hi-lo > flatTol*math.Max(1, math.Max(math.Abs(lo), math.Abs(hi)))) {
		return out, true
	}
	for i, v := range f {
		out[i] = (v - lo) / (hi - lo)
	}
	return out, false
}

// lineFitter solves the published knee's line fits exactly: for a window of
// grid rows, the least-squares line b0 + b1 x through the window's points
// subject to lying on or below every point of the curve and to
// b1 >= minSlope (the quadprog call of inflectionScript). A line lies below
// all points exactly when it lies below the vertices of their lower convex
// hull, so the optimum of this strictly convex two-variable problem is the
// best feasible one among the candidates of every possible active set:
// none, the slope bound, the slope bound with the supporting vertex, one hull
// vertex, or two adjacent hull vertices (a hull edge).
type lineFitter struct {
	x, f     []float64
	hull     []int // lower convex hull vertices, by increasing x
	minSlope float64
}

// feasTol absorbs rounding when checking that a line lies below the curve
// (values are normalised to [0, 1]).
const feasTol = 1e-12

func newLineFitter(x, f []float64, minSlope float64) *lineFitter {
	lf := &lineFitter{x: x, f: f, minSlope: minSlope}
	for i := range x {
		for len(lf.hull) >= 2 {
			o, a := lf.hull[len(lf.hull)-2], lf.hull[len(lf.hull)-1]
			cross := float64((x[a]-x[o])*(f[i]-f[o])) - float64((f[a]-f[o])*(x[i]-x[o]))
			if cross > 0 {
				break
			}
			lf.hull = lf.hull[:len(lf.hull)-1]
		}
		lf.hull = append(lf.hull, i)
	}
	return lf
}

func (lf *lineFitter) below(b0, b1 float64) bool {
	for _, v := range lf.hull {
		if b0+float64(b1*lf.x[v]) > lf.f[v]+feasTol {
			return false
		}
	}
	return true
}

func (lf *lineFitter) edgeSlope(j int) float64 {
	u, v := lf.hull[j], lf.hull[j+1]
	return (lf.f[v] - lf.f[u]) / (lf.x[v] - lf.x[u])
}

// fit returns the constrained least-squares line for the rows [lo, hi).
func (lf *lineFitter) fit(lo, hi int) (b0, b1 float64) {
	x, f := lf.x[lo:hi], lf.f[lo:hi]
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += f[i]
	}
	mx /= float64(len(x))
	my /= float64(len(x))
	var sxx, sxy float64
	for i := range x {
		sxx += float64((x[i] - mx) * (x[i] - mx))
		sxy += float64((x[i] - mx) * (f[i] - my))
	}
	sse := func(c0, c1 float64) float64 {
		var s float64
		for i := range x {
			r := c0 + float64(c1*x[i]) - f[i]
			s += float64(r * r)
		}
		return s
	}
	best := math.Inf(1)
	try := func(c0, c1 float64) {
		if s := sse(c0, c1); s < best {
			best, b0, b1 = s, c0, c1
		}
	}
	s := lf.minSlope
	// No active constraint.
	if c1 := sxy / sxx; c1 >= s && lf.below(my-float64(c1*mx), c1) {
		try(my-float64(c1*mx), c1)
	}
	// Slope bound active, alone or with the vertex that supports slope s.
	if lf.below(my-float64(s*mx), s) {
		try(my-float64(s*mx), s)
	}
	support := math.Inf(1)
	for _, v := range lf.hull {
		support = math.Min(support, lf.f[v]-float64(s*lf.x[v]))
	}
	try(support, s)
	// One hull vertex active: the least-squares line through it, feasible
	// when its slope lies between the slopes of the hull edges at the vertex.
	for j, v := range lf.hull {
		xv, fv := lf.x[v], lf.f[v]
		var num, den float64
		for i := range x {
			num += float64((x[i] - xv) * (f[i] - fv))
			den += float64((x[i] - xv) * (x[i] - xv))
		}
		if den == 0 {
			continue
		}
		c1 := num / den
		if c1 < s || (j > 0 && c1 < lf.edgeSlope(j-1)-feasTol) || (j < len(lf.hull)-1 && c1 > lf.edgeSlope(j)+feasTol) {
			continue
		}
		try(fv-float64(c1*xv), c1)
	}
	// Two adjacent hull vertices active: the hull edge itself.
	for j := 0; j+1 < len(lf.hull); j++ {
		if c1 := lf.edgeSlope(j); c1 >= s {
			u := lf.hull[j]
			try(lf.f[u]-float64(c1*lf.x[u]), c1)
		}
	}
	return b0, b1
}

// kneeScores returns the published knee score of every grid point (zero
// outside [npts, n-npts] in 1-based indexing, as the published srs vector):
//
//	sr_j = (slope of right window rows j+1..j+npts - slope of left window rows j-npts+1..j)
//	       / (median of f over the left window + 0.01)
//
// on the smoothed, normalised -loglik curve f. With stale set, the left slope
// is only computed for j < 2*npts and reused afterwards (the published code
// assigns it only in the branch where no stored left fit exists); otherwise
// each j gets the left fit of its own window (the evident intent).
func kneeScores(x, f []float64, npts int, stale bool) []float64 {
	n := len(x)
	sr := make([]float64, n)
	if n < 2*npts+1 || npts < 2 {
		return sr
	}
	minSlope := (f[n-1] - f[0]) / (x[n-1] - x[0]) / 100
	lf := newLineFitter(x, f, minSlope)
	var left float64
	for j := npts; j <= n-npts; j++ { // 1-based j, as the published loop
		_, right := lf.fit(j, j+npts) // rows j+1..j+npts
		if !stale || j < 2*npts {
			_, left = lf.fit(j-npts, j) // rows j-npts+1..j
		}
		med := median(slices.Clone(f[j-npts : j]))
		sr[j-1] = (right - left) / (med + 0.01)
	}
	return sr
}

// argmax returns the first index of the largest value.
func argmax(v []float64) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}
