package kernelauc

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteLoss2 is twice the summed 0-1 loss over all ordered pairs, O(n^2):
// the definition the sorted counts must reproduce.
func bruteLoss2(a, b []float64) int64 {
	var c int64
	for _, x := range a {
		for _, y := range b {
			switch {
			case x < y:
				c += 2
			case x == y:
				c++
			}
		}
	}
	return c
}

// tiedScores draws n scores from a few integer levels (many ties) or from a
// continuous law.
func tiedScores(rng *rand.Rand, n int, tied bool) []float64 {
	s := make([]float64, n)
	for i := range s {
		if tied {
			s[i] = float64(rng.IntN(5))
		} else {
			s[i] = rng.NormFloat64()
		}
	}
	return s
}

// TestPairCountsBruteForce: the sorted O(n log n) pair counts and the CV
// criteria built on them against O(n^2) brute-force sums of the
// definitions (papers-next.md section 2.4 for the PU zero-one AUC risk,
// section 2.1 / the AUL paper's Eq. 4 for AUL^PU, self pairs 1/2).
func TestPairCountsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		tied := trial%2 == 0
		np, nu := 2+rng.IntN(30), 1+rng.IntN(60)
		gp, gu := tiedScores(rng, np, tied), tiedScores(rng, nu, tied)
		if got, want := lossCount2(gp, gu), bruteLoss2(gp, gu); got != want {
			t.Fatalf("trial %d: lossCount2 %d, brute force %d", trial, got, want)
		}
		// PU zero-one AUC risk, every pair summed directly.
		theta := 0.05 + 0.9*rng.Float64()
		var lpu, lpp float64
		for _, x := range gp {
			for _, y := range gu {
				lpu += l01(x - y)
			}
			for _, y := range gp {
				lpp += l01(x - y)
			}
		}
		lpu /= float64(np * nu)
		lpp /= float64(np * (np - 1))
		want := (lpu - theta*lpp + theta/(2*float64(np-1))) / (1 - theta)
		if got := puAUCRisk(gp, gu, theta); math.Abs(got-want) > 1e-13 {
			t.Fatalf("trial %d: risk %.17g, brute force %.17g", trial, got, want)
		}
		// The identity lpp = n_p/(2(n_p - 1)): risk = (lpu - theta/2)/(1 - theta).
		if got, want := puAUCRisk(gp, gu, theta), (lpu-theta/2)/(1-theta); math.Abs(got-want) > 1e-13 {
			t.Fatalf("trial %d: risk %.17g, (lpu - theta/2)/(1 - theta) = %.17g", trial, got, want)
		}
		// AUL^PU: labeled against L u U, self pair included.
		all := append(append([]float64{}, gp...), gu...)
		var s float64
		for _, x := range gp {
			for _, y := range all {
				s += 1 - l01(x-y)
			}
		}
		s /= float64(np * len(all))
		if got := aulPU(gp, gu); math.Abs(got-s) > 1e-13 {
			t.Fatalf("trial %d: AUL^PU %.17g, brute force %.17g", trial, got, s)
		}
		// AUL^PU = c/2 + (1 - c) AUC^PU, c = n_L/n (papers-next.md 2.1).
		c := float64(np) / float64(len(all))
		if got, want := aulPU(gp, gu), c/2+(1-c)*AUC(gp, gu); math.Abs(got-want) > 1e-13 {
			t.Fatalf("trial %d: AUL^PU %.17g, c/2 + (1-c) AUC^PU = %.17g", trial, got, want)
		}
	}
}

// l01 is the zero-one pair loss (1 - sign(m))/2 with 1/2 at m = 0.
func l01(m float64) float64 {
	switch {
	case m < 0:
		return 1
	case m == 0:
		return 0.5
	}
	return 0
}

// TestMedian: the quickselect median against sorting (numpy's definition:
// the mean of the two middle values for an even count), with many ties.
func TestMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 300 {
		n := 1 + rng.IntN(200)
		v := tiedScores(rng, n, trial%3 == 0)
		s := slices.Clone(v)
		slices.Sort(s)
		want := s[n/2]
		if n%2 == 0 {
			want = (s[n/2-1] + s[n/2]) / 2
		}
		before := slices.Clone(v)
		if got := median(v); got != want {
			t.Fatalf("trial %d (n %d): median %v, sorted %v", trial, n, got, want)
		}
		if !slices.Equal(v, before) {
			t.Fatal("median modified its input")
		}
	}
}
