package bounds

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomCase is a random small ranking with a random band and beta
// interval: scores with or without ties, known positives, sometimes known
// negatives, either tie mode, a DKW, bootstrap or ECDF band.
type randomCase struct {
	r        *Ranking
	pos, neg Band // bands of the known positives and (with known negatives) negatives
	beta     Interval
}

func newRandomCase(t *testing.T, rng *rand.Rand) randomCase {
	t.Helper()
	for {
		n := 2 + rng.IntN(200)
		scores := make([]float64, n)
		labels := make([]Label, n)
		tied := rng.IntN(3) == 0
		shift := rng.Float64() * 2
		pKnown, pNeg := 0.05+0.5*rng.Float64(), 0.0
		if rng.IntN(2) == 0 {
			pNeg = 0.4 * rng.Float64()
		}
		for i := range n {
			positive := rng.Float64() < 0.4
			scores[i] = rng.NormFloat64()
			if positive {
				scores[i] += shift
			}
			if tied {
				scores[i] = math.Round(scores[i] * 2)
			}
			switch {
			case positive && rng.Float64() < pKnown:
				labels[i] = Positive
			case !positive && rng.Float64() < pNeg:
				labels[i] = Negative
			}
		}
		ties := []Ties{Grouped, InputOrder}[rng.IntN(2)]
		r, err := Rank(scores, labels, ties)
		if err != nil || r.Unlabeled() == 0 {
			continue // no known positive, or nothing to bound: draw again
		}
		c := randomCase{r: r}
		if c.pos, err = randomBand(r, rng); err != nil {
			t.Fatal(err)
		}
		if r.KnownNegatives() > 0 {
			if c.neg, err = randomBand(r.Flip(), rng); err != nil {
				t.Fatal(err)
			}
		}
		a, b := 0.999*rng.Float64(), 0.999*rng.Float64()
		c.beta = Interval{min(a, b), max(a, b)}
		return c
	}
}

func randomBand(r *Ranking, rng *rand.Rand) (Band, error) {
	switch rng.IntN(3) {
	case 0:
		return r.ECDF(), nil
	case 1:
		return r.DKW(0.5 + 0.49*rng.Float64())
	}
	return r.Bootstrap(rng, 1+rng.IntN(60), 0.5+0.49*rng.Float64())
}

// boundsAt are the bounds at one beta, positive- or negative-based.
func (c randomCase) boundsAt(t *testing.T, beta Interval, negative bool) Bounds {
	t.Helper()
	var b Bounds
	var err error
	if negative {
		b, err = c.r.NegativeBounds(c.neg, beta)
	} else {
		b, err = c.r.Bounds(c.pos, beta)
	}
	if err != nil {
		t.Fatalf("%v: %v", beta, err)
	}
	return b
}

// The bounds over an interval are the most extreme of the bounds at every
// beta in it, brute force: on 300 random rankings, bands and intervals, the
// interval's lower AUC and AUPR are the minimum of the point bounds' over
// every count of latent positives the interval admits (one beta for each,
// so this is every beta of the interval), its upper ones the maximum, or at
// most searchSlack beyond (the negative-based scan is exact); every beta of
// a random grid in the interval gives point bounds inside them; and the beta reported for each extreme gives it. For the
// positive-based bounds and, with known negatives, the negative-based ones.
func TestIntervalIsExtremeOverBetas(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 2))
	for i := range 300 {
		c := newRandomCase(t, rng)
		for _, negative := range []bool{false, true} {
			if negative && c.r.KnownNegatives() == 0 {
				continue
			}
			name := fmt.Sprintf("case %d (n %d, %d known positives, %d known negatives, %v, beta %v, negative-based %v)",
				i, c.r.N(), c.r.KnownPositives(), c.r.KnownNegatives(), c.r.Ties(), c.beta, negative)
			checkExtremes(t, c, negative, rng, name)
		}
	}
}

