// Package aul is the report of "AUL is a better optimization metric in PU
// learning" (ICLR 2021 submission, OpenReview 2NU7a9AHo-6; Huang, Wang, Li,
// Jiang), registered with package report as "aul". Import it for its side
// effect.
//
// The paper compares two ways of learning a classifier's AUC from PU data
// (protocol scar-fraction: L = round(beta n_P) of the positives, U = the
// rest; its beta is the labeled fraction of the positives, the records'
// grid axis known-positives): correcting AUC^PU (L against U) with an
// estimate alpha_U-hat of the class prior of U,
//
//	AUC^est = (AUC^PU - alpha_U-hat/2)/(1 - alpha_U-hat), clipped to [0, 1]
//
// (the auc measure's direct:ID), and AUL^PU (L against L u U; the aul
// measure's pu), which needs no prior and is unbiased for AUL. What the
// report reads and shows:
//
//   - Table 1: per data set and beta, n, alpha = n_P/n, the mean true AUC and
//     AUL (auc and aul truth:same-model, on L u U), and the mean absolute
//     error over the splits of AUC^est for each estimator (the paper's KM1,
//     KM2 and DistCurve first, then the others) and of AUL^PU, beside the
//     published values; also the error of AUC^est with the true prior
//     (direct:real), the floor no estimator can beat on average. Exactly,
//     per split, (AUC^est(true alpha_U) - AUC)(1 - alpha) = AUL^PU - AUL
//     (the paper's Section 2.1): AUL's advantage is the (1 - alpha) scale and the
//     estimators' error of the prior. The report counts the splits where the
//     identity holds to 1e-9 (it fails only where the clip binds).
//   - Figure 2: per data set the errors AUC^est - AUC of each estimator and
//     AUL^PU - AUL over every split (3 betas x 50), as box plots with the
//     whiskers at the minimum and maximum, as in the paper, and the mean
//     marked.
//   - Estimator time: the mean seconds per split of each estimator
//     (Record.Timings "estimator:ID"), beside the paper's (KM 2,000 s and
//     DistCurve 16 s at 8,000 rows).
//   - Claims: AUL^PU's MAE below every estimator's in at least 25 of 27
//     rows; the ratio of the mean AUL^PU MAE to the best estimator's mean
//     MAE equal to the paper's 0.156 within 2 standard errors of the
//     difference (RatioStdErr: the delta method over the splits' absolute
//     errors, paired per split; times sqrt(2), since the paper's ratio is
//     a mean over as many splits); AUL^PU's mean error closest to 0 and its
//     IQR the smallest on every data set (Fig. 2); the IQR of AUL^PU's
//     errors shrinking as beta grows.
//   - Theorem 1 (when the records hold the aul measure's sd:pu, the
//     standard deviation of AUL^PU over random splits of the same size with
//     the scores held fixed): Table 1's column "Theorem 1", the MAE the
//     theorem predicts, m = sqrt(2/pi) sd (the error is nearly normal with
//     mean 0), with se = sd sqrt((1 - 2/pi)/R) for an MAE over R splits.
//     Table 1's acceptance (TheoremClaims), when the scores' AUCs are the
//     paper's to 0.002 (the degraded scores): the published MAE, itself a
//     mean over 50 random splits, within 2 se (plus its rounding, 0.0005)
//     of m in every row. These records' own MAEs are each within 2 se of m
//     with probability 0.954, so their test allows the rows outside that a
//     faithful run exceeds with probability at most 0.01 (4 of 27), with
//     the chi-square of the standardized differences beside it.
//   - Figure 3 (measure pu-learning): PU_AUC and PU_AUL's test AUCs per
//     data set, the mean over seeds, and the per-seed difference with its
//     standard error: a win or a loss when the mean difference is more than
//     2 standard errors from 0, a tie otherwise; the paper's "8 of 9" and
//     "most data sets" count the wins.
//
// The evaluated classifier and the estimators' inputs are pueval's, not the
// paper's (its classifier and network weights were not published), so the
// per-row estimator MAEs are not expected to match; the AUC and AUL columns
// match only with scores degraded to the paper's AUC.
package aul
