package pusplit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Split is a PU split of a data set: indices of the labeled and the unlabeled examples.
type Split struct {
	Labeled   []int
	Unlabeled []int
}

// Alpha is the true fraction of positives in the unlabeled set.
func (s Split) Alpha(y []bool) float64 { return fraction(y, s.Unlabeled) }

// Beta is the true fraction of positives in the labeled set.
func (s Split) Beta(y []bool) float64 { return fraction(y, s.Labeled) }

func fraction(y []bool, idx []int) float64 {
	if len(idx) == 0 {
		return math.NaN()
	}
	n := 0
	for _, i := range idx {
		if y[i] {
			n++
		}
	}
	return float64(n) / float64(len(idx))
}

// classes returns the indices of the positives and of the negatives, ascending.
func classes(y []bool) (pos, neg []int) {
	for i, v := range y {
		if v {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	return pos, neg
}

// take moves k elements chosen uniformly without replacement to the front of
// pool (a partial Fisher-Yates shuffle) and returns them and the rest. It
// permutes pool in place.
func take(rng *rand.Rand, pool []int, k int) (chosen, rest []int) {
	for i := range k {
		j := i + rng.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	return pool[:k], pool[k:]
}

func checkBeta(beta float64) error {
	if !(beta > 0 && beta <= 1) {
		return fmt.Errorf("pusplit: beta %v must lie in (0, 1]", beta)
	}
	return nil
}

// CaseControl draws a noisy case-control split (the protocol of Jain, White
// and Radivojac, AAAI 2017): nL labeled examples with round(beta*nL)
// positives, and all remaining examples unlabeled, subsampled uniformly to
// at most maxUnlabeled (no cap if maxUnlabeled <= 0).
func CaseControl(rng *rand.Rand, y []bool, nL int, beta float64, maxUnlabeled int) (Split, error) {
	if err := checkBeta(beta); err != nil {
		return Split{}, err
	}
	pos, neg := classes(y)
	kPos := int(math.Round(beta * float64(nL)))
	kNeg := nL - kPos
	if nL <= 0 || kPos > len(pos) || kNeg > len(neg) {
		return Split{}, fmt.Errorf("pusplit: case-control: labeled set of %d with %d positives and %d negatives needs more than the data's %d positives and %d negatives",
			nL, kPos, kNeg, len(pos), len(neg))
	}
	lp, restP := take(rng, pos, kPos)
	ln, restN := take(rng, neg, kNeg)
	s := Split{Labeled: append(slices.Clone(lp), ln...)}
	rest := append(slices.Clone(restP), restN...)
	if len(rest) == 0 {
		return Split{}, fmt.Errorf("pusplit: case-control: labeled set of %d leaves no unlabeled examples", nL)
	}
	// Sort before subsampling so that the result depends only on the rng and the labels.
	slices.Sort(rest)
	if maxUnlabeled > 0 && len(rest) > maxUnlabeled {
		rest, _ = take(rng, rest, maxUnlabeled)
	}
	s.Unlabeled = slices.Clone(rest)
	slices.Sort(s.Labeled)
	slices.Sort(s.Unlabeled)
	return s, nil
}

// Stratified draws a split with set sizes and class shares fixed in both
// sets (the protocol of Ramola, Jain and Radivojac, PSB 2019): nL labeled
// examples with round(beta*nL) positives; alpha = fraction of positives
// among the examples left; nU unlabeled examples with round(alpha*nU) of the
// remaining positives and the rest from the remaining negatives.
func Stratified(rng *rand.Rand, y []bool, nL, nU int, beta float64) (Split, error) {
	if err := checkBeta(beta); err != nil {
		return Split{}, err
	}
	pos, neg := classes(y)
	kPos := int(math.Round(beta * float64(nL)))
	kNeg := nL - kPos
	if nL <= 0 || nU <= 0 || kPos > len(pos) || kNeg > len(neg) {
		return Split{}, fmt.Errorf("pusplit: stratified: labeled set of %d with %d positives and %d negatives needs more than the data's %d positives and %d negatives",
			nL, kPos, kNeg, len(pos), len(neg))
	}
	lp, restP := take(rng, pos, kPos)
	ln, restN := take(rng, neg, kNeg)
	alpha := float64(len(restP)) / float64(len(restP)+len(restN))
	uPos := int(math.Round(alpha * float64(nU)))
	uNeg := nU - uPos
	if uPos > len(restP) || uNeg > len(restN) {
		return Split{}, fmt.Errorf("pusplit: stratified: unlabeled set of %d needs %d positives and %d negatives, but only %d and %d remain",
			nU, uPos, uNeg, len(restP), len(restN))
	}
	slices.Sort(restP)
	slices.Sort(restN)
	up, _ := take(rng, restP, uPos)
	un, _ := take(rng, restN, uNeg)
	s := Split{
		Labeled:   append(slices.Clone(lp), ln...),
		Unlabeled: append(slices.Clone(up), un...),
	}
	slices.Sort(s.Labeled)
	slices.Sort(s.Unlabeled)
	return s, nil
}

// SCARFraction draws a split by the single-training-set SCAR protocol with a
// labeled fraction of the positives (the AUL paper's: Huang et al., "AUL is
// a better optimization metric in PU learning"): L = round(fraction n_P)
// positives drawn without replacement, U = every other row, so the true
// class prior of U is (n_P - n_L)/(n - n_L). Both sets are in row order.
// The fraction is the AUL paper's beta (a share of the positives), not the
// AAAI-2017 beta (a share of L). It is an error when L would be empty or
// hold every positive.
func SCARFraction(rng *rand.Rand, y []bool, fraction float64) (Split, error) {
	if !(fraction > 0 && fraction < 1) {
		return Split{}, fmt.Errorf("pusplit: labeled fraction %v of the positives must lie in (0, 1)", fraction)
	}
	pos, neg := classes(y)
	nL := int(math.Round(fraction * float64(len(pos))))
	if nL < 1 || nL >= len(pos) {
		return Split{}, fmt.Errorf("pusplit: a labeled fraction %v of %d positives gives %d labeled: want at least 1 and fewer than the positives", fraction, len(pos), nL)
	}
	labeled, rest := take(rng, pos, nL)
	unlabeled := append(rest, neg...)
	slices.Sort(labeled)
	slices.Sort(unlabeled)
	return Split{Labeled: labeled, Unlabeled: unlabeled}, nil
}

// StratifiedSubsample returns the rows of a stratified subsample of n rows,
// ascending: round(n n_P/N) positives and the rest negatives, each drawn
// uniformly without replacement, so the positive share stays that of the
// data to within 1/(2n). With n >= N it returns every row. The AUL paper
// caps its data sets at 4,000 rows this way (its Table 1's alphas equal
// the full data's to 3 decimals; a plain random subsample would move them
// by 0.003-0.006).
func StratifiedSubsample(rng *rand.Rand, y []bool, n int) ([]int, error) {
	if n < 1 {
		return nil, fmt.Errorf("pusplit: a subsample of %d rows", n)
	}
	if n >= len(y) {
		rows := make([]int, len(y))
		for i := range rows {
			rows[i] = i
		}
		return rows, nil
	}
	pos, neg := classes(y)
	nPos := int(math.Round(float64(n) * float64(len(pos)) / float64(len(y))))
	nNeg := n - nPos
	if nPos > len(pos) || nNeg > len(neg) {
		return nil, fmt.Errorf("pusplit: a stratified subsample of %d rows needs %d positives and %d negatives; the data have %d and %d", n, nPos, nNeg, len(pos), len(neg))
	}
	p, _ := take(rng, pos, nPos)
	q, _ := take(rng, neg, nNeg)
	rows := append(append([]int(nil), p...), q...)
	slices.Sort(rows)
	return rows, nil
}
