package classprior

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/internal/interrupt"
)

// puSample draws nL labeled rows (2-D Gaussian around (2, 2), as positives)
// and nU unlabeled rows (60 % around the origin, 40 % around (2, 2)), with
// each row's score its first feature plus its second (higher = more like
// the labeled).
func puSample(seed uint64, nL, nU int) Input {
	r := rand.New(rand.NewPCG(seed, 9))
	draw := func(n int, pos func(i int) bool) (*mat.Dense, []float64) {
		x := mat.NewDense(n, 2, nil)
		s := make([]float64, n)
		for i := range n {
			m := 0.0
			if pos(i) {
				m = 2
			}
			a, b := r.NormFloat64()+m, r.NormFloat64()+m
			x.Set(i, 0, a)
			x.Set(i, 1, b)
			s[i] = a + b
		}
		return x, s
	}
	lx, ls := draw(nL, func(int) bool { return true })
	ux, us := draw(nU, func(i int) bool { return 5*i < 2*nU })
	return Input{Labeled: ls, Unlabeled: us, LabeledFeatures: lx, UnlabeledFeatures: ux}
}

// TestSmallSampleWarningsAlike: every estimator treats a small sample
// alike. Fewer than MinScores rows on a side are refused by all (KM once
// estimated 3 rows as 0.868); below FewLabeled labeled or FewUnlabeled
// unlabeled rows every estimate carries a warning naming the count (KM
// once warned only when its lambda* fell at the end of the bisection,
// which km1 did on 3 rows and km2 did not); at those sizes and above, none
// does.
func TestSmallSampleWarningsAlike(t *testing.T) {
	ctx := context.Background()
	tiny := puSample(1, 1, 2)
	small := puSample(2, 40, 300)
	large := puSample(3, FewLabeled, FewUnlabeled)
	for _, name := range Names() {
		c, err := Defaults(name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := c.New()
		if err != nil {
			t.Fatal(err)
		}
		if est, err := e.Estimate(ctx, tiny, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("need at least %d", MinScores)) {
			t.Errorf("%s on 1 labeled and 2 unlabeled rows: %+v, %v: want a refusal (fewer than %d)", name, est, err, MinScores)
		}
		est, err := e.Estimate(ctx, small, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatalf("%s on 40 labeled and 300 unlabeled rows: %v", name, err)
		}
		w := strings.Join(est.Warnings, "\n")
		for _, want := range []string{"only 300 unlabeled", "only 40 labeled", "the estimate is unreliable"} {
			if !strings.Contains(w, want) {
				t.Errorf("%s on 40 labeled and 300 unlabeled rows warns %q: want %q", name, est.Warnings, want)
			}
		}
		est, err = e.Estimate(ctx, large, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatalf("%s on %d labeled and %d unlabeled rows: %v", name, FewLabeled, FewUnlabeled, err)
		}
		for _, w := range est.Warnings {
			if strings.Contains(w, "only ") {
				t.Errorf("%s on %d labeled and %d unlabeled rows warns %q", name, FewLabeled, FewUnlabeled, w)
			}
		}
	}
}

// TestEstimatorsStopWhenCancelled: the score-reading estimators ask their
// context throughout their loops over the scores (at least once per
// interrupt.Every scores binned), and a context cancelled at any of those
// checks (interrupt.Countdown: the first, the second, the middle one, the
// last) stops the estimate with context.Canceled. Before, AlphaMax asked
// only before each run (2 checks for 10^6 scores) and DistCurve only
// before its curve.
func TestEstimatorsStopWhenCancelled(t *testing.T) {
	for _, c := range []struct {
		name   string
		nL, nU int
	}{{AlphaMaxName, 100_000, 900_000}, {AlphaMaxNName, 100_000, 900_000}, {DistCurveName, 20_000, 60_000}} {
		in := puSample(4, c.nL, c.nU)
		in.LabeledFeatures, in.UnlabeledFeatures = nil, nil
		cfg, _ := Defaults(c.name)
		e, err := cfg.New()
		if err != nil {
			t.Fatal(err)
		}
		all := interrupt.NewCountdown(1 << 62)
		if _, err := e.Estimate(all, in, rand.New(rand.NewPCG(1, 2))); err != nil {
			t.Fatal(err)
		}
		total := all.Calls()
		if min := int64((c.nL + c.nU) / interrupt.Every); total < min {
			t.Errorf("%s on %d scores asked its context %d times, want at least %d (once per %d scores)", c.name, c.nL+c.nU, total, min, interrupt.Every)
		}
		for _, k := range []int64{1, 2, total / 2, total} {
			if _, err := e.Estimate(interrupt.NewCountdown(k), in, rand.New(rand.NewPCG(1, 2))); !errors.Is(err, context.Canceled) {
				t.Errorf("%s cancelled at check %d of %d: %v, want context.Canceled", c.name, k, total, err)
			}
		}
	}
}
