package recovery

import "fmt"

// AtThreshold returns each measure's recovered value, in the order of
// [Measures] and clipped to its range ([Measure.Clip]), when predicting
// positive at thresholds 0..k of t: score >= the ranking's threshold k, so
// k = 0 predicts nothing positive and the last threshold everything. These
// are PSB-2019 Eqs. 12-15 on the rates Eqs. 1-2 recover from the PU rates
// there: the values [Workspace.Recover] maximises over k, computed with the
// same roundings, so at the threshold of a measure's maximum (Numbers.Max's
// K) it gives that maximum's value bit for bit. It takes O(k) time to count
// the examples; [AtCounts] takes the counts. Unusable alpha and beta
// (wrapping [ErrPriors]), a tally Recover refuses and a k outside 0 ..
// len(t.L)-1 are errors.
func AtThreshold(t Tally, k int, alpha, beta float64) ([len(Measures)]float64, error) {
	if err := checkTally(t, alpha, beta, Drop); err != nil {
		return [len(Measures)]float64{}, err
	}
	l, u, err := t.Predicted(k)
	if err != nil {
		return [len(Measures)]float64{}, err
	}
	return AtCounts(l, u, t.NL, t.NU, alpha, beta)
}

// Predicted returns how many labeled (l) and unlabeled (u) examples of t
// score at thresholds 0..k: those predicted positive at threshold k. A k
// outside 0 .. len(t.L)-1 is an error.
func (t Tally) Predicted(k int) (l, u int, err error) {
	if k < 0 || k >= len(t.L) || k >= len(t.U) {
		return 0, 0, fmt.Errorf("recovery: threshold %d of a tally of %d thresholds (+Inf included)", k, min(len(t.L), len(t.U)))
	}
	for j := 1; j <= k; j++ {
		l, u = l+int(t.L[j]), u+int(t.U[j])
	}
	return l, u, nil
}

// AtCounts returns each measure's recovered value, as [AtThreshold] does,
// when l of nL labeled and u of nU unlabeled examples are predicted
// positive. It takes O(1) time: a caller that recovers one threshold under
// many priors counts once. Unusable alpha and beta (wrapping [ErrPriors]),
// an empty labeled or unlabeled set and counts outside 0..nL and 0..nU are
// errors.
func AtCounts(l, u, nL, nU int, alpha, beta float64) ([len(Measures)]float64, error) {
	var out [len(Measures)]float64
	if err := CheckPriors(alpha, beta); err != nil {
		return out, err
	}
	if nL <= 0 || nU <= 0 || l < 0 || l > nL || u < 0 || u > nU {
		return out, fmt.Errorf("recovery: %d of %d labeled and %d of %d unlabeled examples predicted positive: want counts within non-empty sets", l, nL, u, nU)
	}
	x := Rates{Pi: piOf(nL, nU, alpha, beta)} // nothing predicted: Eqs. 1-2 of (0, 0) are (0, 0), as pass visits +Inf
	if l+u > 0 {
		n, fL, fU := float64(nL+nU), float64(nL), float64(nU)
		g, e := recoverRates(float64(l)/fL, float64(u)/fU, alpha, beta)
		x = Rates{Gamma: g, Eta: e, Pi: x.Pi, Theta: float64(l+u) / n}
	}
	for i, me := range Measures {
		out[i] = me.Clip(float64(me.Of(x))) // rounded before the clip as maxima.visit rounds before raise
	}
	return out, nil
}

// piOf is Recover's pi, c beta + (1 - c) alpha with c = nL / (nL + nU),
// rounded as [Pi] rounds it.
func piOf(nL, nU int, alpha, beta float64) float64 {
	c := float64(nL) / float64(nL+nU)
	return float64(c*beta) + float64((1-c)*alpha)
}
