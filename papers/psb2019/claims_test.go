package psb2019

import (
	"math"
	"testing"

	"github.com/pueval/pueval/report"
)

// TestClaimsWithoutValues: rows whose methods lack a mean error. Every
// expected verdict comes from the definition: a comparison needs a value,
// so a claim about a method with no mean error on any data set is "not
// checked" (a missing error used to count as an error of 0, so CR was "near
// zero" and PU failed to "underestimate"), and a data set without the
// method's error is left out of its mean rather than counted as 0.
func TestClaimsWithoutValues(t *testing.T) {
	nan := math.NaN()
	rows := []Row{
		{Dataset: "a", Metric: "bacc", Runs: 2, Mean: map[string]float64{"PU": nan, "CR": nan}},
		{Dataset: "b", Metric: "bacc", Runs: 2, Mean: map[string]float64{"PU": nan, "CR": nan}},
		// f1: PU's -0.1 on a, none on b: the mean is -0.1 over the one
		// data set with a value; CR's +0.03 on b only: +0.03, not +0.015.
		{Dataset: "a", Metric: "f1", Runs: 2, Mean: map[string]float64{"PU": -0.1, "CR": nan}},
		{Dataset: "b", Metric: "f1", Runs: 2, Mean: map[string]float64{"PU": nan, "CR": 0.03}},
	}
	cs := Claims(rows)
	if len(cs) != 4 {
		t.Fatalf("claims %v", ClaimLines(cs))
	}
	for i, want := range []struct {
		v      report.Verdict
		detail string
	}{
		{report.NotChecked, "no PU mean error"},
		{report.NotChecked, "no CR mean error"},
		{report.Holds, "mean error -0.100"},
		{report.Fails, "CR mean error +0.030"},
	} {
		if cs[i].Verdict != want.v || cs[i].Detail != want.detail {
			t.Errorf("claim %d: got %s (%s), want %s (%s)", i, cs[i].Verdict, cs[i].Detail, want.v, want.detail)
		}
	}
	if got := ClaimLines(cs)[0]; got != "Balanced accuracy: PU underestimates (no PU mean error): not checked; no CR mean error, near zero (|mean| < 0.02): not checked" {
		t.Errorf("line %q", got)
	}
}
