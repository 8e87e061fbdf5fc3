package bounds

import (
	"math/rand/v2"
	"testing"
)

// truthOf returns the exact curves' areas of a ranking whose every label is
// known (the truth the bounds bound, by the same conventions: trapezoids of
// the sorted points).
func truthOf(t testing.TB, scores []float64, truth []bool, ties Ties) (auc, aupr float64) {
	t.Helper()
	all := make([]Label, len(truth))
	for i, y := range truth {
		all[i] = Negative
		if y {
			all[i] = Positive
		}
	}
	r := mustRank(t, scores, all, ties)
	b, err := r.Bounds(r.ECDF(), PointInterval(0))
	if err != nil {
		t.Fatal(err)
	}
	return b.AUC.Low, b.AUPR.Low
}

// Spec §1.6 "coverage" (paper Figs. 2 and 5 claims) and "Lemma 4 /
// monotonicity", over 200 simulated repeats of the d3 model (positives
// N(1, 1), negatives N(0, 1), package datasets/synth): 2,000 positives, of
// which 10 % known, and 10,000 negatives, no known negative, so beta =
// 1,800/11,800; a 1,000-resample 95 % bootstrap band (the published
// library's default), grouped ties.
//   - The true AUC (all labels known, same conventions) lies inside [lower,
//     upper] at beta-hat = beta in >= 90 % of the repeats (the band is
//     pointwise 95 %, so the AUC's coverage is high but not guaranteed).
//   - Lemma 4: the point estimate's AUC (the ECDF as band) never decreases
//     along beta-hat in {0, .25, .5, .75, 1, 1.25, 1.5} x beta (the PU AUC is
//     above 1/2 in every repeat, asserted); both bounds at 0.5 beta lie
//     below those at beta, and at 1.5 beta above; every repeat.
func TestCoverageAndLemma4(t *testing.T) {
	const repeats = 200
	rng := rand.New(rand.NewPCG(2015, 200))
	covered, coveredPR := 0, 0
	factors := []float64{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5}
	for rep := range repeats {
		scores, truth, labels := simulate(t, rng, d3, 2000, 10000, 0.1, 0)
		r := mustRank(t, scores, labels, Grouped)
		beta := latentBeta(truth, labels)
		band, err := r.Bootstrap(rng, 1000, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		bounds := map[float64]Bounds{}
		for _, f := range []float64{0.5, 1, 1.5} {
			if bounds[f], err = r.Bounds(band, PointInterval(f*beta)); err != nil {
				t.Fatal(err)
			}
		}
		auc, aupr := truthOf(t, scores, truth, Grouped)
		if bounds[1].AUC.Contains(auc) {
			covered++
		}
		if bounds[1].AUPR.Contains(aupr) {
			coveredPR++
		}
		if aucPU := aucByPositions(t, scores, labels, Grouped); aucPU <= 0.5 {
			t.Fatalf("repeat %d: PU AUC %v <= 1/2", rep, aucPU)
		}
		prev := -1.0
		for _, f := range factors {
			pe, err := r.Bounds(r.ECDF(), PointInterval(f*beta))
			if err != nil {
				t.Fatal(err)
			}
			if pe.AUC.Low < prev {
				t.Errorf("repeat %d: point-estimate AUC falls from %.6f to %.6f at beta-hat %.2f beta", rep, prev, pe.AUC.Low, f)
			}
			prev = pe.AUC.Low
		}
		lo, mid, hi := bounds[0.5], bounds[1], bounds[1.5]
		if !(lo.AUC.Low < mid.AUC.Low && lo.AUC.High < mid.AUC.High && hi.AUC.Low > mid.AUC.Low && hi.AUC.High > mid.AUC.High) {
			t.Errorf("repeat %d: AUC bounds at 0.5, 1, 1.5 beta: %v %v %v, want both ends increasing", rep, lo.AUC, mid.AUC, hi.AUC)
		}
	}
	if frac := float64(covered) / repeats; frac < 0.9 {
		t.Errorf("true AUC inside the bounds in %d of %d repeats, want >= 90 %%", covered, repeats)
	}
	t.Logf("true AUC inside the bounds in %d of %d repeats (AUPR: %d)", covered, repeats, coveredPR)
}

// Spec §1.6 "Fig. 2 monotonicity": the mean width of [AUC_lo, AUC_hi]
// strictly decreases as |P_L| grows, at beta-hat = beta = 0.2 and no known
// negatives, with a 1,000-resample bootstrap band; d3 scores, |U| = 20,000
// (the paper's 100,000 would cost 5 times as much and show the same), |P_L|
// in {100, 200, 500, 1000, 2000}, 20 repeats each.
func TestFigure2Monotonicity(t *testing.T) {
	rng := rand.New(rand.NewPCG(2015, 2))
	prev := 2.0
	for _, known := range []int{100, 200, 500, 1000, 2000} {
		sum := 0.0
		for range 20 {
			scores, truth, err := syntheticU(rng, 20000, 0.2)
			if err != nil {
				t.Fatal(err)
			}
			labels := make([]Label, len(scores), len(scores)+known)
			for range known {
				scores = append(scores, d3(rng))
				labels = append(labels, Positive)
			}
			r := mustRank(t, scores, labels, Grouped)
			band, err := r.Bootstrap(rng, 1000, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			b, err := r.Bounds(band, PointInterval(latentBeta(append(truth, make([]bool, known)...), labels)))
			if err != nil {
				t.Fatal(err)
			}
			sum += b.AUC.Width()
		}
		mean := sum / 20
		t.Logf("|P_L| = %d: mean AUC bound width %.4f", known, mean)
		if mean >= prev {
			t.Errorf("|P_L| = %d: mean width %.4f, not below %.4f", known, mean, prev)
		}
		prev = mean
	}
}
