package svm

import (
	"context"
	"fmt"
	"math"
)

// tau replaces a non-positive curvature K_ii + K_jj - 2 K_ij in working-set
// selection and in the step (Fan, Chen & Lin 2005, as in LIBSVM).
const tau = 1e-12

// ctxEvery is how many SMO iterations pass between context checks.
const ctxEvery = 2048

// smo is the state of the solver. It works with the signed coefficients
// beta_t = y_t alpha_t, in which the dual is
//
//	min 1/2 beta' K beta - y' beta,  sum_t beta_t = 0,  L_t <= beta_t <= U_t
//
// with [L_t, U_t] = [0, C_t] for y_t = +1 and [-C_t, 0] for y_t = -1, and
// keeps F_t = y_t - (K beta)_t, the negative gradient (F_t = -y_t G_t in
// LIBSVM's notation, G the gradient of the alpha form).
type smo struct {
	cache *kernelCache
	pt    []int32   // point of each instance
	ident bool      // pt[t] == t for all t
	y     []float64 // +1 / -1
	lo    []float64 // L_t
	hi    []float64 // U_t
	beta  []float64
	f     []float64 // F_t
	kd    []float64 // K(x_t, x_t) per instance
	tol   float64
	// shrinking enables the active-set heuristic.
	shrinking bool
	// iters counts SMO steps; reconMadds the multiply-adds of gradient
	// reconstructions.
	iters      int
	reconMadds int64
	// stalled says that solve stopped because a step changed no
	// coefficient.
	stalled bool
}

// shrinkEvery is how many iterations pass between shrinking passes
// (LIBSVM: min(n, 1000)).
const shrinkEvery = 1000

