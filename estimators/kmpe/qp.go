package kmpe

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// tau replaces a non-positive curvature K_ii + K_jj - 2 K_ij (two equal
// rows) in the working-set selection and the step, as LIBSVM does.
const tau = 1e-12

// qp solves the simplex QP of d(lambda),
//
//	min over v in the simplex of (u - v)' K (u - v),
//	u = lambda/N on the mixture rows (the first N), (1 - lambda)/M on the
//	component rows,
//
// by SMO on phi(v) = v'Kv/2 - v'Ku (the one-class SVM dual form: one
// equality constraint 1'v = 1, lower bounds v >= 0, no effective upper
// bound), with the second-order working-set selection of Fan, Chen and Lin
// (2005) and an incrementally updated gradient g = Kv - Ku, recomputed
// exactly before each convergence check; and, first, by the exact
// active-set method of active.go. The start is a near lambda's solution
// (warmStart; any feasible v is a valid start, and the solution does not
// depend on it beyond the tolerance).
type qp struct {
	k      []float64 // n x n kernel, row-major, symmetric
	diag   []float64 // K_tt
	n      int
	nMix   int
	ka, kb []float64 // K 1_m / N and K 1_c / M
	dab    []float64 // ka - kb

	v, g    []float64
	lambda  float64
	started bool
	solved  []*solvedV // every solution so far, for warm starts
	// kept is the factor at v (nil when none is): a copy of the stored
	// factor of the solution warmStart starts at, then the active-set
	// method's own at its end.
	kept *factorAt
	// factors counts the floats held by the solutions' stored factors, at
	// most budget (newQP: factorBudget; 0 stores none).
	factors, budget int
	builds          int // factorisations of a support of more than one row (tests)

	tol     float64
	maxIter int
	workers int
	smoOnly bool // skip the active-set method (tests)
	// oneByOne turns off the active-set method's rounds in which the
	// rows of non-positive weight leave at once (tests); dropped counts
	// the rows those rounds removed in the last solve.
	oneByOne bool
	dropped  int
}

func newQP(k []float64, n, nMix int, ka, kb []float64, tol float64, maxIter, workers int) *qp {
	q := &qp{k: k, n: n, nMix: nMix, ka: ka, kb: kb, tol: tol, maxIter: maxIter, workers: workers,
		diag: make([]float64, n), dab: make([]float64, n), v: make([]float64, n), g: make([]float64, n),
		budget: factorBudget(n)}
	for t := range n {
		q.diag[t] = k[t*n+t]
		q.dab[t] = ka[t] - kb[t]
	}
	return q
}

// u returns the target's weight on row t at the current lambda.
func (q *qp) u(t int) float64 {
	if t < q.nMix {
		return q.lambda / float64(q.nMix)
	}
	return (1 - q.lambda) / float64(q.n-q.nMix)
}

// ku returns (K u)_t at the current lambda: lambda (K 1_m/N)_t + (1 -
// lambda) (K 1_c/M)_t.
func (q *qp) ku(t int) float64 {
	return float64(q.lambda*q.ka[t]) + float64((1-q.lambda)*q.kb[t])
}

// solution is one solved QP.
type solution struct {
	squared    float64 // (u - v)'K(u - v) at the solution (may be a rounding error below 0)
	iterations int     // SMO iterations
	steps      int     // active-set support changes
	fallback   bool    // the active-set method broke down and SMO finished
	gap        float64 // KKT gap max_{v_t > 0} g_t - min_t g_t on the exact gradient
	support    int     // rows with v_t > 0
}

// solve moves the QP to lambda and optimises it until the KKT gap on a
// freshly computed gradient is at most tol: the active-set method first
// (exact; it stops far below tol unless rounding stops it), SMO to finish
// if it broke down.
func (q *qp) solve(ctx context.Context, lambda float64) (solution, error) {
	first := !q.started
	if first {
		// v = 1_m/N, which is u at lambda = 1 (optimal there, d = 0).
		for t := range q.n {
			q.v[t] = 0
			if t < q.nMix {
				q.v[t] = 1 / float64(q.nMix)
			}
		}
		q.started = true
	}
	q.warmStart(lambda)
	q.lambda = lambda
	var sol solution
	if first || q.smoOnly {
		q.exactGradient()
		sol.gap = q.gap()
	} else {
		// A warm start at another lambda is almost never optimal at this
		// one (u moves with lambda), and the active-set method does not
		// read the start's gradient (it computes its own at the first point
		// optimal on its face, where a start that was optimal stops): it
		// runs without that O(n |S|) pass.
		sol.gap = math.Inf(1)
	}
	if !q.smoOnly && sol.gap > q.tol*activeTolFactor {
		steps, err := q.activeSet(ctx, q.maxIter)
		sol.steps = steps
		if err != nil && !errors.Is(err, errBreakdown) {
			return sol, err
		}
		sol.fallback = err != nil
		if sol.fallback {
			q.exactGradient() // a success ends on a fresh gradient of its final v
		}
		sol.gap = q.gap()
	}
	for sol.gap > q.tol {
		q.kept = nil
		it, err := q.smo(ctx, q.maxIter-sol.iterations)
		sol.iterations += it
		if err != nil {
			return sol, err
		}
		q.exactGradient()
		sol.gap = q.gap()
		if sol.gap <= q.tol {
			break
		}
		if sol.iterations >= q.maxIter {
			return sol, fmt.Errorf("kmpe: the QP at lambda %v did not reach KKT gap %g in %d SMO iterations (gap %g)", lambda, q.tol, q.maxIter, sol.gap)
		}
	}
	rec := &solvedV{lambda: lambda}
	for t, vt := range q.v {
		sol.squared += float64((vt - q.u(t)) * q.g[t])
		if vt > 0 {
			sol.support++
			rec.rows = append(rec.rows, t)
			rec.weights = append(rec.weights, vt)
		}
	}
	q.solved = append(q.solved, rec)
	if q.kept != nil {
		q.store(rec)
	}
	return sol, nil
}

