package synth

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestPUCountsAndTruth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	s, err := PU(rng, Normal(4, 1), Normal(0, 1), 0.25, 0.95, 1000, 10000)
	if err != nil {
		t.Fatal(err)
	}
	if s.Alpha != 0.25 || s.Beta != 0.95 || len(s.Labeled) != 1000 || len(s.Unlabeled) != 10000 {
		t.Fatalf("alpha %v beta %v sizes %d %d", s.Alpha, s.Beta, len(s.Labeled), len(s.Unlabeled))
	}
	// Positives come from N(4,1): their mean is 4 within 4 standard errors (sd 1/sqrt(2500) = 0.02).
	var sum float64
	var n int
	for i, x := range s.Unlabeled {
		if s.UnlabeledTruth[i] {
			sum += x
			n++
		}
	}
	if m := sum / float64(n); math.Abs(m-4) > 0.08 {
		t.Errorf("positive mean %v, want 4", m)
	}
	// Same seed, same sample.
	s2, _ := PU(rand.New(rand.NewPCG(1, 1)), Normal(4, 1), Normal(0, 1), 0.25, 0.95, 1000, 10000)
	if s2.Unlabeled[123] != s.Unlabeled[123] || s2.Labeled[7] != s.Labeled[7] {
		t.Error("not deterministic")
	}
	if _, err := PU(rng, Normal(0, 1), Normal(0, 1), 1.5, 1, 1, 1); err == nil {
		t.Error("alpha 1.5 accepted")
	}
}

func TestBetaMean(t *testing.T) {
	// Beta(2, 6) has mean 2/8 = 0.25 and variance 2*6/(64*9) = 0.0208; 20,000 draws: se 0.001.
	rng := rand.New(rand.NewPCG(2, 2))
	f := Beta(2, 6)
	var sum float64
	for range 20000 {
		sum += f(rng)
	}
	if m := sum / 20000; math.Abs(m-0.25) > 0.005 {
		t.Errorf("mean %v, want 0.25", m)
	}
}

func TestGaussianAUC(t *testing.T) {
	// Phi(2/sqrt(2)) = Phi(1.41421) = 0.921350 (standard normal table; scipy.stats.norm.cdf(2**0.5) = 0.9213503964748575).
	if got := GaussianAUC(1, 1, -1, 1); math.Abs(got-0.9213503964748575) > 1e-12 {
		t.Errorf("got %v", got)
	}
	if got := GaussianAUC(0, 1, 0, 3); got != 0.5 {
		t.Errorf("equal means: %v", got)
	}
}
