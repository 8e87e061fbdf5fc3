package classprior

import (
	"context"
	"fmt"
	"math"

	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/internal/portmath"
)

// Products are rounded (float64) before they are added: the same bits on
// arm64, where Go fuses multiply-adds, as on amd64.

// logFloor is the floor the published ll_cmb2 puts under the component
// density h1 and the reweighted mixture remainder h0 before taking logs.
const logFloor = 1e-14

// Tolerances of the per-alpha solver. The multiplier is found to the last few
// bits (|sum a*beta - alpha| <= solveTol*alpha). The minorise-maximise loop
// that handles points on bin edges stops when a step raises the objective by
// less than mmTol (relative): with many points on edges the likelihood only
// depends on sums of neighbouring weights, so the weights may keep drifting
// along directions that change nothing.
const (
	solveTol   = 1e-14
	maxNewton  = 300
	mmTol      = 1e-14
	maxMMSteps = 5000
)

// solution is the maximiser beta (one weight per stored bin) of the per-alpha
// problem and its multiplier.
type solution struct {
	beta   []float64
	lambda float64
}

// separable holds the per-bin coefficients of the separable problem
//
//	maximise  sum_i c_i log(beta_i) + d_i log(a_i (1 - beta_i) + alpha p_i)
//	s.t.      sum_i a_i beta_i = alpha,  0 <= beta_i <= 1,
//
// over the bins with a_i > 0 (a bin without mixture mass has no say in the
// problem: its beta multiplies zero). c_i is the component sample's share
// in bin i divided by n1 and d_i the mixture's share divided by n.
type separable struct {
	a, p, c, d []float64
	alpha      float64
}

// betaAt returns the maximiser over [0,1] of c log b + d log(A - a b) - lam a b
// with A = a + alpha p, and its derivative with respect to lam. Setting the
// derivative to zero gives the quadratic lam u^2 - s u + c A = 0 in u = a b
// with s = c + d + lam A; exactly one root lies in (0, A), and it is
// computed in the form that avoids cancellation.
func betaAt(a, p, c, d, alpha, lam float64) (b, db float64) {
	A := a + float64(alpha*p)
	var u float64
	switch {
	case c == 0 && d == 0:
		// No data in the bin: the weight only moves the constraint.
		switch {
		case lam > 0:
			return 0, 0
		case lam < 0:
			return 1, 0
		}
		return 0.5, 0
	case c == 0:
		// d log(A - a b) - lam a b is decreasing unless lam < 0.
		if lam >= 0 {
			return 0, 0
		}
		u = A + d/lam
	default:
		s := c + d + float64(lam*A)
		var disc float64
		if lam >= 0 {
			disc = float64((float64(lam*A)-c)*(float64(lam*A)-c)) + float64(d*(d+float64(2*c)+float64(2*lam*A)))
		} else {
			disc = float64(s*s) - float64(4*lam*c*A)
		}
		sq := math.Sqrt(disc)
		if s >= 0 {
			u = c * A / ((s + sq) / 2)
		} else {
			u = (s - sq) / 2 / lam
		}
	}
	b = u / a
	if b <= 0 {
		return 0, 0
	}
	if b >= 1 {
		return 1, 0
	}
	// Implicit differentiation of c/b - d a/(A - a b) - lam a = 0.
	r := A - float64(a*b)
	db = -a / (c/(b*b) + d*a*a/(r*r))
	return b, db
}

// total returns sum a_i beta_i(lam) and its derivative, filling beta.
func (s *separable) total(lam float64, beta []float64) (sum, deriv float64) {
	for i := range s.a {
		b, db := betaAt(s.a[i], s.p[i], s.c[i], s.d[i], s.alpha, lam)
		beta[i] = b
		sum += float64(s.a[i] * b)
		deriv += float64(s.a[i] * db)
	}
	return sum, deriv
}

