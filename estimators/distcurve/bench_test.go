package distcurve

import (
	"math/rand/v2"
	"testing"
)

// benchSample is |M| = 8,000 (the paper's timing case: "16 s for 8,000
// samples"; Zeiberg's table: 66.4 s with the transform), |C| = 2,000,
// negatives Beta(2, 6), positives Beta(5, 3), alpha = 0.4.
func benchSample() Sample {
	s, _ := Recipe{MixtureMin: 8000, MixtureMax: 8000, ComponentMin: 2000, ComponentMax: 2000, AlphaMin: 0.4, AlphaMax: 0.4}.
		Sample(ParamSet{A0: 2, B0: 6, A1: 5, B1: 3, Seed: 1}, 0)
	return s
}

func BenchmarkCurve8000(b *testing.B) {
	s := benchSample()
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Curve(s.Component, s.Mixture, DefaultRepeats, rng); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEstimate8000(b *testing.B) {
	s := benchSample()
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := DefaultNetwork(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Estimate(s.Component, s.Mixture, rng); err != nil {
			b.Fatal(err)
		}
	}
}
