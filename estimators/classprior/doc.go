// Package classprior estimates the class prior and the label noise of a
// positive-unlabeled (PU) sample from univariate scores: AlphaMax (Jain,
// White, Trosset, Radivojac, "Nonparametric semi-supervised learning of class
// proportions", arXiv:1601.01944, 2016) and AlphaMax-N (Jain, White,
// Radivojac, "Estimating the class prior and posterior from noisy positives
// and unlabeled data", NIPS 2016), as the published MATLAB code computes
// them, with the per-alpha optimisation solved exactly and a better knee rule
// by default; and, as an option (Options.Scale "rank", what the practitioner
// commands run), on a rank scale where the estimate is the same for any
// strictly increasing transform of the scores and does not drift as the
// samples grow.
//
// # What is estimated
//
// The unlabeled sample U is drawn from alpha f1 + (1 - alpha) f0 and the
// labeled sample L from beta f1 + (1 - beta) f0, f1 and f0 the score
// densities of positives and negatives: alpha is the fraction of positives
// among the unlabeled, beta among the labeled (beta = 1: clean labels). Only
// the largest proportion of one distribution inside another is identifiable,
// so AlphaMax estimates alpha+ = max{a : U = a L + (1 - a) H for some
// distribution H}, which is alpha/beta under the irreducibility assumptions
// of the papers, and
// AlphaMax-N runs it twice with the roles swapped:
//
//	run 1, U as mixture, L as component: au    = alpha/beta
//	run 2, L as mixture, U as component: kappa = (1 - beta)/(1 - alpha),  al = 1 - kappa
//	alpha = au al / (1 - au (1 - al)),    beta = al / (1 - au (1 - al))
//
// (plugging in the ideal run results returns alpha and beta exactly).
// "alphamax" returns run 1 as alpha and beta = 1; "alphamax-n" both.
//
// # Registry
//
// Estimators are registered by name, with the pattern of
// classifiers.Config: [Defaults](name) returns the estimator's option struct
// ([AlphaMax], [AlphaMaxN]: [Options] inlined) ready to decode YAML into,
// [Config].Validate reports every bad option, New builds the [Estimator],
// and Key is the canonical string of everything that can change the
// estimate, for caches of estimates. An estimator reads an [Input]: the
// univariate scores of the labeled and the unlabeled examples, and their
// feature rows for estimators whose Config is a [FeatureReader] (kernel
// mixture proportion estimators; the AlphaMax family reads scores only).
// Estimate takes a context and stops with its cause when it is cancelled.
// [Recommended](name) is Defaults with the choices the practitioner commands
// (evaluate, estimate, correct) make: the rank scale for the AlphaMax
// family. The registry defaults keep the published raw scale, which the
// paper reproductions run (their configs name alphamax-n without options)
// and which their published numbers were made on.
//
// # One AlphaMax run
//
// Histogram (densEst_hist): the bin width w is the one MATLAB's histogram()
// picks for the component sample: Scott's rule 3.5 std/n1^(1/3) (std with
// n - 1) rounded by binpicker to {1, 2, 3, 5, 10} 10^k (relative size below
// 1.5, 2.5, 4, 7.5), or 1 for integer data spanning at most 50. The edges are
// xmin + k w, k = 0..K, over the range of both samples (MATLAB's
// xmin:w:(xmax+w)), and bin k is the closed interval [e_k, e_k+1]: a score
// exactly on an interior edge lies in both neighbours. Mixture weights a_k
// and component weights p_k are the published EM fit of the fixed uniform
// components (relative frequencies when no score lies on an edge).
//
// Shifted histograms (option shifts, default 1): with shifts s > 1 the run is
// made on s histograms of the same width whose edges start j w/s below xmin,
// j = 0..s-1 (averaged shifted histograms, Scott 1985), each with its own
// curve and knee, and the run returns the mean of their estimates. Where the
// edges fall is arbitrary, and on scores piled in a few bins it moves the
// estimate; the mean removes that part of the variance. Curve reports origin
// 0 (the published histogram) and each origin's estimate.
//
// Likelihood per alpha (compute_llCurve with the 'combined2' objective):
// weights 0 <= beta_k <= 1 split the mixture histogram into a component part
// h1 = sum beta_k a_k U_k / alpha and a remainder h0 = sum (1 - beta_k) a_k U_k
// / (1 - alpha), and the model of the mixture is alpha p + (1 - alpha) h0. On
// the constraint sum_k a_k beta_k = alpha the published objective is, up to
// constants,
//
//	maximise  sum_k c_k log(beta_k) + d_k log(a_k (1 - beta_k) + alpha p_k),
//
// c_k the component's and d_k the mixture's share of bin k over n1 and n.
// It is separable and concave with one linear constraint, so the
// Karush-Kuhn-Tucker conditions give each beta_k in closed form (a root of
// lam u^2 - (c + d + lam A) u + c A = 0, u = a beta, A = a + alpha p, clipped
// to [0, 1]) for a multiplier lam, and sum a_k beta_k(lam) falls
// monotonically in lam: a bracketed Newton search on lam solves the problem
// to rounding, with no general optimiser (the published code calls fmincon
// and, when it fails, silently reuses the previous point). A score on a bin
// edge puts log(u_k + u_k+1) in the objective and couples the two bins;
// minorise-maximise steps (split each such point in proportion to the
// current densities, solve the separable problem), accelerated by SQUAREM
// (Varadhan and Roland 2008), climb to the maximum of the concave problem.
// The curve records the published ll_cmb2 value
//
//	(1/n1) sum_{x in L} log max(h1(x), 1e-14) + (1/n) sum_{x in U} log(alpha p(x) + (1 - alpha) max(h0(x), 1e-14))
//
// and the published monotone correction raises each value to the largest
// value at any larger alpha. Deviations, all confined to rounding or to
// cases the published code does not handle better: the 1e-5 floors inside
// the published objective are left out (they bind only where a density
// falls below 1e-5, and they make the problem non-concave), and so are bins
// whose EM weight is below 1e-12 (a bin holding only edge points loses its
// weight geometrically, to 1e-297; its densities lie far below that floor);
// edges are xmin + k w rather than MATLAB's colon arithmetic, which can
// differ in the last bit and matters only for a score exactly on an edge.
// An independent SLSQP solution of the point-level problem
// (testdata/oracle.py) agrees to 1e-11.
//
// # Knee rules
//
// The estimate is the alpha where the -loglik curve bends upwards. Grid:
// 0.01, 0.02, ..., 0.99 (published), configurable. Every rule first smooths
// the curve (each value becomes the median of its 5 nearest grid neighbours)
// and maps it onto [0, 1].
//
//   - "published": inflectionScript. For each grid index j from 10 to n-10,
//     least-squares lines are fitted to the 10 points right of j and the 10
//     points up to j, each constrained to lie on or below every point of the
//     curve and to slope at least (f_n - f_1)/(alpha_n - alpha_1)/100; the
//     score is (right slope - left slope)/(median of the left window + 0.01)
//     and alpha* is the grid value of the first maximal score, scores outside
//     the loop counting as 0. The published code computes the left fit only
//     for j < 20 and reuses that stale slope (window 0.10..0.19) afterwards;
//     this rule does the same. The constrained fits are solved exactly (the
//     optimum of a two-variable strictly convex problem lies on one of few
//     active sets of the lower convex hull), where the published code calls
//     quadprog. On the default grid this rule can only return 0.01 or a value
//     in [0.10, 0.89], so with clean labels kappa lands on 0.10 or on a late
//     bend: use it to compare with published numbers only.
//   - "fixed": the same with each j's own left window, as evidently intended.
//   - "concave-start" (the rule pueval's design proposed): "fixed" on a
//     grid with 7 log-spaced points from 0.001 to 0.0072 added (the geometric
//     progression continues into 0.01), returning the lowest grid value when
//     the curve is concave from its start, defined here as: the average slope
//     from the first grid point to 0.1 exceeds the average slope from 0.1 to
//     the knee. That is the shape of the second run with clean labels
//     (kappa = 0): the curve rises fastest right away, the fitted lines, which
//     must stay below the whole curve, cannot follow, and the knee lands on
//     the bend near alpha = 1.
//   - "blend" (default): the mean of the "concave-start" value and the
//     largest grid alpha whose corrected log-likelihood lies within
//     drop_tau (1/n + 1/n1) of its value at the first grid point (drop_tau 2
//     by default; n, n1 the mixture and component sizes, the scale of a
//     log-likelihood ratio of sample means). The knee rules overshoot a soft
//     bend; the likelihood-drop rule errs differently, and their mean is
//     better than either. The rule and drop_tau were chosen on the study
//     below; on 90 held-out cells (five other mixture families, other seeds:
//     go test -run TestHeldOutStudy -heldout) it still lowers the mean
//     absolute error of beta - alpha from .071 ("concave-start") to .055
//     and of alpha from .076 to .068 ("fixed": .135 and .076; "published":
//     .148 and .082). drop_tau from 1.5 to 2.5 moved both means by at most
//     .004 in the exploration.
//   - "drop" (default on the rank scale): the alpha at which the corrected
//     log-likelihood falls (drop_tau + ln(K/5)) (1/n + 1/n1) below its
//     value at the first grid point, K the number of bins holding a score
//     (the logarithm only for K > 5; drop_tau 0.5 by default), placed
//     between the two grid points that bracket it by 10 bisection steps
//     on the per-alpha maximum (to 2^-10 of the grid step: the grid alone
//     rounds to 0.01, more than the rule's error at 10^6 scores). See "The
//     rank scale" for why the tolerance grows with ln K.
//
// # Synthetic study
//
// TestSyntheticStudy draws, per cell, 20 PU samples with n_U = 10,000 from
// N(2,1) positives vs N(0,1) negatives and from Beta(5,2) vs Beta(2,5)
// (datasets/synth: exact alpha, beta), runs AlphaMax-N, and reports the mean
// absolute error of alpha-hat (a) and of beta-hat - alpha-hat (b-a) for each
// rule of the raw scale (c-start: concave-start, publ.: published), for the
// default rule on four shifted histograms with drop_tau 2, 1.5 and 0.75 (s4,
// s4t1.5, s4t.75: the candidates of the study on real scores below), and for
// the rank scale with its defaults (rank: the drop rule, drop_tau 0.5); the
// last rows are the well-separated acceptance cases (N(4,1) vs N(0,1), clean
// labels). It runs in full in every go test (about 15 s of CPU) and checks
// that the default has the smallest mean errors of the four rules, that s4
// lowers both means further (all 36 cells, and the well-separated ones),
// that the published rule keeps its weakness (its kappa always in {0.01} or
// [0.10, 0.89], its clean-label error of beta - alpha more than twice the
// default's), that the default's and the rank scale's beta-hat are within
// 0.05 of 1 in every well-separated sample, that the rank scale's mean
// error of alpha is below the default's (all 36 cells, and the
// well-separated ones) and its mean error of beta - alpha within 0.005 of
// the default's, and (on amd64, where it was generated) that this table is
// current; go test -run TestSyntheticStudy -update regenerates it (-short
// runs 4 repeats and skips the table and the s4 and rank claims). On the 90
// held-out cells (go test -run TestHeldOutStudy -heldout, which checks the
// s4 and rank claims there) the means of a and b-a are .068 and .055
// (blend), .064 and .051 (s4), .062 and .050 (s4t1.5), .059 and .051
// (s4t.75), .050 and .050 (rank).
//
//	family          n_L beta alph | blend       | c-start     | fixed       | publ.       | s4          | s4t1.5      | s4t.75      | rank
//	                              | a     b-a   | a     b-a   | a     b-a   | a     b-a   | a     b-a   | a     b-a   | a     b-a   | a     b-a
//	N(2,1)|N(0,1)   100 1.00 0.05 | 0.017 0.055 | 0.017 0.056 | 0.041 0.134 | 0.041 0.134 | 0.017 0.055 | 0.015 0.047 | 0.013 0.033 | 0.025 0.063
//	N(2,1)|N(0,1)   100 1.00 0.25 | 0.053 0.071 | 0.059 0.076 | 0.052 0.090 | 0.062 0.110 | 0.045 0.063 | 0.044 0.057 | 0.045 0.050 | 0.042 0.073
//	N(2,1)|N(0,1)   100 1.00 0.50 | 0.065 0.074 | 0.088 0.090 | 0.079 0.098 | 0.114 0.147 | 0.051 0.063 | 0.050 0.057 | 0.049 0.048 | 0.057 0.055
//	N(2,1)|N(0,1)   100 0.95 0.05 | 0.026 0.051 | 0.023 0.062 | 0.042 0.093 | 0.042 0.096 | 0.027 0.048 | 0.024 0.038 | 0.020 0.024 | 0.021 0.026
//	N(2,1)|N(0,1)   100 0.95 0.25 | 0.063 0.075 | 0.062 0.072 | 0.053 0.093 | 0.055 0.109 | 0.054 0.052 | 0.050 0.045 | 0.046 0.038 | 0.040 0.051
//	N(2,1)|N(0,1)   100 0.95 0.50 | 0.082 0.066 | 0.087 0.065 | 0.061 0.085 | 0.096 0.131 | 0.084 0.069 | 0.080 0.063 | 0.069 0.056 | 0.062 0.073
//	N(2,1)|N(0,1)   100 0.75 0.05 | 0.052 0.076 | 0.045 0.093 | 0.049 0.061 | 0.044 0.070 | 0.045 0.066 | 0.043 0.079 | 0.038 0.108 | 0.048 0.072
//	N(2,1)|N(0,1)   100 0.75 0.25 | 0.140 0.082 | 0.129 0.118 | 0.089 0.076 | 0.092 0.074 | 0.121 0.055 | 0.117 0.064 | 0.109 0.088 | 0.089 0.053
//	N(2,1)|N(0,1)   100 0.75 0.50 | 0.182 0.096 | 0.196 0.158 | 0.173 0.112 | 0.207 0.093 | 0.139 0.100 | 0.133 0.113 | 0.126 0.150 | 0.127 0.052
//	N(2,1)|N(0,1)  1000 1.00 0.05 | 0.014 0.032 | 0.028 0.059 | 0.039 0.264 | 0.039 0.265 | 0.014 0.033 | 0.013 0.032 | 0.012 0.028 | 0.014 0.028
//	N(2,1)|N(0,1)  1000 1.00 0.25 | 0.027 0.035 | 0.054 0.078 | 0.053 0.182 | 0.071 0.209 | 0.021 0.033 | 0.020 0.028 | 0.023 0.022 | 0.021 0.036
//	N(2,1)|N(0,1)  1000 1.00 0.50 | 0.044 0.046 | 0.066 0.085 | 0.060 0.109 | 0.073 0.120 | 0.037 0.040 | 0.041 0.041 | 0.047 0.045 | 0.023 0.030
//	N(2,1)|N(0,1)  1000 0.95 0.05 | 0.013 0.015 | 0.026 0.037 | 0.041 0.082 | 0.041 0.082 | 0.011 0.010 | 0.010 0.010 | 0.007 0.010 | 0.014 0.009
//	N(2,1)|N(0,1)  1000 0.95 0.25 | 0.032 0.023 | 0.050 0.054 | 0.042 0.071 | 0.059 0.086 | 0.027 0.020 | 0.024 0.018 | 0.020 0.019 | 0.022 0.016
//	N(2,1)|N(0,1)  1000 0.95 0.50 | 0.026 0.021 | 0.069 0.063 | 0.065 0.065 | 0.073 0.073 | 0.026 0.021 | 0.029 0.025 | 0.041 0.046 | 0.031 0.030
//	N(2,1)|N(0,1)  1000 0.75 0.05 | 0.016 0.027 | 0.020 0.052 | 0.026 0.055 | 0.023 0.073 | 0.014 0.031 | 0.013 0.036 | 0.012 0.054 | 0.016 0.032
//	N(2,1)|N(0,1)  1000 0.75 0.25 | 0.048 0.032 | 0.051 0.054 | 0.051 0.054 | 0.056 0.071 | 0.044 0.030 | 0.042 0.031 | 0.040 0.041 | 0.037 0.028
//	N(2,1)|N(0,1)  1000 0.75 0.50 | 0.083 0.036 | 0.105 0.040 | 0.111 0.039 | 0.101 0.038 | 0.076 0.036 | 0.075 0.043 | 0.072 0.068 | 0.050 0.026
//	B(5,2)|B(2,5)   100 1.00 0.05 | 0.012 0.033 | 0.014 0.029 | 0.041 0.132 | 0.041 0.132 | 0.012 0.033 | 0.012 0.028 | 0.011 0.021 | 0.011 0.038
//	B(5,2)|B(2,5)   100 1.00 0.25 | 0.032 0.053 | 0.034 0.052 | 0.026 0.087 | 0.026 0.096 | 0.033 0.056 | 0.031 0.050 | 0.026 0.038 | 0.030 0.040
//	B(5,2)|B(2,5)   100 1.00 0.50 | 0.051 0.055 | 0.058 0.060 | 0.058 0.067 | 0.059 0.085 | 0.039 0.048 | 0.039 0.046 | 0.041 0.043 | 0.052 0.040
//	B(5,2)|B(2,5)   100 0.95 0.05 | 0.013 0.021 | 0.016 0.030 | 0.041 0.083 | 0.041 0.083 | 0.011 0.017 | 0.011 0.017 | 0.010 0.020 | 0.014 0.012
//	B(5,2)|B(2,5)   100 0.95 0.25 | 0.043 0.034 | 0.040 0.029 | 0.029 0.055 | 0.037 0.065 | 0.036 0.026 | 0.034 0.022 | 0.028 0.018 | 0.024 0.022
//	B(5,2)|B(2,5)   100 0.95 0.50 | 0.054 0.047 | 0.059 0.052 | 0.058 0.052 | 0.045 0.050 | 0.045 0.040 | 0.045 0.038 | 0.044 0.038 | 0.039 0.037
//	B(5,2)|B(2,5)   100 0.75 0.05 | 0.032 0.084 | 0.031 0.084 | 0.041 0.065 | 0.039 0.061 | 0.028 0.087 | 0.027 0.097 | 0.024 0.121 | 0.021 0.118
//	B(5,2)|B(2,5)   100 0.75 0.25 | 0.120 0.054 | 0.106 0.074 | 0.084 0.037 | 0.082 0.033 | 0.114 0.045 | 0.112 0.054 | 0.107 0.076 | 0.080 0.060
//	B(5,2)|B(2,5)   100 0.75 0.50 | 0.130 0.056 | 0.112 0.078 | 0.116 0.064 | 0.137 0.064 | 0.131 0.051 | 0.126 0.056 | 0.118 0.066 | 0.081 0.068
//	B(5,2)|B(2,5)  1000 1.00 0.05 | 0.006 0.017 | 0.007 0.030 | 0.034 0.698 | 0.034 0.735 | 0.006 0.017 | 0.006 0.016 | 0.006 0.013 | 0.006 0.011
//	B(5,2)|B(2,5)  1000 1.00 0.25 | 0.019 0.032 | 0.036 0.057 | 0.111 0.370 | 0.112 0.374 | 0.017 0.031 | 0.015 0.028 | 0.012 0.021 | 0.013 0.011
//	B(5,2)|B(2,5)  1000 1.00 0.50 | 0.020 0.029 | 0.041 0.055 | 0.092 0.124 | 0.098 0.131 | 0.021 0.029 | 0.019 0.026 | 0.018 0.021 | 0.029 0.026
//	B(5,2)|B(2,5)  1000 0.95 0.05 | 0.005 0.015 | 0.008 0.011 | 0.041 0.082 | 0.041 0.082 | 0.005 0.012 | 0.005 0.014 | 0.005 0.017 | 0.005 0.020
//	B(5,2)|B(2,5)  1000 0.95 0.25 | 0.025 0.016 | 0.043 0.034 | 0.034 0.055 | 0.042 0.063 | 0.025 0.014 | 0.022 0.014 | 0.020 0.016 | 0.017 0.019
//	B(5,2)|B(2,5)  1000 0.95 0.50 | 0.033 0.026 | 0.052 0.045 | 0.048 0.048 | 0.056 0.055 | 0.033 0.025 | 0.031 0.023 | 0.027 0.019 | 0.026 0.023
//	B(5,2)|B(2,5)  1000 0.75 0.05 | 0.014 0.025 | 0.020 0.033 | 0.025 0.036 | 0.023 0.042 | 0.013 0.022 | 0.012 0.023 | 0.012 0.027 | 0.010 0.068
//	B(5,2)|B(2,5)  1000 0.75 0.25 | 0.039 0.017 | 0.041 0.028 | 0.041 0.028 | 0.041 0.041 | 0.036 0.015 | 0.035 0.017 | 0.032 0.024 | 0.028 0.037
//	B(5,2)|B(2,5)  1000 0.75 0.50 | 0.048 0.016 | 0.056 0.017 | 0.056 0.017 | 0.043 0.024 | 0.041 0.013 | 0.040 0.012 | 0.039 0.015 | 0.043 0.024
//	mean, all 36 cells            | 0.047 0.043 | 0.054 0.059 | 0.058 0.107 | 0.063 0.117 | 0.042 0.039 | 0.040 0.039 | 0.038 0.043 | 0.035 0.040
//	mean, beta = 1                | 0.030 0.044 | 0.042 0.061 | 0.057 0.196 | 0.064 0.212 | 0.026 0.042 | 0.025 0.038 | 0.025 0.032 | 0.027 0.038
//	mean, beta < 1                | 0.055 0.042 | 0.060 0.058 | 0.059 0.063 | 0.063 0.069 | 0.049 0.038 | 0.047 0.040 | 0.044 0.048 | 0.039 0.041
//	N(4,1)|N(0,1)   100 1.00 0.05 | 0.015 0.009 | 0.021 0.008 | 0.413 0.700 | 0.324 0.821 | 0.014 0.010 | 0.015 0.005 | 0.018 0.003 | 0.005 0.016
//	N(4,1)|N(0,1)   100 1.00 0.25 | 0.027 0.016 | 0.020 0.012 | 0.032 0.048 | 0.031 0.049 | 0.023 0.011 | 0.027 0.013 | 0.037 0.023 | 0.029 0.021
//	N(4,1)|N(0,1)   100 1.00 0.50 | 0.044 0.031 | 0.038 0.029 | 0.053 0.019 | 0.049 0.020 | 0.039 0.026 | 0.044 0.031 | 0.056 0.045 | 0.074 0.057
//	N(4,1)|N(0,1)  1000 1.00 0.05 | 0.016 0.010 | 0.020 0.015 | 0.326 0.853 | 0.326 0.853 | 0.017 0.010 | 0.018 0.011 | 0.020 0.013 | 0.006 0.003
//	N(4,1)|N(0,1)  1000 1.00 0.25 | 0.029 0.018 | 0.013 0.010 | 0.186 0.549 | 0.187 0.555 | 0.029 0.018 | 0.034 0.022 | 0.044 0.033 | 0.019 0.015
//	N(4,1)|N(0,1)  1000 1.00 0.50 | 0.040 0.031 | 0.008 0.009 | 0.128 0.128 | 0.134 0.137 | 0.041 0.032 | 0.051 0.042 | 0.071 0.061 | 0.030 0.027
//	mean, well separated          | 0.029 0.019 | 0.020 0.014 | 0.190 0.383 | 0.175 0.406 | 0.027 0.018 | 0.032 0.021 | 0.041 0.030 | 0.027 0.023
//
// # Real scores: the AAAI-2017 data sets
//
// The e column of the AAAI-2017 Table 1 is the mean absolute error of
// beta-hat - alpha-hat over 50 repeats. With the default rule, pueval's e is
// below the paper's on 6 of the 11 comparable data sets (Gas is not: the
// mirror lacks 2 of its 10 batches), but 1.3 to 4 times the paper's on the
// near-separable Mushroom, Shuttle, Pendigit and Gas. The study ran every
// variant on the cached bagged-net scores of the full reproduction
// (testdata/aaai2017-estudy.yaml; no net retrained).
//
// What goes wrong. The scores are the bagged nets' estimate of P(labeled |
// x), with about one labeled example per ten unlabeled, so they are not piled
// near 0 and 1: the negatives pile up low (unlabeled median 0.009 on Shuttle,
// 0.026 on Mushroom), the positives spread over 0.1 to 0.8. Scott's width of
// the component is 0.02 in both runs of Mushroom, Shuttle and Pendigit with
// clean labels, so the pile spans one or two bins, neither very narrow nor
// very wide; no score is tied (bins on edges play no part). Three errors
// remain. (1) In run 1 the curve falls a little before it falls steeply at
// the true alpha/beta: on Mushroom (beta = 1, repeat 0, true 0.409) the drop
// of the log-likelihood in units of 1/n + 1/n1 is 0.2 at 0.30, 2.2 at 0.34,
// 7.4 at 0.38, 12.9 at 0.40, 34 at 0.42, because the bins whose labeled share
// is high by chance bind first (2 bins at 0.26, 8 at 0.38, 18 at 0.42). The
// drop rule (tolerance 2 units) stops at 0.33, the knee at 0.39, the blend
// returns 0.36; over the 50 clean-label repeats alpha/beta is 0.057 low
// (concave-start alone: 0.021). (2) The knee itself lands early on a sharp
// bend: on Shuttle (repeat 0, true 0.136) the knee score is flat while the
// right window reaches into the steep part (88.2, 87.7, 87.2, 86.7, 85.4 at
// 0.10..0.14) and the first maximum, 0.10, wins. (3) With clean labels (kappa
// = 0) the run-2 curve of Shuttle and Gas falls from the first grid point
// (the drop rule returns 0.003) while the knee is found at 0.03, below 0.1,
// where the concave-start test does not apply; the blend's 0.016 alone puts
// about 0.014 into that cell's e. On Mushroom and Pendigit the lowest bin
// holds the unlabeled negatives and 1% of the labeled scores, so that curve
// is flat to 0.01-0.02. With clean labels, e from run 1 alone (run 2 exact)
// and from run 2 alone is 0.057 and 0.003 on Mushroom, 0.032 and 0.012 on
// Shuttle, 0.053 and 0.012 on Gas, 0.017 and 0.010 on Pendigit. The four
// small data sets (n_L = 100) err the other way: Scott's width of 100
// labeled scores is 0.05 to 0.1, and of Housing's 406 unlabeled 0.1 (8
// bins); the lowest bin mixes the unlabeled negatives with the labeled
// scores' lowest decile, and Housing's run-2 curve (beta = 1, repeat 0) is
// flat to kappa = 0.13 where the truth is 0 (kappa-hat 0.165). These want
// finer bins and less tolerance, the near-separable sets more tolerance.
//
// What was tried, on the curves of all 1,800 cells (an exploration; what
// became an option is in the table): the drop rule alone with drop_tau 0.5
// to 64 (Shuttle is best at 8, 0.010; Pima at 0.5, 0.116; never more than 6
// data sets below the paper); a tolerance growing with the number of binding
// bins, as a likelihood-ratio test's degrees of freedom (at most 5); the drop
// extrapolated back to zero from where it first exceeds 20 units (Shuttle
// 0.007, Mushroom 0.016, but Pima 0.337, and worse than blend on the
// synthetic study); half Scott's width, Freedman-Diaconis, Scott's width of
// both samples pooled or the smaller of the two samples' widths, and logit
// or rank transforms of the scores before binning (finer bins bring Pima to
// 0.108 and Housing to 0.070 but raise the synthetic b-a error of the default
// rule from .043 to .048-.064); averaged shifted histograms (the s4 columns).
// The table (go test -run TestAAAIStudy checks it against the committed
// per-cell estimates, testdata/aaai2017-estimates.csv; -update with
// PUEVAL_AAAI_RECORDS=records.jsonl of the study config regenerates both)
// gives e per data set and "*" where it is below the paper's; tau1 is the
// default rule with drop_tau 1, the other headings as in the synthetic table:
//
//	data set    n_L  paper | blend   c-start fixed   publ.   tau1    s4      s4t1.5  s4t.75
//	bank       1000  0.212 | 0.096*  0.133*  0.186*  0.209*  0.085*  0.097*  0.091*  0.079*
//	concrete    100  0.139 | 0.123*  0.139*  0.137*  0.156   0.116*  0.106*  0.102*  0.096*
//	gas        1000  0.010 | 0.034   0.028   0.039   0.042   0.042   0.033   0.036   0.045
//	housing     100  0.066 | 0.098   0.086   0.087   0.098   0.086   0.082   0.076   0.065*
//	landsat    1000  0.026 | 0.017*  0.027   0.252   0.260   0.015*  0.016*  0.015*  0.012*
//	mushroom   1000  0.009 | 0.036   0.012   0.014   0.018   0.050   0.034   0.040   0.055
//	pageblock   100  0.394 | 0.108*  0.104*  0.125*  0.130*  0.097*  0.108*  0.102*  0.089*
//	pendigit   1000  0.009 | 0.012   0.016   0.021   0.026   0.016   0.010   0.012   0.017
//	pima        100  0.165 | 0.183   0.158*  0.170   0.198   0.156*  0.169   0.156*  0.130*
//	shuttle    1000  0.012 | 0.023   0.025   0.093   0.119   0.029   0.021   0.023   0.029
//	spambase   1000  0.056 | 0.033*  0.066   0.087   0.097   0.033*  0.029*  0.028*  0.030*
//	wine       1000  0.147 | 0.101*  0.132*  0.117*  0.130*  0.106*  0.100*  0.101*  0.107*
//	below the paper, of 11 |     6       5       4       3       7       6       7       8
//	mean, 12 sets    0.104 | 0.072   0.077   0.111   0.124   0.069   0.067   0.065   0.063
//
// Shifts 4 lowers the mean e from .072 to .067 and every synthetic mean (all
// 36 cells a .047 to .042, b-a .043 to .039; well separated .029/.019 to
// .027/.018; held out .068/.055 to .064/.051), but leaves the count at 6
// (Pima .169, Pendigit .010). With shifts, a smaller drop_tau brings the
// small data sets below the paper: 7 at 1.5 (Pima), 8 at 0.75 (Housing .065
// against .066, less than its standard error of about .004 over 150 cells).
// Both raise e on the near-separable sets (Mushroom .040 and .055), and 0.75
// raises the well-separated synthetic error (b-a .030 against .019): that is
// drop_tau tuned to the four small real data sets. So the best reachable
// without such tuning is 7 of 11 (s4t1.5), and 8 only by a margin within the
// noise. On the near-separable sets no variant comes near the paper's .009 to
// .012 while keeping the others: their e with s4, .010 to .034, is one to
// three grid steps of 0.01, and the published rule on these scores gives
// .018 to .119 there, so the paper's small e on them must come from its
// scores (or another difference of its pipeline), not from its rule. The
// default stays blend on one histogram: a default change was to reach 8 of
// 11 and hold on the synthetic studies, and no variant does both.
//
// # The rank scale
//
// Why the raw scale drifts. Scott's bins narrow as n^(-1/3) while the tails
// of the scores reach further out, so the number of tail bins that hold a
// handful of component scores grows with n. Each such bin whose component
// share exceeds its mixture share by chance binds below the true alpha and
// costs the likelihood a little; their sum crosses the drop rule's fixed
// tolerance at smaller alpha as n grows, and the knee, which overshoots a
// soft bend, does not move. On N(2,1) positives against N(0,1) negatives,
// alpha 0.3, beta 1, one row in five labeled (run 1, one sample per n):
//
//	rows   bins  bins with 1-9   bins below   drop at 0.25   knee   drop   blend   rank
//	             labeled scores  alpha        (1/n + 1/n1)
//	10^4     31         4             2            0.0        0.35   0.30   0.321   0.306
//	10^5    102        17            16            8.5        0.36   0.13   0.242   0.289
//	10^6    233        27            31            1.9        0.37   0.25   0.307   0.303
//	10^7    427        43            57           12.0        0.37   0.15   0.257   0.302
//
// (blend and rank: AlphaMax-N's alpha-hat on the two scales). Nothing in
// the raw histogram, the grid, the EM or the per-alpha solution changes
// this: the estimate follows the chance excesses of the sparse tail bins.
//
// The scale. Options.Scale "rank" maps, in each run, every score x of
// either sample to the component sample's mid-distribution function
// v(x) = (#{component < x} + #{component = x}/2)/n1 and bins v on
// K = ceil(1/w) equal bins of [0, 1], w = 3.5 s n1^(-1/3) Scott's width of
// n1 untied values (i - 1/2)/n1 (s = sqrt((n1 + 1)/(12 n1)); K is about
// n1^(1/3): 5 for 100 component scores, 22 for 10^4, 214 for 10^7). v
// depends on the scores only through their order and ties, so
// probabilities, logits, ranks or any strictly increasing transform give
// the same estimate to the bit (TestRankScaleInvariant, FuzzEstimate); a
// group of tied scores lies in one bin (the binning is integer arithmetic,
// no score lies on an edge); and every bin holds n1/K component scores, so
// no bin is sparse. The histograms are binned after one radix sort of each
// sample, in one walk over the sorted scores for both runs.
//
// The rule. On this scale too the knee overshoots at every n (the
// concave-start knee of run 1 in the example above is 0.35, 0.36 and 0.37
// at 10^4, 10^5 and 10^6 rows: the bend of the curve is soft), while the
// likelihood-drop rule becomes consistent, so the rank scale's default rule
// is "drop". Its tolerance grows with ln K: with well-separated scores many
// bins share the smallest share ratio (N(3,1) against N(0,1), alpha 0.5:
// about 13 of 27 bins at 10^5 rows), and the largest of their chance
// excesses, about sqrt(2 ln K) standard errors, costs the likelihood about
// ln K; a fixed tolerance then stops ever further below the truth.
//
// Drift. TestRankNoDrift and TestRankNoDrift10M check the binormal cells
// N(2,1) or N(3,1) against N(0,1), alpha 0.1, 0.317 or 0.5, beta 1 or 0.9,
// one row in five labeled (12 cells; alpha+ = alpha/beta exactly, these
// pairs being irreducible). Mean and largest absolute error of alpha-hat
// over the cells (one sample each) and the time of one estimate
// (BenchmarkAlphaMaxNScale, 2 cores shared):
//
//	rows   rank: mean   max    time    | raw (blend): mean   max
//	10^3         .037  .118   0.4 ms   |              .040  .074
//	10^4         .020  .074   1 ms     |              .022  .064
//	10^5         .008  .022   8 ms     |              .029  .112
//	10^6         .004  .009   80 ms    |              .040  .104
//	10^7         .002  .004   0.65 s   |              .054  .147
//
// The raw scale takes about as long (0.87 s at 10^7 rows); the rank
// scale's sort needs 16 bytes per score. With weakly separated scores
// (N(1,1) against N(0,1)) the error still falls with n but slowly, and
// upwards: .08, .05 and .025 at 10^4, 10^5 and 10^6 rows over six cells
// (raw: .07, .05, .035): alpha+ is reached only in the far tail, and the
// top bin mixes in negatives. On well-separated scores with alpha 0.5 the
// estimate is low by .016 at 10^5 rows and .005 at 10^6. With one row in
// twenty labeled the rank scale still errs less than the raw one (.069
// against .083 at 10^3 rows, .037 against .042 at 10^4, over the 18 cells
// below). In the synthetic study above (rank column) it lowers the mean error of
// alpha from .047 to .035 (.055 to .039 with label noise) and keeps that
// of beta - alpha (.043 to .040; well separated .019 to .023); on the 90
// held-out cells it has the smallest means of every variant, .050 and .050.
// It was not run on the AAAI-2017 scores (that study needs the full
// reproduction's score cache).
//
// What was tried, on the 18 binormal cells with N(1,1), N(2,1), N(3,1)
// positives (5 samples each), the synthetic study and the held-out cells:
// bins of equal share of the pooled sample rather than of the component
// (too coarse where the component is a small share of the pool: with 100
// labeled and alpha 0.05, error .10 against the raw scale's .013); the knee
// and blend rules on the rank scale (the knee overshoots, above); 1.5 and 2 times Scott's number of bins (study b-a .054 and
// .066); a fixed tolerance, drop_tau 1, 1.5 or 2 without ln K (study a
// .043, .047, .049, held-out a .059, .064, .068, and b-a on well-separated
// scores .053, .045, .040); a tolerance growing with the number of bins
// that bind at each alpha (study a .046 to .056); a tolerance multiplied,
// rather than raised, by ln K (study a .040); four shifted origins with
// drop_tau 1 (study a .043 to .038, at four times the cost).
//
// Why the registry default stays raw: the paper reproductions name
// alphamax-n without options, their records are pinned, and their
// published numbers were made on raw scores; Recommended gives the rank
// scale to the practitioner commands, and a config gets it with scale: rank.
//
// # Errors and warnings
//
// Estimate returns an error, never a panic, for a side with fewer than
// MinScores (10) scores, a NaN or infinite score, a constant side, or a
// component sample too concentrated for a histogram (more than 10^7 bins).
// Warnings come back with the estimate, which is never altered: fewer than
// FewUnlabeled (1000) unlabeled or FewLabeled (100) labeled scores (the
// published code warns there too), a flat likelihood curve, subsampling,
// and for AlphaMax-N beta-hat <= alpha-hat or beta-hat - alpha-hat <
// SmallGap (0.05), where the corrections that divide by beta - alpha
// become unstable. The other estimators treat small samples alike: DistCurve
// and KM1/KM2 refuse fewer than MinScores scores or rows on a side and warn
// below FewUnlabeled and FewLabeled, so that estimates compared side by side
// carry the same warnings. With both runs inside (0, 1)
// the algebra above gives beta - alpha = al (1 - au)/(1 - au kappa) > 0, so
// the first of these cannot arise from the runs; it is checked anyway.
//
// # Cost
//
// AlphaMax-N on 1,000 labeled and 10,000 unlabeled scores takes about 2.5 ms
// (BenchmarkAlphaMaxN, 2 x 106 grid points; 8.6 ms when the scores are
// rounded to 2 decimals and many lie on bin edges), 1.0 ms on the rank
// scale (BenchmarkAlphaMaxNRank: fewer bins, no edges); the published code
// takes tens of seconds. Shifts s costs s times as much (on the rank scale,
// s times the likelihood curves; the sort and the walk are shared). Above
// 10^5 scores the time grows linearly, about 65 ns per score on the rank
// scale (sort and walk) and 85 on the raw one (binning into a map): 80 ms
// at 10^6, 0.65 s at 10^7 (BenchmarkAlphaMaxNScale).
package classprior
