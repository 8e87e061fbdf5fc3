package kmpe

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// errBreakdown reports that the active-set method met a numerically
// singular support (a row whose kernel column the support's columns
// span to rounding); the caller then continues with SMO.
var errBreakdown = errors.New("kmpe: active set: singular support")

// maxWarmSupport is the largest previous support the active-set method
// starts from; above it (the all-mixture start of lambda = 1), it starts
// from the best single vertex.
const maxWarmSupport = 1000

// chol is the Cholesky factor L (K_SS = L L') of the kernel on the support
// S, kept under additions and deletions in O(|S|^2) each.
type chol struct {
	rows [][]float64 // row i holds L[i][0..i]
}

// add appends row t with kernel column col (K[S][t], in support order) and
// diagonal ktt. It fails when the new pivot is not clearly positive.
func (c *chol) add(col []float64, ktt float64) error {
	m := len(c.rows)
	l := make([]float64, m+1)
	var ss float64
	for i := range m {
		s := col[i]
		ri := c.rows[i]
		for k := range i {
			s -= ri[k] * l[k]
		}
		l[i] = s / ri[i]
		ss += l[i] * l[i]
	}
	p := ktt - ss
	if !(p > 1e-13*ktt) {
		return errBreakdown
	}
	l[m] = math.Sqrt(p)
	c.rows = append(c.rows, l)
	return nil
}

// remove deletes support position p: drop row p, then Givens rotations on
// column pairs (j, j+1), j >= p, restore the lower-triangular form.
func (c *chol) remove(p int) {
	c.rows = append(c.rows[:p], c.rows[p+1:]...)
	m := len(c.rows)
	for j := p; j < m; j++ {
		a, b := c.rows[j][j], c.rows[j][j+1]
		r := math.Hypot(a, b)
		cs, sn := a/r, b/r
		for i := j; i < m; i++ {
			ri := c.rows[i]
			x, y := ri[j], ri[j+1]
			ri[j], ri[j+1] = cs*x+sn*y, -sn*x+cs*y
		}
		c.rows[j] = c.rows[j][:j+1]
	}
}

// build factors K_SS from scratch.
func (c *chol) build(q *qp, sup []int) error {
	c.rows = c.rows[:0]
	col := make([]float64, 0, len(sup))
	for k, t := range sup {
		col = col[:0]
		for _, s := range sup[:k] {
			col = append(col, q.k[s*q.n+t])
		}
		if err := c.add(col, q.diag[t]); err != nil {
			return err
		}
	}
	return nil
}

// solve2 returns K_SS^{-1} a and K_SS^{-1} b (forward substitution by
// rows of L, back substitution with L' by rows of L too: both contiguous).
func (c *chol) solve2(a, b []float64) ([]float64, []float64) {
	m := len(c.rows)
	x, y := slices.Clone(a), slices.Clone(b)
	for i := range m {
		ri := c.rows[i]
		sx, sy := x[i], y[i]
		for k, l := range ri[:i] {
			sx -= l * x[k]
			sy -= l * y[k]
		}
		x[i], y[i] = sx/ri[i], sy/ri[i]
	}
	for i := m - 1; i >= 0; i-- {
		ri := c.rows[i]
		x[i] /= ri[i]
		y[i] /= ri[i]
		xi, yi := x[i], y[i]
		for k, l := range ri[:i] {
			x[k] -= l * xi
			y[k] -= l * yi
		}
	}
	return x, y
}

