package bounds

import (
	"math"
	"slices"
	"testing"
)

// figure1 is the ranking of paper Figure 1, R = (B, E, D, G, H, A, F, C, I),
// with P1 = {B, D, A, C} as known positives and P2 = {E, G, F} as known
// negatives (H and I unlabeled).
func figure1(t *testing.T) *Ranking {
	names := "BEDGHAFCI"
	scores := make([]float64, len(names))
	labels := make([]Label, len(names))
	for i, c := range names {
		scores[i] = float64(len(names) - i)
		switch c {
		case 'B', 'D', 'A', 'C':
			labels[i] = Positive
		case 'E', 'G', 'F':
			labels[i] = Negative
		}
	}
	return mustRank(t, scores, labels, Grouped)
}

// Figure 1's worked example (spec §1.2): the rank CDF of P1 is 1/4, 2/4,
// 3/4, 1 at the 1-based ranks 1, 3, 6, 8 (0-based 0, 2, 5, 7); that of P2 is
// 1/3, 2/3, 1 at 2, 4, 7 (0-based 1, 3, 6), after the (0, 0) the published
// code prepends when the first rank is not 0. Exact.
func TestFigure1RankCDF(t *testing.T) {
	r := figure1(t)
	for _, c := range []struct {
		name  string
		band  Band
		ranks []int
		cdf   []float64
	}{
		{"P1", r.ECDF(), []int{0, 2, 5, 7}, []float64{1. / 4, 2. / 4, 3. / 4, 1}},
		{"P2", r.Flip().ECDF(), []int{0, 1, 3, 6}, []float64{0, 1. / 3, 2. / 3, 1}},
	} {
		if !slices.Equal(c.band.Ranks, c.ranks) || !slices.Equal(c.band.Lower, c.cdf) || !slices.Equal(c.band.Upper, c.cdf) {
			t.Errorf("%s: rank CDF %v at %v (upper %v), want %v at %v", c.name, c.band.Lower, c.band.Ranks, c.band.Upper, c.cdf, c.ranks)
		}
		// The step function between the points: P1 at 0-based rank 4 is 2/4.
		if lo, hi := c.band.At(4); c.name == "P1" && (lo != 0.5 || hi != 0.5) {
			t.Errorf("P1 at rank 4: %v, %v, want 1/2", lo, hi)
		}
	}
}

// The surrogate tables on Figure 1's ranking with P1 known and the other five
// unlabeled, beta = 0.4, T = the ECDF of P1 (the point estimate), by hand
// from spec §1.1 step 4: P_U = floor(0.4 x 5) = 2, positives 4 + 2 = 6,
// negatives 5 - 2 = 3.
//
//	rank          0    1    2    3    4    5    6    7    8
//	instance      B    E    D    G    H    A    F    C    I
//	T(r)         1/4  1/4  2/4  2/4  2/4  3/4  3/4   1    1
//	known pos     1    1    2    2    2    3    3    4    4
//	cut_U         0    1    1    2    3    3    4    4    5
//	lower theta   0    0    1    1    1    1    1    2    2   floor(2T)
//	upper theta   1    1    1    1    1    2    2    2    2   ceil(2T)
//	TP_U = max(min(cut_U, theta), cut_U - 3):
//	lower         0    0    1    1    1    1    1    2    2
//	upper         0    1    1    1    1    2    2    2    2
//
// Lower: TP 1 1 3 3 3 4 4 6 6, FP 0 1 0 1 2 2 3 2 3. Sorted (FPR, TPR):
// (0,1/6) (0,1/2) (1/3,1/6) (1/3,1/2) (2/3,1/2) (2/3,2/3) (2/3,1) (1,2/3)
// (1,1); trapezoids 1/9 + 1/6 + 5/18 = 10/18. PR: precision TP/(r+1);
// sorted (1/6,1/2) (1/6,1) (1/2,3/5) (1/2,3/4) (1/2,1) (2/3,4/7) (2/3,2/3)
// (1,2/3) (1,3/4): 4/15 + 11/84 + 2/9 = 781/1260.
// Upper: TP 1 2 3 3 3 5 5 6 6, FP 0 0 0 1 2 1 2 2 3. ROC trapezoids 1/6 +
// 2/9 + 1/3 = 13/18; PR (1/6,1) (1/3,1) (1/2,3/5) (1/2,3/4) (1/2,1)
// (5/6,5/7) (5/6,5/6) (1,2/3) (1,3/4): 1/6 + 2/15 + 2/7 + 1/8 = 199/280.
// The affine point estimate (AUC_PU - beta/2)/(1 - beta) with AUC_PU =
// 12/20 is 2/3 = 12/18, inside [10/18, 13/18]. testdata/claesen_reference.py
// gives the same four areas.
func TestFigure1Tables(t *testing.T) {
	names := "BEDGHAFCI"
	scores := make([]float64, len(names))
	labels := make([]Label, len(names))
	for i, c := range names {
		scores[i] = float64(len(names) - i)
		if c == 'B' || c == 'D' || c == 'A' || c == 'C' {
			labels[i] = Positive
		}
	}
	for _, ties := range []Ties{Grouped, InputOrder} { // no ties: the same
		r := mustRank(t, scores, labels, ties)
		lower, upper, err := r.Tables(r.ECDF(), 0.4, Rounded)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name string, c Curve, tp, fp []float64) {
			for i, tab := range c.Tables {
				want := Table{TP: tp[i], FP: fp[i], FN: 6 - tp[i], TN: 3 - fp[i]}
				if tab != want {
					t.Errorf("%v %s rank %d: %+v, want %+v", ties, name, i, tab, want)
				}
			}
		}
		check("lower", lower, []float64{1, 1, 3, 3, 3, 4, 4, 6, 6}, []float64{0, 1, 0, 1, 2, 2, 3, 2, 3})
		check("upper", upper, []float64{1, 2, 3, 3, 3, 5, 5, 6, 6}, []float64{0, 0, 0, 1, 2, 1, 2, 2, 3})
		b, err := r.Bounds(r.ECDF(), PointInterval(0.4))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{
			{"AUC lower", b.AUC.Low, 10. / 18}, {"AUC upper", b.AUC.High, 13. / 18},
			{"AUPR lower", b.AUPR.Low, 781. / 1260}, {"AUPR upper", b.AUPR.High, 199. / 280},
		} {
			if math.Abs(c.got-c.want) > 1e-15 {
				t.Errorf("%v %s = %v, want %v", ties, c.what, c.got, c.want)
			}
		}
	}
}

