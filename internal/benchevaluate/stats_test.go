package benchevaluate

import (
	"math"
	"testing"

	"github.com/pueval/pueval/evaluate"
)

var nan = math.NaN()

// Outcome's predicates by hand.
func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		o                             Outcome
		covers, outside, bad, hasIntv bool
	}{
		{Outcome{0.8, 0.81, 0.75, 0.85}, true, false, false, true},
		{Outcome{0.8, 0.81, 0.8, 0.85}, true, false, false, true},    // the end holds it
		{Outcome{0.8, 0.9, 0.82, 0.95}, false, false, true, true},    // misses the truth
		{Outcome{0.8, 0.86, 0.75, 0.9}, true, false, true, true},     // holds it, off by 0.06
		{Outcome{0.8, 0.9, 0.7, 0.85}, true, true, true, true},       // point outside its own interval
		{Outcome{0.8, nan, nan, nan}, false, false, true, false},     // nothing recovered
		{Outcome{0.8, 0.8, nan, nan}, false, false, true, false},     // no interval
		{Outcome{0.8, 0.83, 0.83, 0.83}, false, false, true, true},   // zero width, misses
		{Outcome{1, 1, 1, 1}, true, false, false, true},              // zero width, holds
		{Outcome{0.5, 0.46, 0.4, 0.6}, true, false, false, true},     // |error| 0.04
		{Outcome{0.5, 0.5500001, 0.4, 0.6}, true, false, true, true}, // |error| just above 0.05
	} {
		o := tc.o
		if o.Covers() != tc.covers || o.Outside() != tc.outside || o.Bad() != tc.bad || o.HasInterval() != tc.hasIntv {
			t.Errorf("%+v: covers %v outside %v bad %v interval %v; want %v %v %v %v", o,
				o.Covers(), o.Outside(), o.Bad(), o.HasInterval(), tc.covers, tc.outside, tc.bad, tc.hasIntv)
		}
	}
}

// A Tally of five outcomes by hand: one without a truth (skipped), one
// with nothing recovered (a miss in the coverage, not in the MAE), one
// with no interval, two intervals of widths 0.1 and 0.2 of which one
// holds the truth and one misses it with the point outside.
func TestTallyByHand(t *testing.T) {
	var tl Tally
	for _, o := range []Outcome{
		{nan, 0.5, 0.4, 0.6},
		{0.7, nan, nan, nan},
		{0.7, 0.75, nan, nan},
		{0.7, 0.72, 0.65, 0.75},
		{0.7, 0.9, 0.75, 0.95},
	} {
		tl.Add(o)
	}
	if tl.N != 4 || tl.Valued != 3 || tl.WithInterval != 2 || tl.Covered != 1 || tl.Outside != 0 {
		t.Errorf("counts %+v", tl)
	}
	// Coverage 1/4; width (0.1 + 0.2)/2; MAE (0.05 + 0.02 + 0.2)/3.
	if tl.Coverage() != 0.25 || math.Abs(tl.MeanWidth()-0.15) > 1e-15 || math.Abs(tl.MAE()-0.09) > 1e-15 || tl.OutsideRate() != 0 {
		t.Errorf("coverage %v width %v MAE %v outside %v; want 0.25 0.15 0.09 0", tl.Coverage(), tl.MeanWidth(), tl.MAE(), tl.OutsideRate())
	}
	var empty Tally
	if !math.IsNaN(empty.Coverage()) || !math.IsNaN(empty.MAE()) {
		t.Error("an empty tally has a coverage or an MAE")
	}
}

