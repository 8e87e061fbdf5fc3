package classprior

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/internal/portmath"
)

// The rank scale. Each run maps every score x, of either sample, to the
// component sample's mid-distribution function
//
//	v(x) = (#{component scores < x} + #{component scores = x}/2) / n1,
//
// the mid-rank of x among the n1 component scores as a fraction of them,
// and draws its histogram on equal bins of v in [0, 1]. v depends on the
// scores only through their order and ties, so any strictly increasing
// transform of the scores (probabilities, logits, ranks) gives the same
// histograms and the same estimate, to the bit; and each bin holds the same
// share of the component, so no bin in a tail holds a handful of its scores.
// That is why the estimate does not drift with n there. On the raw scale,
// Scott's bins narrow as n^(-1/3) while the tails reach further out, so the
// number of sparsely filled tail bins grows with n; each such bin whose
// component share is high by chance lowers the likelihood a little, and
// their sum crosses the drop rule's fixed tolerance at ever smaller alpha
// (on N(2,1) against N(0,1), alpha 0.3, the blend rule's estimate falls
// from 0.31 at 10^5 scores to 0.22 at 10^6).
//
// v of a group of tied scores is (2 less + c)/(2 n1), less the component
// scores below the group and c the group's component scores, so the binning
// is integer arithmetic and a group lies in exactly one bin.

