package kernelauc

import (
	"slices"
	"sort"
)

// lossCount2 returns twice the summed pairwise 0-1 loss of the differences
// a_i - b_j over all na x nb ordered pairs: a pair counts 2 when
// a_i < b_j, 1 when a_i == b_j and 0 otherwise (loss (1 - sign(m))/2 with
// loss 1/2 at m = 0, times 2 so the count stays an integer). The values must
// not be NaN. O((na + nb) log nb) by sorting a copy of b and two binary
// searches per a_i.
func lossCount2(a, b []float64) int64 {
	sb := slices.Clone(b)
	slices.Sort(sb)
	nb := len(sb)
	var c int64
	for _, x := range a {
		lo := sort.SearchFloat64s(sb, x) // b_j < x
		hi := lo
		for hi < nb && sb[hi] == x {
			hi++
		}
		// b_j > x: nb - hi pairs of loss 1; b_j == x: hi - lo of loss 1/2.
		c += 2*int64(nb-hi) + int64(hi-lo)
	}
	return c
}

// pairLoss is the mean pairwise 0-1 loss of a_i - b_j over all ordered
// pairs (ties 1/2): 1 - AUC(a vs b). It is NaN when a or b is empty.
func pairLoss(a, b []float64) float64 {
	return float64(lossCount2(a, b)) / float64(2*int64(len(a))*int64(len(b)))
}

// puAUCRisk is the unbiased PU estimate of the zero-one AUC risk used as the
// PU_AUC cross-validation criterion (pywsl MATLAB PNU_AUC_SL.m calc_loss with
// eta = 1):
//
//	lpu  = (1/(n_p n_u)) sum_{i,j} l01(gp_i - gu_j)
//	lpp  = (1/(n_p (n_p - 1))) sum_{i,j} l01(gp_i - gp_j)    (all n_p^2 pairs, self pairs l01(0) = 1/2)
//	risk = (lpu - theta lpp + theta/(2(n_p - 1))) / (1 - theta)
//
// Every unordered pair {i, j}, i != j, contributes exactly 1 to the double
// sum and every self pair 1/2, so lpp = n_p/(2(n_p - 1)) whatever the scores
// and risk = (lpu - theta/2)/(1 - theta): the criterion is a decreasing affine
// function of the held-out AUC^PU (gp vs gu). It needs n_p >= 2 and n_u >= 1.
func puAUCRisk(gp, gu []float64, theta float64) float64 {
	np := float64(len(gp))
	lpu := pairLoss(gp, gu)
	lpp := float64(lossCount2(gp, gp)) / float64(2*int64(len(gp))*int64(len(gp)-1))
	return (lpu - float64(theta*lpp) + theta/(2*(np-1))) / (1 - theta)
}

// aulPU is AUL^PU of the AUL paper (Eq. 4): the labeled scores gl ranked
// against all scores of L u U,
//
//	AUL^PU = (1/(n_L n)) sum_{i in L} sum_{j in L u U} S(gl_i, g_j),
//
// S = 1, 1/2, 0 for >, =, <, the self pair j = i included (score 1/2).
func aulPU(gl, gu []float64) float64 {
	all := make([]float64, 0, len(gl)+len(gu))
	all = append(all, gl...)
	all = append(all, gu...)
	// S(gl_i, g_j) = 1 - l01(gl_i - g_j); one rounding of the exact
	// rational.
	pairs2 := 2 * int64(len(gl)) * int64(len(all))
	return float64(pairs2-lossCount2(gl, all)) / float64(pairs2)
}

// AUC is the area under the ROC curve of positives' scores pos against
// negatives' scores neg, ties counted 1/2 (the Mann-Whitney statistic
// divided by n_pos n_neg). It is NaN when either set is empty; scores must
// not be NaN.
func AUC(pos, neg []float64) float64 {
	pairs2 := 2 * int64(len(pos)) * int64(len(neg))
	return float64(pairs2-lossCount2(pos, neg)) / float64(pairs2)
}
