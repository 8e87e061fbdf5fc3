package recovery

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/metrics"
)

// puRanking ranks L u U with the labeled examples as positives.
func puRanking(t testing.TB, labeled, unlabeled []float64) *metrics.Ranking {
	t.Helper()
	scores := append(slices.Clone(labeled), unlabeled...)
	lab := make([]bool, len(scores))
	for i := range labeled {
		lab[i] = true
	}
	r, err := metrics.Rank(scores, lab)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustNew(t testing.TB, r *metrics.Ranking, alpha, beta float64) *Recovery {
	t.Helper()
	rc, err := New(r, alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

// AAAI-2017 Figure 1: 8 examples, labeled {.986, .863, .699} (all positive,
// so beta = 1), unlabeled {.943 (positive), .789, .473, .211, .009}, so alpha =
// 1/5. By hand, with gamma = gamma_pu and eta = (eta_pu - gamma_pu/5)/(4/5)
// (Eqs. 1-2 at beta = 1):
//
//	threshold  gamma_pu eta_pu theta | gamma  eta
//	.986       1/3      0      1/8   | 1/3   -1/12 (outside)
//	.943       1/3      1/5    2/8   | 1/3    1/6
//	.863       2/3      1/5    3/8   | 2/3    1/12
//	.789       2/3      2/5    4/8   | 2/3    1/3
//	.699       1        2/5    5/8   | 1      1/4
//	.473       1        3/5    6/8   | 1      1/2
//	.211       1        4/5    7/8   | 1      3/4
//	.009       1        1      1     | 1      1
//
// AUC_pu = 12/15 = 0.8 (metrics.TestAAAIFigure1); Eq. 4: (0.8 - 0.1)/0.8 = 0.875.
// Algorithm 1, drop: sorted by eta (0,0) (1/12,2/3) (1/6,1/3->2/3) (1/4,1)
// (1/3,1) ... (1,1); trapezoids 1/36 + 1/18 + 5/72 + 3/4 = 65/72. Clip: .986
// becomes (0, 1/3), so the first trapezoid is (1/3+2/3)/2 * 1/12 = 3/72 and the
// area 66/72 = 11/12.
// AUC-PR (Eq. 3, rho = gamma/(5 eta_pu)): .943 1/3, .863 2/3, .789 1/3, .699
// 1/2, then 1/3, 1/4, 1/5. Drop: 1/3*1/3 + 1/3*2/3 + 1/3*1/2 = 1/2. Clip adds
// .986 (recall 1/3, eta_pu = 0 so precision 1): 1/3 + 2/9 + 1/6 = 13/18.
// AUC-PR read off the recovered ROC curve (precision gamma/(gamma + 4 eta)),
// drop: (1/12, 2/3) 2/3, (1/6, 2/3) 1/2, (1/4, 1) 1/2, then recall 1;
// trapezoid: 2/3*2/3 (the first segment at its own precision) + 1/3*(1/2 +
// 1/2)/2 (from the vertical drop to 1/2) = 11/18; step: the same 11/18.
// Clip: (0, 1/3) comes first with precision 1; trapezoid 1/3*1 + 1/3*(1 +
// 2/3)/2 + 1/3*1/2 = 7/9; step 1/3 + 2/9 + 1/6 = 13/18.
// PSB: c = 3/8, pi = 3/8 + (5/8)(1/5) = 1/2 (the true share of positives, 4/8).
// With pi = 1/2, acc = bacc = (1 + gamma - eta)/2, largest at .699: 7/8. F =
// gamma/(1/2 + theta): .699 gives 8/9, the largest (.863: 16/21, .473: 4/5).
// mcc = (gamma - eta)/(2 sqrt(theta(1-theta))): .699 gives 3/sqrt(15), the
// largest (.986: 5/(3 sqrt 7) = .630, .863: 7/(3 sqrt 15) = .602). These equal
// the true maxima on the 8 examples (metrics.TestAAAIFigure1: acc 7/8, F1 8/9,
// MCC 12/sqrt(240) = 3/sqrt(15)), reached there at .863 (ties) or .699.
// PU maxima (labeled as positive): acc 6/8 at .986 (also at .863, .699; ties
// go up); bacc (1 + 1 - 2/5)/2 = 4/5 at .699; F1 2*3/(2*3+2) = 3/4 at .699;
// MCC at .699: (3*3 - 2*0)/sqrt(5*3*5*3) = 3/5.
func TestAAAIFigure1Hand(t *testing.T) {
	r := puRanking(t, []float64{0.986, 0.863, 0.699}, []float64{0.943, 0.789, 0.473, 0.211, 0.009})
	rc := mustNew(t, r, 0.2, 1)
	want := []struct{ thr, gamma, eta, theta float64 }{
		{math.Inf(1), 0, 0, 0},
		{.986, 1. / 3, -1. / 12, 1. / 8}, {.943, 1. / 3, 1. / 6, 2. / 8}, {.863, 2. / 3, 1. / 12, 3. / 8},
		{.789, 2. / 3, 1. / 3, 4. / 8}, {.699, 1, 1. / 4, 5. / 8}, {.473, 1, 1. / 2, 6. / 8},
		{.211, 1, 3. / 4, 7. / 8}, {.009, 1, 1, 1},
	}
	if rc.Len() != len(want) {
		t.Fatalf("%d thresholds, want %d", rc.Len(), len(want))
	}
	for k, w := range want {
		p := rc.Point(k)
		if p.Threshold != w.thr || !near(p.Gamma, w.gamma, 1e-15) || !near(p.Eta, w.eta, 1e-15) || !near(p.Theta, w.theta, 1e-15) {
			t.Errorf("threshold %d: %+v, want %+v", k, p, w)
		}
	}
	if rc.C() != 3.0/8 || rc.Pi() != 0.5 {
		t.Errorf("c %v pi %v, want 3/8 and 1/2", rc.C(), rc.Pi())
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"direct AUC", rc.DirectAUC(), 0.875},
		{"indirect AUC drop", rc.IndirectAUC(Drop), 65.0 / 72},
		{"indirect AUC clip", rc.IndirectAUC(Clip), 11.0 / 12},
		{"indirect AUC-PR drop", rc.IndirectAUCPR(Drop), 0.5},
		{"indirect AUC-PR clip", rc.IndirectAUCPR(Clip), 13.0 / 18},
		{"AUC-PR roc trapezoid drop", rc.AUCPR(Drop, PRFromROC, AreaTrapezoid), 11.0 / 18},
		{"AUC-PR roc step drop", rc.AUCPR(Drop, PRFromROC, AreaStep), 11.0 / 18},
		{"AUC-PR roc trapezoid clip", rc.AUCPR(Clip, PRFromROC, AreaTrapezoid), 7.0 / 9},
		{"AUC-PR roc step clip", rc.AUCPR(Clip, PRFromROC, AreaStep), 13.0 / 18},
	} {
		if !near(c.got, c.want, 1e-15) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	wantRec := map[Measure]metrics.Optimum{
		Accuracy: {Value: 7.0 / 8, Threshold: .699}, BalancedAccuracy: {Value: 7.0 / 8, Threshold: .699},
		F1: {Value: 8.0 / 9, Threshold: .699}, MCC: {Value: 3 / math.Sqrt(15), Threshold: .699},
	}
	wantPU := map[Measure]metrics.Optimum{
		Accuracy: {Value: 6.0 / 8, Threshold: .986}, BalancedAccuracy: {Value: 4.0 / 5, Threshold: .699},
		F1: {Value: 3.0 / 4, Threshold: .699}, MCC: {Value: 3.0 / 5, Threshold: .699},
	}
	for _, m := range Measures {
		if got := rc.Max(m); !near(got.Value, wantRec[m].Value, 1e-15) || got.Threshold != wantRec[m].Threshold {
			t.Errorf("recovered max %v = %+v, want %+v", m, got, wantRec[m])
		}
		if got := rc.PUMax(m); !near(got.Value, wantPU[m].Value, 1e-15) || got.Threshold != wantPU[m].Threshold {
			t.Errorf("PU max %v = %+v, want %+v", m, got, wantPU[m])
		}
	}
}

// A second hand example where the recovered recall dips, so the running
// maximum in the AUC-PR matters, and where dropping leaves one interior point
// (the collapse of Algorithm 1 in miniature). L = {4, 2}, U = {3, 1}, alpha =
// 0.2, beta = 0.8 (beta - alpha = 0.6). By Eqs. 1-2:
//
//	threshold gamma_pu eta_pu | gamma               eta
//	4         1/2      0      | 0.4/0.6 = 2/3       -0.1/0.6 = -1/6 (outside)
//	3         1/2      1/2    | 0.3/0.6 = 1/2       0.3/0.6 = 1/2
//	2         1        1/2    | 0.7/0.6 = 7/6 (out) 0.2/0.6 = 1/3
//	1         1        1      | 1                   1
//
// ROC drop: (0,0) (1/2,1/2) (1,1), area 1/2. Clip: (0,2/3) (1/2,1/2) (1/3,1)
// sorted and lifted: (0,0) (0,2/3) (1/3,1) (1/2,1) (1,1): 5/18 + 2/3 = 17/18.
// Eq. 4: AUC_pu = 3/4 (4 beats 3 and 1, 2 beats 1), (0.75 - 0.2)/0.6 = 11/12.
// PR clip (rho = 0.2 gamma / eta_pu): 4: (2/3, 1) (eta_pu = 0); 3: (1/2, 0.2);
// 2: (1, 0.4); 1: (1, 0.2). Average precision with the running maximum of
// recall: 2/3*1 + 0 + (1 - 2/3)*0.4 = 4/5; without it the dip would add
// (1/2 - 2/3)*0.2 + (1 - 1/2)*0.4 for 5/6. PR drop: 3: (1/2, 0.2); 1: (1, 0.2):
// 1/2*0.2 + 1/2*0.2 = 0.2.
func TestHandExampleDipAndCollapse(t *testing.T) {
	rc := mustNew(t, puRanking(t, []float64{4, 2}, []float64{3, 1}), 0.2, 0.8)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"direct AUC", rc.DirectAUC(), 11.0 / 12},
		{"indirect AUC drop", rc.IndirectAUC(Drop), 0.5},
		{"indirect AUC clip", rc.IndirectAUC(Clip), 17.0 / 18},
		{"indirect AUC-PR clip", rc.IndirectAUCPR(Clip), 0.8},
		{"indirect AUC-PR drop", rc.IndirectAUCPR(Drop), 0.2},
	} {
		if !near(c.got, c.want, 1e-15) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	pr := rc.PR(Clip)
	wantPR := []metrics.PRPoint{{Threshold: 4, Recall: 2.0 / 3, Precision: 1}, {Threshold: 3, Recall: 0.5, Precision: 0.2},
		{Threshold: 2, Recall: 1, Precision: 0.4}, {Threshold: 1, Recall: 1, Precision: 0.2}}
	if len(pr) != len(wantPR) {
		t.Fatalf("PR(Clip) = %+v, want %+v", pr, wantPR)
	}
	for i := range pr {
		if pr[i].Threshold != wantPR[i].Threshold || !near(pr[i].Recall, wantPR[i].Recall, 1e-15) || !near(pr[i].Precision, wantPR[i].Precision, 1e-15) {
			t.Errorf("PR(Clip)[%d] = %+v, want %+v", i, pr[i], wantPR[i])
		}
	}
}

// exactMixture builds a finite PU sample in which the PU rates are exactly the
// mixtures of the true rates: L is a copies of the positives' scores s1 and b
// copies of the negatives' s0, U is cp copies of s1 and dn copies of s0. Then at
// every threshold TPR_L = beta gamma + (1-beta) eta and FPR_U = alpha gamma +
// (1-alpha) eta exactly, with beta = a|s1|/(a|s1| + b|s0|) and alpha likewise,
// so Theorem 1 and Eqs. 12-15 must give back the truth of the sample itself.
func exactMixture(s1, s0 []float64, a, b, cp, dn int) (l, u []float64, lTruth, uTruth []bool) {
	add := func(x []float64, y []bool, s []float64, n int, pos bool) ([]float64, []bool) {
		for range n {
			for _, v := range s {
				x, y = append(x, v), append(y, pos)
			}
		}
		return x, y
	}
	l, lTruth = add(l, lTruth, s1, a, true)
	l, lTruth = add(l, lTruth, s0, b, false)
	u, uTruth = add(u, uTruth, s1, cp, true)
	u, uTruth = add(u, uTruth, s0, dn, false)
	return l, u, lTruth, uTruth
}

// Finite-sample identity: on an exact mixture (see exactMixture), with ties
// inside and across the classes, the recovered rates equal the true TPR and
// FPR at every threshold, the direct and indirect AUCs equal the true AUC on
// U, the indirect AUC-PR equals the true average precision on U, and the
// recovered acc, bacc, F1, mcc equal the true ones on D = L u U at every
// threshold (so their maxima and arg-maxima agree too).
//
// The first case failed before Algorithm 1 treated etas equal up to rounding
// as ties (alpha = 6/34 is not a binary fraction, two thresholds with eta 1/7
// came out of Eq. 2 as ...288 and ...285, the higher gamma was sorted first
// and the area grew from 0.786 to 0.810). The last two failed before Max did
// the same for values: the recovered bacc (acc) ties at two thresholds, and
// rounding picked the lower threshold 2 (1) instead of the truth's 6 (2).
func TestExactMixtureIdentity(t *testing.T) {
	s1 := []float64{0.9, 0.8, 0.7, 0.7, 0.5, 0.3}
	s0 := []float64{0.8, 0.6, 0.5, 0.4, 0.2, 0.2, 0.1}
	for _, c := range []struct {
		s1, s0       []float64
		a, b, cp, dn int
	}{
		{s1, s0, 2, 0, 1, 4}, {s1, s0, 3, 1, 1, 3}, {s1, s0, 5, 2, 2, 7}, {s1, s0, 1, 0, 1, 1},
		{[]float64{4, 2, 6, 7, 6}, []float64{6, 7, 5, 4, 0}, 1, 2, 1, 4},
		{[]float64{4, 2, 5, 1}, []float64{6, 0, 6, 0, 1}, 3, 2, 2, 3},
	} {
		l, u, lt, ut := exactMixture(c.s1, c.s0, c.a, c.b, c.cp, c.dn)
		beta := float64(c.a*len(c.s1)) / float64(c.a*len(c.s1)+c.b*len(c.s0))
		alpha := float64(c.cp*len(c.s1)) / float64(c.cp*len(c.s1)+c.dn*len(c.s0))
		rc := mustNew(t, puRanking(t, l, u), alpha, beta)
		truthU, err := metrics.Rank(u, ut)
		if err != nil {
			t.Fatal(err)
		}
		truthD, err := metrics.Rank(append(slices.Clone(l), u...), append(slices.Clone(lt), ut...))
		if err != nil {
			t.Fatal(err)
		}
		if truthD.Len() != rc.Len() || truthU.Len() != rc.Len() {
			t.Fatalf("%+v: thresholds differ", c)
		}
		if !near(rc.Pi(), float64(truthD.Positives())/float64(truthD.N()), 1e-15) {
			t.Errorf("%+v: pi %v, true share of positives on D %v", c, rc.Pi(), float64(truthD.Positives())/float64(truthD.N()))
		}
		for k := range rc.Len() {
			p := rc.Point(k)
			if !near(p.Gamma, truthU.TPR(k), 1e-14) || !near(p.Eta, truthU.FPR(k), 1e-14) {
				t.Errorf("%+v threshold %v: recovered (%v, %v), true (%v, %v)", c, p.Threshold, p.Gamma, p.Eta, truthU.TPR(k), truthU.FPR(k))
			}
			for _, m := range Measures {
				if got, want := m.Of(rc.Rates(k)), m.Metric()(truthD.Confusion(k)); !near(got, want, 1e-13) {
					t.Errorf("%+v threshold %v: recovered %v %v, true on D %v", c, p.Threshold, m, got, want)
				}
			}
		}
		auc := truthU.AUC()
		for name, got := range map[string]float64{"direct": rc.DirectAUC(), "drop": rc.IndirectAUC(Drop), "clip": rc.IndirectAUC(Clip)} {
			if !near(got, auc, 1e-14) {
				t.Errorf("%+v: %s AUC %v, true AUC on U %v", c, name, got, auc)
			}
		}
		for _, o := range Outsides {
			if got, want := rc.IndirectAUCPR(o), truthU.AveragePrecision(); !near(got, want, 1e-14) {
				t.Errorf("%+v: indirect AUC-PR (%v) %v, true AP on U %v", c, o, got, want)
			}
			// Both readings of the recovered PR curve are the true one in
			// exact arithmetic, under both area rules.
			trapz := prArea(truthU.PR(), AreaTrapezoid)
			for _, pc := range []PRCurve{PREq3, PRFromROC} {
				if got, want := rc.AUCPR(o, pc, AreaStep), truthU.AveragePrecision(); !near(got, want, 1e-14) {
					t.Errorf("%+v: AUC-PR (%v, %v, step) %v, true AP on U %v", c, o, pc, got, want)
				}
				if got := rc.AUCPR(o, pc, AreaTrapezoid); !near(got, trapz, 1e-14) {
					t.Errorf("%+v: AUC-PR (%v, %v, trapezoid) %v, true trapezoid area on U %v", c, o, pc, got, trapz)
				}
			}
		}
		for _, m := range Measures {
			got, want := rc.Max(m), truthD.Max(m.Metric())
			if !near(got.Value, want.Value, 1e-13) || got.Threshold != want.Threshold {
				t.Errorf("%+v: recovered max %v %+v, true max on D %+v", c, m, got, want)
			}
		}
	}
}

// draw is one synthetic PU sample with positives N(1,1) and negatives
// N(-1,1), and its truth: the ranking of U with true labels (the AAAI-2017
// truth) and of D = L u U with true labels (the PSB-2019 truth).
type draw struct {
	s              synth.Sample
	pu             *metrics.Ranking
	truthU, truthD *metrics.Ranking
}

func newDraw(t testing.TB, seed uint64, alpha, beta float64, nL, nU int) draw {
	t.Helper()
	s, err := synth.PU(rand.New(rand.NewPCG(seed, 0x6a09e667)), synth.Normal(1, 1), synth.Normal(-1, 1), alpha, beta, nL, nU)
	if err != nil {
		t.Fatal(err)
	}
	tu, err := metrics.Rank(s.Unlabeled, s.UnlabeledTruth)
	if err != nil {
		t.Fatal(err)
	}
	td, err := metrics.Rank(append(slices.Clone(s.Labeled), s.Unlabeled...), append(slices.Clone(s.LabeledTruth), s.UnlabeledTruth...))
	if err != nil {
		t.Fatal(err)
	}
	return draw{s: s, pu: puRanking(t, s.Labeled, s.Unlabeled), truthU: tu, truthD: td}
}

// errors returns recovered minus true for the AUC (direct, indirect drop,
// indirect clip; truth on U), the AUC-PR (indirect drop; truth on U) and the
// maxima of acc, bacc, F1, mcc (truth on D).
func (d draw) errors(t testing.TB) []float64 {
	rc := mustNew(t, d.pu, d.s.Alpha, d.s.Beta)
	auc, ap := d.truthU.AUC(), d.truthU.AveragePrecision()
	e := []float64{rc.DirectAUC() - auc, rc.IndirectAUC(Drop) - auc, rc.IndirectAUC(Clip) - auc, rc.IndirectAUCPR(Drop) - ap}
	for _, m := range Measures {
		e = append(e, rc.Max(m).Value-d.truthD.Max(m.Metric()).Value)
	}
	return e
}

var errorNames = []string{"AUC direct", "AUC indirect drop", "AUC indirect clip", "AUC-PR indirect", "max acc", "max bacc", "max F1", "max MCC"}

// tolerances of errorNames: the issue's acceptance (AUC 0.01 on U, PSB maxima
// 0.02 on D); AUC-PR has no stated acceptance, we hold it to 0.02.
var tolerances = []float64{0.01, 0.01, 0.01, 0.02, 0.02, 0.02, 0.02, 0.02}

// Finite-sample recovery at the issue's sizes: N(+1,1) vs N(-1,1), alpha 0.3,
// beta 0.9, n_L 2,000, n_U 20,000. One draw's error is sampling noise of about
// 0.007 (AUC) to 0.016 (max MCC) standard deviation at these sizes (measured
// over 200 draws: RMS error 0.0073 direct AUC, 0.0070 indirect AUC, 0.0216
// AUC-PR, 0.0074/0.0072/0.0093/0.0162 max acc/bacc/F1/MCC; the noise of the
// 2,000 labeled scores, amplified by 1/(beta - alpha)), so a single draw lands
// outside 0.01 / 0.02 in 15-25% of seeds. What the issue's tolerance can test
// at these sizes is the bias: the mean error over 20 independent draws must be
// within it (its standard error is 0.0016 for the AUC, 0.0036 for max MCC; the
// worst of 10 such means over those 200 draws was 0.0029 and 0.0105). Every
// draw must also show the PU AUC below the truth (AAAI-2017 Theorem 1:
// AUC > AUC_pu when AUC_pu > 1/2 and beta - alpha < 1), by about (1 - 0.6)/0.6
// (AUC_pu - 1/2) = 0.17 here.
func TestFiniteSampleIssueSizes(t *testing.T) {
	const draws = 20
	mean := make([]float64, len(errorNames))
	for seed := uint64(1); seed <= draws; seed++ {
		d := newDraw(t, seed, 0.3, 0.9, 2000, 20000)
		for i, e := range d.errors(t) {
			mean[i] += e / draws
		}
		if pu, truth := d.pu.AUC(), d.truthU.AUC(); !(pu < truth-0.1) {
			t.Errorf("seed %d: PU AUC %v does not underestimate the true AUC %v", seed, pu, truth)
		}
		// PSB-2019 Theorem 2.1: the PU bacc and mcc underestimate too; PU
		// accuracy overestimates here (predicting all unlabeled is right
		// 1 - c = 10/11 of the time, PSB-2019 Section 3.4).
		for _, m := range []Measure{BalancedAccuracy, MCC, F1} {
			if pu, truth := d.pu.Max(m.Metric()).Value, d.truthD.Max(m.Metric()).Value; !(pu < truth) {
				t.Errorf("seed %d: PU max %v %v not below the true %v", seed, m, pu, truth)
			}
		}
		if pu, truth := d.pu.Max(Accuracy.Metric()).Value, d.truthD.Max(Accuracy.Metric()).Value; !(pu > truth) {
			t.Errorf("seed %d: PU max acc %v not above the true %v", seed, pu, truth)
		}
	}
	for i, name := range errorNames {
		t.Logf("%-18s mean error over %d draws %+.4f (tolerance %v)", name, draws, mean[i], tolerances[i])
		if math.Abs(mean[i]) > tolerances[i] {
			t.Errorf("%s: mean error %+.4f over %d draws exceeds %v", name, mean[i], draws, tolerances[i])
		}
	}
}

// Finite-sample recovery of one draw, 10 times the issue's sizes (n_L 20,000,
// n_U 200,000): the sampling noise shrinks by sqrt(10), and each single draw
// must be within the issue's tolerances (over 40 seeds the worst errors were
// 0.0052 for the AUC and 0.0067 for the PSB maxima, 0.019 for the AUC-PR, so
// this seed is not a lucky one). This is DESIGN.md section 11's property
// "recovering a metric from PU data generated with known alpha/beta gives back
// the truth as n grows".
func TestFiniteSampleLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("220,000 scores")
	}
	d := newDraw(t, 1, 0.3, 0.9, 20000, 200000)
	for i, e := range d.errors(t) {
		if math.Abs(e) > tolerances[i] {
			t.Errorf("%s: error %+.4f exceeds %v", errorNames[i], e, tolerances[i])
		}
	}
}

