// Package linalg is the small dense linear algebra that pueval's results
// rest on, written so that it gives the same bits on every CPU and
// architecture: every sum runs in the order its statement gives, and every
// product is rounded before it is added (float64(a*b) + c; Go fuses a*b + c
// into one multiply-add on arm64, riscv64, ppc64, s390x and amd64 built with
// GOAMD64=v3). gonum's BLAS and LAPACK sum in the order of their amd64
// assembly there and in another, with fused multiply-adds, in their pure Go
// on arm64, so their last bits (and, through a cross-validation or a
// ranking, sometimes more) depend on the machine. The sizes here are small
// (a few hundred to a thousand rows), so plain loops arranged for
// independent operations are nearly as fast: PU_AUC's and PU_AUL's
// cross-validated fits take 7-8 % longer than with gonum, the PULP
// protocol's PCA and mixture of 1,000 x 1,000 as long (about 0.5 s;
// BenchmarkRepresentativeness in datasets/gmm).
//
// # Products and solves
//
// [Dot] is sum_k a_k b_k in k order. [Gram] sets S = X X' for the rows of X,
// each entry the in-order dot of two rows, S exactly symmetric.
// [TransMulVec] is X' w, the rows' terms added in row order. [Cholesky]
// factors a symmetric positive definite A = U'U by the right-looking
// outer-product algorithm (entry (i, j) loses U_ki U_kj in k order; rows
// taken four at a time, the same bits),
// [CholeskySolve] solves with it (forward, then backward); [LUSolve] is
// Gaussian elimination with partial pivoting (the first largest pivot on
// ties) for indefinite or non-symmetric systems. Both report a matrix they
// cannot factor (a pivot not positive, or exactly zero) instead of
// returning garbage.
//
// # Symmetric eigenproblems
//
// [Tridiagonalize] reduces a symmetric A to T = Q'AQ by Householder
// reflections (Golub & Van Loan, Algorithm 8.3.1, with the reflector of
// Algorithm 5.1.1), [Reflectors.Apply] multiplies by Q (eigenvectors of T to
// those of A), and [TridiagLargest] finds T's k largest eigenvalues by
// bisection on Sturm counts (Section 8.4.1; tiny pivots replaced by -pivmin
// as in LAPACK's dstebz) until the bracket cannot be halved: accurate to a
// few ulps of ||T||. Tested against gonum's EigenSym and by Q'AQ = T,
// Q'Q = I.
//
// # Vector kernels
//
// On amd64 CPUs with AVX2 or AVX-512, Gram, Cholesky, CholeskySolve's
// forward step, TransMulVec and [ExpScaled] run in assembly kernels chosen
// at run time (kernels.go): each vector lane carries one entry's own chain
// of operations, in the order stated above (Gram: tiles of 4 x 24 or
// 4 x 12 entries of S, each lane one entry's k-ordered sum over Kt
// transposed; Cholesky: panels of 32 rows, whose terms the later rows lose
// by such tiles, in k order; separate multiplies and adds, never a fused
// multiply-add), so they return the plain Go's bits on every input (the
// *KernelsAgree tests). At b = 200 Gram and Cholesky take about a quarter
// to a third of the plain Go's time (BenchmarkGram, BenchmarkCholesky).
//
// References: G. H. Golub, C. F. Van Loan. Matrix Computations, 4th ed.,
// Johns Hopkins University Press, 2013.
package linalg
