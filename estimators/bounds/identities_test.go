package bounds

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/metrics"
)

// aucByPositions is the AUC of the known positives against every other
// instance with ties broken by rank (input-order) or counted 1/2 (grouped,
// through package metrics): the PU AUC of "U as negative".
func aucByPositions(t testing.TB, scores []float64, labels []Label, ties Ties) float64 {
	t.Helper()
	isPos := make([]bool, len(labels))
	for i, l := range labels {
		isPos[i] = l == Positive
	}
	if ties == Grouped {
		m, err := metrics.Rank(scores, isPos)
		if err != nil {
			t.Fatal(err)
		}
		return m.AUC()
	}
	r := mustRank(t, scores, labels, InputOrder)
	var beaten, negs, pos float64 // beaten: (positive, negative) pairs in the right order
	for _, i := range slices.Backward(r.Order()) {
		if isPos[i] {
			beaten += negs
			pos++
		} else {
			negs++
		}
	}
	return beaten / (pos * negs)
}

// clampFree returns the largest beta at which the real-valued point
// estimate's clamp binds at no cut-off: theta = T(r) beta |U| must stay
// within [beta|U| - (|U| - cut_U), cut_U], i.e. beta <= F_U(r)/T(r) and
// beta <= (1 - F_U(r))/(1 - T(r)).
func clampFree(r *Ranking) float64 {
	e := r.ECDF()
	tlb, _ := e.along(r)
	u := float64(r.nUnl)
	b := 1.0
	for c := range r.cut {
		f := float64(r.unl[c]) / u
		if tlb[c] > 0 {
			b = min(b, f/tlb[c])
		}
		if tlb[c] < 1 {
			b = min(b, (1-f)/(1-tlb[c]))
		}
	}
	return b
}

// pointRanking is a synthetic PU ranking for the identities: d3 scores, 400
// known positives of 2,000 positives, 10,000 negatives, no known negatives.
func pointRanking(t *testing.T, ties Ties, round bool) ([]float64, []Label, *Ranking) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(7, 1)), d3, 2000, 10000, 0.2, 0)
	if round { // ties: 2 decimals
		for i := range scores {
			scores[i] = math.Round(scores[i]*100) / 100
		}
	}
	return scores, labels, mustRank(t, scores, labels, ties)
}

// App. B / spec §1.2: the partial derivatives of the unlabeled part of the
// tables with respect to beta, with real-valued counts and no clamp:
// dTP_U = T|U|, dFN_U = (1 - T)|U|, dFP_U = -T|U|, dTN_U = (T - 1)|U|,
// dTPR_U = 0, dFPR_U = (|head(U, r)|/|U| - T)/(1 - beta)^2, dPREC_U =
// T|U|/|head(U, r)|, against central finite differences (h = 1e-6) of the
// RealValued tables, for both curves of a DKW band (T = T_lb, T_ub), at
// every cut-off where the clamp binds neither at beta - h nor at beta + h.
func TestAppendixBDerivatives(t *testing.T) {
	_, _, r := pointRanking(t, InputOrder, false)
	band, err := r.DKW(0.95)
	if err != nil {
		t.Fatal(err)
	}
	const beta, h = 0.1, 1e-6
	tlb, tub := band.along(r)
	loM, upM, err := r.Tables(band, beta-h, RealValued)
	if err != nil {
		t.Fatal(err)
	}
	loP, upP, err := r.Tables(band, beta+h, RealValued)
	if err != nil {
		t.Fatal(err)
	}
	u := float64(r.nUnl)
	checked := 0
	for _, side := range []struct {
		name   string
		tv     []float64
		lo, hi Curve
	}{{"lower", tlb, loM, loP}, {"upper", tub, upM, upP}} {
		for c := range r.cut {
			cutU, kp, T := float64(r.unl[c]), float64(r.pos[c]), side.tv[c]
			free := true
			for _, b := range []float64{beta - h, beta + h} {
				theta, pu := T*b*u, b*u
				free = free && theta < cutU && theta > pu-(u-cutU)
			}
			if !free || cutU == 0 {
				continue
			}
			checked++
			unl := func(tab Table, b float64) [7]float64 {
				pu := b * u
				tpU, fnU := tab.TP-kp, tab.FN-(float64(r.nPos)-kp)
				return [7]float64{tpU, fnU, tab.FP, tab.TN, tpU / pu, tab.FP / (u - pu), tpU / cutU}
			}
			m, p := unl(side.lo.Tables[c], beta-h), unl(side.hi.Tables[c], beta+h)
			want := [7]float64{T * u, (1 - T) * u, -T * u, (T - 1) * u, 0, (cutU/u - T) / ((1 - beta) * (1 - beta)), T * u / cutU}
			for k, name := range []string{"TP_U", "FN_U", "FP_U", "TN_U", "TPR_U", "FPR_U", "PREC_U"} {
				fd := (p[k] - m[k]) / (2 * h)
				if math.Abs(fd-want[k]) > 1e-5*max(1, math.Abs(want[k])) {
					t.Errorf("%s curve, cut-off %d (T %.4f, head(U) %v): d%s/dbeta = %.8g by differences, %.8g by App. B",
						side.name, c, T, cutU, name, fd, want[k])
				}
			}
		}
	}
	if checked < r.Cutoffs() {
		t.Logf("checked %d of %d (cut-off, curve) pairs; the clamp binds at the rest", checked, 2*r.Cutoffs())
	}
	if checked < r.Cutoffs() {
		t.Errorf("only %d cut-offs checked", checked)
	}
}

