package linalg

import "math"

// ExpScaled sets dst[k] = portmath.Exp(src[k] c) for k < len(src) (dst may
// be src): the Gaussian kernel exp(-d / (2 sigma^2)) of squared distances d
// with c = -1/(2 sigma^2). The amd64 vector kernels perform portmath.Exp's
// operations lane by lane, so the values are portmath.Exp's bits on every
// CPU.
func ExpScaled(dst, src []float64, c float64) {
	vk.expScaled(dst[:len(src)], src, c)
}

// Gram sets S[i*b+j] = sum_k Kt[i*m+k] Kt[j*m+k] for all i, j (b x b, full),
// each sum in k order. S[j*b+i] is the same sum of the same products, so
// computing the upper triangle and mirroring it gives the full matrix's
// bits. On amd64 with AVX2 or AVX-512 vector kernels compute the same sums
// (gramVec); elsewhere gramGo.
func Gram(Kt []float64, b, m int, S []float64) {
	if vk.gramCols == 0 || b < gramMinRows || m == 0 {
		gramGo(Kt, b, m, S)
		return
	}
	gramVec(vk, Kt, b, m, S)
}

// gramVec is Gram by k's gramPanel: the tiles of S's upper triangle, over
// blocks of gramBlock columns of Kt transposed (T: the block's k by the
// rows, padded with zero rows to a multiple of the tile width). The tiles
// left of column bFull write S in place; the last, partial tile column
// (columns bFull..bp-1) goes to the scratch E, the rows of the last panel
// past b to the scratch D.
func gramVec(k *kernels, Kt []float64, b, m int, S []float64) {
	Kt, S = Kt[:b*m], S[:b*b]
	if m == 0 {
		clear(S)
		return
	}
	nc := k.gramCols
	bp := (b + nc - 1) / nc * nc
	bFull := b / nc * nc
	ib := (b + 3) &^ 3
	kc := min(m, gramBlock)
	need := kc*bp + ib*nc + 4*bp
	sp := gramScratch.Get().(*[]float64)
	if cap(*sp) < need {
		*sp = make([]float64, need)
	}
	T, E, D := (*sp)[:kc*bp], (*sp)[kc*bp:kc*bp+ib*nc], (*sp)[kc*bp+ib*nc:need]
	for k0 := 0; k0 < m; k0 += kc {
		kn := min(kc, m-k0)
		transposeBlock(T, bp, Kt, b, m, k0, kn)
		for i0 := 0; i0 < b; i0 += 4 {
			var rows [4][]float64
			if j0 := i0 / nc * nc; j0 < bFull {
				for r := range rows {
					if i := i0 + r; i < b {
						rows[r] = S[i*b+j0 : i*b+bFull]
					} else {
						rows[r] = D[r*bp+j0 : r*bp+bFull]
					}
				}
				k.gramPanel(rows, T, bp, i0, j0, bFull-j0, kn, k0 > 0)
			}
			if bFull < b {
				for r := range rows {
					rows[r] = E[(i0+r)*nc : (i0+r+1)*nc]
				}
				k.gramPanel(rows, T, bp, i0, bFull, nc, kn, k0 > 0)
			}
		}
	}
	for i := range b {
		for j := max(i, bFull); j < b; j++ {
			S[i*b+j] = E[i*nc+j-bFull]
		}
	}
	gramScratch.Put(sp)
	mirror(S, b)
}

// transposeBlock sets T[q*bp+i] = Kt[i*m+k0+q] for q < kn, i < b, and the
// padding T[q*bp+i], b <= i < bp, to zero. Eight rows of Kt at a time, so
// that each k's eight values fill one cache line of T.
func transposeBlock(T []float64, bp int, Kt []float64, b, m, k0, kn int) {
	i := 0
	for ; i+8 <= b; i += 8 {
		var r [8][]float64
		for s := range r {
			r[s] = Kt[(i+s)*m+k0 : (i+s)*m+k0+kn]
		}
		for q := range kn {
			t := T[q*bp+i : q*bp+i+8 : q*bp+i+8]
			t[0], t[1], t[2], t[3] = r[0][q], r[1][q], r[2][q], r[3][q]
			t[4], t[5], t[6], t[7] = r[4][q], r[5][q], r[6][q], r[7][q]
		}
	}
	for ; i < b; i++ {
		for q, v := range Kt[i*m+k0 : i*m+k0+kn] {
			T[q*bp+i] = v
		}
	}
	for q := range kn {
		clear(T[q*bp+b : (q+1)*bp])
	}
}

// mirror copies S's upper triangle onto its lower.
func mirror(S []float64, b int) {
	for i := range b {
		for j := i + 1; j < b; j++ {
			S[j*b+i] = S[i*b+j]
		}
	}
}

