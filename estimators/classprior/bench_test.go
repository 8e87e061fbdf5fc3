package classprior

import (
	"context"
	"fmt"
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

// benchGaussian is a binormal sample of n rows (N(2,1) positives against
// N(0,1) negatives, alpha 0.317, beta 1, a fifth labeled), drawn before the
// timer starts.
func benchGaussian(b *testing.B, n int) Input {
	s := gaussianCell{2, 0.317, 1}.draw(b, n, 0)
	return Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}
}

// benchRecommended times the estimator the practitioner commands run (the
// rank scale) or the registry default (the raw scale) on in.
func benchRecommended(b *testing.B, in Input, rank bool) {
	e := mustNew(b, AlphaMaxNName, Options{})
	if rank {
		e = recommended(b, AlphaMaxNName)
	}
	for b.Loop() {
		if _, err := e.Estimate(context.Background(), in, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAlphaMaxNRank: the rank scale on the AAAI-2017 shape of
// BenchmarkAlphaMaxN.
func BenchmarkAlphaMaxNRank(b *testing.B) {
	s := benchSample(b)
	benchRecommended(b, Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, true)
}

// BenchmarkAlphaMaxNScale: both scales on 10^5 to 10^7 binormal rows, the
// sizes evaluate meets (the rank scale sorts the scores: O(n) radix passes;
// both scales then walk them once per histogram).
func BenchmarkAlphaMaxNScale(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000, 10_000_000} {
		in := benchGaussian(b, n)
		for _, scale := range []string{ScaleRaw, ScaleRank} {
			b.Run(fmt.Sprintf("%s/n=%d", scale, n), func(b *testing.B) { benchRecommended(b, in, scale == ScaleRank) })
		}
	}
}
