package linalg

import "math"

// Gram sets S[i*b+j] = sum_k Kt[i*m+k] Kt[j*m+k] for all i, j (b x b, full),
// each sum in k order. Two rows of S against four at a time share their
// loads; S[j*b+i] is the same sum of the same products, so computing the
// upper triangle and mirroring it gives the full matrix's bits.
func Gram(Kt []float64, b, m int, S []float64) {
	const ri, rj = 2, 4
	for i0 := 0; i0 < b; i0 += ri {
		if i0+ri > b {
			for i := i0; i < b; i++ {
				for j := i; j < b; j++ {
					S[i*b+j] = Dot(Kt[i*m:(i+1)*m], Kt[j*m:(j+1)*m])
				}
			}
			break
		}
		a0 := Kt[i0*m : (i0+1)*m]
		a1 := Kt[(i0+1)*m : (i0+2)*m][:len(a0)]
		j := i0
		for ; j+rj <= b; j += rj {
			c0 := Kt[j*m : (j+1)*m][:len(a0)]
			c1 := Kt[(j+1)*m : (j+2)*m][:len(a0)]
			c2 := Kt[(j+2)*m : (j+3)*m][:len(a0)]
			c3 := Kt[(j+3)*m : (j+4)*m][:len(a0)]
			var s00, s01, s02, s03, s10, s11, s12, s13 float64
			for k := range a0 {
				x0, x1 := a0[k], a1[k]
				y0, y1, y2, y3 := c0[k], c1[k], c2[k], c3[k]
				s00 += float64(x0 * y0)
				s01 += float64(x0 * y1)
				s02 += float64(x0 * y2)
				s03 += float64(x0 * y3)
				s10 += float64(x1 * y0)
				s11 += float64(x1 * y1)
				s12 += float64(x1 * y2)
				s13 += float64(x1 * y3)
			}
			S[i0*b+j], S[i0*b+j+1], S[i0*b+j+2], S[i0*b+j+3] = s00, s01, s02, s03
			S[(i0+1)*b+j], S[(i0+1)*b+j+1], S[(i0+1)*b+j+2], S[(i0+1)*b+j+3] = s10, s11, s12, s13
		}
		for ; j < b; j++ {
			S[i0*b+j] = Dot(a0, Kt[j*m:(j+1)*m])
			S[(i0+1)*b+j] = Dot(a1, Kt[j*m:(j+1)*m])
		}
	}
	for i := range b {
		for j := i + 1; j < b; j++ {
			S[j*b+i] = S[i*b+j]
		}
	}
}

// Dot is sum_k a[k] b[k] in k order (the order Gram's blocks use), each
// product rounded; len(b) >= len(a).
func Dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for k := range a {
		s += float64(a[k] * b[k])
	}
	return s
}

// Cholesky overwrites the upper triangle of the symmetric b x b matrix A
// (row-major; the lower triangle is not read) with U, A = U'U, by the
// right-looking outer-product algorithm: row k of U is row k of the updated
// A over sqrt(A[k][k]), then every later row i loses U[k][i] times row k.
// Entry (i, j) thus loses its terms U[k][i] U[k][j] in k order. The rows
// are taken four at a time: the four are finished among themselves, then
// each later row loses their four terms in one pass (subScaled4), in the
// same order, so the blocking changes no bit. It reports false, leaving A
// partly overwritten, when a pivot is not positive (or NaN): A is not
// (numerically) positive definite.
func Cholesky(A []float64, b int) bool {
	for k0 := 0; k0 < b; k0 += 4 {
		k1 := min(k0+4, b)
		for k := k0; k < k1; k++ {
			d := A[k*b+k]
			if !(d > 0) {
				return false
			}
			d = math.Sqrt(d)
			rowK := A[k*b+k : (k+1)*b]
			rowK[0] = d
			for j := 1; j < len(rowK); j++ {
				rowK[j] /= d
			}
			for i := k + 1; i < k1; i++ {
				subScaled(A[i*b+i:(i+1)*b], rowK[i-k], rowK[i-k:])
			}
		}
		if k1-k0 < 4 {
			for k := k0; k < k1; k++ {
				rowK := A[k*b+k : (k+1)*b]
				for i := k1; i < b; i++ {
					subScaled(A[i*b+i:(i+1)*b], rowK[i-k], rowK[i-k:])
				}
			}
			continue
		}
		r0, r1, r2, r3 := A[k0*b+k0:(k0+1)*b], A[(k0+1)*b+k0+1:(k0+2)*b], A[(k0+2)*b+k0+2:(k0+3)*b], A[(k0+3)*b+k0+3:(k0+4)*b]
		for i := k1; i < b; i++ {
			a := [4]float64{r0[i-k0], r1[i-k0-1], r2[i-k0-2], r3[i-k0-3]}
			subScaled4(A[i*b+i:(i+1)*b], &a, r0[i-k0:], r1[i-k0-1:], r2[i-k0-2:], r3[i-k0-3:])
		}
	}
	return true
}