// solve finds the multiplier lam with sum a_i beta_i(lam) = alpha and fills
// beta. sum a beta(lam) falls monotonically from sum a_i (lam -> -inf) to 0
// (lam -> +inf), so a bracket is found by doubling from hint and then
// narrowed by Newton steps that fall back to bisection when they leave it.
func (s *separable) solve(hint float64, beta []float64) (float64, error) {
	target := s.alpha
	f := func(lam float64) (float64, float64) {
		v, dv := s.total(lam, beta)
		return v - target, dv
	}
	lo, hi := hint, hint
	flo, _ := f(lo)
	if flo == 0 {
		return lo, nil
	}
	fhi := flo
	step := math.Max(1, math.Abs(hint))
	for i := 0; ; i++ {
		if i > 2100 {
			return 0, fmt.Errorf("alpha %v: no multiplier found (sum of weights %v)", target, flo+target)
		}
		if flo > 0 {
			// Too much mass: raise lam.
			hi = lo + step
			if fhi, _ = f(hi); fhi <= 0 {
				break
			}
			lo, flo = hi, fhi
		} else {
			hi, fhi = lo, flo
			lo = hi - step
			if flo, _ = f(lo); flo >= 0 {
				break
			}
		}
		step *= 2
	}
	// Now f(lo) >= 0 >= f(hi).
	lam := lo
	if flo != fhi {
		lam = lo + (hi-lo)*flo/(flo-fhi)
	}
	for range maxNewton {
		v, dv := f(lam)
		if math.Abs(v) <= solveTol*target {
			return lam, nil
		}
		if v > 0 {
			lo = lam
		} else {
			hi = lam
		}
		next := lam - v/dv
		if dv == 0 || !(next > lo && next < hi) {
			next = lo + float64((hi-lo)/2) // the compiler makes /2 a product
		}
		if next == lam || hi-lo <= 4*ulp(math.Max(math.Abs(lo), math.Abs(hi))) {
			break
		}
		lam = next
	}
	// The bracket cannot shrink further (a weight jumps, as for an empty
	// bin at lam = 0): mix the two ends so that the constraint holds exactly.
	blo, bhi := make([]float64, len(beta)), make([]float64, len(beta))
	slo, _ := s.total(lo, blo)
	shi, _ := s.total(hi, bhi)
	t := 0.0
	if slo != shi {
		t = (slo - target) / (slo - shi)
	}
	t = max(0, min(1, t))
	for i := range beta {
		beta[i] = blo[i] + float64(t*(bhi[i]-blo[i]))
	}
	return lo + float64(t*(hi-lo)), nil
}

// negligibleWeight is the mixture weight below which a bin counts as empty.
// A bin holding a single point has weight at least 1/n; smaller weights only
// arise from EM on a bin that holds nothing but points shared with a
// neighbour, which it loses geometrically (to 1e-297 and below). Their
// densities lie far below the published objective's 1e-5 floor, so the
// published objective is flat in their weights too.
const negligibleWeight = 1e-12

// problem is the per-alpha problem of one AlphaMax run on a histogram, with
// the bins that carry mixture mass (the only ones with a say) listed in use.
type problem struct {
	h    *histogram
	use  []int  // stored-bin indices with a > negligibleWeight
	used []bool // per stored bin
	sep  separable
	// shares of edge points to the lower and the upper bin, per stored
	// edge, for the component and the mixture (minorise-maximise weights).
	compLo, compHi, mixLo, mixHi []float64
	hasEdge                      bool
}

func newProblem(h *histogram) *problem {
	pr := &problem{h: h, used: make([]bool, len(h.a))}
	for i, a := range h.a {
		if a > negligibleWeight {
			pr.use = append(pr.use, i)
			pr.used[i] = true
		}
	}
	m := len(pr.use)
	pr.sep = separable{a: make([]float64, m), p: make([]float64, m), c: make([]float64, m), d: make([]float64, m)}
	for j, i := range pr.use {
		pr.sep.a[j] = h.a[i]
		pr.sep.p[j] = h.p[i]
	}
	e := len(h.compEdge)
	pr.compLo, pr.compHi, pr.mixLo, pr.mixHi = make([]float64, e), make([]float64, e), make([]float64, e), make([]float64, e)
	for i := range h.compEdge {
		if h.compEdge[i] > 0 || h.mixEdge[i] > 0 {
			pr.hasEdge = true
		}
	}
	return pr
}

// fullBeta expands the weights of the bins in use to all stored bins (zero elsewhere).
func (pr *problem) fullBeta(b []float64) []float64 {
	full := make([]float64, len(pr.h.a))
	for j, i := range pr.use {
		full[i] = b[j]
	}
	return full
}

// coefficients sets c and d from the interior counts and the current shares of the edge points.
func (pr *problem) coefficients() {
	h := pr.h
	n, n1 := float64(h.n), float64(h.n1)
	for j, i := range pr.use {
		c, d := h.compIn[i], h.mixIn[i]
		if i < len(h.compEdge) {
			c += float64(h.compEdge[i] * pr.compLo[i])
			d += float64(h.mixEdge[i] * pr.mixLo[i])
		}
		if i > 0 {
			c += float64(h.compEdge[i-1] * pr.compHi[i-1])
			d += float64(h.mixEdge[i-1] * pr.mixHi[i-1])
		}
		pr.sep.c[j], pr.sep.d[j] = c/n1, d/n
	}
}

