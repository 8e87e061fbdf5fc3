package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pueval/pueval/internal/portmath"
	"github.com/pueval/pueval/metrics"
)

// Degraded is the result of DegradeScores.
type Degraded struct {
	Scores []float64
	Sigma  float64 // the noise's standard deviation on the logit scale
	AUC    float64 // the AUC of Scores against the labels
	// Warning says why the scores were left as they were (already below
	// the target), empty otherwise.
	Warning string
}

// DegradeTolerance is how close DegradeScores brings the AUC to its target.
const DegradeTolerance = 5e-4

// DegradeScores makes scores weaker: it adds sigma z_i to each score's
// logit, z_i ~ N(0, 1) drawn once from seed, with sigma found by bisection
// so that the AUC against y is within DegradeTolerance of target (the AUL
// paper's classifier is much weaker than a default GBDT; the
// specification degrades the out-of-fold scores this way to put the
// paper's AUC beside its own). Scores in [0, 1] are probabilities: their
// logit is taken (clamped to [1e-9, 1 - 1e-9]); any others are read as
// margins. The result is a logit-scale score. Scores whose AUC is already
// at or below target come back unchanged, with a warning.
func DegradeScores(scores []float64, y []bool, target float64, seed uint64) (Degraded, error) {
	if !(target > 0.5 && target < 1) {
		return Degraded{}, fmt.Errorf("target AUC %v: want a value in (0.5, 1)", target)
	}
	auc := func(s []float64) (float64, error) {
		r, err := metrics.Rank(s, y)
		if err != nil {
			return 0, err
		}
		return r.AUC(), nil
	}
	a0, err := auc(scores)
	if err != nil {
		return Degraded{}, err
	}
	if a0 <= target+DegradeTolerance {
		return Degraded{Scores: scores, AUC: a0, Warning: fmt.Sprintf("degrade_to_auc %v: the scores' AUC is %.4f already: left as they are", target, a0)}, nil
	}
	prob := true
	for _, v := range scores {
		if v < 0 || v > 1 {
			prob = false
			break
		}
	}
	logit := make([]float64, len(scores))
	for i, v := range scores {
		if prob {
			p := math.Min(math.Max(v, 1e-9), 1-1e-9)
			v = portmath.Log(p / (1 - p))
		}
		logit[i] = v
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	z := make([]float64, len(scores))
	for i := range z {
		z[i] = portmath.NormFloat64(rng) // rng.NormFloat64()'s stream, the same bits on every CPU
	}
	out := make([]float64, len(scores))
	at := func(sigma float64) (float64, error) {
		for i := range out {
			out[i] = logit[i] + float64(sigma*z[i])
		}
		return auc(out)
	}
	// Bracket: the AUC falls towards 1/2 as sigma grows (for these draws it
	// is not exactly monotone, but it is on the scale of the bisection).
	lo, hi := 0.0, 1.0
	for {
		a, err := at(hi)
		if err != nil {
			return Degraded{}, err
		}
		if a < target {
			break
		}
		if lo, hi = hi, 2*hi; hi > 1e6 {
			return Degraded{}, fmt.Errorf("no noise level brings the AUC %.4f down to %v", a0, target)
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		a, err := at(mid)
		if err != nil {
			return Degraded{}, err
		}
		if math.Abs(a-target) <= DegradeTolerance {
			return Degraded{Scores: out, Sigma: mid, AUC: a}, nil
		}
		if a > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Degraded{}, fmt.Errorf("bisection did not bring the AUC within %v of %v", DegradeTolerance, target)
}