// PSB-2019 Theorem 2.1 on data: the direct bacc and mcc (from the PU
// confusion matrix's bacc and mcc) equal the indirect ones (Eqs. 13 and 15
// from the recovered gamma, eta) at every threshold, and the recovered bacc
// and mcc are maximised at the threshold that maximises their PU values (the
// maps are increasing), up to rounding.
func TestTheorem21DirectEqualsIndirect(t *testing.T) {
	for _, c := range []struct {
		alpha, beta float64
		nL, nU      int
	}{{0.3, 0.9, 500, 5000}, {0.1, 1, 300, 1000}, {0.45, 0.7, 1000, 1000}} {
		d := newDraw(t, 7, c.alpha, c.beta, c.nL, c.nU)
		rc := mustNew(t, d.pu, d.s.Alpha, d.s.Beta)
		for k := range rc.Len() {
			x := rc.Rates(k)
			if got, want := rc.DirectBalancedAccuracy(k), x.BalancedAccuracy(); !near(got, want, 1e-12) {
				t.Errorf("%+v threshold %d: direct bacc %v, Eq. 13 %v", c, k, got, want)
			}
			if got, want := rc.DirectMCC(k), x.MCC(); !near(got, want, 1e-12) {
				t.Errorf("%+v threshold %d: direct mcc %v, Eq. 15 %v", c, k, got, want)
			}
		}
		for _, m := range []Measure{BalancedAccuracy, MCC} {
			best := rc.Max(m)
			k := slices.IndexFunc(rc.Points(), func(p Point) bool { return p.Threshold == rc.PUMax(m).Threshold })
			if v := m.Clip(m.Of(rc.Rates(k))); !near(v, best.Value, 1e-12) {
				t.Errorf("%+v: recovered %v at the PU arg-max is %v, the recovered max is %v", c, m, v, best.Value)
			}
		}
	}
}

