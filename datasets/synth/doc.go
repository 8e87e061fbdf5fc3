// Package synth draws synthetic positive-unlabeled samples with known class
// prior and label noise, for tests, the estimator studies and the analytic
// figures.
//
// A PU sample has a labeled set of nL examples
// of which round(beta*nL) are positive, and an unlabeled set of nU examples of
// which round(alpha*nU) are positive; positives are drawn from the positive
// component f1, negatives from f0. Fixing the counts (rather than drawing them
// binomially) makes the true alpha and beta of a sample exact, which is what
// a test of an estimator wants to compare against.
//
// For univariate Gaussian components the AUC of the score itself is known in
// closed form: AUC = Phi((mu1 - mu0) / sqrt(s1^2 + s0^2)) (the probability that
// a positive scores above a negative), see [GaussianAUC].
//
// Two generators feed experiments that need no downloaded data: [Ranking]
// draws ready-made scores with their labels (a ranking, for simulations
// that need no classifier), and [Gaussian] draws a feature matrix of two
// Gaussian classes in d dimensions whose means differ by a vector of length
// separation, so that the Bayes-optimal AUC is Phi(separation/sqrt 2)
// whatever d.
package synth
