package gmm

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/internal/linalg"
)

// PCA is a principal component analysis fitted on some rows of a matrix.
type PCA struct {
	// Mean is the column mean of the fitted rows (length d).
	Mean []float64
	// Components holds the principal axes as orthonormal rows (k×d), in
	// decreasing order of explained variance. The sign of each row is fixed so
	// that its entry of largest absolute value is positive.
	Components *mat.Dense
	// Variances is the variance of the fitted rows along each axis,
	// sigma_j^2 / (n-1) (numpy's and scikit-learn's explained_variance_).
	Variances []float64
}

// FitPCA fits a PCA with at most k components on the given rows of x.
//
// The number of components is min(k, n-1, d) and smaller still where the
// centred rows have numerical rank below that: components whose variance is at
// most max(n, d)*eps times the largest are dropped, because their directions
// are determined by rounding alone. A zero-variance sample therefore yields a
// PCA with no components (Components is nil), not an error.
func FitPCA(x *mat.Dense, rows []int, k int) (*PCA, error) {
	if x == nil {
		return nil, fmt.Errorf("gmm: pca: nil matrix")
	}
	if k < 1 {
		return nil, fmt.Errorf("gmm: pca: %d components requested, need at least 1", k)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("gmm: pca: no rows: %w", ErrTooFewRows)
	}
	if err := checkRows(x, rows); err != nil {
		return nil, fmt.Errorf("gmm: pca: %w", err)
	}
	n, d := len(rows), x.RawMatrix().Cols
	mean := make([]float64, d)
	for _, r := range rows {
		for c, v := range x.RawRowView(r) {
			mean[c] += v
		}
	}
	for c := range mean {
		mean[c] /= float64(n)
	}
	xc := centred(x, rows, mean)
	k = min(k, n-1, d)
	if k < 1 {
		return &PCA{Mean: mean}, nil
	}

	// The top k eigenpairs of the smaller Gram matrix give the top k singular
	// triplets of the centred matrix Xc = U S V^T: Xc Xc^T = U S^2 U^T (n×n)
	// when n <= d, Xc^T Xc = V S^2 V^T (d×d) otherwise. Unlike a thin SVD of
	// Xc, which computes all min(n, d) singular vectors (about 2.5 s for
	// 1000×1000 with gonum), this computes all eigenvalues but only k
	// eigenvectors (see topEigen). Squaring the matrix costs accuracy only in
	// the small singular values, far below the ones kept.
	m := min(n, d)
	g := make([]float64, m*m)
	if n <= d {
		linalg.Gram(xc.RawMatrix().Data, n, d, g)
	} else {
		xt := make([]float64, d*n)
		for i := range n {
			for c, v := range xc.RawRowView(i) {
				xt[c*n+i] = v
			}
		}
		linalg.Gram(xt, d, n, g)
	}
	lam, vecs, err := topEigen(m, g, k)
	if err != nil {
		return nil, fmt.Errorf("gmm: pca: %w", err)
	}
	stride := k // vecs is m×k, row-major, before dropping rank-deficient columns
	tol := float64(max(n, d)) * eps * lam[0]
	for k > 0 && !(lam[k-1] > tol) {
		k--
	}
	if k == 0 {
		return &PCA{Mean: mean}, nil
	}
	lam = lam[:k]

	comp := mat.NewDense(k, d, nil)
	if n <= d {
		// vecs holds u_j (m = n rows, one column per component);
		// v_j = Xc^T u_j / sigma_j.
		for j := range k {
			row := comp.RawRowView(j)
			for i := range n {
				uij := vecs[i*stride+j]
				for c, v := range xc.RawRowView(i) {
					row[c] += float64(uij * v)
				}
			}
		}
		// The error of u_j, about eps ||G|| / gap_j, is amplified by
		// sigma_1 / sigma_j in v_j: harmless for the leading axes, but the
		// axes of tiny singular values drift from orthonormality. Two rounds
		// of Gram-Schmidt ("twice is enough") restore it, changing the
		// leading axes only at the rounding level.
		for range 2 {
			for j := range k {
				row := comp.RawRowView(j)
				for p := range j {
					prev := comp.RawRowView(p)
					dot := 0.0
					for c, v := range row {
						dot += float64(v * prev[c])
					}
					for c := range row {
						row[c] -= float64(dot * prev[c])
					}
				}
				normalise(row)
			}
		}
	} else {
		for j := range k {
			row := comp.RawRowView(j)
			for c := range d {
				row[c] = vecs[c*stride+j]
			}
		}
	}
	// The sign of a singular vector is arbitrary; fixing it makes the
	// projection reproducible and comparable with other implementations.
	for j := range k {
		row := comp.RawRowView(j)
		big := 0
		for c, v := range row {
			if math.Abs(v) > math.Abs(row[big]) {
				big = c
			}
		}
		if row[big] < 0 {
			for c := range row {
				row[c] = -row[c]
			}
		}
	}
	// The variances are the Rayleigh quotients ||Xc v_j||^2 / (n-1) rather
	// than the Gram eigenvalues: equal for the leading axes (the quotient's
	// error is quadratic in the axis's), but the eigenvalue of an axis with
	// s_j/s_1 = 1e-6 carries a relative error of about eps (s_1/s_j)^2,
	// which the projection does not.
	z := project(xc, comp)
	vars := make([]float64, k)
	for j := range k {
		ss := 0.0
		for i := range n {
			v := z.At(i, j)
			ss += float64(v * v)
		}
		vars[j] = ss / float64(n-1)
	}
	return &PCA{Mean: mean, Components: comp, Variances: vars}, nil
}

