package recovery

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pueval/pueval/metrics"
)

// tallyCase is a ranking's thresholds and a tally over them.
type tallyCase struct {
	thresholds []float64 // thresholds[0] = +Inf, then descending
	t          Tally
}

// randomTally draws k distinct scores (with ties when k is small against
// n) and n examples over them, some thresholds left empty as in a
// bootstrap resample, labeled with probability c (at least one of each).
func randomTally(rng *rand.Rand, k, n int, c float64) tallyCase {
	tc := tallyCase{thresholds: []float64{math.Inf(1)}, t: Tally{L: make([]uint32, k+1), U: make([]uint32, k+1)}}
	x := 10.0
	for range k {
		x -= 0.01 + rng.Float64()
		tc.thresholds = append(tc.thresholds, x)
	}
	add := func(lab bool, g int) {
		if lab {
			tc.t.L[g]++
			tc.t.NL++
		} else {
			tc.t.U[g]++
			tc.t.NU++
		}
	}
	add(true, 1+rng.IntN(k))
	add(false, 1+rng.IntN(k))
	for range n - 2 {
		// Labeled examples lean to the high scores, as a model ranks them.
		lab := rng.Float64() < c
		g := 1 + rng.IntN(k)
		if lab {
			g = 1 + min(rng.IntN(k), rng.IntN(k))
		}
		add(lab, g)
	}
	return tc
}

// tiedTally is a tally whose recovered etas and measures tie in exact
// arithmetic under alpha 0.3 and beta 0.9 (so that rounding decides their
// order unless the tie tolerance does): |U| = 10 |L|, m thresholds of 3
// labeled and 10 unlabeled examples, each of which leaves eta where it was
// (0.9 * 10 / |U| = 0.3 * 3 / |L|), and 3m of 1 labeled and 10 unlabeled,
// each of which leaves gamma - eta, so the balanced accuracy, where it was
// (1 / |L| = 10 / |U|), among single examples.
func tiedTally(rng *rand.Rand, m, b int) tallyCase {
	var pieces [][2]uint32
	for range m {
		pieces = append(pieces, [2]uint32{3, 10}, [2]uint32{1, 10}, [2]uint32{1, 10}, [2]uint32{1, 10})
	}
	for range b {
		pieces = append(pieces, [2]uint32{1, 0})
	}
	for range 20*m + 10*b {
		pieces = append(pieces, [2]uint32{0, 1})
	}
	rng.Shuffle(len(pieces), func(i, j int) { pieces[i], pieces[j] = pieces[j], pieces[i] })
	tc := tallyCase{thresholds: []float64{math.Inf(1)}, t: Tally{L: []uint32{0}, U: []uint32{0}}}
	for i, p := range pieces {
		tc.thresholds = append(tc.thresholds, float64(len(pieces)-i))
		tc.t.L, tc.t.U = append(tc.t.L, p[0]), append(tc.t.U, p[1])
		tc.t.NL, tc.t.NU = tc.t.NL+int(p[0]), tc.t.NU+int(p[1])
	}
	return tc
}

