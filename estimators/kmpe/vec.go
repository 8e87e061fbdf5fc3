package kmpe

import "github.com/pueval/pueval/internal/portmath"

//go:generate go run gen_vec.go

// Vector kernels of the QP's inner loops and of the Cholesky factor.
//
// Each kernel has a plain-Go statement here (the *Go functions), which is
// what runs on architectures other than amd64 and what the amd64 assembly
// (vec_amd64.s, written by gen_vec.go; AVX-512 and AVX2 versions, chosen at
// run time in vec_amd64.go) is tested against, bit for bit
// (TestVecKernelsAgree): for a given architecture a result must not depend
// on the CPU's instruction sets. To that end:
//
//   - every product is rounded before it is added (the explicit float64
//     conversions: Go may otherwise fuse a*b + c into one FMA, as it does on
//     arm64 and on amd64 with GOAMD64=v3), and the assembly uses separate
//     multiplies and adds (never FMA), so an elementwise kernel (axpy,
//     axpy2, axpy4, axpy2x4, the Givens rotations, the Cholesky update)
//     computes in every lane exactly what the plain Go computes for that
//     element;
//   - a reduction (dot, dot2) has a fixed lane structure that the vector
//     code matches exactly: L partial sums (L = 32 for dot, 16 for dot2),
//     sum l accumulating the products k = l mod L in order over the whole
//     blocks of L, then a fixed combining tree (the one of AVX-512
//     registers of 8 lanes: register halves folded down to one lane, see
//     reduce32 and reduce16), then the tail k >= L floor(n/L) in order.
//     Many partial sums are also what makes the vector loops fast: the
//     additions of one sum depend on each other, those of different sums
//     do not.
//
// The summation order is thus fixed by the statements, so a result depends
// on nothing but the inputs. expNeg's statement is portmath.Exp (fdlibm's
// algorithm, products rounded), not math.Exp, whose amd64 assembly takes
// an FMA branch where the CPU has FMA and differs from arm64's: the vector
// exp performs portmath.Exp's operations lane by lane, so the kernel's
// values are the same on every CPU and architecture.

// vecKernels is one implementation of the kernels: the plain Go
// (goKernels) or one instruction set's assembly (vec_amd64.go).
type vecKernels struct {
	name string
	// scalar marks the plain Go, for callers whose vector layout costs
	// scalar code more than it saves (squaredDistances).
	scalar bool
	dot    func(a, b []float64) float64
	dot2   func(a, x, y []float64) (float64, float64)
	axpy   func(alpha float64, x, y []float64)
	axpy2  func(a, b float64, r, x, y []float64)
	// axpy4 adds four axpys' terms to y in one pass (see axpy4Go).
	axpy4 func(a *[4]float64, x *[4][]float64, y []float64)
	// axpy2x4 adds four axpy2s' terms to x and y in one pass (see
	// axpy2x4Go).
	axpy2x4 func(a, b *[4]float64, r *[4][]float64, x, y []float64)
	// rot applies Givens rotations to rotRows rows at once (see rotGo).
	rot func(rows [][]float64, off int, xs, cs, sn []float64)
	// subTile is the Cholesky factor's trailing update of subRows rows
	// (see subTileGo).
	subTile func(rows [][]float64, k0, kn int, pt []float64, ldp, j0, nc int)
	// expNeg sets dst[k] = portmath.Exp(-src[k]/den), the Gaussian kernel of
	// squared distances (see expNegGo).
	expNeg func(dst, src []float64, den float64)
	// sqDist computes squared distances of subRows rows to runs of
	// subCols columns (see sqDistGo).
	sqDist func(out []float64, ldo int, xb, xt []float64, ldt, d, nc int)
}

// rotRows is the number of rows one rot call rotates, rotCols the multiple
// of columns it takes; subRows and subCols are the same for subTile.
const (
	rotRows = 8
	rotCols = 8
	subRows = 4
	subCols = 16
)

var goKernels = vecKernels{name: "go", scalar: true, dot: dotGo, dot2: dot2Go, axpy: axpyGo, axpy2: axpy2Go, axpy4: axpy4Go, axpy2x4: axpy2x4Go, rot: rotGo, subTile: subTileGo, expNeg: expNegGo, sqDist: sqDistGo}

// vk is the implementation in use: the best the CPU supports (pickKernels).
var vk = pickKernels()

// dot returns sum_k a[k] b[k], len(b) >= len(a) (dotGo's order).
func dot(a, b []float64) float64 { return vk.dot(a, b[:len(a)]) }

