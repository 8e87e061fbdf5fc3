package recovery

import (
	"cmp"
	"context"
	"slices"

	"github.com/pueval/pueval/internal/interrupt"
)

// bucketSorter sorts recovered ROC points by their eta, which lies in
// [0, 1] once Algorithm 1 has dropped or clipped the points outside the
// unit square. The points come in threshold order, in which eta is nearly
// sorted already (each threshold moves it by one example's weight: on 10^7
// thresholds of binormal scores 60 % of the points stay in place and the
// mean move is 30 places), so an American flag sort into len/8 + 1
// equal-width buckets of eta moves most points little, and the buckets,
// sorted by insertion, come nearly sorted: on 10^6 points it takes a
// quarter of the time of slices.SortFunc. It sorts in place; its bucket
// table (1 byte a point: 2 buckets a point took as long) is kept between
// calls.
type bucketSorter struct {
	next, end []int32 // per bucket: the next position to fill, and where it ends
}

// bigBucket is the size up to which a bucket is sorted by insertion: its
// points come nearly sorted, so that costs about one comparison a point.
const bigBucket = 256

// maxBucketSort is the most points sorted by buckets (their positions are
// int32); longer slices go to slices.SortFunc.
const maxBucketSort = 1<<31 - 1

// sortByKey sorts pts by cmp, whose order must be that of key first (ties
// broken by cmp's other keys). key must lie in [0, 1] (a NaN counts as 0,
// where cmp.Compare puts it). The result is the one any sort by cmp gives
// when cmp is a total order. It asks ctx every interrupt.Every points of
// each pass and returns ctx's cause when it is done, leaving pts in some
// permutation.
func sortByKey[E any](ctx context.Context, s *bucketSorter, pts []E, key func(E) float64, cmp func(a, b E) int) error {
	if len(pts) > maxBucketSort {
		return interrupt.SortFunc(ctx, pts, cmp)
	}
	u := newUniform(len(pts))
	nb := len(pts)/bucketPoints + 1
	s.next, s.end = grow(s.next, nb), grow(s.end, nb)
	next, end := s.next, s.end
	clear(end)
	tick := interrupt.New(ctx)
	for _, p := range pts {
		end[u.bucket(key(p))]++
		if err := tick.Tick(); err != nil {
			return err
		}
	}
	var at int32
	for b := range end {
		next[b] = at
		at += end[b]
		end[b] = at
	}
	// Each bucket in turn: a point that belongs to another bucket is
	// swapped to that bucket's next free position, so every point moves
	// once at most.
	for b := range end {
		for next[b] < end[b] {
			i := next[b]
			if d := u.bucket(key(pts[i])); d == int32(b) {
				next[b]++
			} else {
				j := next[d]
				pts[i], pts[j] = pts[j], pts[i]
				next[d]++
			}
			if err := tick.Tick(); err != nil {
				return err
			}
		}
	}
	start := int32(0)
	for b := range end {
		run := pts[start:end[b]]
		start = end[b]
		if len(run) <= bigBucket {
			insertionSort(run, cmp)
		} else if err := interrupt.SortFunc(ctx, run, cmp); err != nil {
			return err
		}
		if err := tick.Tick(); err != nil {
			return err
		}
	}
	return nil
}

// insertionSort sorts a few points by cmp.
func insertionSort[E any](pts []E, cmp func(a, b E) int) {
	for i := 1; i < len(pts); i++ {
		for j := i; j > 0 && cmp(pts[j], pts[j-1]) < 0; j-- {
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
}

// grow returns s with length n, reusing its memory when it has room.
func grow[E any](s []E, n int) []E {
	if cap(s) >= n {
		return s[:n]
	}
	return slices.Grow(s[:0], n)[:n]
}

// sortXY is sortByKey of recovered points by (X, Y), written out for the
// bootstrap's workspace: the comparisons and the buckets inline, the
// context asked from a counter in a register. The coordinates are finite
// (Eqs. 1-2 of finite rates under checked priors, clipped into [0, 1] by
// Outside).
func (s *bucketSorter) sortXY(ctx context.Context, pts []XY) error {
	if len(pts) > maxBucketSort {
		return interrupt.SortFunc(ctx, pts, compareXY)
	}
	if err := interrupt.Check(ctx); err != nil {
		return err
	}
	e := newUniform(len(pts))
	nb := len(pts)/bucketPoints + 1
	s.next, s.end = grow(s.next, nb), grow(s.end, nb)
	next, end := s.next, s.end
	clear(end)
	left := interrupt.Every // ctx is asked every interrupt.Every steps of each pass
	for _, p := range pts {
		end[e.bucket(p.X)]++
		if left--; left == 0 {
			left = interrupt.Every
			if err := interrupt.Check(ctx); err != nil {
				return err
			}
		}
	}
	var at int32
	for b := range end {
		next[b] = at
		at += end[b]
		end[b] = at
	}
	if err := interrupt.Check(ctx); err != nil {
		return err
	}
	for b := range end {
		for next[b] < end[b] {
			i := next[b]
			if d := e.bucket(pts[i].X); d == int32(b) {
				next[b]++
			} else {
				j := next[d]
				pts[i], pts[j] = pts[j], pts[i]
				next[d]++
			}
			if left--; left == 0 {
				left = interrupt.Every
				if err := interrupt.Check(ctx); err != nil {
					return err
				}
			}
		}
	}
	start := int32(0)
	for b := range end {
		run := pts[start:end[b]]
		start = end[b]
		if len(run) > bigBucket {
			if err := interrupt.SortFunc(ctx, run, compareXY); err != nil {
				return err
			}
			continue
		}
		for i := 1; i < len(run); i++ {
			for j := i; j > 0 && (run[j].X < run[j-1].X || (run[j].X == run[j-1].X && run[j].Y < run[j-1].Y)); j-- {
				run[j], run[j-1] = run[j-1], run[j]
			}
		}
		if left -= len(run) + 1; left <= 0 {
			left = interrupt.Every
			if err := interrupt.Check(ctx); err != nil {
				return err
			}
		}
	}
	return interrupt.Check(ctx)
}

// compareXY orders points by X, then Y.
func compareXY(a, b XY) int { return cmp.Or(cmp.Compare(a.X, b.X), cmp.Compare(a.Y, b.Y)) }

// bucketPoints is the mean number of points a bucket holds.
const bucketPoints = 8

// uniform is the bucket of a point: its eta's, of len/bucketPoints + 1
// equal widths.
type uniform struct{ scale, top float64 }

func newUniform(n int) uniform {
	return uniform{scale: float64(n/bucketPoints + 1), top: float64(n / bucketPoints)}
}

func (u *uniform) bucket(x float64) int32 {
	if !(x > 0) { // 0, and a NaN, which cmp.Compare puts first
		return 0
	}
	return int32(min(x*u.scale, u.top))
}
