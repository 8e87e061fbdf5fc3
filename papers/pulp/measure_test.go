package pulp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pueval/pueval/experiments"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/metrics"
)

// The pu-measures measure on a hand-made cell of 3 folds: every per-fold
// value equals metrics.PU on that fold's rows alone (PU labels: the first
// NL rows; true labels: Y), the unsuffixed keys are the fold means, and
// per fold the exact identity Pseudo-F = (N_F / t_F) F1 of the PULP paper's
// measures holds with the fold's own N_F and t_F (so the fold split reaches
// the measures intact).
func TestPUMeasuresPerFold(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, nL, k = 300, 60, 3
	c := &experiments.CellRun{NL: nL, Scores: make([]float64, n), Y: make([]bool, n)}
	c.Split.Folds = make([]int, n)
	for i := range n {
		c.Y[i] = i < nL || rng.Float64() < 0.3
		c.Scores[i] = rng.NormFloat64()
		if c.Y[i] {
			c.Scores[i] += 1
		}
		c.Split.Folds[i] = i % k
	}
	out := experiments.NewValues(c)
	if err := (&MeasureSet{}).Measure(context.Background(), c, out); err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{results.PU, results.TrueLabels} {
		means := make([]float64, len(results.PUMeasures))
		for f := range k {
			var s []float64
			var lab []bool
			for i := range n {
				if i%k == f {
					s = append(s, c.Scores[i])
					lab = append(lab, (set == results.PU && i < nL) || (set == results.TrueLabels && c.Y[i]))
				}
			}
			r, err := metrics.Rank(s, lab)
			if err != nil {
				t.Fatal(err)
			}
			want := puMeasureValues(r.PU())
			for j, name := range results.PUMeasures {
				got, ok := out.Metrics()[name][results.FoldKey(set, f+1)]
				if !ok || got != want[j] {
					t.Errorf("%s/%s@%d = %v (present %v), want %v", name, set, f+1, got, ok, want[j])
				}
				means[j] += want[j] / k
			}
			tF := 0
			for _, l := range lab {
				if l {
					tF++
				}
			}
			f1, pf := out.Metrics()["f1"][results.FoldKey(set, f+1)], out.Metrics()["pseudo-f"][results.FoldKey(set, f+1)]
			if d := math.Abs(pf - float64(len(s))/float64(tF)*f1); d > 1e-12 {
				t.Errorf("%s fold %d: Pseudo-F %v != (N/t) F1 = %v", set, f+1, pf, float64(len(s))/float64(tF)*f1)
			}
		}
		for j, name := range results.PUMeasures {
			if got := out.Metrics()[name][set]; math.Abs(got-means[j]) > 1e-15 {
				t.Errorf("%s/%s = %v, want the fold mean %v", name, set, got, means[j])
			}
		}
	}
}