// gramGo is Gram in plain Go: two rows of S against four at a time, sharing
// their loads.
func gramGo(Kt []float64, b, m int, S []float64) {
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
	mirror(S, b)
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
// (row-major; the strictly lower triangle is not read, and is left
// undefined: the vector path uses it as scratch) with U, A = U'U, by the
// right-looking outer-product algorithm: row k of U is row k of the
// updated A over sqrt(A[k][k]), then every later row i loses U[k][i] times
// row k. Entry (i, j) thus loses its terms U[k][i] U[k][j] in k order.
// The rows are taken four at a time: the four are finished among
// themselves, then each later row loses their four terms in one pass
// (syrk4Go), in the same order, so the blocking changes no bit. With the
// vector kernels, panels of cholBlock rows are finished so among
// themselves, then the later rows lose the panel's terms tile by tile
// (choleskyTrailing), each entry still in k order. It reports false,
// leaving A partly overwritten, when a pivot is not positive (or NaN): A is
// not (numerically) positive definite.
func Cholesky(A []float64, b int) bool {
	if vk.gramCols == 0 || b < 2*cholBlock {
		return choleskyRows(vk, A, b, 0, b)
	}
	A = A[:b*b]
	for p0 := 0; p0 < b; p0 += cholBlock {
		p1 := min(p0+cholBlock, b)
		if !choleskyRows(vk, A, b, p0, p1) {
			return false
		}
		choleskyTrailing(vk, A, b, p0, p1)
	}
	return true
}

// cholBlock is the panel height of the vector Cholesky: the trailing
// update's tiles take this many terms per load and store of S.
const cholBlock = 32

// choleskyRows factors rows p0..p1-1 of A, which have lost the terms of
// rows 0..p0-1, among themselves: four rows at a time, each block finished
// among itself, then the later rows of the range (up to p1) lose its four
// terms in one pass (syrk4).
func choleskyRows(k *kernels, A []float64, b, p0, p1 int) bool {
	for k0 := p0; k0 < p1; k0 += 4 {
		k1 := min(k0+4, p1)
		for kk := k0; kk < k1; kk++ {
			d := A[kk*b+kk]
			if !(d > 0) {
				return false
			}
			d = math.Sqrt(d)
			rowK := A[kk*b+kk : (kk+1)*b]
			rowK[0] = d
			k.divide(rowK[1:], d)
			for i := kk + 1; i < k1; i++ {
				k.subScaled(A[i*b+i:(i+1)*b], rowK[i-kk], rowK[i-kk:])
			}
		}
		if k1-k0 < 4 {
			for kk := k0; kk < k1; kk++ {
				rowK := A[kk*b+kk : (kk+1)*b]
				for i := k1; i < p1; i++ {
					k.subScaled(A[i*b+i:(i+1)*b], rowK[i-kk], rowK[i-kk:])
				}
			}
			continue
		}
		k.syrk4(A, b, [4][]float64{A[k0*b : (k0+1)*b], A[(k0+1)*b : (k0+2)*b], A[(k0+2)*b : (k0+3)*b], A[(k0+3)*b : (k0+4)*b]}, k1, p1, b)
	}
	return true
}

// choleskyTrailing subtracts the terms of the finished rows p0..p1-1 from
// the rows p1..b-1 (columns from the diagonal on): four rows at a time by
// k's cholPanel, whose tiles of gramCols columns end at column b and start
// left of the diagonal where they must (lower-triangle entries of rows >=
// p1, which nothing reads: scratch), each entry losing the terms in k
// order; the last rows (fewer than four) one term at a time by subScaled.
// p1 >= cholBlock >= gramCols keeps every tile inside the matrix.
func choleskyTrailing(k *kernels, A []float64, b, p0, p1 int) {
	w := k.gramCols
	t := A[p0*b:]
	i0 := p1
	for ; i0+4 <= b; i0 += 4 {
		nc := (b - i0 + w - 1) / w * w
		j0 := b - nc
		var rows [4][]float64
		for r := range rows {
			rows[r] = A[(i0+r)*b+j0 : (i0+r+1)*b]
		}
		k.cholPanel(rows, t, b, i0, j0, nc, p1-p0, true)
	}
	for i := i0; i < b; i++ {
		for kk := p0; kk < p1; kk++ {
			k.subScaled(A[i*b+i:(i+1)*b], A[kk*b+i], A[kk*b+i:(kk+1)*b])
		}
	}
}

// CholeskySolve overwrites x with A^-1 x for A = U'U, U the upper triangle
// of the factor (Cholesky): U'y = x forward, subtracting row k's terms in k
// order (elementwise over the later entries: subScaled), then U w = y
// backward, each row's sum in column order.
func CholeskySolve(U []float64, b int, x []float64) {
	x = x[:b]
	for k := range b {
		x[k] /= U[k*b+k]
		vk.subScaled(x[k+1:], x[k], U[k*b+k+1:(k+1)*b])
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
			vk.subScaled(A[i*b+k+1:(i+1)*b], l, rowK)
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
// sum_i w[i] Kt[i][k], adding the rows' terms in i order (four rows per
// pass over g, the same order).
func TransMulVec(Kt []float64, b, m int, w []float64) []float64 {
	g := make([]float64, m)
	i := 0
	for ; i+4 <= b; i += 4 {
		a := [4]float64{w[i], w[i+1], w[i+2], w[i+3]}
		vk.addScaled4(g, a, Kt[i*m:(i+1)*m], Kt[(i+1)*m:(i+2)*m], Kt[(i+2)*m:(i+3)*m], Kt[(i+3)*m:(i+4)*m])
	}
	for ; i < b; i++ {
		wi := w[i]
		for k, v := range Kt[i*m : (i+1)*m] {
			g[k] += float64(wi * v)
		}
	}
	return g
}