// dot2 returns dot(a, x) and dot(a, y) in one pass over a, but summed as
// dot2Go states (16 partial sums, not dot's 32).
func dot2(a, x, y []float64) (float64, float64) { return vk.dot2(a, x[:len(a)], y[:len(a)]) }

// axpy sets y[k] += alpha x[k], len(y) >= len(x).
func axpy(alpha float64, x, y []float64) { vk.axpy(alpha, x, y[:len(x)]) }

// axpy2 sets x[k] += a r[k] and y[k] += b r[k] in one pass over r (the
// same values as two axpy calls).
func axpy2(a, b float64, r, x, y []float64) { vk.axpy2(a, b, r, x[:len(r)], y[:len(r)]) }

// axpy4 sets y[k] += a[r] x[r][k] for r = 0, 1, 2, 3 in that order, len(x[r])
// >= len(y): the values of four axpy calls in a row, with one pass over y
// instead of four (the exact gradient's sum over the support).
func axpy4(a *[4]float64, x *[4][]float64, y []float64) { vk.axpy4(a, x, y) }

// axpy2x4 sets x[k] += a[i] r[i][k] and y[k] += b[i] r[i][k] for i = 0, 1,
// 2, 3 in that order, len(r[i]) >= len(y) = len(x): the values of four
// axpy2 calls in a row, with one pass over x and y (back substitutions).
func axpy2x4(a, b *[4]float64, r *[4][]float64, x, y []float64) { vk.axpy2x4(a, b, r, x, y) }

// dotGo: 32 partial sums over whole blocks of 32, combined by reduce32,
// then the tail in order.
func dotGo(a, b []float64) float64 {
	b = b[:len(a)]
	var s [32]float64
	k := 0
	for ; k+32 <= len(a); k += 32 {
		x, y := a[k:k+32:k+32], b[k:k+32:k+32]
		for l := range s {
			s[l] += float64(x[l] * y[l])
		}
	}
	r := reduce32(&s)
	for ; k < len(a); k++ {
		r += float64(a[k] * b[k])
	}
	return r
}

// reduce32 combines 32 partial sums as the AVX-512 code does with its four
// registers of 8 lanes (sums 0-7, 8-15, 16-23, 24-31): (r0 + r1) + (r2 +
// r3), then the upper half of the 8 lanes onto the lower, 4 -> 2 -> 1. The
// AVX2 code (eight registers of 4 lanes) adds the same pairs.
func reduce32(s *[32]float64) float64 {
	var v [8]float64
	for l := range v {
		v[l] = (s[l] + s[l+8]) + (s[l+16] + s[l+24])
	}
	return fold8(&v)
}

// reduce16 combines 16 partial sums (two registers of 8 lanes) likewise.
func reduce16(s *[16]float64) float64 {
	var v [8]float64
	for l := range v {
		v[l] = s[l] + s[l+8]
	}
	return fold8(&v)
}

// fold8 adds 8 lanes by halves: lane l + lane l+4, then l + l+2, then 0 + 1.
func fold8(v *[8]float64) float64 {
	w0, w1, w2, w3 := v[0]+v[4], v[1]+v[5], v[2]+v[6], v[3]+v[7]
	return (w0 + w2) + (w1 + w3)
}

// dot2Go: 16 partial sums for each of the two results, combined by
// reduce16, then the tails in order.
func dot2Go(a, x, y []float64) (float64, float64) {
	x, y = x[:len(a)], y[:len(a)]
	var s, t [16]float64
	k := 0
	for ; k+16 <= len(a); k += 16 {
		p, u, w := a[k:k+16:k+16], x[k:k+16:k+16], y[k:k+16:k+16]
		for l := range s {
			s[l] += float64(p[l] * u[l])
			t[l] += float64(p[l] * w[l])
		}
	}
	rs, rt := reduce16(&s), reduce16(&t)
	for ; k < len(a); k++ {
		rs += float64(a[k] * x[k])
		rt += float64(a[k] * y[k])
	}
	return rs, rt
}

func axpyGo(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for k, v := range x {
		y[k] += float64(alpha * v)
	}
}

func axpy2Go(a, b float64, r, x, y []float64) {
	x, y = x[:len(r)], y[:len(r)]
	for k, v := range r {
		x[k] += float64(a * v)
		y[k] += float64(b * v)
	}
}

