package svm

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gaussProblem draws n points of d features, about a third positive, the
// positives shifted by sep/sqrt(d) in every feature.
func gaussProblem(rng *rand.Rand, n, d int, sep float64) (*mat.Dense, []bool) {
	x := mat.NewDense(n, d, nil)
	y := make([]bool, n)
	for i := range n {
		y[i] = rng.IntN(3) == 0 || i == 0
		if i == 1 {
			y[i] = false
		}
		for k := range d {
			v := rng.NormFloat64()
			if y[i] {
				v += sep / math.Sqrt(float64(d))
			}
			x.Set(i, k, v)
		}
	}
	return x, y
}

func train(t *testing.T, prob Problem, p Params) *Model {
	t.Helper()
	m, err := Train(context.Background(), prob, p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func decision(t *testing.T, m *Model, x *mat.Dense) []float64 {
	t.Helper()
	r, _ := x.Dims()
	out := make([]float64, r)
	if err := m.Decision(x, nil, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSVMTwoPoints: x = -1 (negative) and x = +1 (positive), linear, C large.
// The maximal-margin solution, by hand: w = 1, b = 0, both coefficients
// 1/2 (w = sum a_t y_t x_t = 1/2 + 1/2). SMO reaches it in one exact step:
// i = the positive (F = 1), j = the negative, a = 1 + 1 + 2 = 4,
// s = (1 - (-1))/4 = 1/2, after which F = 0 for both.
func TestSVMTwoPoints(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{-1, 1})
	p := DefaultParams()
	p.C = 100
	m := train(t, Problem{X: x, Y: []bool{false, true}}, p)
	if m.Alpha[0] != 0.5 || m.Alpha[1] != 0.5 || m.B != 0 || m.Iter != 1 || m.Weights()[0] != 1 {
		t.Errorf("alpha %v, b %v, w %v after %d iterations; want 0.5, 0.5, 0, 1 after 1", m.Alpha, m.B, m.Weights(), m.Iter)
	}
	got := decision(t, m, mat.NewDense(3, 1, []float64{-2, 0.25, 3}))
	if got[0] != -2 || got[1] != 0.25 || got[2] != 3 {
		t.Errorf("f(-2, 0.25, 3) = %v, want the identity", got)
	}
}

// TestSVMFourPoints: negatives (-1, 0), (-2, 1), positives (1, 0), (2, -1).
// By hand: the margin is set by (-1, 0) and (1, 0): w = (1, 0), b = 0,
// their coefficients 1/2, the others 0 ((-2, 1) has w.x = -2 <= -1 and
// (2, -1) has 2 >= 1, outside the margin).
func TestSVMFourPoints(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{-1, 0, -2, 1, 1, 0, 2, -1})
	p := DefaultParams()
	p.C, p.Tol = 1000, 1e-12
	m := train(t, Problem{X: x, Y: []bool{false, false, true, true}}, p)
	w := m.Weights()
	want := []float64{0.5, 0, 0.5, 0}
	for i, a := range m.Alpha {
		if math.Abs(a-want[i]) > 1e-9 {
			t.Errorf("alpha %v, want %v", m.Alpha, want)
			break
		}
	}
	if math.Abs(w[0]-1) > 1e-9 || math.Abs(w[1]) > 1e-9 || math.Abs(m.B) > 1e-9 {
		t.Errorf("w %v, b %v; want (1, 0), 0", w, m.B)
	}
}

// TestSVMRBFTwoPoints: x = 0 (negative), x = 1 (positive), RBF with gamma =
// ln 2, so K(0, 1) = 1/2. By hand, with beta = (-a, a) the objective is
// 1/2 (a^2 + a^2 - 2 a^2 / 2) - 2a = a^2/2 - 2a, minimised at a = 2
// (f(1) = 2 - 1 = 1, f(0) = -1, b = 0, f(1/2) = 0 by symmetry). With
// C = 1 the coefficients stop at 1 and b is the midpoint of
// [F_neg, F_pos] = [-1/2, 1/2], 0: f(1) = 1 - 1/2.
func TestSVMRBFTwoPoints(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{0, 1})
	probe := mat.NewDense(3, 1, []float64{0, 0.5, 1})
	for _, c := range []struct{ c, alpha, f1 float64 }{{10, 2, 1}, {1, 1, 0.5}} {
		p := DefaultParams()
		p.Kernel, p.Gamma, p.C, p.Tol = RBF, math.Ln2, c.c, 1e-12
		m := train(t, Problem{X: x, Y: []bool{false, true}}, p)
		f := decision(t, m, probe)
		if math.Abs(m.Alpha[0]-c.alpha) > 1e-12 || math.Abs(m.Alpha[1]-c.alpha) > 1e-12 || math.Abs(m.B) > 1e-12 ||
			math.Abs(f[0]+c.f1) > 1e-12 || math.Abs(f[1]) > 1e-12 || math.Abs(f[2]-c.f1) > 1e-12 {
			t.Errorf("C = %v: alpha %v, b %v, f(0, 1/2, 1) = %v; want alpha %v, b 0, f = (-%v, 0, %v)", c.c, m.Alpha, m.B, f, c.alpha, c.f1, c.f1)
		}
	}
}

// TestSVMKKT: at the solution the KKT conditions hold to the tolerance eps
// (package doc): y f >= 1 - eps where a = 0, y f <= 1 + eps where a = C_t,
// |y f - 1| <= eps in between; 0 <= a <= C_t and y'a = 0. f is recomputed
// by Decision, independently of the solver's gradient (1e-9 slack for its
// rounding).
func TestSVMKKT(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := gaussProblem(rng, 300, 5, 1.5)
	w := make([]float64, len(y))
	for i := range w {
		w[i] = 0.1 + 2*rng.Float64()
	}
	for _, k := range []Kernel{Linear, RBF} {
		for q, tol := range []float64{1e-3, 1e-6, 1e-3} {
			p := DefaultParams()
			p.Kernel, p.Tol, p.C, p.Shrinking = k, tol, 2, q < 2
			m := train(t, Problem{X: x, Y: y, W: w}, p)
			f := decision(t, m, x)
			sum := 0.0
			for i, a := range m.Alpha {
				c := p.C * w[i]
				yi := -1.0
				if y[i] {
					yi = 1
				}
				sum += yi * a
				m := yi * f[i]
				switch {
				case a < 0 || a > c:
					t.Fatalf("%v tol %v: alpha[%d] = %v outside [0, %v]", k, tol, i, a, c)
				case a == 0 && m < 1-tol-1e-9, a == c && m > 1+tol+1e-9, a > 0 && a < c && math.Abs(m-1) > tol+1e-9:
					t.Errorf("%v tol %v: instance %d: alpha %v of C_t %v, y f = %v", k, tol, i, a, c, m)
				}
			}
			if math.Abs(sum) > 1e-12 {
				t.Errorf("%v tol %v: y'a = %v", k, tol, sum)
			}
			if m.Gap > tol || m.Stop != StopConverged {
				t.Errorf("%v tol %v: gap %v, stop %s", k, tol, m.Gap, m.Stop)
			}
		}
	}
}

// TestSVMWeightsScaleC: C_t = C w_t, and doubling is exact in float64, so
// doubling every weight and doubling C give bit-identical models.
func TestSVMWeightsScaleC(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := gaussProblem(rng, 200, 4, 1)
	w, w2 := make([]float64, len(y)), make([]float64, len(y))
	for i := range w {
		w[i] = 0.2 + rng.Float64()
		w2[i] = 2 * w[i]
	}
	for _, k := range []Kernel{Linear, RBF} {
		p := DefaultParams()
		p.Kernel = k
		a := train(t, Problem{X: x, Y: y, W: w2}, p)
		p.C = 2
		b := train(t, Problem{X: x, Y: y, W: w}, p)
		fa, fb := decision(t, a, x), decision(t, b, x)
		for i := range fa {
			if math.Float64bits(fa[i]) != math.Float64bits(fb[i]) {
				t.Fatalf("%v: row %d: %v with weights doubled, %v with C doubled", k, i, fa[i], fb[i])
			}
		}
	}
}

// TestSVMTinyWeight: a point of weight 1e-9 on the wrong side has a
// coefficient of at most 1e-9, so it barely moves the solution: the
// decision values with and without it agree to 1e-6 (both solved to 1e-10).
func TestSVMTinyWeight(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, y := gaussProblem(rng, 150, 3, 2)
	extra := mat.NewDense(151, 3, nil)
	extra.Slice(0, 150, 0, 3).(*mat.Dense).Copy(x)
	extra.SetRow(150, []float64{3, 3, 3}) // deep among the positives...
	ye := append(append([]bool(nil), y...), false)
	we := make([]float64, 151)
	for i := range we {
		we[i] = 1
	}
	we[150] = 1e-9 // ...labeled negative, weight ~0
	for _, k := range []Kernel{Linear, RBF} {
		p := DefaultParams()
		p.Kernel, p.Tol, p.Gamma = k, 1e-10, 0.3
		a := train(t, Problem{X: x, Y: y}, p)
		b := train(t, Problem{X: extra, Y: ye, W: we}, p)
		fa, fb := decision(t, a, x), decision(t, b, x)
		worst := 0.0
		for i := range fa {
			worst = max(worst, math.Abs(fa[i]-fb[i]))
		}
		if worst > 1e-6 || b.Alpha[150] > 1e-9 {
			t.Errorf("%v: decision values move by %v, the point's alpha %v", k, worst, b.Alpha[150])
		}
	}
}

// TestSVMDuplicatedRows: instances sharing a row of X (one kernel point) give
// the model of the same instances on copies of the row (distinct points
// with equal kernel values): the same iterations and coefficients bit for
// bit, decision values to rounding (a shared point's coefficients are
// summed before its kernel value multiplies them).
func TestSVMDuplicatedRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x, s := gaussProblem(rng, 120, 4, 2)
	var rows []int
	var y []bool
	var w []float64
	for i, l := range s {
		if l {
			rows, y, w = append(rows, i), append(y, true), append(w, 1)
			continue
		}
		u := 0.1 + 0.8*rng.Float64()
		rows, y, w = append(rows, i, i), append(y, true, false), append(w, u, 1-u)
	}
	copies := mat.NewDense(len(rows), 4, nil)
	for t, r := range rows {
		copies.SetRow(t, x.RawRowView(r))
	}
	for _, k := range []Kernel{Linear, RBF} {
		p := DefaultParams()
		// (an explicit gamma: ScaleGamma counts a shared row once, a copy
		// twice)
		p.Kernel, p.Gamma = k, 0.2
		a := train(t, Problem{X: x, Rows: rows, Y: y, W: w}, p)
		b := train(t, Problem{X: copies, Y: y, W: w}, p)
		if a.Iter != b.Iter || a.B != b.B {
			t.Errorf("%v: %d vs %d iterations, b %v vs %v", k, a.Iter, b.Iter, a.B, b.B)
		}
		for i := range a.Alpha {
			if a.Alpha[i] != b.Alpha[i] {
				t.Fatalf("%v: alpha[%d] %v shared, %v copied", k, i, a.Alpha[i], b.Alpha[i])
			}
		}
		fa, fb := decision(t, a, x), decision(t, b, x)
		for i := range fa {
			if math.Abs(fa[i]-fb[i]) > 1e-12 {
				t.Fatalf("%v: row %d: %v shared, %v copied", k, i, fa[i], fb[i])
			}
		}
	}
}