func checkExtremes(t *testing.T, c randomCase, negative bool, rng *rand.Rand, name string) {
	t.Helper()
	got := c.boundsAt(t, c.beta, negative)
	u := c.r.Unlabeled()
	lo, hi := latentRange(c.beta, u, negative)
	want := Bounds{AUC: Interval{math.Inf(1), math.Inf(-1)}, AUPR: Interval{math.Inf(1), math.Inf(-1)}}
	for k := lo; k <= hi; k++ {
		b := betaOf(k, c.beta, u, negative)
		if !c.beta.Contains(b) {
			t.Fatalf("%s: beta %v for %d latent positives is outside the interval", name, b, k)
		}
		p := c.boundsAt(t, PointInterval(b), negative)
		want.AUC.Low, want.AUC.High = min(want.AUC.Low, p.AUC.Low), max(want.AUC.High, p.AUC.High)
		want.AUPR.Low, want.AUPR.High = min(want.AUPR.Low, p.AUPR.Low), max(want.AUPR.High, p.AUPR.High)
	}
	// The positive-based bounds hold every count's areas and lie at most
	// searchSlack beyond the extremes; the negative-based ones are the
	// extremes.
	slack := searchSlack
	if negative {
		slack = 0
	}
	for _, b := range []struct {
		what      string
		got, want float64
		lower     bool
	}{{"lower AUC", got.AUC.Low, want.AUC.Low, true}, {"upper AUC", got.AUC.High, want.AUC.High, false},
		{"lower AUPR", got.AUPR.Low, want.AUPR.Low, true}, {"upper AUPR", got.AUPR.High, want.AUPR.High, false}} {
		if (b.lower && !(b.got <= b.want && b.got >= b.want-slack)) || (!b.lower && !(b.got >= b.want && b.got <= b.want+slack)) {
			t.Fatalf("%s: %s %v, brute force over %d..%d latent positives %v", name, b.what, b.got, lo, hi, b.want)
		}
	}
	for range 10 {
		b := c.beta.Low + rng.Float64()*c.beta.Width()
		p := c.boundsAt(t, PointInterval(b), negative)
		if p.AUC.Low < got.AUC.Low || p.AUC.High > got.AUC.High || p.AUPR.Low < got.AUPR.Low || p.AUPR.High > got.AUPR.High {
			t.Fatalf("%s: at beta %v AUC %+v AUPR %+v, outside the interval's %+v %+v", name, b, p.AUC, p.AUPR, got.AUC, got.AUPR)
		}
	}
	at := got.At
	for _, e := range []struct {
		what       string
		beta, want float64
		area       func(Bounds) float64
	}{
		{"lower AUC", at.AUCLow, got.AUC.Low, func(b Bounds) float64 { return b.AUC.Low }},
		{"upper AUC", at.AUCHigh, got.AUC.High, func(b Bounds) float64 { return b.AUC.High }},
		{"lower AUPR", at.AUPRLow, got.AUPR.Low, func(b Bounds) float64 { return b.AUPR.Low }},
		{"upper AUPR", at.AUPRHigh, got.AUPR.High, func(b Bounds) float64 { return b.AUPR.High }},
	} {
		if a := e.area(c.boundsAt(t, PointInterval(e.beta), negative)); math.Abs(a-e.want) > slack || !c.beta.Contains(e.beta) {
			t.Fatalf("%s: %s %v reported at beta %v, which gives %v", name, e.what, e.want, e.beta, a)
		}
	}
	for _, p := range []struct{ curve, bound float64 }{{got.Lower.AUC(), got.AUC.Low}, {got.Upper.AUC(), got.AUC.High},
		{got.LowerPR.AUPR(), got.AUPR.Low}, {got.UpperPR.AUPR(), got.AUPR.High}} {
		if math.Abs(p.curve-p.bound) > slack {
			t.Fatalf("%s: a curve's area %v, its bound %v", name, p.curve, p.bound)
		}
	}
}

// A beta interval whose top end is more than the ranking can hold: with
// known negatives the upper AUC rises with beta, then falls where the
// clamps of Eq. 11 bind, so Lemma 4's ends (EndBounds) exclude the true AUC
// while the exact bounds hold it. 5,000 instances (a third positive, scores
// N(1.9, 1) against N(0, 1), 300 known positives, 500 known negatives), the
// true beta 0.325, a bootstrap band: over [0.30, 0.97] the ends give an
// upper AUC below their lower one and below the true AUC (of the ranking
// against the true classes, counted over pairs).
func TestIntervalHoldsTruthWhereEndsDoNot(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 3))
	n, nPos, known, knownNeg := 5000, 1667, 300, 500
	scores := make([]float64, n)
	truth := make([]bool, n)
	labels := make([]Label, n)
	for i := range n {
		scores[i] = rng.NormFloat64()
		switch {
		case i < known:
			labels[i] = Positive
		case i >= nPos && i < nPos+knownNeg:
			labels[i] = Negative
		}
		if i < nPos {
			truth[i], scores[i] = true, scores[i]+1.9
		}
	}
	r := mustRank(t, scores, labels, Grouped)
	band, err := r.Bootstrap(rand.New(rand.NewPCG(1, 1)), 500, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	trueBeta := latentBeta(truth, labels)
	trueAUC := pairAUC(scores, truth)
	iv := Interval{0.30, 0.97}
	if !iv.Contains(trueBeta) {
		t.Fatalf("true beta %v outside %+v", trueBeta, iv)
	}
	ends, err := r.EndBounds(band, iv)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := r.Bounds(band, iv)
	if err != nil {
		t.Fatal(err)
	}
	atTruth, err := r.Bounds(band, PointInterval(trueBeta))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("true beta %.3f, true AUC %.4f; ends %+v, exact %+v (upper at beta %.3f), at the true beta %+v", trueBeta, trueAUC, ends.AUC, exact.AUC, exact.At.AUCHigh, atTruth.AUC)
	if ends.AUC.Contains(trueAUC) {
		t.Errorf("the ends' AUC bounds %+v hold the true AUC %v: the example does not show the failure", ends.AUC, trueAUC)
	}
	if !(exact.AUC.Low <= atTruth.AUC.Low && atTruth.AUC.High <= exact.AUC.High && exact.AUC.Contains(trueAUC)) {
		t.Errorf("exact bounds %+v do not hold the bounds at the true beta %+v or the true AUC %v", exact.AUC, atTruth.AUC, trueAUC)
	}
	if !(exact.At.AUCHigh > iv.Low && exact.At.AUCHigh < iv.High) {
		t.Errorf("upper AUC attained at beta %v, want inside (%v, %v)", exact.At.AUCHigh, iv.Low, iv.High)
	}
}

