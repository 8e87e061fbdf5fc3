package evaluate

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/metrics"
)

// atThresholdOf returns the AtThreshold of each threshold measure, in the
// order of recovery.Measures, failing the test where one is missing.
func atThresholdOf(t *testing.T, res *Result) [len(recovery.Measures)]*AtThreshold {
	t.Helper()
	var out [len(recovery.Measures)]*AtThreshold
	for i, me := range recovery.Measures {
		if out[i] = res.Metrics.measure(me).AtThreshold; out[i] == nil {
			t.Fatalf("%v: no at_threshold", me)
		}
	}
	return out
}

// trueAt returns the true measures of ta, in the order of recovery.Measures.
func trueAt(ta *TruthAtThreshold) [len(recovery.Measures)]Float {
	return [...]Float{ta.Acc, ta.BAcc, ta.F1, ta.MCC}
}

// Known truth on a large synthetic sample with given priors: at several
// thresholds, the recovered accuracy, balanced accuracy, F1 and MCC lie in
// their bootstrap intervals, and within 0.03 of the true values of L u U
// at that threshold (the recovery's error on |L| 2,000 and |U| 20,000 has
// a standard deviation near 0.01; recovery's TestFiniteSampleIssueSizes),
// which the truth reports from the true confusion matrix; the PU values
// are the PU confusion matrix's there; AUC and AUC-PR have none.
func TestAtThresholdKnownTruth(t *testing.T) {
	scores, labeled, truth := puScores(t, 31, 2, 0.3, 0.9, 2000, 20000)
	pu, _ := metrics.Rank(scores, labeled)
	tr, _ := metrics.Rank(scores, truth)
	for _, thr := range []float64{0.5, 1, 1.5, 2.5} {
		res, err := Run(context.Background(), Input{Scores: scores, Labeled: labeled, Truth: truth},
			Options{Priors: &GivenPriors{Alpha: 0.3, Beta: 0.9}, Threshold: &thr, Bootstrap: 200, Seed: 3,
				Estimators: []string{classprior.AlphaMaxName}, BoundsResamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Metrics.AUC.AtThreshold != nil || res.Metrics.AUCPR.AtThreshold != nil {
			t.Error("AUC or AUC-PR at a threshold")
		}
		ta := res.Truth.AtThreshold
		if ta == nil || ta.Threshold != Float(thr) {
			t.Fatalf("threshold %v: truth at threshold %+v", thr, ta)
		}
		want := trueAt(ta)
		for i, a := range atThresholdOf(t, res) {
			me := recovery.Measures[i]
			if a.Threshold != Float(thr) || a.PU != Float(me.Metric()(pu.ConfusionAt(thr))) || want[i] != Float(me.Metric()(tr.ConfusionAt(thr))) {
				t.Errorf("threshold %v, %v: threshold %v, PU %v, truth %v: not the confusion matrices' at %v", thr, me, a.Threshold, a.PU, want[i], thr)
			}
			iv := a.Interval
			if iv == nil || !(iv.Low <= a.Recovered && a.Recovered <= iv.High) {
				t.Errorf("threshold %v, %v: recovered %v outside its interval %v", thr, me, a.Recovered, iv)
			}
			if d := math.Abs(float64(a.Recovered - want[i])); !(d <= 0.03) {
				t.Errorf("threshold %v, %v: recovered %v, truth %v", thr, me, a.Recovered, want[i])
			}
		}
	}
}

// With estimated priors the intervals at the threshold are widened over
// the region of priors: each holds the recovered values at the region's
// corners (computed here with recovery.AtThreshold on the input's tally),
// as the best values' intervals do; the result is the same for any number
// of workers.
func TestAtThresholdEstimatedPriorsSameForAnyWorkers(t *testing.T) {
	scores, labeled, _ := puScores(t, 3, 2, 0.3, 0.95, 300, 2000)
	thr := 1.2
	in := Input{Scores: scores, Labeled: labeled}
	var first string
	for _, w := range []int{1, 3} {
		res, err := Run(context.Background(), in, Options{Bootstrap: 40, Seed: 9, Workers: w, Threshold: &thr,
			Estimators: []string{classprior.AlphaMaxNName, classprior.AlphaMaxName}, BoundsResamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		if got := jsonOf(t, res); first == "" {
			first = got
		} else if got != first {
			t.Fatalf("workers %d: the result differs from workers 1", w)
		}
		if !strings.Contains(first, `"at_threshold"`) {
			t.Fatal("no at_threshold in the JSON")
		}
		reg := res.Priors.Region
		if reg == nil {
			t.Fatalf("no region of priors: %+v", res.Priors)
		}
		r, _ := metrics.Rank(scores, labeled)
		tally, _ := recovery.TallyOf(r)
		k := thresholdIndex(r, thr)
		ats := atThresholdOf(t, res)
		for _, a := range []Float{reg.Alpha.Low, reg.Alpha.High} {
			for _, g := range []Float{reg.Gap.Low, reg.Gap.High} {
				b := min(float64(a+g), 1)
				if recovery.CheckPriors(float64(a), b) != nil {
					continue
				}
				v, err := recovery.AtThreshold(tally, k, float64(a), b)
				if err != nil {
					t.Fatal(err)
				}
				for i, at := range ats {
					if iv := at.Interval; iv == nil || !(float64(iv.Low) <= v[i] && v[i] <= float64(iv.High)) {
						t.Errorf("workers %d, %v: the value %v at the corner alpha %v, beta %v lies outside the interval %v", w, recovery.Measures[i], v[i], a, b, iv)
					}
				}
			}
		}
	}
}

// A threshold above every score predicts nothing positive, one below
// every score everything: the recovered values are those of PSB-2019
// Eqs. 4-8 with gamma = eta = 0 (accuracy 1 - pi, balanced accuracy 1/2,
// F1 0, MCC 0) and gamma = eta = 1 (accuracy pi, 1/2, F1 2 pi / (1 + pi),
// MCC 0), and the truth is the true share of negatives and positives.
func TestAtThresholdNoneAndAll(t *testing.T) {
	scores, labeled, truth := puScores(t, 5, 2, 0.3, 0.9, 300, 2000)
	pos := 0
	for _, p := range truth {
		if p {
			pos++
		}
	}
	share := float64(pos) / float64(len(truth))
	hi, lo := slices.Max(scores)+1, slices.Min(scores)-1
	for _, c := range []struct {
		name      string
		thr       float64
		want      func(pi float64) [4]float64
		trueAcc   float64
		puPredAll bool
	}{
		{"none", hi, func(pi float64) [4]float64 { return [4]float64{1 - pi, 0.5, 0, 0} }, 1 - share, false},
		{"all", lo, func(pi float64) [4]float64 { return [4]float64{pi, 0.5, 2 * pi / (1 + pi), 0} }, share, true},
	} {
		res, err := Run(context.Background(), Input{Scores: scores, Labeled: labeled, Truth: truth},
			Options{Priors: &GivenPriors{Alpha: 0.3, Beta: 0.9}, Threshold: &c.thr, Estimators: []string{classprior.AlphaMaxName}, BoundsResamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		want := c.want(float64(res.Pi))
		nL, nU := res.NLabeled, res.NUnlabeled
		puConf := metrics.Confusion{FN: nL, TN: nU}
		if c.puPredAll {
			puConf = metrics.Confusion{TP: nL, FP: nU}
		}
		for i, a := range atThresholdOf(t, res) {
			me := recovery.Measures[i]
			if math.Abs(float64(a.Recovered)-want[i]) > 1e-12 || a.PU != Float(me.Metric()(puConf)) {
				t.Errorf("%s, %v: recovered %v, PU %v; want %v, %v", c.name, me, a.Recovered, a.PU, want[i], me.Metric()(puConf))
			}
		}
		if got := float64(res.Truth.AtThreshold.Acc); math.Abs(got-c.trueAcc) > 1e-15 {
			t.Errorf("%s: true accuracy %v, want %v", c.name, got, c.trueAcc)
		}
	}
}

// Predicting positive at score >= t is predicting positive at the last
// threshold at or above t: on scores 3, 2, 2, 1 (thresholds +Inf, 3, 2,
// 1), by hand.
func TestThresholdIndex(t *testing.T) {
	r, err := metrics.Rank([]float64{3, 2, 2, 1}, []bool{true, false, true, false})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		t float64
		k int
	}{{4, 0}, {3, 1}, {2.5, 1}, {2, 2}, {1.5, 2}, {1, 3}, {0, 3}, {math.Inf(-1), 3}} {
		if got := thresholdIndex(r, c.t); got != c.k {
			t.Errorf("threshold %v: index %d, want %d", c.t, got, c.k)
		}
	}
}

// A threshold that is not a finite number is refused, naming it.
func TestAtThresholdRefusesNonFinite(t *testing.T) {
	scores, labeled, _ := puScores(t, 6, 2, 0.3, 0.9, 50, 200)
	for _, thr := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := Run(context.Background(), Input{Scores: scores, Labeled: labeled}, Options{Threshold: &thr})
		if err == nil || !strings.Contains(err.Error(), "threshold") {
			t.Errorf("threshold %v: error %v, want one naming the threshold", thr, err)
		}
	}
}
