package experiments

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/metrics"
)

// DegradeScores brings binormal probabilities (AUC about 0.92) to a target
// AUC within DegradeTolerance, the same way for the same seed; scores
// already weaker are left alone with a warning.
func TestDegradeScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 3000
	s, y := make([]float64, n), make([]bool, n)
	for i := range n {
		y[i] = i%3 == 0
		m := 0.0
		if y[i] {
			m = 2
		}
		s[i] = 1 / (1 + math.Exp(-(m - 1 + rng.NormFloat64())))
	}
	for _, target := range []float64{0.9, 0.807, 0.756} {
		d, err := DegradeScores(s, y, target, 42)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := metrics.Rank(d.Scores, y)
		if math.Abs(r.AUC()-target) > DegradeTolerance || r.AUC() != d.AUC || d.Sigma <= 0 || d.Warning != "" {
			t.Errorf("target %v: AUC %v (reported %v), sigma %v, warning %q", target, r.AUC(), d.AUC, d.Sigma, d.Warning)
		}
		again, _ := DegradeScores(s, y, target, 42)
		if !slices.Equal(again.Scores, d.Scores) {
			t.Errorf("target %v: same seed, other scores", target)
		}
	}
	d, err := DegradeScores(s, y, 0.99, 42)
	if err != nil || !strings.Contains(d.Warning, "already") || !slices.Equal(d.Scores, s) {
		t.Errorf("a target above the AUC: %v, %q", err, d.Warning)
	}
	for _, bad := range []float64{0.5, 1, math.NaN()} {
		if _, err := DegradeScores(s, y, bad, 1); err == nil {
			t.Errorf("target %v: no error", bad)
		}
	}
}

// degrade_to_auc is refused outside evaluate: supervised and outside (0.5, 1).
func TestDegradeConfig(t *testing.T) {
	base := "experiment: d\nprotocol: {name: case-control, labeled: 20}\nmetrics: [auc]\ndatasets:\n  - {name: s, source: {name: synth-gaussian, n: 100, d: 2, positive_fraction: 0.3, separation: 2}, degrade_to_auc: %s}\n"
	for _, c := range []struct{ auc, eval, want string }{
		{"0.8", "", "degrade_to_auc degrades the scores of evaluate: supervised"},
		{"1.2", "evaluate: supervised\n", "want the AUC the evaluated scores are degraded to"},
	} {
		_, err := ParseConfig([]byte(strings.Replace(base, "%s", c.auc, 1)+c.eval), "d.yaml", LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("degrade_to_auc %s %q: %v", c.auc, c.eval, err)
		}
	}
	cfg, err := ParseConfig([]byte(strings.Replace(base, "%s", "0.8", 1)+"evaluate: supervised\n"), "d.yaml", LoadOptions{})
	if err != nil || cfg.Datasets[0].DegradeToAUC != 0.8 || !strings.Contains(cfg.Key(), "degrade_to_auc 0.8") {
		t.Errorf("a valid degrade_to_auc: %v", err)
	}
}

// degrade_to_auc through the runner: every cell of the data set evaluates
// the same degraded scores, whose AUC on every row is the target (within
// DegradeTolerance).
func TestDegradeInRunner(t *testing.T) {
	src := `experiment: degrade
seed: 4
repeats: 3
protocol: {name: case-control, labeled: 50, max_unlabeled: 0}
datasets:
  - {name: g, source: {name: synth-gaussian, n: 600, d: 3, positive_fraction: 0.4, separation: 3}, degrade_to_auc: 0.75}
classifier: {name: gbdt, rounds: 10}
evaluate: supervised
estimators: []
truths: [{name: same-model, on: all}]
metrics: [auc]
`
	d, sum, _ := runYAML(t, src, 2, nil)
	if sum.Failed != 0 || sum.Ran != 3 {
		t.Fatalf("summary %+v", sum)
	}
	recs, _ := results.ReadRecords(d)
	for _, r := range recs {
		if got := r.Metrics["auc"]["truth:same-model"]; math.Abs(got-0.75) > DegradeTolerance || got != recs[0].Metrics["auc"]["truth:same-model"] {
			t.Errorf("%s: evaluated AUC %v, want 0.75 in every cell", r.Cell, got)
		}
	}
}
