// Package benchevaluate is the practitioner's benchmark of package evaluate
// (`pueval evaluate`): PU samples with known truth, built from the UCI
// mirror's data sets and from synthetic data, scored by several models,
// evaluated with estimated and with true priors, and summarised as the
// coverage and width of the intervals, the errors of the recovered numbers
// and of the class-prior estimates, and the precision of every warning.
// `make bench-evaluate` runs it (QUICK=1: the quick design); its numbers
// and the command behind them are in docs/evaluate-benchmark.md.
//
// # Cases
//
// A [Split] is the recipe of one PU sample: a source (a catalogued data
// set, or a synthetic source), the number of rows N = |L| + |U|, the
// labeled fraction C (|L| = round(C N)), alpha (the fraction of positives
// in U: round(alpha |U|) positives) and beta (in L: round(beta |L|)
// positives, the rest negatives, i.e. label noise), and a replicate. From
// a data set the rows are drawn without replacement (the positives and the
// negatives each in a shuffled order, then the rows shuffled: [RealSample]);
// from the synthetic source, datasets/synth's Gaussian (two classes N(0, I)
// and N(delta, I) in 10 dimensions, |delta| = 1.5 or 2.5) draws N rows with
// the split's number of positives, and the first positives and negatives
// in the random order are labeled ([SynthSample]). Labeling is thus SCAR
// within each class, the assumption of every estimator and of the
// recovery.
//
// A [Case] is a split scored by one model trained labeled against
// unlabeled, every score held out: a ridge logistic regression ([LogReg]:
// Newton's method, lambda 1 on standardised features, as scikit-learn's
// LogisticRegression with C = 1; stratified shuffled 5-fold out-of-fold
// probabilities), the repo's gbdt (stratified 5-fold out-of-fold) and
// nnet-bag (out-of-bag, 100 nets) with their defaults; and on a scale:
// the model's own scores (raw), their logits, or their mid-ranks over N.
// Every recovered number depends on the ranking only, so with given priors
// the three scales give the same numbers; the estimators read the values,
// and the scales show how much their estimates depend on them.
//
// # Design
//
// Crossing every factor (24 data sets, 6 sizes, 3 alphas, 2 betas, 2
// labeled fractions, 3 models, 3 scales) would be 15,000 cases, most of
// which the small data sets cannot supply. The design instead gives each
// data set, per replicate and per (alpha, beta) in {0.1, 0.3, 0.5} x {1,
// 0.9}, one split, alternating C between 0.1 and 0.3, whose size is one of
// the ladder 150, 500, 1,500, 5,000, 15,000, 30,000 that the data set can
// supply at those priors: replicate 0 walks the ladder (every data set
// spans its sizes, every size a spread of priors), replicate 1 takes the
// largest (the bands from 10^4 rows up need it: few data sets reach them;
// Design.realSplits). Every split gets the three models (nnet-bag up to
// 10^5 rows), and the logistic regression's scores of replicate 0 from
// 1,500 to 15,000 rows are also evaluated as logits and ranks. The real
// data sets reach 30,000 rows; the sizes beyond (10^5, 3 x 10^5, 10^6)
// come from the synthetic source, as individually listed splits ([Full]).
// [Quick] is a subset that runs in a few minutes on 2 cores.
//
// # Evaluation
//
// Each case runs evaluate.Run on the held-out scores with Input.Truth and
// evaluate's defaults (every score-reading estimator, alphamax-n first;
// Claesen's bounds; the bootstrap of pueval evaluate's default 200
// resamples) twice: with the priors estimated (the headline numbers) and
// with the true alpha and beta given (Options.Priors). Cases up to
// Options.AloneMaxRows rows run once more per estimator with that
// estimator alone (Options.Estimators = [name]), which gives each
// estimator's own priors, recovered numbers and bootstrap interval:
// evaluate's per-estimator rows carry no interval. All runs of a case, and
// all scales of a split and model, share evaluate's seed, hence the
// bootstrap resamples: their comparisons are paired.
//
// # Truth
//
// The truth of a case is evaluate's Truth: the model's scores judged with
// the true classes of the sample, AUC and AUC-PR (average precision) on U,
// the best accuracy, balanced accuracy, F1 and MCC over thresholds on L u
// U. It is the quantity the recovery estimates (the same model, the same
// rows), not a population value; alpha and beta are the sample's own
// fractions (Split.Counts), which differ from the nominal ones by rounding.
//
// # Summaries
//
// For a number with truth T, recovered value R and interval [lo, hi]
// ([Outcome]), over a group of cases ([Tally]):
//
//   - coverage: the fraction of cases with lo <= T <= hi; a case with no
//     interval (unusable priors) counts as a miss;
//   - width: the mean of hi - lo over the cases with an interval;
//   - MAE: the mean of |R - T| over the cases with an R;
//   - point outside: the fraction of (case, number) intervals with R < lo
//     or R > hi, over AUC, AUC-PR, F1 and MCC.
//
// Groups: all cases, then by size band (10^k <= N < 10^(k+1)), beta,
// alpha, model and scale; every table is given separately for the tuning
// set and the validation set.
//
// The estimators' errors are estimate - truth of alpha, beta and beta -
// alpha (mean absolute and mean signed), from the estimated run's
// per-estimator rows, with the recovered AUC's MAE under each estimator's
// priors and the coverage of its alpha and beta intervals (from its run
// alone).
//
// A warning's precision is the fraction of the cases where its code fired
// (in the estimated run) that were bad, its recall the fraction of the bad
// cases where it fired. A case is bad (AUC) when its headline AUC has no
// recovered value or no interval, its interval misses the truth, or |R - T|
// > [BadTol] = 0.05; bad (any) when that holds for any of AUC, AUC-PR, F1
// and MCC. Besides evaluate's codes, "estimator-warning:<method>" and
// "estimator-failed:<method>" split those codes by estimator, and "any
// warning" and "no warning" say how the presence of any warning separates
// bad cases from good ones.
//
// # Validation set
//
// The cases of five data sets (casp, anuran, spambase, wilt, pima:
// [ValidationSources]) and of the synthetic replicate 1 are the validation
// set: fixed by data set and seed, not drawn per run, and reported
// separately, so that a change tuned on the other cases can be checked on
// cases it was not tuned on.
//
// # Determinism and cache
//
// Every random draw comes from a math/rand/v2 PCG stream seeded by hashing
// Options.Seed with the draw's role and the split's or case's name
// (SplitMix64 chained over the words): the split's rows, the model's
// training, evaluate's seed. Cases run in parallel (Options.Workers), each
// on one goroutine, and the result is sorted by case ID: the same numbers
// for any worker count (timings aside). A split's held-out scores, its
// labeled flags and true classes are cached on disk ([Cache]), keyed by
// the recipe (RecipeVersion, the seed, the split, the data set's
// fingerprint, the model's options), so a second run only evaluates.
package benchevaluate
