package pulp

import (
	"math"
	"testing"

	"github.com/pueval/pueval/report"
)

// TestClaimsWithoutValues feeds the claims analyses that lack the values a
// claim compares. Every expected verdict comes from the definition: a
// comparison needs values on both sides, so a claim whose comparison had
// nothing to compare is "not checked", never "holds" (nor "does NOT
// hold"), while one refuted by the values that are there still fails.
// The other claims read values craft sets, so they keep craft's "holds".
func TestClaimsWithoutValues(t *testing.T) {
	const H, F, N = report.Holds, report.Fails, report.NotChecked
	nan := math.NaN()
	for _, tc := range []struct {
		name   string
		change func(p *Point)
		sd     map[string]float64 // replaces craft's overall SDs when set
		want   [8]report.Verdict
	}{
		{name: "only PULP has a rank correlation in Scenario 2",
			change: func(p *Point) {
				if p.Labeling == Scenario2 && p.Measure != "pulp" {
					p.Rho = nan
				}
			},
			// 2: no other measure to rank PULP against; 4: seven measures of
			// Scenario 2 without a rho; 8: F1 and Pseudo-F without one there.
			want: [8]report.Verdict{H, N, H, N, H, H, H, N}},
		{name: "only MI has an overall SD",
			sd: map[string]float64{"mi": 0.06},
			// 6: no other SD for MI's to be the smallest of.
			want: [8]report.Verdict{H, H, H, H, H, N, H, H}},
		{name: "only MAP has a MAD in Scenario 1",
			change: func(p *Point) {
				if p.Labeling == Scenario1 && p.Measure != "map" {
					p.MAD = nan
				}
			},
			// 7: no other MAD for MAP's to be the largest of in Scenario 1.
			want: [8]report.Verdict{H, H, H, H, H, H, N, H}},
		{name: "F1 and Pseudo-F without a rho at the largest Pr[y=1] in Scenario 1",
			change: func(p *Point) {
				if p.Labeling == Scenario1 && p.Pi == 0.9 && (p.Measure == "f1" || p.Measure == "pseudo-f") {
					p.Rho = nan
				}
			},
			// 4: whether their rho falls from 0.1 to 0.9 is not compared;
			// 8: both grid means are over the same four values, still equal.
			want: [8]report.Verdict{H, H, H, N, H, H, H, H}},
		{name: "PULP without a rho at Pr[y=1] 0.3 in Scenario 2",
			change: func(p *Point) {
				if p.Labeling == Scenario2 && p.Pi == 0.3 && p.Measure == "pulp" {
					p.Rho = nan
				}
			},
			// 5: "above 0.9 at every Pr[y=1] < 0.5" not compared at 0.3.
			want: [8]report.Verdict{H, H, H, H, N, H, H, H}},
		{name: "AUC above PULP in Scenario 2, MI without a rho there",
			change: func(p *Point) {
				if p.Labeling == Scenario2 && p.Measure == "auc" {
					p.Rho += 0.4
				}
				if p.Labeling == Scenario2 && p.Measure == "mi" {
					p.Rho = nan
				}
			},
			// 2: refuted by AUC, a value that is there; 4: MI not compared.
			want: [8]report.Verdict{H, F, H, N, H, H, H, H}},
	} {
		a := craft(tc.change)
		if tc.sd != nil {
			a.SD = tc.sd
		}
		for i, c := range Claims(a) {
			if c.N != i+1 || c.Verdict != tc.want[i] {
				t.Errorf("%s: claim %d: got %s, want %s: %s", tc.name, i+1, c.Verdict, tc.want[i], c)
			}
		}
	}
}
