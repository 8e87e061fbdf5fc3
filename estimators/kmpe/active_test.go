package kmpe

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

// The blocked factorisation (LAPACK's, for supports of blockedBuild rows
// or more) against the row-by-row one of add, on a support in scrambled
// order: the same factor to 1e-12 (both are the unique Cholesky factor).
func TestBlockedBuild(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	rows := gaussRowsD(r, 150, 6, 0)
	n := len(rows)
	k := gaussKernel(rows, 12)
	q := kernelQP(k, n)
	sup := r.Perm(n)[:blockedBuild+37]
	var blocked, ref chol
	if err := blocked.build(q, sup); err != nil {
		t.Fatal(err)
	}
	col := []float64{}
	for i, row := range sup {
		col = col[:0]
		for _, s := range sup[:i] {
			col = append(col, k[s*n+row])
		}
		if err := ref.add(col, q.diag[row]); err != nil {
			t.Fatal(err)
		}
	}
	for i := range ref.rows {
		for j := range ref.rows[i] {
			if d := math.Abs(blocked.rows[i][j] - ref.rows[i][j]); d > 1e-12 {
				t.Fatalf("L[%d][%d]: blocked %v, row by row %v", i, j, blocked.rows[i][j], ref.rows[i][j])
			}
		}
	}
	// Rows entering together (forwardMany, then addFrom) give the factor
	// of rows entering one by one to rounding (1e-12; forwardMany sums
	// each entry's products in order, add by dot's partial sums), and
	// forwardMany is the plain forward substitution (in order) bit for
	// bit.
	one, many := chol{rows: slices.Clone(blocked.rows)}, chol{rows: slices.Clone(blocked.rows)}
	var extra []int
	for _, row := range r.Perm(n) {
		if !slices.Contains(sup, row) && len(extra) < 5 {
			extra = append(extra, row)
		}
	}
	cols := make([][]float64, len(extra))
	for b, row := range extra {
		for _, s := range sup {
			cols[b] = append(cols[b], k[s*n+row])
		}
	}
	pre := many.forwardMany(cols)
	for b, col := range cols {
		for i, ri := range many.rows {
			s := col[i]
			for t := range i {
				s -= float64(ri[t] * pre[b][t])
			}
			if x := s / ri[i]; x != pre[b][i] {
				t.Fatalf("column %d, row %d: forwardMany %v, the substitution in order %v", b, i, pre[b][i], x)
			}
		}
	}
	cur := slices.Clone(sup)
	for b, row := range extra {
		col := []float64{}
		for _, s := range cur {
			col = append(col, k[s*n+row])
		}
		if err := one.add(col, q.diag[row]); err != nil {
			t.Fatal(err)
		}
		if err := many.addFrom(pre[b], col, q.diag[row]); err != nil {
			t.Fatal(err)
		}
		cur = append(cur, row)
	}
	for i := range one.rows {
		for j := range one.rows[i] {
			if d := math.Abs(one.rows[i][j] - many.rows[i][j]); d > 1e-12 {
				t.Fatalf("L[%d][%d]: one by one %v, together %v", i, j, one.rows[i][j], many.rows[i][j])
			}
		}
	}
	// unitSolve is column p of K_SS^{-1}: K_SS x = e_p.
	for _, p := range []int{0, 40, len(sup) - 1} {
		x := blocked.unitSolve(p)
		for i, s := range sup {
			var sum float64
			for j, c := range sup {
				sum += k[s*n+c] * x[j]
			}
			want := 0.0
			if i == p {
				want = 1
			}
			if math.Abs(sum-want) > 1e-8 {
				t.Fatalf("unitSolve(%d): (K x)[%d] = %v, want %v", p, i, sum, want)
			}
		}
	}
}

