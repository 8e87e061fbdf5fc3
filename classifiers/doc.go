// Package classifiers turns a feature matrix and binary targets into one
// out-of-bag score per row: the univariate scores that
// the class-prior estimators and the metric recovery work on.
//
// # Contract
//
// A [Scorer] fits on [Data] (features as an n x d *mat.Dense, targets as
// []bool) and returns a
// [Result] with a score in [0, 1] per row, higher = more positive, each
// computed only by models that did not see the row. Scores are a
// deterministic function of (data, options, seed) and the numerics of the
// kernel that runs (nnet.KernelNumerics; option kernel "auto" picks the
// machine's fastest kernel of the float32x16 numerics, the same bits on
// every machine): bit-identical for any worker count, and, for one
// numerics, across builds and machines (no multiply-add is left for
// the compiler to fuse, see nnet). Bad data (NaN or infinite features, a
// single class, mismatched lengths) is an error, not a panic; a cancelled
// context stops the work and returns an error wrapping its cause.
//
// Classifiers are registered by name. A config loader takes the defaults
// with [Defaults](name), decodes the YAML options into them (strictly, with
// yaml.v3's KnownFields(true), so absent fields keep their defaults and
// unknown ones are errors), and calls New, which validates. [Config].Key is
// the canonical string of everything that can change the scores, for score
// caches; [KernelName] says which compute kernel a configuration runs.
//
// # nnet-bag
//
// The papers' "non-traditional classifier" (AAAI 2017, PSB 2019, and the
// AlphaMax code): a bag of B nets of package nnet. For net b = 0..B-1, with
// its own random stream PCG(NetSeed(seed, b)):
//
//  1. Bootstrap: n draws of a row index, uniformly with replacement. Rows
//     never drawn are the net's out-of-bag rows.
//  2. Validation (val_fraction, 0.25): with split "position" (the published
//     behaviour) the first round(0.25 n) draws are validation draws and the
//     rest training draws, so a row drawn several times may have both; the
//     draws are i.i.d., so this is exactly the published "random 25 % of the
//     positions" in distribution (TestPositionSplitDistribution). With split
//     "unique" a random round(0.25 u) of the u distinct drawn rows are
//     validation rows with all their draws.
//  3. Training: nnet.Trainer on the distinct drawn rows, each weighted by its
//     numbers of training and of validation draws (the same loss as
//     training on the duplicated rows, at about 63 % of the rows).
//  4. Prediction of the out-of-bag rows with the returned net: (y + 1)/2.
//
// The score of a row is the mean of its out-of-bag predictions; a row that
// was drawn by every net gets the mean score of the other rows. Nets are
// independent: workers take them from a queue, one net per goroutine at a
// time, and their predictions are summed in net order whatever order they
// finish in, which is why the worker count never changes a bit.
//
// Options (YAML field, default): bags 100; hidden 5 (PSB 2019: 7);
// max_epochs 500 (PSB 2019: 5000); max_fail 25; val_fraction 0.25; split
// position | unique; rprop {delta0 0.07, inc 1.2, dec 0.5, delta_max 50,
// min_grad 1e-5}; kernel auto | avx512 | avx2 | float32-go | scalar (nnet's
// epoch kernel; auto = the fastest float32x16 kernel here, scalar = float64); workers 0 = GOMAXPROCS (execution only,
// not in Key). Key names the kernel's numerics when they are not the scalar
// kernel's float64, so cached scores of one numerics are never served for
// another; KernelName says which kernel runs, for manifests and records.
//
// NetSeed(seed, b) is the (2b+1)-th and (2b+2)-th outputs of SplitMix64
// (Steele, Lea & Flood, OOPSLA 2014) started at seed, the two words of a
// math/rand/v2 PCG. Net b draws, in order: its bootstrap, its validation
// rows (split unique only), its initial weights.
//
// # gbdt and svm
//
// gbdt (type [GBDT], package classifiers/gbdt) is a histogram
// gradient-boosted tree ensemble with LightGBM's defaults, scoring each row
// by the model of a stratified k-fold split that did not train on it (the
// AUL paper's classifier). svm (type [SVM], package classifiers/svm) is a
// C-SVC with per-instance weights (biased SVM, Liu et al. 2003; or Elkan &
// Noto 2008's weighting), scoring out of fold likewise; it is also a
// [FoldScorer], so a protocol that owns its cross-validation folds (the
// PULP paper's) gets each fold scored by the model of the other folds. Its
// scores are the decision values mapped strictly increasingly into (0, 1).
package classifiers