// solvedV is a solution v (its support rows and weights) at lambda, and
// the factor of K_SS on its support, when stored.
type solvedV struct {
	lambda  float64
	rows    []int
	weights []float64
	fac     *factorAt
}

// factorAt is the active-set method's support, in its order, and the
// Cholesky factor of K_SS on it, at one point.
type factorAt struct {
	sup []int
	c   chol
}

// floats returns the floats the factor holds, counted as m (m + 1) / 2.
func (f *factorAt) floats() int { return len(f.sup) * (len(f.sup) + 1) / 2 }

// clone returns a copy that shares no memory with f.
func (f *factorAt) clone() *factorAt { return &factorAt{sup: slices.Clone(f.sup), c: f.c.clone()} }

// factorBudget returns the most floats the stored factors of an n-row QP
// may hold together: 2 n^2, twice the kernel (about four factors of a
// support of every row; counted as m (m + 1) / 2 each, a little less than
// they occupy). A warm start at a solution with a stored factor copies it
// (O(|S|^2) memory traffic) instead of factoring K_SS anew (O(|S|^3)):
// where the supports near lambda* hold thousands of rows, the second
// bisection and the late steps of the first come back to the
// neighbourhood of earlier solutions.
func factorBudget(n int) int { return 2 * n * n }

// store keeps the active-set method's factor (q.kept, valid at the
// solution rec just solved) with rec, then drops the stored factors of the
// lambdas farthest from rec's while they hold more than q.budget (the
// bisection closes in on lambda*, so the near ones are the likeliest to
// serve again). q.kept is then nil: the next warm start copies the factor
// it starts from.
func (q *qp) store(rec *solvedV) {
	f := q.kept
	q.kept = nil
	if f.floats() > q.budget {
		return
	}
	rec.fac = f
	q.factors += f.floats()
	for q.factors > q.budget {
		var far *solvedV
		for _, s := range q.solved {
			if s.fac != nil && s != rec && (far == nil || math.Abs(s.lambda-rec.lambda) > math.Abs(far.lambda-rec.lambda)) {
				far = s
			}
		}
		q.factors -= far.fac.floats()
		far.fac = nil
	}
}

// warmStart sets v to the solution at the nearest lambda solved so far
// (the first on ties) among those with a support of at most maxWarmSupport
// rows or a lambda within warmNear of this one: the solution path is
// piecewise linear in lambda, so a near solution has nearly the right
// support, and starting from a large support costs a factorisation of
// it, worth it only when few rows must then leave. When the solution's
// factor is stored, q.kept is set to a copy of it. Without a candidate the
// start is the vertex of least objective.
func (q *qp) warmStart(lambda float64) {
	if len(q.solved) == 0 {
		return // the first solve starts from v = 1_m/N
	}
	best, bestDist := -1, 0.0
	for i, s := range q.solved {
		dist := math.Abs(s.lambda - lambda)
		if len(s.rows) > maxWarmSupport && dist > warmNear {
			continue
		}
		if best < 0 || dist < bestDist {
			best, bestDist = i, dist
		}
	}
	q.kept = nil
	clear(q.v)
	if best < 0 {
		q.v[q.bestVertex(lambda)] = 1
		return
	}
	s := q.solved[best]
	for k, t := range s.rows {
		q.v[t] = s.weights[k]
	}
	if s.fac != nil {
		q.kept = s.fac.clone()
	}
}

// warmNear is how close (in lambda) a solution with a large support must
// be to serve as a warm start.
const warmNear = 0.1

// bestVertex returns the row t whose vertex e_t has the least objective at
// lambda, K_tt - 2 (Ku)_t (the first on ties).
func (q *qp) bestVertex(lambda float64) int {
	best, bt := math.Inf(1), 0
	for t := range q.n {
		if f := q.diag[t] - float64(2*(float64(lambda*q.ka[t])+float64((1-lambda)*q.kb[t]))); f < best {
			best, bt = f, t
		}
	}
	return bt
}

// gap is the KKT violation max_{v_t > 0} g_t - min_t g_t (0 at the optimum).
func (q *qp) gap() float64 {
	gmin, gmax := math.Inf(1), math.Inf(-1)
	for t, gt := range q.g {
		gmin = min(gmin, gt)
		if q.v[t] > 0 {
			gmax = max(gmax, gt)
		}
	}
	return max(0, gmax-gmin)
}