// A case large enough for every path of the active-set method: a warm
// start of more than maxWarmSupport rows (the ordered top-down start at
// lambda = 1.05), blocked factorisations (factorRows), rows leaving
// through dropPosition (and chol.remove's blocks of rows), batches
// entering.
// Every QP ends with a KKT gap <= Tol on a fresh gradient (the optimality
// certificate), and the result is the same bit for bit for any worker
// count and GOMAXPROCS.
func TestLargeSupportPaths(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds")
	}
	r := rand.New(rand.NewPCG(14, 15))
	mix := append(gaussRowsD(r, 700, 8, 0), gaussRowsD(r, 450, 8, 0.8)...)
	comp := gaussRowsD(r, 150, 8, 0.8)
	var results []*Result
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		res, err := Estimate(context.Background(), mix, comp, Options{Workers: procs})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	res := results[0]
	big, drops := false, false
	for i, s := range res.Solves {
		if s.Gap > DefaultTol || s.Fallback {
			t.Errorf("lambda %v: gap %g fallback %v", s.Lambda, s.Gap, s.Fallback)
		}
		if i > 0 && res.Solves[i-1].Support > maxWarmSupport && s.Lambda-res.Solves[i-1].Lambda <= warmNear {
			big = true
			drops = drops || s.Support < res.Solves[i-1].Support
		}
	}
	if !big || !drops {
		t.Errorf("the large warm start was not exercised (solves %+v)", res.Solves[:2])
	}
	if !reflect.DeepEqual(results[0], results[1]) {
		t.Errorf("GOMAXPROCS/workers 1 and 2 differ: KM1 %v/%v KM2 %v/%v", results[0].KM1, results[1].KM1, results[0].KM2, results[1].KM2)
	}
	t.Logf("KM1 %.4f KM2 %.4f, %d QPs, d(1.05) support %d", res.KM1, res.KM2, len(res.Solves), res.Solves[1].Support)
}

// gaussKernel returns the Gaussian kernel exp(-|x_i - x_j|^2 / den) of
// the rows, row-major.
func gaussKernel(rows [][]float64, den float64) []float64 {
	k := squaredDistances(rows, 1)
	for i := range k {
		k[i] = math.Exp(-k[i] / den)
	}
	return k
}

// kernelQP returns a qp on the n x n kernel k with its diagonal: enough
// for chol.build.
func kernelQP(k []float64, n int) *qp {
	q := &qp{k: k, n: n, diag: make([]float64, n)}
	for i := range n {
		q.diag[i] = k[i*n+i]
	}
	return q
}

// gaussRowsD returns n rows of d independent N(mean, 1) features.
func gaussRowsD(r *rand.Rand, n, d int, mean float64) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, d)
		for j := range out[i] {
			out[i][j] = r.NormFloat64() + mean
		}
	}
	return out
}

// build's probe of the leading buildProbe rows decides nothing that the
// whole factorisation does not: on a support of 2 buildProbe + 100 rows
// it gives factorRows' factor bit for bit, and it fails, with
// errBreakdown, when a row and column of K repeat an earlier one's (an
// exactly singular K_SS) inside the probe (support position 300) and
// past it (position 900: there the whole factorisation fails).
func TestBuildProbe(t *testing.T) {
	const n = 2*buildProbe + 100
	r := rand.New(rand.NewPCG(14, 15))
	k := gaussKernel(gaussRowsD(r, n, 3, 0), 2)
	for i := range n {
		k[i*n+i] += 1e-3 // well conditioned: every pivot passes
	}
	sup := r.Perm(n)
	q := kernelQP(k, n)
	var c chol
	if err := c.build(q, sup); err != nil {
		t.Fatal(err)
	}
	want, err := factorSupport(q, sup)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !sameBits(c.rows[i], want[i]) {
			t.Fatalf("row %d of the probed build differs from factorRows'", i)
		}
	}
	for _, at := range []int{300, 900} {
		a, b := sup[at], sup[10]
		dup := slices.Clone(k)
		for j := range n {
			dup[a*n+j] = dup[b*n+j]
		}
		for j := range n {
			dup[j*n+a] = dup[j*n+b]
		}
		var c chol
		if err := c.build(kernelQP(dup, n), sup); !errors.Is(err, errBreakdown) {
			t.Errorf("support position %d repeating position 10: build returned %v, want errBreakdown", at, err)
		}
	}
}

