// Package bounds computes bounds on the ROC and precision-recall curves of a
// classifier, and on their areas, from a ranking in which only some
// positives (and perhaps some negatives) are labeled: the method of
//
//   - [Claesen2015] M. Claesen, J. Davis, F. De Smet, B. De Moor, "Assessing
//     binary classifiers using only positive and unlabeled data", arXiv
//     1504.06837v2 (2015),
//
// as the project's reading of the published code (semisup-metrics) pins
// it down.
//
// # Setting
//
// A ranking R of n instances sorted by score, descending, is made of known
// positives P_L, known negatives N_L and unlabeled instances U ([Label]).
// U holds |P_U| latent positives. The method needs
//
//	beta = |P_U| / |U|                                           (Eq. 7)
//
// the fraction of positives AMONG THE UNLABELED. This is the paper's symbol,
// and it is what the AAAI-2017 paper (package estimators/recovery) calls
// alpha; it is not recovery's beta, the fraction of positives among the
// labeled (which is 1 here: the known positives are positives).
//
// The rank of an instance is its 0-based position in R. The rank CDF of a set
// S is F(S, r) = |{x in S: rank(x) <= r}| / |S| (Eq. 6): at a cut-off r that
// predicts the instances at ranks 0..r positive it is S's true positive rate.
// Figure 1's example (R = B E D G H A F C I, P1 = {B, D, A, C}) gives F(P1)
// = 1/4, 2/4, 3/4, 1 at the 0-based ranks 0, 2, 5, 7 ([Ranking.ECDF];
// TestFigure1RankCDF).
//
// # Ties
//
// [Rank] sorts once (a stable radix sort on the float bits, O(n)); every
// later step is O(n) per beta. [InputOrder] breaks ties by input order and
// makes one cut-off per position, as the published code does: use it for
// parity. [Grouped] (the default of the CLI) lets tied scores move
// together: a cut-off only at the end of each tie group, every instance of
// a group getting the group's end rank, so that no number depends on the
// order of the input, as in package metrics. Without ties the two are the
// same (TestTiesModes). The covtype ranking of the paper's Figure 5 has 921
// distinct scores for 40,000 rows, so the two differ there.
//
// # Confidence band on the rank CDF of the known positives (Sec. 4.2)
//
// The latent positives are assumed to rank like the known ones (the known
// positives are a random sample of the positives), so a band on the known
// positives' rank CDF T bounds the latent positives' too:
//
//	0 <= T_lb(r) <= F(P_U, r), F(P_L, r) <= T_ub(r) <= 1         (Eq. 14)
//
// A [Band] is a right-continuous step function of the rank. It comes from
//
//   - [Ranking.Bootstrap]: the percentile bootstrap (resample the known
//     ranks with replacement, ECDF of each at every distinct known rank,
//     elements floor(B (1-level)/2) and B minus that of the sorted values;
//     the paper's Fig. 5 uses B = 2,000); deterministic for a given
//     *rand.Rand; O(B |P_L|);
//   - [Ranking.DKW]: ECDF -/+ sqrt(ln(2/(1-level)) / (2|P_L|)), clipped;
//   - [Ranking.ECDF]: the point estimate T_lb = T_ub = F(P_L, .);
//   - [ReadBand]: a stored band (rank0,lower,upper). [Band.Float32] rounds it
//     to single precision, as the published code's step-function routine
//     stores a bootstrap band: theta below then flips
//     between floor and ceil at some ranks.
//
// # Surrogate contingency tables (Sec. 4.1, Theorem 1, Eqs. 10-13)
//
// At each cut-off r, with cut_U = |head(U, r)| the unlabeled instances at
// ranks <= r, P_U = floor(beta |U|) (the published int(beta*nunl)):
//
//	theta_lower = floor(T_lb(r) P_U)    (Eq. 13: least upper bound on the FPR -> lower curves)
//	theta_upper = ceil(T_ub(r) P_U)     (Eq. 10: greatest lower bound on the FPR -> upper curves)
//	TP_U = max(min(cut_U, theta), P_U - (|U| - cut_U))              (Eq. 11, the clamp)
//	FN_U = P_U - TP_U,  FP_U = cut_U - TP_U,  TN_U = |U| - P_U - FP_U (Eq. 12)
//
// and the known instances add their exact counts: TP += |head(P_L, r)|, FN
// += |tail(P_L, r)|, FP += |head(N_L, r)|, TN += |tail(N_L, r)|
// ([Ranking.Tables]; O(n) per beta). [RealValued] counting drops the
// rounding (P_U = beta|U|, theta = T(r) P_U) for the derivations below.
// The lower table never has more TP or fewer FP than the upper one (the
// upper curve dominates the lower; checked by FuzzBounds).
//
// # Curves and areas (Sec. 5)
//
// The ROC curve of a [Curve] is its tables' (FPR, TPR) sorted ascending,
// the PR curve their (recall, precision) sorted ascending, precision 0 for
// an empty prediction; each area is the trapezoid over the sorted points.
// In grouped mode the PR curve also starts inside the first tie group, at
// (recall/m, precision) of a first group of m instances (where its first
// instance would lie, in expectation over the group's orders): scores that
// all tie then give nearly the prior's area, not 0 ([Curve.PR]). The ROC
// starts at (0, 0) (the empty prediction): in input-order mode that adds no
// area (the first cut-off holds one instance, so FPR or TPR is 0 there), in
// grouped mode it is package metrics' +Inf threshold. The sorts run in about
// O(n): the counts are whole numbers, TP never decreases down a ranking and
// FP steps back only a little.
//
// Sorting is the published convention and it has a cost: where a known
// positive lifts the surrogate true positives, the FPR steps back, and the
// sorted-point area can then put the lower AUC above the upper one; the PR
// trapezoid can do so even without steps back. Both only happen on tiny
// rankings in practice (TestAreaOrderNotGuaranteed has two of 4 and 8
// instances); on monotone ROC paths the AUCs keep their order.
//
// # beta unknown: an interval and a credible interval
//
// When beta is only known to lie in [b_lo, b_hi], the bounds must hold for
// every beta of the interval: the lower AUC is the smallest lower-curve AUC
// over the interval, the upper AUC the largest upper-curve AUC, and the same
// for the AUPR ([Ranking.Bounds] with an [Interval]; [PointInterval] for a
// known beta). The tables depend on beta only through P_U = floor(beta |U|),
// so the extremes are over the whole numbers floor(b_lo |U|) ..
// floor(b_hi |U|). Lemma 4 suggests they lie at the ends (the lower curve at
// b_lo, the upper at b_hi: [Ranking.EndBounds], the published code's rule)
// when the ranking is better than random, but the lemma holds one cut-off at
// a time with the TPR fixed: where beta is more than the top of the ranking
// can hold the clamp of Eq. 11 binds and the upper curve falls as beta
// grows, and with known negatives it does so well inside [0, 1]
// (TestIntervalHoldsTruthWhereEndsDoNot: the ends give an upper AUC of 0.73
// for a true AUC of 0.90; the extremes over the interval hold it). The
// reported [Bounds.At] says at which beta each extreme lies.
//
// The positive-based bounds come from a branch-and-bound search over the
// counts whose result is never narrower than the extremes and at most 1e-4
// wider: a range of counts is settled when bounds on its areas (resting on
// the counts moving by at most one per latent positive: rangebound.go)
// cannot beat the best areas found, and split otherwise. The negative-based
// extremes are a plain scan of every count. TestIntervalIsExtremeOverBetas
// and TestIntervalSearchCoarse check both against the brute force of every
// count on random rankings, bands and intervals.
//
// Peeking at the labels of some unlabeled instances gives the posterior
// Beta(1 + positives, 1 + negatives) of beta (uniform prior) and its
// equal-tailed or highest-density credible interval ([CredibleInterval];
// HPD by bisection to float64 resolution, not the published 0.001 steps).
//
// # Known negatives (App. C)
//
// [Ranking.NegativeBounds] runs the method on the known negatives' rank CDF:
// flip the known labels ([Ranking.Flip]), use beta' = 1 - beta, build the
// tables, map them back (TP <-> FP, FN <-> TN) and swap lower and upper.
// Over an interval each bound is again the extreme over the interval (for
// the AUC the ends swap, App. C: "overestimating beta leads to
// underestimated bounds", and the AUPR can move either way);
// [Ranking.EndNegativeBounds] keeps the more extreme of the two ends.
// [Tighter] picks the narrower of the positive- and negative-based
// intervals, as App. Table 2 reports.
//
// # Identities
//
// With T = the ECDF, no known negatives, RealValued counting and the clamp
// binding nowhere, TP_U = T(r) beta |U|, so
//
//	TPR(r) = T(r),   FPR(r) = (F_U(r) - beta T(r)) / (1 - beta),   precision(r) = T(r) (|P_L| + beta|U|) / (r + 1)
//
// with F_U(r) = cut_U/|U|. The area of the path through the tables in rank
// order from (0, 0) ([Curve.PathAUC]) is then sum (dF_U - beta dT)/(1 - beta)
// x (T_k + T_k+1)/2 = (AUC_PU - beta/2)/(1 - beta), AUC_PU being the known
// positives' AUC against U (the sum over dT telescopes to 1/2): the point
// estimate equals the AAAI-2017 direct correction with clean labels
// (TestPointEstimateIdentity, to 1e-12). With the published conventions the
// sorted-point AUC stays within 2/(|P_L| + P_U) + 2/(|U| - P_U) +
// beta/((1 - beta)|P_L|) of it where the clamp does not bind. The PR curve
// scales uniformly with |P_L| + beta|U| (TestAUPRScaling). Hence the ordering
// of two models by the point estimate's AUROC or AUPR cannot change with
// beta-hat unless the clamp binds. At beta = 0 the tables are "U as
// negative" exactly (TestBetaZeroIsUAsNegative).
//
// App. B's derivatives of the unlabeled part of the tables (real-valued,
// clamp free): dTP_U/dbeta = T|U|, dFN_U/dbeta = (1 - T)|U|, dFP_U/dbeta =
// -T|U|, dTN_U/dbeta = (T - 1)|U|, dTPR_U/dbeta = 0, dFPR_U/dbeta =
// (|head(U, r)|/|U| - T)/(1 - beta)^2, dPREC_U/dbeta = T|U|/|head(U, r)|
// (Eq. 15; TestAppendixBDerivatives, by finite differences).
//
// # Validation
//
// An independent numpy implementation of the method as documented here
// (testdata/claesen_reference.py) reproduces, to 1.3e-13, the AUC and AUPR
// of both curves on Claesen et al.'s covtype splits and the twelve
// simulated rankings of the published code, with DKW bands, the stored bootstrap bands
// (float32), the point estimate and the negative-based bounds (104 rows,
// TestParityGolden; run with PUEVAL_CLAESEN_DATA set).
//
// # Portability
//
// Every product is rounded (an explicit float64 conversion) before it is
// added, since Go fuses multiply-adds on arm64 and some other targets, and
// the DKW band's log comes from internal/portmath: ranks, bands, tables,
// curves and areas have the same bits on every architecture. So do the
// credible intervals: [CredibleInterval] sums the posterior's CDF as a
// binomial tail with portmath's Exp and Log and bisects on it.
// TestGoldenBits pins them, and make test-cross checks it on other CPUs.
//
// # Cost
//
// On the project's 2-core machine, for 40,000 instances: the sort about 2.5
// ms, a 2,000-resample bootstrap of 2,000 known ranks about 40 ms, the
// bounds at one beta (tables, both curves sorted, four areas) about 4 ms.
package bounds
