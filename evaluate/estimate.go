package evaluate

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/kmpe"
)

// Stream tags: every random draw of Run comes from a PCG stream seeded by
// streamSeed(Options.Seed, tag, ...), so that adding a draw of one kind
// never shifts those of another, and a bootstrap resample's draws depend
// on its index alone (not on the worker that runs it).
const (
	tagEstimator uint64 = iota + 1
	tagSubsample
	tagResample
	tagResampleEstimator
	tagBoundsBand
	tagScoreSubsample
)

// splitmix is SplitMix64's output function (Steele, Lea & Flood, OOPSLA
// 2014), a bijective mixer of 64-bit words.
func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// streamSeed hashes a seed and a path of words into the two seed words of
// a PCG.
func streamSeed(seed uint64, path ...uint64) (uint64, uint64) {
	h := splitmix(seed)
	for _, p := range path {
		h = splitmix(h ^ splitmix(p))
	}
	return h, splitmix(h ^ 0x5bd1e9955bd1e995)
}

// stream returns the random stream of a seed and a path.
func stream(seed uint64, path ...uint64) *rand.Rand {
	return rand.New(rand.NewPCG(streamSeed(seed, path...)))
}

// nameWord hashes an estimator's name into a path word.
func nameWord(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// sample is what an estimator reads: the scores of L and U, and, for the
// feature-reading estimators, the indices of their rows in the feature
// matrix (in the order of the scores).
type sample struct {
	labeled, unlabeled []float64
	lRows, uRows       []int
}

// rowsOf returns the indices of the labeled and of the unlabeled rows.
func rowsOf(labeled []bool) (l, u []int) {
	nL := 0
	for _, b := range labeled {
		if b {
			nL++
		}
	}
	l, u = make([]int, 0, nL), make([]int, 0, len(labeled)-nL)
	for i, b := range labeled {
		if b {
			l = append(l, i)
		} else {
			u = append(u, i)
		}
	}
	return l, u
}

// estimated is one estimator's outcome.
type estimated struct {
	EstimatorResult
	err error
}

// scoreSample is the scores the score-reading estimators read: every
// row's, or a subsample of them (Options.EstimatorMaxRows).
type scoreSample struct {
	labeled, unlabeled []float64
	subsampled         bool
}

// scoreSampleOf returns the scores of L and U the score-reading
// estimators read: all of them up to opts.EstimatorMaxRows rows, above it
// a random subsample of that many, L and U in their proportions
// (subsampleSizes), without replacement, in their order.
func scoreSampleOf(ctx context.Context, labeled, unlabeled []float64, opts Options) (scoreSample, error) {
	kL, kU, sub := subsampleSizes(len(labeled), len(unlabeled), opts.EstimatorMaxRows)
	if !sub {
		return scoreSample{labeled: labeled, unlabeled: unlabeled}, nil
	}
	rng := stream(opts.Seed, tagScoreSubsample)
	pick := func(x []float64, k int) []float64 {
		out := make([]float64, 0, k)
		for _, i := range pickSorted(len(x), k, rng) {
			out = append(out, x[i])
		}
		return out
	}
	s := scoreSample{labeled: pick(labeled, kL), unlabeled: pick(unlabeled, kU), subsampled: true}
	return s, stopped(ctx)
}

// pickSorted returns k distinct indices of [0, n) in ascending order, all
// k-subsets equally likely: Floyd's algorithm (for j = n-k .. n-1, add a
// uniform t <= j, or j itself when t is in already), the subset kept as a
// bitset of n bits, which lists it in order.
func pickSorted(n, k int, rng *rand.Rand) []int {
	seen := make([]uint64, (n+63)/64)
	for j := n - k; j < n; j++ {
		t := rng.IntN(j + 1)
		if seen[t>>6]&(1<<(t&63)) != 0 {
			t = j
		}
		seen[t>>6] |= 1 << (t & 63)
	}
	out := make([]int, 0, k)
	for w, word := range seen {
		for word != 0 {
			out = append(out, w<<6+bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
	return out
}

// runEstimator runs the named estimator on the whole input: a
// score-reading one on scores.
func runEstimator(ctx context.Context, name string, scores scoreSample, in Input, opts Options) estimated {
	s := sample{labeled: scores.labeled, unlabeled: scores.unlabeled}
	if ReadsFeatures(name) {
		// Only the feature-reading estimators read rows (10^7 indices take
		// a third of a second to list).
		s.lRows, s.uRows = rowsOf(in.Labeled)
	}
	start := time.Now()
	// Every feature-reading estimator reads the same subsample: km1 and
	// km2 then share one KM run (package classprior remembers it).
	est, rows, sub, err := estimateOn(ctx, name, s, in.Features, opts, stream(opts.Seed, tagEstimator, nameWord(name)), stream(opts.Seed, tagSubsample))
	if !ReadsFeatures(name) {
		sub = scores.subsampled
	}
	e := EstimatorResult{Method: name, Reads: "scores", Rows: rows, Subsampled: sub, Seconds: time.Since(start).Seconds(),
		Alpha: nan, Beta: nan, BetaMinusAlpha: nan, Warnings: []string{}}
	if ReadsFeatures(name) {
		e.Reads = "features"
	}
	e.CleanLabels = name != classprior.AlphaMaxNName
	if err != nil {
		e.Error = err.Error()
		var size *kmpe.SizeError
		if errors.As(err, &size) {
			e.MaxRows = &size.MaxRows
		}
		return estimated{e, err}
	}
	e.Alpha, e.Beta, e.BetaMinusAlpha = Float(est.Alpha), Float(est.Beta), Float(est.Beta-est.Alpha)
	if est.Warnings != nil {
		e.Warnings = est.Warnings
	}
	return estimated{EstimatorResult: e}
}

// estimateOn runs the named estimator on s: a score-reading one on the
// scores (rng for its draws), a feature-reading one on the feature rows,
// subsampled to opts.KMMaxRows with sub. It returns the estimate, the rows
// read and whether they were subsampled.
func estimateOn(ctx context.Context, name string, s sample, features *mat.Dense, opts Options, rng, sub *rand.Rand) (classprior.Estimate, int, bool, error) {
	// The recommended options: AlphaMax-N on the rank scale, so that the
	// priors do not depend on the scale of the scores nor drift with n.
	c, err := classprior.Recommended(name)
	if err != nil {
		return classprior.Estimate{}, 0, false, err
	}
	est, err := c.New()
	if err != nil {
		return classprior.Estimate{}, 0, false, err
	}
	if !ReadsFeatures(name) {
		e, err := est.Estimate(ctx, classprior.Input{Labeled: s.labeled, Unlabeled: s.unlabeled}, rng)
		return e, len(s.labeled) + len(s.unlabeled), false, err
	}
	if features == nil {
		return classprior.Estimate{}, 0, false, fmt.Errorf("%s reads the examples' features; the input has none", name)
	}
	lRows, uRows, subsampled := SubsampleRows(s.lRows, s.uRows, opts.KMMaxRows, sub)
	in := classprior.Input{LabeledFeatures: gather(features, lRows), UnlabeledFeatures: gather(features, uRows)}
	e, err := est.Estimate(ctx, in, rng)
	return e, len(lRows) + len(uRows), subsampled, err
}

// SubsampleRows draws at most limit rows from l and u (row indices of the
// labeled and the unlabeled) together, in their proportions (each side at
// least min(10, its size)), without replacement, keeping their order, and
// says whether it drew. Below limit it returns them unchanged. The
// feature-reading estimators read such a subsample (KMMaxRows).
func SubsampleRows(l, u []int, limit int, rng *rand.Rand) ([]int, []int, bool) {
	n := len(l) + len(u)
	if n <= limit {
		return l, u, false
	}
	kL := int(math.Round(float64(limit) * float64(len(l)) / float64(n)))
	kL = min(len(l), max(kL, min(10, len(l))))
	kU := min(len(u), limit-kL)
	return draw(l, kL, rng), draw(u, kU, rng), true
}

// draw returns k of the entries of idx without replacement, in their order
// in idx (a partial Fisher-Yates shuffle of positions, then sorted).
func draw(idx []int, k int, rng *rand.Rand) []int {
	pos := make([]int, len(idx))
	for i := range pos {
		pos[i] = i
	}
	for i := range k {
		j := i + rng.IntN(len(pos)-i)
		pos[i], pos[j] = pos[j], pos[i]
	}
	pos = pos[:k]
	slices.Sort(pos)
	out := make([]int, k)
	for i, p := range pos {
		out[i] = idx[p]
	}
	return out
}

// gather copies the given rows of x into a new matrix.
func gather(x *mat.Dense, rows []int) *mat.Dense {
	_, d := x.Dims()
	data := make([]float64, 0, len(rows)*d)
	for _, i := range rows {
		data = append(data, x.RawRowView(i)...)
	}
	return mat.NewDense(len(rows), d, data)
}