// updateShares sets the minorise-maximise shares at the weights beta (all
// stored bins): a point on the edge of bins i and i+1 with density
// u_i + u_{i+1} is split as u_i/(u_i + u_{i+1}), which makes the separable
// problem a lower bound of the true one that touches it at beta.
func (pr *problem) updateShares(beta []float64, alpha float64) {
	h := pr.h
	for i := range h.compEdge {
		pr.compLo[i], pr.compHi[i] = split(float64(beta[i]*h.a[i]), float64(beta[i+1]*h.a[i+1]))
		pr.mixLo[i], pr.mixHi[i] = split(float64((1-beta[i])*h.a[i])+float64(alpha*h.p[i]), float64((1-beta[i+1])*h.a[i+1])+float64(alpha*h.p[i+1]))
	}
}

// solveAt maximises the published per-alpha likelihood at the grid value
// alpha exactly: with no point on a bin edge the problem is separable and one
// multiplier search solves it; otherwise the log of a two-bin sum couples
// neighbours, and a minorise-maximise loop (each step a separable problem with
// the edge points split in proportion to the current densities) climbs to the
// maximum of the concave objective. warm is the previous grid point's solution.
func (pr *problem) solveAt(alpha float64, warm *solution) (*solution, error) {
	m := len(pr.use)
	pr.sep.alpha = alpha
	sol := &solution{beta: make([]float64, m)}
	hint := 0.0
	if warm != nil {
		hint = warm.lambda
	}
	if !pr.hasEdge {
		pr.coefficients()
		lam, err := pr.sep.solve(hint, sol.beta)
		sol.lambda = lam
		return sol, err
	}
	// Start as the published code does at its first grid point: beta = alpha
	// everywhere, or the previous solution when there is one.
	full := make([]float64, len(pr.h.a))
	if warm != nil {
		full = pr.fullBeta(warm.beta)
	} else {
		for _, i := range pr.use {
			full[i] = alpha
		}
	}
	// One minorise-maximise step: split the edge points at the current
	// densities and solve the separable problem exactly.
	step := func(from []float64) ([]float64, error) {
		pr.updateShares(from, alpha)
		pr.coefficients()
		lam, err := pr.sep.solve(hint, sol.beta)
		if err != nil {
			return nil, err
		}
		sol.lambda, hint = lam, lam
		return pr.fullBeta(sol.beta), nil
	}
	// Plain MM converges linearly, slowly when most points lie on edges;
	// SQUAREM (Varadhan and Roland 2008, scheme S3) extrapolates from two
	// steps. The extrapolation is an affine combination of feasible points,
	// so sum a beta = alpha still holds; it is shortened until it stays in
	// the box and kept only if it raises the objective.
	prev := math.Inf(-1) // the warm start is feasible for the previous alpha, not this one
	for range maxMMSteps {
		b1, err := step(full)
		if err != nil {
			return nil, err
		}
		b2, err := step(b1)
		if err != nil {
			return nil, err
		}
		next, obj := b2, pr.objective(b2, alpha)
		var rr, vv float64
		for i := range full {
			r, v := b1[i]-full[i], b2[i]-float64(2*b1[i])+full[i]
			rr += float64(r * r)
			vv += float64(v * v)
		}
		if vv > 0 {
			for t := -math.Sqrt(rr / vv); t < -1; t = (t - 1) / 2 {
				cand := make([]float64, len(full))
				inBox := true
				for i := range full {
					r, v := b1[i]-full[i], b2[i]-float64(2*b1[i])+full[i]
					cand[i] = full[i] - float64(2*t*r) + float64(t*t*v)
					if cand[i] < 0 || cand[i] > 1 {
						inBox = false
						break
					}
				}
				if !inBox {
					continue
				}
				c, err := step(cand)
				if err != nil {
					return nil, err
				}
				if o := pr.objective(c, alpha); o > obj {
					next, obj = c, o
				}
				break
			}
		}
		full = next
		if obj-prev <= mmTol*math.Max(1, math.Abs(obj)) {
			break
		}
		prev = obj
	}
	// Report the weights of the point returned.
	for j, i := range pr.use {
		sol.beta[j] = full[i]
	}
	return sol, nil
}

