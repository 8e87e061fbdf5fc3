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

// AAAI2017 draws a split by the AAAI-2017 protocol: nL labeled examples with
// round(beta*nL) positives, and all remaining examples unlabeled, subsampled
// uniformly to at most maxUnlabeled (no cap if maxUnlabeled <= 0).
func AAAI2017(rng *rand.Rand, y []bool, nL int, beta float64, maxUnlabeled int) (Split, error) {
	if err := checkBeta(beta); err != nil {
		return Split{}, err
	}
	pos, neg := classes(y)
	kPos := int(math.Round(beta * float64(nL)))
	kNeg := nL - kPos
	if nL <= 0 || kPos > len(pos) || kNeg > len(neg) {
		return Split{}, fmt.Errorf("pusplit: aaai2017: labeled set of %d with %d positives and %d negatives needs more than the data's %d positives and %d negatives",
			nL, kPos, kNeg, len(pos), len(neg))
	}
	lp, restP := take(rng, pos, kPos)
	ln, restN := take(rng, neg, kNeg)
	s := Split{Labeled: append(slices.Clone(lp), ln...)}
	rest := append(slices.Clone(restP), restN...)
	if len(rest) == 0 {
		return Split{}, fmt.Errorf("pusplit: aaai2017: labeled set of %d leaves no unlabeled examples", nL)
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

// PSB2019 draws a split by the PSB-2019 protocol: nL labeled examples with
// round(beta*nL) positives; alpha = fraction of positives among the examples
// left; nU unlabeled examples with round(alpha*nU) of the remaining positives
// and the rest from the remaining negatives.
func PSB2019(rng *rand.Rand, y []bool, nL, nU int, beta float64) (Split, error) {
	if err := checkBeta(beta); err != nil {
		return Split{}, err
	}
	pos, neg := classes(y)
	kPos := int(math.Round(beta * float64(nL)))
	kNeg := nL - kPos
	if nL <= 0 || nU <= 0 || kPos > len(pos) || kNeg > len(neg) {
		return Split{}, fmt.Errorf("pusplit: psb2019: labeled set of %d with %d positives and %d negatives needs more than the data's %d positives and %d negatives",
			nL, kPos, kNeg, len(pos), len(neg))
	}
	lp, restP := take(rng, pos, kPos)
	ln, restN := take(rng, neg, kNeg)
	alpha := float64(len(restP)) / float64(len(restP)+len(restN))
	uPos := int(math.Round(alpha * float64(nU)))
	uNeg := nU - uPos
	if uPos > len(restP) || uNeg > len(restN) {
		return Split{}, fmt.Errorf("pusplit: psb2019: unlabeled set of %d needs %d positives and %d negatives, but only %d and %d remain",
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

// PSBSizes returns the PSB-2019 paper's set sizes for a data set with n
// examples and n1 positives: the largest n_u in {10000, 5000, 2000, 1000}
// such that for every beta in betas the labeled set (n_l = n_u/10, with
// round(beta*n_l) positives) and an unlabeled set of n_u can be drawn, i.e.
// the labeled draw fits in each class and n_l + n_u <= n. The paper does not
// state its rule beyond "10,000 in all data sets with sufficient size,
// otherwise 5000, 2000 or 1000"; this is the natural reading.
func PSBSizes(n, n1 int, betas []float64) (nL, nU int, err error) {
	for _, u := range []int{10000, 5000, 2000, 1000} {
		l := u / 10
		ok := l+u <= n
		for _, b := range betas {
			kPos := int(math.Round(b * float64(l)))
			// After L, the remaining data must still hold the unlabeled set's share of
			// each class: U needs round(alpha*u) <= remaining positives, which holds
			// when u <= remaining examples, since alpha is the remaining fraction.
			if kPos > n1 || l-kPos > n-n1 {
				ok = false
			}
		}
		if ok {
			return l, u, nil
		}
	}
	return 0, 0, fmt.Errorf("pusplit: psb2019: a data set of %d examples (%d positive) is too small for n_u = 1000, n_l = 100", n, n1)
}
