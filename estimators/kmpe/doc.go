// Package kmpe implements the kernel mixture proportion estimators KM1 and
// KM2 of Ramaswamy, Scott and Tewari, "Mixture Proportion Estimation via
// Kernel Embedding of Distributions" (ICML 2016), as the Scott lab's
// published code (Kernel_MPE_grad_threshold.py) behaves, written from the
// paper and a description of that code's behaviour (no code copied).
//
// Given mixture rows X_m (N of them, the distribution F = kappa H + (1 -
// kappa) G) and component rows X_c (M, from H), it estimates kappa. In PU
// learning the unlabeled rows are the mixture and the labeled positives the
// component, so kappa = alpha_U, the positive fraction of the unlabeled set.
//
// # Method
//
// The rows are pooled (mixture first) and scaled over the pooled rows
// (zscore by default, population standard deviation; minmax; raw as
// published). With D2 the squared Euclidean distances of the pooled rows:
//
//  1. sigma_med = sqrt(numpy.median of all (N+M)^2 entries of D2), the
//     zero diagonal included (mean of the two middle values for an even
//     count).
//  2. For sigma in sigma_med x {0.1, 10^-0.5, 1, 10^0.5, 10}, K =
//     exp(-D2/(2 sigma^2)) and the RKHS distance of the two empirical
//     embeddings delta = sqrt(w'Kw), w = 1/N on the mixture and -1/M on the
//     component; the sigma of largest delta is kept (the first on ties).
//  3. d(lambda) = sqrt(max(0, min over v in the simplex of (u - v)'K(u -
//     v))), u = lambda/N on the mixture and (1 - lambda)/M on the
//     component rows: the RKHS distance from lambda mu_F + (1 - lambda) mu_H
//     to the convex hull of the embedded rows. d = 0 for lambda <= 1.
//  4. begin_slope = (d(1.05) - d(1))/0.05; nu1 = (0.8 begin_slope + 0.2
//     delta)/delta; nu2 = (1/sqrt(min(N, M)))/delta, replaced by nu1 when
//     above 0.9.
//  5. For a threshold nu: lo = 1, hi = 8; while hi - lo > 0.04: m = (lo +
//     hi)/2, slope = (d(m + 0.02) - d(m)) x 50; slope > nu delta moves hi to
//     m, otherwise lo moves to m. lambda* = (lo + hi)/2 and kappa =
//     (lambda* - 1)/lambda*; 8 steps, so kappa lies in [0.0135, 0.8748].
//  6. KM1 = kappa(nu2) (value threshold), KM2 = kappa(nu1) (gradient
//     threshold).
//
// [Result] records every quantity: the widths and deltas, nu1, nu2, both
// bisection paths and every QP solved (a lambda met again is not solved
// again: the two bisections share their first step).
//
// # The QP
//
// With g = K v - K u (from K 1_m/N and K 1_c/M, precomputed, so that a new
// lambda costs O(n) for the linear term), v is optimal iff max over
// v_t > 0 of g_t - min over all t of g_t (the KKT gap) is 0. Each QP is
// solved to a KKT gap <= Options.Tol (1e-10) on a freshly computed
// gradient:
//
//   - First by an exact primal active-set method (the Lawson-Hanson scheme
//     adapted to the simplex): the equality-constrained minimiser on the
//     support S (K_SS z - Ku_S = rho 1, 1'z = 1, through a Cholesky factor
//     of K_SS); a step back to feasibility when z has a non-positive
//     weight (the blocking row leaves: the factor is updated by Givens
//     rotations); otherwise up to 32 of the most violating rows enter S at
//     once (a batch that brings no decrease is followed by the single most
//     violating row, which always does, so the method cannot cycle). While
//     the objective at the points optimal on their face keeps falling, the
//     rows of non-positive weight in the face's minimiser leave all at once
//     rather than one per step. Between exact gradients (each O(n |S|)) only
//     the rows outside S get theirs, and the point the method stops at is
//     judged on the exact gradient of every row. It stops at a gap of
//     Tol/1000, which pins d(lambda) down even near 0 (a gap g bounds d^2
//     only to within 2g).
//   - When the support becomes numerically singular (a new pivot below
//     1e-13), SMO finishes: the one-class-SVM dual form with the
//     second-order working-set selection of Fan, Chen and Lin (2005). SMO
//     alone converges only linearly on these ill-conditioned Gaussian
//     kernels (near lambda = 1 it needs millions of iterations for a gap of
//     1e-10), which is why it is not the first method.
//
// Warm starts: each lambda starts from the solution at the nearest lambda
// solved so far (the solution is piecewise linear in lambda), except that a
// solution with more than 1,000 rows in its support serves only within 0.1
// of it; without a candidate the start is the best single vertex. Each
// solution keeps its support order and Cholesky factor (within a budget of
// 2 n^2 floats), so a warm start copies the factor (O(|S|^2)) instead of
// factoring K_SS anew (O(|S|^3)). d(1.05) starts top-down from the solution
// at lambda = 1, the whole mixture as support, ordered so that the rows
// most like the component, which tend to leave first, sit at the end of
// the factor; where that support is numerically singular (near-duplicate
// rows) the start is the best single vertex, found by factoring its first
// 512 rows alone.
//
// # Vector kernels and the same bits everywhere
//
// The inner loops are vector kernels (vec.go), in Go assembly for AVX-512
// and AVX2 (vec_amd64.s, written by gen_vec.go) chosen at run time, plain
// Go elsewhere: the dot products and axpys of the substitutions and of the
// exact gradient (four rows per pass), the Givens rotations of a leaving
// row, the trailing update of the package's own blocked Cholesky
// factorisation (factor.go: right-looking, panels of 64 columns; it also
// does the forward substitutions of a batch of entering rows), the squared
// distances and the kernel's exp. A result does not depend on which of
// them runs, nor on the CPU or the architecture: the elementwise kernels
// round every product before adding it, the reductions have a fixed lane
// structure (32 or 16 partial sums, a fixed tree, the tail in order) that
// the plain Go states and the assembly follows, the factorisation is the
// unblocked recurrence's bit for bit, and the exp is internal/portmath's.
// The tests compare the bits of every implementation the CPU runs, and
// TestGoldenBits a whole result's against a hash that make test-cross
// reproduces under qemu-aarch64 and emulated Haswell and Nehalem CPUs.
//
// Cost: KM1 and KM2 on 2,000 x 10 rows take about 0.2 s, on 4,000 x 10
// about 1.5 s, on 8,000 x 117 one-hot rows (the AUL paper's timing case,
// 2,000 s published) about 17 s (BenchmarkKM*, 2 cores). Most of it is the
// large supports near lambda = 1: the factorisation of a support of nearly
// N rows and the passes over the factor, bound by memory bandwidth.
//
// # Caching
//
// The AUL protocol draws many splits from one data set; a split's pooled
// rows are the data set's rows in another order. [Pool] keeps a data set's
// scaled squared distances and their median, and estimates a split given
// by row indices; [NewPoolD2] takes a full D2 matrix. [Cache] recognises
// the pooled rows of a feature-matrix call as a multiset and builds its
// pool from them in a canonical order, so an estimate does not depend on
// whether the pool was cached. For a split that uses every pool row once
// (the AUL protocol's: U and L partition the data set), the median, hence
// the five widths, are the pool's, and so are the kernels: the pool keeps
// each width's kernel row sums (computed once) and the full kernel of the
// width chosen last; a split then exponentiates only its component columns
// (n M exp per width instead of n^2) and gathers its kernel from the
// pool's. Its sums over the mixture columns are the row sums minus the
// component sums, which round differently from a direct sum: a pooled
// estimate equals [Estimate]'s up to rounding (the same widths and
// bisection decisions, d to about 1e-10), and does not depend on the order
// in which a pool serves its splits.
//
// # Memory
//
// An estimate on n pooled rows holds n x n matrices: the squared
// distances, overwritten by the kernel ([Estimate]; a [Cache] also keeps
// the pool's distances and kernel and gathers the split's kernel from
// it), and the QP's Cholesky factors, the stored ones within their budget
// of 2 n^2 floats and the one being updated, up to n(n+1)/2 more: about
// 33 n^2 bytes for [Estimate] and 49 n^2 for [Cache.Estimate] (18 GiB for
// 20,000 rows), counted from the code (mem.go; TestMemoryCount checks the
// counts against the heap sampled from runtime.MemStats, which on the
// tests' data stays at a quarter to a half of them: the factors seldom
// fill their budget). Every entry point compares its count with what the
// machine can give (on Linux the least of MemAvailable and what the
// memory cgroup's limit leaves; a Go memory limit, GOMEMLIMIT, where set;
// a fixed 4 GiB elsewhere) before it allocates anything of that size, and
// refuses with a [*SizeError] wrapping [ErrTooLarge] that states the
// rows, both sizes and the largest row count that fits. Estimates running
// at once reserve their counts: one that fits only once the others end
// waits for them, so that which estimate is refused does not depend on
// the order in which they start. While an estimate that takes more than a
// quarter of what is available runs, the Go memory limit is lowered to
// what the process uses plus what was available, so that the collector
// (which otherwise lets the heap grow to twice what was live) collects the
// factors' garbage before the system runs out.
//
// # Choices and deviations
//
//   - Exact QPs instead of the published solver's default tolerances
//     (cvxopt, d to about 1e-4): the published lambda* can move by one
//     bisection step with the solver tolerance; ours follows the
//     description exactly, so it can be compared with the published path
//     where that solver is exact (the held-back outputs).
//   - Features z-scored by default (the published code uses raw features,
//     which on airfoil give estimates far above the truth). A constant
//     feature is mapped to 0 by zscore and minmax and reported; all rows equal, a zero
//     median distance or coinciding embeddings (delta = 0) are errors.
//   - Features of any finite magnitude: squares overflow past about 1e154,
//     so a feature whose largest magnitude lies outside [2^-300, 2^300]
//     is multiplied by a power of two before it is scaled (exact, and
//     zscore and minmax do not change under it), and raw features all by
//     one power of two (the kernel, relative to the median distance, does
//     not change; Result.RawExponent records it). Features within the
//     range are computed as they are, bit for bit.
//   - Distances are summed directly over the features (exact zero diagonal
//     and symmetry); kernel rows and gradients are computed by row blocks
//     on Options.Workers goroutines, each entry by one goroutine in a fixed
//     order, so the result does not depend on the worker count.
package kmpe
