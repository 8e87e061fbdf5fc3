package report

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrNoRankVariance is the error of Spearman when every value of x, or of
// y, is the same: the ranks have no variance and the correlation is
// undefined (0/0). Callers that average correlations skip such samples.
var ErrNoRankVariance = errors.New("spearman: a constant sample has no rank variance")

// AverageRanks returns the 1-based ranks of x with ties given the mean of
// the ranks they share (the "fractional" or "average" ranking): the rank of
// x_i is #{j: x_j < x_i} + (#{j: x_j == x_i} + 1)/2. O(n log n). NaN
// values rank below every number and tie with each other (cmp.Compare's
// order); Spearman rejects them before ranking.
func AverageRanks(x []float64) []float64 {
	n := len(x)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	// cmp.Compare orders NaN before every number and equal to NaN: a total
	// order, so the sort is well defined whatever the input.
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(x[a], x[b]) })
	ranks := make([]float64, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && cmp.Compare(x[idx[j]], x[idx[i]]) == 0 {
			j++
		}
		// Positions i..j-1 (0-based) hold ranks i+1..j: their mean is (i+1+j)/2.
		r := float64(i+1+j) / 2
		for k := i; k < j; k++ {
			ranks[idx[k]] = r
		}
		i = j
	}
	return ranks
}

// Spearman returns Spearman's rank correlation of x and y: the Pearson
// correlation of their average ranks (AverageRanks; ties share the mean
// rank), which is the right definition with ties (the textbook
// 1 - 6 sum d^2 / (n(n^2 - 1)) is exact only without them). O(n log n).
//
// Policy on undefined values (the caller decides what to do; nothing
// panics):
//   - len(x) != len(y), or n < 2: NaN and an error;
//   - a NaN or an infinity in x or y: NaN and an error (a rank of NaN has
//     no meaning);
//   - x or y constant (zero rank variance): NaN and ErrNoRankVariance
//     (wrapped; test with errors.Is).
//
// Otherwise the error is nil and the result lies in [-1, 1] (clamped
// against rounding).
func Spearman(x, y []float64) (float64, error) {
	if len(x) != len(y) {
		return math.NaN(), fmt.Errorf("spearman: %d values against %d", len(x), len(y))
	}
	if len(x) < 2 {
		return math.NaN(), fmt.Errorf("spearman: %d pairs, at least 2 needed", len(x))
	}
	for i := range x {
		if nonFinite(x[i]) || nonFinite(y[i]) {
			return math.NaN(), fmt.Errorf("spearman: pair %d (%v, %v) is not finite", i, x[i], y[i])
		}
	}
	rx, ry := AverageRanks(x), AverageRanks(y)
	// The mean of average ranks is (n+1)/2 exactly, ties or not; centring
	// first keeps the sums free of cancellation.
	m := float64(float64(len(x)+1) / 2)
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-m, ry[i]-m
		sxy += float64(dx * dy)
		sxx += float64(dx * dx)
		syy += float64(dy * dy)
	}
	if sxx == 0 || syy == 0 {
		return math.NaN(), fmt.Errorf("%w (%d pairs)", ErrNoRankVariance, len(x))
	}
	return math.Max(-1, math.Min(1, sxy/math.Sqrt(sxx*syy))), nil
}

// MeanAbsDeviation returns the mean of |x_i - y_i|. It is NaN when the
// lengths differ or the samples are empty; a NaN value makes it NaN.
func MeanAbsDeviation(x, y []float64) float64 {
	if len(x) != len(y) || len(x) == 0 {
		return math.NaN()
	}
	var s float64
	for i := range x {
		s += math.Abs(x[i] - y[i])
	}
	return s / float64(len(x))
}

func nonFinite(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
