package aul

import (
	"math"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// lines lays the claims out as claims.md lists them.
func lines(cs []report.Claim) []string {
	var out []string
	for _, c := range cs {
		out = append(out, claimLine(c))
	}
	return out
}

// byTest finds the claim whose test starts with prefix.
func byTest(t *testing.T, cs []report.Claim, prefix string) report.Claim {
	t.Helper()
	for _, c := range cs {
		if strings.HasPrefix(c.Test, prefix) {
			return c
		}
	}
	t.Fatalf("no claim %q in %q", prefix, lines(cs))
	return report.Claim{}
}

// TestClaimsWithoutValues: abalone has KM1's errors at three betas (AUL^PU
// closer to the truth and with the smaller spread, as in TestClaims),
// airfoil none. Every expected verdict comes from the definition: a
// comparison needs values on both sides, so a claim whose comparison had
// nothing to compare is "not checked", never "holds".
func TestClaimsWithoutValues(t *testing.T) {
	var recs []results.Record
	for _, beta := range []string{"0.1", "0.2", "0.4"} {
		spread := map[string]float64{"0.1": 0.004, "0.2": 0.002, "0.4": 0.001}[beta]
		for i := range 4 {
			s := float64(i%2*2-1) * spread
			recs = append(recs, rec("abalone", beta, 100, 40, 0.8, 0.68, 0.68+s, map[string]float64{"km1": 0.85 + 3*s}))
		}
	}
	recs = append(recs, rec("airfoil", "0.1", 100, 40, 0.8, 0.68, 0.681, map[string]float64{"real": 0.8}))
	cs := Claims(Rows(recs))

	// Table 1, rows won: airfoil's row has no estimator's MAE, so it is not
	// compared (against nothing it used to count as won): 3 of 3 rows.
	if c := byTest(t, cs, "AUL^PU's MAE is below every estimator's"); c.Verdict != report.Holds || !strings.Contains(c.Test, "in at least 3 of 3 rows") || c.Detail != "(3)" {
		t.Errorf("rows won: %s", claimLine(c))
	}
	// Table 1, ratio: KM1 has no MAE in airfoil's row, so no estimator has
	// a mean MAE: the ratio to the best one is undefined.
	if c := byTest(t, cs, "mean AUL^PU MAE / the best"); c.Verdict != report.NotChecked {
		t.Errorf("ratio: %s", claimLine(c))
	}
	// Figure 2: "on every data set", and airfoil has no estimator's errors
	// to be closer to 0 than, or to have a smaller IQR than.
	for _, prefix := range []string{"AUL^PU's mean error is the closest", "AUL^PU's errors have the smallest IQR"} {
		if c := byTest(t, cs, prefix); c.Verdict != report.NotChecked || !strings.Contains(c.Detail, "(1 of 1); no estimator's errors on airfoil") {
			t.Errorf("%s", claimLine(c))
		}
	}

	// No row with an estimator's errors: the comparisons with the corrected
	// AUC are not made, and only the measurement lines remain.
	none := Claims(Rows(recs[len(recs)-1:]))
	for _, c := range none {
		if c.Verdict != report.NotChecked {
			t.Errorf("no estimator, yet %s", claimLine(c))
		}
	}
	if got := lines(none); got[0] != "Table 1: the records hold no estimator: the claims comparing AUL^PU with the corrected AUC are not checked" {
		t.Errorf("no estimator: %q", got)
	}

	// Figure 3: a data set without PU_AUC's test AUC is not compared; with
	// none compared, "8 of 9" is not checked (it used to fail, 0 of 1).
	f3 := Figure3Claims([]Fig3Row{{Dataset: "waveform", Source: "km1", PUAUC: math.NaN(), PUAUL: 0.9, Runs: 1}})
	if f3[0].Verdict != report.NotChecked || !strings.HasPrefix(claimLine(f3[0]), `Figure 3, "PU_AUL outperforms PU_AUC on 8 of 9 data sets": PU_AUL's mean test AUC over the seeds is higher by more than 2 standard errors on 0 of 0 here (not checked`) {
		t.Errorf("Figure 3: %s", claimLine(f3[0]))
	}
}
