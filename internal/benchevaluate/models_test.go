package benchevaluate

import (
	"math"
	"slices"
	"testing"
)

// sameOrder says whether a and b order and tie every pair of rows alike.
func sameOrder(a, b []float64) bool {
	for i := range a {
		for j := range a {
			if (a[i] < a[j]) != (b[i] < b[j]) || (a[i] == a[j]) != (b[i] == b[j]) {
				return false
			}
		}
	}
	return true
}

// Every scale keeps the order and the ties of the raw scores, including
// scores of exactly 0 and 1 (no finite logit) and neighbours one float
// apart near 1, whose rounded logits would tie.
func TestRescaleKeepsOrder(t *testing.T) {
	p := []float64{0.5, 0, 1, 0.25, 0.5, 1, 0.999999999, math.Nextafter(1, 0), math.Nextafter(math.Nextafter(1, 0), 0), 1e-300, 0.75}
	for _, scale := range []string{ScaleRaw, ScaleLogit, ScaleRank} {
		got, err := Rescale(p, scale)
		if err != nil {
			t.Fatal(err)
		}
		if !sameOrder(p, got) {
			t.Errorf("%s: %v does not keep the order of %v", scale, got, p)
		}
		for _, v := range got {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: %v", scale, got)
			}
		}
	}
	if _, err := Rescale([]float64{0.2, 1.5}, ScaleLogit); err == nil {
		t.Error("a score of 1.5 got a logit")
	}
	if _, err := Rescale(p, "log"); err == nil {
		t.Error("an unknown scale was accepted")
	}
}

// Logits and mid-ranks by hand.
func TestRescaleByHand(t *testing.T) {
	got, _ := Rescale([]float64{0.5, 0.8, 0.2}, ScaleLogit)
	want := []float64{0, math.Log(4), -math.Log(4)}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Errorf("logit: %v, want %v", got, want)
		}
	}
	// 0 and 1 go one below the smallest and one above the largest finite
	// logit (here both 0).
	if got, _ := Rescale([]float64{0, 0.5, 1}, ScaleLogit); !slices.Equal(got, []float64{-1, 0, 1}) {
		t.Errorf("logit of 0, 0.5, 1: %v, want -1, 0, 1", got)
	}
	// Ranks 1..5 of 0.1, 0.3, 0.3, 0.7, 0.2: 1, (3+4)/2, 3.5, 5, 2, over 5.
	if got, _ := Rescale([]float64{0.1, 0.3, 0.3, 0.7, 0.2}, ScaleRank); !slices.Equal(got, []float64{0.2, 0.7, 0.7, 1, 0.4}) {
		t.Errorf("ranks: %v, want 0.2, 0.7, 0.7, 1, 0.4", got)
	}
}
