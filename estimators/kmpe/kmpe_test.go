package kmpe

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// gaussRows draws n rows of a 2-D normal with identity covariance and the
// given mean.
func gaussRows(r *rand.Rand, n int, mean float64) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = []float64{r.NormFloat64() + mean, r.NormFloat64() + mean}
	}
	return out
}

// synthGauss is the Go analogue of the shared Gaussian case: mixture = 60%
// N(0, I) and 40% N((2,2), I) (kappa* = 0.4), component N((2,2), I).
func synthGauss(seed uint64, n, m int) (mix, comp [][]float64) {
	r := rand.New(rand.NewPCG(seed, 0x6b6d))
	k := int(math.Round(0.4 * float64(n)))
	mix = append(gaussRows(r, n-k, 0), gaussRows(r, k, 2)...)
	return mix, gaussRows(r, m, 2)
}

// The QP against the independent oracle of testdata/oracle.py (an exact
// active-set method in numpy, checked there against scipy SLSQP): the
// squared distance to 1e-10 for both solvers (the active-set method with
// its SMO fallback, and SMO alone), and the KKT conditions checked here.
func TestQPOracle(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "qp_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Cases []struct {
			X       [][]float64 `json:"x"`
			NMix    int         `json:"n_mixture"`
			Sigma   float64     `json:"sigma"`
			Lambda  float64     `json:"lambda"`
			Squared float64     `json:"squared"`
			V       []float64   `json:"v"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) == 0 {
		t.Fatal("no cases")
	}
	for ci, c := range g.Cases {
		n := len(c.X)
		k := squaredDistances(c.X, 1)
		ka, kb := make([]float64, n), make([]float64, n)
		for i := range n {
			for j := range n {
				k[i*n+j] = math.Exp(-k[i*n+j] / (2 * c.Sigma * c.Sigma))
				if j < c.NMix {
					ka[i] += k[i*n+j] / float64(c.NMix)
				} else {
					kb[i] += k[i*n+j] / float64(n-c.NMix)
				}
			}
		}
		for _, smoOnly := range []bool{false, true} {
			q := newQP(k, n, c.NMix, ka, kb, 1e-12, 10_000_000, 1)
			q.smoOnly = smoOnly
			sol, err := q.solve(context.Background(), c.Lambda)
			if err != nil {
				t.Fatalf("case %d smo-only %v: %v", ci, smoOnly, err)
			}
			if math.Abs(sol.squared-c.Squared) > 1e-10 {
				t.Errorf("case %d (n %d, lambda %v) smo-only %v: squared %.15g, oracle %.15g", ci, n, c.Lambda, smoOnly, sol.squared, c.Squared)
			}
			checkKKT(t, q, 1e-12)
		}
	}
}

// checkKKT checks v in the simplex and, on a gradient recomputed here
// directly from K, v and u, that g_t >= rho everywhere and g_t <= rho + tol
// where v_t > 0.
func checkKKT(t *testing.T, q *qp, tol float64) {
	t.Helper()
	n := q.n
	var sum float64
	g := make([]float64, n)
	for i := range n {
		var s float64
		for j := range n {
			s += q.k[i*n+j] * (q.v[j] - q.u(j))
		}
		g[i] = s
	}
	gmin, gmax := math.Inf(1), math.Inf(-1)
	for i, v := range q.v {
		if v < 0 {
			t.Fatalf("v[%d] = %v < 0", i, v)
		}
		sum += v
		gmin = min(gmin, g[i])
		if v > 0 {
			gmax = max(gmax, g[i])
		}
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("sum v = %.17g", sum)
	}
	if gmax-gmin > tol+1e-14 {
		t.Errorf("KKT gap %g > %g", gmax-gmin, tol)
	}
}

func TestChol(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rows := gaussRows(r, 12, 0)
	n := len(rows)
	k := gaussKernel(rows, 2)
	q := kernelQP(k, n)
	sup := []int{3, 7, 1, 9, 0, 5, 11}
	var c chol
	if err := c.build(q, sup); err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{2, 0, 4} {
		c.remove(p)
		sup = append(sup[:p], sup[p+1:]...)
		var ref chol
		if err := ref.build(q, sup); err != nil {
			t.Fatal(err)
		}
		for i := range ref.rows {
			for j := range ref.rows[i] {
				if math.Abs(c.rows[i][j]-ref.rows[i][j]) > 1e-12 {
					t.Fatalf("after removing %d: L[%d][%d] = %v, rebuilt %v", p, i, j, c.rows[i][j], ref.rows[i][j])
				}
			}
		}
	}
}

// medianAll against sorting (numpy's rule: mean of the two middle values
// for an even count), on matrices with many ties (integer distances) and
// without.
func TestMedianAll(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 3, 4, 7, 10, 33} {
		for _, ties := range []bool{false, true} {
			rows := make([][]float64, n)
			for i := range rows {
				rows[i] = []float64{r.NormFloat64(), r.NormFloat64()}
				if ties {
					rows[i] = []float64{float64(r.IntN(3)), float64(r.IntN(2))}
				}
			}
			d2 := squaredDistances(rows, 2)
			all := slices.Clone(d2)
			sort.Float64s(all)
			want := all[len(all)/2]
			if len(all)%2 == 0 {
				want = (all[len(all)/2-1] + all[len(all)/2]) / 2
			}
			for _, w := range []int{1, 2, 3} {
				if got := medianAll(d2, n, w); got != want {
					t.Errorf("n %d ties %v workers %d: median %v, sorted %v", n, ties, w, got, want)
				}
			}
		}
	}
}

// KM2 on a Go-generated analogue of the shared Gaussian case (kappa* = 0.4
// by construction): a looser check than the acceptance one, over 3 seeds.
func TestSyntheticGaussian(t *testing.T) {
	for seed := range uint64(3) {
		mix, comp := synthGauss(seed+1, 400, 400)
		r, err := Estimate(context.Background(), mix, comp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: KM1 %.4f KM2 %.4f sigma %.4f (index %d) delta %.4f nu1 %.4f nu2 %.4f", seed+1, r.KM1, r.KM2, r.Sigma, r.SigmaIndex, r.Delta, r.Nu1, r.Nu2)
		if math.Abs(r.KM2-0.4) > 0.06 {
			t.Errorf("seed %d: KM2 %.4f, truth 0.4 (tolerance 0.06)", seed+1, r.KM2)
		}
		if r.KM1 < 0.0135 || r.KM1 > 0.8748 || r.Scaling != ZScore || r.N != 400 || r.M != 400 {
			t.Errorf("seed %d: %+v", seed+1, r)
		}
		for _, s := range r.Solves {
			if s.Gap > DefaultTol {
				t.Errorf("lambda %v: gap %g", s.Lambda, s.Gap)
			}
		}
	}
}

// Permuting the rows within the mixture and within the component changes
// nothing but rounding: same widths, same bisection decisions, same
// estimates; the distances to 1e-9. Expected values: the unpermuted run.
func TestPermutationInvariance(t *testing.T) {
	mix, comp := synthGauss(9, 150, 120)
	r0, err := Estimate(context.Background(), mix, comp, Options{Scaling: Raw})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(10, 11))
	pm, pc := slices.Clone(mix), slices.Clone(comp)
	rng.Shuffle(len(pm), func(i, j int) { pm[i], pm[j] = pm[j], pm[i] })
	rng.Shuffle(len(pc), func(i, j int) { pc[i], pc[j] = pc[j], pc[i] })
	r1, err := Estimate(context.Background(), pm, pc, Options{Scaling: Raw, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	samePath(t, r0, r1, 1e-9)
}

func samePath(t *testing.T, a, b *Result, tol float64) {
	t.Helper()
	if a.KM1 != b.KM1 || a.KM2 != b.KM2 || a.SigmaIndex != b.SigmaIndex || len(a.Path1) != len(b.Path1) || len(a.Path2) != len(b.Path2) {
		t.Fatalf("estimates differ: %v %v / %v %v", a.KM1, a.KM2, b.KM1, b.KM2)
	}
	near := func(what string, x, y float64) {
		if math.Abs(x-y) > tol*max(1, math.Abs(x)) {
			t.Errorf("%s: %.15g vs %.15g", what, x, y)
		}
	}
	near("median", a.MedianD2, b.MedianD2)
	near("delta", a.Delta, b.Delta)
	near("nu1", a.Nu1, b.Nu1)
	near("nu2", a.Nu2, b.Nu2)
	for i := range a.Path1 {
		near("path1 d", a.Path1[i].D, b.Path1[i].D)
		if a.Path1[i].Above != b.Path1[i].Above {
			t.Errorf("path1 step %d differs", i)
		}
	}
	for i := range a.Path2 {
		near("path2 d", a.Path2[i].D, b.Path2[i].D)
		if a.Path2[i].Above != b.Path2[i].Above {
			t.Errorf("path2 step %d differs", i)
		}
	}
}

// The pool and the cache give Estimate's result: the same widths, the
// same bisection decisions and estimates, the distances d to 1e-9 (a
// split that uses every pool row once takes its kernel row sums as the
// pool's row sum minus the component columns' sum, which rounds
// differently from Estimate's direct sums; z-scored: the scaling
// statistics are also summed in another order). A cache hit, after the
// pool's kernel served another split, gives the first result bit for bit;
// the worker count changes nothing.
func TestPoolAndCache(t *testing.T) {
	ctx := context.Background()
	mix, comp := synthGauss(12, 120, 80)
	all := append(slices.Clone(mix), comp...)
	direct, err := Estimate(ctx, mix, comp, Options{Scaling: Raw, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPool(all, Raw, 2)
	if err != nil {
		t.Fatal(err)
	}
	mi, ci := make([]int, len(mix)), make([]int, len(comp))
	for i := range mi {
		mi[i] = i
	}
	for i := range ci {
		ci[i] = len(mix) + i
	}
	pooled, err := p.Estimate(ctx, mi, ci, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	samePath(t, direct, pooled, 1e-9)
	if pooled.SigmaMedian != direct.SigmaMedian || pooled.Sigma != direct.Sigma {
		t.Errorf("widths: %v %v / %v %v", pooled.SigmaMedian, pooled.Sigma, direct.SigmaMedian, direct.Sigma)
	}
	// A subset: the median is recomputed over the selected rows.
	sub, err := p.Estimate(ctx, mi[:100], ci[:70], Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Estimate(ctx, mix[:100], comp[:70], Options{Scaling: Raw})
	if err != nil {
		t.Fatal(err)
	}
	samePath(t, want, sub, 0)

	c := NewCache(1)
	for _, s := range []Scaling{Raw, ZScore} {
		first, err := c.Estimate(ctx, mix, comp, Options{Scaling: s})
		if err != nil {
			t.Fatal(err)
		}
		d, err := Estimate(ctx, mix, comp, Options{Scaling: s})
		if err != nil {
			t.Fatal(err)
		}
		samePath(t, d, first, 1e-9)
		// Another split of the same rows, then the first again (a hit).
		other, err := c.Estimate(ctx, append(slices.Clone(mix[40:]), comp[:30]...), append(slices.Clone(comp[30:]), mix[:40]...), Options{Scaling: s, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if other.N != 110 || other.M != 90 {
			t.Fatalf("other split: N %d M %d", other.N, other.M)
		}
		again, err := c.Estimate(ctx, mix, comp, Options{Scaling: s, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		samePath(t, first, again, 0)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	mix, comp := synthGauss(1, 30, 20)
	nan := slices.Clone(mix)
	nan[3] = []float64{math.NaN(), 1}
	inf := slices.Clone(comp)
	inf[0] = []float64{1, math.Inf(-1)}
	short := slices.Clone(comp)
	short[5] = []float64{1}
	constant := [][]float64{{1, 2}, {1, 2}, {1, 2}}
	// More than half of the pairs coincide: median distance 0.
	dup := [][]float64{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}
	cases := []struct {
		name      string
		mix, comp [][]float64
		opt       Options
		want      string
	}{
		{"no mixture", nil, comp, Options{}, "no mixture rows"},
		{"no component", mix, [][]float64{}, Options{}, "no component rows"},
		{"no features", [][]float64{{}}, [][]float64{{}}, Options{}, "no features"},
		{"d mismatch", mix, short, Options{}, "component row 5 has 1 features, want 2"},
		{"nan", nan, comp, Options{}, "must be finite"},
		{"inf", mix, inf, Options{}, "must be finite"},
		{"constant", constant, constant, Options{}, "every feature is constant"},
		{"median 0", dup, [][]float64{{1, 1}}, Options{}, "median squared distance"},
		{"scaling", mix, comp, Options{Scaling: "log"}, `features "log"`},
		{"tol", mix, comp, Options{Tol: math.NaN()}, "tol"},
		{"max_iter", mix, comp, Options{MaxIter: -1}, "max_iter"},
	}
	for _, c := range cases {
		for _, f := range []func() (*Result, error){
			func() (*Result, error) { return Estimate(ctx, c.mix, c.comp, c.opt) },
			func() (*Result, error) { return NewCache(1).Estimate(ctx, c.mix, c.comp, c.opt) },
		} {
			r, err := f()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, %v: want an error with %q", c.name, r, err, c.want)
			}
		}
	}
	// Identical embeddings: mixture = component.
	if _, err := Estimate(ctx, mix, mix, Options{}); err == nil || !strings.Contains(err.Error(), "coincide") {
		t.Errorf("mixture = component: %v", err)
	}
	// A constant column is harmless (it adds nothing to any distance) and reported.
	withConst := make([][]float64, len(mix))
	for i, r := range mix {
		withConst[i] = []float64{r[0], 7, r[1]}
	}
	compConst := make([][]float64, len(comp))
	for i, r := range comp {
		compConst[i] = []float64{r[0], 7, r[1]}
	}
	for _, s := range []Scaling{ZScore, MinMax, Raw} {
		a, err := Estimate(ctx, withConst, compConst, Options{Scaling: s})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Estimate(ctx, mix, comp, Options{Scaling: s})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.ConstantFeatures, []int{1}) || a.KM1 != b.KM1 || a.KM2 != b.KM2 {
			t.Errorf("%s: constant column: %v %v %v / %v %v", s, a.ConstantFeatures, a.KM1, a.KM2, b.KM1, b.KM2)
		}
	}
	// Pool errors.
	p, err := NewPool(append(slices.Clone(mix), comp...), "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Estimate(ctx, []int{0, 1}, []int{50}, Options{}); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("index outside: %v", err)
	}
	if _, err := p.Estimate(ctx, nil, []int{1}, Options{}); err == nil {
		t.Error("empty mixture indices: no error")
	}
	if _, err := NewPoolD2([]float64{0, 1, 2, 0}, 2, 1); err == nil || !strings.Contains(err.Error(), "symmetric") {
		t.Errorf("asymmetric D2: %v", err)
	}
	if _, err := NewPoolD2([]float64{1, 1, 1, 0}, 2, 1); err == nil || !strings.Contains(err.Error(), "diagonal") {
		t.Errorf("diagonal: %v", err)
	}
	if _, err := NewPoolD2([]float64{0, math.NaN(), math.NaN(), 0}, 2, 1); err == nil {
		t.Error("NaN D2: no error")
	}
	if _, err := NewPoolD2([]float64{0}, 2, 1); err == nil {
		t.Error("short D2: no error")
	}
	// A cancelled context.
	cctx, cancel := context.WithCancelCause(ctx)
	cause := errors.New("stop")
	cancel(cause)
	if _, err := Estimate(cctx, mix, comp, Options{}); !errors.Is(err, cause) {
		t.Errorf("cancelled: %v", err)
	}
}
