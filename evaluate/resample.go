package evaluate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/metrics"
)

// resampleResult is what one bootstrap resample gives.
type resampleResult struct {
	ok                 bool
	alpha, beta        float64 // the priors it used (re-estimated or fixed)
	estimated          bool    // alpha and beta were estimated (even if unusable)
	auc, direct, aucpr float64
	measures           [len(recovery.Measures)]float64
	roc, pr            []float64 // the recovered curves on the band grid
	// at are the measures at the caller's threshold (hasAt: it was given).
	at    [len(recovery.Measures)]float64
	hasAt bool
}

// Resampler draws bootstrap resamples of a PU sample with its scores held
// fixed: L and U are resampled separately with replacement (their sizes
// kept), alpha and beta are estimated again in each resample by the named
// estimator (or held at given values), and every recovered number is
// computed again.
//
// The scores are fixed, so a resample is a count of draws per distinct
// score of the sample's ranking, L's and U's apart (a [recovery.Tally]):
// every PU count at every threshold is a running sum of those counts, and
// recovery.Workspace recovers the numbers from them with no sort of the
// scores and no copy of them. The draws are uniform indices into L's rows
// (and U's) in ranking order; the first ones, as many as the estimator
// reads (see [Options.EstimatorMaxRows]), are its input, a random subsample
// of the resample, and the rest only count. Resample b draws only from
// streams of (seed, b), so the results are the same whatever the number or
// order of the workers.
type Resampler struct {
	r           *metrics.Ranking // the sample's ranking (labeled = positive)
	base        recovery.Tally   // its counts per threshold
	lGroup      []int32          // the threshold of each labeled row, in ranking order
	uGroup      []int32          // likewise the unlabeled rows
	lRows       []int            // the row of each labeled row in ranking order (feature-reading method only)
	uRows       []int            // likewise
	features    *mat.Dense
	method      string  // "" with fixed priors
	alpha, beta float64 // the fixed priors
	mL, mU      int     // the draws of L and U the estimator reads
	atK         int     // the threshold of Options.Threshold in r; -1 without one
	opts        Options
}

// newResampler prepares the resamples of the sample r ranks (scores and
// labeled are its input, in row order); for a feature-reading method it
// sorts the rows into ranking order, stopped by ctx.
func newResampler(ctx context.Context, r *metrics.Ranking, in Input, method string, alpha, beta float64, opts Options) (*Resampler, error) {
	base, err := recovery.TallyOf(r)
	if err != nil {
		return nil, fmt.Errorf("evaluate: bootstrap: %w", err)
	}
	s := &Resampler{r: r, base: base, method: method, alpha: alpha, beta: beta, atK: -1, opts: opts}
	if opts.Threshold != nil {
		s.atK = thresholdIndex(r, *opts.Threshold)
	}
	s.lGroup, s.uGroup = groupsOf(base.L, base.NL), groupsOf(base.U, base.NU)
	limit := opts.EstimatorMaxRows
	if method != "" && ReadsFeatures(method) {
		s.features, limit = in.Features, opts.KMMaxRows
		if s.lRows, s.uRows, err = rowsInRankOrder(ctx, in.Scores, in.Labeled); err != nil {
			return nil, fmt.Errorf("evaluate: bootstrap: %w", err)
		}
	}
	s.mL, s.mU, _ = subsampleSizes(base.NL, base.NU, limit)
	if method == "" {
		s.mL, s.mU = 0, 0
	}
	return s, nil
}

// groupsOf returns the threshold of each of the n rows that counts (per
// threshold) spreads out, in ranking order.
func groupsOf(counts []uint32, n int) []int32 {
	g := make([]int32, 0, n)
	for k, c := range counts {
		for range c {
			g = append(g, int32(k))
		}
	}
	return g
}

// rowsInRankOrder returns the rows of L and of U in ranking order (by
// score descending, then row; -0 ties +0 as in the ranking): the rows a
// draw of a ranking position stands for, for the estimators that read
// features.
func rowsInRankOrder(ctx context.Context, scores []float64, labeled []bool) (l, u []int, err error) {
	l, u = rowsOf(labeled)
	byScore := func(a, b int) int {
		if scores[a] != scores[b] {
			if scores[a] > scores[b] {
				return -1
			}
			return 1
		}
		return a - b
	}
	if err := interrupt.SortFunc(ctx, l, byScore); err != nil {
		return nil, nil, err
	}
	return l, u, interrupt.SortFunc(ctx, u, byScore)
}

// scratch is a worker's memory, reused from resample to resample.
type scratch struct {
	tally    recovery.Tally
	blocks   []int32 // per block of rows: its draws
	ends     []int32 // per block: where its estimator's draws end in firsts
	firsts   []int32 // the estimator's draws (row indices), by block
	order    []int32 // the estimator's draws in draw order, before they are put by block
	estL     []float64
	estU     []float64
	estLRows []int
	estURows []int
	ws       recovery.Workspace
}

