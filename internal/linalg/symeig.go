package linalg

import "math"

// Reflectors are the Householder reflections H_0, ..., H_{m-3} of a
// tridiagonal reduction T = Q'AQ, Q = H_0 H_1 ... H_{m-3}: H_k = I - beta_k
// v_k v_k' acts on rows k+1, ..., m-1, v_k[0] = 1.
type Reflectors struct {
	v    [][]float64
	beta []float64
}

// Tridiagonalize reduces the symmetric m x m matrix A (row-major, full;
// overwritten) to the tridiagonal T = Q'AQ by Householder reflections
// (Golub & Van Loan, Algorithm 8.3.1), returning T's diagonal (m) and
// off-diagonal (m-1) and the reflections. Step k reflects x = A[k+1:, k]
// onto mu e_1, mu = ||x|| (v = x - mu e_1 computed without cancellation,
// Algorithm 5.1.1), then updates the trailing block B by B - v w' - w v',
// p = beta B v, w = p - (beta/2)(p'v) v, entry by entry in a fixed order
// that keeps B exactly symmetric. Cost 4/3 m^3 flops.
func Tridiagonalize(A []float64, m int) (diag, off []float64, q *Reflectors) {
	diag = make([]float64, m)
	off = make([]float64, max(m-1, 0))
	q = &Reflectors{}
	p := make([]float64, m)
	for k := 0; k+2 < m; k++ {
		s := m - k - 1
		x := A[k*m+k+1 : (k+1)*m] // row k right of the diagonal = column k below it
		var sigma float64
		for _, v := range x[1:] {
			sigma += float64(v * v)
		}
		v := make([]float64, s)
		v[0] = 1
		beta := 0.0
		mu := x[0]
		if sigma != 0 {
			x0 := x[0]
			mu = math.Sqrt(float64(x0*x0) + sigma)
			var v0 float64
			if x0 <= 0 {
				v0 = x0 - mu
			} else {
				v0 = -sigma / (x0 + mu)
			}
			beta = 2 * float64(v0*v0) / (sigma + float64(v0*v0))
			for i := 1; i < s; i++ {
				v[i] = x[i] / v0
			}
		}
		diag[k] = A[k*m+k]
		off[k] = mu
		q.v = append(q.v, v)
		q.beta = append(q.beta, beta)
		if beta == 0 {
			continue
		}
		// p = beta B v, B = A[k+1:, k+1:].
		pk := p[:s]
		i := 0
		for ; i+4 <= s; i += 4 {
			r := (k + 1 + i) * m
			d0, d1, d2, d3 := dot4(A[r+k+1:r+m], A[r+m+k+1:r+2*m], A[r+2*m+k+1:r+3*m], A[r+3*m+k+1:r+4*m], v)
			pk[i], pk[i+1], pk[i+2], pk[i+3] = float64(beta*d0), float64(beta*d1), float64(beta*d2), float64(beta*d3)
		}
		for ; i < s; i++ {
			row := A[(k+1+i)*m+k+1 : (i+k+2)*m]
			pk[i] = float64(beta * Dot(row, v))
		}
		half := float64(beta/2) * Dot(pk, v)
		for i := range s {
			pk[i] -= float64(half * v[i]) // now w
		}
		// Entry (i, j) becomes (B_ij - v_lo w_hi) - w_lo v_hi with lo =
		// min(i, j), hi = max(i, j): the same operations for (i, j) and
		// (j, i), so B stays exactly symmetric while each row is updated
		// whole, in place.
		for i := range s {
			row := A[(k+1+i)*m+k+1 : (k+2+i)*m]
			vi, wi := v[i], pk[i]
			for j := range row[:i+1] {
				row[j] = row[j] - float64(v[j]*wi) - float64(pk[j]*vi)
			}
			for j := i + 1; j < s; j++ {
				row[j] = row[j] - float64(vi*pk[j]) - float64(wi*v[j])
			}
		}
	}
	switch {
	case m >= 2:
		diag[m-2], diag[m-1] = A[(m-2)*m+m-2], A[(m-1)*m+m-1]
		off[m-2] = A[(m-1)*m+m-2]
	case m == 1:
		diag[0] = A[0]
	}
	return diag, off, q
}

