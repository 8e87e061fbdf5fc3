// Package kernelauc fits the two kernel ranking models of Figure 3 of "AUL
// is a better optimization metric in PU learning" (ICLR 2021 submission,
// OpenReview 2NU7a9AHo-6): PU_AUC, the squared-loss PU AUC optimisation of
// Sakai, Niu and Sugiyama (2018), and PU_AUL, the AUL paper's analogue that
// needs no class prior. This package implements them from the papers and
// the published code's behaviour as summarised below.
//
// # Model
//
// Both learners fit a linear-in-parameters Gaussian-basis model
//
//	f(x) = sum_{l=1..b} w_l exp(-||z(x) - c_l||^2 / (2 sigma^2)),
//
// with b = min(200, n) centres c_l drawn without replacement from the n =
// n_L + n_U training rows (labeled and unlabeled alike, as pywsl's MATLAB
// PNU_AUC_SL.m; pywsl-Python draws them from U only).
//
// Features: z(x) is the z-score of x with the mean and population standard
// deviation (ddof 0) of the n training rows, computed inside the fit and
// stored in the model (constant columns are centred only); Score and
// ScoreAll take raw features. Options.Raw turns this off (z(x) = x). The
// published code uses the features as given; the default width grid is
// relative (below), so the z-score only matters for features of unequal
// scales (Spambase, Abalone, ...), where it keeps one column from
// dominating the distances.
//
// Write k_i for the b-vector of basis values of training row i, and for a
// set X of rows H_X = (1/n_X) sum_{i in X} k_i k_i' and m_X = (1/n_X)
// sum_{i in X} k_i.
//
// PU_AUC (Sakai et al. 2018, eta = 1). With U a mixture theta P + (1 -
// theta) N, the PN pairwise risk is R = (R_PU - theta R_PP)/(1 - theta).
// With the squared pair loss l(m) = (1 - m)^2 on m = f(x_p) - f(x') and
// the empirical pair means (all n_P n_U P-U pairs; all n_P^2 P-P pairs),
// the regularised objective
//
//	[mean_{p,u} (1 - w'(k_p - k_u))^2 - theta mean_{p,p'} (1 - w'(k_p - k_p'))^2]/(1 - theta) + lambda ||w||^2
//
// is, up to a constant, w'Hw - 2 w'h + lambda w'w with
//
//	Kpu = H_P - m_P m_U' - m_U m_P' + H_U,   Kpp = 2 H_P - 2 m_P m_P',
//	H = (Kpu - theta Kpp)/(1 - theta),       h = (m_P - m_U)/(1 - theta),
//	w = (H + lambda I)^-1 h.
//
// theta is the class prior of U (alpha_U in the AUL paper), given by the
// caller (an MPE estimate in Figure 3). H can be indefinite (the -theta Kpp
// term), so the system is solved by Cholesky when H + lambda I is positive
// definite and by LU with partial pivoting otherwise.
//
// PU_AUL. The squared loss over the pairs (i in L, j in A = L u U), self
// pairs included (they add a constant):
//
//	(1/(n_L n)) sum_{i in L, j in A} (1 - w'(k_i - k_j))^2 + lambda ||w||^2,
//	C = H_L - m_L m_A' - m_A m_L' + H_A,   w = (C + lambda I)^-1 (m_L - m_A).
//
// C is positive semi-definite, so Cholesky always succeeds.
//
// # Model selection
//
// Grids: sigma in sqrt(median squared distance) x logspace(-1, 1, 11)
// (pywsl-Python's heuristic; the median is numpy's, over all n x b
// squared distances between the standardised training rows and the
// centres, zeros of a row with itself included; pywsl-Python takes the U
// rows only), or an absolute grid through Options.Sigmas (MATLAB's default
// is logspace(-3, 1, 10), meant for standardised features); lambda in
// logspace(-3, 1, 10). K-fold cross-validation (K = 5): the labeled and the
// unlabeled rows are each split into K folds of sizes differing by at most
// one (the i-th row of a random permutation goes to fold floor(i K/n_X)).
// For each (sigma, fold) the sums of k_i k_i' and k_i over each fold are
// formed once (a b x b rank-update per fold) and the training part is the
// sum of the other folds' (no per-lambda pass over the rows). Held-out
// criteria, averaged over folds as MATLAB's score_table += loss/n_fold:
//
//	PU_AUC: (lpu - theta lpp + theta/(2(n_p - 1)))/(1 - theta), minimised,
//	        lpu = mean 0-1 loss of g_p - g_u over P x U,
//	        lpp = sum of the 0-1 loss of g_p - g_p' over all P x P pairs / (n_p (n_p - 1)),
//	        0-1 loss (1 - sign(m))/2, 1/2 at m = 0 (pywsl MATLAB calc_loss);
//	PU_AUL: AUL^PU of the held-out rows (labeled against labeled and
//	        unlabeled, self pairs 1/2; the AUL paper's Eq. 4), maximised.
//
// Pair losses are counted exactly in O(n log n) by sorting (integers of
// half-pairs, one rounding per quotient). Two identities worth knowing: the
// P x P sum is always n_p^2/2 (each distinct pair contributes 1 in its two
// orders, each self pair 1/2), so the PU_AUC criterion is exactly (lpu -
// theta/2)/(1 - theta), a decreasing affine map of the held-out AUC^PU
// (L vs U) whatever theta; and AUL^PU = c/2 + (1 - c) AUC^PU with c =
// n_L/n. Both learners therefore select by the
// held-out L-vs-U AUC (weighted across folds slightly differently); they
// differ in their training objectives only. The first best pair wins in
// MATLAB's column-major order of the (sigma, lambda) table (lambda outer,
// sigma inner); values equal as rationals round alike, values that differ
// in rounding only are ordered by their floating-point values, as in
// MATLAB. A (sigma, lambda, fold) whose system is singular to working
// precision makes that pair's criterion NaN (never selected). With a
// single (sigma, lambda) pair no cross-validation is run. The model is then
// refitted on all rows with the selected pair.
//
// CV needs at least 2 labeled rows per held-out fold (lpp divides by n_p -
// 1): n_L >= 2K, and n_U >= K; fits with fewer return an error.
//
// Observed behaviour (tests, notes): the squared pairwise loss with a large
// lambda gives w ~ h/lambda, the kernel mean difference m_P - m_U (PU_AUC,
// scaled by 1/(1 - theta)) or m_L - m_A (PU_AUL, proportional to m_L -
// m_U): a ranking that does not depend on the prior at all. The CV often
// selects lambda at or near the top of the grid, so a wrong prior costs
// PU_AUC little there; with a small lambda an overestimated prior hurts
// (TestWrongPriorSmallLambda: AUC 0.93 -> 0.80 on 2-D Gaussians). With few
// labeled rows (n_L ~ 40, 8 per held-out fold) the CV criterion is noisy and
// can select a width far too small.
//
// # Comparing the learners on folds
//
// CompareOnFolds runs the protocol of the AUL paper's Figure 3 on one PN
// data set: stratified K-fold train/test
// (K = 5); on each training part a SCAR PU set with n_L = round(beta n_P)
// labeled positives (beta = 0.1) and every other training row unlabeled;
// PU_AUC with the prior from the caller (a fixed value or a PriorFunc, e.g.
// the best MPE of Table 1 run on that split) and PU_AUL, both with the same
// centres and inner folds; the test AUC of each against the true labels of
// the held-out fold; the mean over folds. Fit times are wall times of the
// whole cross-validated fit; an MPE's time (PriorFunc) is reported apart.
//
// # Determinism
//
// All randomness comes from the caller's math/rand/v2 stream, in the order
// centres (partial Fisher-Yates), labeled folds, unlabeled folds
// (permutations). Options.Workers spreads the width grid over goroutines;
// each width fills its own row of the CV table, so results are the same
// bits for any worker count. The linear algebra (the Gram matrices K'K, the
// Cholesky and LU solves, the products K w; internal/linalg) is written out with
// every sum in a fixed order and every product rounded before it is added,
// and the kernel's exponentials are internal/portmath's, so the results
// are also the same bits on every CPU and architecture (TestGoldenBits,
// run under qemu-aarch64 and emulated amd64 CPUs by make test-cross).
// (gonum's BLAS and LAPACK sum in the order of their amd64 assembly there
// and in another, with fused multiply-adds, on arm64.)
//
// # References
//
//   - T. Sakai, G. Niu, M. Sugiyama. Semi-supervised AUC optimization based
//     on positive-unlabeled learning. Machine Learning 107(4):767-794, 2018.
//   - "AUL is a better optimization metric in PU learning", ICLR 2021
//     submission (OpenReview 2NU7a9AHo-6), Section 4.3
//     and Figure 3.
//   - pywsl (t-sakai-kure/pywsl), MATLAB PNU-AUC/PNU_AUC_SL.m and
//     pywsl/ssl/pnu_auc.py: behaviour (grids, fold labels, CV criterion)
//     as summarised above; no code is taken from it.
package kernelauc