// TestSVMCacheAndStorageInvariance: a cache of three rows (constant
// eviction) and sparse storage give the bit-identical model of the full
// cache and dense storage (kernel values are bit-identical whichever way
// they are computed, see points).
func TestSVMCacheAndStorageInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n, d := 200, 30
	x := mat.NewDense(n, d, nil)
	y := make([]bool, n)
	for i := range n {
		y[i] = i%4 == 0
		for k := range d {
			if rng.Float64() < 0.15 || (y[i] && k < 3 && rng.Float64() < 0.5) {
				x.Set(i, k, rng.Float64())
			}
		}
	}
	for _, k := range []Kernel{Linear, RBF} {
		p := DefaultParams()
		p.Kernel = k
		ref := train(t, Problem{X: x, Y: y}, p)
		fr := decision(t, ref, x)
		for _, c := range []struct {
			cache int64
			st    Storage
		}{{3 * 8 * int64(n), StorageDense}, {0, StorageSparse}, {3 * 8 * int64(n), StorageSparse}, {0, StorageAuto}} {
			p.CacheBytes, p.Storage = c.cache, c.st
			m := train(t, Problem{X: x, Y: y}, p)
			f := decision(t, m, x)
			if m.Iter != ref.Iter || m.B != ref.B {
				t.Errorf("%v cache %d storage %d: %d iterations, b %v; full dense: %d, %v", k, c.cache, c.st, m.Iter, m.B, ref.Iter, ref.B)
			}
			for i := range f {
				if math.Float64bits(f[i]) != math.Float64bits(fr[i]) {
					t.Fatalf("%v cache %d storage %d: row %d: %v, full dense %v", k, c.cache, c.st, i, f[i], fr[i])
				}
			}
			if c.st == StorageAuto && !m.Sparse {
				t.Errorf("density ~0.16 was stored densely")
			}
		}
	}
}