// Algorithm 1 with an overestimated alpha-hat: the draw has alpha 0.3, beta
// 0.9, true AUC on U about 0.92; with alpha-hat 0.7 (beta - alpha
// underestimated by 0.4), eta-hat = (0.9 eta_pu - 0.7 gamma_pu)/0.2 is negative
// at nearly every threshold, Drop keeps almost no point and the indirect AUC
// collapses to the diagonal (0.5), while Clip keeps every threshold and gives
// an AUC near 1 (the direct AUC is clipped to 1 too). This is the failure the
// `outside: clip` option exists for (DESIGN.md section 8).
func TestOutsideCollapse(t *testing.T) {
	d := newDraw(t, 3, 0.3, 0.9, 2000, 20000)
	rc := mustNew(t, d.pu, 0.7, 0.9)
	if drop := rc.IndirectAUC(Drop); !near(drop, 0.5, 0.01) {
		t.Errorf("drop: indirect AUC %v, want the collapse to about 0.5", drop)
	}
	if n := len(rc.ROC(Drop)); n > 10 {
		t.Errorf("drop kept %d points, want almost none", n)
	}
	if clip := rc.IndirectAUC(Clip); clip < 0.99 {
		t.Errorf("clip: indirect AUC %v, want near 1", clip)
	}
	if direct := rc.DirectAUC(); direct != 1 {
		t.Errorf("direct AUC %v, want 1 (clipped)", direct)
	}
}

