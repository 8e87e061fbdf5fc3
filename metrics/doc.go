// Package metrics computes tie-aware ranking and threshold metrics of a scored,
// binary-labelled sample: ROC, precision-recall and lift curves, AUC, average
// precision, AUL, confusion-matrix metrics at a threshold and their maxima over
// thresholds, and the positive-unlabeled (PU) measures of the PULP paper.
//
// Conventions. Higher scores are more positive. A
// threshold t predicts positive for score >= t. The thresholds are the
// distinct scores plus +Inf (which predicts nothing positive). Tied scores are
// never broken arbitrarily: they move together, so every curve goes straight
// (diagonally) through a tie group. Everything is computed from a [Ranking],
// built once in O(n log n) (a radix sort on the float bits) and then queried in
// O(1) per threshold.
//
// With P the positives, N the negatives, n = |P|+|N|, and S(a,b) = 1 if a > b,
// 1/2 if a = b, 0 otherwise:
//
//	AUC  = 1/(|P||N|) sum_{i in P} sum_{j in N} S(s_i, s_j)       (Mann-Whitney, ties 1/2)
//	     = trapezoid area under the tie-grouped ROC curve (FPR, TPR)
//	AP   = sum_k (R_k - R_{k-1}) P_k                              (average precision = AUC-PR)
//	AUL  = 1/(|P| n) sum_{i in P} sum_{j in P u N} S(s_i, s_j)   (AUL paper, Eq. 2)
//	     = trapezoid area under the lift curve (fraction predicted positive, TPR)
//	     = |P|/(2n) + (|N|/n) AUC
//
// and, for the AUL^PU of SCAR splits that label n_L of the positives at
// random (the AUL paper's Theorem 1; [Ranking.AULSplitVariance]),
//
//	Var[AUL^PU] = (|P| - n_L)/(|P| - 1) sigma^2/n_L,   sigma^2 the variance over P of t_i = (1/n) sum_j S(s_i, s_j)
//
// where in AP the sum runs over the tie groups k in descending score order, R_k
// is the recall and P_k the precision when everything scored >= the k-th
// distinct score is predicted positive. AUC and AUL are computed in exact
// integer arithmetic and rounded once.
//
// Confusion-matrix metrics (type [Confusion]): TPR = TP/(TP+FN), FPR =
// FP/(FP+TN), precision = TP/(TP+FP), accuracy = (TP+TN)/n, balanced accuracy =
// (TPR+TNR)/2, F1 = 2TP/(2TP+FP+FN), MCC = (TP TN - FP FN)/sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)).
// Undefined ratios follow the usual conventions and are documented on each
// method (precision of an empty prediction is 1, MCC with an empty margin is 0),
// so that no metric is ever NaN.
//
// PU measures ([Ranking.PU]; Hajizadeh, Li, Dollevoet and Tax, "Evaluating
// Classification Performance with only Positive and Unlabeled Samples",
// S+SSPR 2014, LNCS 8621, pp. 233-242: the PULP paper). The labels are read as
// labeled (1) versus unlabeled (0). With N examples, t labeled, b predicted
// positive at a cut-off and k of them labeled, the PULP paper's Eq. 3 averages
// over the N+1 cut-offs of the sorted list
//
//	PULP = 1/(N+1) sum_{i=0..N} F(k_i - 1 | N, t, i),   F(x | N, t, b) = P(X <= x), X ~ Hypergeometric(N, t, b)
//
// and the paper averages every other measure over the same cut-offs: Lee & Liu
// r^2/P(f=1), Pseudo-F 2r/(P(f=1)+P(y=1)) with P(y=1) = t/N (the paper's
// choice), F1, mutual information (bits) and Pearson's correlation (phi = MCC)
// between prediction and label. MAP is the average precision of the ranking.
// The paper leaves the undefined values at the extreme cut-offs open; here L&L
// is 0 at the empty cut-off (0/0), F1 is 0 when no labeled example is
// predicted positive, and Pearson's correlation is 0 at the empty and the full
// cut-off (a constant prediction), as for MCC; MI is 0 there by definition.
// With ties, a cut-off inside a tie group is not defined by the scores; we
// evaluate it at the end of its group, so each tie group is one cut-off with
// weight equal to its size (plus the empty cut-off with weight 1). Without ties
// this is exactly the paper's average. The hypergeometric tail starts at its
// largest term, whose logarithm comes from Loader's saddle-point formula for
// binomial probabilities (about 1e-15 relative error even at N = 10^6, where
// the log-gamma form of the paper's Eq. 4 loses six digits), and adds the
// terms outwards by their exact ratios until they fall below 1e-17 of the sum,
// which costs O(min(t, b)) per cut-off at worst and typically O(sqrt of the
// variance).
//
// # The same bits on every CPU
//
// Every product is rounded before it is added (float64(a*b) + c): on arm64
// (and riscv64, ppc64, s390x, and amd64 built with GOAMD64=v3) the Go
// compiler would otherwise fuse a*b + c into one multiply-add with a single
// rounding, and a record computed there would differ in its last bit.
// The logarithms are internal/portmath's (the bits of amd64's math.Log, on
// every CPU). amd64's default build never fuses, so its results are
// unchanged. The repository's TestNoFusedMultiplyAddOnArm64 and cli's
// TestGoldenRecords (under qemu-aarch64 in make test-cross) hold this.
package metrics
