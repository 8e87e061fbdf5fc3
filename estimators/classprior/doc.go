// Package classprior estimates the class prior and the label noise of a
// positive-unlabeled (PU) sample: AlphaMax (Jain, White, Trosset, Radivojac,
// "Nonparametric semi-supervised learning of class proportions",
// arXiv:1601.01944, 2016) and AlphaMax-N (Jain, White, Radivojac,
// "Estimating the class prior and posterior from noisy positives and
// unlabeled data", NIPS 2016) from univariate scores, as the published
// MATLAB code computes them, with the per-alpha optimisation solved exactly
// and a better knee rule by default; and, behind the same registry,
// DistCurve (package distcurve) on scores and KM1 and KM2 (package kmpe) on
// feature rows.
//
// docs/alphamax.md in the repository has the derivation in full and the
// studies behind the defaults; its tables are kept current by
// TestSyntheticStudy and TestAAAIStudy.
//
// # What is estimated
//
// The unlabeled sample U is drawn from alpha f1 + (1 - alpha) f0 and the
// labeled sample L from beta f1 + (1 - beta) f0, f1 and f0 the score
// densities of positives and negatives: alpha is the fraction of positives
// among the unlabeled, beta among the labeled (beta = 1: clean labels). Only
// the largest proportion of one distribution inside another is
// identifiable, so AlphaMax estimates alpha+ = max{a : U = a L + (1 - a) H
// for some distribution H}, which is alpha/beta under the irreducibility
// assumptions of the papers, and AlphaMax-N runs it twice with the roles
// swapped:
//
//	run 1, U as mixture, L as component: au    = alpha/beta
//	run 2, L as mixture, U as component: kappa = (1 - beta)/(1 - alpha),  al = 1 - kappa
//	alpha = au al / (1 - au (1 - al)),    beta = al / (1 - au (1 - al))
//
// (the ideal run results give alpha and beta exactly). "alphamax" returns
// run 1 as alpha and beta = 1; "alphamax-n" both. With both runs inside
// (0, 1), beta - alpha = al (1 - au)/(1 - au kappa) > 0.
//
// # Use
//
// Estimators are registered by name, with the pattern of
// classifiers.Config: [Defaults](name) returns the estimator's option struct
// ([AlphaMax], [AlphaMaxN]: [Options] inlined) ready to decode YAML into,
// [Config].Validate reports every bad option, New builds the [Estimator],
// and Key is the canonical string of everything that can change the
// estimate, for caches of estimates. An estimator reads an [Input]: the
// univariate scores of the labeled and the unlabeled examples, and their
// feature rows for estimators whose Config is a [FeatureReader]. Estimate
// takes a context and stops with its cause when it is cancelled.
//
//	cfg, _ := classprior.Recommended("alphamax-n")
//	est, _ := cfg.New()
//	e, err := est.Estimate(ctx, classprior.Input{Labeled: l, Unlabeled: u}, rng)
//	// e.Alpha, e.Beta, e.Warnings
//
// [Recommended](name) is Defaults with the choices the practitioner commands
// (evaluate, estimate, correct) make: the rank scale for the AlphaMax
// family. The registry defaults keep the published raw scale, which the
// paper reproductions run and their published numbers were made on; a
// config gets the rank scale with scale: rank.
//
// # One AlphaMax run
//
// Histogram: on the raw scale the bin width w is the one MATLAB's
// histogram() picks for the component sample (Scott's rule 3.5 std
// n1^(-1/3), rounded by binpicker to {1, 2, 3, 5, 10} 10^k; 1 for integer
// data spanning at most 50), the edges xmin + k w over the range of both
// samples, each bin the closed interval [e_k, e_k+1]. Mixture weights a_k
// and component weights p_k are the published EM fit of the fixed uniform
// components. With Options.Shifts s > 1 the run is made on s histograms
// whose edges start j w/s below xmin, j = 0..s-1 (averaged shifted
// histograms, Scott 1985), and returns the mean of their estimates.
//
// Likelihood per alpha (the published 'combined2' objective): weights
// 0 <= beta_k <= 1 split the mixture histogram into a component part and a
// remainder; on the constraint sum_k a_k beta_k = alpha the objective is,
// up to constants,
//
//	maximise  sum_k c_k log(beta_k) + d_k log(a_k (1 - beta_k) + alpha p_k),
//
// c_k the component's and d_k the mixture's share of bin k over n1 and n.
// It is separable and concave with one linear constraint, so the
// Karush-Kuhn-Tucker conditions give each beta_k in closed form for a
// multiplier lam, and a bracketed Newton search on lam solves it to
// rounding, where the published code calls fmincon. A score on a bin edge
// couples two bins; minorise-maximise steps accelerated by SQUAREM
// (Varadhan and Roland 2008) climb to the maximum of the concave problem.
// The curve records the published log-likelihood of each alpha and the
// published monotone correction raises each value to the largest at any
// larger alpha. An independent SLSQP solution of the point-level problem
// (testdata/oracle.py) agrees to 1e-11.
//
// # Knee rules
//
// The estimate is the alpha where the curve of -loglik bends upwards, on the
// grid 0.01, 0.02, ..., 0.99 (Options.Grid). Every rule first smooths the
// curve (the median of each value's 5 nearest grid neighbours) and maps it
// onto [0, 1].
//
//   - "published" (KneePublished): the published inflection script, stale
//     left-window slope included. On the default grid it can only return
//     0.01 or a value in [0.10, 0.89]: for comparison with published numbers
//     only.
//   - "fixed" (KneeFixed): the same with each grid point's own left window.
//   - "concave-start" (KneeConcaveStart): "fixed" on a grid extended down to
//     0.001, returning the lowest grid value when the curve is concave from
//     its start, the shape of the second run with clean labels.
//   - "blend" (KneeBlend, the default on the raw scale): the mean of the
//     "concave-start" value and the largest alpha whose corrected
//     log-likelihood lies within drop_tau (1/n + 1/n1) of its value at the
//     first grid point (drop_tau 2).
//   - "drop" (KneeDrop, the default on the rank scale): the alpha at which
//     the corrected log-likelihood falls (drop_tau + ln(K/5)) (1/n + 1/n1)
//     below its first value, K > 5 the number of bins holding a score
//     (drop_tau 0.5), placed between the two grid points that bracket it by
//     10 bisection steps.
//
// On a synthetic study of 720 samples the blend rule has the smallest mean
// absolute errors of the raw scale's rules (alpha .047, beta - alpha .043,
// against .063 and .117 for "published"), and the rank scale with "drop"
// .035 and .040.
//
// # The rank scale
//
// Options.Scale "rank" (ScaleRank) maps, in each run, every score x of
// either sample to the component sample's mid-distribution function
// v(x) = (#{component < x} + #{component = x}/2)/n1 and bins v on
// K = ceil(1/w) equal bins of [0, 1], w = 3.5 s n1^(-1/3) Scott's width of
// n1 untied values (i - 1/2)/n1, s = sqrt((n1 + 1)/(12 n1)). v depends on
// the scores only through their order and ties, so probabilities, logits,
// ranks or any strictly increasing transform give the same estimate to the
// bit (TestRankScaleInvariant, FuzzEstimate); every bin holds n1/K
// component scores, so no bin is sparse; and the estimate does not drift as
// the samples grow, where the raw scale's does (binormal scores, mean
// absolute error .020, .008, .004, .002 at 10^4 to 10^7 rows; raw .022,
// .029, .040, .054; TestRankNoDrift).
//
// # Errors and warnings
//
// Estimate returns an error, never a panic, for a side with fewer than
// MinScores (10) scores, a NaN or infinite score, a constant side, or a
// component sample too concentrated for a histogram (more than 10^7 bins).
// Warnings come back with the estimate, which is never altered: fewer than
// FewUnlabeled (1000) unlabeled or FewLabeled (100) labeled scores, a flat
// likelihood curve, subsampling, and for AlphaMax-N beta-hat <= alpha-hat or
// beta-hat - alpha-hat < SmallGap (0.05), where the corrections that divide
// by beta - alpha become unstable. DistCurve and KM1/KM2 refuse and warn on
// small samples alike, so that estimates compared side by side carry the
// same warnings.
//
// # Cost
//
// AlphaMax-N on 1,000 labeled and 10,000 unlabeled scores takes about
// 2.5 ms on the raw scale and 1.0 ms on the rank scale (BenchmarkAlphaMaxN,
// BenchmarkAlphaMaxNRank); above 10^5 scores the time grows linearly, about
// 65 ns a score on the rank scale, whose sort needs 16 bytes a score.
// Shifts s costs s times as much.
package classprior
