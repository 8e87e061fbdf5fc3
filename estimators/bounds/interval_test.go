package bounds

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// EndBounds and EndNegativeBounds keep the published rule over an interval:
// the positive-based lower curve at Low and upper at High (Lemma 4); the
// negative-based bounds the more extreme of each area's bound at the two
// ends, with the curves that give them. On a synthetic ranking with known
// negatives.
func TestEndRules(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(6, 6)), d1, 1000, 5000, 0.1, 0.6)
	r := mustRank(t, scores, labels, Grouped)
	pos, err := r.DKW(0.95)
	if err != nil {
		t.Fatal(err)
	}
	neg, err := r.Flip().DKW(0.95)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := 0.2, 0.45
	at := func(beta Interval, negative bool) Bounds {
		t.Helper()
		var b Bounds
		var err error
		if negative {
			b, err = r.EndNegativeBounds(neg, beta)
		} else {
			b, err = r.EndBounds(pos, beta)
		}
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	pl, ph, pi := at(PointInterval(lo), false), at(PointInterval(hi), false), at(Interval{lo, hi}, false)
	if pi.AUC != (Interval{pl.AUC.Low, ph.AUC.High}) || pi.AUPR != (Interval{pl.AUPR.Low, ph.AUPR.High}) {
		t.Errorf("positive-based over [%v, %v]: %+v %+v, ends %+v %+v", lo, hi, pi.AUC, pi.AUPR, pl.AUC, ph.AUC)
	}
	if pi.At != (Betas{AUCLow: lo, AUPRLow: lo, AUCHigh: hi, AUPRHigh: hi}) {
		t.Errorf("positive-based At %+v", pi.At)
	}
	nl, nh, ni := at(PointInterval(lo), true), at(PointInterval(hi), true), at(Interval{lo, hi}, true)
	want := Bounds{
		AUC:  Interval{min(nl.AUC.Low, nh.AUC.Low), max(nl.AUC.High, nh.AUC.High)},
		AUPR: Interval{min(nl.AUPR.Low, nh.AUPR.Low), max(nl.AUPR.High, nh.AUPR.High)},
	}
	if ni.AUC != want.AUC || ni.AUPR != want.AUPR || !ni.FromNegatives {
		t.Errorf("negative-based over [%v, %v]: %+v %+v, want %+v %+v", lo, hi, ni.AUC, ni.AUPR, want.AUC, want.AUPR)
	}
	if ni.Lower.AUC() != ni.AUC.Low || ni.Upper.AUC() != ni.AUC.High || ni.LowerPR.AUPR() != ni.AUPR.Low || ni.UpperPR.AUPR() != ni.AUPR.High {
		t.Error("negative-based curves do not give the reported areas")
	}
	// App. C: the negative-based AUC's lower end comes from High here.
	if nh.AUC.Low >= nl.AUC.Low {
		t.Errorf("negative-based lower AUC at %v: %v, at %v: %v; App. C says it falls as beta grows", lo, nl.AUC.Low, hi, nh.AUC.Low)
	}
	// On this ranking the ends are not the extremes: the exact bounds over
	// the interval are wider than the published rule's.
	ex, err := r.Bounds(pos, Interval{lo, hi})
	if err != nil {
		t.Fatal(err)
	}
	if !(ex.AUC.Low < pi.AUC.Low && ex.AUC.High > pi.AUC.High) {
		t.Errorf("exact AUC bounds %+v, ends %+v: want the exact ones wider on both sides", ex.AUC, pi.AUC)
	}
}

func TestTighter(t *testing.T) {
	a, b, rev := Interval{0.6, 0.8}, Interval{0.65, 0.75}, Interval{0.8, 0.7}
	for _, c := range []struct{ x, y, want Interval }{
		{a, b, b}, {b, a, b}, {a, a, a}, {a, rev, a}, {rev, a, a}, {rev, rev, rev},
	} {
		if got := Tighter(c.x, c.y); got != c.want {
			t.Errorf("Tighter(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// The bootstrap refuses, before allocating, a band that would keep more
// than MaxBootstrapCells counts.
func TestBootstrapTooLarge(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(1, 1)), d3, 1000, 1000, 1, 0)
	r := mustRank(t, scores, labels, InputOrder)
	_, err := r.Bootstrap(rand.New(rand.NewPCG(1, 1)), MaxBootstrapCells/1000+1, 0.95)
	if err == nil || !strings.Contains(err.Error(), "use fewer resamples or the DKW band") {
		t.Errorf("error %v", err)
	}
}