// objective is the published per-alpha objective (to be maximised, without
// its 1e-5 floors and constants) at the weights beta (all stored bins):
// (1/n1) sum over component points of log of their density under
// sum beta_k a_k U_k, plus (1/n) sum over mixture points of log of
// sum ((1 - beta_k) a_k + alpha p_k) U_k, leaving out component points whose
// bins are all out of use (their term does not depend on beta).
func (pr *problem) objective(beta []float64, alpha float64) float64 {
	h := pr.h
	var lc, lm float64
	term := func(count, v float64) float64 {
		if count == 0 {
			return 0
		}
		return float64(count * portmath.Log(v)) // -Inf for a point given no density
	}
	for i, a := range h.a {
		if pr.used[i] {
			lc += term(h.compIn[i], beta[i]*a)
		}
		lm += term(h.mixIn[i], float64((1-beta[i])*a)+float64(alpha*h.p[i]))
		if i < len(h.compEdge) {
			b := h.a[i+1]
			if pr.used[i] || pr.used[i+1] {
				lc += term(h.compEdge[i], float64(beta[i]*a)+float64(beta[i+1]*b))
			}
			lm += term(h.mixEdge[i], float64((1-beta[i])*a)+float64(alpha*h.p[i])+float64((1-beta[i+1])*b)+float64(alpha*h.p[i+1]))
		}
	}
	return lc/float64(h.n1) + lm/float64(h.n)
}

// logLik is the value the published ll_cmb2 records for the weights beta
// (stored-bin indexing), with alpha the proportion they actually achieve:
//
//	(1/n1) sum_{x1} log max(h1(x1), 1e-14)
//	  + (1/n) sum_x log(alpha p1(x) + (1 - alpha) max(h0(x), 1e-14)),
//
// h1 = sum beta_k a_k U_k / sum beta_k a_k the component density implied by
// the reweighting, h0 = sum (1 - beta_k) a_k U_k / sum (1 - beta_k) a_k the
// remainder, p1 the component sample's own histogram, U_k = 1/w on bin k.
func (h *histogram) logLik(beta []float64) float64 {
	var s1, s0 float64
	for i, a := range h.a {
		s1 += float64(beta[i] * a)
		s0 += float64((1 - beta[i]) * a)
	}
	alpha := s1
	w := h.width
	h1 := func(u float64) float64 { return portmath.Log(math.Max(u/(s1*w), logFloor)) }
	mix := func(u0, p float64) float64 {
		v := logFloor
		if s0 > 0 {
			v = math.Max(u0/(s0*w), logFloor)
		}
		return portmath.Log(alpha*p/w + float64((1-alpha)*v))
	}
	var lc, lm float64
	for i, a := range h.a {
		if h.compIn[i] > 0 {
			lc += float64(h.compIn[i] * h1(beta[i]*a))
		}
		if h.mixIn[i] > 0 {
			lm += float64(h.mixIn[i] * mix((1-beta[i])*a, h.p[i]))
		}
		if i < len(h.compEdge) {
			b := h.a[i+1]
			if h.compEdge[i] > 0 {
				lc += float64(h.compEdge[i] * h1(float64(beta[i]*a)+float64(beta[i+1]*b)))
			}
			if h.mixEdge[i] > 0 {
				lm += float64(h.mixEdge[i] * mix(float64((1-beta[i])*a)+float64((1-beta[i+1])*b), h.p[i]+h.p[i+1]))
			}
		}
	}
	return lc/float64(h.n1) + lm/float64(h.n)
}

// llCurve computes the published log-likelihood curve on the ascending grid:
// the maximum at each alpha (raw), and the curve after the published
// monotone correction (each value raised to the largest value at any larger
// alpha, so the curve does not increase with alpha).
func llCurve(h *histogram, grid []float64) (raw, corrected []float64, err error) {
	return llCurveContext(context.Background(), h, grid)
}

// llCurveContext is llCurve asking ctx before every grid point.
func llCurveContext(ctx context.Context, h *histogram, grid []float64) (raw, corrected []float64, err error) {
	pr := newProblem(h)
	raw = make([]float64, len(grid))
	var warm *solution
	for g, alpha := range grid {
		if err := interrupt.Check(ctx); err != nil {
			return nil, nil, err
		}
		sol, err := pr.solveAt(alpha, warm)
		if err != nil {
			return nil, nil, err
		}
		raw[g] = h.logLik(pr.fullBeta(sol.beta))
		warm = sol
	}
	return raw, monotone(raw), nil
}

// monotone returns the published llCurve_correction of ll on an ascending
// grid: the running maximum from the right.
func monotone(ll []float64) []float64 {
	out := make([]float64, len(ll))
	copy(out, ll)
	for i := len(out) - 2; i >= 0; i-- {
		out[i] = math.Max(out[i], out[i+1])
	}
	return out
}