// TestSVMShrinking: with and without shrinking the solutions are optimal to
// the tolerance, so their decision values agree to about the tolerance
// (here 1e-9: to 1e-6); on a problem where most instances end at a bound
// (linear, overlapping classes, weights 0.1 for the negatives), shrinking
// leaves them out of most iterations.
func TestSVMShrinking(t *testing.T) {
	x, y := gaussProblem(rand.New(rand.NewPCG(19, 20)), 1200, 4, 1)
	w := make([]float64, len(y))
	for i, v := range y {
		w[i] = 0.1
		if v {
			w[i] = 1
		}
	}
	for _, k := range []Kernel{Linear, RBF} {
		p := DefaultParams()
		p.Kernel, p.Tol = k, 1e-9
		on := train(t, Problem{X: x, Y: y, W: w}, p)
		p.Shrinking = false
		off := train(t, Problem{X: x, Y: y, W: w}, p)
		fa, fb := decision(t, on, x), decision(t, off, x)
		worst := 0.0
		for i := range fa {
			worst = max(worst, math.Abs(fa[i]-fb[i]))
		}
		if worst > 1e-6 || on.Stop != StopConverged || off.Stop != StopConverged {
			t.Errorf("%v: decision values differ by %v (stops %s, %s)", k, worst, on.Stop, off.Stop)
		}
		t.Logf("%v: %d iterations with shrinking, %d without; max |diff| %.2g", k, on.Iter, off.Iter, worst)
	}
}

