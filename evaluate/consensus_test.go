package evaluate

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
)

// TestConsensusAtScale: on the binormal example (positives N(2, 1),
// negatives N(0, 1), alpha 0.317, beta 1, a fifth labeled; irreducible, so
// the truth is the sample's own alpha), the estimate evaluate reports with
// its defaults (the mean of the score-reading estimators, on their
// subsample above DefaultEstimatorMaxRows rows) is within 0.02 of alpha at
// 10^5, 10^6 and (without -short) 10^7 rows (measured: off by 0.0013,
// 0.0061 and 0.0011).
func TestConsensusAtScale(t *testing.T) {
	sizes := []int{100_000, 1_000_000, 10_000_000}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		nL := n / 5
		s, err := synth.PU(rand.New(rand.NewPCG(uint64(n), 11)), synth.Normal(2, 1), synth.Normal(0, 1), 0.317, 1, nL, n-nL)
		if err != nil {
			t.Fatal(err)
		}
		scores := append(append([]float64{}, s.Labeled...), s.Unlabeled...)
		labeled := make([]bool, n)
		for i := range nL {
			labeled[i] = true
		}
		res, err := Run(context.Background(), Input{Scores: scores, Labeled: labeled}, Options{BoundsResamples: -1, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		off := math.Abs(float64(res.Priors.Alpha) - s.Alpha)
		t.Logf("%d rows: alpha %.4f (%s), truth %.4f, off by %.4f", n, float64(res.Priors.Alpha), res.Priors.Method, s.Alpha, off)
		if off > 0.02 {
			t.Errorf("%d rows: alpha-hat %.4f off the true %.4f by %.4f, want at most 0.02", n, float64(res.Priors.Alpha), s.Alpha, off)
		}
	}
}
