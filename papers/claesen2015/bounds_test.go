package claesen2015

import (
	"math"
	"testing"

	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// The claesen2015 protocol and the bounds measure on a binormal ranking:
// the split's sizes (exactly int(kp #pos) known positives, int(kn #neg) known
// negatives), every key, the true AUC inside the bounds at the true beta in
// most cells, the point estimate on its affine value (to the spec's bound
// for rounded tables), Lemma 4's direction (bounds rise with beta-hat), and
// curves for the first repeat only.
func TestClaesenBoundsMeasure(t *testing.T) {
	src := `experiment: claesen
seed: 8
repeats: 4
protocol: {name: claesen2015}
grid: {known-positives: [0.1], known-negatives: [0, 0.4]}
datasets:
  - name: d3
    source: {name: synth-scores, n: 12000, positive_fraction: 0.1667, pos_mean: 1, pos_sd: 1, neg_mean: 0, neg_sd: 1}
truths: [same-model]
estimators: []
metrics:
  - {name: bounds, bands: [bootstrap, dkw], resamples: 500, betas: [1, 0.5, 1.5, 0], intervals: [[0.88, 1.25]], curves: 1}
`
	d, sum, _ := plugintest.Run(t, src, plugintest.RunOptions{Workers: 2})
	if sum.Failed != 0 || sum.Trained != 0 || sum.Ran != 8 {
		t.Fatalf("summary %+v", sum)
	}
	recs, _ := results.ReadRecords(d)
	covered := 0
	for _, r := range recs {
		kn := r.Grid["known-negatives"] == "0.4"
		wantNeg := 0
		if kn {
			wantNeg = 4000 // int(0.4 x 10,000 negatives)
		}
		if r.Sizes.Labeled != 200 || r.Sizes.Negatives != wantNeg || r.Sizes.Labeled+r.Sizes.Unlabeled+r.Sizes.Negatives != 12000 {
			t.Errorf("%s: sizes %+v", r.Cell, r.Sizes)
		}
		a := r.Metrics["auc-bounds"]
		truth := a["truth:same-model"]
		if a["bootstrap-lower:real"] <= truth && truth <= a["bootstrap-upper:real"] {
			covered++
		}
		for _, k := range []string{"pu", "dkw-lower:real*0.5", "dkw-upper:real*1.5", "bootstrap-lower:real*0.88..1.25", "point:real", "affine:real*0"} {
			if _, ok := a[k]; !ok {
				t.Errorf("%s: auc-bounds/%s missing (%v)", r.Cell, k, a)
			}
		}
		if _, ok := a["bootstrap-neg-lower:real"]; ok != kn {
			t.Errorf("%s: negative-based bounds present %v with known negatives %v", r.Cell, ok, kn)
		}
		if !kn {
			// The point estimate follows (AUC_PU - b/2)/(1 - b) up to the sorted-trapezoid
			// convention; at b = 0 it is the PU AUC itself.
			if d := math.Abs(a["point:real"] - a["affine:real"]); d > 0.01 {
				t.Errorf("%s: point %v, affine %v", r.Cell, a["point:real"], a["affine:real"])
			}
			if a["bootstrap-lower:real*0.5"] > a["bootstrap-lower:real"] || a["bootstrap-upper:real"] > a["bootstrap-upper:real*1.5"] {
				t.Errorf("%s: bounds do not rise with beta-hat: %v", r.Cell, a)
			}
		}
		if (r.Repeat == 0) != (len(r.Curves) > 0) || (r.Repeat == 0 && len(r.Curves["bootstrap-lower-roc:real"]) == 0) {
			t.Errorf("%s: %d curves", r.Cell, len(r.Curves))
		}
	}
	if covered < 7 {
		t.Errorf("the true AUC is inside the bootstrap bounds in %d of 8 cells", covered)
	}
}
