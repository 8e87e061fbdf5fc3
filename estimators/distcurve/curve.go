package distcurve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/pueval/pueval/internal/interrupt"
)

// Points is the length of a distance curve: the percentiles 0, 1, ..., 99.
const Points = 100

// DefaultRepeats is the number L of nearest-neighbour removal passes that are
// averaged into one curve (the paper's and ClassPriorEstimation's L = 10).
const DefaultRepeats = 10

// ErrInput is wrapped by every error about the data passed to [Curve] and
// [Estimate].
var ErrInput = errors.New("distcurve: bad input")

// Curve returns the 100-point distance curve of a component sample (the
// transformed labeled scores) against a mixture sample (the transformed
// unlabeled scores):
//
//  1. repeats times: with every mixture point alive, for j = 1..|M|, draw a
//     component point c uniformly with replacement (rng.IntN(len(component))),
//     remove the alive mixture point nearest to c and record its distance
//     |x - c| as d_j;
//  2. average the repeats element-wise (position j = the j-th draw);
//  3. take the percentiles 0..99 of the averaged vector (numpy's default
//     linear interpolation: position p/100 (|M| - 1) of the sorted vector);
//  4. divide by their sum (L1 normalisation).
//
// Ties: among the alive points with the smallest computed distance
// math.Abs(x - c), the one that comes first in the mixture slice is removed
// (numpy argmin's lowest index). This covers duplicate values and a point at
// the same distance on either side of c alike.
//
// The draws are consumed in the order repeat by repeat, draw by draw, one
// rng.IntN per draw, so the curve is a function of the rng's state. The cost
// is O(repeats |M| log |M|): the mixture is sorted once and the next/previous
// alive point is found with path-compressed union-find arrays.
//
// An empty side, a NaN or infinite value, repeats < 1 or a curve whose
// distances are all zero (every mixture value equal to a drawn component
// value) is an error wrapping [ErrInput].
func Curve(component, mixture []float64, repeats int, rng *rand.Rand) ([]float64, error) {
	return CurveContext(context.Background(), component, mixture, repeats, rng)
}

// CurveContext is [Curve] stopped by ctx: the sorts, the lookups of the
// component values and the removal passes ask ctx every
// interrupt.Every steps (and the passes once per repeat), so that a
// cancelled ctx ends even a curve of 10^7 mixture points (about 10 s a
// repeat) within a millisecond, with an error wrapping ctx's cause.
func CurveContext(ctx context.Context, component, mixture []float64, repeats int, rng *rand.Rand) ([]float64, error) {
	if err := checkSample("component", component); err != nil {
		return nil, err
	}
	if err := checkSample("mixture", mixture); err != nil {
		return nil, err
	}
	if repeats < 1 {
		return nil, fmt.Errorf("%w: repeats %d < 1", ErrInput, repeats)
	}
	if rng == nil {
		return nil, fmt.Errorf("%w: nil rng", ErrInput)
	}
	nc := len(component)
	avg, err := averagedDistancesContext(ctx, component, mixture, repeats, func() int { return rng.IntN(nc) })
	if err != nil {
		return nil, fmt.Errorf("distcurve: curve: %w", err)
	}
	return curveOfContext(ctx, avg)
}

func checkSample(name string, x []float64) error {
	if len(x) == 0 {
		return fmt.Errorf("%w: empty %s sample", ErrInput, name)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s[%d] = %v", ErrInput, name, i, v)
		}
	}
	return nil
}

// curveOf turns an averaged distance vector (length >= 1) into the L1
// normalised percentile curve.
func curveOf(avg []float64) ([]float64, error) { return curveOfContext(context.Background(), avg) }

// curveOfContext is curveOf with its sort stopped by ctx. The percentiles
// read only the sorted values, which any sort puts in the same places.
func curveOfContext(ctx context.Context, avg []float64) ([]float64, error) {
	if err := interrupt.Sort(ctx, avg); err != nil {
		return nil, fmt.Errorf("distcurve: curve: %w", err)
	}
	out := make([]float64, Points)
	n := len(avg)
	sum := 0.0
	for p := range Points {
		out[p] = percentileSorted(avg, n, p)
		sum += out[p]
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return nil, fmt.Errorf("%w: distance curve sums to %v (all nearest distances zero)", ErrInput, sum)
	}
	for p := range out {
		out[p] /= sum
	}
	return out, nil
}

// percentileSorted is numpy.percentile(x, p) with the default "linear"
// method on the sorted x: position p/100 (n - 1), linear interpolation
// between its neighbours.
func percentileSorted(x []float64, n, p int) float64 {
	pos := float64(float64(p) / 100 * float64(n-1)) // rounded: arm64 would fuse it into pos - lo
	lo := int(math.Floor(pos))
	if lo >= n-1 {
		return x[n-1]
	}
	t := pos - float64(lo)
	a, b := x[lo], x[lo+1]
	// numpy's _lerp: from the nearer end, so t = 1 returns b exactly.
	if t >= 0.5 {
		return b - float64((b-a)*(1-t))
	}
	return a + float64((b-a)*t)
}

// remover finds and removes nearest alive mixture points.
type remover struct {
	val   []float64 // mixture values sorted by (value, original index)
	idx   []int     // original index of each sorted position
	gs    []int     // first sorted position of the position's value group
	ge    []int     // last sorted position of the position's value group
	next  []int     // union-find: next alive position >= i (n = none)
	prev  []int     // union-find on i+1: prev alive position <= i, stored +1 (0 = none)
	alive int
}