// blockBits is log2 of the rows of a block of the draws: a block's
// thresholds and counts (4,096 rows) stay in the cache while its draws
// land.
const blockBits = 12

// draw draws resample b into sc.tally, and the estimator's input (the
// first s.mL and s.mU draws) into sc.est*, asking ctx every
// interrupt.Every draws.
func (s *Resampler) draw(ctx context.Context, b int, sc *scratch) error {
	rng := rand.NewPCG(streamSeed(s.opts.Seed, tagResample, uint64(b))) // concrete: the draws call it directly
	n := len(s.base.L)
	sc.tally = recovery.Tally{L: grow(sc.tally.L, n), U: grow(sc.tally.U, n), NL: s.base.NL, NU: s.base.NU}
	clear(sc.tally.L)
	clear(sc.tally.U)
	var err error
	sc.estL, sc.estLRows, err = s.drawSide(ctx, rng, sc, sc.tally.L, s.lGroup, s.lRows, s.mL, sc.estL[:0], sc.estLRows[:0])
	if err != nil {
		return err
	}
	sc.estU, sc.estURows, err = s.drawSide(ctx, rng, sc, sc.tally.U, s.uGroup, s.uRows, s.mU, sc.estU[:0], sc.estURows[:0])
	return err
}

// drawSide draws len(group) rows with replacement into counts (per
// threshold): len(group) uniform row indices, the first m of them the
// estimator's input (their scores, and their rows where rows is given).
// The rows are drawn block by block, so that a block's draws land in a
// few cached kilobytes: first the number of draws in each block of
// 2^blockBits rows (an index into all rows, of which only the block is
// kept), then each draw's row within its block. Both steps are uniform, so
// every draw is a uniform row, independent of the others; the estimator's
// draws are kept whole and visited with their block. ctx is asked every
// interrupt.Every draws of each pass.
func (s *Resampler) drawSide(ctx context.Context, rng *rand.PCG, sc *scratch, counts []uint32, group []int32, rows []int, m int,
	est []float64, estRows []int) ([]float64, []int, error) {
	n := len(group)
	nb := (n + 1<<blockBits - 1) >> blockBits
	u := newUniform32(rng, n)
	tick := interrupt.New(ctx)
	if err := sc.drawFirsts(tick, u, m, nb); err != nil {
		return nil, nil, err
	}
	if err := sc.drawBlocks(ctx, u, n-m, nb); err != nil {
		return nil, nil, err
	}
	from, left := int32(0), interrupt.Every
	for b, c := range sc.blocks {
		start := b << blockBits
		rowsIn := group[start:min(n, start+1<<blockBits)]
		for _, i := range sc.firsts[from:sc.ends[b]] {
			k := group[i]
			counts[k]++
			est = append(est, s.r.Threshold(int(k)))
			if rows != nil {
				estRows = append(estRows, rows[i])
			}
		}
		from = sc.ends[b]
		drawInBlock(rng, counts, rowsIn, int(c))
		if left -= int(c) + 1; left <= 0 {
			left = interrupt.Every
			if err := interrupt.Check(ctx); err != nil {
				return nil, nil, err
			}
		}
	}
	return est, estRows, nil
}

// drawFirsts draws the estimator's m rows (of nb blocks) into sc.firsts,
// by block (a counting sort of the draws in draw order): block b's are
// sc.firsts[sc.ends[b-1]:sc.ends[b]].
func (sc *scratch) drawFirsts(tick *interrupt.Ticker, u *uniform32, m, nb int) error {
	sc.order, sc.firsts = grow(sc.order, m), grow(sc.firsts, m)
	sc.ends = grow(sc.ends, nb+1)
	ends := sc.ends
	clear(ends)
	for j := range sc.order {
		i := u.next()
		sc.order[j] = int32(i)
		ends[1+i>>blockBits]++
		if err := tick.Tick(); err != nil {
			return err
		}
	}
	for b := 1; b <= nb; b++ {
		ends[b] += ends[b-1]
	}
	for _, i := range sc.order {
		b := i >> blockBits
		sc.firsts[ends[b]] = i
		ends[b]++ // ends[b] ends as block b's end, block b+1's start
		if err := tick.Tick(); err != nil {
			return err
		}
	}
	return nil
}