// Transform projects the given rows of x on the principal axes:
// row i of the result is (x_r - Mean) Components^T for r = rows[i].
func (p *PCA) Transform(x *mat.Dense, rows []int) (*mat.Dense, error) {
	if x == nil {
		return nil, fmt.Errorf("gmm: pca transform: nil matrix")
	}
	if c := x.RawMatrix().Cols; c != len(p.Mean) {
		return nil, fmt.Errorf("gmm: pca transform: matrix has %d columns, the PCA was fitted on %d", c, len(p.Mean))
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("gmm: pca transform: no rows")
	}
	if err := checkRows(x, rows); err != nil {
		return nil, fmt.Errorf("gmm: pca transform: %w", err)
	}
	if p.Components == nil {
		return nil, fmt.Errorf("gmm: pca transform: the PCA has no components (the fitted rows have no variance)")
	}
	return project(centred(x, rows, p.Mean), p.Components), nil
}

// project returns xc comp^T, each entry the in-order dot of a row of xc and
// a component (internal/linalg: the same bits on every CPU).
func project(xc, comp *mat.Dense) *mat.Dense {
	n, _ := xc.Dims()
	k, _ := comp.Dims()
	z := mat.NewDense(n, k, nil)
	for i := range n {
		xi, zi := xc.RawRowView(i), z.RawRowView(i)
		for j := range k {
			zi[j] = linalg.Dot(xi, comp.RawRowView(j))
		}
	}
	return z
}

// centred returns the given rows of x minus mean, as a new len(rows)×d matrix.
func centred(x *mat.Dense, rows []int, mean []float64) *mat.Dense {
	xc := mat.NewDense(len(rows), len(mean), nil)
	for i, r := range rows {
		dst := xc.RawRowView(i)
		for c, v := range x.RawRowView(r) {
			dst[c] = v - mean[c]
		}
	}
	return xc
}

// eps is LAPACK's relative machine precision dlamch('P') = 2^-52.
const eps = 0x1p-52