// ranking materialises the tally: every example as a score, labeled true.
func (tc tallyCase) ranking(t *testing.T) *metrics.Ranking {
	t.Helper()
	var scores []float64
	var labels []bool
	for k := 1; k < len(tc.thresholds); k++ {
		for range tc.t.L[k] {
			scores, labels = append(scores, tc.thresholds[k]), append(labels, true)
		}
		for range tc.t.U[k] {
			scores, labels = append(scores, tc.thresholds[k]), append(labels, false)
		}
	}
	r, err := metrics.Rank(scores, labels)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// same reports whether two floats have the same bits (NaN equal to NaN).
func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// Workspace.Recover on a tally gives, bit for bit, the numbers of New on
// the ranking of the tally's examples (the sort a resample would need):
// Pi, both AUCs, the AUC-PR, every measure's maximum and its threshold,
// and the ROC curve; on rankings with ties and empty thresholds, alpha and
// beta from exact to badly overestimated (most points outside the unit
// square), both Outside modes, one workspace reused throughout.
func TestWorkspaceIsRecovery(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var w Workspace
	for trial := range 300 {
		k := 1 + rng.IntN(60)
		if trial%10 == 0 {
			k = 1 + rng.IntN(3000)
		}
		tc := randomTally(rng, k, 2+rng.IntN(4*k+20), 0.05+0.5*rng.Float64())
		alpha := 0.6 * rng.Float64()
		beta := alpha + (1-alpha)*(0.05+0.95*rng.Float64())
		switch {
		case trial%3 == 0:
			tc, alpha, beta = tiedTally(rng, 1+rng.IntN(40), rng.IntN(10)), 0.3, 0.9
		case trial%7 == 0:
			beta = 1
		}
		r := tc.ranking(t)
		rc, err := New(r, alpha, beta)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range Outsides {
			num, err := w.Recover(context.Background(), tc.t, alpha, beta, o)
			if err != nil {
				t.Fatal(err)
			}
			checkNumbers(t, trial, tc, rc, num, o)
		}
	}
}

// checkNumbers compares a workspace's numbers with a recovery's.
func checkNumbers(t *testing.T, trial int, tc tallyCase, rc *Recovery, num Numbers, o Outside) {
	t.Helper()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"pi", num.Pi, rc.Pi()}, {"auc", num.AUC, rc.IndirectAUC(o)}, {"direct", num.Direct, rc.DirectAUC()},
		{"aucpr", num.AUCPR, rc.AUCPR(o, DefaultPRCurve, DefaultPRArea)},
	} {
		if !same(c.got, c.want) {
			t.Fatalf("trial %d, %v: %s %v, want %v", trial, o, c.name, c.got, c.want)
		}
	}
	for i, m := range Measures {
		want := rc.Max(m)
		got := num.Max[i]
		if !same(got.Value, want.Value) || !same(tc.thresholds[got.K], want.Threshold) {
			t.Fatalf("trial %d, %v: max %v %v at %v, want %v at %v", trial, o, m, got.Value, tc.thresholds[got.K], want.Value, want.Threshold)
		}
	}
	roc := rc.ROC(o)
	if len(roc) != len(num.ROC) {
		t.Fatalf("trial %d, %v: %d ROC points, want %d", trial, o, len(num.ROC), len(roc))
	}
	for i, p := range roc {
		if !same(num.ROC[i].X, p.FPR) || !same(num.ROC[i].Y, p.TPR) {
			t.Fatalf("trial %d, %v: ROC point %d %v, want (%v, %v)", trial, o, i, num.ROC[i], p.FPR, p.TPR)
		}
	}
	pr := rc.PRFromROC(roc)
	for i, p := range pr {
		if q := num.PR(i); !same(q.X, p.Recall) || !same(q.Y, p.Precision) {
			t.Fatalf("trial %d, %v: PR point %d %v, want (%v, %v)", trial, o, i, q, p.Recall, p.Precision)
		}
	}
}

// A tally whose counts are not what it says, or that has examples at
// +Inf, or one class only, or unusable priors, is an error.
func TestWorkspaceBadTally(t *testing.T) {
	var w Workspace
	ok := Tally{L: []uint32{0, 2, 0}, U: []uint32{0, 1, 3}, NL: 2, NU: 4}
	if _, err := w.Recover(context.Background(), ok, 0.3, 0.9, Drop); err != nil {
		t.Fatalf("a good tally: %v", err)
	}
	for name, c := range map[string]struct {
		t           Tally
		alpha, beta float64
	}{
		"short sums":    {Tally{L: []uint32{0, 2, 0}, U: []uint32{0, 1, 3}, NL: 2, NU: 3}, 0.3, 0.9},
		"long sums":     {Tally{L: []uint32{0, 2, 0}, U: []uint32{0, 1, 3}, NL: 3, NU: 4}, 0.3, 0.9},
		"at +Inf":       {Tally{L: []uint32{1, 2, 0}, U: []uint32{0, 1, 3}, NL: 3, NU: 4}, 0.3, 0.9},
		"lengths":       {Tally{L: []uint32{0, 2}, U: []uint32{0, 1, 3}, NL: 2, NU: 4}, 0.3, 0.9},
		"no unlabeled":  {Tally{L: []uint32{0, 2}, U: []uint32{0, 0}, NL: 2}, 0.3, 0.9},
		"beta <= alpha": {ok, 0.5, 0.5},
	} {
		if _, err := w.Recover(context.Background(), c.t, c.alpha, c.beta, Drop); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := w.Recover(context.Background(), ok, 0.5, 0.4, Drop); !errors.Is(err, ErrPriors) {
		t.Errorf("beta < alpha: %v, want ErrPriors", err)
	}
}
