package bounds

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Betas holds, for each of the four area bounds, the beta whose curve gives
// it.
type Betas struct{ AUCLow, AUCHigh, AUPRLow, AUPRHigh float64 }

// latentRange is the whole numbers of latent positives P_U = floor(beta
// |U|) that the betas of an interval give (Rounded counting): every number
// from the one at the low end to the one at the high end, each given by some
// beta of the interval. For the negative-based bounds the flipped ranking's
// P'_U = floor((1 - beta) |U|) runs the other way.
func latentRange(beta Interval, u int, neg bool) (lo, hi int) {
	at := func(b float64) int {
		if neg {
			b = 1 - b
		}
		return int(math.Floor(float64(b * float64(u))))
	}
	lo, hi = at(beta.Low), at(beta.High)
	if neg {
		lo, hi = hi, lo
	}
	return lo, hi
}

// betaOf is a beta of the interval that gives k latent positives (of the
// flipped ranking when neg): about k/|U| (1 - k/|U|), moved by a few ulps
// where rounding would give the neighbouring count, within the interval.
func betaOf(k int, beta Interval, u int, neg bool) float64 {
	count := func(b float64) int {
		if neg {
			b = 1 - b
		}
		return int(math.Floor(float64(b * float64(u))))
	}
	b := float64(k) / float64(u)
	if neg {
		b = 1 - b
	}
	b = min(max(b, beta.Low), beta.High)
	// The count is monotone in b (falling when neg): step towards k.
	for range 64 {
		c := count(b)
		switch {
		case c == k:
			return b
		case (c < k) != neg:
			b = min(math.Nextafter(b, 1), beta.High)
		default:
			b = max(math.Nextafter(b, 0), beta.Low)
		}
	}
	return b
}

// extreme is the most extreme value of one area over the counts scanned,
// and the count that gives it (the smallest such count on a tie, so that the
// result does not depend on how the scan is split).
type extreme struct {
	v float64
	k int
}

// better reports whether a is more extreme than b: smaller for a lower
// bound (min), larger for an upper one.
func (a extreme) better(b extreme, min bool) bool {
	switch {
	case a.v != b.v && min:
		return a.v < b.v
	case a.v != b.v:
		return a.v > b.v
	}
	return a.k < b.k
}

// extremes are the four area bounds of a scan: the lower curves' smallest
// AUC and AUPR, the upper curves' largest.
type extremes struct{ aucLow, auprLow, aucHigh, auprHigh extreme }

// quantities is a set of the four area bounds.
type quantities uint8

const (
	qAUCLow quantities = 1 << iota
	qAUPRLow
	qAUCHigh
	qAUPRHigh
	qLower = qAUCLow | qAUPRLow   // the lower curve's
	qUpper = qAUCHigh | qAUPRHigh // the upper curve's
	qAll   = qLower | qUpper
)

// none is the extremes of no count: each never better than another.
func none() extremes {
	lo, hi := extreme{math.Inf(1), math.MaxInt}, extreme{math.Inf(-1), math.MaxInt}
	return extremes{aucLow: lo, auprLow: lo, aucHigh: hi, auprHigh: hi}
}

func (e *extremes) merge(o extremes) {
	for _, p := range []struct {
		dst *extreme
		src extreme
		min bool
	}{{&e.aucLow, o.aucLow, true}, {&e.auprLow, o.auprLow, true}, {&e.aucHigh, o.aucHigh, false}, {&e.auprHigh, o.auprHigh, false}} {
		if p.src.better(*p.dst, p.min) {
			*p.dst = p.src
		}
	}
}

// scanner computes the four areas at one count of latent positives, reusing
// its tables and sort buffers.
type scanner struct {
	m            *tableMaker
	neg          bool // negative-based: m is the flipped ranking's, and its tables are flipped back
	lower, upper Curve
	s            scratch
	su           scratch // the upper curve's, when both curves are computed at once (only)
}

func (m *tableMaker) scanner(neg bool) *scanner {
	lower, upper := m.curves(Rounded)
	return &scanner{m: m, neg: neg, lower: lower, upper: upper}
}

// at builds the curves at k latent positives (of the flipped ranking when
// neg) and returns their areas.
func (s *scanner) at(k int) extremes {
	lower, upper := s.curvesAt(k)
	return extremes{
		aucLow: extreme{lower.auc(&s.s), k}, auprLow: extreme{lower.aupr(&s.s), k},
		aucHigh: extreme{upper.auc(&s.s), k}, auprHigh: extreme{upper.aupr(&s.s), k},
	}
}

