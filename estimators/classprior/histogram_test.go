package classprior

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestBinWidth(t *testing.T) {
	// s*(0, 0.1, ..., 0.9) has std s*sqrt(0.825/9) = s*0.302765, so Scott's
	// raw width is 3.5*s*0.302765/10^(1/3) = s*0.491860; binpicker rounds
	// raw/10^floor(log10(raw)) below 1.5, 2.5, 4, 7.5 to 1, 2, 3, 5, else 10.
	tenths := func(s float64) []float64 {
		x := make([]float64, 10)
		for i := range x {
			x[i] = s * float64(i) / 10
		}
		return x
	}
	tenth := 0.1 // a variable: the products below round as at run time (Go constants are exact)
	for _, c := range []struct {
		name string
		x    []float64
		want float64
	}{
		{"raw 0.1476 -> 1", tenths(0.3), tenth},
		{"raw 0.2459 -> 2", tenths(0.5), 2 * tenth},
		{"raw 0.3443 -> 3", tenths(0.7), 3 * tenth}, // 0.30000000000000004, as in MATLAB
		{"raw 0.4919 -> 5", tenths(1), 5 * tenth},
		{"raw 0.7870 -> 10", tenths(1.6), 10 * tenth},
		// Integers spanning at most 50: MATLAB's integer rule, width 1.
		{"integers", []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3}, 1},
		// Integers spanning more than 50 go to Scott: raw 49.186 -> 50.
		{"wide integers", tenths(100), 50},
	} {
		if got, err := binWidth(c.x); err != nil || got != c.want {
			t.Errorf("%s: binWidth = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	if _, err := binWidth([]float64{2, 2, 2}); err == nil || !strings.Contains(err.Error(), "equal") {
		t.Errorf("constant sample: err %v", err)
	}
}

func TestPow10Floor(t *testing.T) {
	// Exact powers of ten map to themselves; others to the power below.
	for _, c := range []struct{ x, want float64 }{
		{1, 1}, {0.1, 0.1}, {1000, 1000}, {1e-3, 1e-3}, {0.0999, 0.01}, {9.99, 1}, {12, 10},
	} {
		if got := pow10Floor(c.x); got != c.want {
			t.Errorf("pow10Floor(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// TestClosedIntervals: with width 1 from integer data, edges lie on the
// integers; a point on an interior edge belongs to both neighbouring bins,
// and xmax lands on an edge too because the edges run to xmax + w.
func TestClosedIntervals(t *testing.T) {
	mix := []float64{0, 0.5, 1, 1.5, 2, 2.5, 3, 3, 3, 0.25}
	comp := []float64{0, 1, 2, 3, 1, 2, 3, 1, 2, 3}
	h, err := newHistogram(mix, comp)
	if err != nil {
		t.Fatal(err)
	}
	if h.width != 1 || h.nBins != 4 { // edges 0, 1, 2, 3, 4
		t.Fatalf("width %v bins %d, want 1 and 4", h.width, h.nBins)
	}
	for _, c := range []struct {
		v      float64
		k      int
		shared bool
	}{{0, 0, false}, {0.5, 0, false}, {1, 0, true}, {2.5, 2, false}, {3, 2, true}} {
		if k, s := h.locate(c.v); k != c.k || s != c.shared {
			t.Errorf("locate(%v) = %d %v, want %d %v", c.v, k, s, c.k, c.shared)
		}
	}
	// Mixture: inside bin 0: 0, 0.5, 0.25; bin 1: 1.5; bin 2: 2.5; on edges
	// 1|2: 1, 2|3: 2, 3|4: 3 (three times). Bin 3 = [3, 4] holds only edge points.
	wantIn := []float64{3, 1, 1, 0}
	wantEdge := []float64{1, 1, 3}
	for i := range wantIn {
		if h.mixIn[i] != wantIn[i] {
			t.Errorf("mixIn = %v, want %v", h.mixIn, wantIn)
			break
		}
	}
	for i := range wantEdge {
		if h.mixEdge[i] != wantEdge[i] {
			t.Errorf("mixEdge = %v, want %v", h.mixEdge, wantEdge)
			break
		}
	}
}

// TestShiftedEdges: the integer data of TestClosedIntervals (width 1, edges
// on the integers) with the origin moved half a bin down: the edges are
// -0.5, 0.5, ..., 3.5, so 0.5, 1.5 and 2.5 now lie on edges and the integers
// inside bins.
func TestShiftedEdges(t *testing.T) {
	mix := []float64{0, 0.5, 1, 1.5, 2, 2.5, 3, 3, 3, 0.25}
	comp := []float64{0, 1, 2, 3, 1, 2, 3, 1, 2, 3}
	h, err := newHistogramAt(mix, comp, 1, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if h.xmin != -0.5 || h.nBins != 4 { // edges -0.5, 0.5, 1.5, 2.5, 3.5
		t.Fatalf("xmin %v bins %d, want -0.5 and 4", h.xmin, h.nBins)
	}
	// Mixture: inside [-0.5, 0.5]: 0, 0.25; [0.5, 1.5]: 1; [1.5, 2.5]: 2;
	// [2.5, 3.5]: 3 (three times); on edges 0.5, 1.5, 2.5: one each.
	wantIn := []float64{2, 1, 1, 3}
	wantEdge := []float64{1, 1, 1}
	if !slices.Equal(h.mixIn, wantIn) || !slices.Equal(h.mixEdge, wantEdge) {
		t.Errorf("mixIn %v, mixEdge %v; want %v, %v", h.mixIn, h.mixEdge, wantIn, wantEdge)
	}
	// The component's integers all lie inside bins: 1, 3, 3, 3.
	if want := []float64{1, 3, 3, 3}; !slices.Equal(h.compIn, want) {
		t.Errorf("compIn %v, want %v", h.compIn, want)
	}
}

// TestEMWeights: two points inside bin 0 and two on the edge it shares with
// bin 1. From equal weights, EM gives bin 1 the weight 2*w1/(w0+w1)/4 = w1/2
// each step (w0 + w1 = 1), so after 1000 steps w1 = 0.5^1001 and w0 = 1 - w1.
func TestEMWeights(t *testing.T) {
	w, _ := emWeights(context.Background(), []float64{2, 0}, []float64{2}, 4)
	if want := math.Pow(0.5, 1001); math.Abs(w[1]-want) > 1e-9*want || w[0] != 1 { // 1 - 0.5^1001 rounds to 1
		t.Errorf("weights %v, want [1 %g]", w, want)
	}
	// No edge points: relative frequencies.
	w, _ = emWeights(context.Background(), []float64{1, 3}, []float64{0}, 4)
	if w[0] != 0.25 || w[1] != 0.75 {
		t.Errorf("weights %v, want [0.25 0.75]", w)
	}
}

// TestSeparableKKT checks the multiplier search against the optimality
// conditions of the separable problem on random instances: with
// g_i(b) = c_i/b - d_i a_i/(a_i(1-b) + alpha p_i) the derivative of bin i's
// term, g_i(beta_i) = lambda a_i where 0 < beta_i < 1, g_i <= lambda a_i where
// beta_i = 0 and g_i >= lambda a_i where beta_i = 1, and sum a_i beta_i = alpha.
func TestSeparableKKT(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		m := 2 + rng.IntN(30)
		s := separable{a: make([]float64, m), p: make([]float64, m), c: make([]float64, m), d: make([]float64, m)}
		var sa, sp float64
		for i := range m {
			s.a[i] = rng.Float64()
			s.p[i] = rng.Float64() * float64(rng.IntN(2)) // some bins without component mass
			sa += s.a[i]
			sp += s.p[i]
		}
		if sp == 0 {
			s.p[0], sp = 1, 1
		}
		for i := range m {
			s.a[i] /= sa
			s.p[i] /= sp
			s.c[i], s.d[i] = s.p[i], s.a[i] // no edge points: c = p, d = a
		}
		s.alpha = []float64{0.001, 0.01, 0.3, 0.7, 0.99}[trial%5]
		beta := make([]float64, m)
		lam, err := s.solve(0, beta)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for i := range m {
			sum += s.a[i] * beta[i]
			b := beta[i]
			g := func(b float64) float64 {
				v := -s.d[i] * s.a[i] / (s.a[i]*(1-b) + s.alpha*s.p[i])
				if s.c[i] > 0 {
					v += s.c[i] / b
				}
				return v
			}
			target := lam * s.a[i]
			tol := 1e-9 * (math.Abs(target) + 1)
			switch {
			case b <= 0:
				if g(0) > target+tol && s.c[i] == 0 {
					t.Errorf("trial %d bin %d: beta 0 but g(0) = %v > lambda a = %v", trial, i, g(0), target)
				}
			case b >= 1:
				if g(1) < target-tol {
					t.Errorf("trial %d bin %d: beta 1 but g(1) = %v < lambda a = %v", trial, i, g(1), target)
				}
			default:
				if math.Abs(g(b)-target) > 1e-7*(math.Abs(target)+1) {
					t.Errorf("trial %d bin %d: beta %v, g = %v, lambda a = %v", trial, i, b, g(b), target)
				}
			}
		}
		if math.Abs(sum-s.alpha) > 1e-12 {
			t.Errorf("trial %d: sum a beta = %v, want %v", trial, sum, s.alpha)
		}
	}
}
