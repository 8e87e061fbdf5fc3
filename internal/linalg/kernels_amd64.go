//go:build amd64

package linalg

import (
	"unsafe"

	"github.com/pueval/pueval/internal/portmath"
	"golang.org/x/sys/cpu"
)

// The AVX-512 and AVX2 kernels are Go assembly (kernels_amd64.s, generated
// by gen_kernels.go), in every amd64 binary, chosen at run time by the
// CPU's features. hasAVX512 and hasAVX2 hold the CPU's (and the OS's)
// answer; tests mask them (TestPickKernels).
var (
	hasAVX512 = cpu.X86.HasAVX512F
	hasAVX2   = cpu.X86.HasAVX2
)

// The column counts of the Gram tiles: 3 registers of 8 (AVX-512) or 4
// (AVX2) lanes.
const (
	gramColsAVX512 = 24
	gramColsAVX2   = 12
)

var avx512Kernels = kernels{name: "avx512", gramCols: gramColsAVX512,
	gramPanel: func(rows [4][]float64, t []float64, ldt, i0, j0, nc, kn int, load bool) {
		var p [4]*float64
		gramPanelArgs(&p, rows, t, ldt, i0, j0, nc, kn, gramColsAVX512)
		gramPanelAVX512(&p, unsafe.SliceData(t), ldt, i0, j0, nc, kn, load)
	},
	cholPanel: func(rows [4][]float64, t []float64, ldt, i0, j0, nc, kn int, load bool) {
		var p [4]*float64
		gramPanelArgs(&p, rows, t, ldt, i0, j0, nc, kn, gramColsAVX512)
		if !load {
			panic("linalg: cholPanel: load is false")
		}
		cholPanelAVX512(&p, unsafe.SliceData(t), ldt, i0, j0, nc, kn, load)
	},
	subScaled: func(y []float64, a float64, x []float64) {
		y = y[:len(x)]
		subScaledAVX512(a, unsafe.SliceData(x), unsafe.SliceData(y), len(x))
	},
	divide: func(y []float64, d float64) { divideAVX512(d, unsafe.SliceData(y), len(y)) },
	syrk4: func(A []float64, lda int, u [4][]float64, i0, i1, b int) {
		p := syrk4Args(A, lda, u, i0, i1, b)
		syrk4AVX512(unsafe.SliceData(A), lda, &p, i0, i1, b)
	},
	addScaled4: func(y []float64, a [4]float64, x0, x1, x2, x3 []float64) {
		p := rows4(y, x0, x1, x2, x3)
		addScaled4AVX512(&a, &p, unsafe.SliceData(y), len(y))
	},
	expScaled: func(dst, src []float64, c float64) { expScaledVec(expScaledAVX512, 8, dst, src, c) },
}

var avx2Kernels = kernels{name: "avx2", gramCols: gramColsAVX2,
	gramPanel: func(rows [4][]float64, t []float64, ldt, i0, j0, nc, kn int, load bool) {
		var p [4]*float64
		gramPanelArgs(&p, rows, t, ldt, i0, j0, nc, kn, gramColsAVX2)
		gramPanelAVX2(&p, unsafe.SliceData(t), ldt, i0, j0, nc, kn, load)
	},
	cholPanel: func(rows [4][]float64, t []float64, ldt, i0, j0, nc, kn int, load bool) {
		var p [4]*float64
		gramPanelArgs(&p, rows, t, ldt, i0, j0, nc, kn, gramColsAVX2)
		if !load {
			panic("linalg: cholPanel: load is false")
		}
		cholPanelAVX2(&p, unsafe.SliceData(t), ldt, i0, j0, nc, kn, load)
	},
	subScaled: func(y []float64, a float64, x []float64) {
		y = y[:len(x)]
		subScaledAVX2(a, unsafe.SliceData(x), unsafe.SliceData(y), len(x))
	},
	divide: func(y []float64, d float64) { divideAVX2(d, unsafe.SliceData(y), len(y)) },
	syrk4: func(A []float64, lda int, u [4][]float64, i0, i1, b int) {
		p := syrk4Args(A, lda, u, i0, i1, b)
		syrk4AVX2(unsafe.SliceData(A), lda, &p, i0, i1, b)
	},
	addScaled4: func(y []float64, a [4]float64, x0, x1, x2, x3 []float64) {
		p := rows4(y, x0, x1, x2, x3)
		addScaled4AVX2(&a, &p, unsafe.SliceData(y), len(y))
	},
	expScaled: func(dst, src []float64, c float64) { expScaledVec(expScaledAVX2, 4, dst, src, c) },
}