// hand builds a case whose truth is AUC 0.8 (and 0.5 for the others) and
// whose estimated run recovers AUC auc in [lo, hi] (everything else equal
// to its truth with a holding interval), estimated alpha a, beta b, and
// fires the given codes.
func hand(id string, auc, lo, hi, a, b float64, codes ...string) CaseResult {
	iv := func(l, h float64) *evaluate.Interval {
		return &evaluate.Interval{Low: evaluate.Float(l), High: evaluate.Float(h)}
	}
	m := func(v float64) evaluate.Metric {
		return evaluate.Metric{Recovered: evaluate.Float(v), Interval: iv(v-0.1, v+0.1)}
	}
	r := &RunResult{Mode: "estimated", Metrics: evaluate.Metrics{AUC: evaluate.Metric{Recovered: evaluate.Float(auc)},
		AUCPR: m(0.5), F1: m(0.5), MCC: m(0.5)}}
	if !math.IsNaN(lo) {
		r.Metrics.AUC.Interval = iv(lo, hi)
	}
	r.Estimators = []evaluate.EstimatorResult{{Method: "alphamax-n", Alpha: evaluate.Float(a), Beta: evaluate.Float(b)}}
	if b > a {
		r.Estimators[0].Recovered = &evaluate.Headline{AUC: evaluate.Float(auc)}
	}
	for _, c := range codes {
		r.Warnings = append(r.Warnings, evaluate.Warning{Code: c})
	}
	return CaseResult{ID: id, Case: Case{Split: Split{Source: "toy", N: 1000, Alpha: 0.3, Beta: 1}}, Alpha: 0.3, Beta: 1,
		Truth: evaluate.Headline{AUC: 0.8, AUCPR: 0.5, F1: 0.5, MCC: 0.5}, Estimated: r}
}

// Warning precision and recall on five hand-made cases: bad (AUC) are c2
// (interval misses), c3 (off by 0.08) and c5 (nothing recovered); "x"
// fired on c2, c3, c4, so its precision is 2/3 and its recall 2/3; "y"
// fired on c5 alone: precision 1, recall 1/3. Cases with no warning: c1
// (good) alone.
func TestWarningTableByHand(t *testing.T) {
	cases := []CaseResult{
		hand("c1", 0.81, 0.75, 0.85, 0.3, 1),
		hand("c2", 0.84, 0.82, 0.9, 0.3, 1, "x"),
		hand("c3", 0.88, 0.7, 0.95, 0.3, 1, "x"),
		hand("c4", 0.79, 0.7, 0.9, 0.3, 1, "x", "x"), // fired twice, counted once
		hand("c5", nan, nan, nan, 0.9, 0.8, "y"),
	}
	wt := warningTable(cases)
	if wt.Cases != 5 || wt.BadAUC != 3 || wt.BadAny != 3 {
		t.Fatalf("cases %d, bad %d / %d; want 5, 3, 3", wt.Cases, wt.BadAUC, wt.BadAny)
	}
	want := map[string][2]int{"x": {3, 2}, "y": {1, 1}, "any warning": {4, 3}, "no warning": {1, 0}}
	for _, r := range wt.Rows {
		w, ok := want[r.Code]
		if !ok {
			t.Errorf("unexpected code %s", r.Code)
			continue
		}
		if r.Fired != w[0] || r.FiredBadAUC != w[1] {
			t.Errorf("%s: fired %d, bad %d; want %d, %d", r.Code, r.Fired, r.FiredBadAUC, w[0], w[1])
		}
		delete(want, r.Code)
	}
	if len(want) > 0 {
		t.Errorf("codes missing: %v", want)
	}
	// "x": precision 2/3, recall 2/3; of the two cases where it was
	// silent (c1, c5) one is bad.
	if p, r, s := Precision(2, 3), Recall(2, 3), SilentRate(3, 2, 5, 3); math.Abs(p-2.0/3) > 1e-15 || math.Abs(r-2.0/3) > 1e-15 || s != 0.5 {
		t.Errorf("precision %v, recall %v, silent %v; want 2/3, 2/3, 1/2", p, r, s)
	}
}