// solve runs SMO until the maximal violation max_{I_up} F - min_{I_low} F
// is at most tol, or maxIter steps, or a step that changes no coefficient
// (s.stalled). It reports whether it converged and the final violation;
// s.f holds F at the end.
//
// During the run F lives in two arrays, up[t] = F_t for t in I_up and -Inf
// otherwise, low[t] = F_t for t in I_low and +Inf otherwise, updated
// alike (an infinity minus a finite step stays that infinity, and the
// finite copies get the same bits): the index-set tests of the selection
// loops become comparisons with F_i, without a branch on set membership.
// Every instance is in I_up or I_low (L_t < U_t), so F_t is the finite one
// of up[t] and low[t].
//
// With shrinking (s.shrinking), every shrinkEvery iterations the instances
// at a bound that cannot be part of a violating pair at present (at U_t,
// only in I_low, with F_t > max_{I_up} F; at L_t, only in I_up, with
// F_t < min_{I_low} F) leave the active set, which the selection and
// update loops then scan alone (Joachims 1999; LIBSVM's rule, Chang & Lin
// 2011). F of the inactive instances goes stale; it is
// recomputed from beta (F_t = y_t - sum_l beta_l K_tl) and every instance
// reactivated once when the violation first falls below 10 tol, and
// whenever the active set is optimal, after which the run goes on unless
// the whole set is optimal too. The result is optimal to tol either way,
// but its bits depend on shrinking (the recomputed F rounds differently).
func (s *smo) solve(ctx context.Context, maxIter int) (converged bool, gap float64, err error) {
	n := len(s.beta)
	f, beta, lo, hi, kd := s.f[:n], s.beta[:n], s.lo[:n], s.hi[:n], s.kd[:n]
	up, low := make([]float64, n), make([]float64, n)
	inf := math.Inf(1)
	// place files F_t into up and low by t's index sets.
	place := func(t int, ft float64) {
		up[t], low[t] = -inf, inf
		if beta[t] < hi[t] {
			up[t] = ft
		}
		if beta[t] > lo[t] {
			low[t] = ft
		}
	}
	fOf := func(t int) float64 {
		if u := up[t]; u > -inf {
			return u
		}
		return low[t]
	}
	for t := range n {
		place(t, f[t])
	}
	// act lists the active instances in increasing order; nil = all.
	var act []int32
	defer func() {
		if err != nil {
			return // cancelled: F is not needed
		}
		s.reconstruct(act, place)
		for t := range n {
			f[t] = fOf(t)
		}
	}()
	// Kernel rows per instance: the point rows themselves when every
	// instance has its own point, else gathered through pt (the active
	// entries only).
	var bufI, bufJ []float64
	if !s.ident {
		bufI, bufJ = make([]float64, n), make([]float64, n)
	}
	instRow := func(t int, buf []float64) []float64 {
		r := s.cache.row(int(s.pt[t]))
		if s.ident {
			return r[:n]
		}
		if act == nil {
			for k, p := range s.pt {
				buf[k] = r[p]
			}
		} else {
			for _, k := range act {
				buf[k] = r[s.pt[k]]
			}
		}
		return buf
	}
	// selectI returns the active instance of I_up with the largest F, the
	// first on ties.
	selectI := func() (int, float64) {
		i, fi := -1, -inf
		if act == nil {
			for t, u := range up {
				if u > fi {
					i, fi = t, u
				}
			}
			return i, fi
		}
		for _, t := range act {
			if u := up[t]; u > fi {
				i, fi = int(t), u
			}
		}
		return i, fi
	}
	i, fi := selectI()
	counter := min(n, shrinkEvery)
	unshrunk := false
	for {
		if s.iters%ctxEvery == 0 && ctx.Err() != nil {
			return false, 0, fmt.Errorf("svm: SMO stopped at iteration %d: %w", s.iters, context.Cause(ctx))
		}
		if s.shrinking {
			if counter--; counter == 0 {
				counter = min(n, shrinkEvery)
				act, unshrunk = s.shrink(act, up, low, fi, unshrunk, place)
				i, fi = selectI()
			}
		}
		var ki []float64
		j, bj, aj, fmin, optimal := -1, 0.0, 0.0, 0.0, false
		pair := func() {
			j, fmin = -1, inf
			if i >= 0 {
				ki = instRow(i, bufI)
				j, bj, aj, fmin = selectJ(act, low, kd, ki[:n], fi, kd[i])
			}
			gap = fi - fmin
			optimal = i < 0 || fmin == inf || gap <= s.tol || j < 0
		}
		pair()
		if optimal && act != nil {
			// Optimal on the active set: check the whole set, and shrink
			// again at the next iteration if it is not optimal.
			s.reconstruct(act, place)
			act = nil
			i, fi = selectI()
			pair()
			counter = 1
		}
		if optimal {
			return true, max(gap, 0), nil
		}
		if s.iters >= maxIter {
			return false, gap, nil
		}
		kj := instRow(j, bufJ)
		// Step beta_i += t, beta_j -= t, t = b/a clipped to the box.
		t := bj / aj
		roomI, roomJ := hi[i]-beta[i], beta[j]-lo[j]
		atI, atJ := false, false
		if roomI <= t {
			t, atI = roomI, true
		}
		if roomJ <= t {
			// i stays on its bound only when both rooms are equal.
			atI = atI && roomJ == t
			t, atJ = roomJ, true
		}
		// Land exactly on the bounds a clipped step reaches, so that the
		// index sets never keep an instance a rounding error off its bound.
		oldI, oldJ := beta[i], beta[j]
		if atI {
			beta[i] = hi[i]
		} else {
			beta[i] += t
		}
		if atJ {
			beta[j] = lo[j]
		} else {
			beta[j] -= t
		}
		if beta[i] == oldI && beta[j] == oldJ {
			// The step is below the resolution of both coefficients (huge
			// kernel values): the same pair would be selected forever.
			s.stalled = true
			return false, gap, nil
		}
		place(i, fi)
		place(j, fOf(j))
		i, fi = update(act, up, low, ki[:n], kj[:n], t)
		s.iters++
	}
}

// selectJ returns, among the instances of act (nil = all) in I_low with
// F_t < F_i, the j that minimises -(F_i - F_t)^2 / a_it, the decrease of
// the objective along the pair's direction without the box (WSS2), the
// first on ties, with its b = F_i - F_j and a_ij; and min_{I_low} F. The
// gain b^2/a is compared as b^2 > best a (a > 0), which spares a division
// per candidate.
func selectJ(act []int32, low, kd, ki []float64, fi, kii float64) (j int, bj, aj, fmin float64) {
	j, fmin = -1, math.Inf(1)
	best := 0.0
	kd, ki = kd[:len(low)], ki[:len(low)]
	consider := func(t int, ft float64) {
		b := fi - ft
		a := kii + kd[t] - 2*ki[t]
		if a <= 0 {
			a = tau
		}
		if b2 := b * b; j < 0 || b2 > best*a {
			j, best, bj, aj = t, b2/a, b, a
		}
	}
	if act == nil {
		for t, ft := range low {
			if ft < fmin {
				// (not the builtin min, whose NaN and signed-zero rules
				// cost a branchy sequence here)
				fmin = ft
			}
			if ft < fi {
				consider(t, ft)
			}
		}
		return
	}
	for _, t := range act {
		ft := low[t]
		if ft < fmin {
			fmin = ft
		}
		if ft < fi {
			consider(int(t), ft)
		}
	}
	return
}

