package bounds

import (
	"math"
	"math/rand/v2"
	"testing"
)

// FuzzBounds feeds small random rankings (up to 40 instances, scores in 8
// values so that ties are common, any mix of labels) and any beta through
// the public entry points, both tie modes and every kind of band. Checked:
// no panic; an error only for a ranking without a known positive or without
// a possible negative, or for a beta outside [0, 1); every area in [0, 1];
// at one beta, Theorem 1's dominance at every cut-off (the lower table has
// at most the upper's TP and at least its FP, so a lower TPR and precision
// and a higher FPR), positive- and negative-based; and the lower AUC at
// most the upper one wherever both ROC paths are monotone in rank order. On
// a path that zig-zags (the FPR steps back where a known positive lifts the
// surrogate true positives) the published sort-then-trapezoid area can put
// the lower AUC above the upper one, and the PR trapezoid can do so even on
// monotone paths: TestAreaOrderNotGuaranteed. Over an interval, the bounds
// hold the bounds at both of its ends.
func FuzzBounds(f *testing.F) {
	f.Add([]byte{7, 1, 6, 0, 5, 2, 4, 0, 3, 1, 2, 0, 1, 0}, 0.3, 0.5)
	f.Add([]byte{1, 1, 1, 0, 1, 2, 1, 0}, 0.0, 0.99)
	f.Add([]byte{0, 1}, 0.9, 0.1)
	f.Add([]byte{3, 1, 3, 1, 3, 0, 3, 0}, 0.5, 0.2)
	// Scores that all tie (one cut-off: the PR curve starts inside the group).
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}, 0.25, 0.5)
	// Known negatives and an interval reaching far up, where the clamp binds.
	f.Add([]byte{7, 1, 6, 1, 6, 2, 5, 0, 4, 2, 3, 0, 2, 0, 1, 2, 0, 0, 0, 0}, 0.3, 0.95)
	f.Fuzz(func(t *testing.T, data []byte, beta, width float64) {
		if len(data) > 80 {
			data = data[:80]
		}
		n := len(data) / 2
		scores := make([]float64, n)
		labels := make([]Label, n)
		for i := range n {
			scores[i] = float64(data[2*i] % 8)
			labels[i] = Label(data[2*i+1] % 3)
		}
		for _, ties := range []Ties{Grouped, InputOrder} {
			r, err := Rank(scores, labels, ties)
			if err != nil {
				continue
			}
			dkw, err1 := r.DKW(0.9)
			boot, err2 := r.Bootstrap(rand.New(rand.NewPCG(uint64(n), 1)), 25, 0.9)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			validBeta := beta >= 0 && beta < 1
			hi := beta + math.Abs(width)*(1-beta)
			for _, band := range []Band{r.ECDF(), dkw, boot} {
				b, err := r.Bounds(band, PointInterval(beta))
				if err != nil {
					if validBeta {
						t.Fatalf("%v beta %v: %v", ties, beta, err)
					}
					continue
				}
				checkAreas(t, b, true)
				if bi, err := r.Bounds(band, Interval{beta, hi}); err == nil {
					checkAreas(t, bi, false)
					checkHolds(t, r, band, bi)
				}
			}
			if r.KnownNegatives() > 0 && validBeta {
				nb, err := r.Flip().DKW(0.9)
				if err != nil {
					t.Fatal(err)
				}
				b, err := r.NegativeBounds(nb, PointInterval(beta))
				if err != nil {
					t.Fatalf("negative-based, beta %v: %v", beta, err)
				}
				checkAreas(t, b, true)
			}
		}
	})
}

func checkAreas(t *testing.T, b Bounds, single bool) {
	t.Helper()
	for _, a := range []float64{b.AUC.Low, b.AUC.High, b.AUPR.Low, b.AUPR.High} {
		if !(a >= 0 && a <= 1) {
			t.Fatalf("beta %v: area %v outside [0, 1] (%+v %+v)", b.Beta, a, b.AUC, b.AUPR)
		}
	}
	if !single {
		return
	}
	for c, lo := range b.Lower.Tables {
		up := b.Upper.Tables[c]
		if lo.TP > up.TP || lo.FP < up.FP || lo.TP+lo.FN != up.TP+up.FN || lo.FP+lo.TN != up.FP+up.TN {
			t.Fatalf("beta %v, negative-based %v, cut-off %d: lower table %+v does not lie under the upper %+v", b.Beta, b.FromNegatives, c, lo, up)
		}
	}
	if monotone(b.Lower) && monotone(b.Upper) && b.AUC.Low > b.AUC.High+1e-12 {
		t.Fatalf("beta %v, negative-based %v: monotone paths, lower AUC above upper: %+v", b.Beta, b.FromNegatives, b.AUC)
	}
}

// monotone reports whether the ROC path never steps back in rank order.
func monotone(c Curve) bool {
	for i := 1; i < len(c.Tables); i++ {
		if c.Tables[i].FP < c.Tables[i-1].FP || c.Tables[i].TP < c.Tables[i-1].TP {
			return false
		}
	}
	return true
}

// checkHolds checks that bounds over an interval hold the bounds at both of
// its ends.
func checkHolds(t *testing.T, r *Ranking, band Band, bi Bounds) {
	t.Helper()
	for _, end := range []float64{bi.Beta.Low, bi.Beta.High} {
		p, err := r.Bounds(band, PointInterval(end))
		if err != nil {
			t.Fatal(err)
		}
		if p.AUC.Low < bi.AUC.Low || p.AUC.High > bi.AUC.High || p.AUPR.Low < bi.AUPR.Low || p.AUPR.High > bi.AUPR.High {
			t.Fatalf("over %+v: AUC %+v AUPR %+v, at beta %v: AUC %+v AUPR %+v", bi.Beta, bi.AUC, bi.AUPR, end, p.AUC, p.AUPR)
		}
	}
}
