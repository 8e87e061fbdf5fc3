package metrics

import "math"

// ROCPoint is one point of a ROC curve.
type ROCPoint struct {
	Threshold float64 // predict positive when score >= Threshold
	FPR, TPR  float64
}

// PRPoint is one point of a precision-recall curve.
type PRPoint struct {
	Threshold         float64
	Recall, Precision float64
}

// LiftPoint is one point of a lift curve: the fraction of all examples
// predicted positive against the true positive rate.
type LiftPoint struct {
	Threshold     float64
	Fraction, TPR float64
}

// ROC returns the tie-grouped ROC curve, one point per threshold from
// (+Inf, 0, 0) to (min score, 1, 1).
func (r *Ranking) ROC() []ROCPoint {
	pts := make([]ROCPoint, r.Len())
	for k := range pts {
		pts[k] = ROCPoint{Threshold: r.thresholds[k], FPR: r.FPR(k), TPR: r.TPR(k)}
	}
	return pts
}

// PR returns the precision-recall curve, one point per distinct score in
// descending order (the +Inf threshold has no precision and is left out).
func (r *Ranking) PR() []PRPoint {
	pts := make([]PRPoint, r.Len()-1)
	for k := 1; k < r.Len(); k++ {
		pts[k-1] = PRPoint{Threshold: r.thresholds[k], Recall: r.TPR(k), Precision: r.Confusion(k).Precision()}
	}
	return pts
}

// Lift returns the lift curve, one point per threshold from (+Inf, 0, 0) to (min score, 1, 1).
func (r *Ranking) Lift() []LiftPoint {
	n := float64(r.N())
	pts := make([]LiftPoint, r.Len())
	for k := range pts {
		pts[k] = LiftPoint{Threshold: r.thresholds[k], Fraction: float64(r.tp[k]+r.fp[k]) / n, TPR: r.TPR(k)}
	}
	return pts
}

// TrapezoidAUC is the trapezoid area under the ROC points pts in their
// order: the sum of (FPR_k - FPR_{k-1}) (TPR_k + TPR_{k-1}) / 2. On ROC()
// it equals AUC() up to rounding; the recovered ROC curves of package
// recovery, which have no integer counts, are measured with it. Each
// product is rounded (float64) before the sum, so that arm64 does not fuse
// a multiply-add and the area has the same bits on every CPU.
func TrapezoidAUC(pts []ROCPoint) float64 {
	var a float64
	for i := 1; i < len(pts); i++ {
		a += float64((pts[i].FPR - pts[i-1].FPR) * (pts[i].TPR + pts[i-1].TPR) / 2)
	}
	return a
}

// AUC returns the area under the ROC curve, P(s+ > s-) + P(s+ = s-)/2 (the
// Mann-Whitney statistic), which equals the trapezoid area under ROC(). It is
// computed exactly in integers: 2|P||N| AUC = sum_k fp_k (2 TP_{k-1} + tp_k),
// where tp_k, fp_k are the positives and negatives of tie group k and TP_{k-1}
// the positives scored above it.
func (r *Ranking) AUC() float64 {
	var twice int64
	for k := 1; k < len(r.tp); k++ {
		dtp, dfp := r.tp[k]-r.tp[k-1], r.fp[k]-r.fp[k-1]
		twice += int64(dfp) * int64(2*r.tp[k-1]+dtp)
	}
	return float64(twice) / (2 * float64(r.nPos) * float64(r.nNeg))
}

// AveragePrecision returns the area under the precision-recall curve as
// average precision: sum over tie groups k of (R_k - R_{k-1}) P_k, where R_k
// and P_k are recall and precision at the k-th distinct score. A tie group
// contributes once, at its own precision (no interpolation).
func (r *Ranking) AveragePrecision() float64 {
	var ap float64
	for k := 1; k < len(r.tp); k++ {
		dtp := r.tp[k] - r.tp[k-1]
		if dtp == 0 {
			continue
		}
		ap += float64(dtp) * float64(r.tp[k]) / float64(r.tp[k]+r.fp[k])
	}
	return ap / float64(r.nPos)
}