// Properties of Algorithm 1's curve for any (alpha-hat, beta-hat), including
// poor ones: it starts at (0,0), ends at (1,1), stays in [0,1]^2, and is
// non-decreasing in both coordinates; the AUC and AUC-PR lie in [0, 1]; the
// clipped maxima lie in their ranges.
func TestCurveProperties(t *testing.T) {
	d := newDraw(t, 11, 0.3, 0.9, 300, 3000)
	for _, ab := range [][2]float64{{0.3, 0.9}, {0, 1}, {0.05, 0.5}, {0.6, 0.65}, {0.2, 0.95}, {0.5, 0.99}} {
		rc := mustNew(t, d.pu, ab[0], ab[1])
		for _, o := range Outsides {
			roc := rc.ROC(o)
			first, last := roc[0], roc[len(roc)-1]
			if first.FPR != 0 || first.TPR != 0 || !math.IsInf(first.Threshold, 1) || last.FPR != 1 || last.TPR != 1 {
				t.Errorf("%v %v: curve from %+v to %+v", ab, o, first, last)
			}
			for i, p := range roc {
				if p.FPR < 0 || p.FPR > 1 || p.TPR < 0 || p.TPR > 1 {
					t.Errorf("%v %v: point %+v outside the unit square", ab, o, p)
				}
				if i > 0 && (p.FPR < roc[i-1].FPR || p.TPR < roc[i-1].TPR) {
					t.Errorf("%v %v: not monotone at %d: %+v after %+v", ab, o, i, p, roc[i-1])
				}
			}
			if a := rc.IndirectAUC(o); a < 0 || a > 1 {
				t.Errorf("%v %v: AUC %v", ab, o, a)
			}
			if a := rc.IndirectAUCPR(o); a < 0 || a > 1 {
				t.Errorf("%v %v: AUC-PR %v", ab, o, a)
			}
			if a, b := rc.AUCPR(o, PREq3, AreaStep), rc.IndirectAUCPR(o); a != b {
				t.Errorf("%v %v: AUCPR(eq3, step) %v, IndirectAUCPR %v: the same sum", ab, o, a, b)
			}
			for _, pc := range []PRCurve{PREq3, PRFromROC} {
				for _, ar := range []PRArea{AreaStep, AreaTrapezoid} {
					if a := rc.AUCPR(o, pc, ar); a < 0 || a > 1 {
						t.Errorf("%v %v: AUC-PR (%v, %v) %v", ab, o, pc, ar, a)
					}
				}
			}
			for _, p := range rc.PRCurveOf(o, PRFromROC) {
				if p.Precision < 0 || p.Precision > 1 || p.Recall < 0 || p.Recall > 1 {
					t.Errorf("%v %v: ROC-read PR point %+v outside the unit square", ab, o, p)
				}
			}
			if o == Clip && len(roc) != rc.Len() {
				t.Errorf("%v: clip kept %d of %d thresholds", ab, len(roc), rc.Len())
			}
		}
		for _, m := range Measures {
			lo, hi := m.Range()
			if v := rc.Max(m).Value; v < lo || v > hi {
				t.Errorf("%v: max %v = %v outside [%v, %v]", ab, m, v, lo, hi)
			}
			for k := range rc.Len() {
				if v := rc.Value(m, k); v < lo || v > hi {
					t.Errorf("%v: %v at %d = %v outside [%v, %v]", ab, m, k, v, lo, hi)
				}
			}
		}
	}
}

