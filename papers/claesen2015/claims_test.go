package claesen2015

import (
	"math"
	"testing"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// The tests below feed the claims rows and cells that lack the values a
// claim compares. Every expected verdict comes from the definition: a
// comparison needs values on both sides, so a claim whose comparison had
// nothing to compare is "not checked", never "holds" (nor "does NOT
// hold"); one about every cell is not checked when a cell lacks them and
// no other cell refutes it.

// TestFigure4ClaimsOneBetaHat: with one beta-hat there is no order to
// compare across beta-hats ("no flip" used to hold vacuously), and the
// sign pattern needs beta-hat 0 and 0.1.
func TestFigure4ClaimsOneBetaHat(t *testing.T) {
	m1 := fig4Rec(fig4Model1, map[float64][2]float64{0: {0.725, 0.725}})
	m2 := fig4Rec(fig4Model2, map[float64][2]float64{0: {0.732, 0.732}})
	cs := Figure4Compare(Figure4Rows([]results.Record{m1, m2}))
	if len(cs) != 1 {
		t.Fatalf("compare %+v", cs)
	}
	for i, c := range Figure4Claims(cs) {
		if c.Verdict != report.NotChecked {
			t.Errorf("claim %d: %s", i, c)
		}
	}
}

// TestFigure5ClaimsWithoutValues: splits lacking the AUC or AUPR bounds at
// beta-hat = beta, or the DKW band's coverage.
func TestFigure5ClaimsWithoutValues(t *testing.T) {
	nan := math.NaN()
	none := Interval{nan, nan}
	good := Fig5Cell{KP: 0.05, Coverage: 0.99, DKWCoverage: 1, AUC: Interval{0.7, 0.8}, AUPR: Interval{0.6, 0.8}, AUCTruth: 0.75}

	// No split has the bounds: containment and widths compare nothing
	// (they used to fail, 0 of 2 splits).
	bare := []Fig5Cell{good, good}
	for i := range bare {
		bare[i].Repeat, bare[i].AUC, bare[i].AUPR, bare[i].AUCTruth = i, none, none, nan
	}
	cs := Figure5Claims(bare)
	if cs[2].Verdict != report.NotChecked || cs[3].Verdict != report.NotChecked {
		t.Errorf("without bounds: %s; %s", cs[2], cs[3])
	}

	// One split of three lacks the AUPR bounds and the DKW coverage: "every
	// split" is not checked for the widths and the DKW band (the DKW claim
	// used to hold on the other two); the containment share is over the
	// three splits that have the AUC bounds and the truth.
	part := []Fig5Cell{good, good, good}
	for i := range part {
		part[i].Repeat = i
	}
	part[2].AUPR, part[2].DKWCoverage = none, nan
	cs = Figure5Claims(part)
	want := []report.Verdict{report.Holds, report.NotChecked, report.Holds, report.NotChecked}
	for i, c := range cs {
		if c.Verdict != want[i] {
			t.Errorf("one split without values, claim %d: got %s, want %s: %s", i, c.Verdict, want[i], c)
		}
	}
}

// TestAppendixClaimsWithoutValues: app-d3 at kp 0.1 with kn 0, 0.4 and
// 0.8 and at kp 0.5 with kn 0; the kn 0.8 cell lacks the positive-based DKW
// bounds. Claim (a) reads only the bootstrap widths, all there: it holds.
// (b) compares the kn 0.8 cell's negative-based bounds with its
// positive-based ones: nothing to compare (it used to fail). (c) holds on
// the kn 0.4 cell but not every cell with known negatives was compared (it
// used to hold). (d) finds only the negative-based tighter, in the one cell
// compared; the other might have been the positive-based one (it used to
// fail).
func TestAppendixClaimsWithoutValues(t *testing.T) {
	w := Interval{0.71, 0.81}
	ivs := func(lo, hi, step float64) map[float64]Interval {
		out := map[float64]Interval{}
		for _, f := range AppMultiples {
			out[f] = Interval{lo + step*f, hi + step*f}
		}
		return out
	}
	rows := []AppRow{
		{Dataset: "app-d3", KP: 0.1, KN: 0, Runs: 2, Truth: 0.76, Boot: map[float64]Interval{1: w}, DKW: ivs(0.66, 0.86, 0.04), DKWNeg: map[float64]Interval{}},
		{Dataset: "app-d3", KP: 0.1, KN: 0.4, Runs: 2, Truth: 0.76, Boot: map[float64]Interval{1: w}, DKW: ivs(0.66, 0.86, 0.04), DKWNeg: ivs(0.76, 0.78, -0.04)},
		{Dataset: "app-d3", KP: 0.1, KN: 0.8, Runs: 2, Truth: 0.76, Boot: map[float64]Interval{1: w}, DKW: map[float64]Interval{}, DKWNeg: ivs(0.76, 0.78, -0.02),
			NegCovered: map[float64]int{1: 2}},
		{Dataset: "app-d3", KP: 0.5, KN: 0, Runs: 2, Truth: 0.76, Boot: map[float64]Interval{1: {0.74, 0.78}}},
	}
	want := []report.Verdict{report.Holds, report.NotChecked, report.NotChecked, report.NotChecked}
	for i, c := range AppendixClaims(rows) {
		if c.Verdict != want[i] {
			t.Errorf("%s: got %s, want %s: %s", c.Item, c.Verdict, want[i], c)
		}
	}
}