// Grouped ties by hand: a(0.9, known positive) b(0.9) c(0.5, known positive)
// d(0.5) e(0.1) f(0.1), b, d, e, f unlabeled, beta = 1/2 (P_U = 2). Tie
// groups end at ranks 1, 3, 5; both known positives get their group's end
// rank, so the ECDF is 0 at rank 0 (prepended), 1/2 at 1, 1 at 3. At the
// three cut-offs: T 1/2, 1, 1; known positives 1, 2, 2; cut_U 1, 2, 4;
// theta (floor and ceil of 2T alike) 1, 2, 2; TP_U = max(min(cut_U, theta),
// cut_U - 2) = 1, 2, 2. So TP 2, 4, 4 of 4 and FP 0, 0, 2 of 2: ROC (0,0)
// (0,1/2) (0,1) (1,1), AUC 1; PR (1/2, 1) (1, 1) (1, 2/3) sorted as (1/2,1)
// (1,2/3) (1,1), after the start inside the first tie group of 2 instances,
// (1/2 / 2, 1) = (1/4, 1): AUPR 1/4 x 1 + (1 + 2/3)/2 x 1/2 = 1/4 + 5/12 =
// 2/3.
func TestGroupedTiesHand(t *testing.T) {
	scores := []float64{0.9, 0.9, 0.5, 0.5, 0.1, 0.1}
	labels := []Label{Positive, Unlabeled, Positive, Unlabeled, Unlabeled, Unlabeled}
	r := mustRank(t, scores, labels, Grouped)
	if r.Cutoffs() != 3 || r.CutoffRank(0) != 1 || r.CutoffRank(2) != 5 {
		t.Fatalf("%d cut-offs, ranks %d..%d; want 3, 1..5", r.Cutoffs(), r.CutoffRank(0), r.CutoffRank(r.Cutoffs()-1))
	}
	e := r.ECDF()
	if !slices.Equal(e.Ranks, []int{0, 1, 3}) || !slices.Equal(e.Lower, []float64{0, 0.5, 1}) {
		t.Errorf("ECDF %v at %v, want [0 .5 1] at [0 1 3]", e.Lower, e.Ranks)
	}
	lower, upper, err := r.Tables(e, 0.5, Rounded)
	if err != nil {
		t.Fatal(err)
	}
	want := []Table{{TP: 2, FP: 0, FN: 2, TN: 2}, {TP: 4, FP: 0, FN: 0, TN: 2}, {TP: 4, FP: 2, FN: 0, TN: 0}}
	if !slices.Equal(lower.Tables, want) || !slices.Equal(upper.Tables, want) {
		t.Errorf("tables %v / %v, want %v", lower.Tables, upper.Tables, want)
	}
	if a := lower.AUC(); a != 1 {
		t.Errorf("AUC %v, want 1", a)
	}
	if a := lower.AUPR(); math.Abs(a-2./3) > 1e-15 {
		t.Errorf("AUPR %v, want 2/3", a)
	}
}