// topEigen returns the k largest eigenvalues of the symmetric m×m matrix g
// (row-major, full; overwritten), in decreasing order, and their unit
// eigenvectors as the columns of an m×k row-major matrix.
//
// It reduces g to tridiagonal form T = Q^T G Q by Householder reflections,
// finds T's k largest eigenvalues by bisection on Sturm counts, computes
// their eigenvectors of T by inverse iteration (as LAPACK's dstein) and maps
// them back with Q: internal/linalg's reduction and bisection, in a fixed
// order with products rounded, so the same bits on every CPU (gonum's
// dsytrd, dsterf and dormqr, used before, sum in the order of their amd64
// assembly there and otherwise on arm64). All deterministic: no randomness
// beyond a fixed start vector, no goroutines.
func topEigen(m int, g []float64, k int) ([]float64, []float64, error) {
	diag, off, q := linalg.Tridiagonalize(g, m)
	lam := linalg.TridiagLargest(diag, off, k)
	for _, v := range lam {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, fmt.Errorf("tridiagonal eigenvalues are not finite")
		}
	}
	z, err := tridiagVectors(diag, off, lam)
	if err != nil {
		return nil, nil, err
	}
	q.Apply(z, k)
	return lam, z, nil
}

// tridiagVectors returns unit eigenvectors of the symmetric tridiagonal matrix
// T (diagonal diag, off-diagonal off) for its eigenvalues lam, given in
// decreasing order, as the columns of an m×len(lam) row-major matrix.
//
// It follows LAPACK's dstein: inverse iteration with the shifted matrix
// T - lambda I factored once by Gaussian elimination with partial pivoting;
// eigenvalues closer than 1e-3 ||T||_1 form a cluster whose vectors are
// orthogonalised against each other (modified Gram-Schmidt) at each step, and
// shifts closer than 10 eps ||T||_1 are pulled apart so that the factorisations
// differ. Iteration stops one step after the residual ||T z - lambda z||_2
// falls below max(m, 100) eps ||T||_1.
func tridiagVectors(diag, off, lam []float64) ([]float64, error) {
	m, k := len(diag), len(lam)
	tnorm := 0.0
	for i := range m {
		s := math.Abs(diag[i])
		if i > 0 {
			s += math.Abs(off[i-1])
		}
		if i < m-1 {
			s += math.Abs(off[i])
		}
		tnorm = max(tnorm, s)
	}
	z := make([]float64, m*k)
	if tnorm == 0 {
		// T = 0: any orthonormal set is a basis of eigenvectors.
		for j := range min(k, m) {
			z[j*k+j] = 1
		}
		return z, nil
	}
	ortol := 1e-3 * tnorm
	pertol := float64(10 * eps * tnorm)
	pivmin := eps * tnorm
	restol := float64(max(m, 100)) * eps * tnorm
	// A fixed stream, independent of any user seed: the start vector only has
	// to be non-orthogonal to the wanted eigenvector.
	rng := rand.New(rand.NewPCG(0x7ca, 0x5eed))

	f := newTridiagLU(m)
	b := make([]float64, m)
	tz := make([]float64, m)
	first := 0 // first index of the current cluster
	shift := 0.0
	for j := range k {
		s := lam[j]
		if j > 0 {
			if lam[j-1]-lam[j] > ortol {
				first = j
			}
			if shift-s < pertol {
				s = shift - pertol
			}
		}
		shift = s
		f.factor(diag, off, s, pivmin)
		for i := range b {
			// Rounding Float64's own scaling too: the compiler fuses it into 2*u.
			b[i] = float64(2*float64(rng.Float64())) - 1
		}
		normalise(b)
		res, extra := math.Inf(1), 0
		for it := 0; it < 10 && extra < 2; it++ {
			f.solve(b)
			for p := first; p < j; p++ {
				dot := 0.0
				for i := range m {
					dot += float64(b[i] * z[i*k+p])
				}
				for i := range m {
					b[i] -= float64(dot * z[i*k+p])
				}
			}
			if !normalise(b) {
				return nil, fmt.Errorf("inverse iteration for eigenvalue %d (%g) lost its vector", j, lam[j])
			}
			tridiagMul(diag, off, b, tz)
			res = 0
			for i := range m {
				r := tz[i] - float64(lam[j]*b[i])
				res += float64(r * r)
			}
			res = math.Sqrt(res)
			if res <= restol {
				extra++
			}
		}
		// Far beyond the normal residual: a genuine failure, not rounding.
		if res > math.Sqrt(eps)*tnorm {
			return nil, fmt.Errorf("inverse iteration for eigenvalue %d (%g) did not converge: residual %g, ||T|| %g", j, lam[j], res, tnorm)
		}
		for i := range m {
			z[i*k+j] = b[i]
		}
	}
	return z, nil
}

