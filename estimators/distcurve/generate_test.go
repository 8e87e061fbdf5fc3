package distcurve

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Source: the recipe (papers-next.md section 2.4): a0 in [2, 100],
// b0/a0 in [1, 10], a1/a0 and b1/b0 in [1, 2] (1 + Beta(.5, .5)).
func TestDrawParamsRanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var lo, hi [4]float64
	for i := range lo {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
	}
	for range 20000 {
		p := DrawParams(rng)
		v := [4]float64{p.A0, p.B0 / p.A0, p.A1 / p.A0, p.B1 / p.B0}
		for i := range v {
			lo[i], hi[i] = min(lo[i], v[i]), max(hi[i], v[i])
		}
	}
	want := [4][2]float64{{2, 100}, {1, 10}, {1, 2}, {1, 2}}
	for i, w := range want {
		if lo[i] < w[0] || hi[i] > w[1] {
			t.Errorf("parameter %d: range [%v, %v] outside %v", i, lo[i], hi[i], w)
		}
		// 20,000 uniform-ish draws come within 1 % of both ends.
		if lo[i] > w[0]+0.01*(w[1]-w[0]) || hi[i] < w[1]-0.01*(w[1]-w[0]) {
			t.Errorf("parameter %d: range [%v, %v] does not cover %v", i, lo[i], hi[i], w)
		}
	}
}

// Source: the recipe's sizes and prior ranges; the mixture mean is
// alpha m1 + (1 - alpha) m0 with m = a/(a + b) (Beta mean), checked to 5
// standard errors.
func TestSampleRanges(t *testing.T) {
	r := DefaultRecipe(100)
	ps := ParamSet{A0: 5, B0: 20, A1: 9, B1: 30, Seed: 77}
	for k := range 30 {
		s, _ := r.Sample(ps, k)
		if len(s.Mixture) < 1000 || len(s.Mixture) > 9999 || len(s.Component) < 100 || len(s.Component) > 4999 {
			t.Fatalf("sizes %d %d", len(s.Mixture), len(s.Component))
		}
		if s.Alpha < 0.01 || s.Alpha > 1 {
			t.Fatalf("alpha %v", s.Alpha)
		}
		m0, m1 := 5.0/25, 9.0/39
		want := s.Alpha*m1 + (1-s.Alpha)*m0
		mean, sd := meanSD(s.Mixture)
		if math.Abs(mean-want) > 5*sd/math.Sqrt(float64(len(s.Mixture))) {
			t.Errorf("sample %d: mixture mean %v, want %v", k, mean, want)
		}
		cm, csd := meanSD(s.Component)
		if math.Abs(cm-m1) > 5*csd/math.Sqrt(float64(len(s.Component))) {
			t.Errorf("sample %d: component mean %v, want %v", k, cm, m1)
		}
	}
}

func meanSD(x []float64) (float64, float64) {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return m, math.Sqrt(s / float64(len(x)-1))
}

// Source: E[d] = 2 TV/(1 + TV) (the two numerator terms each estimate TV,
// the denominator estimates the integral of max(f0, f1) = 1 + TV), TV by a
// 200,000-point midpoint rule; Monte-Carlo tolerance 0.01 at 50,000 draws
// per side (standard error about 0.002).
func TestYangDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	if d := YangDistance(4, 7, 4, 7, 1000, rng); d != 0 {
		t.Errorf("identical distributions: %v, want 0", d)
	}
	if d := YangDistance(2, 200, 200, 2, 1000, rng); math.Abs(d-1) > 1e-9 {
		t.Errorf("disjoint distributions: %v, want 1", d)
	}
	for _, p := range [][4]float64{{2, 5, 3, 5}, {10, 40, 15, 45}, {50, 100, 60, 110}} {
		f0, f1 := betaLogPDF(p[0], p[1]), betaLogPDF(p[2], p[3])
		const n = 200000
		tv := 0.0
		for i := range n {
			x := (float64(i) + 0.5) / n
			tv += math.Abs(math.Exp(f0(x))-math.Exp(f1(x))) / 2 / n
		}
		want := 2 * tv / (1 + tv)
		got := YangDistance(p[0], p[1], p[2], p[3], 50000, rng)
		if math.Abs(got-want) > 0.01 {
			t.Errorf("%v: distance %v, want %v (TV %v)", p, got, want, tv)
		}
	}
}

// With Curves = Bins x SamplesPerSet every bin takes exactly one set.
func TestParamSetsStratified(t *testing.T) {
	r := DefaultRecipe(200)
	r.Bins, r.SamplesPerSet, r.YangDraws = 20, 10, 200
	sets, err := r.ParamSets(4)
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 20 {
		t.Fatalf("%d sets, want 20", len(sets))
	}
	var bins []int
	for _, s := range sets {
		if s.Bin != int(s.Distance*20) {
			t.Fatalf("distance %v in bin %d", s.Distance, s.Bin)
		}
		bins = append(bins, s.Bin)
	}
	slices.Sort(bins)
	for i, b := range bins {
		if b != i {
			t.Fatalf("bins %v, want 0..19 once each", bins)
		}
	}
	r.MaxDraws = 3
	if _, err := r.ParamSets(4); err == nil {
		t.Fatal("MaxDraws not enforced")
	}
}

func TestGenerateIndependentOfWorkers(t *testing.T) {
	r := DefaultRecipe(12)
	r.Bins, r.SamplesPerSet, r.YangDraws = 4, 3, 100
	r.MixtureMin, r.MixtureMax, r.ComponentMin, r.ComponentMax = 200, 400, 50, 100
	a, err := r.Generate(context.Background(), 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Generate(context.Background(), 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 12 || len(b) != 12 {
		t.Fatalf("%d and %d examples, want 12", len(a), len(b))
	}
	for i := range a {
		if !slices.Equal(a[i].Curve, b[i].Curve) || a[i].Alpha != b[i].Alpha {
			t.Fatalf("example %d differs between 1 and 3 workers", i)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Generate(ctx, 8, 1); err == nil {
		t.Fatal("cancelled context ignored")
	}
}

// Source: the minimum of f0/f1 found by a 100,000-point grid search on
// (0, 1) plus the points 1e-12 and 1 - 1e-12, relative tolerance 1e-6 (the closed form is exact; the grid's
// resolution limits the comparison).
func TestMinRatio(t *testing.T) {
	for _, p := range [][4]float64{{2, 5, 3, 7}, {10, 40, 15, 45}, {5, 20, 5, 30}, {5, 20, 8, 20}, {3, 3, 3, 3}} {
		f0, f1 := betaLogPDF(p[0], p[1]), betaLogPDF(p[2], p[3])
		m := min(f0(1e-12)-f1(1e-12), f0(1-1e-12)-f1(1-1e-12)) // the ends, for minima there
		for i := 1; i < 100000; i++ {
			x := float64(i) / 100000
			m = min(m, f0(x)-f1(x))
		}
		want := math.Min(1, math.Exp(m))
		got := minRatio(p[0], p[1], p[2], p[3])
		if math.Abs(got-want) > 1e-6*want+1e-9 {
			t.Errorf("%v: minRatio %v, grid %v", p, got, want)
		}
	}
	if got := minRatio(5, 5, 4, 6); got != 0 {
		t.Errorf("a1 < a0: %v, want 0", got)
	}
}
