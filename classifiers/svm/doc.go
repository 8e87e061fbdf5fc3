// Package svm is a weighted C-support vector classifier (C-SVC) trained by
// sequential minimal optimisation with second-order working-set selection,
// the algorithm of LIBSVM (Chang & Lin 2011), implemented from its
// published description; with Platt scaling and the Elkan-Noto weighting
// for positive-unlabeled (PU) data. Package classifiers registers it as
// "svm" (the PULP paper's classifiers: Hajizadeh, Li, Dollevoet & Tax,
// S+SSPR 2014).
//
// # Problem
//
// Instance t is a point x_t (a row of the feature matrix), a label
// y_t in {+1, -1} and a weight w_t > 0, with the bound C_t = C w_t
// (LIBSVM's per-instance weights, scikit-learn's sample_weight). The dual
// problem solved is
//
//	min_a  1/2 a' Q a - e' a   s.t.  0 <= a_t <= C_t,  y' a = 0,
//	Q_ts = y_t y_s K(x_t, x_s),
//
// and the decision function is f(x) = sum_t a_t y_t K(x_t, x) + b. The
// kernels are linear, K(x, z) = x.z, and RBF, K(x, z) = exp(-gamma
// ||x - z||^2) with ||x - z||^2 = ||x||^2 + ||z||^2 - 2 x.z from
// precomputed squared norms (clamped at 0), as LIBSVM computes it;
// gamma = 0 asks for ScaleGamma, 1/(d var X) over the entries of the
// problem's distinct training rows (scikit-learn's gamma = "scale"; 1 when
// the variance is 0).
//
// # Solver
//
// The solver works with beta_t = y_t a_t, in which the problem reads
// min 1/2 beta' K beta - y' beta, sum beta = 0, L_t <= beta_t <= U_t with
// [L_t, U_t] = [0, C_t] (y_t = +1) or [-C_t, 0] (y_t = -1), and keeps
// F_t = y_t - (K beta)_t = -y_t G_t (G the gradient in a). With
// I_up = {t : beta_t < U_t} and I_low = {t : beta_t > L_t}, each step
// (the second-order selection WSS 2 of Fan, Chen & Lin, "Working set
// selection using second order information for training support vector
// machines", JMLR 6, 2005) picks
//
//	i = argmax { F_t : t in I_up },
//	j = argmin { -(F_i - F_t)^2 / a_it : t in I_low, F_t < F_i },
//	a_it = K_ii + K_tt - 2 K_it  (tau = 1e-12 when <= 0),
//
// ties to the lowest index, and moves beta_i += s, beta_j -= s with
// s = min((F_i - F_j)/a_ij, U_i - beta_i, beta_j - L_j), the exact
// minimiser of the objective on that line within the box (a clipped
// coefficient is set exactly to its bound); then F_k -= s (K_ki - K_kj)
// for all k. It stops when max_{I_up} F - min_{I_low} F <= eps
// (Params.Tol, LIBSVM's default 1e-3), at which point the KKT conditions
// hold to eps: y_t f(x_t) >= 1 - eps at a_t = 0, <= 1 + eps at a_t = C_t,
// within eps of 1 in between. An iteration bound (max(10^7, 100 n), as
// LIBSVM) ends a run that does not converge with Stop = "max-iter"
// instead of looping forever, and a step too small to change either
// coefficient (kernel values that dwarf the bounds) ends it with
// Stop = "stalled", since the same pair would be selected forever; the
// context is checked every 2,048 iterations.
//
// F is kept in two arrays, F_t or -Inf by membership of I_up and F_t or
// +Inf by membership of I_low, so that the selection loops test
// membership by the comparisons they make anyway. Shrinking
// (Params.Shrinking, on by default as in LIBSVM; Joachims 1999, Chang &
// Lin 2011): every min(n, 1000) iterations, the instances at a
// bound that are no part of a violating pair (at U_t with F_t > max_{I_up}
// F, at L_t with F_t < min_{I_low} F) leave the scans; their F is
// recomputed from beta (y_t - sum_l beta_l K_tl) and all are scanned again
// once, when the violation first drops below 10 eps, and whenever the
// active ones are optimal, the run going on until all are. The model is
// optimal to eps with or without it; with it, the bits can differ by the
// rounding of the recomputed F (in the tests, the selections and results
// were the same).
//
// The bias is LIBSVM's: b is the mean of F_t over the free instances
// (L_t < beta_t < U_t, where the KKT conditions give F_t = b); without
// any, the midpoint of [max F_t over beta_t = L_t, min F_t over
// beta_t = U_t], the interval the bounded instances allow.
//
// # Kernel rows
//
// The solver reads kernel rows K(x_p, .) over the distinct points (a row of
// X used by several instances, as Elkan-Noto's duplicates are, is one
// point), from a cache that keeps the most recently used rows within a
// byte budget (Params.CacheBytes, 200 MB by default: the full matrix of
// the PULP paper's ~2,000-row training sets fits) and evicts the least
// recently used, like LIBSVM's. A new row of densely stored points copies
// the entries K(x_q, x_p) of the rows already cached (exact, by symmetry)
// and computes the rest; with sparse storage, computing a whole row is
// cheaper than those scattered reads (a cache and TLB miss each).
//
// Points are stored densely, or sparsely (index/value lists plus the same
// nonzeros by column) when fewer than 40 % of the entries are nonzero
// (SparseDensity; Params.Storage can force either). A sparse row of dot
// products is computed through the columns of the nonzeros of x_p, costing
// the nonzero products (about n d rho^2 at density rho) rather than n
// times a row's nonzeros; a dense row computes eight dot products at a
// time, each a sequential sum, for instruction-level parallelism.
//
// # Determinism
//
// Every dot product, in either storage and in either argument order, sums
// the nonzero products x_k z_k in increasing k with one float64
// accumulator (dense loops add the zero products, which cannot change a
// float64 sum): dense and sparse storage, any cache size and any order of
// row requests give bit-identical kernel values, hence bit-identical
// models. Products are rounded before they are added (explicit float64
// conversions forbid fused multiply-adds), and the exponentials of the RBF
// kernel and of Platt scaling use a portable exp (fdlibm's algorithm,
// within 1 ulp) instead of math.Exp, whose amd64 assembly differs from
// other platforms in the last bit: a model has the same bits on every
// platform. Training is sequential, so GOMAXPROCS never changes a bit.
//
// # Platt scaling
//
// FitPlatt fits P(y = +1 | f) = 1/(1 + exp(A f + B)) to decision values
// (Platt, "Probabilistic outputs for support vector machines", 1999) with
// the improvements of Lin, Lin & Weng ("A note on Platt's probabilistic
// outputs for support vector machines", Machine Learning 68, 2007): the
// targets are smoothed to (N+ + 1)/(N+ + 2) for positives and 1/(N- + 2)
// for negatives, the cross-entropy is evaluated without overflow, and it
// is minimised by Newton's method with the Hessian regularised by
// 1e-12 I and a backtracking line search (sufficient decrease 1e-4, step
// halved down to 1e-10), from A = 0, B = log((N- + 1)/(N+ + 1)), until
// both gradient components are below 1e-5 (at most 100 iterations).
// PlattCV fits one sigmoid to the cross-validated (held-out) decision
// values of all instances, as LIBSVM's probability estimates do.
//
// # Elkan-Noto weighting
//
// Elkan & Noto ("Learning classifiers from only positive and unlabeled
// data", KDD 2008, Sec. 3) train on PU data as follows, s = 1 meaning
// labeled. A first classifier estimates g(x) = P(s = 1 | x): here a
// Platt-scaled linear SVM of labeled versus unlabeled rows (unit weights,
// the configured C), each row's g from a model that did not train on it
// (PlattCV over inner folds). c = P(s = 1 | y = 1) is estimated by their
// e1, the mean of g over the labeled rows (ElkanNotoC). Each labeled row
// is then a positive of weight 1, and each unlabeled row is duplicated:
// a positive of weight w = P(y = 1 | x, s = 0) = ((1 - c)/c) g/(1 - g)
// and a negative of weight 1 - w (ElkanNotoProblem); the final SVM trains
// on these weighted instances (C_t = C w_t). Choices the paper leaves
// open: w is clamped into [0, 1] (the formula exceeds 1 when g > c, which
// only an estimation error allows); g >= 1 is taken as the limit w = 1
// (no division by 1 - g = 0), g <= 0 and c >= 1 as w = 0; a duplicate of
// weight 0 is dropped, since a bound C_t = 0 would pin its coefficient at
// 0 anyway (ElkanNotoWeight).
//
// # Scores
//
// Decision values are unbounded; UnitScore maps them onto [0, 1] by
// s = 1/2 + f/(2 (1 + |f|)), a strictly increasing bijection of the reals
// onto (0, 1) with an exact closed-form inverse (UnitScoreInverse), whose
// float64 evaluation never inverts an order and keeps decision values
// apart down to about 1e-16 near 0 and 1e-12 near 100 (the logistic
// function rounds every f above about 37 to 1), so rankings and ties are
// those of the decision values.
//
// # References
//
//   - C.-C. Chang, C.-J. Lin. LIBSVM: a library for support vector
//     machines. ACM TIST 2(3), 2011 (the decomposition method, its
//     two-variable step, the bias, shrinking and caching).
//   - R.-E. Fan, P.-H. Chen, C.-J. Lin. Working set selection using second
//     order information for training support vector machines. JMLR 6,
//     1889-1918, 2005.
//   - T. Joachims. Making large-scale SVM learning practical. In Advances
//     in Kernel Methods, MIT Press, 1999 (shrinking).
//   - J. Platt. Probabilistic outputs for support vector machines and
//     comparisons to regularized likelihood methods. In Advances in Large
//     Margin Classifiers, MIT Press, 1999.
//   - H.-T. Lin, C.-J. Lin, R. C. Weng. A note on Platt's probabilistic
//     outputs for support vector machines. Machine Learning 68, 267-276,
//     2007.
//   - C. Elkan, K. Noto. Learning classifiers from only positive and
//     unlabeled data. KDD 2008, 213-220.
//   - B. Liu, Y. Dai, X. Li, W. S. Lee, P. S. Yu. Building text classifiers
//     using positive and unlabeled examples. ICDM 2003 (the biased SVM).
//   - S. Hajizadeh, Z. Li, R. Dollevoet, D. Tax. Evaluating classification
//     performance with only positive and unlabeled samples. S+SSPR 2014,
//     LNCS 8621, 233-242 (PULP).
package svm
