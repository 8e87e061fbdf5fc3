package classprior

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

func parseFloats(t *testing.T, s string) []float64 {
	t.Helper()
	var out []float64
	for _, f := range strings.Split(strings.TrimSpace(s), ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestKneeScoresOracle compares the published and fixed knee scores with
// testdata/knee_oracle.txt, written by testdata/knee_oracle.py: an
// independent numpy re-implementation of inflectionScript that solves each
// constrained line fit with scipy's SLSQP instead of exactly. The curves
// (testdata/knee_curves.txt) are -loglik curves of two synthetic samples on
// the published grid: clean labels, N(4,1) vs N(0,1), alpha 0.05, the second
// AlphaMax-N run (the late-bend failure: both rules pick 0.85); and
// N(2,1) vs N(0,1), alpha 0.25, beta 0.75, the first run (the stale left
// slope moves the pick from 0.37 to 0.38).
func TestKneeScoresOracle(t *testing.T) {
	curves, err := os.ReadFile("testdata/knee_curves.txt")
	if err != nil {
		t.Fatal(err)
	}
	oracle, err := os.ReadFile("testdata/knee_oracle.txt")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Knee: KneePublished}.WithDefaults()
	grid, err := o.points()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(oracle)), "\n")
	for ci, line := range strings.Split(strings.TrimSpace(string(curves)), "\n") {
		neg := parseFloats(t, line)
		f, _ := normalise(smooth(grid, neg, 5))
		for si, stale := range []bool{true, false} {
			fields := strings.Fields(want[2*ci+si])
			wantIdx, _ := strconv.Atoi(fields[1])
			wantSr := parseFloats(t, fields[2])
			sr := kneeScores(grid, f, 10, stale)
			for j := range sr {
				// SLSQP's fits are good to about 1e-9 in the slopes; the scores
				// divide by at least 0.01.
				if math.Abs(sr[j]-wantSr[j]) > 1e-6*math.Max(1, math.Abs(wantSr[j])) {
					t.Errorf("curve %d %s: score %d = %.12g, oracle %.12g", ci, fields[0], j, sr[j], wantSr[j])
				}
			}
			if got := argmax(sr); got != wantIdx {
				t.Errorf("curve %d %s: argmax %d (alpha %v), oracle %d", ci, fields[0], got, grid[got], wantIdx)
			}
		}
	}
}

// bruteFit solves the constrained line fit by enumerating every active set
// of at most two constraints among all n points and the slope bound (the
// definition of a solution of a two-variable convex QP), without the convex
// hull.
func bruteFit(x, f []float64, lo, hi int, minSlope float64) (b0, b1 float64) {
	feasible := func(c0, c1 float64) bool {
		if c1 < minSlope-1e-12 {
			return false
		}
		for i := range x {
			if c0+c1*x[i] > f[i]+1e-12 {
				return false
			}
		}
		return true
	}
	sse := func(c0, c1 float64) float64 {
		s := 0.0
		for i := lo; i < hi; i++ {
			r := c0 + c1*x[i] - f[i]
			s += r * r
		}
		return s
	}
	best := math.Inf(1)
	try := func(c0, c1 float64) {
		if feasible(c0, c1) {
			if s := sse(c0, c1); s < best {
				best, b0, b1 = s, c0, c1
			}
		}
	}
	var mx, my, sxx, sxy float64
	m := float64(hi - lo)
	for i := lo; i < hi; i++ {
		mx += x[i] / m
		my += f[i] / m
	}
	for i := lo; i < hi; i++ {
		sxx += (x[i] - mx) * (x[i] - mx)
		sxy += (x[i] - mx) * (f[i] - my)
	}
	try(my-sxy/sxx*mx, sxy/sxx)
	try(my-minSlope*mx, minSlope)
	for v := range x {
		try(f[v]-minSlope*x[v], minSlope)
		var num, den float64
		for i := lo; i < hi; i++ {
			num += (x[i] - x[v]) * (f[i] - f[v])
			den += (x[i] - x[v]) * (x[i] - x[v])
		}
		c1 := num / den
		try(f[v]-c1*x[v], c1)
		for w := v + 1; w < len(x); w++ {
			c1 := (f[w] - f[v]) / (x[w] - x[v])
			try(f[v]-c1*x[v], c1)
		}
	}
	return b0, b1
}

// TestLineFitBruteForce checks the hull-based exact line fit against the
// exhaustive active-set enumeration on random monotone curves.
func TestLineFitBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 25
		x, f := make([]float64, n), make([]float64, n)
		v := 0.0
		for i := range x {
			x[i] = float64(i+1) / 100
			v += rng.Float64() * rng.Float64() * 3 // rough, non-decreasing
			f[i] = v
		}
		f, _ = normalise(f)
		minSlope := (f[n-1] - f[0]) / (x[n-1] - x[0]) / 100
		if trial%3 == 0 {
			minSlope *= 80 // make the slope bound bind
		}
		lf := newLineFitter(x, f, minSlope)
		for lo := 0; lo+5 <= n; lo += 4 {
			g0, g1 := lf.fit(lo, lo+5)
			w0, w1 := bruteFit(x, f, lo, lo+5, minSlope)
			if math.Abs(g0-w0) > 1e-9 || math.Abs(g1-w1) > 1e-9 {
				t.Fatalf("trial %d window %d: fit (%.12g, %.12g), brute force (%.12g, %.12g)", trial, lo, g0, g1, w0, w1)
			}
		}
	}
}

func TestSmoothKnn(t *testing.T) {
	// By hand: k = 5 nearest on a uniform grid are a window of 5, shifted at
	// the ends; on 0.001, 0.002, 0.004, 0.01, 0.02, 0.03 the 5 nearest of
	// 0.02 are 0.002 .. 0.03 (0.001 is 0.019 away, 0.002 only 0.018).
	x := []float64{0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07}
	f := []float64{5, 1, 4, 2, 3, 7, 6}
	got := smooth(x, f, 5)
	want := []float64{3, 3, 3, 3, 4, 4, 4} // medians of f[0:5] three times, f[1:6], f[2:7] three times
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("smooth = %v, want %v", got, want)
		}
	}
	x = []float64{0.001, 0.002, 0.004, 0.01, 0.02, 0.03}
	f = []float64{0, 1, 2, 3, 4, 5}
	if got := smooth(x, f, 5)[4]; got != 3 { // median of 1, 2, 3, 4, 5
		t.Errorf("smoothed value at 0.02 = %v, want 3", got)
	}
}

func TestConcaveStartAndDrop(t *testing.T) {
	x := []float64{0.001, 0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9}
	// Concave from the start: average slope 0.5/0.099 over [0.001, 0.1]
	// exceeds 0.3/0.6 over [0.1, 0.7].
	f := []float64{0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 1}
	if got := concaveStart(x, f, 6); got != 0 {
		t.Errorf("concave curve: %d, want 0", got)
	}
	// Flat, then rising: keep the knee.
	f = []float64{0, 0, 0, 0.01, 0.02, 0.1, 0.5, 1}
	if got := concaveStart(x, f, 5); got != 5 {
		t.Errorf("convex curve: %d, want 5", got)
	}
	// A knee at or before 0.1 is kept whatever the shape.
	f = []float64{0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 1}
	if got := concaveStart(x, f, 2); got != 2 {
		t.Errorf("early knee: %d, want 2", got)
	}
	// dropIndex: the last point within tau of the first.
	ll := []float64{-1, -1, -1.0625, -1.125, -1.5} // exact in binary
	if got := dropIndex(ll, 0.125); got != 3 {
		t.Errorf("dropIndex = %d, want 3", got)
	}
}
