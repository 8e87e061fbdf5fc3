// Package evaluate tells a practitioner how good a model really is from
// positive-unlabeled (PU) data: it is the library behind `pueval evaluate`.
//
// # What it does
//
// [Run] takes a PU sample, the rows of a labeled set L and an unlabeled set
// U, either with held-out scores of a model (higher = more positive) or
// with feature rows, on which it trains a classifier of package
// classifiers labeled against unlabeled (nnet-bag with out-of-bag scores
// by default, or gbdt with stratified out-of-fold scores). Then:
//
//  1. Every class-prior estimator that applies estimates alpha (the
//     fraction of positives among the unlabeled) and beta (among the
//     labeled): the score-reading ones (alphamax-n, alphamax, distcurve)
//     always, on a random subsample of Options.EstimatorMaxRows rows
//     (DefaultEstimatorMaxRows, 10^5) above it, the feature-reading ones
//     (km1, km2) when features are given, on a random subsample of at most
//     Options.KMMaxRows rows, since their kernel matrix is dense. Unless
//     the priors are given, their point estimate is the mean of the
//     score-reading estimators' alpha and beta (of every usable
//     estimator's when none of those gave usable priors); each
//     estimator's row also holds the headline numbers recovered under its
//     own alpha and beta, and [Agreement] their spread.
//  2. Under the priors, package recovery recovers the ROC and PR curves,
//     AUC and AUC-PR on U (AAAI-2017; AUC by Algorithm 1, also Eq. 4 as
//     "direct") and the best accuracy, balanced accuracy, F1 and MCC on D
//     = L u U with their thresholds (PSB-2019).
//  3. Claesen et al.'s (2015) bounds on the curves of D, with the labeled
//     rows as known positives, for every alpha in the range of the
//     estimators' alphas (which is Claesen's beta: the fraction of positives
//     among the unlabeled; the lower bound the smallest over the range, the
//     upper the largest), from a bootstrap band on the known positives' rank
//     CDF.
//  4. With Options.Bootstrap = N, intervals. Sampling: L and U resampled
//     separately with replacement (sizes kept) and every recovered number
//     and curve computed again under the priors; a number's interval is
//     the (1-level)/2 and (1+level)/2 type-7 quantiles over the resamples
//     (for the best value of a threshold measure over the thresholds the
//     bias-corrected, BC, quantiles: the maximum over a noisy recovered
//     curve is biased upward, and the resamples' maxima show by how much),
//     each side's distance from the point estimate then multiplied by
//     [SamplingInflation] (1.3): the truth is the sample's own value under
//     its true classes, and the resamples reproduce the labeled rows'
//     share of the recovered number's error against it but only part of
//     the unlabeled positives' share (see intervals.go; the factor was
//     fitted on the practitioner's benchmark with the true priors given).
//     The curves get pointwise percentile bands on a grid of 101 FPR or
//     recall values. The scores are held fixed: retraining the
//     model in every resample would multiply the cost by N, so the
//     intervals cover the sampling of the evaluation data, not the
//     training of the model. Since the scores are fixed, a resample is a
//     count of draws per distinct score (uniform row indices of L and of
//     U, in ranking order): every PU count at every threshold is a running
//     sum of those counts, so a resample neither copies nor sorts the
//     scores (recovery.Workspace recovers its numbers from the counts, bit
//     for bit those of ranking the drawn scores again).
//     Estimated priors: no estimator's own sampling spread covers its
//     error, which is mostly bias (the estimators return the largest
//     share of one distribution the other can hold, above alpha wherever
//     the classes overlap, and share that bias). So each interval is
//     widened over a region of priors around the point estimate
//     ([PriorRegion]) whose size grows as 1/sqrt(labeled rows) and with
//     the model's weakness, calibrated on the practitioner's benchmark
//     (internal/benchevaluate) so that the 95 % intervals hold the truth
//     in at least 95 % of its cases overall (see priors.go): each side of
//     the interval is the root of the sum of squares of the bootstrap's
//     offset and the number's farthest value over a 6 x 6 grid of the
//     region. The region and the inflation are calibrated at level 0.95; at
//     other levels the bootstrap's quantiles follow the level and the
//     region and the factor do not.
//     A point estimate always lies inside its interval.
//  5. Warnings with stable codes for degenerate models (every score tied,
//     a PU AUC not above 1/2, beta - alpha below [SmallGap] or not
//     positive), scores that look in-sample (a PU AUC of [InSampleAUCPU]
//     or more), numbers recovered at the end of their range, failing or
//     disagreeing estimators, subsampling, label noise the bounds ignore
//     (only where beta is given below [CleanBeta] or the whole region of
//     estimated priors lies below it); and [Assumption]s, what each group
//     of numbers needs (SCAR, or its noisy-label version, rather than
//     biased labeling).
//
// Bad input (NaN or infinite scores or features, an empty L or U,
// mismatched lengths, given priors with beta <= alpha) is an error; input
// that only makes numbers meaningless is a warning, and a number that
// cannot be computed is NaN (null in JSON).
//
// # Determinism
//
// Every random draw comes from a math/rand/v2 PCG stream whose seed words
// hash Options.Seed with the draw's role (SplitMix64 chained over a path:
// estimator and name, subsample, resample b, resample b's estimator, the
// bounds' band): resample b depends on b alone, so the result is the same
// for any Options.Workers, and the JSON form of a [Result] is a function
// of the input, the options and the seed (timings are kept out of it).
//
// # Cancellation
//
// A cancelled context ends Run, Estimate and BootstrapScores with an error
// wrapping its cause and no result. Every pass over the rows or the
// thresholds asks the context at least once per 16,384 elements
// (internal/interrupt): the ranking (metrics.RankContext), the split, the
// estimators' loops, the recovery and the sort of its curve
// (recovery.Workspace.Recover), the bootstrap's draws; the passes that do
// not ask (a PU measure's maximum over the thresholds, a curve's
// thinning) are asked between, and take under 0.1 s each on 10^7 rows. Claesen's bounds ask too: their ranking (bounds.RankContext), band
// (Ranking.BootstrapContext) and the search over the alphas
// (Ranking.BoundsContext).
//
// # Which set each number is about
//
// AUC and AUC-PR are about U with its true labels, the threshold measures
// about D = L u U. The PU numbers read labeled as positive and unlabeled as
// negative. With clean labels (beta = 1) the labeled are positives, so the
// truth on U differs from the truth on all positives and negatives only by
// the sampling of U.
//
// # Cost
//
// On a score file of 10^7 rows (binormal scores, all distinct), CPU
// seconds on the 2-core development machine: reading 2.0, ranking 0.6,
// the estimators 0.15 (on their 10^5-row subsample; distcurve took 260 s
// on every row), each recovery 0.4, the bootstrap 75 (200 resamples of
// 0.37 s: the draws 0.09, the recovery from the counts 0.24 of which the
// sort of the curve 0.1, alphamax-n 0.01), which both cores share; the
// heap peaks near 1 GB (the ranking, 24 bytes a distinct score, and each
// bootstrap worker's 25 bytes a distinct score). On 10^6 rows the
// bootstrap takes 10 CPU seconds and the rest under 1 besides Claesen's
// bounds (BenchmarkRun1e6, BenchmarkResample1e6).
//
// # Coverage
//
// TestBootstrapCoverage draws 100 PU samples of Gaussian scores with known
// alpha and beta (datasets/synth) and counts how often the 95 % interval
// holds the population AUC and best F1 (the AUC in closed form, the F1
// maximised numerically), with the priors given and estimated;
// TestSmallSampleCoverage draws 200 small ones (|L| 50, |U| 450) and counts
// how often the intervals with given priors hold each sample's own true
// AUC, AUC-PR, best F1 and best MCC. The practitioner's benchmark (make
// bench-evaluate; docs/evaluate-benchmark.md) measures coverage, width and
// error on real data sets by size.
package evaluate
