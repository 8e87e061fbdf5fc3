package recovery

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pueval/pueval/metrics"
)

// An exact identity: at the threshold of each measure's maximum, AtThreshold
// gives the maximum's value bit for bit, and at no threshold does it exceed
// the maximum by more than the tie tolerance (the maximum is over these
// values). On the tallies of TestWorkspaceIsRecovery: ties, empty
// thresholds, priors from exact to far off.
func TestAtThresholdIsTheMaximisedValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var w Workspace
	for trial := range 200 {
		k := 1 + rng.IntN(60)
		tc := randomTally(rng, k, 2+rng.IntN(4*k+20), 0.05+0.5*rng.Float64())
		alpha := 0.6 * rng.Float64()
		beta := alpha + (1-alpha)*(0.05+0.95*rng.Float64())
		switch {
		case trial%3 == 0:
			tc, alpha, beta = tiedTally(rng, 1+rng.IntN(40), rng.IntN(10)), 0.3, 0.9
		case trial%7 == 0:
			beta = 1
		}
		num, err := w.Recover(context.Background(), tc.t, alpha, beta, Drop)
		if err != nil {
			t.Fatal(err)
		}
		tol := tieTolerance(alpha, beta)
		for i, m := range Measures {
			got, err := AtThreshold(tc.t, num.Max[i].K, alpha, beta)
			if err != nil {
				t.Fatal(err)
			}
			if !same(got[i], num.Max[i].Value) {
				t.Fatalf("trial %d: %v at its maximum's threshold %d: %v, want the maximum %v", trial, m, num.Max[i].K, got[i], num.Max[i].Value)
			}
		}
		for kk := range tc.t.L {
			got, err := AtThreshold(tc.t, kk, alpha, beta)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range Measures {
				if got[i] > num.Max[i].Value+tol {
					t.Fatalf("trial %d: %v at threshold %d is %v, above the maximum %v", trial, m, kk, got[i], num.Max[i].Value)
				}
			}
		}
	}
}

// Known truth: a PU sample that is exactly its expectation (each class
// scores alike in L and in U, count for count) recovers the true numbers
// of L u U at every threshold, up to rounding. Positives score 4, 3, 2, 1
// in the proportions 1/2, 1/4, 1/8, 1/8, negatives 0, 1/4, 1/4, 1/2; L
// holds 8 positives and 4 negatives (beta 2/3), U 8 and 16 (alpha 1/3).
func TestAtThresholdKnownTruth(t *testing.T) {
	var scores []float64
	var labeled, truth []bool
	add := func(score float64, lab, pos bool, n int) {
		for range n {
			scores, labeled, truth = append(scores, score), append(labeled, lab), append(truth, pos)
		}
	}
	for j, s := range []float64{4, 3, 2, 1} {
		pos := []int{4, 2, 1, 1}[j]
		neg := []int{0, 1, 1, 2}[j]
		add(s, true, true, pos)
		add(s, false, true, pos)
		add(s, true, false, neg)
		add(s, false, false, 4*neg)
	}
	pu, err := metrics.Rank(scores, labeled)
	if err != nil {
		t.Fatal(err)
	}
	tally, err := TallyOf(pu)
	if err != nil {
		t.Fatal(err)
	}
	true_, err := metrics.Rank(scores, truth)
	if err != nil {
		t.Fatal(err)
	}
	if pu.Len() != 5 || true_.Len() != 5 {
		t.Fatalf("%d and %d thresholds, want 5", pu.Len(), true_.Len())
	}
	for k := range pu.Len() {
		got, err := AtThreshold(tally, k, 1.0/3, 2.0/3)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range Measures {
			if want := m.Metric()(true_.Confusion(k)); math.Abs(got[i]-want) > 1e-12 {
				t.Errorf("threshold %d (score >= %v): %v %v, want the truth %v", k, pu.Threshold(k), m, got[i], want)
			}
		}
	}
}