// activeSet solves the QP at the current lambda exactly by a primal
// active-set method (the Lawson-Hanson scheme adapted to the simplex):
// on the support S it solves the equality-constrained problem K_SS z -
// Ku_S = rho 1, 1'z = 1; if z > 0 it is the new v, otherwise v moves
// towards z until a weight reaches 0 and that row leaves S; when S is
// optimal for its face, the row of smallest gradient outside S enters S
// if its gradient is below the support's by more than tol. Each change
// updates the Cholesky factor of K_SS in O(|S|^2) and the gradient in
// O(n |S|). It returns the number of support changes, or errBreakdown.
func (q *qp) activeSet(ctx context.Context, maxSteps int) (int, error) {
	n := q.n
	var sup []int
	for t, vt := range q.v {
		if vt > 0 {
			sup = append(sup, t)
		}
	}
	var c chol
	if len(sup) <= maxWarmSupport && c.build(q, sup) == nil {
		// warm start from the previous support
	} else {
		// Start from the vertex e_t of least objective K_tt - 2 (Ku)_t.
		best, bt := math.Inf(1), 0
		for t := range n {
			if f := q.diag[t] - 2*(q.lambda*q.ka[t]+(1-q.lambda)*q.kb[t]); f < best {
				best, bt = f, t
			}
		}
		clear(q.v)
		q.v[bt] = 1
		sup = []int{bt}
		if err := c.build(q, sup); err != nil {
			return 0, err
		}
	}
	col := make([]float64, 0, 64)
	batch := enterBatch
	fresh := map[int]bool{}
	for step := 0; step < maxSteps; step++ {
		if step&63 == 63 {
			if err := context.Cause(ctx); err != nil {
				return step, fmt.Errorf("kmpe: %w", err)
			}
		}
		// The equality-constrained minimiser on S.
		m := len(sup)
		kuS, ones := make([]float64, m), make([]float64, m)
		for k, t := range sup {
			kuS[k] = q.lambda*q.ka[t] + (1-q.lambda)*q.kb[t]
			ones[k] = 1
		}
		a, b := c.solve2(kuS, ones)
		var sa, sb float64
		for k := range m {
			sa += a[k]
			sb += b[k]
		}
		rho := (1 - sa) / sb
		z := make([]float64, m)
		feasible := true
		for k := range m {
			z[k] = a[k] + rho*b[k]
			if !(z[k] > 0) {
				feasible = false
			}
		}
		if !feasible {
			// Move towards z until the first weight reaches 0.
			alpha, drop := 1.0, -1
			for k, t := range sup {
				if z[k] <= 0 {
					if r := q.v[t] / (q.v[t] - z[k]); r < alpha || drop < 0 {
						alpha, drop = r, k
					}
				}
			}
			if alpha == 0 && fresh[sup[drop]] {
				if batch == 1 {
					return step, errBreakdown // the row just added leaves at once: rounding
				}
				batch = 1 // a batch may not be a descent set: one row at a time from now on
			}
			for k, t := range sup {
				q.v[t] += alpha * (z[k] - q.v[t])
			}
			// Remove the blocking row and any row heading below 0 whose weight
			// is (rounded to) 0; a row at 0 heading up stays.
			for k := m - 1; k >= 0; k-- {
				if t := sup[k]; k == drop || z[k] <= 0 && !(q.v[t] > 0) {
					q.v[t] = 0
					sup = append(sup[:k], sup[k+1:]...)
					c.remove(k)
				}
			}
			if len(sup) == 0 {
				return step, errBreakdown
			}
			continue
		}
		for k, t := range sup {
			q.v[t] = z[k]
		}
		q.exactGradient()
		gmax := math.Inf(-1)
		for _, t := range sup {
			gmax = max(gmax, q.g[t])
		}
		in := make(map[int]bool, len(sup))
		for _, t := range sup {
			in[t] = true
		}
		// Rows whose gradient is below the support's by more than the
		// tolerance, most violating first; up to enterBatch enter at once.
		var cand []int
		for t, gt := range q.g {
			if !in[t] && gt < gmax-q.tol*activeTolFactor {
				cand = append(cand, t)
			}
		}
		if len(cand) == 0 {
			return step, nil
		}
		slices.SortFunc(cand, func(a, b int) int {
			if c := cmp.Compare(q.g[a], q.g[b]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		added := 0
		clear(fresh)
		for _, enter := range cand[:min(len(cand), batch)] {
			col = col[:0]
			for _, s := range sup {
				col = append(col, q.k[s*n+enter])
			}
			if err := c.add(col, q.diag[enter]); err != nil {
				continue // numerically in the span of the support: try the next
			}
			sup = append(sup, enter)
			fresh[enter] = true
			added++
		}
		if added == 0 {
			return step, errBreakdown
		}
	}
	return maxSteps, nil
}

// activeTolFactor scales Options.Tol for the active-set method's own
// stopping rule: being exact, it usually gets far below the tolerance,
// which pins down d(lambda) near 0 (where a KKT gap g bounds d^2 only to
// 2g); when rounding stops it early, the solve still needs the gap <= Tol.
const activeTolFactor = 1e-3

// enterBatch is the most rows that enter the support at once (the most
// violating first): fewer gradient computations, at the price of some
// rows leaving again.
const enterBatch = 1