// The drop rounds (every row of non-positive weight in the face's
// minimiser leaving at once) reach the optimum that one row per step
// reaches: the squared distance to 1e-10 (both are
// solved to a KKT gap far below it) and the KKT conditions checked
// directly, along a sequence of lambdas whose warm starts lose rows (top
// down from lambda = 1, then bisection-like jumps), in fewer steps.
func TestDropRoundsSameOptimum(t *testing.T) {
	k, ka, kb, n, nMix := mixtureKernel(rand.New(rand.NewPCG(16, 17)))
	lambdas := []float64{1, 1.05, 1.07, 1.4, 1.42, 1.2, 1.22, 1.1}
	var squared [2][]float64
	var steps, dropped [2]int
	for mode, oneByOne := range []bool{false, true} {
		q := newQP(k, n, nMix, ka, kb, 1e-10, 10_000_000, 1)
		q.oneByOne = oneByOne
		solveAll(t, q, lambdas, func(_ float64, sol solution) {
			squared[mode] = append(squared[mode], sol.squared)
			steps[mode] += sol.steps
			dropped[mode] += q.dropped
		})
	}
	for i, lambda := range lambdas {
		if d := math.Abs(squared[0][i] - squared[1][i]); d > 1e-10 {
			t.Errorf("lambda %v: squared %.15g with drop rounds, %.15g one row per step", lambda, squared[0][i], squared[1][i])
		}
	}
	if dropped[0] == 0 || dropped[1] != 0 {
		t.Errorf("rows left in drop rounds: %d and %d (one by one), want > 0 and 0", dropped[0], dropped[1])
	}
	if steps[0] >= steps[1] {
		t.Errorf("active-set steps: %d with drop rounds, %d one row per step: no fewer", steps[0], steps[1])
	}
	t.Logf("steps %d (rows dropped in drop rounds %d) against %d one row per step", steps[0], dropped[0], steps[1])
}

// solve2 with the forward substitution kept from an earlier solve (rows
// appended since, one removed) equals solve2 from nothing bit for bit, and
// solves K_SS x = a to 1e-9.
func TestSolve2Forward(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 23))
	rows := gaussRowsD(r, 200, 6, 0)
	n := len(rows)
	k, _, _ := narrowKernel(rows, n)
	sup := r.Perm(n)[:120]
	rhs := func(s []int) (a, b []float64) {
		for _, t := range s {
			a = append(a, math.Sin(float64(t)))
			b = append(b, 1)
		}
		return a, b
	}
	var c chol
	for i, s := range sup[:100] {
		col := make([]float64, i)
		for j, u := range sup[:i] {
			col[j] = k[u*n+s]
		}
		if err := c.add(col, k[s*n+s]); err != nil {
			t.Fatal(err)
		}
	}
	var f forward
	a, b := rhs(sup[:100])
	c.solve2(&f, a, b)
	// Row 40 leaves, 20 rows enter.
	c.remove(40)
	f.removed(40)
	cur := slices.Delete(slices.Clone(sup[:100]), 40, 41)
	for _, s := range sup[100:] {
		col := make([]float64, len(cur))
		for j, u := range cur {
			col[j] = k[u*n+s]
		}
		if err := c.add(col, k[s*n+s]); err != nil {
			t.Fatal(err)
		}
		cur = append(cur, s)
	}
	a, b = rhs(cur)
	x, y := c.solve2(&f, a, b)
	var none forward
	x0, y0 := c.solve2(&none, a, b)
	if !slices.Equal(x, x0) || !slices.Equal(y, y0) {
		t.Fatal("solve2 with the kept forward substitution differs from solve2 from nothing")
	}
	for i, s := range cur {
		var kx float64
		for j, u := range cur {
			kx += k[s*n+u] * x[j]
		}
		if d := math.Abs(kx - a[i]); d > 1e-9 {
			t.Fatalf("row %d: (K x)_i %v, a_i %v", i, kx, a[i])
		}
	}
}

