// Package gmm scores how representative each positive example is of the
// positive class: the log-density of the example under a Gaussian mixture
// fitted to all the positives after a PCA.
//
// The PULP paper (Hajizadeh et al. 2014) builds biased PU labelings from this
// score ("representativeness = output of a Gaussian mixture model trained on
// all true positives"): its Scenario 1 leaves the least representative
// positives unlabeled, Scenario 2 the most representative. pueval fixes what
// the paper leaves open: k = 3 components with diagonal covariances, fitted by
// EM from k-means++ seeds of a fixed Seed, on the positives projected by a PCA
// to 20 dimensions that is fitted on those same rows ([DefaultOptions],
// [Representativeness]).
//
// # PCA
//
// The n rows x_i are centred on their mean, Xc = X - 1 m^T, and projected on
// the top principal axes: with the singular value decomposition
// Xc = U S V^T, the coordinates of row i are z_i = V_k^T (x_i - m), and axis j
// explains the variance s_j^2 / (n-1). The number of axes is
// min(PCA, n-1, d), less any whose variance is at most max(n, d)*eps times
// the largest (numerically zero: such a direction is an artefact of
// rounding). An axis has an arbitrary sign; each is made to have its entry of
// largest absolute value positive.
//
// The axes are computed from the smaller Gram matrix, Xc Xc^T = U S^2 U^T
// (then V = Xc^T U S^-1) or Xc^T Xc = V S^2 V^T: it is reduced to
// tridiagonal form by Householder reflections (as LAPACK's dsytrd), its k
// largest eigenvalues are found by bisection on Sturm counts (as dstebz)
// and their eigenvectors by inverse iteration (as dstein), then mapped back
// (as dormtr). This gives the thin SVD's leading triplets (to about 1e-14 on
// the test matrices) at a fraction of its cost: a thin SVD of a 1000×1000
// matrix computes all 1000 singular vectors; this PCA, with the mixture
// fit, takes about 0.5 s (BenchmarkRepresentativeness).
//
// # Mixture
//
// A mixture of k Gaussians with weights w_j, means m_j and diagonal
// variances v_j has the log-density
//
//	log p(x) = logsumexp_j [ log w_j - 1/2 sum_d ( log(2 pi v_jd) + (x_d - m_jd)^2 / v_jd ) ].
//
// EM (Dempster, Laird and Rubin 1977) alternates the E-step, the
// responsibilities r_ij = exp(log w_j + log N(x_i | m_j, v_j) - log p(x_i)),
// and the M-step
//
//	n_j = sum_i r_ij,  w_j = n_j / n,  m_j = sum_i r_ij x_i / n_j,
//	v_jd = sum_i r_ij (x_id - m_jd)^2 / n_j + RegCovar,
//
// where RegCovar (scikit-learn's reg_covar) keeps a component that shrinks
// onto a few rows from a zero variance. Each step does not decrease the mean
// log-likelihood L = (1/n) sum_i log p(x_i); EM stops when L gains less than
// Tol, or after MaxIter iterations. All sums over components are taken by
// log-sum-exp, so rows far from every component lose no precision.
//
// EM starts from k-means++ seeds (Arthur and Vassilvitskii 2007): a first row
// drawn uniformly, then each next one with probability proportional to its
// squared distance to the nearest seed so far. As in scikit-learn's
// initialisation, each row is then assigned wholly to its nearest seed, and
// the M-step of that hard assignment gives the starting parameters (there are
// no Lloyd iterations). [FitFrom] starts instead from given parameters, for
// comparison with other implementations.
//
// # Collapse
//
// A component whose total responsibility n_j falls below 1e-6 rows (or whose
// variance reaches 0 when RegCovar is 0) has collapsed: it explains no data,
// and its mean would be a ratio of round-off. This is reported as
// [ErrCollapsed], not repaired by re-seeding: a silent re-seed would make the
// result depend on a rescue rule nobody asked for, while the caller can simply
// try another Seed. With k-means++ seeds it does not arise in practice: every
// seed starts with at least its own row.
//
// # Determinism
//
// The only randomness is the k-means++ stream, a math/rand/v2 PCG from Seed.
// There are no goroutines, so a seed gives bit-identical results run after
// run and on any GOMAXPROCS. Every product is rounded before it is added (an
// explicit float64 conversion), since Go fuses multiply-adds on arm64 and
// some other targets; logs and exponentials are internal/portmath's; and the
// PCA's linear algebra (the Gram matrix, the Householder reduction, the
// eigenvalue bisection, the products) is internal/linalg's, in a fixed
// order. So the PCA and the EM give the same bits on every CPU and
// architecture (TestGoldenBits, under qemu-aarch64 and emulated amd64 CPUs
// in make test-cross); a BLAS would sum in the order of its amd64 assembly
// there and otherwise on arm64.
// [Representativeness] sorts the rows by content before fitting, so
// permuting them permutes its output exactly.
//
// # References
//
// A. P. Dempster, N. M. Laird, D. B. Rubin. Maximum likelihood from incomplete
// data via the EM algorithm. Journal of the Royal Statistical Society B 39(1),
// 1-38, 1977.
//
// D. Arthur, S. Vassilvitskii. k-means++: the advantages of careful seeding.
// SODA 2007, 1027-1035.
//
// S. Hajizadeh, Z. Li, R. P. J. Dollevoet, D. M. J. Tax. Evaluating
// classification performance with only positive and unlabeled samples.
// S+SSPR 2014, LNCS 8621, 233-242.
package gmm