// exactGradient recomputes g = Kv - Ku from v, removing the rounding drift
// of the incremental updates: g = sum over the support of v_s K[s][:]
// (rows of the symmetric K), each entry summed over the support in index
// order whatever the worker count. The sum takes four rows per pass
// (axpy4: the bits of four axpys, with one load and store of g for the
// four) over one block of columns per worker: K does not fit in the
// caches, so this is a stream through |S| rows of it, and the longer the
// runs of each row it reads, the closer it comes to the machine's read
// bandwidth (on 4,000 x 4,000, one worker: blocks of 512 columns and one
// axpy per row 7-9 GB/s, whole rows with axpy4 18-20 GB/s, as fast as dot
// reads; BenchmarkExactGradient). The blocking changes no bit.
func (q *qp) exactGradient() {
	var sup []int
	for t, vt := range q.v {
		if vt > 0 {
			sup = append(sup, t)
		}
	}
	n := q.n
	width := max(gradientMinWidth, (n+q.workers-1)/q.workers)
	blocks := (n + width - 1) / width
	parallelChunks(blocks, 1, q.workers, func(_, lo, hi int) {
		var a [4]float64
		var rows [4][]float64
		for blk := lo; blk < hi; blk++ {
			c0, c1 := blk*width, min((blk+1)*width, n)
			acc := q.g[c0:c1]
			clear(acc)
			i := 0
			for ; i+4 <= len(sup); i += 4 {
				for j, r := range sup[i : i+4] {
					a[j], rows[j] = q.v[r], q.k[r*n+c0:r*n+c1]
				}
				axpy4(&a, &rows, acc)
			}
			for _, r := range sup[i:] {
				axpy(q.v[r], q.k[r*n+c0:r*n+c1], acc)
			}
			for j := range acc {
				t := c0 + j
				acc[j] -= q.ku(t)
			}
		}
	})
}

// gradientMinWidth is the narrowest block of columns exactGradient gives a
// worker (with many workers): shorter runs of each row read slowly (blocks
// of 512 columns and one axpy per row: 7-9 GB/s on one worker).
const gradientMinWidth = 512

// outsideGradient sets g_t = (K v)_t - (K u)_t for the rows t of out only
// (each a dot product of K's row t with v, on Options.Workers goroutines):
// the rows outside the support, whose gradient is all the active-set
// method needs between its exact gradients.
func (q *qp) outsideGradient(out []int) {
	n := q.n
	const width = 64
	blocks := (len(out) + width - 1) / width
	parallelChunks(blocks, 1, q.workers, func(_, lo, hi int) {
		for _, t := range out[lo*width : min(hi*width, len(out))] {
			q.g[t] = dot(q.k[t*n:(t+1)*n], q.v) - q.ku(t)
		}
	})
}

// smo runs at most budget SMO iterations and returns how many it ran.
// Working set: i = argmin_t g_t (v_i may grow), j = the row with v_j > 0
// and g_j > g_i maximising b^2/a, b = g_j - g_i, a = K_ii + K_jj - 2 K_ij
// (second-order selection); mass min(b/a, v_j) moves from j to i. It stops
// when max_{v_t > 0} g_t - min_t g_t <= tol.
func (q *qp) smo(ctx context.Context, budget int) (int, error) {
	n, k, v, g, diag := q.n, q.k, q.v[:q.n], q.g[:q.n], q.diag[:q.n]
	i, gmin, gmax := -1, math.Inf(1), math.Inf(-1)
	for t, gt := range g {
		if gt < gmin {
			gmin, i = gt, t
		}
		if v[t] > 0 && gt > gmax {
			gmax = gt
		}
	}
	for it := 0; it < budget; it++ {
		if it&4095 == 4095 {
			if err := context.Cause(ctx); err != nil {
				return it, fmt.Errorf("kmpe: %w", err)
			}
		}
		if gmax-gmin <= q.tol {
			return it, nil
		}
		ki := k[i*n : (i+1)*n : (i+1)*n]
		kii := diag[i]
		j, best, bj, aj := -1, 0.0, 0.0, 0.0
		for t, vt := range v {
			if vt > 0 {
				b := g[t] - gmin
				if b > 0 {
					a := kii + diag[t] - 2*ki[t]
					if a <= 0 {
						a = tau
					}
					if r := b * b / a; r > best {
						j, best, bj, aj = t, r, b, a
					}
				}
			}
		}
		if j < 0 {
			return it, nil
		}
		s := bj / aj
		if s >= v[j] {
			s = v[j]
			v[j] = 0
		} else {
			v[j] -= s
		}
		v[i] += s
		kj := k[j*n : (j+1)*n : (j+1)*n]
		i, gmin, gmax = -1, math.Inf(1), math.Inf(-1)
		for t := range g {
			gt := g[t] + float64(s*(ki[t]-kj[t]))
			g[t] = gt
			if gt < gmin {
				gmin, i = gt, t
			}
			if v[t] > 0 && gt > gmax {
				gmax = gt
			}
		}
	}
	return budget, nil
}
