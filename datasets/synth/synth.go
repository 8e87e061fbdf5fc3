package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/pueval/pueval/internal/portmath"
)

// Sampler draws one value from a univariate distribution using rng.
type Sampler func(rng *rand.Rand) float64

// Normal returns a sampler of N(mu, sigma^2). Its draws are
// rng.NormFloat64()'s, computed by portmath.NormFloat64 so that they have
// the same bits on every CPU.
func Normal(mu, sigma float64) Sampler {
	return func(rng *rand.Rand) float64 { return mu + float64(sigma*portmath.NormFloat64(rng)) }
}

// Beta returns a sampler of the Beta(a, b) distribution.
func Beta(a, b float64) Sampler {
	return func(rng *rand.Rand) float64 { return distuv.Beta{Alpha: a, Beta: b, Src: rng}.Rand() }
}

// Sample is a PU sample with its hidden truth.
type Sample struct {
	Labeled, Unlabeled           []float64
	LabeledTruth, UnlabeledTruth []bool  // true for a positive
	Alpha, Beta                  float64 // exact fractions of positives in Unlabeled and Labeled
}

// PU draws a PU sample: nL labeled examples with round(beta*nL) positives and
// nU unlabeled examples with round(alpha*nU) positives, positives from pos and
// negatives from neg, each set in random order.
func PU(rng *rand.Rand, pos, neg Sampler, alpha, beta float64, nL, nU int) (Sample, error) {
	if !(alpha >= 0 && alpha <= 1) || !(beta >= 0 && beta <= 1) {
		return Sample{}, fmt.Errorf("synth: alpha %v and beta %v must lie in [0, 1]", alpha, beta)
	}
	if nL < 0 || nU < 0 {
		return Sample{}, fmt.Errorf("synth: negative sample size (nL %d, nU %d)", nL, nU)
	}
	l, lt := draw(rng, pos, neg, int(math.Round(beta*float64(nL))), nL)
	u, ut := draw(rng, pos, neg, int(math.Round(alpha*float64(nU))), nU)
	s := Sample{Labeled: l, LabeledTruth: lt, Unlabeled: u, UnlabeledTruth: ut}
	if nL > 0 {
		s.Beta = float64(count(lt)) / float64(nL)
	}
	if nU > 0 {
		s.Alpha = float64(count(ut)) / float64(nU)
	}
	return s, nil
}

func draw(rng *rand.Rand, pos, neg Sampler, nPos, n int) ([]float64, []bool) {
	x, y := make([]float64, n), make([]bool, n)
	for i := range x {
		if i < nPos {
			x[i], y[i] = pos(rng), true
		} else {
			x[i] = neg(rng)
		}
	}
	rng.Shuffle(n, func(i, j int) {
		x[i], x[j] = x[j], x[i]
		y[i], y[j] = y[j], y[i]
	})
	return x, y
}

func count(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// GaussianAUC is the population AUC of scoring by the value itself when
// positives are N(mu1, s1^2) and negatives N(mu0, s0^2): Phi((mu1-mu0)/sqrt(s1^2+s0^2)).
func GaussianAUC(mu1, s1, mu0, s0 float64) float64 {
	z := (mu1 - mu0) / portmath.Hypot(s1, s0)
	return 0.5 * portmath.Erfc(-z/math.Sqrt2)
}

// Ranking draws n scores of which nPos are positive (from pos) and the rest
// negative (from neg), in random order: a ready-made ranking with its true
// labels, for simulations that need no classifier.
func Ranking(rng *rand.Rand, pos, neg Sampler, n, nPos int) ([]float64, []bool, error) {
	if n < 0 || nPos < 0 || nPos > n {
		return nil, nil, fmt.Errorf("synth: %d positives among %d scores", nPos, n)
	}
	x, y := draw(rng, pos, neg, nPos, n)
	return x, y, nil
}

// Gaussian draws a data set of n rows and d features, nPos of them
// positive, in random order: negatives from N(0, I), positives from
// N(delta, I) with every coordinate of delta equal to separation/sqrt(d),
// so |delta| = separation whatever d. The Bayes-optimal score is the
// projection on delta, whose AUC is GaussianAUC(separation, 1, 0, 1) =
// Phi(separation/sqrt(2)). x is n x d, row-major; each row draws its label's
// coordinates in order.
func Gaussian(rng *rand.Rand, n, nPos, d int, separation float64) (x []float64, y []bool, err error) {
	if n < 0 || nPos < 0 || nPos > n || d < 1 {
		return nil, nil, fmt.Errorf("synth: %d positives among %d rows of %d features", nPos, n, d)
	}
	if math.IsNaN(separation) || math.IsInf(separation, 0) {
		return nil, nil, fmt.Errorf("synth: separation %v is not finite", separation)
	}
	shift := separation / math.Sqrt(float64(d))
	y = make([]bool, n)
	for i := range nPos {
		y[i] = true
	}
	rng.Shuffle(n, func(i, j int) { y[i], y[j] = y[j], y[i] })
	x = make([]float64, n*d)
	for i := range n {
		for k := range d {
			v := portmath.NormFloat64(rng)
			if y[i] {
				v += shift
			}
			x[i*d+k] = v
		}
	}
	return x, y, nil
}