// only returns the areas q of the positive-based curves at k latent
// positives, building only the curves they need; the others are none's.
func (s *scanner) only(k int, q quantities) extremes {
	e := none()
	lower := func() {
		s.m.fill(s.lower.Tables, nil, float64(k), Rounded)
		if q&qAUCLow != 0 {
			e.aucLow = extreme{s.lower.auc(&s.s), k}
		}
		if q&qAUPRLow != 0 {
			e.auprLow = extreme{s.lower.aupr(&s.s), k}
		}
	}
	upper := func() {
		s.m.fill(nil, s.upper.Tables, float64(k), Rounded)
		if q&qAUCHigh != 0 {
			e.aucHigh = extreme{s.upper.auc(&s.su), k}
		}
		if q&qAUPRHigh != 0 {
			e.auprHigh = extreme{s.upper.aupr(&s.su), k}
		}
	}
	both(q&qLower != 0, lower, q&qUpper != 0, upper)
	return e
}

// both runs the functions whose flag is set, at once when both are: the
// lower and the upper curve share nothing but what they read.
func both(doA bool, a func(), doB bool, b func()) {
	switch {
	case doA && doB:
		var wg sync.WaitGroup
		wg.Go(a)
		b()
		wg.Wait()
	case doA:
		a()
	case doB:
		b()
	}
}

// curvesAt fills the scanner's curves at k latent positives and returns
// them as lower and upper: for negative-based bounds the flipped ranking's
// upper tables, flipped back, are the lower curve (the fewest latent
// negatives above each cut-off make the highest curve) and its lower tables
// the upper one.
func (s *scanner) curvesAt(k int) (lower, upper Curve) {
	s.m.fill(s.lower.Tables, s.upper.Tables, float64(k), Rounded)
	if !s.neg {
		return s.lower, s.upper
	}
	for i := range s.lower.Tables {
		s.lower.Tables[i], s.upper.Tables[i] = s.upper.Tables[i].flip(), s.lower.Tables[i].flip()
	}
	return s.lower, s.upper
}

