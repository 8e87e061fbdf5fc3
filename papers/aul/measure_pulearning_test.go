package aul

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// Bad options are named with their values.
func TestPULearningValidate(t *testing.T) {
	m := &PULearningMeasure{Prior: "", Priors: []string{"abalone", "a=km1", "a=km2"}, Folds: 1, Centres: 5}
	err := m.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"prior:", `priors[0] = "abalone"`, `data set "a" named twice`, "folds = 1", "centres = 5"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	ok := &PULearningMeasure{Prior: "km1", Priors: []string{"spambase=distcurve", "g=true"}, Folds: 5, Centres: 200}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	if ok.source("spambase") != "distcurve" || ok.source("g") != "true" || ok.source("abalone") != "km1" {
		t.Errorf("sources: %s %s %s", ok.source("spambase"), ok.source("g"), ok.source("abalone"))
	}
}

// On well-separated Gaussian classes (separation 3 in 3 dimensions: a
// Bayes AUC of about 0.98) both learners rank held-out rows well, with the
// true prior and with an estimator's; a prior source the cell does not
// have fails the cell with its name.
func TestPULearningMeasure(t *testing.T) {
	if testing.Short() {
		t.Skip("trains kernel learners")
	}
	const base = `experiment: pul
seed: 3
repeats: 1
protocol: {name: scar-fraction}
grid: {known-positives: [0.3]}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 500, d: 3, positive_fraction: 0.4, separation: 3}
classifier: {name: gbdt, rounds: 10}
estimators: [alphamax-n]
metrics:
  - {name: pu-learning, prior: true, priors: [%s], centres: 60}
`
	dir, sum, _ := plugintest.Run(t, fmt.Sprintf(base, "g=alphamax-n"), plugintest.RunOptions{Workers: 1})
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	recs, err := results.ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := recs[0].Metrics["pu-learning"]
	for _, k := range []string{"pu_aul", "pu_auc:alphamax-n"} {
		if !(m[k] > 0.9) {
			t.Errorf("%s = %v, want > 0.9 (Bayes AUC about 0.98)", k, m[k])
		}
	}
	if p, est := m["prior:alphamax-n"], recs[0].Estimates["alphamax-n"].Alpha; p != est {
		t.Errorf("PU_AUC got prior %v, the estimate is %v", p, est)
	}
	dir, sum, _ = plugintest.Run(t, fmt.Sprintf(base, "g=km1"), plugintest.RunOptions{Workers: 1})
	recs, _ = results.ReadRecords(dir)
	if sum.Failed != 1 || !strings.Contains(recs[0].Error, `"km1" is not among the cell's estimates`) {
		t.Errorf("a missing prior source: %d failed, error %q", sum.Failed, recs[0].Error)
	}
}

// estimate_on fold: each training fold gets its own estimate from the
// named estimator (KM1 reads the fold's features, DistCurve the fold's
// labeled-vs-unlabeled GBDT scores), with no estimator in the config. The
// true prior of U is known by construction: 200 of 500 rows positive,
// each training fold's 160 positives, 48 (round(0.3 x 160)) labeled, so U
// holds 112 positives of 352 rows, 0.318 (the folds differ by a row or
// two). Before the option, a source the config's estimators lack failed
// the cell.
func TestPULearningFoldPriors(t *testing.T) {
	if testing.Short() {
		t.Skip("trains kernel learners")
	}
	const cfg = `experiment: pulf
seed: 3
repeats: 1
protocol: {name: scar-fraction}
grid: {known-positives: [0.3]}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 500, d: 3, positive_fraction: 0.4, separation: 3}
  - name: h
    source: {name: synth-gaussian, n: 500, d: 3, positive_fraction: 0.4, separation: 3}
classifier: {name: gbdt, rounds: 10}
estimators: []
metrics:
  - {name: pu-learning, prior: km1, priors: [h=distcurve], estimate_on: fold, classifier: gbdt, centres: 60}
`
	dir, sum, _ := plugintest.Run(t, cfg, plugintest.RunOptions{Workers: 2})
	recs, err := results.ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || len(recs) != 2 {
		t.Fatalf("%d cells failed of %d: %+v", sum.Failed, len(recs), recs)
	}
	for _, r := range recs {
		src := map[string]string{"g": "km1", "h": "distcurve"}[r.Dataset]
		m := r.Metrics["pu-learning"]
		truth, prior := m["true_prior"], m["prior:"+src]
		if math.Abs(truth-112.0/352) > 0.01 {
			t.Errorf("%s: true prior %v, want about 0.318", r.Dataset, truth)
		}
		if !(math.Abs(prior-truth) < 0.15) || prior == truth {
			t.Errorf("%s: %s's mean prior %v against the true %v", r.Dataset, src, prior, truth)
		}
		if !(m["pu_auc:"+src] > 0.9) {
			t.Errorf("%s: PU_AUC's test AUC %v, want > 0.9 (Bayes AUC about 0.98)", r.Dataset, m["pu_auc:"+src])
		}
	}
}

// estimate_on takes cell or fold; with fold every source is a registered
// estimator (or true) and the classifier a registered one.
func TestPULearningValidateFold(t *testing.T) {
	m := &PULearningMeasure{Prior: "km9", Priors: []string{"a=true", "b=nope"}, Folds: 5, Centres: 200, EstimateOn: EstimateOnFold, Classifier: "svm9"}
	err := m.Validate()
	for _, want := range []string{`prior source "km9"`, `prior source "nope"`, `classifier: unknown classifier "svm9"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not name %q", err, want)
		}
	}
	m = &PULearningMeasure{Prior: "km1", Folds: 5, Centres: 200, EstimateOn: "split"}
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), `estimate_on = "split"`) {
		t.Errorf("estimate_on split: %v", err)
	}
	cell := &PULearningMeasure{Prior: "km1", Folds: 5, Centres: 200, EstimateOn: EstimateOnCell, Classifier: "gbdt"}
	if got, want := cell.Key(), "pu-learning/v1/prior=km1;priors=;folds=5;centres=200"; got != want {
		t.Errorf("cell key %q, want the key of records written before the option, %q", got, want)
	}
}
