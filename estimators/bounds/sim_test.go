package bounds

import (
	"math/rand/v2"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
)

// Binormal score models of the published code's configs (spec §1.2):
// negatives N(0, 1) in all; d1 positives N(1, 0.3^2), d2 N(2, 2^2), d3 N(1, 1).
var (
	negModel = synth.Normal(0, 1)
	d1       = synth.Normal(1, 0.3)
	d2       = synth.Normal(2, 2)
	d3       = synth.Normal(1, 1)
)

// simulate draws nPos positives from pos and nNeg negatives from N(0, 1) in
// random order (synth.Ranking) and makes the first int(kp nPos) positives
// and int(kn nNeg) negatives known: a random sample of each class, as the
// published util.induce_partial_labels does.
func simulate(t testing.TB, rng *rand.Rand, pos synth.Sampler, nPos, nNeg int, kp, kn float64) (scores []float64, truth []bool, labels []Label) {
	t.Helper()
	scores, truth, err := synth.Ranking(rng, pos, negModel, nPos+nNeg, nPos)
	if err != nil {
		t.Fatal(err)
	}
	labels = make([]Label, len(scores))
	knownPos, knownNeg := int(kp*float64(nPos)), int(kn*float64(nNeg))
	for i, y := range truth {
		switch {
		case y && knownPos > 0:
			labels[i] = Positive
			knownPos--
		case !y && knownNeg > 0:
			labels[i] = Negative
			knownNeg--
		}
	}
	return scores, truth, labels
}

// latentBeta is the true fraction of positives among the unlabeled.
func latentBeta(truth []bool, labels []Label) float64 {
	pos, unl := 0, 0
	for i, l := range labels {
		if l == Unlabeled {
			unl++
			if truth[i] {
				pos++
			}
		}
	}
	return float64(pos) / float64(unl)
}

// syntheticU draws an unlabeled set of n d3 scores with a fraction beta of
// positives.
func syntheticU(rng *rand.Rand, n int, beta float64) ([]float64, []bool, error) {
	return synth.Ranking(rng, d3, negModel, n, int(beta*float64(n)))
}
