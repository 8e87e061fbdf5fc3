package bounds

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchBounds is the work of `pueval bounds` on one ranking after reading
// it, in both tie modes: rank, a bootstrap band of 2,000 resamples, the
// bounds at one beta and the PU (beta = 0) curves.
func benchBounds(b *testing.B, scores []float64, labels []Label, beta float64) {
	for _, ties := range []Ties{Grouped, InputOrder} {
		b.Run(ties.String(), func(b *testing.B) { benchTies(b, scores, labels, beta, ties) })
	}
}

func benchTies(b *testing.B, scores []float64, labels []Label, beta float64, ties Ties) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := Rank(scores, labels, ties)
		if err != nil {
			b.Fatal(err)
		}
		band, err := r.Bootstrap(rand.New(rand.NewPCG(1, 1)), 2000, 0.95)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Bounds(band, PointInterval(beta)); err != nil {
			b.Fatal(err)
		}
		if _, err := r.Bounds(band, PointInterval(0)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCovtypeBootstrap: the 40,000-row covtype 5 % split (1,000 known
// positives; 921 distinct scores, so grouped mode has 921 cut-offs and few
// distinct known ranks), a 2,000-resample bootstrap band, bounds at the true
// beta. Needs PUEVAL_CLAESEN_DATA.
func BenchmarkCovtypeBootstrap(b *testing.B) {
	s := readShared(b, claesenDir(b), "covtype_pu5_seed1")
	benchBounds(b, s.scores, s.labels, s.trueBeta())
}

// BenchmarkSyntheticBootstrap: a synthetic 40,000-row ranking (d3 scores,
// 10,000 positives of which 2,000 known, 30,000 negatives), a 2,000-resample
// bootstrap band of the 2,000 known ranks, bounds at the true beta.
func BenchmarkSyntheticBootstrap(b *testing.B) {
	scores, truth, labels := simulate(b, rand.New(rand.NewPCG(1, 2)), d3, 10000, 30000, 0.2, 0)
	benchBounds(b, scores, labels, latentBeta(truth, labels))
}

// The parts: the sort, the band alone and the bounds at one beta.
func BenchmarkParts(b *testing.B) {
	scores, truth, labels := simulate(b, rand.New(rand.NewPCG(1, 2)), d3, 10000, 30000, 0.2, 0)
	r, _ := Rank(scores, labels, InputOrder)
	band, _ := r.Bootstrap(rand.New(rand.NewPCG(1, 1)), 2000, 0.95)
	beta := latentBeta(truth, labels)
	b.Run("rank", func(b *testing.B) {
		for b.Loop() {
			Rank(scores, labels, InputOrder)
		}
	})
	b.Run("bootstrap", func(b *testing.B) {
		for b.Loop() {
			r.Bootstrap(rand.New(rand.NewPCG(1, 1)), 2000, 0.95)
		}
	})
	b.Run("bounds", func(b *testing.B) {
		for b.Loop() {
			r.Bounds(band, PointInterval(beta))
		}
	})
}

// BenchmarkCredibleInterval: the 95 % credible intervals of `pueval bounds
// --peek-positives`, equal-tailed and HPD, after 100 and 100,000 peeks
// (a third positive).
func BenchmarkCredibleInterval(b *testing.B) {
	for _, n := range []int{100, 100000} {
		for _, c := range []Credible{EqualTailed, HPD} {
			b.Run(fmt.Sprintf("%s/n=%d", c, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := CredibleInterval(n/3, n-n/3, 0.95, c); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkInterval: the exact bounds over a beta interval, every count of
// latent positives it admits, on the synthetic 40,000-row ranking of
// BenchmarkParts (38,000 unlabeled): [0.2, 0.3] admits 3,801 counts.
func BenchmarkInterval(b *testing.B) {
	scores, _, labels := simulate(b, rand.New(rand.NewPCG(1, 2)), d3, 10000, 30000, 0.2, 0)
	for _, ties := range []Ties{Grouped, InputOrder} {
		r, _ := Rank(scores, labels, ties)
		band, _ := r.Bootstrap(rand.New(rand.NewPCG(1, 1)), 2000, 0.95)
		b.Run(ties.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := r.Bounds(band, Interval{0.2, 0.3}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