// axpy4Go: each y[k] takes the four products in order, each product
// rounded before it is added, as four axpyGo calls would.
func axpy4Go(a *[4]float64, x *[4][]float64, y []float64) {
	x0, x1, x2, x3 := x[0][:len(y)], x[1][:len(y)], x[2][:len(y)], x[3][:len(y)]
	a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
	for k, v := range y {
		v += float64(a0 * x0[k])
		v += float64(a1 * x1[k])
		v += float64(a2 * x2[k])
		y[k] = v + float64(a3*x3[k])
	}
}

// axpy2x4Go: each x[k] and y[k] take their four products in order, each
// rounded before it is added, as four axpy2Go calls would.
func axpy2x4Go(a, b *[4]float64, r *[4][]float64, x, y []float64) {
	x = x[:len(y)]
	r0, r1, r2, r3 := r[0][:len(y)], r[1][:len(y)], r[2][:len(y)], r[3][:len(y)]
	for k := range y {
		u, w := x[k], y[k]
		u += float64(a[0] * r0[k])
		w += float64(b[0] * r0[k])
		u += float64(a[1] * r1[k])
		w += float64(b[1] * r1[k])
		u += float64(a[2] * r2[k])
		w += float64(b[2] * r2[k])
		x[k] = u + float64(a[3]*r3[k])
		y[k] = w + float64(b[3]*r3[k])
	}
}

// rotGo applies the Givens rotations j = 0..len(cs)-1 (cosine cs[j], sine
// sn[j]) to each row (from entry off): with x the row's carried entry
// (xs[r], updated), rotation j sets row[off+j] = c x + s y and x = -s x +
// c y for y = row[off+j+1] (chol.remove's update of the rows below the
// removed one; one call takes a block of rows through the rotations that
// all of them need). len(cs) is a multiple of rotCols and each row holds
// off+len(cs)+1 entries.
func rotGo(rows [][]float64, off int, xs, cs, sn []float64) {
	n := len(cs)
	sn = sn[:n]
	for r, row := range rows {
		if off+n >= len(row) {
			panic("kmpe: rot: short row")
		}
		row = row[off : off+n+1]
		x := xs[r]
		for j, c := range cs {
			y := row[j+1]
			row[j], x = float64(c*x)+float64(sn[j]*y), float64(-sn[j]*x)+float64(c*y)
		}
		xs[r] = x
	}
}

// subTileGo is the Cholesky factor's trailing update of one tile (see
// choleskyRows): for each row and columns j = j0..j0+nc-1,
// row[j] -= row[k0+k] pt[k ldp + j - j0] for k = 0..kn-1 in order, where
// pt holds kn factor columns transposed (pt[k ldp + j - j0] = L[j][k0+k]).
// The rows are written up to their capacity (past the lower triangle:
// entries the factor never reads).
func subTileGo(rows [][]float64, k0, kn int, pt []float64, ldp, j0, nc int) {
	for _, row := range rows {
		row = row[:cap(row)]
		a, c := row[k0:k0+kn], row[j0:j0+nc]
		for j := range c {
			s := c[j]
			for k, ak := range a {
				s -= float64(ak * pt[k*ldp+j])
			}
			c[j] = s
		}
	}
}

// expNegGo sets dst[k] = portmath.Exp(-src[k]/den) (dst may be src):
// the same bits on every CPU (math.Exp's differ between amd64 CPUs with
// and without FMA, and on arm64). The assembly versions compute what
// portmath.Exp computes, lane by lane (vec_amd64.go).
func expNegGo(dst, src []float64, den float64) {
	dst = dst[:len(src)]
	for k, x := range src {
		dst[k] = portmath.Exp(-x / den)
	}
}

// sqDistGo sets out[r ldo + j] = sum over k = 0..d-1, in order, of t^2,
// t = xt[k ldt + j] - xb[4k + r], for r < subRows and j < nc (a multiple of
// subCols): the squared distances of 4 rows (xb: their features
// interleaved) to nc rows given transposed (xt: feature k of row j at k ldt
// + j). t is the negated difference of squaredDistances' statement, the
// same square.
func sqDistGo(out []float64, ldo int, xb, xt []float64, ldt, d, nc int) {
	for r := range subRows {
		o := out[r*ldo : r*ldo+nc]
		for j := range o {
			var s float64
			for k := range d {
				t := xt[k*ldt+j] - xb[4*k+r]
				s += float64(t * t)
			}
			o[j] = s
		}
	}
}