// update applies F_k -= t (K_ki - K_kj) to the instances of act (nil =
// all) and returns the next i, the active instance of I_up with the
// largest F (the first on ties).
func update(act []int32, up, low, ki, kj []float64, t float64) (int, float64) {
	i, fi := -1, math.Inf(-1)
	low, ki, kj = low[:len(up)], ki[:len(up)], kj[:len(up)]
	if act == nil {
		for k := range up {
			d := float64(t * (ki[k] - kj[k]))
			low[k] -= d
			u := up[k] - d
			up[k] = u
			if u > fi {
				i, fi = k, u
			}
		}
		return i, fi
	}
	for _, k := range act {
		d := float64(t * (ki[k] - kj[k]))
		low[k] -= d
		u := up[k] - d
		up[k] = u
		if u > fi {
			i, fi = int(k), u
		}
	}
	return i, fi
}

// shrink removes from the active set act (nil = all) the instances that
// cannot be in a violating pair now: with m = max_{I_up} F (fi) and
// M = min_{I_low} F over the active set, those only in I_low with F_t > m
// and those only in I_up with F_t < M. The first time m - M <= 10 tol it
// first reactivates everything (with F recomputed), so that the final
// iterations see all instances. It returns the new active set (nil = all)
// and whether that reactivation has happened.
func (s *smo) shrink(act []int32, up, low []float64, fi float64, unshrunk bool, place func(int, float64)) ([]int32, bool) {
	inf := math.Inf(1)
	minLow := func() float64 {
		m := inf
		if act == nil {
			for _, v := range low {
				if v < m {
					m = v
				}
			}
			return m
		}
		for _, t := range act {
			if v := low[t]; v < m {
				m = v
			}
		}
		return m
	}
	fmin := minLow()
	if !unshrunk && fi-fmin <= 10*s.tol {
		unshrunk = true
		if act != nil {
			s.reconstruct(act, place)
			act = nil
			fi = math.Inf(-1)
			for _, u := range up {
				fi = max(fi, u)
			}
			fmin = minLow()
		}
	}
	keep := func(t int) bool {
		u, l := up[t], low[t]
		return !(u == -inf && l > fi) && !(l == inf && u < fmin)
	}
	var out []int32
	if act == nil {
		out = make([]int32, 0, len(up))
		for t := range up {
			if keep(t) {
				out = append(out, int32(t))
			}
		}
	} else {
		out = act[:0]
		for _, t := range act {
			if keep(int(t)) {
				out = append(out, t)
			}
		}
	}
	if len(out) == len(up) {
		return nil, unshrunk
	}
	return out, unshrunk
}

// reconstruct recomputes F_t = y_t - sum_l beta_l K_tl for the instances
// outside act (none when act is nil), summing over l in increasing order,
// and files them with place.
func (s *smo) reconstruct(act []int32, place func(int, float64)) {
	if act == nil {
		return
	}
	n := len(s.beta)
	var out []int
	for t, q := 0, 0; t < n; t++ {
		if q < len(act) && int(act[q]) == t {
			q++
			continue
		}
		out = append(out, t)
	}
	ft := make([]float64, len(out))
	for q, t := range out {
		ft[q] = s.y[t]
	}
	for l, b := range s.beta {
		if b == 0 {
			continue
		}
		r := s.cache.row(int(s.pt[l]))
		for q, t := range out {
			ft[q] -= float64(b * r[s.pt[t]])
		}
		s.reconMadds += int64(len(out))
	}
	for q, t := range out {
		place(t, ft[q])
	}
}

// bias returns b of the decision function f(x) = sum beta_t K(x_t, x) + b:
// the mean of F over the free instances (L_t < beta_t < U_t), for which the
// KKT conditions give F_t = b; without free instances, the midpoint of the
// interval the bounded ones allow, [max F over beta at L, min F over beta
// at U] (LIBSVM's rule).
func (s *smo) bias() float64 {
	sum, nfree := 0.0, 0
	lb, ub := 0.0, 0.0
	haveLB, haveUB := false, false
	for t, b := range s.beta {
		ft := s.f[t]
		switch {
		case b > s.lo[t] && b < s.hi[t]:
			sum += ft
			nfree++
		case b == s.lo[t]:
			// beta may only grow: F_t <= b.
			if !haveLB || ft > lb {
				lb, haveLB = ft, true
			}
		default:
			// beta at U may only shrink: F_t >= b.
			if !haveUB || ft < ub {
				ub, haveUB = ft, true
			}
		}
	}
	switch {
	case nfree > 0:
		return sum / float64(nfree)
	case haveLB && haveUB:
		return (lb + ub) / 2
	case haveLB:
		return lb
	default:
		return ub
	}
}
