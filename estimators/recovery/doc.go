// Package recovery recovers the true (positive-vs-negative) performance of a
// classifier from its positive-unlabeled (PU) performance, given the class
// prior alpha (the proportion of positives in the unlabeled set U) and the
// label purity beta (the proportion of positives in the labeled set L).
//
// References:
//
//   - [AAAI-2017] S. Jain, M. White, P. Radivojac, "Recovering true classifier
//     performance in positive-unlabeled learning", AAAI 2017 (and its arXiv
//     appendix: Algorithm 1). Truth: the classifier on the unlabeled set U.
//   - [PSB-2019] R. Ramola, S. Jain, P. Radivojac, "Estimating classification
//     accuracy in positive-unlabeled learning: characterization and correction
//     strategies", PSB 2019. Truth: the classifier on D = L u U.
//
// # Setting
//
// U is drawn from f = alpha f1 + (1-alpha) f0 and L from g = beta f1 +
// (1-beta) f0, with f1, f0 the score distributions of positives and negatives.
// A classifier is a threshold t on the scores (predict positive when score >=
// t, the convention of package metrics). The PU rates of a threshold are
//
//	gamma_pu = fraction of L predicted positive   (TPR with L read as positive)
//	eta_pu   = fraction of U predicted positive   (FPR with U read as negative)
//
// and the true rates are gamma = E_f1[h] (TPR) and eta = E_f0[h] (FPR). Every
// sample-level function of the package starts from one [metrics.Ranking] of
// L u U with labels "labeled" (true) and "unlabeled" (false); see [New].
//
// # AAAI-2017: ROC, AUC, precision, AUC-PR (truth on U)
//
// Theorem 1. Since gamma_pu = beta gamma + (1-beta) eta and eta_pu = alpha
// gamma + (1-alpha) eta (the forward equations, [PURates]),
//
//	gamma = ((1-alpha) gamma_pu - (1-beta) eta_pu) / (beta - alpha)    (Eq. 1)
//	eta   = (beta eta_pu - alpha gamma_pu) / (beta - alpha)            (Eq. 2)
//	rho   = alpha gamma / eta_pu                                       (Eq. 3, precision on U)
//	AUC   = (AUC_pu - (1 - (beta - alpha))/2) / (beta - alpha)         (Eq. 4)
//
// Eq. 5 is Eqs. 1-2 with estimates in place of alpha, beta, gamma_pu, eta_pu.
//
//   - Direct recovery (DR/DE, [DirectAUC], [Recovery.DirectAUC]): Eq. 4 applied
//     to the PU AUC (labeled vs unlabeled, Mann-Whitney with ties 1/2), clipped
//     to [0, 1] as the paper does ("AUC estimates above 1 were clipped";
//     Figure 3 sets the infeasible region to 0 or 1).
//   - Indirect recovery (IR/IE, appendix Algorithm 1, [Recovery.ROC],
//     [Recovery.IndirectAUC]): recover (eta, gamma) at every threshold by Eqs.
//     1-2; treat the points outside [0,1]^2 as [Outside] says (Drop: remove
//     them, the paper; Clip: clip both coordinates to [0,1], which avoids the
//     collapse of the curve to the diagonal, AUC 0.5, when alpha-hat is
//     overestimated and nearly every point falls outside); sort by eta
//     ascending (ties by gamma); make gamma non-decreasing with a running
//     maximum; add (0,0) and (1,1); AUC = trapezoid area.
//   - AUC-PR, indirect only ([Recovery.AUCPR]). The appendix defines the
//     recovered precision by Eq. 3 and says only that it "leads to an
//     equivalent indirect algorithm", which admits two curves and two area
//     rules ([PRCurve], [PRArea]), equal in exact population arithmetic:
//     PREq3 ([Recovery.PR], [Recovery.IndirectAUCPR]) takes the thresholds
//     Algorithm 1 keeps (descending threshold order), recall = gamma and
//     precision = alpha gamma / eta_pu clipped to [0, 1]; PRFromROC reads
//     the curve off Algorithm 1's recovered ROC curve, precision = alpha
//     gamma / (alpha gamma + (1 - alpha) eta). AreaStep is average precision
//     as in package metrics, sum_k (R_k - R_{k-1}) P_k, AreaTrapezoid the
//     trapezoid rule, both with R_k the running maximum of the recovered
//     recall, so that a recall that dips and comes back (gamma need not be
//     monotone in the threshold after recovery) is counted once. The default
//     (DefaultPRCurve, DefaultPRArea: roc, trapezoid) is the reading that
//     reproduces the paper's Table 2; the comparison of all four on the full
//     reproduction is in docs/aucpr.md.
//
// Known inconsistency: AAAI-2017 Figure 4 says (alpha, beta, AUC) = (0.25,
// 0.75, 0.90) gives AUC_pu = 0.80 "from Equation 4", but Eq. 4 gives 0.70, and
// 0.80 would recover to the infeasible 1.1. The package implements Eq. 4,
// which Theorem 1 proves ([PUAUC]; TestAAAIFigure4Inconsistency). The lines
// that the figure's right panel draws follow from Eq. 4 and are checked with
// [DirectAUCUnclipped] (TestAAAIFigure4Lines).
//
// # PSB-2019: accuracy, balanced accuracy, F1, MCC (truth on D = L u U)
//
// With c = |L| / (|L| + |U|) and theta the fraction of D predicted positive
// (an unbiased estimate of the true theta = E_h[y-hat], since D is drawn from
// h = c g + (1-c) f, Eq. 10):
//
//	pi    = c beta + (1-c) alpha                                        (Eq. 11)
//	theta = pi gamma + (1-pi) eta                                       (Eq. 3)
//	acc   = pi gamma + (1-pi)(1-eta)                                    (Eq. 4; with recovered rates Eq. 12)
//	bacc  = (1 + gamma - eta) / 2                                       (Eq. 5; Eq. 13)
//	F     = 2 pi gamma / (pi + theta)                                   (Eq. 6; Eq. 14)
//	mcc   = sqrt(pi (1-pi) / (theta (1-theta))) (gamma - eta)           (Eq. 8; Eq. 15)
//
// The PU (uncorrected) estimates are the same formulas with gamma_pu, eta_pu
// and c in place of gamma, eta and pi; they equal the usual confusion-matrix
// formulas with L read as positive and U as negative (package metrics), which
// is what [Recovery.Summary] reports as "pu". Theorem 2.1 recovers bacc and
// mcc directly from their PU values ([DirectBalancedAccuracy], [DirectMCC]):
//
//	bacc = (2 bacc_pu - 1) / (2 (beta - alpha)) + 1/2
//	mcc  = sqrt(pi (1-pi) / (c (1-c))) mcc_pu / (beta - alpha)
//
// which equal Eqs. 13 and 15 exactly (gamma_pu - eta_pu = (beta - alpha)(gamma
// - eta)); the tests check it on data. (PSB-2019 Figure 2 used the direct
// formula for mcc and Eq. 13 for bacc; [Recovery.Max] uses Eqs. 12-15 for all
// four, which give the same numbers up to rounding.) Clipping follows PSB-2019 Figure 2: acc
// and F to [0,1], bacc to [1/2,1], mcc to [-1,1] ([Measure.Clip]).
//
// Maxima ([Recovery.Max]) are taken over all thresholds of the ranking (the
// distinct scores and +Inf); the arg-max is taken on the unclipped recovered
// values (ties to the highest threshold, as in metrics.Ranking.Max, see
// below for ties broken by rounding) and only the value is clipped. Clipping first would turn every threshold whose
// recovered value exceeds the bound into a tie and move the arg-max to the
// highest of them; taking it on the unclipped values keeps Theorem 2.1's
// guarantee that the recovered bacc and mcc are maximised at the same
// threshold as their PU counterparts (both are increasing affine/linear maps
// of the PU values).
//
// # Undefined ratios and rounding
//
//   - beta - alpha <= 0 (or alpha, beta outside [0,1] or NaN) is an error
//     wrapping [ErrPriors] in every function that divides by beta - alpha: the
//     equations are undefined at beta = alpha, and beta < alpha means the
//     labeled set is poorer in positives than the unlabeled set, which the
//     theory excludes (beta in (alpha, 1]). An estimator that returns such a
//     pair must be reported, not silently fixed. The only exception is
//     [DirectAUCUnclipped], which evaluates Eq. 4 for any beta != alpha to draw
//     the whole (alpha-hat, beta-hat) square of AAAI-2017 Figures 3-4.
//   - Precision with eta_pu = 0 (no unlabeled example predicted positive) is 1:
//     alpha gamma / eta_pu tends to +Inf there and is clipped to 1, and the
//     start of a precision-recall curve has precision 1 by the convention of
//     package metrics.
//   - mcc with theta in {0, 1} (an empty row of the confusion matrix) is 0 and
//     F with pi + theta = 0 is 0, as in package metrics, so no value is NaN.
//   - The thresholds +Inf and the lowest score recover (0,0) and (1,1)
//     exactly in theory; Algorithm 1 uses those exact endpoints. A recovered
//     coordinate within 1e-12 of [0,1] counts as inside and is clamped into it,
//     so that rounding does not drop the points of an exact population curve.
//   - Ties that only rounding breaks. Different thresholds often have the same
//     recovered eta in exact arithmetic (with alpha 0.3, beta 0.9, |L| 2,000,
//     |U| 20,000, any two thresholds 3 labeled and 10 unlabeled examples
//     apart), but Eq. 2 in floating point gives them values a few ulps apart
//     in an arbitrary order. The order matters for Algorithm 1: a vertical
//     run of the curve must be entered at its lowest gamma, or the running
//     maximum lifts the lower points and adds area (on a 13-score example the
//     AUC went from the true 0.786 to 0.810). Algorithm 1 therefore treats
//     etas within 1e-12/(beta - alpha) of each other (chained along the
//     sorted order) as one eta and orders them by gamma; [Recovery.Max] treats
//     values within the same tolerance of the maximum as ties and takes the
//     highest threshold. The tolerance is far above the rounding error of
//     Eqs. 1-2 (about 8e-16/(beta - alpha), plus the representation error of
//     alpha and beta, which is why an exact rational comparison would not
//     help) and far below the gaps between genuinely different values of a
//     sample (about 1/(|L||U|(beta - alpha))).
//
// # Cost
//
// [New] is O(K) for K thresholds after the one metrics.Rank (O(n) radix sort);
// [Recovery.Max], [Recovery.PR] and the AUC-PR are O(K); Algorithm 1 sorts the
// kept points by eta. They come in threshold order, in which eta is nearly
// sorted (on 10^7 thresholds of binormal scores 60 % of the points stay in
// place, the mean move is 30 places), so the sort is an in-place bucket sort
// on eta with insertion sorts of the buckets: O(K) on such data (0.2 s for
// both modes on 10^6 thresholds, BenchmarkPrepareROC1e6), O(K log K) at
// worst. One AAAI-2017 cell (11,000
// scores: rank, then every number of [Recovery.Summary] for both [Outside]
// modes) takes about 6 ms on the development machine (BenchmarkCell).
//
// A [Workspace] computes the numbers a bootstrap resample needs (both AUCs,
// the AUC-PR, every measure's maximum, Algorithm 1's curve) from a [Tally]:
// per-threshold counts of labeled and unlabeled examples over the
// thresholds of a fixed ranking, which is what a resample of its examples
// is. It needs no sort of the scores, holds no per-threshold points but the
// curve's (16 bytes a threshold, reused from call to call, where a Recovery
// holds 48 and 24 a curve), and gives New's numbers bit for bit
// (TestWorkspaceIsRecovery): about 40 ms for 10^6 thresholds
// (BenchmarkWorkspace1e6). [AtThreshold] gives the measures it maximises
// at one threshold of the tally (a threshold the user chose), with the
// same roundings: at the maximum's threshold, the maximum bit for bit.
//
// # Finite samples
//
// With known alpha and beta the recovery is unbiased to within the tests'
// resolution, but it divides by beta - alpha and so amplifies the noise of the
// labeled sample: for N(+1,1) vs N(-1,1) scores, alpha 0.3, beta 0.9, |L|
// 2,000 and |U| 20,000, the error of one sample has a standard deviation of
// about 0.007 for the AUC (direct and indirect alike) and 0.007-0.016 for the
// maxima of acc, bacc, F1 and mcc, 0.02 for the AUC-PR (measured over 200
// samples; TestFiniteSampleIssueSizes).
//
// # The same bits on every CPU
//
// Every product is rounded before it is added (float64(a*b) + c): on arm64
// (and riscv64, ppc64, s390x, and amd64 built with GOAMD64=v3) the Go
// compiler would otherwise fuse a*b + c into one multiply-add with a single
// rounding, and a record computed there would differ in its last bit. amd64's default build never fuses, so its results are
// unchanged. The repository's TestNoFusedMultiplyAddOnArm64 and cli's
// TestGoldenRecords (under qemu-aarch64 in make test-cross) hold this.
package recovery