// The clipped maximum keeps the arg-max of the unclipped curve: with alpha-hat
// overestimated the recovered bacc exceeds 1 at several thresholds; the
// reported threshold is the one with the largest unclipped value (which is
// also the PU arg-max, Theorem 2.1), not the highest of the clipped ties.
func TestMaxArgmaxBeforeClipping(t *testing.T) {
	d := newDraw(t, 5, 0.3, 0.9, 500, 5000)
	rc := mustNew(t, d.pu, 0.6, 0.9)
	best := rc.Max(BalancedAccuracy)
	over := 0
	for k := range rc.Len() {
		if BalancedAccuracy.Of(rc.Rates(k)) > 1 {
			over++
		}
	}
	if over < 2 {
		t.Fatalf("only %d thresholds above 1: the test needs several", over)
	}
	if best.Value != 1 || best.Threshold != rc.PUMax(BalancedAccuracy).Threshold {
		t.Errorf("max bacc %+v, want value 1 at the PU arg-max %v", best, rc.PUMax(BalancedAccuracy).Threshold)
	}
}

func TestSummary(t *testing.T) {
	rc := mustNew(t, puRanking(t, []float64{0.986, 0.863, 0.699}, []float64{0.943, 0.789, 0.473, 0.211, 0.009}), 0.2, 1)
	for _, o := range Outsides {
		s, err := rc.Summary(o)
		if err != nil {
			t.Fatal(err)
		}
		if s.Alpha != 0.2 || s.Beta != 1 || s.C != rc.C() || s.Pi != rc.Pi() || s.Outside != o ||
			s.AUC != (AUCs{PU: 0.8, Direct: rc.DirectAUC(), Indirect: rc.IndirectAUC(o)}) ||
			s.AUCPR != (AUCPRs{PU: rc.Ranking().AveragePrecision(), Indirect: rc.AUCPR(o, DefaultPRCurve, DefaultPRArea)}) {
			t.Errorf("%v: summary %+v", o, s)
		}
		for _, m := range Measures {
			if got := s.Optima(m); got != (Optima{PU: rc.PUMax(m), Recovered: rc.Max(m)}) {
				t.Errorf("%v: optima of %v %+v", o, m, got)
			}
		}
	}
	if _, err := rc.Summary(Outside(7)); err == nil {
		t.Error("Summary accepted an invalid Outside")
	}
}

