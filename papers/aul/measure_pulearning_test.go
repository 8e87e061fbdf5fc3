package aul

import (
	"fmt"
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
