package metrics

import "slices"

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
// [0, 1] typically need four passes.
func sortKeys(a []uint64) {
	if len(a) < radixMin {
		slices.Sort(a)
		return
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