// Spec §1.1 "Identities": with T = the ECDF, no known negatives, real-valued
// theta and no clamp binding, the area of the rank-ordered ROC path from
// (0, 0) is (AUC_PU - beta/2)/(1 - beta) (to 1e-12), both tie modes, where
// AUC_PU is the known-positive-vs-unlabeled AUC (by positions; ties 1/2 in
// grouped mode, from package metrics). With the published conventions
// (Rounded, sorted points, input order) both curves of the ECDF lie within
// 2/(|P_L| + P_U) + 2/(|U| - P_U) + beta/((1 - beta)|P_L|) of it. beta is
// half the largest clamp-free beta of the ranking (clampFree), asserted.
func TestPointEstimateIdentity(t *testing.T) {
	for _, c := range []struct {
		ties  Ties
		round bool
	}{{InputOrder, false}, {Grouped, false}, {Grouped, true}, {InputOrder, true}} {
		scores, labels, r := pointRanking(t, c.ties, c.round)
		beta := clampFree(r) / 2
		if beta < 0.01 {
			t.Fatalf("clamp-free beta %v: the synthetic ranking is unsuitable", beta)
		}
		checkPointIdentity(t, r, scores, labels, beta, c.round)
	}
}

func checkPointIdentity(t *testing.T, r *Ranking, scores []float64, labels []Label, beta float64, ties bool) {
	t.Helper()
	aucPU := aucByPositions(t, scores, labels, r.Ties())
	affine := (aucPU - beta/2) / (1 - beta)
	lower, upper, err := r.Tables(r.ECDF(), beta, RealValued)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lower.Tables, upper.Tables) {
		t.Fatal("real-valued point estimate: lower and upper tables differ")
	}
	if got := lower.PathAUC(); math.Abs(got-affine) > 1e-12 {
		t.Errorf("%v (ties in scores: %v), beta %.4f: path AUC %.15f, (AUC_PU - beta/2)/(1 - beta) = %.15f", r.Ties(), ties, beta, got, affine)
	}
	if r.Ties() != InputOrder {
		return
	}
	b, err := r.Bounds(r.ECDF(), PointInterval(beta))
	if err != nil {
		t.Fatal(err)
	}
	pl, u, pu := float64(r.nPos), float64(r.nUnl), math.Floor(beta*float64(r.nUnl))
	tol := 2/(pl+pu) + 2/(u-pu) + beta/((1-beta)*pl)
	for _, a := range []float64{b.AUC.Low, b.AUC.High} {
		if math.Abs(a-affine) > tol {
			t.Errorf("published conventions, beta %.4f: AUC %.6f is %.3g from the affine %.6f (bound %.3g)", beta, a, math.Abs(a-affine), affine, tol)
		}
	}
}