// scan returns the extremes of the four areas over every count of latent
// positives in [lo, hi], split over the machine's cores. Each count costs
// O(cut-offs + |U|); the result does not depend on the split.
func (m *tableMaker) scan(ctx context.Context, lo, hi int, neg bool) (extremes, error) {
	if err := m.checkLatent(float64(hi)); err != nil {
		return extremes{}, err
	}
	n := hi - lo + 1
	workers := min(runtime.GOMAXPROCS(0), n, 1+n/16)
	parts := make([]extremes, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		a, b := lo+w*n/workers, lo+(w+1)*n/workers-1
		wg.Go(func() { parts[w], errs[w] = m.scanPart(ctx, a, b, neg) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return extremes{}, err
		}
	}
	for _, p := range parts[1:] {
		parts[0].merge(p)
	}
	return parts[0], nil
}

// scanPart is scan over [lo, hi] on one core.
func (m *tableMaker) scanPart(ctx context.Context, lo, hi int, neg bool) (extremes, error) {
	s := m.scanner(neg)
	e := s.at(lo)
	for k := lo + 1; k <= hi; k++ {
		if err := ctx.Err(); err != nil {
			return extremes{}, fmt.Errorf("bounds: stopped after %d of %d counts of latent positives: %w", k-lo, hi-lo+1, context.Cause(ctx))
		}
		e.merge(s.at(k))
	}
	return e, nil
}

// intervalBounds are the bounds over every beta of an interval: the scan's
// extremes, with the curves that give them built anew.
func (r *Ranking) intervalBounds(ctx context.Context, band Band, beta Interval, neg bool) (Bounds, error) {
	if err := checkInterval(beta); err != nil {
		return Bounds{}, err
	}
	on := r
	if neg {
		if r.nNeg == 0 {
			return Bounds{}, ErrNoKnownNegative
		}
		on = r.Flip()
	}
	m, err := on.tableMaker(band)
	if err != nil {
		return Bounds{}, err
	}
	lo, hi := latentRange(beta, r.nUnl, neg)
	var e extremes
	if neg {
		e, err = m.scan(ctx, lo, hi, neg)
	} else {
		e, err = m.search(ctx, lo, hi)
	}
	if err != nil {
		return Bounds{}, err
	}
	curve := func(x extreme, lower bool) Curve {
		s := m.scanner(neg)
		l, u := s.curvesAt(x.k)
		if lower {
			return l
		}
		return u
	}
	at := func(x extreme) float64 { return betaOf(x.k, beta, r.nUnl, neg) }
	return Bounds{
		Beta:  beta,
		Lower: curve(e.aucLow, true), Upper: curve(e.aucHigh, false),
		LowerPR: curve(e.auprLow, true), UpperPR: curve(e.auprHigh, false),
		AUC:           Interval{e.aucLow.v, e.aucHigh.v},
		AUPR:          Interval{e.auprLow.v, e.auprHigh.v},
		At:            Betas{AUCLow: at(e.aucLow), AUCHigh: at(e.aucHigh), AUPRLow: at(e.auprLow), AUPRHigh: at(e.auprHigh)},
		FromNegatives: neg,
	}, nil
}

// searchSlack is how much wider than the extremes over an interval the
// positive-based bounds may be: a range of counts whose range bound lies
// within it of the best area found is not searched further, and its bound
// counts towards the reported one. So the bounds are never narrower than
// the extremes (every count of the interval is inside them) and at most
// searchSlack wider, which spares the search the counts near an extreme,
// where the areas differ from it by less than the range bounds can tell.
const searchSlack = 1e-4

// searchGrid is the number of counts first evaluated, evenly over the
// range; searchLeaf the length of a range evaluated count by count rather
// than bounded.
const (
	searchGrid = 8
	searchLeaf = 2
)

// searcher holds the buffers of the search: the scanner of exact areas and
// the tables at the two ends of a range for its bounds.
type searcher struct {
	*scanner
	la, ua, lb, ub []Table
	lower, upper   rangeCurve
	rs, rsu        rangeScratch // the lower and the upper curve's
	// rounding is the most the range bounds' float sums can fall short of
	// their exact values (a few ulps per cut-off), added to a bound that
	// counts towards the reported one.
	rounding float64
	// outer holds the bounds of the ranges left unsearched: the smallest
	// lower-area bound and the largest upper-area bound, each already
	// within searchSlack of the best area.
	outer struct{ aucLow, auprLow, aucHigh, auprHigh float64 }
}

// search returns the four bounds over every count of latent positives in
// [lo, hi] of the positive-based curves: each the extreme of its area over
// the counts, or at most searchSlack beyond it (see searchSlack). It
// evaluates a grid of counts, then bounds each range between two evaluated
// counts (rangebound.go): a range whose bounds cannot beat the best areas
// found by more than searchSlack is settled (its bounds count towards the
// result), otherwise it is split at its middle, which is evaluated. A range
// keeps the areas still open: its parts bound and evaluate only those, and
// only the curves they need. Ranges of a few counts are evaluated whole.
// Sequential, so the result (and the count reported for each extreme) does
// not depend on the machine. The extremes' counts are those of the best
// areas found.
func (m *tableMaker) search(ctx context.Context, lo, hi int) (extremes, error) {
	if err := m.checkLatent(float64(hi)); err != nil {
		return extremes{}, err
	}
	n := len(m.r.cut)
	s := &searcher{scanner: m.scanner(false), la: make([]Table, n), ua: make([]Table, n), lb: make([]Table, n), ub: make([]Table, n),
		lower: rangeCurve{m: m, lower: true}, upper: rangeCurve{m: m}, rounding: 1e-15 + float64(4e-16*float64(n))}
	s.outer.aucLow, s.outer.auprLow, s.outer.aucHigh, s.outer.auprHigh = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	best := s.only(lo, qAll)
	type seg struct {
		a, b int
		q    quantities // the areas that may beat the best in (a, b)
	}
	var stack []seg
	steps := min(searchGrid, hi-lo)
	prev := lo
	for i := 1; i <= steps; i++ {
		k := lo + int(int64(hi-lo)*int64(i)/int64(steps))
		best.merge(s.only(k, qAll))
		stack = append(stack, seg{prev, k, qAll})
		prev = k
	}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return extremes{}, fmt.Errorf("bounds: stopped while searching %d counts of latent positives: %w", hi-lo+1, context.Cause(ctx))
		}
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g.b-g.a <= searchLeaf {
			for k := g.a + 1; k < g.b; k++ {
				best.merge(s.only(k, g.q))
			}
			continue
		}
		if q := s.mayBeat(g.a, g.b, g.q, best); q != 0 {
			mid := g.a + (g.b-g.a)/2
			best.merge(s.only(mid, q))
			stack = append(stack, seg{mid, g.b, q}, seg{g.a, mid, q})
		}
	}
	best.aucLow.v, best.auprLow.v = min(best.aucLow.v, s.outer.aucLow), min(best.auprLow.v, s.outer.auprLow)
	best.aucHigh.v, best.auprHigh.v = max(best.aucHigh.v, s.outer.aucHigh), max(best.auprHigh.v, s.outer.auprHigh)
	return best, nil
}