// pairAUC is the AUC of the scores against the true classes by counting
// pairs (ties half), O(n^2).
func pairAUC(scores []float64, truth []bool) float64 {
	var pos, neg []float64
	for i, s := range scores {
		if truth[i] {
			pos = append(pos, s)
		} else {
			neg = append(neg, s)
		}
	}
	sum := 0.0
	for _, p := range pos {
		for _, q := range neg {
			switch {
			case p > q:
				sum++
			case p == q:
				sum += 0.5
			}
		}
	}
	return sum / float64(len(pos)*len(neg))
}

// The scan over an interval stops when its context is done, with an error
// that wraps the cause.
func TestIntervalBoundsCancelled(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(2, 2)), d1, 500, 2000, 0.2, 0)
	r := mustRank(t, scores, labels, Grouped)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := r.BoundsContext(ctx, r.ECDF(), Interval{0.05, 0.9})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want one wrapping context.Canceled", err)
	}
}

// The bounds of a range of counts hold every count's areas (brute force):
// on 300 random rankings and bands and random ranges [ka, kb], the ROC and
// PR bounds from above are at least the largest upper-curve area of every
// count in the range, those from below at most the smallest lower-curve one;
// with the cut-offs' own boxes and with the coarse boxes of blocks of 2 and
// 5 cut-offs.
func TestRangeBoundsHoldEveryCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 4))
	for i := range 300 {
		c := newRandomCase(t, rng)
		m, err := c.r.tableMaker(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		u := c.r.Unlabeled()
		ka := rng.IntN(u)
		kb := ka + rng.IntN(min(u-ka, 40))
		if m.checkLatent(float64(kb)) != nil {
			continue
		}
		s := m.scanner(false)
		var want extremes
		for k := ka; k <= kb; k++ {
			e := s.at(k)
			if k == ka {
				want = e
			}
			want.merge(e)
		}
		n := len(c.r.cut)
		la, ua, lb, ub := make([]Table, n), make([]Table, n), make([]Table, n), make([]Table, n)
		m.fill(la, ua, float64(ka), Rounded)
		m.fill(lb, ub, float64(kb), Rounded)
		var rs rangeScratch
		lower, upper := &rangeCurve{m: m, lower: true}, &rangeCurve{m: m}
		const eps = 1e-12 // the bounds' own rounding
		for _, block := range []int{1, 2, 5} {
			if block == 1 {
				lower.reset(ka, kb, la, lb)
				upper.reset(ka, kb, ua, ub)
			} else {
				lower.resetBlocks(ka, kb, block)
				upper.resetBlocks(ka, kb, block)
			}
			for _, b := range []struct {
				what        string
				bound, area float64
				above       bool
			}{
				{"ROC from above", rs.rocUpper(upper), want.aucHigh.v, true},
				{"PR from above", rs.prBound(upper, true), want.auprHigh.v, true},
				{"ROC from below", rs.rocLower(lower), want.aucLow.v, false},
				{"PR from below", rs.prBound(lower, false), want.auprLow.v, false},
			} {
				if (b.above && b.bound < b.area-eps) || (!b.above && b.bound > b.area+eps) {
					t.Fatalf("case %d (n %d, %v, counts %d..%d, blocks of %d): %s %v, area %v", i, c.r.N(), c.r.Ties(), ka, kb, block, b.what, b.bound, b.area)
				}
			}
		}
	}
}

// On a ranking large enough for the coarse bounds of blocks (20,000
// cut-offs, blocks of 4), the search's bounds over an interval of 400
// counts hold every count's areas and lie within searchSlack of their
// extremes (brute force over every count), positive-based, both tie modes.
func TestIntervalSearchCoarse(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(44, 5)), d1, 6000, 14000, 0.3, 0)
	for _, ties := range []Ties{Grouped, InputOrder} {
		r := mustRank(t, scores, labels, ties)
		if len(r.cut)/coarseBoxes < 2 {
			t.Fatalf("%d cut-offs: too few for blocks", len(r.cut))
		}
		band, err := r.DKW(0.95)
		if err != nil {
			t.Fatal(err)
		}
		c := randomCase{r: r, pos: band, beta: Interval{0.30, 0.30 + 400.0/float64(r.Unlabeled())}}
		checkExtremes(t, c, false, rand.New(rand.NewPCG(1, 1)), fmt.Sprintf("%v, %d cut-offs", ties, len(r.cut)))
	}
}
