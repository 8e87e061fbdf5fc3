// Package interrupt lets loops and sorts over millions of elements stop soon
// after their context is cancelled, without a cost their results could
// notice: a [Ticker] asks the context every [Every] iterations, and
// [SortFunc] asks it every Every comparisons of a slices.SortFunc.
//
// A check costs one call of ctx.Err; at Every = 16,384 iterations of a few
// nanoseconds each, the work between two checks is tens of microseconds, so
// a loop over 10^7 elements stops within a millisecond of a cancellation
// and pays well under 1 % for the checks.
package interrupt

import (
	"context"
	"slices"
)

// Every is the number of iterations (or comparisons) between two checks of
// the context.
const Every = 1 << 14

// Ticker counts the iterations of a loop and checks its context every
// Every of them. The zero value is not usable: make one with [New].
type Ticker struct {
	ctx  context.Context
	left int
}

// New returns a Ticker for ctx.
func New(ctx context.Context) *Ticker { return &Ticker{ctx: ctx, left: Every} }

// Tick counts one iteration and, every Every iterations, returns ctx's
// cause when ctx is done (nil otherwise).
func (t *Ticker) Tick() error {
	if t.left--; t.left > 0 {
		return nil
	}
	t.left = Every
	return Check(t.ctx)
}

// Check returns ctx's cause when ctx is done, nil otherwise.
func Check(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// smallSort is the length up to which SortFunc sorts without checks.
const smallSort = 1 << 16

// stop is the panic that unwinds a cancelled sort.
type stop struct{ err error }

// SortFunc sorts s as slices.SortFunc(s, cmp) does, and returns nil; when
// ctx is done before it finishes, it stops and returns ctx's cause, leaving
// s in some permutation of its elements. The comparisons are slices.SortFunc's
// own, so a finished sort is its result exactly.
func SortFunc[S ~[]E, E any](ctx context.Context, s S, cmp func(a, b E) int) (err error) {
	if err := Check(ctx); err != nil {
		return err
	}
	if len(s) <= smallSort {
		// A few milliseconds at most: not worth a check per comparison,
		// which costs a call (about 6 % of a sort of recovered ROC points).
		slices.SortFunc(s, cmp)
		return nil
	}
	t := New(ctx)
	defer func() {
		if r := recover(); r != nil {
			st, ok := r.(stop)
			if !ok {
				panic(r)
			}
			err = st.err
		}
	}()
	// slices.SortFunc has no way to stop: a comparison that finds the
	// context done unwinds it with a panic, recovered above (the sort
	// holds nothing that must be released).
	slices.SortFunc(s, func(a, b E) int {
		if err := t.Tick(); err != nil {
			panic(stop{err})
		}
		return cmp(a, b)
	})
	return nil
}

// Sort sorts s ascending as slices.Sort does (NaNs first), stopping as
// [SortFunc] does. Elements that compare equal (-0 and +0, NaNs) may end up
// in another order than slices.Sort puts them in; all others are placed
// alike.
func Sort(ctx context.Context, s []float64) error {
	if len(s) <= smallSort {
		if err := Check(ctx); err != nil {
			return err
		}
		slices.Sort(s) // its own order, and faster than a comparison function
		return nil
	}
	return SortFunc(ctx, s, func(a, b float64) int {
		switch {
		case a < b || (a != a && b == b): // a NaN first
			return -1
		case a > b || (b != b && a == a):
			return 1
		}
		return 0
	})
}