func TestOutsideText(t *testing.T) {
	for _, o := range Outsides {
		b, err := o.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Outside
		if err := back.UnmarshalText(b); err != nil || back != o {
			t.Errorf("%v -> %s -> %v, %v", o, b, back, err)
		}
	}
	if _, err := ParseOutside("trim"); err == nil {
		t.Error("ParseOutside accepted trim")
	}
	if _, err := Outside(5).MarshalText(); err == nil {
		t.Error("MarshalText accepted Outside(5)")
	}
}

// A ranking whose scores all tie has thresholds +Inf and the one score: the
// recovered ROC is the diagonal, AUC 1/2, and AUC-PR alpha (the precision of
// predicting everything positive on U).
func TestAllTied(t *testing.T) {
	rc := mustNew(t, puRanking(t, []float64{1, 1}, []float64{1, 1, 1}), 0.3, 0.9)
	if a := rc.IndirectAUC(Drop); a != 0.5 {
		t.Errorf("AUC %v", a)
	}
	if a := rc.DirectAUC(); !near(a, 0.5, 1e-15) {
		t.Errorf("direct AUC %v", a)
	}
	if a := rc.IndirectAUCPR(Clip); a != 0.3 {
		t.Errorf("AUC-PR %v", a)
	}
}

// TestPRArea: the two area rules on a curve worked by hand, with a
// vertical segment and a dip of the recall. Step: 0.5*1 + 0.5*0.6 = 0.8.
// Trapezoid: the first segment from (0, 1) to (0.5, 1) is 0.5; the vertical
// drop to 0.5 starts the next one, 0.5*(0.5+0.6)/2 = 0.275; the dip to
// recall 0.4 adds nothing: 0.775.
func TestPRArea(t *testing.T) {
	pts := []metrics.PRPoint{{Recall: 0, Precision: 0}, {Recall: 0.5, Precision: 1}, {Recall: 0.5, Precision: 0.5},
		{Recall: 0.4, Precision: 0.9}, {Recall: 1, Precision: 0.6}}
	if got := prArea(pts, AreaStep); !near(got, 0.8, 1e-15) {
		t.Errorf("step area %v, want 0.8", got)
	}
	if got := prArea(pts, AreaTrapezoid); !near(got, 0.775, 1e-15) {
		t.Errorf("trapezoid area %v, want 0.775", got)
	}
	for _, s := range []string{"eq3", "roc"} {
		if c, err := ParsePRCurve(s); err != nil || c.String() != s {
			t.Errorf("ParsePRCurve(%q) = %v, %v", s, c, err)
		}
	}
	for _, s := range []string{"step", "trapezoid"} {
		if a, err := ParsePRArea(s); err != nil || a.String() != s {
			t.Errorf("ParsePRArea(%q) = %v, %v", s, a, err)
		}
	}
	if _, err := ParsePRCurve("Eq3"); err == nil {
		t.Error("ParsePRCurve accepted Eq3")
	}
	if _, err := ParsePRArea("trapz"); err == nil {
		t.Error("ParsePRArea accepted trapz")
	}
}

