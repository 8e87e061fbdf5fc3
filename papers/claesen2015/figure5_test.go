package claesen2015

import (
	"strings"
	"testing"

	"github.com/pueval/pueval/estimators/bounds"
	"github.com/pueval/pueval/experiments/results"
)

// fig5Record is a covtype-like record with the curves Figure 5 draws: the
// true curves and the bounds at beta-hat = beta, 0 and an interval.
func fig5Record() results.Record {
	line := [][2]float64{{0, 0}, {0.5, 0.7}, {1, 1}}
	r := results.Record{Curves: map[string][][2]float64{"truth-roc": line, "truth-pr": line},
		Metrics: map[string]map[string]float64{aucMetric: {results.RecoveryKey("bootstrap-lower", "real*0.88..1.25"): 0.7}}}
	for _, src := range []string{results.Real, Source(0), "real*0.88..1.25"} {
		for _, side := range []string{"upper", "lower"} {
			for _, kind := range []string{"roc", "pr"} {
				r.Curves[results.RecoveryKey("bootstrap-"+side+"-"+kind, src)] = line
			}
		}
	}
	return r
}

// TestFigure5UpperLowerDistinct: in the ROC and PR panels each beta-hat's
// upper and lower bound differ in style (they shared colour and style, so
// a reader could not tell which curve bounded from which side).
func TestFigure5UpperLowerDistinct(t *testing.T) {
	charts := Figure5Charts(fig5Record())
	// side splits "NAME, upper" (or "NAME upper") into NAME and the side.
	side := func(name string) (string, string) {
		for _, sd := range []string{"upper", "lower"} {
			if base, ok := strings.CutSuffix(name, sd); ok {
				return strings.TrimRight(base, ", "), sd
			}
		}
		return name, ""
	}
	for _, lc := range charts[1:] {
		bySide := map[string]map[string]int{}
		for i, s := range lc.Series {
			base, sd := side(s.Name)
			if sd == "" {
				continue
			}
			if bySide[base] == nil {
				bySide[base] = map[string]int{}
			}
			bySide[base][sd] = i
		}
		if len(bySide) != 3 {
			t.Errorf("%s: bounds of %d beta-hats, want 3", lc.Title, len(bySide))
		}
		for base, idx := range bySide {
			i, okU := idx["upper"]
			j, okL := idx["lower"]
			if !okU || !okL {
				t.Errorf("%s: %q lacks its upper or lower bound", lc.Title, base)
				continue
			}
			if u, l := lc.Series[i], lc.Series[j]; u.Dashed == l.Dashed && u.Color == l.Color {
				t.Errorf("%s: the upper and lower bound of %q are drawn alike", lc.Title, base)
			}
		}
	}
}

// TestFigure5LowerPRStartsAtZero: the near-vertical start of Figure 5's
// lower PR bound at recall 0 is the bound's own value, and the figure
// draws it. Above the first known positive the empirical CDF (the band
// here: lower edge = upper edge = ECDF) is 0, so the lower table counts no
// latent positive: with the ranking U U P U P U U U (ties in input order),
// |U| = 6 and beta = 1/3 (P_U = 2), Eq. 11 gives TP_U = max(min(cut_U, 0),
// 2 - (6 - cut_U)) = 0 at cut-offs 1 and 2, so TP = 0 and FP = 1, 2: the PR
// points (recall 0, precision 0), by hand. The curve recorded from the
// bound starts there, and so does the drawn series.
func TestFigure5LowerPRStartsAtZero(t *testing.T) {
	u, p := bounds.Unlabeled, bounds.Positive
	labels := []bounds.Label{u, u, p, u, p, u, u, u}
	scores := []float64{8, 7, 6, 5, 4, 3, 2, 1}
	r, err := bounds.Rank(scores, labels, bounds.InputOrder)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.EndBounds(r.ECDF(), bounds.PointInterval(1.0/3))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ tp, fp float64 }{{0, 1}, {0, 2}} {
		if tb := b.Lower.Tables[i]; tb.TP != want.tp || tb.FP != want.fp {
			t.Errorf("lower table at cut-off %d: TP %g FP %g, want %g and %g", i+1, tb.TP, tb.FP, want.tp, want.fp)
		}
	}
	rec := fig5Record()
	rec.Curves[results.RecoveryKey("bootstrap-lower-pr", results.Real)] = curvePoints(b.LowerPR.PR())
	for _, s := range Figure5Charts(rec)[2].Series {
		if s.Name != "beta-hat = beta, lower" {
			continue
		}
		if s.X[0] != 0 || s.Y[0] != 0 || s.X[1] != 0 || s.Y[1] != 0 {
			t.Errorf("the drawn lower PR bound starts at (%g, %g), (%g, %g): want (0, 0) twice", s.X[0], s.Y[0], s.X[1], s.Y[1])
		}
		return
	}
	t.Error("no lower PR bound at beta-hat = beta drawn")
}
