package bounds

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// Credible intervals against testdata/credible_golden.json, frozen by
// testdata/claesen_reference.py: equal-tailed from scipy.stats.beta.ppf, HPD
// from scipy.optimize.brentq on the same density equation; to 1e-6. Counts
// from 0/0 (uniform) and one-sided (0/10, 10/0) to 300 peeks at beta near
// 0.47 (the published KDD notebook's setting) and levels 0.9, 0.95, 0.99.
// Also: HPD is never wider than equal-tailed, and both hold the level's mass.
func TestCredibleIntervalGolden(t *testing.T) {
	b, err := os.ReadFile("testdata/credible_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Rows []struct {
			Positives, Negatives int
			Level                float64
			EqualTailed          [2]float64 `json:"equal_tailed"`
			HPD                  [2]float64 `json:"hpd"`
		}
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Rows) != 27 {
		t.Fatalf("%d golden rows, want 27", len(g.Rows))
	}
	for _, row := range g.Rows {
		post := distuv.Beta{Alpha: 1 + float64(row.Positives), Beta: 1 + float64(row.Negatives)}
		var widths [2]float64
		for k, c := range []struct {
			kind Credible
			want [2]float64
		}{{EqualTailed, row.EqualTailed}, {HPD, row.HPD}} {
			got, err := CredibleInterval(row.Positives, row.Negatives, row.Level, c.kind)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.Low-c.want[0]) > 1e-6 || math.Abs(got.High-c.want[1]) > 1e-6 {
				t.Errorf("%d/%d at %v, %v: %v, scipy %v", row.Positives, row.Negatives, row.Level, c.kind, got, c.want)
			}
			if mass := post.CDF(got.High) - post.CDF(got.Low); math.Abs(mass-row.Level) > 1e-9 {
				t.Errorf("%d/%d at %v, %v: mass %v", row.Positives, row.Negatives, row.Level, c.kind, mass)
			}
			widths[k] = got.Width()
		}
		if widths[1] > widths[0]+1e-12 {
			t.Errorf("%d/%d at %v: HPD width %v > equal-tailed %v", row.Positives, row.Negatives, row.Level, widths[1], widths[0])
		}
	}
}

func TestCredibleIntervalErrors(t *testing.T) {
	for _, c := range []struct {
		pos, neg int
		level    float64
		kind     Credible
	}{{-1, 3, 0.95, HPD}, {3, -1, 0.95, EqualTailed}, {maxPeeks, 1, 0.95, HPD}, {math.MaxInt, math.MaxInt, 0.95, EqualTailed}, {3, 3, 1, HPD}, {3, 3, 0, HPD}, {3, 3, math.NaN(), HPD}, {3, 3, 0.95, Credible(7)}} {
		if _, err := CredibleInterval(c.pos, c.neg, c.level, c.kind); err == nil {
			t.Errorf("CredibleInterval(%d, %d, %v, %v): no error", c.pos, c.neg, c.level, c.kind)
		}
	}
	for _, s := range []string{"equal-tailed", "hpd"} {
		if c, err := ParseCredible(s); err != nil || c.String() != s {
			t.Errorf("ParseCredible(%q) = %v, %v", s, c, err)
		}
	}
	if _, err := ParseCredible("shortest"); err == nil {
		t.Error("ParseCredible(shortest): no error")
	}
}