// subScaled4 sets y[j] = (((y[j] - a0 x0[j]) - a1 x1[j]) - a2 x2[j]) -
// a3 x3[j], each product rounded: the bits of four subScaled calls in a
// row, with one load and store of y.
func subScaled4(y []float64, a *[4]float64, x0, x1, x2, x3 []float64) {
	n := len(y)
	x0, x1, x2, x3 = x0[:n], x1[:n], x2[:n], x3[:n]
	a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
	for j := range y {
		v := y[j] - float64(a0*x0[j])
		v -= float64(a1 * x1[j])
		v -= float64(a2 * x2[j])
		y[j] = v - float64(a3*x3[j])
	}
}

// subScaled sets y[j] -= a x[j], len(y) = len(x), the product rounded;
// four entries per step (independent, so the order within y is free).
func subScaled(y []float64, a float64, x []float64) {
	y = y[:len(x)]
	j := 0
	for ; j+4 <= len(x); j += 4 {
		xs, ys := x[j:j+4:j+4], y[j:j+4:j+4]
		ys[0] -= float64(a * xs[0])
		ys[1] -= float64(a * xs[1])
		ys[2] -= float64(a * xs[2])
		ys[3] -= float64(a * xs[3])
	}
	for ; j < len(x); j++ {
		y[j] -= float64(a * x[j])
	}
}

// CholeskySolve overwrites x with A^-1 x for A = U'U, U the upper triangle
// of the factor (Cholesky): U'y = x forward, subtracting row k's terms in k
// order, then U w = y backward, each row's sum in column order.
func CholeskySolve(U []float64, b int, x []float64) {
	for k := range b {
		x[k] /= U[k*b+k]
		xk := x[k]
		for i, u := range U[k*b+k+1 : (k+1)*b] {
			x[k+1+i] -= float64(u * xk)
		}
	}
	for i := b - 1; i >= 0; i-- {
		s := x[i]
		for j, u := range U[i*b+i+1 : (i+1)*b] {
			s -= float64(u * x[i+1+j])
		}
		x[i] = s / U[i*b+i]
	}
}

// LUSolve overwrites x with A^-1 x by Gaussian elimination with partial
// pivoting (the largest |A[i][k]| at or below the diagonal, the first on
// ties), destroying A (b x b, row-major). Each row's update subtracts the
// multiples of the pivot rows in elimination order. It reports false when
// a pivot is exactly zero (A singular) or not a number.
func LUSolve(A []float64, b int, x []float64) bool {
	for k := range b {
		p, best := k, math.Abs(A[k*b+k])
		for i := k + 1; i < b; i++ {
			if v := math.Abs(A[i*b+k]); v > best {
				p, best = i, v
			}
		}
		if !(best > 0) {
			return false
		}
		if p != k {
			rk, rp := A[k*b:(k+1)*b], A[p*b:(p+1)*b]
			for j := range rk {
				rk[j], rp[j] = rp[j], rk[j]
			}
			x[k], x[p] = x[p], x[k]
		}
		rowK := A[k*b+k+1 : (k+1)*b]
		piv := A[k*b+k]
		for i := k + 1; i < b; i++ {
			l := A[i*b+k] / piv
			if l == 0 {
				continue
			}
			subScaled(A[i*b+k+1:(i+1)*b], l, rowK)
			x[i] -= float64(l * x[k])
		}
	}
	for i := b - 1; i >= 0; i-- {
		s := x[i]
		for j, u := range A[i*b+i+1 : (i+1)*b] {
			s -= float64(u * x[i+1+j])
		}
		x[i] = s / A[i*b+i]
	}
	return true
}

// TransMulVec returns g = Kt' w for the b x m matrix Kt (row-major): g[k] =
// sum_i w[i] Kt[i][k], adding the rows' terms in i order.
func TransMulVec(Kt []float64, b, m int, w []float64) []float64 {
	g := make([]float64, m)
	for i := range b {
		wi := w[i]
		for k, v := range Kt[i*m : (i+1)*m] {
			g[k] += float64(wi * v)
		}
	}
	return g
}
