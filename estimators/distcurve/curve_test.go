package distcurve

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/internal/interrupt"
)

// bruteAveraged is the O(|M|^2) reference of the published code: for each
// draw, scan every mixture point in its original order and remove the alive
// one with the smallest math.Abs(x - c), the first in the slice on ties
// (numpy argmin). It consumes the draws exactly like Curve.
func bruteAveraged(component, mixture []float64, repeats int, rng *rand.Rand) []float64 {
	n := len(mixture)
	acc := make([]float64, n)
	alive := make([]bool, n)
	for range repeats {
		for i := range alive {
			alive[i] = true
		}
		for j := range n {
			c := component[rng.IntN(len(component))]
			best, bestD := -1, 0.0
			for i, x := range mixture {
				if !alive[i] {
					continue
				}
				d := math.Abs(x - c)
				if best < 0 || d < bestD {
					best, bestD = i, d
				}
			}
			alive[best] = false
			acc[j] += bestD
		}
	}
	for j := range acc {
		acc[j] /= float64(repeats)
	}
	return acc
}

// bruteCurve is numpy.percentile(avg, 0..99) (linear) / its sum, written
// independently of curveOf.
func bruteCurve(avg []float64) []float64 {
	s := slices.Clone(avg)
	slices.Sort(s)
	out := make([]float64, 100)
	sum := 0.0
	for p := range out {
		h := float64(p) / 100 * float64(len(s)-1)
		lo := int(h)
		v := s[lo]
		if lo+1 < len(s) {
			v += (h - float64(lo)) * (s[lo+1] - s[lo])
		}
		out[p] = v
		sum += v
	}
	for p := range out {
		out[p] /= sum
	}
	return out
}

type curveCase struct {
	name               string
	component, mixture []float64
	repeats            int
}

func curveCases() []curveCase {
	r := rand.New(rand.NewPCG(11, 12))
	cont := func(n int, shift float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = r.NormFloat64() + shift
		}
		return x
	}
	grid := func(n int, vals []float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = vals[r.IntN(len(vals))]
		}
		return x
	}
	sim, _ := Recipe{MixtureMin: 1500, MixtureMax: 1500, ComponentMin: 300, ComponentMax: 300, AlphaMin: 0.4, AlphaMax: 0.4}.
		Sample(ParamSet{A0: 4, B0: 12, A1: 6, B1: 14, Seed: 3}, 0)
	return []curveCase{
		{"continuous", cont(120, 1), cont(700, 0), 3},
		{"recipe-beta", sim.Component, sim.Mixture, 10},
		// Dyadic values: distances are exact, so a component value
		// halfway between two mixture values ties left against right, and
		// every mixture value is duplicated many times.
		{"ties", grid(40, []float64{0.125, 0.375, 0.5, 1, -0.25, 0.625}), grid(400, []float64{0, 0.25, 0.5, 0.75, 1}), 4},
		{"ties-one-component", []float64{0.5}, grid(60, []float64{0.25, 0.75, 0.5, 0.25}), 2},
		{"one-mixture-point", cont(10, 0), []float64{0.3}, 5},
		{"small-integers", grid(7, []float64{1, 2, 3, 4}), grid(300, []float64{0, 1, 2, 3, 4, 5, 6}), 10},
	}
}

// Acceptance (issue 16): the fast curve equals the brute-force O(|M|^2)
// version for a fixed draw sequence, to 1e-12 (here: exactly, as both
// compute the same distances in the same order).
func TestCurveMatchesBruteForce(t *testing.T) {
	for _, tc := range curveCases() {
		t.Run(tc.name, func(t *testing.T) {
			const seed = 2024
			want := bruteAveraged(tc.component, tc.mixture, tc.repeats, rand.New(rand.NewPCG(seed, 1)))
			rng := rand.New(rand.NewPCG(seed, 1))
			nc := len(tc.component)
			got := averagedDistances(tc.component, tc.mixture, tc.repeats, func() int { return rng.IntN(nc) })
			for j := range want {
				if got[j] != want[j] {
					t.Fatalf("averaged distance %d: fast %v, brute force %v", j, got[j], want[j])
				}
			}
			curve, err := Curve(tc.component, tc.mixture, tc.repeats, rand.New(rand.NewPCG(seed, 1)))
			if err != nil {
				t.Fatal(err)
			}
			wantCurve := bruteCurve(want)
			for p := range wantCurve {
				if math.Abs(curve[p]-wantCurve[p]) > 1e-12 {
					t.Fatalf("curve[%d]: fast %v, brute force %v", p, curve[p], wantCurve[p])
				}
			}
		})
	}
}