// coarseBoxes and fineBlock set the coarse range bounds tried before the
// cut-offs' own boxes: boxes of blocks of cut-offs, first about coarseBoxes
// of them, then blocks of fineBlock cut-offs, so that a range is settled at
// the smallest cost its distance from the best areas allows.
const (
	coarseBoxes = 4096
	fineBlock   = 16
)

// mayBeat returns the areas of q for which some count in (a, b) may lie
// beyond the best by more than searchSlack, by the bounds over [a, b]; the
// bounds of the others, where they pass the best, go into s.outer. The
// coarse bounds of blocks of cut-offs come first; the areas they leave open
// get the bounds of the cut-offs' own boxes.
func (s *searcher) mayBeat(a, b int, q quantities, best extremes) quantities {
	n := len(s.m.r.cut)
	for _, block := range []int{n / coarseBoxes, fineBlock} {
		if block < 2 || 4*block > n {
			continue
		}
		s.lower.resetBlocks(a, b, block)
		s.upper.resetBlocks(a, b, block)
		if q = s.settle(q, best); q == 0 {
			return 0
		}
	}
	both(q&qLower != 0, func() {
		s.m.fill(s.la, nil, float64(a), Rounded)
		s.m.fill(s.lb, nil, float64(b), Rounded)
	}, q&qUpper != 0, func() {
		s.m.fill(nil, s.ua, float64(a), Rounded)
		s.m.fill(nil, s.ub, float64(b), Rounded)
	})
	s.lower.reset(a, b, s.la, s.lb)
	s.upper.reset(a, b, s.ua, s.ub)
	return s.settle(q, best)
}

// settle bounds each area of q over the searcher's ranges (s.lower and
// s.upper) and returns those whose bound beats the best by more than
// searchSlack; the others are settled, their bound going into s.outer where
// it passes the best.
func (s *searcher) settle(q quantities, best extremes) quantities {
	lower, upper := &s.lower, &s.upper
	checks := []struct {
		q     quantities
		bound func() float64
		best  float64
		outer *float64
		upper bool
		v     float64
	}{
		{q: qAUCHigh, bound: func() float64 { return s.rsu.rocUpper(upper) }, best: best.aucHigh.v, outer: &s.outer.aucHigh, upper: true},
		{q: qAUPRHigh, bound: func() float64 { return s.rsu.prBound(upper, true) }, best: best.auprHigh.v, outer: &s.outer.auprHigh, upper: true},
		{q: qAUCLow, bound: func() float64 { return s.rs.rocLower(lower) }, best: best.aucLow.v, outer: &s.outer.aucLow},
		{q: qAUPRLow, bound: func() float64 { return s.rs.prBound(lower, false) }, best: best.auprLow.v, outer: &s.outer.auprLow},
	}
	// The upper curve's bounds (the first two) and the lower curve's at once.
	run := func(from, to int) func() {
		return func() {
			for i := from; i < to; i++ {
				if q&checks[i].q != 0 {
					checks[i].v = checks[i].bound()
				}
			}
		}
	}
	both(q&qUpper != 0, run(0, 2), q&qLower != 0, run(2, 4))
	var open quantities
	for _, c := range checks {
		if q&c.q == 0 {
			continue
		}
		v := c.v
		switch {
		case c.upper && v > c.best+searchSlack, !c.upper && v < c.best-searchSlack:
			open |= c.q
		case c.upper && v+s.rounding > c.best:
			*c.outer = max(*c.outer, min(v+s.rounding, 1))
		case !c.upper && v-s.rounding < c.best:
			*c.outer = min(*c.outer, max(v-s.rounding, 0))
		}
	}
	return open
}