// Brute force from the definition: the recovered rates solve the forward
// equations gammaPU = beta gamma + (1-beta) eta, etaPU = alpha gamma +
// (1-alpha) eta (Cramer's rule here), and each measure is the one of the
// expected confusion matrix of L u U under them (TP = gamma P, FP = eta N
// with P = beta |L| + alpha |U| positives), clipped to its range.
func TestAtThresholdBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for trial := range 300 {
		k := 1 + rng.IntN(30)
		tc := randomTally(rng, k, 2+rng.IntN(4*k+20), 0.05+0.5*rng.Float64())
		alpha := 0.6 * rng.Float64()
		beta := alpha + (1-alpha)*(0.05+0.95*rng.Float64())
		at := rng.IntN(len(tc.t.L))
		got, err := AtThreshold(tc.t, at, alpha, beta)
		if err != nil {
			t.Fatal(err)
		}
		var l, u float64
		for j := 1; j <= at; j++ {
			l, u = l+float64(tc.t.L[j]), u+float64(tc.t.U[j])
		}
		nL, nU := float64(tc.t.NL), float64(tc.t.NU)
		gPU, ePU := l/nL, u/nU
		det := beta*(1-alpha) - (1-beta)*alpha
		gamma := (gPU*(1-alpha) - (1-beta)*ePU) / det
		eta := (beta*ePU - alpha*gPU) / det
		p := beta*nL + alpha*nU
		n := nL + nU - p
		tp, fp := gamma*p, eta*n
		fn, tn := p-tp, n-fp
		acc := (tp + tn) / (nL + nU)
		bacc := (tp/p + tn/n) / 2
		f1 := 0.0
		if 2*tp+fp+fn != 0 {
			f1 = 2 * tp / (2*tp + fp + fn)
		}
		mcc := 0.0
		if d := (tp + fp) * (fn + tn); d > 1e-12 {
			mcc = (tp*tn - fp*fn) / math.Sqrt(d*p*n)
		}
		for i, want := range []float64{acc, bacc, f1, mcc} {
			m := Measures[i]
			if want = m.Clip(want); math.Abs(got[i]-want) > 1e-9 {
				t.Fatalf("trial %d: %v at threshold %d (%v of %v labeled, %v of %v unlabeled; alpha %v, beta %v) = %v, want %v",
					trial, m, at, l, nL, u, nU, alpha, beta, got[i], want)
			}
		}
	}
}

// Nothing predicted positive (threshold 0) and everything (the last one)
// give the measures of those predictions: accuracy 1 - pi and pi, balanced
// accuracy 1/2, F1 0 and 2 pi / (1 + pi), MCC 0 (PSB-2019 Eqs. 4-8 with
// gamma = eta = 0, and 1).
func TestAtThresholdNoneAndAll(t *testing.T) {
	tally := Tally{L: []uint32{0, 2, 0, 1}, U: []uint32{0, 1, 3, 2}, NL: 3, NU: 6}
	alpha, beta := 0.2, 0.9
	pi := 3.0/9*beta + 6.0/9*alpha
	for _, c := range []struct {
		k    int
		want [4]float64
	}{{0, [4]float64{1 - pi, 0.5, 0, 0}}, {3, [4]float64{pi, 0.5, 2 * pi / (1 + pi), 0}}} {
		got, err := AtThreshold(tally, c.k, alpha, beta)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range Measures {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("threshold %d: %v %v, want %v", c.k, m, got[i], c.want[i])
			}
		}
	}
}

// A threshold outside the tally, unusable priors, counts outside their
// sets and a tally Recover refuses are errors.
func TestAtThresholdErrors(t *testing.T) {
	ok := Tally{L: []uint32{0, 2, 0}, U: []uint32{0, 1, 3}, NL: 2, NU: 4}
	for name, err := range map[string]error{
		"k -1":          errOf(AtThreshold(ok, -1, 0.3, 0.9)),
		"k 3":           errOf(AtThreshold(ok, 3, 0.3, 0.9)),
		"at +Inf":       errOf(AtThreshold(Tally{L: []uint32{1, 2}, U: []uint32{0, 1}, NL: 3, NU: 1}, 1, 0.3, 0.9)),
		"no unlabeled":  errOf(AtThreshold(Tally{L: []uint32{0, 2}, U: []uint32{0, 0}, NL: 2}, 1, 0.3, 0.9)),
		"counts":        errOf(AtCounts(3, 1, 2, 4, 0.3, 0.9)),
		"negative":      errOf(AtCounts(-1, 1, 2, 4, 0.3, 0.9)),
		"empty":         errOf(AtCounts(0, 0, 0, 4, 0.3, 0.9)),
		"beta <= alpha": errOf(AtThreshold(ok, 1, 0.5, 0.5)),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := AtCounts(1, 1, 2, 4, 0.5, 0.4); !errors.Is(err, ErrPriors) {
		t.Errorf("beta < alpha: %v, want ErrPriors", err)
	}
}

func errOf(_ [len(Measures)]float64, err error) error { return err }