// The tie rule, worked by hand with c = 0.5 (dyadic values, so the
// distances are exact): points at equal distance on either side or with
// equal values are removed in mixture-slice order (numpy argmin).
func TestTakeTieRule(t *testing.T) {
	cases := []struct {
		mix   []float64
		order []int
		dists []float64
	}{
		{[]float64{0.75, 0.25, 0.25}, []int{0, 1, 2}, []float64{0.25, 0.25, 0.25}},
		{[]float64{0.25, 0.75, 0.75, 0.25}, []int{0, 1, 2, 3}, []float64{0.25, 0.25, 0.25, 0.25}},
		{[]float64{0.75, 0.5, 0.25, 0.5}, []int{1, 3, 0, 2}, []float64{0, 0, 0.25, 0.25}},
		{[]float64{1, 0.125, 0.875, 0}, []int{1, 2, 0, 3}, []float64{0.375, 0.375, 0.5, 0.5}},
	}
	for _, tc := range cases {
		r := newRemover(tc.mix)
		r.reset()
		lb, _ := slices.BinarySearch(r.val, 0.5)
		var order []int
		var dists []float64
		for range tc.mix {
			d, i := r.take(0.5, lb)
			order = append(order, i)
			dists = append(dists, d)
		}
		if !slices.Equal(order, tc.order) || !slices.Equal(dists, tc.dists) {
			t.Errorf("mixture %v: removal order %v distances %v, want %v %v", tc.mix, order, dists, tc.order, tc.dists)
		}
	}
}

func TestCurveProperties(t *testing.T) {
	for _, tc := range curveCases() {
		c, err := Curve(tc.component, tc.mixture, tc.repeats, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(c) != Points {
			t.Fatalf("%s: %d points", tc.name, len(c))
		}
		sum := 0.0
		for p, v := range c {
			if v < 0 || (p > 0 && v < c[p-1]) {
				t.Fatalf("%s: curve not non-decreasing/non-negative at %d: %v", tc.name, p, c)
			}
			sum += v
		}
		// Source: L1 normalisation (step 4 of Curve).
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("%s: sum %v, want 1", tc.name, sum)
		}
	}
}

