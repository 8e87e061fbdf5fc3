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

// Gaussian: exact class counts, the shift of the positives' mean along
// every coordinate (separation/sqrt(d), within 4 standard errors), and the
// same data for the same stream.
func TestGaussian(t *testing.T) {
	const n, nPos, d, sep = 20000, 6000, 4, 2.0
	x, y, err := Gaussian(rand.New(rand.NewPCG(1, 2)), n, nPos, d, sep)
	if err != nil {
		t.Fatal(err)
	}
	pos := 0
	mean := [2][d]float64{}
	for i := range n {
		c := 0
		if y[i] {
			pos, c = pos+1, 1
		}
		for k := range d {
			mean[c][k] += x[i*d+k]
		}
	}
	if pos != nPos {
		t.Fatalf("%d positives, want %d", pos, nPos)
	}
	for k := range d {
		diff := mean[1][k]/nPos - mean[0][k]/(n-nPos)
		se := math.Sqrt(1.0/nPos + 1.0/(n-nPos))
		if math.Abs(diff-sep/2) > 4*se {
			t.Errorf("feature %d: mean difference %.4f, want %.4f +- %.4f", k, diff, sep/2, 4*se)
		}
	}
	x2, y2, _ := Gaussian(rand.New(rand.NewPCG(1, 2)), n, nPos, d, sep)
	if x2[12345] != x[12345] || y2[777] != y[777] {
		t.Error("same stream, different data")
	}
	if _, _, err := Gaussian(rand.New(rand.NewPCG(1, 2)), 10, 11, 2, 1); err == nil {
		t.Error("more positives than rows accepted")
	}
}

func TestRanking(t *testing.T) {
	s, y, err := Ranking(rand.New(rand.NewPCG(3, 4)), Normal(1, 1), Normal(0, 1), 1000, 300)
	if err != nil || len(s) != 1000 || len(y) != 1000 {
		t.Fatal(err)
	}
	pos := 0
	for _, v := range y {
		if v {
			pos++
		}
	}
	if pos != 300 {
		t.Errorf("%d positives", pos)
	}
	if _, _, err := Ranking(rand.New(rand.NewPCG(3, 4)), Normal(1, 1), Normal(0, 1), 5, 6); err == nil {
		t.Error("6 positives of 5 accepted")
	}
}