// The same identities on covtype 10 % at the true beta, where the spec says
// the clamp does not bind (asserted), ties in input order.
func TestPointEstimateIdentityCovtype(t *testing.T) {
	s := readShared(t, claesenDir(t), "covtype_pu10_seed1")
	r := mustRank(t, s.scores, s.labels, InputOrder)
	beta := s.trueBeta()
	if free := clampFree(r); beta > free {
		t.Fatalf("the clamp binds at the true beta %v (clamp-free up to %v)", beta, free)
	}
	checkPointIdentity(t, r, s.scores, s.labels, beta, true)
}

// Spec §1.1: precision(r) = T(r)(|P_L| + beta|U|)/(r + 1), so the PR curve
// of the point estimate scales uniformly and AUPR(b1)/AUPR(b2) = (|P_L| +
// b1|U|)/(|P_L| + b2|U|): to 1e-12 relative with real-valued theta (clamp
// free at both), to 1e-2 with the published floor/ceil (both curves).
func TestAUPRScaling(t *testing.T) {
	for _, ties := range []Ties{InputOrder, Grouped} {
		_, _, r := pointRanking(t, ties, true)
		b2 := clampFree(r) * 0.9
		b1 := b2 / 3
		scale := (float64(r.nPos) + b1*float64(r.nUnl)) / (float64(r.nPos) + b2*float64(r.nUnl))
		for _, counting := range []Counting{RealValued, Rounded} {
			l1, u1, err1 := r.Tables(r.ECDF(), b1, counting)
			l2, u2, err2 := r.Tables(r.ECDF(), b2, counting)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			tol := 1e-12
			if counting == Rounded {
				tol = 1e-2
			}
			for _, p := range [][2]Curve{{l1, l2}, {u1, u2}} {
				ratio := p[0].AUPR() / p[1].AUPR()
				if math.Abs(ratio/scale-1) > tol {
					t.Errorf("%v, counting %d: AUPR ratio %.15f, want %.15f (relative tolerance %g)", ties, counting, ratio, scale, tol)
				}
			}
		}
	}
}

// Spec §1.6 "beta = 0": the tables are those of "U as negative" (P_U = 0),
// lower and upper alike; their AUC is the known-positive-vs-rest AUC (by
// positions in input order, ties 1/2 in grouped mode: package metrics) and
// their AUPR is the trapezoid under that ranking's sorted PR points (package
// metrics' PR curve in grouped mode), to 1e-12. On a synthetic ranking with
// ties and known negatives, and on both covtype splits when the shared data
// are there.
func TestBetaZeroIsUAsNegative(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(3, 3)), d2, 500, 2000, 0.3, 0.2)
	for i := range scores {
		scores[i] = math.Round(scores[i]*10) / 10
	}
	checkBetaZero(t, "synthetic", scores, labels)
	if dir := getDataDir(); dir != "" {
		for _, name := range []string{"covtype_pu5_seed1", "covtype_pu10_seed1"} {
			s := readShared(t, dir, name)
			checkBetaZero(t, name, s.scores, s.labels)
		}
	}
}

func checkBetaZero(t *testing.T, name string, scores []float64, labels []Label) {
	t.Helper()
	isPos := make([]bool, len(labels))
	for i, l := range labels {
		isPos[i] = l == Positive
	}
	m, err := metrics.Rank(scores, isPos)
	if err != nil {
		t.Fatal(err)
	}
	var pr []Point
	for _, p := range m.PR() {
		pr = append(pr, Point{p.Recall, p.Precision})
	}
	slices.SortStableFunc(pr, comparePoints)
	for _, ties := range []Ties{Grouped, InputOrder} {
		r := mustRank(t, scores, labels, ties)
		band, err := r.DKW(0.95)
		if err != nil {
			t.Fatal(err)
		}
		b, err := r.Bounds(band, PointInterval(0))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(b.Lower.Tables, b.Upper.Tables) {
			t.Errorf("%s %v: lower and upper tables differ at beta 0", name, ties)
		}
		if want := aucByPositions(t, scores, labels, ties); math.Abs(b.AUC.Low-want) > 1e-12 {
			t.Errorf("%s %v: AUC at beta 0 = %.15f, U as negative %.15f", name, ties, b.AUC.Low, want)
		}
		if ties == Grouped {
			if want := Trapezoid(pr); math.Abs(b.AUPR.Low-want) > 1e-12 {
				t.Errorf("%s grouped: AUPR at beta 0 = %.15f, U as negative (metrics.PR) %.15f", name, b.AUPR.Low, want)
			}
		}
	}
}
