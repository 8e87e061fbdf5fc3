package report

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// spearmanDirect is the O(n^2) definition: rank of i = #{j: x_j < x_i} +
// (#{j: x_j == x_i} + 1)/2 (i counted among the equal ones), then Pearson
// from the raw sums: (n Sxy - Sx Sy) / sqrt((n Sxx - Sx^2)(n Syy - Sy^2)).
func spearmanDirect(x, y []float64) float64 {
	rank := func(v []float64) []float64 {
		r := make([]float64, len(v))
		for i := range v {
			var less, equal float64
			for j := range v {
				switch {
				case v[j] < v[i]:
					less++
				case v[j] == v[i]:
					equal++
				}
			}
			r[i] = less + (equal+1)/2
		}
		return r
	}
	rx, ry := rank(x), rank(y)
	n := float64(len(x))
	var sx, sy, sxx, syy, sxy float64
	for i := range rx {
		sx += rx[i]
		sy += ry[i]
		sxx += rx[i] * rx[i]
		syy += ry[i] * ry[i]
		sxy += rx[i] * ry[i]
	}
	return (n*sxy - sx*sy) / math.Sqrt((n*sxx-sx*sx)*(n*syy-sy*sy))
}

// TestSpearmanAgainstDefinition: random vectors with many ties (values
// drawn from a few levels), lengths 2 to 300.
func TestSpearmanAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		n := 2 + rng.IntN(299)
		levels := 1 + rng.IntN(8) // few levels: many ties
		if trial%4 == 0 {
			levels = 1000 // mostly distinct
		}
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = float64(rng.IntN(levels)) / 7
			// y correlated with x half the time
			if trial%2 == 0 {
				y[i] = x[i] + float64(rng.IntN(levels))/5
			} else {
				y[i] = float64(rng.IntN(levels)) * 0.3
			}
		}
		got, err := Spearman(x, y)
		want := spearmanDirect(x, y)
		if math.IsNaN(want) { // a constant vector
			if !errors.Is(err, ErrNoRankVariance) || !math.IsNaN(got) {
				t.Fatalf("trial %d: constant sample: got %v, %v", trial, got, err)
			}
			continue
		}
		if err != nil || math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d (n %d, %d levels): %v (err %v), definition %v", trial, n, levels, got, err, want)
		}
	}
}

// TestSpearmanByHand: x = [1,2,2,3] ranks [1, 2.5, 2.5, 4]; y = [1,3,2,4]
// ranks [1, 3, 2, 4]. Both rank means are 2.5; deviations dx = [-1.5, 0,
// 0, 1.5], dy = [-1.5, .5, -.5, 1.5]: Sxy = 2.25 + 0 + 0 + 2.25 = 4.5,
// Sxx = 4.5, Syy = 2.25 + .25 + .25 + 2.25 = 5, rho = 4.5/sqrt(4.5 x 5) =
// sqrt(0.9) = 0.9486832980505138.
func TestSpearmanByHand(t *testing.T) {
	got, err := Spearman([]float64{1, 2, 2, 3}, []float64{1, 3, 2, 4})
	if err != nil || math.Abs(got-math.Sqrt(0.9)) > 1e-15 {
		t.Errorf("rho = %v (%v), want sqrt(0.9) = %v", got, err, math.Sqrt(0.9))
	}
	r := AverageRanks([]float64{1, 2, 2, 3})
	if r[0] != 1 || r[1] != 2.5 || r[2] != 2.5 || r[3] != 4 {
		t.Errorf("ranks %v", r)
	}
}

// TestSpearmanMonotone: rho is invariant under strictly increasing
// transforms of either sample and changes sign under decreasing ones; a
// monotone pair has rho = 1 or -1 exactly.
func TestSpearmanMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, 200), make([]float64, 200)
	for i := range x {
		x[i] = rng.NormFloat64()
		y[i] = x[i] + rng.NormFloat64()
	}
	base, err := Spearman(x, y)
	if err != nil {
		t.Fatal(err)
	}
	tx, ty := make([]float64, len(x)), make([]float64, len(y))
	for i := range x {
		tx[i] = math.Exp(x[i])              // increasing
		ty[i] = math.Pow(y[i], 3) + 10*y[i] // increasing
	}
	if got, _ := Spearman(tx, ty); got != base {
		t.Errorf("increasing transforms: %v, was %v", got, base)
	}
	for i := range ty {
		ty[i] = -math.Atan(y[i]) // decreasing
	}
	if got, _ := Spearman(tx, ty); got != -base {
		t.Errorf("decreasing transform of y: %v, want %v", got, -base)
	}
	inc := []float64{1, 2, 3, 5, 8, 13, 21}
	sq, neg := make([]float64, len(inc)), make([]float64, len(inc))
	for i, v := range inc {
		sq[i], neg[i] = v*v, -v*v
	}
	if r, err := Spearman(inc, sq); r != 1 || err != nil {
		t.Errorf("increasing pair: %v %v", r, err)
	}
	if r, err := Spearman(inc, neg); r != -1 || err != nil {
		t.Errorf("decreasing pair: %v %v", r, err)
	}
}

func TestSpearmanErrors(t *testing.T) {
	for name, c := range map[string][2][]float64{
		"lengths":  {{1, 2, 3}, {1, 2}},
		"one pair": {{1}, {2}},
		"empty":    {nil, nil},
		"NaN":      {{1, math.NaN(), 3}, {1, 2, 3}},
		"Inf":      {{1, 2, 3}, {1, math.Inf(1), 3}},
		"constant": {{4, 4, 4}, {1, 2, 3}},
	} {
		r, err := Spearman(c[0], c[1])
		if err == nil || !math.IsNaN(r) {
			t.Errorf("%s: %v, %v", name, r, err)
		}
		if name == "constant" && !errors.Is(err, ErrNoRankVariance) {
			t.Errorf("constant: %v is not ErrNoRankVariance", err)
		}
	}
}

// MAD by hand: |1-2| + |2-2| + |4-1| = 4 over 3.
func TestMeanAbsDeviation(t *testing.T) {
	if got := MeanAbsDeviation([]float64{1, 2, 4}, []float64{2, 2, 1}); math.Abs(got-4.0/3) > 1e-15 {
		t.Errorf("MAD %v", got)
	}
	if !math.IsNaN(MeanAbsDeviation(nil, nil)) || !math.IsNaN(MeanAbsDeviation([]float64{1}, []float64{1, 2})) {
		t.Error("empty or mismatched samples should give NaN")
	}
}