// ROC is computed once per mode and kept: a caller that changes the curve it
// got changes neither the next caller's curve nor the areas read off it, and
// goroutines asking at once all get the curve a fresh Recovery computes.
func TestROCKeptPerModeIsNotShared(t *testing.T) {
	d := newDraw(t, 5, 0.3, 0.9, 300, 2000)
	fresh := func(o Outside) ([]metrics.ROCPoint, float64, float64) {
		rc := mustNew(t, d.pu, 0.3, 0.9)
		return rc.ROC(o), rc.IndirectAUC(o), rc.AUCPR(o, PRFromROC, AreaTrapezoid)
	}
	rc := mustNew(t, d.pu, 0.3, 0.9)
	for _, o := range Outsides {
		want, auc, aucpr := fresh(o)
		got := rc.ROC(o)
		if !slices.Equal(got, want) {
			t.Fatalf("%v: the first ROC differs from a fresh recovery's", o)
		}
		for i := range got {
			got[i] = metrics.ROCPoint{FPR: 0.5, TPR: 0.5}
		}
		if again := rc.ROC(o); !slices.Equal(again, want) {
			t.Errorf("%v: changing a returned curve changed the next one", o)
		}
		if a, p := rc.IndirectAUC(o), rc.AUCPR(o, PRFromROC, AreaTrapezoid); a != auc || p != aucpr {
			t.Errorf("%v: areas %v %v after a caller changed its curve, want %v %v", o, a, p, auc, aucpr)
		}
	}
	rc = mustNew(t, d.pu, 0.3, 0.9)
	want, _, _ := fresh(Clip)
	got := make([][]metrics.ROCPoint, 8)
	done := make(chan int)
	for g := range got {
		go func() { got[g] = rc.ROC(Clip); done <- g }()
	}
	for range got {
		<-done
	}
	for g := range got {
		if !slices.Equal(got[g], want) {
			t.Errorf("goroutine %d: ROC differs from a fresh recovery's", g)
		}
	}
}