// TestSVMMaxIter: the iteration bound ends the run with a usable model and
// Stop = max-iter, not an error.
func TestSVMMaxIter(t *testing.T) {
	x, y := gaussProblem(rand.New(rand.NewPCG(11, 12)), 200, 3, 0.5)
	p := DefaultParams()
	p.MaxIter = 5
	m := train(t, Problem{X: x, Y: y}, p)
	if m.Stop != StopMaxIter || m.Iter != 5 || !(m.Gap > p.Tol) {
		t.Errorf("stop %s after %d iterations, gap %v", m.Stop, m.Iter, m.Gap)
	}
}

// TestSVMDegenerate: with heavily overlapping classes and negatives of weight
// 0.01, the optimum is w = 0 (every negative at its bound); the solver
// still converges at the default tolerance (libsvm needs ~3.5 10^7
// iterations at 1e-8 on such a problem, see the oracle script).
func TestSVMDegenerate(t *testing.T) {
	x, y := gaussProblem(rand.New(rand.NewPCG(13, 14)), 400, 6, 0.5)
	w := make([]float64, len(y))
	for i, v := range y {
		w[i] = 0.01
		if v {
			w[i] = 1
		}
	}
	m := train(t, Problem{X: x, Y: y, W: w}, DefaultParams())
	if m.Stop != StopConverged {
		t.Errorf("stop %s after %d iterations", m.Stop, m.Iter)
	}
	t.Logf("%d iterations, w %v, b %v", m.Iter, m.Weights(), m.B)
}