// AUL returns the area under the lift curve, (1/(|P| n)) sum_{i in P} sum_{j}
// S(s_i, s_j) (AUL paper, Eq. 2), computed exactly in integers as
// 2|P|n AUL = sum_k n_k (2 TP_{k-1} + tp_k), with n_k the size of tie group k.
// It equals |P|/(2n) + (|N|/n) AUC.
func (r *Ranking) AUL() float64 {
	var twice int64
	for k := 1; k < len(r.tp); k++ {
		dtp, dfp := r.tp[k]-r.tp[k-1], r.fp[k]-r.fp[k-1]
		twice += int64(dtp+dfp) * int64(2*r.tp[k-1]+dtp)
	}
	return float64(twice) / (2 * float64(r.nPos) * float64(r.N()))
}

// AULSplitVariance returns the variance of AUL^PU over SCAR splits of the
// ranked sample that label nL of its positives, drawn uniformly without
// replacement, the scores held fixed (AUL paper, Theorem 1):
//
//	Var[AUL^PU] = (|P| - nL)/(|P| - 1) sigma^2 / nL,  sigma^2 = (1/|P|) sum_{i in P} (t_i - AUL)^2,
//	t_i = (1/n) sum_{j in P u N} S(s_i, s_j)
//
// AUL^PU, the AUL with the labeled rows read as positive, is the mean of t
// over the labeled positives (the rows j are every row whatever their
// label), so this is the finite-population variance of the mean of a
// sample of nL of the |P| values t_i, and AUL (their mean) is its
// expectation. A positive in tie group k (size n_k, c_k rows scored at or
// above it) has 2n t_i = 2(n - c_k) + n_k. It returns NaN unless
// 1 <= nL <= |P|; a single positive gives 0.
func (r *Ranking) AULSplitVariance(nL int) float64 {
	if nL < 1 || nL > r.nPos {
		return math.NaN()
	}
	if r.nPos == 1 {
		return 0
	}
	// Two passes over the tie groups in the integer units a = 2n t: the
	// mean (an exact integer sum, rounded once), then the squared deviations.
	n := int64(r.N())
	// group returns tie group k's positives and their a = 2(n - c_k) + n_k.
	group := func(k int) (dtp, a int64) {
		dtp, dfp := int64(r.tp[k]-r.tp[k-1]), int64(r.fp[k]-r.fp[k-1])
		return dtp, 2*(n-int64(r.tp[k]+r.fp[k])) + dtp + dfp
	}
	var sum int64
	for k := 1; k < len(r.tp); k++ {
		dtp, a := group(k)
		sum += dtp * a
	}
	np := float64(r.nPos)
	mean := float64(sum) / np
	var ss float64
	for k := 1; k < len(r.tp); k++ {
		dtp, a := group(k)
		d := float64(a) - mean
		ss += float64(float64(dtp) * d * d)
	}
	sigma2 := ss / np / (4 * float64(n) * float64(n))
	return (np - float64(nL)) / (np - 1) * sigma2 / float64(nL)
}

// Metric is a function of a confusion matrix, such as Confusion.F1.
type Metric func(Confusion) float64

// Optimum is the maximum of a metric over thresholds and the threshold that attains it.
type Optimum struct {
	Value     float64
	Threshold float64 // predict positive when score >= Threshold; +Inf predicts nothing positive
}

// Max returns the maximum of m over all thresholds (the distinct scores and
// +Inf). On ties the highest threshold wins, so the result does not depend on
// anything but the scores and labels.
func (r *Ranking) Max(m Metric) Optimum {
	best := Optimum{Value: m(r.Confusion(0)), Threshold: r.thresholds[0]}
	for k := 1; k < r.Len(); k++ {
		if v := m(r.Confusion(k)); v > best.Value {
			best = Optimum{Value: v, Threshold: r.thresholds[k]}
		}
	}
	return best
}
