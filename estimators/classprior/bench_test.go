package classprior

import (
	"context"
	"math"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
)

// benchSample is the AAAI-2017 shape: 1,000 labeled and 10,000 unlabeled
// scores (beta 0.95, alpha 0.25, Beta(5,2) vs Beta(2,5) scores in [0, 1]).
func benchSample(b *testing.B) synth.Sample {
	return sample(b, 99, synth.Beta(5, 2), synth.Beta(2, 5), 0.25, 0.95, 1000, 10000)
}

// BenchmarkAlphaMaxN: the README's performance row (target < 50 ms).
func BenchmarkAlphaMaxN(b *testing.B) {
	s := benchSample(b)
	e := mustNew(b, "alphamax-n", Options{})
	for b.Loop() {
		if _, err := e.Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAlphaMaxNRounded: the same scores rounded to 2 decimals, so that
// many lie exactly on bin edges (the closed-interval, minorise-maximise path).
func BenchmarkAlphaMaxNRounded(b *testing.B) {
	s := benchSample(b)
	round := func(x []float64) []float64 {
		out := make([]float64, len(x))
		for i, v := range x {
			out[i] = math.Round(v*100) / 100
		}
		return out
	}
	l, u := round(s.Labeled), round(s.Unlabeled)
	e := mustNew(b, "alphamax-n", Options{})
	for b.Loop() {
		if _, err := e.Estimate(context.Background(), Input{Labeled: l, Unlabeled: u}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