// gramPanelArgs checks gramPanel's arguments against what the assembly
// reads and writes (4 rows of nc entries, nc a positive multiple of cols,
// kn >= 1 rows of t holding columns i0..i0+3 and j0..j0+nc-1) and sets p
// to the rows' first entries.
func gramPanelArgs(p *[4]*float64, rows [4][]float64, t []float64, ldt, i0, j0, nc, kn, cols int) {
	if nc < 1 || nc%cols != 0 || kn < 1 || i0 < 0 || j0 < 0 || ldt < max(i0+4, j0+nc) || len(t) < (kn-1)*ldt+max(i0+4, j0+nc) {
		panic("linalg: gramPanel: bad shape")
	}
	for r, row := range rows {
		p[r] = &row[:nc][0]
	}
}

// syrk4Args checks syrk4's arguments against what the assembly reads and
// writes (rows i0..i1-1 of A from column i0 to b-1, columns up to b-1 of
// the four rows u) and returns the rows' first entries.
func syrk4Args(A []float64, lda int, u [4][]float64, i0, i1, b int) [4]*float64 {
	if i0 < 0 || b > lda || i1 > b || (i0 < i1 && len(A) < (i1-1)*lda+b) {
		panic("linalg: syrk4: bad shape")
	}
	return [4]*float64{unsafe.SliceData(u[0][:b]), unsafe.SliceData(u[1][:b]), unsafe.SliceData(u[2][:b]), unsafe.SliceData(u[3][:b])}
}

// expScaledVec runs an assembly exp (w lanes, portmath.Exp's operations):
// the assembly stops at a register with an argument outside [-708, 0]
// (portmath.Exp's subnormal and special cases, NaN), which portmath.Exp
// then does, with the tail.
func expScaledVec(f func(dst, src *float64, n int, c float64) int, w int, dst, src []float64, c float64) {
	dst = dst[:len(src)]
	for k := 0; k < len(src); {
		if len(src)-k >= w {
			k += f(&dst[k], &src[k], len(src)-k, c)
		}
		for end := min(k+w, len(src)); k < end; k++ {
			dst[k] = portmath.Exp(src[k] * c)
		}
	}
}

// rows4 checks that each of the four rows x holds len(y) entries (the
// assembly reads that many) and returns their first entries' addresses.
func rows4(y, x0, x1, x2, x3 []float64) [4]*float64 {
	n := len(y)
	return [4]*float64{unsafe.SliceData(x0[:n]), unsafe.SliceData(x1[:n]), unsafe.SliceData(x2[:n]), unsafe.SliceData(x3[:n])}
}

func pickKernels() *kernels {
	switch {
	case hasAVX512:
		return &avx512Kernels
	case hasAVX2:
		return &avx2Kernels
	}
	return &goKernels
}

// allKernels lists the implementations that can run on this CPU.
func allKernels() []*kernels {
	all := []*kernels{&goKernels}
	if hasAVX2 {
		all = append(all, &avx2Kernels)
	}
	if hasAVX512 {
		all = append(all, &avx512Kernels)
	}
	return all
}

// The assembly routines (kernels_amd64.s). Lengths are element counts.

//go:noescape
func gramPanelAVX512(rows *[4]*float64, t *float64, ldt, i0, j0, nc, kn int, load bool)

//go:noescape
func subScaledAVX512(a float64, x, y *float64, n int)

//go:noescape
func syrk4AVX512(a *float64, lda int, u *[4]*float64, i0, i1, b int)

//go:noescape
func cholPanelAVX512(rows *[4]*float64, t *float64, ldt, i0, j0, nc, kn int, load bool)

//go:noescape
func addScaled4AVX512(a *[4]float64, x *[4]*float64, y *float64, n int)

//go:noescape
func gramPanelAVX2(rows *[4]*float64, t *float64, ldt, i0, j0, nc, kn int, load bool)

//go:noescape
func subScaledAVX2(a float64, x, y *float64, n int)

//go:noescape
func syrk4AVX2(a *float64, lda int, u *[4]*float64, i0, i1, b int)

//go:noescape
func cholPanelAVX2(rows *[4]*float64, t *float64, ldt, i0, j0, nc, kn int, load bool)

//go:noescape
func addScaled4AVX2(a *[4]float64, x *[4]*float64, y *float64, n int)

//go:noescape
func expScaledAVX512(dst, src *float64, n int, c float64) int

//go:noescape
func expScaledAVX2(dst, src *float64, n int, c float64) int

//go:noescape
func divideAVX512(d float64, y *float64, n int)

//go:noescape
func divideAVX2(d float64, y *float64, n int)