// The estimators' errors over the same cases: alpha errors 0, 0, 0, 0,
// 0.6 and beta errors 0, 0, 0, 0, -0.2 (truth 0.3, 1), so the alpha MAE is
// 0.12 and its bias 0.12, the beta bias -0.04, the gap's (b - a) - 0.7
// errors 0, 0, 0, 0, -0.8: MAE 0.16; c5's beta <= alpha is unusable.
func TestEstimatorRowsByHand(t *testing.T) {
	cases := []CaseResult{
		hand("c1", 0.81, 0.75, 0.85, 0.3, 1),
		hand("c2", 0.84, 0.82, 0.9, 0.3, 1),
		hand("c3", 0.88, 0.7, 0.95, 0.3, 1),
		hand("c4", 0.79, 0.7, 0.9, 0.3, 1),
		hand("c5", nan, nan, nan, 0.9, 0.8),
	}
	rows := estimatorRows(cases, []Group{{"all", func(CaseResult) bool { return true }}})
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if r.Cases != 5 || r.Unusable != 1 || !near(r.Alpha.MAE(), 0.12) || !near(r.Alpha.Bias(), 0.12) ||
		!near(r.Beta.Bias(), -0.04) || !near(r.Gap.MAE(), 0.16) {
		t.Errorf("%+v: alpha MAE %v bias %v, beta bias %v, gap MAE %v", r, r.Alpha.MAE(), r.Alpha.Bias(), r.Beta.Bias(), r.Gap.MAE())
	}
	// AUC errors 0.01, 0.04, 0.08, 0.01 (c5 has none): MAE 0.035.
	if !near(r.AUC.MAE(), 0.035) || r.AUC.Valued != 4 {
		t.Errorf("AUC MAE %v over %d", r.AUC.MAE(), r.AUC.Valued)
	}
}

// metricRows over the hand-made cases: AUC coverage 3/5 (c1, c3, c4 hold
// 0.8), the other metrics 5/5; the points outside: none.
func TestMetricRowsByHand(t *testing.T) {
	cases := []CaseResult{
		hand("c1", 0.81, 0.75, 0.85, 0.3, 1),
		hand("c2", 0.84, 0.82, 0.9, 0.3, 1),
		hand("c3", 0.88, 0.7, 0.95, 0.3, 1),
		hand("c4", 0.79, 0.7, 0.9, 0.3, 1),
		hand("c5", nan, nan, nan, 0.9, 0.8),
	}
	rows := metricRows(cases, []Group{{"all", func(CaseResult) bool { return true }}}, pickRun("estimated"))
	m := rows[0].Metrics
	if m["auc"].Coverage() != 0.6 || m["f1"].Coverage() != 1 || m["auc"].Outside+m["f1"].Outside != 0 {
		t.Errorf("auc %+v f1 %+v", m["auc"], m["f1"])
	}
}

func TestBand(t *testing.T) {
	for n, want := range map[int]string{150: "10^2", 999: "10^2", 1000: "10^3", 45000: "10^4", 100_000: "10^5", 1_000_000: "10^6"} {
		if got := Band(n); got != want {
			t.Errorf("Band(%d) = %s, want %s", n, got, want)
		}
	}
}

// The groups: sizes by band, and the scales only over the split and
// model evaluated on every scale (two raw cases, one of them paired with
// its logit: "scale raw (paired)" holds that one only).
func TestGroupsOf(t *testing.T) {
	mk := func(n int, model, scale string) CaseResult {
		c := Case{Split: Split{Source: "toy", N: n, C: 0.1, Alpha: 0.3, Beta: 1}, Model: model, Scale: scale}
		return CaseResult{ID: c.ID(), Case: c}
	}
	cases := []CaseResult{mk(150, ModelGBDT, ScaleRaw), mk(5000, ModelLogReg, ScaleRaw), mk(5000, ModelLogReg, ScaleLogit)}
	count := map[string]int{}
	for _, g := range groupsOf(cases) {
		for _, c := range cases {
			if g.Keep(c) {
				count[g.Name]++
			}
		}
	}
	want := map[string]int{"all": 3, "n 10^2": 1, "n 10^3": 2, "model gbdt": 1, "model logreg": 2,
		"scale logit (paired)": 1, "scale raw (paired)": 1}
	for name, n := range want {
		if count[name] != n {
			t.Errorf("group %q: %d cases, want %d", name, count[name], n)
		}
	}
	if len(count) != len(want) {
		t.Errorf("groups %v, want %v", count, want)
	}
}
