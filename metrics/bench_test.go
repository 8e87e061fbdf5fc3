package metrics

import (
	"math/rand/v2"
	"testing"
)

// benchData draws n scores: positives (30%) from N(1,1), negatives from N(0,1).
func benchData(n int) ([]float64, []bool) {
	rng := rand.New(rand.NewPCG(11, 12))
	s, y := make([]float64, n), make([]bool, n)
	for i := range s {
		y[i] = rng.Float64() < 0.3
		s[i] = rng.NormFloat64()
		if y[i] {
			s[i]++
		}
	}
	return s, y
}

// BenchmarkAUC1e7 ranks 10^7 scores and computes the AUC (DESIGN.md section 10: under a second).
func BenchmarkAUC1e7(b *testing.B) {
	s, y := benchData(1e7)
	for b.Loop() {
		r, err := Rank(s, y)
		if err != nil {
			b.Fatal(err)
		}
		_ = r.AUC()
	}
}

// BenchmarkCurves1e7 ranks 10^7 scores and builds the ROC, PR and lift curves with AUC, AP and AUL.
func BenchmarkCurves1e7(b *testing.B) {
	s, y := benchData(1e7)
	for b.Loop() {
		r, err := Rank(s, y)
		if err != nil {
			b.Fatal(err)
		}
		_, _, _ = r.ROC(), r.PR(), r.Lift()
		_, _, _ = r.AUC(), r.AveragePrecision(), r.AUL()
	}
}

// BenchmarkPU1e5 computes the PULP paper's measures (hypergeometric tails at every cut-off) on 10^5 scores.
func BenchmarkPU1e5(b *testing.B) {
	s, y := benchData(1e5)
	r, err := Rank(s, y)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = r.PU()
	}
}
