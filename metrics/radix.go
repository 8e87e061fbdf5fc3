package metrics

import (
	"context"
	"slices"

	"github.com/pueval/pueval/internal/interrupt"
)

const (
	radixBits   = 11
	radixSize   = 1 << radixBits
	radixPasses = (64 + radixBits - 1) / radixBits
	// Below this length a comparison sort is faster than six counting passes.
	radixMin = 1 << 10
)

// sortKeys sorts a ascending in place. For large inputs it is an LSD radix
// sort with 11-bit digits; passes in which every key has the same digit (the
// sign and exponent bits of scores in a narrow range) are skipped, so scores in
// [0, 1] typically need four passes. It asks ctx before each pass and
// returns its cause when it is done (a then holds its keys in some order).
func sortKeys(ctx context.Context, a []uint64) error {
	if len(a) < radixMin {
		slices.Sort(a)
		return nil
	}
	// ctx is asked between the passes, each about 40 ms for the 5 x 10^6
	// keys of a class of 10^7 scores: a check inside the scatter's loop
	// made the sort a quarter slower.
	if err := interrupt.Check(ctx); err != nil {
		return err
	}
	var counts [radixPasses][radixSize]int
	for _, k := range a {
		for p := range radixPasses {
			counts[p][(k>>(p*radixBits))&(radixSize-1)]++
		}
	}
	src, dst := a, make([]uint64, len(a))
	for p := range radixPasses {
		c := &counts[p]
		if trivialPass(c, len(a)) {
			continue
		}
		sum := 0
		for d := range c {
			c[d], sum = sum, sum+c[d]
		}
		shift := uint(p * radixBits)
		if err := interrupt.Check(ctx); err != nil {
			return err
		}
		for _, k := range src {
			d := (k >> shift) & (radixSize - 1)
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

// trivialPass reports whether all n keys fall in one bucket.
func trivialPass(c *[radixSize]int, n int) bool {
	for _, v := range c {
		if v != 0 {
			return v == n
		}
	}
	return true
}
