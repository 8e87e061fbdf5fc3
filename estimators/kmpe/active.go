package kmpe

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pueval/pueval/internal/portmath"
)

// errBreakdown reports that the active-set method met a numerically
// singular support (a row whose kernel column the support's columns
// span to rounding); the caller then continues with SMO.
var errBreakdown = errors.New("kmpe: active set: singular support")

// maxWarmSupport is the largest support of a solution that serves as the
// warm start of any lambda; a larger one (near lambda = 1) serves only
// lambdas within warmNear of it (qp.warmStart).
const maxWarmSupport = 1000

// chol is the Cholesky factor L (K_SS = L L') of the kernel on the support
// S, kept under additions and deletions in O(|S|^2) each.
type chol struct {
	rows [][]float64 // row i holds L[i][0..i]
}

// add appends row t with kernel column col (K[S][t], in support order) and
// diagonal ktt. It fails when the new pivot is not clearly positive.
func (c *chol) add(col []float64, ktt float64) error {
	return c.addFrom(nil, col, ktt)
}

// addFrom is add with the first len(pre) entries of the new row already
// known (forwardMany's solutions against the leading rows).
func (c *chol) addFrom(pre, col []float64, ktt float64) error {
	m := len(c.rows)
	l := make([]float64, m+1)
	copy(l, pre)
	for i := len(pre); i < m; i++ {
		ri := c.rows[i]
		l[i] = (col[i] - dot(ri[:i], l)) / ri[i]
	}
	p := ktt - dot(l[:m], l)
	if !(p > 1e-13*ktt) {
		return errBreakdown
	}
	l[m] = math.Sqrt(p)
	c.rows = append(c.rows, l)
	return nil
}

// forwardMany returns L^{-1} col for each column (each as long as the
// factor): the forward substitutions of several rows entering at once,
// x_b[i] = (col_b[i] - sum over t < i, in order, of L_it x_b[t]) / L_ii,
// each product rounded before it is subtracted. The solutions are kept
// transposed (xt[t w + b], w the column count rounded up to subCols), so
// that for each block of subRows rows the sums over t below the block are
// the Cholesky factorisation's trailing update (vk.subTile: the rows'
// entries L_it as multipliers, xt as the panel; each entry of xt loaded
// serves subRows rows, each L_it serves 16 columns), and only the block's
// own triangle is left to a plain loop. It is not dot's order: a row
// entering alone (add) gets its solution to rounding, not bit for bit.
func (c *chol) forwardMany(cols [][]float64) [][]float64 {
	m, nb := len(c.rows), len(cols)
	w := (nb + subCols - 1) / subCols * subCols
	xt := make([]float64, m*w)
	// Scratch rows for subTile: L_i's entries 0..i0-1, then the w
	// accumulators from column i0 on (with subTile's spare capacity).
	var blk [subRows][]float64
	for r := range blk {
		blk[r] = make([]float64, m+w, m+w+cholPad)
	}
	for i0 := 0; i0 < m; i0 += subRows {
		i1 := min(i0+subRows, m)
		for r := range subRows {
			acc := blk[r][i0 : i0+w]
			clear(acc)
			if i := i0 + r; i < i1 {
				copy(blk[r][:i0], c.rows[i][:i0])
				for b, col := range cols {
					acc[b] = col[i]
				}
			}
		}
		if i0 > 0 {
			vk.subTile(blk[:], 0, i0, xt, w, i0, w)
		}
		for i := i0; i < i1; i++ {
			ri, acc := c.rows[i], blk[i-i0][i0:i0+w]
			for b := range nb {
				s := acc[b]
				for t := i0; t < i; t++ {
					s -= float64(ri[t] * xt[t*w+b])
				}
				xt[i*w+b] = s / ri[i]
			}
		}
	}
	xs := make([][]float64, nb)
	for b := range xs {
		xs[b] = make([]float64, m)
		for t := range m {
			xs[b][t] = xt[t*w+b]
		}
	}
	return xs
}