// The published areas (trapezoids over the sorted points) need not keep the
// order of the curves, by hand on two tiny rankings (found by FuzzBounds).
//
// ROC: scores 7 (unlabeled), 1 (known positive), then a tie group at 0 of
// P, N, N, U, P, N; grouped ties, beta 0.9 (P_U = floor(1.8) = 1), the ECDF
// as band (1/3 at rank 1). Cut-offs at ranks 0, 1, 7. At rank 1 the lower
// table (theta = floor(1/3) = 0) is TP 1, FP 1, the upper (theta = ceil(1/3)
// = 1) TP 2, FP 0: it dominates, but its FP steps back from rank 0's 1.
// Of 4 positives and 4 negatives, lower points (0,0) (1/4,0) (1/4,1/4)
// (1,1): area 3/4 x 5/8 = 15/32; upper sorted (0,0) (0,1/2) (1/4,0) (1,1):
// 1/4 x 1/4 + 3/4 x 1/2 = 7/16 < 15/32.
//
// PR: scores 7 (known negative), 2 (known positive), 2, 0 (unlabeled);
// negative-based bounds at beta 0.3 with the DKW band (0.9) of the one
// known negative, [0, 1]. Flipped, beta' = 0.7 and P'_U = 1; mapped back,
// the lower curve's PR points are (0,0) (1/2,1/3) (1,1/2), area 1/12 + 5/24
// = 7/24, and the upper's (0,0) (1,1/2) (1,2/3) (recall 1 reached at rank
// 2 with precision 2/3, the higher point sorted last), area 1/4 < 7/24.
func TestAreaOrderNotGuaranteed(t *testing.T) {
	P, N, U := Positive, Negative, Unlabeled
	r := mustRank(t, []float64{0, 0, 0, 0, 0, 0, 7, 1}, []Label{P, N, N, U, P, N, U, P}, Grouped)
	b, err := r.Bounds(r.ECDF(), PointInterval(0.9))
	if err != nil {
		t.Fatal(err)
	}
	if b.AUC.Low != 15./32 || b.AUC.High != 7./16 {
		t.Errorf("ROC example: AUC %+v, want 15/32 and 7/16", b.AUC)
	}
	r = mustRank(t, []float64{2, 2, 7, 0}, []Label{P, U, N, U}, Grouped)
	band, err := r.Flip().DKW(0.9)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = r.NegativeBounds(band, PointInterval(0.3)); err != nil {
		t.Fatal(err)
	}
	if math.Abs(b.AUPR.Low-7./24) > 1e-15 || b.AUPR.High != 0.25 {
		t.Errorf("PR example: AUPR %+v, want 7/24 and 1/4", b.AUPR)
	}
}

// Scores that all tie make one cut-off: every instance predicted positive,
// recall 1 at the prior. By hand: 10 instances, 2 known positives, 8
// unlabeled, beta 1/4 (P_U = 2), the ECDF (1 at rank 9): TP_U = max(min(8,
// 2), 2 - 0) = 2, so TP 4, FP 6, precision 4/10 at recall 1. The PR curve
// starts inside the tie group at (1/10, 4/10): AUPR = 9/10 x 4/10 = 0.36,
// where the curve of one point had area 0 (and package metrics' average
// precision, which steps from recall 0, gives the prior 0.4). The ROC curve
// is the diagonal: AUC 1/2.
func TestAllTiedPR(t *testing.T) {
	scores := make([]float64, 10)
	labels := make([]Label, 10)
	labels[3], labels[7] = Positive, Positive
	r := mustRank(t, scores, labels, Grouped)
	b, err := r.Bounds(r.ECDF(), PointInterval(0.25))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"AUPR lower", b.AUPR.Low, 0.36}, {"AUPR upper", b.AUPR.High, 0.36}, {"AUC lower", b.AUC.Low, 0.5}, {"AUC upper", b.AUC.High, 0.5}} {
		if math.Abs(c.got-c.want) > 1e-15 {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if pr := b.Lower.PR(); len(pr) != 2 || pr[0] != (Point{0.1, 0.4}) {
		t.Errorf("PR points %v, want (0.1, 0.4) then (1, 0.4)", pr)
	}
}
