package benchevaluate

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/datasets/synth"
)

// Sample is a split's rows: features, which rows are labeled, and every
// row's true class.
type Sample struct {
	X       *mat.Dense
	Labeled []bool
	Truth   []bool
}

// splitmix is SplitMix64's output function (Steele, Lea and Flood 2014), a
// bijective mixer of 64-bit words.
func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// word hashes a name into a 64-bit word (FNV-1a).
func word(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// seedOf hashes the benchmark's seed with a role and a name (SplitMix64
// chained over the words): every stream and every seed handed to a
// classifier or to evaluate comes from it, so each depends on the seed
// and on what it is for, never on the order cases run in.
func seedOf(seed uint64, role, name string) uint64 {
	h := splitmix(seed)
	for _, w := range []uint64{word(role), word(name)} {
		h = splitmix(h ^ splitmix(w))
	}
	return h
}

// stream is the math/rand/v2 PCG stream of a seed, a role and a name.
func stream(seed uint64, role, name string) *rand.Rand {
	h := seedOf(seed, role, name)
	return rand.New(rand.NewPCG(h, splitmix(h^0x5bd1e9955bd1e995)))
}

// RealSample draws a split from a data set's rows (x, n x d, and y, true
// for a positive), without replacement: the split's numbers of labeled and
// unlabeled positives and negatives (Split.Counts), from the positives and
// the negatives each in an order shuffled by rng, in a shuffled row order.
func RealSample(x *mat.Dense, y []bool, s Split, rng *rand.Rand) (Sample, error) {
	var pos, neg []int
	for i, v := range y {
		if v {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	c := s.Counts()
	if !s.fits(len(pos), len(neg)) {
		return Sample{}, fmt.Errorf("split %s: wants %d positives and %d negatives; the data set has %d and %d", s.ID(), c.PosL+c.PosU, c.NegL+c.NegU, len(pos), len(neg))
	}
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	rng.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	type row struct {
		src            int
		labeled, truth bool
	}
	rows := make([]row, 0, s.N)
	for i := range c.PosL + c.PosU {
		rows = append(rows, row{pos[i], i < c.PosL, true})
	}
	for i := range c.NegL + c.NegU {
		rows = append(rows, row{neg[i], i < c.NegL, false})
	}
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	_, d := x.Dims()
	out := Sample{X: mat.NewDense(len(rows), d, nil), Labeled: make([]bool, len(rows)), Truth: make([]bool, len(rows))}
	for i, r := range rows {
		out.X.SetRow(i, x.RawRowView(r.src))
		out.Labeled[i], out.Truth[i] = r.labeled, r.truth
	}
	return out, nil
}

// SynthSample draws a split from a synthetic source: synth.Gaussian's N
// rows with the split's number of positives, in random order; the first
// PosL positives and the first NegL negatives in that order are labeled.
func SynthSample(src SynthSource, s Split, rng *rand.Rand) (Sample, error) {
	if err := s.check(); err != nil {
		return Sample{}, err
	}
	c := s.Counts()
	x, y, err := synth.Gaussian(rng, s.N, c.PosL+c.PosU, src.D, src.Separation)
	if err != nil {
		return Sample{}, fmt.Errorf("split %s: %w", s.ID(), err)
	}
	out := Sample{X: mat.NewDense(s.N, src.D, x), Labeled: make([]bool, s.N), Truth: y}
	posL, negL := 0, 0
	for i, v := range y {
		switch {
		case v && posL < c.PosL:
			out.Labeled[i] = true
			posL++
		case !v && negL < c.NegL:
			out.Labeled[i] = true
			negL++
		}
	}
	return out, nil
}
