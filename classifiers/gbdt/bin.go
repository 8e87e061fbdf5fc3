package gbdt

import (
	"slices"
	"sort"
)

// binEdges returns the bin edges of one feature from its values on the
// training rows (vals is sorted in place): a value x falls in bin b, the
// number of edges below x, so that x <= edges[b] exactly when x's bin is at
// most b. The edges follow scikit-learn's _find_binning_thresholds (1.2):
// with at most maxBins distinct values, the midpoints between consecutive
// distinct values (every distinct value gets its own bin); otherwise the
// "midpoint" percentiles at 100 i/maxBins, i = 1..maxBins-1 (quantile bins,
// so each holds about n/maxBins rows). Repeated edges, which only make empty
// bins, are dropped. A constant feature has no edges (one bin).
func binEdges(vals []float64, maxBins int) []float64 {
	slices.Sort(vals)
	distinct := 1
	for i := 1; i < len(vals); i++ {
		if vals[i] != vals[i-1] {
			distinct++
		}
	}
	var edges []float64
	if distinct <= maxBins {
		edges = make([]float64, 0, distinct-1)
		for i := 1; i < len(vals); i++ {
			if vals[i] != vals[i-1] {
				edges = append(edges, (vals[i-1]+vals[i])*0.5)
			}
		}
	} else {
		n := len(vals)
		edges = make([]float64, 0, maxBins-1)
		for i := 1; i < maxBins; i++ {
			// numpy.percentile(method="midpoint"): the virtual index
			// q (n-1); the mean of its two neighbours unless it is a whole
			// number. The percentile q is formed as numpy.linspace forms it.
			q := float64(i) * (100 / float64(maxBins)) / 100
			v := q * float64(n-1)
			lo := int(v)
			e := vals[lo]
			if float64(lo) != v && lo+1 < n {
				e = (vals[lo] + vals[lo+1]) * 0.5
			}
			edges = append(edges, e)
		}
	}
	// Drop repeats (and, for rounding at adjacent floats, any edge not above
	// its predecessor): binning and prediction both compare against the
	// kept edges, so they always agree.
	out := edges[:0]
	for _, e := range edges {
		if len(out) == 0 || e > out[len(out)-1] {
			out = append(out, e)
		}
	}
	return out
}

// binOf returns the bin of x: the number of edges strictly below x.
func binOf(edges []float64, x float64) int {
	return sort.SearchFloat64s(edges, x)
}
