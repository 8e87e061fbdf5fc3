package metrics

import (
	"math"
	"testing"
)

// numpy 1.24: np.quantile([7,1,3,3,10,2,8,-4,5,6.5], [0,.25,.5,.75,1]) =
// [-4, 2.25, 4.0, 6.875, 10]; np.quantile([1,2,3,4,10], [.025,.975]) =
// [1.1, 9.4] (up to rounding: h = 0.1 and 3.9).
func TestQuantile7(t *testing.T) {
	sorted := []float64{-4, 1, 2, 3, 3, 5, 6.5, 7, 8, 10}
	for _, c := range []struct{ p, want float64 }{{0, -4}, {0.25, 2.25}, {0.5, 4}, {0.75, 6.875}, {1, 10}} {
		if got := Quantile7(sorted, c.p); got != c.want {
			t.Errorf("p %v: %v, want %v", c.p, got, c.want)
		}
	}
	small := []float64{1, 2, 3, 4, 10}
	if lo, hi := Quantile7(small, 0.025), Quantile7(small, 0.975); math.Abs(lo-1.1) > 1e-15 || math.Abs(hi-9.4) > 1e-14 {
		t.Errorf("2.5 and 97.5 %%: %v, %v, want 1.1, 9.4", lo, hi)
	}
	if q := Quantile7([]float64{5}, 0.3); q != 5 {
		t.Errorf("single value: %v", q)
	}
	if q := Quantile7(nil, 0.5); !math.IsNaN(q) {
		t.Errorf("empty sample: %v, want NaN", q)
	}
}