// drawBlocks counts the block of each of c draws (of nb blocks) into
// sc.blocks, asking ctx every interrupt.Every draws from a counter in a
// register: it is the loop of every draw.
func (sc *scratch) drawBlocks(ctx context.Context, u *uniform32, c, nb int) error {
	sc.blocks = grow(sc.blocks, nb)
	blocks := sc.blocks
	clear(blocks)
	left := interrupt.Every
	for range c {
		blocks[u.next()>>blockBits]++
		if left--; left == 0 {
			left = interrupt.Every
			if err := interrupt.Check(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// drawInBlock draws c rows of a block uniformly into counts: from 12 bits
// each of a 64-bit word in a full block, by a uniform32 in the last.
func drawInBlock(rng *rand.PCG, counts []uint32, group []int32, c int) {
	if len(group) < 1<<blockBits {
		u := newUniform32(rng, len(group))
		for range c {
			counts[group[u.next()]]++
		}
		return
	}
	const perWord, mask = 64 / blockBits, 1<<blockBits - 1
	for ; c >= perWord; c -= perWord {
		w := rng.Uint64()
		for range perWord {
			counts[group[w&mask]]++
			w >>= blockBits
		}
	}
	w := rng.Uint64()
	for range c {
		counts[group[w&mask]]++
		w >>= blockBits
	}
}

// uniform32 draws uniform integers in [0, n), n < 2^32, two from each
// 64-bit word of rng: Lemire's multiply-and-shift on each 32-bit half,
// rejecting the few values that would bias it (exactly uniform).
type uniform32 struct {
	rng    *rand.PCG
	n      uint64
	thresh uint32 // 2^32 mod n: a product's low half below it is rejected
	word   uint64
	half   bool // the word's high half is left
}

func newUniform32(rng *rand.PCG, n int) *uniform32 {
	return &uniform32{rng: rng, n: uint64(n), thresh: uint32(-uint32(n)) % uint32(n)}
}

// next returns the next draw.
func (u *uniform32) next() int {
	for {
		var x uint32
		if u.half {
			x, u.half = uint32(u.word>>32), false
		} else {
			u.word, u.half = u.rng.Uint64(), true
			x = uint32(u.word)
		}
		if p := uint64(x) * u.n; uint32(p) >= u.thresh {
			return int(p >> 32)
		}
	}
}

// resample computes resample b with the worker's scratch: the draws, the
// estimate, and the numbers from the tally. ctx is asked every
// interrupt.Every draws and thresholds and between the steps.
func (s *Resampler) resample(ctx context.Context, b int, sc *scratch) (resampleResult, error) {
	if err := s.draw(ctx, b, sc); err != nil {
		return resampleResult{}, err
	}
	out := resampleResult{alpha: s.alpha, beta: s.beta}
	if s.method != "" {
		out.estimated = true
		smp := sample{labeled: sc.estL, unlabeled: sc.estU, lRows: sc.estLRows, uRows: sc.estURows}
		e, _, _, err := estimateOn(ctx, s.method, smp, s.features, s.opts,
			stream(s.opts.Seed, tagResampleEstimator, uint64(b)), stream(s.opts.Seed, tagResampleEstimator, uint64(b), 1))
		if err != nil {
			if ctx.Err() != nil {
				return out, context.Cause(ctx)
			}
			out.alpha, out.beta = math.NaN(), math.NaN()
			return out, nil // an estimator that fails on a resample: the resample fails
		}
		out.alpha, out.beta = e.Alpha, e.Beta
	}
	if recovery.CheckPriors(out.alpha, out.beta) != nil {
		return out, nil // beta <= alpha: the resample fails
	}
	num, err := sc.ws.Recover(ctx, sc.tally, out.alpha, out.beta, s.opts.Outside)
	if err != nil {
		if ctx.Err() != nil {
			return out, context.Cause(ctx)
		}
		return out, err // the tally adds up and the priors were checked: a bug
	}
	out.auc, out.direct, out.aucpr = num.AUC, num.Direct, num.AUCPR
	for i, m := range num.Max {
		out.measures[i] = m.Value
	}
	if s.atK >= 0 {
		if out.at, err = recovery.AtThreshold(sc.tally, s.atK, out.alpha, out.beta); err != nil {
			return out, err // as Recover's: a bug
		}
		out.hasAt = true
	}
	out.roc, out.pr = rocCurve(&num).grid(), prCurve(&num).grid()
	out.ok = true
	return out, interrupt.Check(ctx)
}

// subsampleSizes is how many of nL labeled and nU unlabeled rows an
// estimator that reads at most limit rows reads, and whether that is fewer
// than all: L and U in their proportions, each side at least min(10, its
// size).
func subsampleSizes(nL, nU, limit int) (kL, kU int, sub bool) {
	n := nL + nU
	if n <= limit {
		return nL, nU, false
	}
	kL = int(math.Round(float64(limit) * float64(nL) / float64(n)))
	kL = min(nL, max(kL, min(10, nL)))
	return kL, min(nU, limit-kL), true
}

// grow returns s with length n, reusing its memory when it has room.
func grow[E any](s []E, n int) []E {
	if cap(s) >= n {
		return s[:n]
	}
	return slices.Grow(s[:0], n)[:n]
}