func TestSVMErrors(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{0, 1, 1, 0, 2, 2, 3, 1})
	y := []bool{true, false, true, false}
	p := DefaultParams()
	nan := mat.DenseCopyOf(x)
	nan.Set(2, 1, math.NaN())
	inf := mat.DenseCopyOf(x)
	inf.Set(1, 0, math.Inf(-1))
	cases := []struct {
		name string
		prob Problem
		p    Params
		want string
	}{
		{"nil X", Problem{Y: y}, p, "nil feature matrix"},
		{"NaN", Problem{X: nan, Y: y}, p, "feature 1 of row 2 is NaN"},
		{"Inf", Problem{X: inf, Y: y}, p, "feature 0 of row 1 is -Inf"},
		{"lengths", Problem{X: x, Y: y[:3]}, p, "4 instances, 3 labels"},
		{"weights", Problem{X: x, Y: y, W: []float64{1, 1}}, p, "2 weights"},
		{"zero weight", Problem{X: x, Y: y, W: []float64{1, 0, 1, 1}}, p, "instance 1: weight 0"},
		{"NaN weight", Problem{X: x, Y: y, W: []float64{1, 1, math.NaN(), 1}}, p, "instance 2: weight NaN"},
		{"row", Problem{X: x, Rows: []int{0, 1, 9, 2}, Y: y}, p, "row 9 out of [0, 4)"},
		{"C", Problem{X: x, Y: y}, Params{C: 0}, "C = 0"},
		{"gamma", Problem{X: x, Y: y}, Params{C: 1, Kernel: RBF, Gamma: -1}, "gamma = -1"},
		{"tol", Problem{X: x, Y: y}, Params{C: 1, Tol: math.NaN()}, "tolerance = NaN"},
		{"kernel", Problem{X: x, Y: y}, Params{C: 1, Kernel: 7}, "kernel 7"},
	}
	for _, c := range cases {
		if _, err := Train(context.Background(), c.prob, c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
	if _, err := Train(context.Background(), Problem{X: x, Y: []bool{true, true, true, true}}, p); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v", err)
	}
	m := train(t, Problem{X: x, Y: y}, p)
	if err := m.Decision(mat.NewDense(2, 3, nil), nil, make([]float64, 2)); err == nil || !strings.Contains(err.Error(), "3 features") {
		t.Errorf("decision on 3 features: %v", err)
	}
	if err := m.Decision(nan, nil, make([]float64, 4)); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("decision on NaN: %v", err)
	}
	if _, err := ParseKernel("poly"); err == nil {
		t.Error("kernel poly accepted")
	}
}