// normalise scales v to unit Euclidean norm (scaling by its largest entry
// first, so that neither huge nor tiny vectors overflow), and reports whether
// v was non-zero and finite.
func normalise(v []float64) bool {
	big := 0.0
	for _, x := range v {
		big = max(big, math.Abs(x))
	}
	if big == 0 || math.IsInf(big, 0) || math.IsNaN(big) {
		return false
	}
	s := 0.0
	for i := range v {
		v[i] /= big
		s += float64(v[i] * v[i])
	}
	s = 1 / math.Sqrt(s)
	for i := range v {
		v[i] *= s
	}
	return true
}

// tridiagMul sets y = T x for the symmetric tridiagonal T (diag, off).
func tridiagMul(diag, off, x, y []float64) {
	m := len(diag)
	for i := range m {
		s := float64(diag[i] * x[i])
		if i > 0 {
			s += float64(off[i-1] * x[i-1])
		}
		if i < m-1 {
			s += float64(off[i] * x[i+1])
		}
		y[i] = s
	}
}

// tridiagLU is the factorisation P (T - s I) = L U of a shifted symmetric
// tridiagonal matrix by Gaussian elimination with partial pivoting (LAPACK's
// dlagtf): U has a diagonal u0 and two superdiagonals u1, u2; mult and swap
// record the elimination steps.
type tridiagLU struct {
	u0, u1, u2, mult []float64
	swap             []bool
}

func newTridiagLU(m int) *tridiagLU {
	return &tridiagLU{
		u0: make([]float64, m), u1: make([]float64, m), u2: make([]float64, m),
		mult: make([]float64, m), swap: make([]bool, m),
	}
}

// factor factors T - s I. Pivots smaller than pivmin in magnitude are
// replaced by pivmin (with their sign): T - s I is singular by design when s
// is an eigenvalue, and the perturbation is what makes inverse iteration
// amplify the eigenvector.
func (f *tridiagLU) factor(diag, off []float64, s, pivmin float64) {
	m := len(diag)
	for i := range m {
		f.u0[i] = diag[i] - s
		f.u1[i], f.u2[i] = 0, 0
		if i < m-1 {
			f.u1[i] = off[i]
		}
	}
	for i := 0; i < m-1; i++ {
		low := off[i] // the entry below the pivot, T[i+1][i]
		if math.Abs(f.u0[i]) >= math.Abs(low) {
			f.swap[i] = false
			if math.Abs(f.u0[i]) < pivmin {
				f.u0[i] = math.Copysign(pivmin, f.u0[i])
			}
			mu := low / f.u0[i]
			f.mult[i] = mu
			f.u0[i+1] -= float64(mu * f.u1[i])
		} else {
			// Row i+1 (low, u0[i+1], u1[i+1]) becomes the pivot row.
			f.swap[i] = true
			mu := f.u0[i] / low
			f.mult[i] = mu
			next := f.u0[i+1]
			f.u0[i] = low
			f.u0[i+1] = f.u1[i] - float64(mu*next)
			f.u1[i] = next
			if i+1 < m-1 {
				f.u2[i] = f.u1[i+1]
				f.u1[i+1] = -mu * f.u1[i+1]
			}
		}
	}
	if math.Abs(f.u0[m-1]) < pivmin {
		f.u0[m-1] = math.Copysign(pivmin, f.u0[m-1])
	}
}

// solve overwrites b with the solution of (T - s I) x = b.
func (f *tridiagLU) solve(b []float64) {
	m := len(b)
	for i := 0; i < m-1; i++ {
		if f.swap[i] {
			b[i], b[i+1] = b[i+1], b[i]
		}
		b[i+1] -= float64(f.mult[i] * b[i])
	}
	for i := m - 1; i >= 0; i-- {
		s := b[i]
		if i+1 < m {
			s -= float64(f.u1[i] * b[i+1])
		}
		if i+2 < m {
			s -= float64(f.u2[i] * b[i+2])
		}
		b[i] = s / f.u0[i]
	}
}