// A single mixture point: every repeat records |x - c| for the one draw, so
// the averaged vector has one value and all 100 percentiles equal it: the
// normalised curve is 1/100 everywhere (worked by hand).
func TestCurveSinglePoint(t *testing.T) {
	c, err := Curve([]float64{0, 1}, []float64{0.3}, 10, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for p, v := range c {
		if math.Abs(v-0.01) > 1e-15 {
			t.Fatalf("curve[%d] = %v, want 0.01", p, v)
		}
	}
}

func TestCurveDeterministic(t *testing.T) {
	tc := curveCases()[0]
	a, err := Curve(tc.component, tc.mixture, 10, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Curve(tc.component, tc.mixture, 10, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Fatal("same seed, different curves")
	}
	c, err := Curve(tc.component, tc.mixture, 10, rand.New(rand.NewPCG(7, 8)))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(a, c) {
		t.Fatal("different seeds, identical curves")
	}
}

func TestCurveErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	ok := []float64{0.1, 0.2}
	cases := []struct {
		name    string
		c, m    []float64
		repeats int
		rng     *rand.Rand
	}{
		{"empty component", nil, ok, 1, rng},
		{"empty mixture", ok, []float64{}, 1, rng},
		{"nan", []float64{math.NaN()}, ok, 1, rng},
		{"inf", ok, []float64{0.1, math.Inf(-1)}, 1, rng},
		{"repeats", ok, ok, 0, rng},
		{"nil rng", ok, ok, 1, nil},
		{"zero distances", []float64{0.5}, []float64{0.5, 0.5}, 3, rng},
	}
	for _, tc := range cases {
		if _, err := Curve(tc.c, tc.m, tc.repeats, tc.rng); !errors.Is(err, ErrInput) {
			t.Errorf("%s: err %v, want ErrInput", tc.name, err)
		}
	}
}

// Fuzz the fast removal against the brute force on small tied inputs.
func FuzzCurveBruteForce(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5}, []byte{2, 2, 4, 4, 6, 0}, uint64(1))
	f.Add([]byte{8}, []byte{0, 16, 16, 0, 8}, uint64(9))
	f.Fuzz(func(t *testing.T, cb, mb []byte, seed uint64) {
		if len(cb) == 0 || len(mb) == 0 || len(mb) > 200 {
			return
		}
		conv := func(b []byte) []float64 {
			x := make([]float64, len(b))
			for i, v := range b {
				x[i] = float64(v%32) / 8
			}
			return x
		}
		c, m := conv(cb), conv(mb)
		want := bruteAveraged(c, m, 2, rand.New(rand.NewPCG(seed, 0)))
		rng := rand.New(rand.NewPCG(seed, 0))
		got := averagedDistances(c, m, 2, func() int { return rng.IntN(len(c)) })
		if !slices.Equal(got, want) {
			t.Fatalf("fast %v, brute force %v", got, want)
		}
	})
}

// countingSource is a PCG that counts its draws.
type countingSource struct {
	rand.PCG
	n int
}

func (s *countingSource) Uint64() uint64 { s.n++; return s.PCG.Uint64() }

// TestCurveStopsWhenCancelled: a context cancelled at its k-th check
// (interrupt.Countdown, no clock) stops CurveContext with context.Canceled
// after at most k interrupt.Every draws: the sorts, the lookups and every
// removal pass ask it. A cancellation that comes in the first sort stops
// the curve before its first draw; later ones stop it mid-pass. Before,
// a curve ran all its repeats (here 10 x 200,000 draws) whatever the
// context.
func TestCurveStopsWhenCancelled(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	mix, comp := make([]float64, 200_000), make([]float64, 50_000)
	for i := range mix {
		mix[i] = r.Float64()
	}
	for i := range comp {
		comp[i] = r.Float64() * 0.5
	}
	// The checks of a whole curve, counted; then cancellations at the
	// first, the third, the middle one and the last.
	all := interrupt.NewCountdown(1 << 62)
	if _, err := CurveContext(all, comp, mix, DefaultRepeats, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	total := all.Calls()
	for _, k := range []int64{1, 3, total / 2, total} {
		ctx := interrupt.NewCountdown(k)
		src := &countingSource{PCG: *rand.NewPCG(1, 2)}
		_, err := CurveContext(ctx, comp, mix, DefaultRepeats, rand.New(src))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled at check %d: %v, want context.Canceled", k, err)
		}
		if limit := int(k) * interrupt.Every; src.n > limit {
			t.Errorf("cancelled at check %d: %d draws, want at most %d", k, src.n, limit)
		}
		if k == 1 && src.n != 0 {
			t.Errorf("cancelled at the first check: %d draws, want none", src.n)
		}
		if k == total/2 && src.n == 0 {
			t.Errorf("cancelled at check %d of %d: no draw made: the test no longer reaches the removal passes", k, total)
		}
	}
	// Not cancelled: Curve's result, bit for bit.
	want, err := Curve(comp[:500], mix[:2000], 3, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := CurveContext(context.Background(), comp[:500], mix[:2000], 3, rand.New(rand.NewPCG(1, 2)))
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("CurveContext %v, %v; Curve %v", got[:3], err, want[:3])
	}
}