// TestSVMCancel: a cancelled context stops the solver with an error wrapping
// its cause.
func TestSVMCancel(t *testing.T) {
	x, y := gaussProblem(rand.New(rand.NewPCG(15, 16)), 100, 3, 1)
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("enough")
	cancel(cause)
	if _, err := Train(ctx, Problem{X: x, Y: y}, DefaultParams()); !errors.Is(err, cause) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestSVMScaleGamma: 1/(d var X) by hand, and 1 for constant data.
func TestSVMScaleGamma(t *testing.T) {
	// entries 0, 1, 2, 3: mean 1.5, variance (2.25 + 0.25 + 0.25 + 2.25)/4
	// = 1.25, d = 2: gamma = 1/2.5 = 0.4.
	x := mat.NewDense(3, 2, []float64{0, 1, 9, 9, 2, 3})
	if g := ScaleGamma(x, []int{0, 2}); math.Abs(g-0.4) > 1e-15 {
		t.Errorf("ScaleGamma = %v, want 0.4", g)
	}
	if g := ScaleGamma(mat.NewDense(2, 2, []float64{5, 5, 5, 5}), nil); g != 1 {
		t.Errorf("constant data: %v, want 1", g)
	}
}

// TestSVMPlattByHand: two decision values -1 (negative) and +1 (positive).
// The targets are 2/3 and 1/3; by symmetry B = 0 (also the start,
// log(2/2)), and p(+1) = 1/(1 + exp(A)) = 2/3 gives A = -ln 2.
func TestSVMPlattByHand(t *testing.T) {
	p, err := FitPlatt([]float64{-1, 1}, []bool{false, true})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Converged || math.Abs(p.A+math.Ln2) > 1e-8 || math.Abs(p.B) > 1e-12 {
		t.Errorf("A, B = %v, %v (converged %v); want -ln 2, 0", p.A, p.B, p.Converged)
	}
	if pr := p.Prob(1); math.Abs(pr-2.0/3) > 1e-8 {
		t.Errorf("P(+1 | f = 1) = %v, want 2/3", pr)
	}
	// Extreme decision values neither overflow nor give NaN.
	if a, b := p.Prob(1e308), p.Prob(-1e308); a != 1 || b != 0 {
		t.Errorf("Prob(+-1e308) = %v, %v", a, b)
	}
	if _, err := FitPlatt([]float64{1, 2}, []bool{true, true}); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v", err)
	}
	if _, err := FitPlatt([]float64{1, math.NaN()}, []bool{true, false}); err == nil {
		t.Error("NaN decision value accepted")
	}
}

// TestSVMElkanNoto: the weight w = ((1 - c)/c) g/(1 - g), by hand, clamped;
// the problem's layout.
func TestSVMElkanNoto(t *testing.T) {
	for _, c := range []struct{ c, g, w float64 }{
		{0.5, 0.25, 1.0 / 3}, // (0.5/0.5) (0.25/0.75)
		{0.8, 0.5, 0.25},     // (0.2/0.8) (0.5/0.5)
		{0.5, 0.9, 1},        // 9, clamped
		{0.5, 1, 1},          // the limit, no division by zero
		{0.5, 0, 0},
		{1, 0.5, 0},
	} {
		if w := ElkanNotoWeight(c.c, c.g); math.Abs(w-c.w) > 1e-15 {
			t.Errorf("ElkanNotoWeight(%v, %v) = %v, want %v", c.c, c.g, w, c.w)
		}
	}
	// Labeled rows 10 and 11 (g 0.6, 0.4: c = 0.5); unlabeled rows 12
	// (g 0.25: w = 1/3), 13 (g 0.9: w = 1, no negative), 14 (g 0: w = 0,
	// no positive).
	pr, c, err := ElkanNotoProblem([]int{10, 11, 12, 13, 14}, []bool{true, true, false, false, false}, []float64{0.6, 0.4, 0.25, 0.9, 0})
	if err != nil {
		t.Fatal(err)
	}
	wantRows := []int{10, 11, 12, 12, 13, 14}
	wantY := []bool{true, true, true, false, true, false}
	wantW := []float64{1, 1, 1.0 / 3, 2.0 / 3, 1, 1}
	if c != 0.5 || len(pr.Rows) != len(wantRows) {
		t.Fatalf("c = %v, problem %+v", c, pr)
	}
	for i := range wantRows {
		if pr.Rows[i] != wantRows[i] || pr.Y[i] != wantY[i] || math.Abs(pr.W[i]-wantW[i]) > 1e-15 {
			t.Errorf("instance %d: row %d, y %v, w %v; want %d, %v, %v", i, pr.Rows[i], pr.Y[i], pr.W[i], wantRows[i], wantY[i], wantW[i])
		}
	}
	if _, _, err := ElkanNotoProblem([]int{1}, []bool{false}, []float64{0.5}); err == nil {
		t.Error("no labeled row accepted")
	}
}

