package psb2019

import (
	"context"
	"testing"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// The PSB-2019 smoke config: records carry acc, bacc, f1, mcc for PU, CR and CE,
// each with the true value at that method's threshold, and the report renders.
func TestPSBSmokeRecords(t *testing.T) {
	st, names := plugintest.Catalog(t, t.TempDir())
	cfg, err := experiments.ReadConfig("psb2019-smoke", experiments.LoadOptions{Catalog: names})
	if err != nil {
		t.Fatal(err)
	}
	cells, _ := cfg.Cells(experiments.Selection{})
	dir := t.TempDir()
	sum, err := (&experiments.Runner{Config: cfg, Data: st, Workers: 2}).Run(context.Background(), cells, dir)
	if err != nil {
		t.Fatal(err)
	}
	// 3 data sets x 4 betas x 2 repeats, no traditional bags under psb2019.
	if sum.Ran != 24 || sum.Failed != 0 || sum.Trained != 24 {
		t.Fatalf("summary %+v", sum)
	}
	recs, _ := results.ReadRecords(dir)
	for _, r := range recs {
		// n_u = 2000 or 1000 by the paper's rule for these sizes (abalone 4177, wilt 4839, splice 3190), n_l = n_u/10.
		if r.Sizes.Labeled*10 != r.Sizes.Unlabeled {
			t.Errorf("%s: n_l %d, n_u %d", r.Cell, r.Sizes.Labeled, r.Sizes.Unlabeled)
		}
		for _, m := range []string{"acc", "bacc", "f1", "mcc"} {
			for _, k := range []string{"truth:same-model", "pu", "truth-at:pu", "recovered:real", "truth-at:real",
				"recovered:alphamax-n", "truth-at:alphamax-n"} {
				if _, ok := r.Metrics[m][k]; !ok {
					t.Errorf("%s: %s/%s missing", r.Cell, m, k)
				}
			}
			// Clipping ranges of PSB-2019 Figure 2.
			if v := r.Metrics[m]["recovered:real"]; v < -1 || v > 1 || (m == "bacc" && v < 0.5) {
				t.Errorf("%s: %s/recovered:real = %v outside its range", r.Cell, m, v)
			}
		}
	}
}