// clone returns a copy of the factor in one allocation (newFactorRows').
func (c *chol) clone() chol {
	rows := newFactorRows(len(c.rows))
	for i, r := range c.rows {
		copy(rows[i], r)
	}
	return chol{rows: rows}
}

// remove deletes support position p: drop row p, then Givens rotations on
// column pairs (j, j+1), j >= p, restore the lower-triangular form. Row i
// takes rotations p..i-1 in order, then defines rotation i; each row is
// walked once, contiguously. Rows go through the rotations they share in
// blocks of rotRows (vk.rot: one row per vector lane, so that the blocks'
// rows advance together, where a single row is a chain of dependent
// multiplies and adds), each row then finishing alone (finishRow); every
// entry is computed by the same operations either way.
func (c *chol) remove(p int) {
	c.rows = append(c.rows[:p], c.rows[p+1:]...)
	m := len(c.rows)
	if p >= m {
		return
	}
	cs, sn := make([]float64, m), make([]float64, m)
	var xs [rotRows]float64
	for i := p; i < m; {
		if nb := (i - p) / rotCols * rotCols; nb > 0 && i+rotRows <= m {
			blk := c.rows[i : i+rotRows]
			for r, row := range blk {
				xs[r] = row[p]
			}
			vk.rot(blk, p, xs[:], cs[p:p+nb], sn[p:p+nb])
			for r := range blk {
				c.finishRow(i+r, p+nb, xs[r], cs, sn)
			}
			i += rotRows
			continue
		}
		c.finishRow(i, p, c.rows[i][p], cs, sn)
		i++
	}
}

// finishRow applies rotations j0..i-1 to row i, x being its carried entry
// (the updated entry j0 before rotation j0), then defines rotation i from
// the row's last two entries and drops the last one.
func (c *chol) finishRow(i, j0 int, x float64, cs, sn []float64) {
	ri := c.rows[i]
	for j := j0; j < i; j++ {
		y := ri[j+1]
		ri[j], x = float64(cs[j]*x)+float64(sn[j]*y), float64(-sn[j]*x)+float64(cs[j]*y)
	}
	// Rotation i zeroes the entry at i+1 of row i.
	a, b := x, ri[i+1]
	r := portmath.Hypot(a, b) // not math.Hypot: arm64 fuses its multiply-add
	cs[i], sn[i] = a/r, b/r
	ri[i] = r
	c.rows[i] = ri[:i+1]
}

// build factors K_SS from scratch: row by row (add) for a small support,
// by the blocked factorisation (factorRows) for a large one, with the same
// pivot test as add.
//
// A numerically singular support (near-duplicate rows: most warm starts
// near lambda = 1 on some of the AUL data sets) fails at a pivot, and
// mostly among its first few hundred rows; but the blocked factorisation
// updates every later row with each panel of columns before it reaches
// the next pivots, so that failing at pivot 300 of 4,000 costs a fifth of
// the whole. The leading buildProbe rows are therefore factored alone
// first: their factor is the whole one's leading rows (each entry depends
// only on the rows up to its own), so the probe fails exactly when the
// whole factorisation would fail among them, and otherwise costs
// (buildProbe/m)^3 of it.
func (c *chol) build(q *qp, sup []int) error {
	c.rows = c.rows[:0]
	m := len(sup)
	if m > 1 {
		q.builds++
	}
	if m >= blockedBuild {
		if m >= 2*buildProbe {
			if _, err := factorSupport(q, sup[:buildProbe]); err != nil {
				return err
			}
		}
		rows, err := factorSupport(q, sup)
		if err != nil {
			return err
		}
		c.rows = rows
		return nil
	}
	col := make([]float64, 0, len(sup))
	for k, t := range sup {
		col = col[:0]
		kt := q.k[t*q.n : (t+1)*q.n] // K_st = K_ts: K is exactly symmetric
		for _, s := range sup[:k] {
			col = append(col, kt[s])
		}
		if err := c.add(col, q.diag[t]); err != nil {
			return err
		}
	}
	return nil
}

