// Package pusplit draws positive-unlabeled (PU) splits of a fully labeled data
// set, following the sampling protocols of the papers.
// A split is a pair of index sets into the data set: the labeled set L (all
// labeled positive, of which a fraction beta truly is) and the unlabeled set
// U (of which a fraction alpha truly is positive). All sampling is without
// replacement and driven by the rng the caller passes, which the runner
// derives from (experiment seed, data set, grid point, repeat).
//
// aaai2017 (Jain, White, Radivojac, AAAI 2017, "Experimental protocols"; noisy
// case-control): L has n_L examples, round(beta*n_L) of them positive and the
// rest negative; every remaining example is unlabeled, subsampled uniformly
// to at most maxUnlabeled (10,000 in the paper). The true alpha is the
// fraction of positives in the drawn U, so alpha = (n1 - beta*n_L)/(n - n_L)
// in expectation.
//
// psb2019 (Ramola, Jain, Radivojac, PSB 2019, section 3; stratified): L has
// round(beta*n_l) positives and n_l - round(beta*n_l) negatives; alpha is the
// fraction of positives among the examples left after drawing L; U has
// round(alpha*n_u) of the remaining positives and n_u - round(alpha*n_u) of
// the remaining negatives. The paper sets n_u = 10,000 where the data set is
// large enough, else 5,000, 2,000 or 1,000, and n_l = n_u/10 ([PSBSizes]).
//
// Index sets are returned sorted ascending, so a split is a canonical value
// that can be hashed (the score cache keys on it) and does not depend on the
// order in which the sampler happened to draw.
package pusplit