// Apply overwrites the m x c matrix z (row-major) with Q z, Q = H_0 ...
// H_{m-3}: the reflections from the last to the first, each z[k+1:, j] -=
// beta v (v' z[k+1:, j]) column by column, the dot in row order. Eigenvectors
// of T become those of A.
func (q *Reflectors) Apply(z []float64, c int) {
	for k := len(q.v) - 1; k >= 0; k-- {
		v, beta := q.v[k], q.beta[k]
		if beta == 0 {
			continue
		}
		for j := range c {
			var d float64
			for i, vi := range v {
				d += float64(vi * z[(k+1+i)*c+j])
			}
			d = float64(beta * d)
			for i, vi := range v {
				z[(k+1+i)*c+j] -= float64(d * vi)
			}
		}
	}
}

// TridiagLargest returns the k largest eigenvalues of the symmetric
// tridiagonal matrix with diagonal diag and off-diagonal off, in decreasing
// order, by bisection on Sturm counts (Golub & Van Loan, Section 8.4.1):
// count(x), the number of eigenvalues below x, is the number of negative
// pivots of T - xI (a pivot of magnitude below pivmin taken as -pivmin, as
// LAPACK's dstebz does). Each eigenvalue is bisected within the Gershgorin
// interval until the midpoint of its bracket is one of its ends, so it is
// accurate to a few ulps of ||T||.
func TridiagLargest(diag, off []float64, k int) []float64 {
	m := len(diag)
	k = min(k, m)
	if k <= 0 {
		return nil
	}
	e2 := make([]float64, len(off))
	lo, hi := math.Inf(1), math.Inf(-1)
	maxE2 := 0.0
	for i := range m {
		r := 0.0
		if i > 0 {
			r += math.Abs(off[i-1])
		}
		if i < m-1 {
			r += math.Abs(off[i])
			e2[i] = float64(off[i] * off[i])
			maxE2 = math.Max(maxE2, e2[i])
		}
		lo = math.Min(lo, diag[i]-r)
		hi = math.Max(hi, diag[i]+r)
	}
	pivmin := float64(math.SmallestNonzeroFloat64 * 0x1p52 * math.Max(1, maxE2))
	count := func(x float64) int {
		n := 0
		q := diag[0] - x
		for i := 0; ; i++ {
			if math.Abs(q) < pivmin {
				q = -pivmin
			}
			if q < 0 {
				n++
			}
			if i+1 == m {
				return n
			}
			q = diag[i+1] - x - e2[i]/q
		}
	}
	// Widen the Gershgorin interval a little so that its ends bracket
	// strictly.
	w := float64(math.Max(math.Abs(lo), math.Abs(hi))*0x1p-50) + pivmin
	lo, hi = lo-w, hi+w
	out := make([]float64, k)
	for j := range k {
		t := m - 1 - j // the eigenvalue with t eigenvalues below it
		a, b := lo, hi
		for {
			mid := a + float64((b-a)/2)
			if mid <= a || mid >= b {
				break
			}
			if count(mid) <= t {
				a = mid
			} else {
				b = mid
			}
		}
		out[j] = a + float64((b-a)/2)
	}
	return out
}

// dot4 returns the in-order dots of four rows with v (Dot's bits each),
// sharing the loads of v.
func dot4(r0, r1, r2, r3, v []float64) (s0, s1, s2, s3 float64) {
	n := len(v)
	r0, r1, r2, r3 = r0[:n], r1[:n], r2[:n], r3[:n]
	for j, x := range v {
		s0 += float64(r0[j] * x)
		s1 += float64(r1[j] * x)
		s2 += float64(r2[j] * x)
		s3 += float64(r3[j] * x)
	}
	return s0, s1, s2, s3
}