// factorSupport returns the Cholesky factor of K_SS by factorRows.
func factorSupport(q *qp, sup []int) ([][]float64, error) {
	m := len(sup)
	rows := newFactorRows(m)
	for i, s := range sup {
		row := q.k[s*q.n : (s+1)*q.n]
		for j, t := range sup[:i+1] {
			rows[i][j] = row[t]
		}
	}
	diag := make([]float64, m)
	for i, t := range sup {
		diag[i] = q.diag[t]
	}
	if err := factorRows(rows, diag); err != nil {
		return nil, err
	}
	return rows, nil
}

// blockedBuild is the support size from which build uses the blocked
// factorisation.
const blockedBuild = 64

// buildProbe is the number of leading rows build factors first on a
// support of at least twice as many.
const buildProbe = 512

// unitSolve returns K_SS^{-1} e_p: forward substitution from p (the
// entries before p are 0), then back substitution.
func (c *chol) unitSolve(p int) []float64 {
	m := len(c.rows)
	x := make([]float64, m)
	x[p] = 1 / c.rows[p][p]
	for i := p + 1; i < m; i++ {
		ri := c.rows[i]
		x[i] = -dot(ri[p:i], x[p:]) / ri[i]
	}
	c.backSubstitute(x, nil)
	return x
}

// backSubstitute solves L' x = x in place (and L' y = y, y non-nil) by
// rows of L from the last up: x_i /= L_ii, then x[:i] -= x_i L_i[:i].
// Rows go four at a time: their four unknowns first, among themselves,
// then one pass of axpy4 (axpy2x4) over the entries below them, which
// takes each entry's four terms in the order of four single-row axpys
// (axpy2s): the same bits as row by row, with one load and store of x
// for four rows of L read (back substitutions over factors of thousands
// of rows are a stream through memory).
func (c *chol) backSubstitute(x, y []float64) {
	i := len(c.rows) - 1
	var a, b [4]float64
	var r4 [4][]float64
	for ; i >= 4; i -= 4 {
		lo := i - 3 // the block is rows lo..i
		for j := i; j >= lo; j-- {
			rj := c.rows[j]
			x[j] /= rj[j]
			for k := j - 1; k >= lo; k-- {
				x[k] += float64(-x[j] * rj[k])
			}
			a[i-j], r4[i-j] = -x[j], rj[:lo]
			if y != nil {
				y[j] /= rj[j]
				for k := j - 1; k >= lo; k-- {
					y[k] += float64(-y[j] * rj[k])
				}
				b[i-j] = -y[j]
			}
		}
		if y == nil {
			axpy4(&a, &r4, x[:lo])
		} else {
			axpy2x4(&a, &b, &r4, x[:lo], y[:lo])
		}
	}
	for ; i >= 0; i-- {
		ri := c.rows[i]
		x[i] /= ri[i]
		if y == nil {
			axpy(-x[i], ri[:i], x)
			continue
		}
		y[i] /= ri[i]
		axpy2(-x[i], -y[i], ri[:i], x, y)
	}
}

// forward holds the forward substitutions L^{-1} a and L^{-1} b of
// solve2 for the factor's first n rows. Rows appended to the factor leave
// them valid, and so do removals after row n (chol.remove changes only
// the rows from the removed position on): the next solve2 then does the
// forward substitution only for the rows after n, by the same statement,
// so its result is that of a solve from nothing bit for bit (a and b must
// be the same on the first n rows).
type forward struct {
	x, y []float64
	n    int
}

// removed records that the factor's row p was removed.
func (f *forward) removed(p int) { f.n = min(f.n, p) }

