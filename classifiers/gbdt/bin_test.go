package gbdt

import (
	"slices"
	"testing"
)

// TestBinEdges checks the edges against scikit-learn 1.2.1's
// _find_binning_thresholds (sklearn.ensemble._hist_gradient_boosting.
// binning), run on the same values with /usr/bin/python3:
//
//	_find_binning_thresholds(np.array([3., 1, 1, 2, 7]), 255)  -> [1.5 2.5 5.]
//	_find_binning_thresholds(v, 5)                            -> [1. 3. 5.5 9.]
//	np.percentile(np.arange(10.), [25, 50, 75], method="midpoint") -> [2.5 4.5 6.5]
//
// with v = [0 0 0 1 1 2 3 3 3 3 4 5 6 7 8 9 9 9 9 9]. Few distinct values:
// midpoints; more than maxBins: midpoint percentiles at 100 i/maxBins.
func TestBinEdges(t *testing.T) {
	v := []float64{0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 9}
	for _, c := range []struct {
		vals    []float64
		maxBins int
		want    []float64
	}{
		{[]float64{3, 1, 1, 2, 7}, 255, []float64{1.5, 2.5, 5}},
		{v, 5, []float64{1, 3, 5.5, 9}},
		{[]float64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 4, []float64{2.5, 4.5, 6.5}},
		{[]float64{4, 4, 4}, 255, []float64{}},
		// Repeated percentiles collapse: 19 values of 0 and one 1 in 4
		// bins have the percentiles 0, 0, 0 (and 2 distinct values fit
		// anyway: the midpoint 0.5).
		{append(make([]float64, 19), 1), 4, []float64{0.5}},
		{append(make([]float64, 19), 1, 2, 3, 4, 5), 4, []float64{0}},
	} {
		got := binEdges(slices.Clone(c.vals), c.maxBins)
		if !slices.Equal(got, c.want) {
			t.Errorf("binEdges(%v, %d) = %v, want %v", c.vals, c.maxBins, got, c.want)
		}
		// x <= edges[b] exactly when binOf(x) <= b.
		for _, x := range c.vals {
			b := binOf(got, x)
			for e := range got {
				if (x <= got[e]) != (b <= e) {
					t.Errorf("x %v: bin %d, edge %d = %v", x, b, e, got[e])
				}
			}
		}
	}
}
