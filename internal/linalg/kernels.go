package linalg

import (
	"sync"

	"github.com/pueval/pueval/internal/portmath"
)

//go:generate go run gen_kernels.go

// Vector kernels of Gram, Cholesky and TransMulVec.
//
// Each kernel has a plain-Go statement here (the *Go functions), which is
// what runs on architectures other than amd64 and on amd64 CPUs without
// AVX2, and what the amd64 assembly (kernels_amd64.s, written by
// gen_kernels.go; AVX-512 and AVX2 versions, chosen at run time in
// kernels_amd64.go) is tested against, bit for bit (the *KernelsAgree tests): a
// result must not depend on the CPU's instruction sets. The kernels keep
// the package's orders exactly, so no result changes by a bit:
//
//   - the elementwise kernels (subScaled, syrk4, addScaled4) perform in
//     each lane what the plain Go performs for that element, a separate
//     rounded multiply, then the add or subtract (never a fused
//     multiply-add);
//   - expScaled performs portmath.Exp's operations lane by lane (fdlibm's
//     algorithm, each product rounded), for arguments in [-708, 0]; others
//     (and NaN) go to portmath.Exp itself;
//   - Gram's sums are not split: a tile of 4 rows by 24 (AVX-512) or 12
//     (AVX2) columns of S holds 48 or 96 independent sums, one per lane,
//     each taking the products of its two rows in k order from a copy of
//     Kt transposed (the rows' values at one k side by side), so every
//     entry is the in-order dot of its two rows, as Gram states. The k
//     range is taken in blocks (gramBlock) so that the transposed block
//     stays in the cache; a block carries on from the sums the previous
//     one stored, which changes no bit.

// kernels is one implementation of the kernels: the plain Go (goKernels)
// or one instruction set's assembly (kernels_amd64.go).
type kernels struct {
	name string
	// gramCols is the column count of gramPanel's tiles; 0 for the plain
	// Go, whose Gram computes its blocks of S directly (gramGo).
	gramCols int
	// gramPanel accumulates the tiles of 4 rows of S (see gramPanelGo).
	gramPanel func(rows [4][]float64, t []float64, ldt, i0, j0, nc, kn int, load bool)
	// cholPanel is Cholesky's trailing update of 4 rows by a panel of
	// finished rows, gramPanel's tiles with subtraction (see cholPanelGo).
	cholPanel func(rows [4][]float64, t []float64, ldt, i0, j0, nc, kn int, load bool)
	subScaled func(y []float64, a float64, x []float64)
	// divide sets y[j] /= d (a division is correctly rounded in any lane).
	divide func(y []float64, d float64)
	// syrk4 is Cholesky's update of the later rows by four pivot rows
	// (see syrk4Go).
	syrk4      func(A []float64, lda int, u [4][]float64, i0, i1, b int)
	addScaled4 func(y []float64, a [4]float64, x0, x1, x2, x3 []float64)
	// expScaled sets dst[k] = portmath.Exp(src[k] c) (see expScaledGo).
	expScaled func(dst, src []float64, c float64)
}

var goKernels = kernels{name: "go", gramPanel: gramPanelGo, cholPanel: cholPanelGo, subScaled: subScaledGo, divide: divideGo, syrk4: syrk4Go, addScaled4: addScaled4Go, expScaled: expScaledGo}

// vk is the implementation in use: the best the CPU supports (pickKernels).
var vk = pickKernels()

// gramBlock is the number of k (columns of Kt) one pass of the vector Gram
// takes: the transposed block, 256 rows of S's padded width (about 440 kB
// for b = 200), stays in a core's level-2 cache while the tiles sweep it.
const gramBlock = 256

// gramMinRows is the least b for which Gram takes the vector kernels: the
// tiles pad S to a multiple of their width, which costs more than it saves
// on a handful of rows.
const gramMinRows = 16