// TestSVMPlattCV: every instance's probability comes from the held-out
// decision value: it equals the sigmoid fitted to them applied to the
// decision value of the model that did not train on it.
func TestSVMPlattCV(t *testing.T) {
	x, y := gaussProblem(rand.New(rand.NewPCG(17, 18)), 90, 3, 2)
	rows := make([]int, 90)
	folds := make([]int, 90)
	for i := range rows {
		rows[i], folds[i] = i, i%3
	}
	p := DefaultParams()
	g, st, err := PlattCV(context.Background(), x, rows, y, folds, p)
	if err != nil {
		t.Fatal(err)
	}
	var tr []int
	var ty []bool
	for i := range rows {
		if folds[i] != 1 {
			tr, ty = append(tr, i), append(ty, y[i])
		}
	}
	m := train(t, Problem{X: x, Rows: tr, Y: ty}, p)
	out := make([]float64, 1)
	if err := m.Decision(x, []int{4}, out); err != nil { // row 4 is in fold 1
		t.Fatal(err)
	}
	if want := st.Platt.Prob(out[0]); g[4] != want || !st.Platt.Converged || st.Platt.A >= 0 {
		t.Errorf("g[4] = %v, want %v; sigmoid %+v", g[4], want, st.Platt)
	}
}

// TestSVMUnitScore: s(0) = 1/2, s(1) = 3/4, s(-1) = 1/4; f >= 0 gives s >=
// 1/2 and s < 1/2 only for f < 0; in [0, 1]; strictly increasing on
// values further apart than its resolution, non-decreasing on all; the
// inverse recovers f to that resolution (2^-53 absolute in s above 1/2,
// relative below).
func TestSVMUnitScore(t *testing.T) {
	fs := []float64{math.Inf(-1), -1e300, -1e15, -1e6, -37, -1, -1e-3, -1e-15, -1e-300, 0, 1e-300, 1e-15, 1e-3, 1, 37, 40, 1e6, 1e12, 1e300}
	strict := map[float64]bool{-1e15: true, -1e6: true, -37: true, -1: true, -1e-3: true, -1e-15: true, 1e-15: true, 1e-3: true, 1: true, 37: true, 40: true, 1e6: true, 1e12: true}
	prev := -1.0
	for _, f := range fs {
		s := UnitScore(f)
		if !(s >= 0 && s <= 1) || (f >= 0 && s < 0.5) || (s < 0.5 && f >= 0) || s < prev || (strict[f] && !(s > prev)) {
			t.Errorf("UnitScore(%v) = %v after %v", f, s, prev)
		}
		prev = s
		if math.IsInf(f, 0) || math.Abs(f) > 1e15 {
			continue
		}
		back := UnitScoreInverse(s)
		tol := 2.3e-16 * (1 + math.Abs(f))
		if f > 0 {
			tol *= 2 * (1 + f)
		}
		if math.Abs(back-f) > tol {
			t.Errorf("UnitScoreInverse(UnitScore(%v)) = %v", f, back)
		}
	}
	if UnitScore(0) != 0.5 || UnitScore(1) != 0.75 || UnitScore(-1) != 0.25 {
		t.Errorf("UnitScore(0, 1, -1) = %v, %v, %v", UnitScore(0), UnitScore(1), UnitScore(-1))
	}
}