// backSubstitute, four rows at a time, gives the bits of the back
// substitution row by row (x_i /= L_ii, then axpy(-x_i, L_i[:i], x), and
// axpy2 with y), for every remainder of the factor's size modulo 4.
func TestBackSubstituteRowByRow(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 25))
	rows := gaussRowsD(r, 150, 6, 0)
	n := len(rows)
	k, _, _ := narrowKernel(rows, n)
	for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 37, 150} {
		var c chol
		for i := range m {
			if err := c.add(k[i*n:i*n+i], k[i*n+i]); err != nil {
				t.Fatal(err)
			}
		}
		x, y := mixedVec(r, m), mixedVec(r, m)
		wantX, wantY, wantX1 := slices.Clone(x), slices.Clone(y), slices.Clone(x)
		for i := m - 1; i >= 0; i-- {
			ri := c.rows[i]
			wantX[i] /= ri[i]
			wantY[i] /= ri[i]
			axpy2Go(-wantX[i], -wantY[i], ri[:i], wantX, wantY)
			wantX1[i] /= ri[i]
			axpyGo(-wantX1[i], ri[:i], wantX1)
		}
		x1 := slices.Clone(x)
		c.backSubstitute(x, y)
		c.backSubstitute(x1, nil)
		if !sameBits(x, wantX) || !sameBits(y, wantY) || !sameBits(x1, wantX1) {
			t.Fatalf("m = %d: four rows at a time differs from row by row", m)
		}
	}
}

// A warm start at a solution with a stored factor (qp.store) reaches the
// same optimum as one that factors K_SS anew: the same squared distances
// to 1e-10 and KKT to 1e-10 along a bisection-like sequence of lambdas that
// comes back near earlier solutions, with fewer factorisations; and the
// stored factors never hold more than the budget, whether it holds all of
// them, two, or none.
func TestStoredFactors(t *testing.T) {
	k, ka, kb, n, nMix := mixtureKernel(rand.New(rand.NewPCG(20, 21)))
	lambdas := []float64{1, 1.05, 4.5, 4.52, 1.4, 1.42, 1.2, 1.22, 1.1, 1.12, 1.15, 1.17, 1.21, 1.23, 1.11}
	budgets := []int{0, factorBudget(n), n * n / 3}
	squared := make([][]float64, len(budgets))
	builds := make([]int, len(budgets))
	for b, budget := range budgets {
		q := newQP(k, n, nMix, ka, kb, 1e-10, 10_000_000, 1)
		q.budget = budget
		solveAll(t, q, lambdas, func(lambda float64, sol solution) {
			squared[b] = append(squared[b], sol.squared)
			held := 0
			for _, s := range q.solved {
				if s.fac != nil {
					held += s.fac.floats()
					if len(s.fac.sup) != len(s.rows) || len(s.fac.c.rows) != len(s.rows) {
						t.Errorf("budget %d, lambda %v: a stored factor of %d rows (support order %d) for a support of %d", budget, s.lambda, len(s.fac.c.rows), len(s.fac.sup), len(s.rows))
					}
				}
			}
			if held != q.factors || held > budget {
				t.Errorf("budget %d, after lambda %v: stored factors hold %d floats, counted %d", budget, lambda, held, q.factors)
			}
		})
		builds[b] = q.builds
	}
	for b := 1; b < len(budgets); b++ {
		for i, lambda := range lambdas {
			if d := math.Abs(squared[b][i] - squared[0][i]); d > 1e-10 {
				t.Errorf("budget %d, lambda %v: squared %.15g, %.15g without stored factors", budgets[b], lambda, squared[b][i], squared[0][i])
			}
		}
	}
	if builds[1] >= builds[0] {
		t.Errorf("factorisations: %d with stored factors, %d without: no fewer", builds[1], builds[0])
	}
	t.Logf("factorisations: %d without stored factors, %d with, %d with a budget of n^2/3", builds[0], builds[1], builds[2])
}

// outsideGradient (a dot product of K's row with v per row) is the exact
// gradient (exactGradient: axpys over the support) on the rows it
// computes, to rounding (1e-12), at a solution with a large support.
func TestOutsideGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 19))
	rows := append(gaussRowsD(r, 300, 6, 0), gaussRowsD(r, 100, 6, 0.8)...)
	n, nMix := len(rows), 300
	k, ka, kb := narrowKernel(rows, nMix)
	for _, workers := range []int{1, 3} {
		q := newQP(k, n, nMix, ka, kb, 1e-10, 10_000_000, workers)
		for _, lambda := range []float64{1, 1.1} {
			if _, err := q.solve(context.Background(), lambda); err != nil {
				t.Fatal(err)
			}
		}
		want := slices.Clone(q.g)
		var out []int
		for t, vt := range q.v {
			if !(vt > 0) {
				out = append(out, t)
			}
		}
		if len(out) == 0 || len(out) == n {
			t.Fatalf("%d of %d rows outside the support: no case", len(out), n)
		}
		clear(q.g)
		q.outsideGradient(out)
		for _, i := range out {
			if d := math.Abs(q.g[i] - want[i]); d > 1e-12 {
				t.Errorf("workers %d, row %d: outside gradient %v, exact %v", workers, i, q.g[i], want[i])
			}
		}
	}
}

