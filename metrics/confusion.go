package metrics

import (
	"math"

	"github.com/pueval/pueval/internal/portmath"
)

// Confusion is a binary confusion matrix.
type Confusion struct {
	TP, FP, TN, FN int
}

// N is the number of examples.
func (c Confusion) N() int { return c.TP + c.FP + c.TN + c.FN }

// TPR is the true positive rate (recall, sensitivity) TP/(TP+FN); 0 with no positives.
func (c Confusion) TPR() float64 { return ratio(c.TP, c.TP+c.FN, 0) }

// FPR is the false positive rate FP/(FP+TN); 0 with no negatives.
func (c Confusion) FPR() float64 { return ratio(c.FP, c.FP+c.TN, 0) }

// Precision is TP/(TP+FP); 1 when nothing is predicted positive (the start of a
// precision-recall curve).
func (c Confusion) Precision() float64 { return ratio(c.TP, c.TP+c.FP, 1) }

// Accuracy is (TP+TN)/n.
func (c Confusion) Accuracy() float64 { return ratio(c.TP+c.TN, c.N(), 0) }

// BalancedAccuracy is (TPR + TNR)/2.
func (c Confusion) BalancedAccuracy() float64 { return (c.TPR() + 1 - c.FPR()) / 2 }

// F1 is the harmonic mean of precision and recall, 2TP/(2TP+FP+FN); 0 when TP = 0.
func (c Confusion) F1() float64 { return ratio(2*c.TP, 2*c.TP+c.FP+c.FN, 0) }

// MCC is Matthews' correlation coefficient (the phi coefficient of prediction
// and label); 0 when a row or column of the matrix is empty.
func (c Confusion) MCC() float64 {
	tp, fp, tn, fn := float64(c.TP), float64(c.FP), float64(c.TN), float64(c.FN)
	d := (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
	if d == 0 {
		return 0
	}
	return (float64(tp*tn) - float64(fp*fn)) / math.Sqrt(d)
}

// MutualInformation is the mutual information, in bits, between the predicted
// and the true label under the empirical joint distribution of the matrix.
func (c Confusion) MutualInformation() float64 {
	n := float64(c.N())
	if n == 0 {
		return 0
	}
	predPos, predNeg := float64(c.TP+c.FP), float64(c.TN+c.FN)
	pos, neg := float64(c.TP+c.FN), float64(c.FP+c.TN)
	term := func(joint, a, b float64) float64 {
		if joint == 0 {
			return 0
		}
		return float64(joint / n * portmath.Log2(joint*n/(a*b)))
	}
	return term(float64(c.TP), predPos, pos) + term(float64(c.FP), predPos, neg) +
		term(float64(c.FN), predNeg, pos) + term(float64(c.TN), predNeg, neg)
}

func ratio(num, den int, ifZero float64) float64 {
	if den == 0 {
		return ifZero
	}
	return float64(num) / float64(den)
}
