package aul

import (
	"math"
	"testing"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// The scar-fraction protocol on a generated ranking: n_L = round(f n_P)
// labeled positives, every other row unlabeled, the record's alpha the
// prior of U, (n_P - n_L)/(n - n_L), and its beta 1 (L holds positives only).
// The aul measure against the paper's exact identities (Section 2.1,
// derived from the self-pair convention): AUL^PU = c/2 + (1 - c) AUC^PU
// with c = n_L/n; AUL = alpha/2 + (1 - alpha) AUC with alpha = n_P/n; and
// per split (AUC^est(true alpha_U) - AUC)(1 - alpha) = AUL^PU - AUL.
// Theorem 1's sd:pu depends on the split only through n_L (the scores and
// labels of L u U are the data set's): equal over the repeats, and
// sd^2 n_L/(n_P - n_L) = sigma^2/(n_P - 1) the same at both fractions.
func TestSCARFractionProtocol(t *testing.T) {
	src := `experiment: scar
seed: 3
repeats: 2
protocol: {name: scar-fraction}
grid: {known-positives: [0.1, 0.4]}
datasets:
  - name: s
    source: {name: synth-scores, n: 3000, positive_fraction: 0.4, pos_mean: 1, pos_sd: 1, neg_mean: 0, neg_sd: 1}
truths: [{name: same-model, on: all}]
estimators: []
metrics: [auc, aul]
`
	d, sum, _ := plugintest.Run(t, src, plugintest.RunOptions{Workers: 2})
	if sum.Failed != 0 || sum.Ran != 4 {
		t.Fatalf("summary %+v", sum)
	}
	recs, _ := results.ReadRecords(d)
	var scaled []float64
	for _, r := range recs {
		nL := map[string]int{"0.1": 120, "0.4": 480}[r.Grid["known-positives"]]
		if r.Sizes.Labeled != nL || r.Sizes.Unlabeled != 3000-nL || r.Beta != 1 ||
			r.Alpha != float64(1200-nL)/float64(3000-nL) {
			t.Errorf("%s: sizes %+v alpha %v beta %v", r.Cell, r.Sizes, r.Alpha, r.Beta)
		}
		auc, aul := r.Metrics["auc"], r.Metrics["aul"]
		c, alpha := float64(nL)/3000, 0.4
		for _, id := range []struct {
			name      string
			got, want float64
		}{
			{"AUL^PU", aul["pu"], c/2 + (1-c)*auc["pu"]},
			{"AUL", aul["truth:same-model"], alpha/2 + (1-alpha)*auc["truth:same-model"]},
			{"per split", (auc["direct:real"] - auc["truth:same-model"]) * (1 - alpha), aul["pu"] - aul["truth:same-model"]},
		} {
			if math.Abs(id.got-id.want) > 1e-12 {
				t.Errorf("%s: %s identity: %v, want %v", r.Cell, id.name, id.got, id.want)
			}
		}
		sd, ok := aul[results.SDKey(results.PU)]
		if !ok || !(sd > 0) {
			t.Fatalf("%s: sd:pu = %v (present %v)", r.Cell, sd, ok)
		}
		scaled = append(scaled, sd*sd*float64(nL)/float64(1200-nL))
	}
	for _, v := range scaled[1:] {
		if math.Abs(v-scaled[0]) > 1e-12*scaled[0] {
			t.Errorf("sd:pu^2 n_L/(n_P - n_L) = %v over the cells, want one value", scaled)
			break
		}
	}
}

// aulSplitSD (the aul measure's sd:pu) only where L holds positives only:
// scores 0.9, 0.8 (positives), 0.7, 0.1 (negatives), n = 4, have t = 3.5/4
// and 2.5/4 for the positives, sigma^2 = 0.125^2; with |L| = 1 Theorem 1's
// variance is sigma^2 itself (sd 0.125); a negative in L gives no value.
func TestAULSplitSDNeedsSCAR(t *testing.T) {
	c := &experiments.CellRun{NL: 1, Y: []bool{true, true, false, false}, Scores: []float64{0.9, 0.8, 0.7, 0.1}}
	if sd, ok := aulSplitSD(c); !ok || math.Abs(sd-0.125) > 1e-15 {
		t.Errorf("SCAR split: sd %v (ok %v), want 0.125", sd, ok)
	}
	c.NL, c.Y = 2, []bool{true, false, true, false}
	if sd, ok := aulSplitSD(c); ok {
		t.Errorf("a negative in L: sd %v, want none", sd)
	}
}