// solve2 returns K_SS^{-1} a and K_SS^{-1} b (forward substitution by
// rows of L, from f's valid rows on, f then holding all of it; back
// substitution with L' by rows of L too: both contiguous; the back
// substitution's axpy2 runs down each row, so that the rows of a built
// factor, laid out one after the other, are one descending stream).
func (c *chol) solve2(f *forward, a, b []float64) ([]float64, []float64) {
	m := len(c.rows)
	x, y := make([]float64, m), make([]float64, m)
	n := min(f.n, m)
	copy(x, f.x[:n])
	copy(y, f.y[:n])
	copy(x[n:], a[n:])
	copy(y[n:], b[n:])
	for i := n; i < m; i++ {
		ri := c.rows[i]
		sx, sy := dot2(ri[:i], x, y)
		x[i], y[i] = (x[i]-sx)/ri[i], (y[i]-sy)/ri[i]
	}
	f.x, f.y, f.n = append(f.x[:0], x...), append(f.y[:0], y...), m
	c.backSubstitute(x, y)
	return x, y
}

// activeSet solves the QP at the current lambda exactly by a primal
// active-set method (the Lawson-Hanson scheme adapted to the simplex):
// on the support S it solves the equality-constrained problem K_SS z -
// Ku_S = rho 1, 1'z = 1; if z > 0 it is the new v, otherwise v moves
// towards z until a weight reaches 0 and that row leaves S (or, while the
// objective keeps falling, every row of non-positive z_k leaves at once:
// a drop round); when S is optimal for its face, the row of smallest
// gradient outside S enters S if its gradient is below the support's by
// more than tol (up to enterBatch rows at once). Each change updates the
// Cholesky factor of K_SS in O(|S|^2); the gradient, O(n min(|S|, n -
// |S|)), is computed only at points optimal on their face. It returns the
// number of support changes, or errBreakdown; without an error, q.g is
// the exact gradient at the final v.
func (q *qp) activeSet(ctx context.Context, maxSteps int) (int, error) {
	n := q.n
	var sup []int
	for t, vt := range q.v {
		if vt > 0 {
			sup = append(sup, t)
		}
	}
	var c chol
	start := q.kept
	q.kept = nil // until this solve succeeds
	reused := start != nil && len(start.sup) == len(sup)
	if reused {
		// The start is a solution whose factor was stored: a copy is at hand.
		sup, c = start.sup, start.c
	} else if len(sup) > maxWarmSupport {
		// A large warm start loses rows one by one, each costing O(|S| (|S|
		// - p)) for support position p: order the rows so that those
		// likeliest to leave come last. As lambda grows the target moves
		// away from the component's embedding, so the rows most like the
		// component (largest (K1_c/M - K1_m/N)_t) tend to leave first.
		slices.SortStableFunc(sup, func(s, t int) int {
			return cmp.Compare(q.kb[s]-q.ka[s], q.kb[t]-q.ka[t])
		})
	}
	if !reused && (len(sup) == 0 || c.build(q, sup) != nil) {
		// Start from the vertex e_t of least objective K_tt - 2 (Ku)_t.
		bt := q.bestVertex(q.lambda)
		clear(q.v)
		q.v[bt] = 1
		sup = []int{bt}
		if err := c.build(q, sup); err != nil {
			return 0, err
		}
	}
	col := make([]float64, 0, 64)
	fresh := map[int]bool{}
	prevF := math.Inf(1) // objective at the previous optimal-on-its-face point
	// a = K_SS^{-1} Ku_S and b = K_SS^{-1} 1 on the current support: solved
	// afresh after rows enter, updated in O(|S|^2) when a row leaves
	// (updates counts those since the last fresh solve).
	var a, b []float64
	// fwd: the forward half of the fresh solves, reused for the rows that
	// did not change since the last one.
	var fwd forward
	stale, updates := true, 0
	// dropAll: while the objective at each point optimal on its face is
	// below the one before, an infeasible minimiser's rows of non-positive
	// weight leave at once (see below).
	dropAll := !q.oneByOne
	q.dropped = 0
	for step := 0; step < maxSteps; step++ {
		if step&63 == 63 {
			if err := context.Cause(ctx); err != nil {
				return step, fmt.Errorf("kmpe: %w", err)
			}
		}
		// The equality-constrained minimiser on S.
		m := len(sup)
		if stale || updates >= refreshEvery {
			kuS, ones := make([]float64, m), make([]float64, m)
			for k, t := range sup {
				kuS[k] = q.ku(t)
				ones[k] = 1
			}
			a, b = c.solve2(&fwd, kuS, ones)
			stale, updates = false, 0
		}
		z, rho, feasible := simplexMinimiser(a, b)

		if feasible && updates > 0 {
			// Confirm on a fresh solve before the support is accepted.
			stale = true
			step--
			continue
		}
		if !feasible && dropAll && slices.ContainsFunc(z, func(x float64) bool { return x > 0 }) {
			// Every row of non-positive weight in z leaves at once, rather
			// than one per step, each step a pass over the factor
			// (dropPosition): a warm start from a near lambda's solution
			// must often lose hundreds of rows of a support of thousands,
			// and a batch of entering rows often pushes several out. A row
			// that should have stayed enters again by its gradient. Each
			// round removes a row and keeps one (z_k > 0), and the
			// objective at the points optimal on their face must fall from
			// one to the next (so no support repeats) or the monotone
			// steps below take over for the rest of the solve: the method
			// cannot cycle. The kept weights are rescaled to sum to 1, so
			// that v stays a feasible point on the support.
			for k := m - 1; k >= 0; k-- {
				if !(z[k] > 0) {
					q.v[sup[k]] = 0
					sup = slices.Delete(sup, k, k+1)
					c.remove(k)
					fwd.removed(k)
					q.dropped++
				}
			}
			var mass float64
			for _, t := range sup {
				mass += q.v[t]
			}
			for _, t := range sup {
				q.v[t] /= mass
			}
			stale = true
			continue
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
			if alpha == 0 && len(fresh) == 1 && fresh[sup[drop]] {
				return step, errBreakdown // the one row just added leaves at once: rounding
			}
			for k, t := range sup {
				q.v[t] += float64(alpha * (z[k] - q.v[t]))
			}
			// Remove the blocking row and any row heading below 0 whose weight
			// is (rounded to) 0; a row at 0 heading up stays.
			for k := m - 1; k >= 0; k-- {
				if t := sup[k]; k == drop || z[k] <= 0 && !(q.v[t] > 0) {
					q.v[t] = 0
					sup = append(sup[:k], sup[k+1:]...)
					if len(sup) > 0 {
						a, b = dropPosition(&c, a, b, k)
						updates++
					}
					c.remove(k)
					fwd.removed(k)
				}
			}
			if len(sup) == 0 {
				return step, errBreakdown
			}
			continue
		}
		var vKu float64
		for k, t := range sup {
			q.v[t] = z[k]
			vKu += float64(z[k] * q.ku(t))
		}
		// A batch that brought no decrease (its rows left again) is
		// followed by the single most violating row, which in exact
		// arithmetic always decreases the objective: no cycling. The
		// objective (v - u)'K(v - u) is v'Kv - 2 v'Ku + u'Ku, and on the
		// face K_SS z = Ku_S + rho 1, so v'Kv = v'Ku + rho: up to the
		// constant u'Ku it is rho - v'Ku, without a gradient.
		f := rho - vKu
		batch := enterBatch
		if !(f < prevF) {
			batch = 1
			dropAll = false
		}
		prevF = f
		// Rows outside the support (v_t = 0: here v > 0 exactly on S) whose
		// gradient is below the support's by more than the tolerance, most
		// violating first; up to enterBatch enter at once. On the face the
		// support's gradient is rho (K_SS z - Ku_S = rho 1), so while the
		// rows outside are fewer than those in it, only theirs is computed
		// (O(n |T|) for O(n |S|)); the last point is always judged on the
		// exact gradient of every row, which the caller then reads.
		out := make([]int, 0, n-len(sup))
		for t, vt := range q.v {
			if !(vt > 0) {
				out = append(out, t)
			}
		}
		gmax := rho
		exact := len(out) >= len(sup)
		if exact {
			q.exactGradient()
			gmax = q.supportMax(sup)
		} else {
			q.outsideGradient(out)
		}
		cand := q.violating(out, gmax)
		if len(cand) == 0 && !exact {
			q.exactGradient()
			cand = q.violating(out, q.supportMax(sup))
		}
		if len(cand) == 0 {
			q.kept = &factorAt{sup: sup, c: c}
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
		entering := cand[:min(len(cand), batch)]
		var pre [][]float64 // their rows' entries against the current support
		if len(entering) > 1 {
			// Column t of K_S. is row t's entries at the support: K is
			// exactly symmetric (entrywise exp of a symmetric D2), and a
			// row is one stream where a column is a cache miss per entry.
			cols := make([][]float64, len(entering))
			for b, t := range entering {
				cols[b] = make([]float64, len(sup))
				kt := q.k[t*n : (t+1)*n]
				for k, s := range sup {
					cols[b][k] = kt[s]
				}
			}
			pre = c.forwardMany(cols)
		}
		for b, enter := range entering {
			col = col[:0]
			ke := q.k[enter*n : (enter+1)*n]
			for _, s := range sup {
				col = append(col, ke[s])
			}
			var known []float64
			if pre != nil {
				known = pre[b]
			}
			if err := c.addFrom(known, col, q.diag[enter]); err != nil {
				continue // numerically in the span of the support: try the next
			}
			sup = append(sup, enter)
			fresh[enter] = true
			added++
		}
		if added == 0 {
			return step, errBreakdown
		}
		stale = true
	}
	q.exactGradient() // callers read g at the returned v
	return maxSteps, nil
}

// supportMax returns the largest gradient over the support.
func (q *qp) supportMax(sup []int) float64 {
	gmax := math.Inf(-1)
	for _, t := range sup {
		gmax = max(gmax, q.g[t])
	}
	return gmax
}

// violating returns the rows of out whose gradient is below gmax by more
// than the active-set tolerance.
func (q *qp) violating(out []int, gmax float64) []int {
	var cand []int
	for _, t := range out {
		if q.g[t] < gmax-float64(q.tol*activeTolFactor) {
			cand = append(cand, t)
		}
	}
	return cand
}

// simplexMinimiser returns z = a + rho b with rho = (1 - 1'a)/1'b (so that
// 1'z = 1), rho, and whether every z_k is positive.
func simplexMinimiser(a, b []float64) ([]float64, float64, bool) {
	var sa, sb float64
	for k := range a {
		sa += a[k]
		sb += b[k]
	}
	rho := (1 - sa) / sb
	z := make([]float64, len(a))
	feasible := true
	for k := range a {
		z[k] = a[k] + float64(rho*b[k])
		if !(z[k] > 0) {
			feasible = false
		}
	}
	return z, rho, feasible
}

// dropPosition returns a and b for the support without position p, from
// the factor c of the support with it: with e = K_SS^{-1} e_p, x - (x_p /
// e_p) e solves the system with row and column p removed (its entry p is
// 0), for x = a and x = b. O(|S|^2), against O(|S|^2) x 4 for a fresh
// solve after the factor's update.
func dropPosition(c *chol, a, b []float64, p int) ([]float64, []float64) {
	e := c.unitSolve(p)
	fa, fb := a[p]/e[p], b[p]/e[p]
	for k, ek := range e {
		a[k] -= float64(fa * ek)
		b[k] -= float64(fb * ek)
	}
	return slices.Delete(a, p, p+1), slices.Delete(b, p, p+1)
}

// refreshEvery is the most drop updates of a and b before a fresh solve.
const refreshEvery = 32

// activeTolFactor scales Options.Tol for the active-set method's own
// stopping rule: being exact, it usually gets far below the tolerance,
// which pins down d(lambda) near 0 (where a KKT gap g bounds d^2 only to
// 2g); when rounding stops it early, the solve still needs the gap <= Tol.
const activeTolFactor = 1e-3

// enterBatch is the most rows that enter the support at once (the most
// violating first): fewer gradient computations, at the price of some
// rows leaving again.
const enterBatch = 32