// gramPanelGo sets, for r < 4 and j < nc, s = rows[r][j] (load) or 0 (not
// load), then s += t[k ldt + i0 + r] t[k ldt + j0 + j] for k = 0..kn-1 in
// order, each product rounded, and rows[r][j] = s: the k-ordered sums of
// 4 rows of S against nc columns, from t, a block of Kt transposed. The
// product's left operand is row i0+r's value, as in gramGo.
func gramPanelGo(rows [4][]float64, t []float64, ldt, i0, j0, nc, kn int, load bool) {
	for r := range 4 {
		o := rows[r][:nc]
		for j := range o {
			var s float64
			if load {
				s = o[j]
			}
			for k := range kn {
				s += float64(t[k*ldt+i0+r] * t[k*ldt+j0+j])
			}
			o[j] = s
		}
	}
}

// syrk4Go sets, for the rows i = i0..i1-1 of A (row-major, row length
// lda) and their columns j = i..b-1, A[i][j] = (((A[i][j] - u0[i] u0[j]) -
// u1[i] u1[j]) - u2[i] u2[j]) - u3[i] u3[j]: the update of Cholesky's
// upper triangle by four finished rows u (indexed by column), row by row
// with subScaled4Go.
func syrk4Go(A []float64, lda int, u [4][]float64, i0, i1, b int) {
	u0, u1, u2, u3 := u[0][:b], u[1][:b], u[2][:b], u[3][:b]
	for i := i0; i < i1; i++ {
		subScaled4Go(A[i*lda+i:i*lda+b], [4]float64{u0[i], u1[i], u2[i], u3[i]}, u0[i:], u1[i:], u2[i:], u3[i:])
	}
}

// cholPanelGo sets, for r < 4 and j < nc, s = rows[r][j], then s -= t[k
// ldt + i0 + r] t[k ldt + j0 + j] for k = 0..kn-1 in order, each product
// rounded, and rows[r][j] = s: Cholesky's update of 4 rows by kn finished
// rows t (the product's left operand the row's own coefficient, as in
// syrk4Go). load must be true (the signature is gramPanel's).
func cholPanelGo(rows [4][]float64, t []float64, ldt, i0, j0, nc, kn int, load bool) {
	if !load {
		panic("linalg: cholPanel: load is false")
	}
	for r := range 4 {
		o := rows[r][:nc]
		for j := range o {
			s := o[j]
			for k := range kn {
				s -= float64(t[k*ldt+i0+r] * t[k*ldt+j0+j])
			}
			o[j] = s
		}
	}
}

// subScaled4Go sets y[j] = (((y[j] - a0 x0[j]) - a1 x1[j]) - a2 x2[j]) -
// a3 x3[j], each product rounded: the bits of four subScaled calls in a
// row, with one load and store of y.
func subScaled4Go(y []float64, a [4]float64, x0, x1, x2, x3 []float64) {
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

// addScaled4Go sets y[j] = (((y[j] + a0 x0[j]) + a1 x1[j]) + a2 x2[j]) +
// a3 x3[j], each product rounded: the bits of four y[j] += a x[j] passes
// in a row.
func addScaled4Go(y []float64, a [4]float64, x0, x1, x2, x3 []float64) {
	n := len(y)
	x0, x1, x2, x3 = x0[:n], x1[:n], x2[:n], x3[:n]
	a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
	for j := range y {
		v := y[j] + float64(a0*x0[j])
		v += float64(a1 * x1[j])
		v += float64(a2 * x2[j])
		y[j] = v + float64(a3*x3[j])
	}
}

// subScaledGo sets y[j] -= a x[j], len(y) = len(x), the product rounded;
// four entries per step (independent, so the order within y is free).
func subScaledGo(y []float64, a float64, x []float64) {
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

// expScaledGo sets dst[k] = portmath.Exp(src[k] c) (dst may be src).
func expScaledGo(dst, src []float64, c float64) {
	dst = dst[:len(src)]
	for k, x := range src {
		dst[k] = portmath.Exp(x * c)
	}
}

// divideGo sets y[j] /= d.
func divideGo(y []float64, d float64) {
	for j := range y {
		y[j] /= d
	}
}

// gramScratch holds the vector Gram's buffers between calls (kernelauc's
// cross-validation computes thousands of Grams of one size).
var gramScratch = sync.Pool{New: func() any { return new([]float64) }}