func newRemover(mixture []float64) *remover {
	r, _ := newRemoverContext(context.Background(), mixture)
	return r
}

// newRemoverContext is newRemover with its sort and its gather of the
// sorted values stopped by ctx.
func newRemoverContext(ctx context.Context, mixture []float64) (*remover, error) {
	n := len(mixture)
	r := &remover{
		val:  make([]float64, n),
		idx:  make([]int, n),
		gs:   make([]int, n),
		ge:   make([]int, n),
		next: make([]int, n+1),
		prev: make([]int, n+1),
	}
	for i := range r.idx {
		r.idx[i] = i
	}
	// (value, index) is a total order: every sort gives this one result.
	if err := interrupt.SortFunc(ctx, r.idx, func(a, b int) int {
		if c := cmp.Compare(mixture[a], mixture[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}); err != nil {
		return nil, err
	}
	tick := interrupt.New(ctx)
	for i, j := range r.idx {
		r.val[i] = mixture[j]
		if err := tick.Tick(); err != nil {
			return nil, err
		}
	}
	for i := range n {
		if i > 0 && r.val[i] == r.val[i-1] {
			r.gs[i] = r.gs[i-1]
		} else {
			r.gs[i] = i
		}
	}
	for i := n - 1; i >= 0; i-- {
		if i < n-1 && r.val[i] == r.val[i+1] {
			r.ge[i] = r.ge[i+1]
		} else {
			r.ge[i] = i
		}
	}
	return r, nil
}

// reset makes every point alive.
func (r *remover) reset() {
	for i := range r.next {
		r.next[i] = i
		r.prev[i] = i
	}
	r.alive = len(r.val)
}

// nextAlive returns the first alive position >= i, or n.
func (r *remover) nextAlive(i int) int {
	p := r.next
	for p[i] != i {
		p[i] = p[p[i]] // path halving
		i = p[i]
	}
	return i
}

// prevAlive returns the last alive position <= i, or -1.
func (r *remover) prevAlive(i int) int {
	p := r.prev
	k := i + 1
	for p[k] != k {
		p[k] = p[p[k]]
		k = p[k]
	}
	return k - 1
}

func (r *remover) remove(pos int) {
	r.next[pos] = pos + 1
	r.prev[pos+1] = pos
	r.alive--
}

// take removes the alive point nearest to c (tie rule of [Curve]) and
// returns its distance and original mixture index. At least one point must
// be alive; lb is the first sorted position with value >= c.
func (r *remover) take(c float64, lb int) (float64, int) {
	n := len(r.val)
	bestPos, bestIdx := -1, 0
	bestD := math.Inf(1)
	consider := func(pos int, d float64) {
		if bestPos < 0 || d < bestD || (d == bestD && r.idx[pos] < bestIdx) {
			bestPos, bestIdx, bestD = pos, r.idx[pos], d
		}
	}
	// Right side (values >= c): computed distances are non-decreasing in
	// the value, so the minimal ones form a run of value groups; within a
	// group the first alive position has the lowest original index.
	if p := r.nextAlive(lb); p < n {
		d0 := math.Abs(r.val[p] - c)
		for p < n {
			d := math.Abs(r.val[p] - c)
			if d != d0 {
				break
			}
			consider(p, d)
			p = r.nextAlive(r.ge[p] + 1)
		}
	}
	// Left side (values < c), walking down group by group.
	if q := r.prevAlive(lb - 1); q >= 0 {
		d0 := math.Abs(r.val[q] - c)
		for q >= 0 {
			d := math.Abs(r.val[q] - c)
			if d != d0 || d > bestD {
				break
			}
			first := r.nextAlive(r.gs[q]) // lowest original index alive in the group
			consider(first, d)
			q = r.prevAlive(r.gs[q] - 1)
		}
	}
	r.remove(bestPos)
	return bestD, bestIdx
}

// averagedDistances runs the removal passes with the given draw sequence
// (draw returns a component index) and returns the element-wise mean of the
// repeats' distance vectors.
func averagedDistances(component, mixture []float64, repeats int, draw func() int) []float64 {
	acc, _ := averagedDistancesContext(context.Background(), component, mixture, repeats, draw)
	return acc
}

// averagedDistancesContext is averagedDistances stopped by ctx (checked
// every interrupt.Every lookups and draws, and before every repeat).
func averagedDistancesContext(ctx context.Context, component, mixture []float64, repeats int, draw func() int) ([]float64, error) {
	r, err := newRemoverContext(ctx, mixture)
	if err != nil {
		return nil, err
	}
	tick := interrupt.New(ctx)
	lbs := make([]int, len(component)) // lower bound of each component value
	for i, c := range component {
		lbs[i], _ = slices.BinarySearch(r.val, c)
		if err := tick.Tick(); err != nil {
			return nil, err
		}
	}
	acc := make([]float64, len(mixture))
	for range repeats {
		if err := interrupt.Check(ctx); err != nil {
			return nil, err
		}
		r.reset()
		for j := range acc {
			i := draw()
			d, _ := r.take(component[i], lbs[i])
			acc[j] += d
			if err := tick.Tick(); err != nil {
				return nil, err
			}
		}
	}
	for j := range acc {
		acc[j] /= float64(repeats)
	}
	return acc, nil
}