// rankKey maps a finite score to a key that sorts as the score does, with
// -0 and +0 the same key.
func rankKey(f float64) uint64 {
	if f == 0 {
		f = 0
	}
	b := math.Float64bits(f)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

const (
	rankRadixBits   = 11
	rankRadixSize   = 1 << rankRadixBits
	rankRadixPasses = (64 + rankRadixBits - 1) / rankRadixBits
	// Below this length a comparison sort is faster than the counting passes.
	rankRadixMin = 1 << 10
	// Above this pooled size the two sides are sorted concurrently.
	rankParallelMin = 1 << 16
)

// sortRankKeys sorts a ascending in place: an LSD radix sort with 11-bit
// digits that skips the passes in which every key has the same digit. ctx
// is asked before each pass.
func sortRankKeys(ctx context.Context, a []uint64) error {
	if len(a) < rankRadixMin {
		slices.Sort(a)
		return nil
	}
	var counts [rankRadixPasses][rankRadixSize]int
	for _, k := range a {
		for p := range rankRadixPasses {
			counts[p][(k>>(p*rankRadixBits))&(rankRadixSize-1)]++
		}
	}
	src, dst := a, make([]uint64, len(a))
	for p := range rankRadixPasses {
		if err := interrupt.Check(ctx); err != nil {
			return err
		}
		c := &counts[p]
		if i := slices.IndexFunc(c[:], func(v int) bool { return v != 0 }); c[i] == len(a) {
			continue // every key has this digit
		}
		sum := 0
		for d := range c {
			c[d], sum = sum, sum+c[d]
		}
		shift := uint(p * rankRadixBits)
		for _, k := range src {
			d := (k >> shift) & (rankRadixSize - 1)
			dst[c[d]] = k
			c[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	return nil
}

// pooled is a PU sample prepared for the rank scale: the sort keys of the
// labeled and of the unlabeled scores, each ascending.
type pooled struct {
	l, u []uint64
}

// newPooled sorts both samples (the two sorts run concurrently for large
// samples; the result does not depend on it). A cancelled ctx stops it
// with an error wrapping its cause.
func newPooled(ctx context.Context, labeled, unlabeled []float64) (*pooled, error) {
	keys := func(s []float64) ([]uint64, error) {
		k := make([]uint64, len(s))
		tick := interrupt.New(ctx)
		for i, v := range s {
			k[i] = rankKey(v)
			if err := tick.Tick(); err != nil {
				return nil, err
			}
		}
		return k, nil
	}
	p := &pooled{}
	var err error
	if p.l, err = keys(labeled); err != nil {
		return nil, err
	}
	if p.u, err = keys(unlabeled); err != nil {
		return nil, err
	}
	var errL, errU error
	if len(labeled)+len(unlabeled) >= rankParallelMin {
		var wg sync.WaitGroup
		wg.Go(func() { errL = sortRankKeys(ctx, p.l) })
		errU = sortRankKeys(ctx, p.u)
		wg.Wait()
	} else {
		errL, errU = sortRankKeys(ctx, p.l), sortRankKeys(ctx, p.u)
	}
	if errL != nil {
		return nil, errL
	}
	if errU != nil {
		return nil, errU
	}
	return p, nil
}

// groups calls f for each group of tied scores of the pooled sample, in
// increasing order of score, with the group's labeled and unlabeled counts.
// ctx is asked every interrupt.Every groups.
func (p *pooled) groups(ctx context.Context, f func(nl, nu int)) error {
	tick := interrupt.New(ctx)
	i, j := 0, 0
	for i < len(p.l) || j < len(p.u) {
		var key uint64
		switch {
		case i == len(p.l):
			key = p.u[j]
		case j == len(p.u):
			key = p.l[i]
		default:
			key = min(p.l[i], p.u[j])
		}
		i0, j0 := i, j
		for i < len(p.l) && p.l[i] == key {
			i++
		}
		for j < len(p.u) && p.u[j] == key {
			j++
		}
		f(i-i0, j-j0)
		if err := tick.Tick(); err != nil {
			return err
		}
	}
	return nil
}

// sides returns the sizes of the mixture and the component sample of a run:
// the labeled sample is the component when componentL is set.
func (p *pooled) sides(componentL bool) (n, n1 int) {
	if componentL {
		return len(p.u), len(p.l)
	}
	return len(p.l), len(p.u)
}

// rankBins returns the number of bins K of a run on the rank scale whose
// component has n1 scores: K = ceil(1/w), w = 3.5 s/n1^(1/3) Scott's normal
// reference width of n1 untied values (i - 1/2)/n1, whose standard
// deviation (with n1 - 1) is s = sqrt((n1 + 1)/(12 n1)), as the published
// code sizes its bins from the component, without the rounding to a "nice"
// width (which would leave a partial bin at the top of [0, 1]). K is about
// n1^(1/3): 5 bins for 100 component scores, 22 for 10^4, 99 for 10^6, 214
// for 10^7; at most n1. It depends on n1 alone: ties only leave some bins
// empty.
func rankBins(n1 int) int {
	s := math.Sqrt(float64(n1+1) / float64(12*n1))
	w := 3.5 * s / portmath.Cbrt(float64(n1))
	return int(min(math.Ceil(1/w), float64(n1)))
}

// rankBinner fills one histogram of the rank scale during a walk over the
// groups of tied scores: K equal bins of v whose edges start shift/shifts
// of a bin below 0. The group with value v goes to bin
// floor(v K + shift/shifts), computed exactly in integers, and a score above
// every component score (v = 1) to the last bin, so no score lies on an edge
// and the weights are the relative frequencies.
type rankBinner struct {
	h          *histogram
	componentL bool
	k, shifts  int64
	den, off   int64
	less       int // component scores below the current group
}

func newRankBinner(p *pooled, componentL bool, shift, shifts int) *rankBinner {
	k := rankBins(len(p.u))
	if componentL {
		k = rankBins(len(p.l))
	}
	h := &histogram{width: 1 / float64(k), xmin: -float64(shift) / float64(shifts) / float64(k), nBins: k}
	if shift > 0 {
		h.nBins++
	}
	h.n, h.n1 = p.sides(componentL)
	return &rankBinner{h: h, componentL: componentL, k: int64(k), shifts: int64(shifts),
		den: int64(2*h.n1) * int64(shifts), off: int64(2*h.n1) * int64(shift)}
}

// add bins the next group of tied scores: nl labeled, nu unlabeled.
func (b *rankBinner) add(nl, nu int) {
	h := b.h
	mix, comp := nl, nu
	if b.componentL {
		mix, comp = nu, nl
	}
	bin := min(int((int64(2*b.less+comp)*b.k*b.shifts+b.off)/b.den), h.nBins-1)
	b.less += comp
	if last := len(h.bin) - 1; last < 0 || h.bin[last] != bin {
		h.bin = append(h.bin, bin)
		h.mixIn = append(h.mixIn, 0)
		h.compIn = append(h.compIn, 0)
	}
	h.mixIn[len(h.bin)-1] += float64(mix)
	h.compIn[len(h.bin)-1] += float64(comp)
}

// finish sets the weights (and the empty edge counts) of the histogram.
func (b *rankBinner) finish() *histogram {
	h := b.h
	e := max(len(h.bin)-1, 0)
	h.mixEdge, h.compEdge = make([]float64, e), make([]float64, e)
	h.a, h.p = make([]float64, len(h.bin)), make([]float64, len(h.bin))
	for i := range h.bin {
		h.a[i] = h.mixIn[i] / float64(h.n)
		h.p[i] = h.compIn[i] / float64(h.n1)
	}
	return h
}

// rankHistograms returns the rank scale's histograms of every run of
// componentL (the labeled sample is the component of a run whose entry is
// true) at every origin j of shifts, out[run][j], binned in one walk over
// the scores.
func (p *pooled) rankHistograms(ctx context.Context, componentL []bool, shifts int) ([][]*histogram, error) {
	var all []*rankBinner
	for _, l := range componentL {
		for j := range shifts {
			all = append(all, newRankBinner(p, l, j, shifts))
		}
	}
	err := p.groups(ctx, func(nl, nu int) {
		for _, b := range all {
			b.add(nl, nu)
		}
	})
	if err != nil {
		return nil, err
	}
	out := make([][]*histogram, len(componentL))
	for i, b := range all {
		out[i/shifts] = append(out[i/shifts], b.finish())
	}
	return out, nil
}