// mixtureKernel returns narrowKernel's kernel of 900 rows drawn by r in 8
// dimensions: a mixture of 500 rows of one Gaussian and 300 of another,
// then 100 component rows of the second.
func mixtureKernel(r *rand.Rand) (k, ka, kb []float64, n, nMix int) {
	rows := append(gaussRowsD(r, 500, 8, 0), gaussRowsD(r, 300, 8, 0.8)...)
	rows = append(rows, gaussRowsD(r, 100, 8, 0.8)...)
	k, ka, kb = narrowKernel(rows, 800)
	return k, ka, kb, len(rows), 800
}

// solveAll solves q at each lambda in turn, failing the test on an error,
// a breakdown of the active-set method or a KKT violation above 1e-10, and
// passes each solution to each.
func solveAll(t *testing.T, q *qp, lambdas []float64, each func(lambda float64, sol solution)) {
	t.Helper()
	for _, lambda := range lambdas {
		sol, err := q.solve(context.Background(), lambda)
		if err != nil {
			t.Fatalf("lambda %v: %v", lambda, err)
		}
		if sol.fallback {
			t.Errorf("lambda %v: the active-set method broke down", lambda)
		}
		checkKKT(t, q, 1e-10)
		each(lambda, sol)
	}
}

// narrowKernel returns the Gaussian kernel of rows (the first nMix the
// mixture) at sigma^2 = 0.1 x the median squared distance (the narrow
// widths the AUL data sets choose), with K 1_m/N and K 1_c/M.
func narrowKernel(rows [][]float64, nMix int) (k, ka, kb []float64) {
	n := len(rows)
	k = squaredDistances(rows, 1)
	s2 := 0.1 * medianAll(k, n, 1)
	ka, kb = make([]float64, n), make([]float64, n)
	for i := range n {
		for j := range n {
			k[i*n+j] = math.Exp(-k[i*n+j] / (2 * s2))
			if j < nMix {
				ka[i] += k[i*n+j] / float64(nMix)
			} else {
				kb[i] += k[i*n+j] / float64(n-nMix)
			}
		}
	}
	return k, ka, kb
}

// The QP reads K_st as K_ts where a row is faster to read than a column
// (exactGradient, build, the entering rows' columns): both kernel sources
// give an exactly symmetric K, bit for bit, the direct one (entrywise exp
// of the split's D2) and the pooled one (entries gathered from the pool's
// kernel in the split's order), with mixed-scale features.
func TestKernelsExactlySymmetric(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 27))
	rows := make([][]float64, 300)
	for i := range rows {
		rows[i] = mixedVec(r, 5)
		for j := range rows[i] {
			rows[i][j] = math.Cbrt(rows[i][j]) // mixed scales, no overflow
		}
	}
	n := len(rows)
	p, err := NewPool(rows, Raw, 2)
	if err != nil {
		t.Fatal(err)
	}
	sigma := math.Sqrt(p.median)
	direct := &directKernels{d2: squaredDistances(rows, 2), n: n, nMix: 200, workers: 2}
	pooled := &poolKernels{p: p, idx: r.Perm(n), nMix: 200, workers: 2}
	for name, k := range map[string][]float64{"direct": direct.kernel(0, sigma), "pooled": pooled.kernel(0, sigma)} {
		for i := range n {
			for j := range i {
				if math.Float64bits(k[i*n+j]) != math.Float64bits(k[j*n+i]) {
					t.Fatalf("%s: K[%d][%d] = %v, K[%d][%d] = %v", name, i, j, k[i*n+j], j, i, k[j*n+i])
				}
			}
		}
	}
}
