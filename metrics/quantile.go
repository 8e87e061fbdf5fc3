package metrics

import "math"

// Quantile7 returns the p-quantile of the sorted sample x by Hyndman and
// Fan's type 7 (R's default, numpy.quantile's default "linear"): with
// h = (n-1)p, Q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h])
// (0-based). It returns NaN for an empty sample. The products are rounded
// (float64) so that arm64 does not fuse them into multiply-adds: a
// bootstrap interval or a report's quartile has the same bits on every CPU.
func Quantile7(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := float64(float64(n-1) * p)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + float64((h-float64(lo))*(sorted[lo+1]-sorted[lo]))
}
