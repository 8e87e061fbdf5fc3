// Package sgemm computes single-precision matrix products
//
//	C = op(A) op(B) + beta C,  op(X) = X or X^T,
//
// for training DistCurve's network (estimators/distcurve/train). It is a
// packed, blocked product in the manner of BLIS: op(B) is packed in panels of
// NR = 32 columns, op(A) in panels of MR = 14 rows, and a micro-kernel updates
// a 14 x 32 tile of C from a KC-long slice of one panel of each. On amd64
// with AVX-512 the micro-kernel is assembly (kernel_amd64.s, written by
// gen_kernel.go) that keeps the tile in 28 ZMM registers and uses fused
// multiply-adds; elsewhere it is plain Go with a separate rounding of every
// product, so the two differ in the last bits. Training is a one-off
// whose weights are shipped as data, so its bits need not be the same on
// every CPU; for a given CPU the result does not depend on the number of
// goroutines, because every element of C is summed over k in the same
// order (blocks of KC, each from k = 0 up) whichever goroutine computes it.
package sgemm

import (
	"fmt"
	"runtime"
	"sync"
)

// Tile and block sizes: MR x NR is the micro-kernel's tile; KC is the depth
// of a packed block (a 32-column B panel of KC rows, 32 KiB, stays in L1),
// MC rows of A are packed at a time (168 x 256 floats, 168 KiB, for L2) and
// NC columns of B (256 x 512 floats, 512 KiB).
const (
	MR = 14
	NR = 32
	KC = 256
	MC = 12 * MR
	NC = 16 * NR
)

// Threads is the number of goroutines a product may use (at most; small
// products use fewer). It does not change the result.
var Threads = runtime.GOMAXPROCS(0)

// A micro-kernel computes the MR x NR tile sum_k A[i][k] b[k*NR+j] over kc
// steps of a packed B panel and stores it at c (row stride ldc), adding it
// to what is there when load is true. col reads A[i][k] at a[k*ks+i] (a
// packed panel has ks = MR), row at a[i*rs+k].
type microKernel func(kc int, a *float32, stride int, b, c *float32, ldc int, load bool)

type kernelSet struct {
	name     string
	col, row microKernel
}

// kernels is the set in use: assembly where the CPU has it (kernel_amd64.go).
var kernels = goKernels

var goKernels = kernelSet{name: "go", col: kernColGo, row: kernRowGo}

// Gemm sets C = op(A) op(B) + beta C, where op(A) is m x k and op(B) is
// k x n, all matrices row-major with leading dimensions lda, ldb and ldc:
// op(A)[i][p] is a[i*lda+p], or a[p*lda+i] when transA. With beta 0, C is
// not read (NaN there does not propagate). It panics on shapes or slices
// that do not fit, as a BLAS does.
func Gemm(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkShape("A", transA, m, k, a, lda)
	checkShape("B", transB, k, n, b, ldb)
	checkShape("C", false, m, n, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	if beta != 0 && beta != 1 {
		for i := range m {
			row := c[i*ldc : i*ldc+n]
			for j := range row {
				row[j] *= beta
			}
		}
		beta = 1
	}
	if k == 0 {
		if beta == 0 {
			for i := range m {
				clear(c[i*ldc : i*ldc+n])
			}
		}
		return
	}
	p := problem{transA: transA, transB: transB, k: k, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc, load: beta != 0, direct: n <= 2*NR, kc: KC}
	if p.direct && transA {
		p.kc = kcStrided
	}
	// Split C into Threads bands of whole tiles, along the longer side.
	mt, nt := (m+MR-1)/MR, (n+NR-1)/NR
	w := max(1, min(Threads, max(mt, nt)))
	if w == 1 {
		p.block(0, m, 0, n)
		return
	}
	var wg sync.WaitGroup
	for t := range w {
		if mt >= nt {
			i0, i1 := min(m, t*mt/w*MR), min(m, (t+1)*mt/w*MR)
			wg.Go(func() { p.block(i0, i1, 0, n) })
		} else {
			j0, j1 := min(n, t*nt/w*NR), min(n, (t+1)*nt/w*NR)
			wg.Go(func() { p.block(0, m, j0, j1) })
		}
	}
	wg.Wait()
}

func checkShape(name string, trans bool, rows, cols int, x []float32, ld int) {
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("sgemm: %s: negative shape %d x %d", name, rows, cols))
	}
	r, c := rows, cols
	if trans {
		r, c = cols, rows
	}
	if ld < max(1, c) {
		panic(fmt.Sprintf("sgemm: %s: leading dimension %d < %d columns", name, ld, c))
	}
	if r > 0 && len(x) < (r-1)*ld+c {
		panic(fmt.Sprintf("sgemm: %s: %d elements, %d x %d with stride %d needs %d", name, len(x), r, c, ld, (r-1)*ld+c))
	}
}

type problem struct {
	transA, transB bool
	k              int
	a, b, c        []float32
	lda, ldb, ldc  int
	load           bool // add to C (beta 1) rather than overwrite it
	// direct: the micro-kernel reads full MR-row panels of A in place
	// instead of packing them. Chosen when C has at most two B panels, so
	// that A is read about once anyway and packing would only add a copy.
	direct bool
	// kc is the depth of a block: KC, or kcStrided when A is read in place
	// transposed, each k then on another row of A (often another page):
	// fewer rows per block keep them in the first-level TLB.
	kc int
}

const kcStrided = 32

// buffers holds one goroutine's packed blocks and an edge tile.
type buffers struct {
	pa, pb []float32
	tile   [MR * NR]float32
}

var pool = sync.Pool{New: func() any {
	return &buffers{pa: make([]float32, MC*KC), pb: make([]float32, KC*NC)}
}}

// block computes rows i0..i1 and columns j0..j1 of C.
func (p *problem) block(i0, i1, j0, j1 int) {
	buf := pool.Get().(*buffers)
	defer pool.Put(buf)
	for jc := j0; jc < j1; jc += NC {
		nc := min(NC, j1-jc)
		for pc := 0; pc < p.k; pc += p.kc {
			kc := min(p.kc, p.k-pc)
			load := p.load || pc > 0
			p.packB(buf.pb, pc, kc, jc, nc)
			for ic := i0; ic < i1; ic += MC {
				mc := min(MC, i1-ic)
				if !p.direct {
					p.packA(buf.pa, ic, mc, pc, kc)
				} else if rem := mc % MR; rem != 0 {
					p.packA(buf.pa[(mc-rem)*kc:], ic+mc-rem, rem, pc, kc)
				}
				p.macro(buf, ic, mc, jc, nc, kc, pc, load)
			}
		}
	}
}

// macro runs the micro-kernel over the packed mc x nc block.
func (p *problem) macro(buf *buffers, ic, mc, jc, nc, kc, pc int, load bool) {
	k := kernels
	for jr := 0; jr < nc; jr += NR {
		nr := min(NR, nc-jr)
		bp := buf.pb[jr*kc:]
		for ir := 0; ir < mc; ir += MR {
			mr := min(MR, mc-ir)
			ap := buf.pa[ir*kc:]
			off := (ic+ir)*p.ldc + jc + jr
			kern, a, stride := k.col, &ap[0], MR
			if p.direct && mr == MR {
				if p.transA {
					a, stride = &p.a[pc*p.lda+ic+ir], p.lda
				} else {
					kern, a, stride = k.row, &p.a[(ic+ir)*p.lda+pc], p.lda
				}
			}
			if mr == MR && nr == NR {
				kern(kc, a, stride, &bp[0], &p.c[off], p.ldc, load)
				continue
			}
			kern(kc, a, stride, &bp[0], &buf.tile[0], NR, false)
			for i := range mr {
				row := p.c[off+i*p.ldc : off+i*p.ldc+nr]
				t := buf.tile[i*NR : i*NR+nr]
				if load {
					for j, v := range t {
						row[j] += v
					}
				} else {
					copy(row, t)
				}
			}
		}
	}
}

// packA packs rows ic..ic+mc, depths pc..pc+kc of op(A) into panels of MR
// rows: panel q holds, for each depth, its MR row values (zero beyond m).
func (p *problem) packA(dst []float32, ic, mc, pc, kc int) {
	a, lda := p.a, p.lda
	for ir := 0; ir < mc; ir += MR {
		mr := min(MR, mc-ir)
		d := dst[ir*kc : ir*kc+kc*MR]
		if mr < MR {
			clear(d)
		}
		r0 := ic + ir
		if p.transA {
			if mr == MR {
				for kk := range kc {
					o := (pc+kk)*lda + r0
					*(*[MR]float32)(d[kk*MR:]) = *(*[MR]float32)(a[o:])
				}
				continue
			}
			for kk := range kc {
				o := (pc+kk)*lda + r0
				copy(d[kk*MR:kk*MR+mr], a[o:o+mr])
			}
			continue
		}
		for i := range mr {
			o := (r0+i)*lda + pc
			src := a[o : o+kc]
			for kk, v := range src {
				d[kk*MR+i] = v
			}
		}
	}
}

// packB packs depths pc..pc+kc, columns jc..jc+nc of op(B) into panels of
// NR columns: panel q holds, for each depth, its NR column values (zero
// beyond n).
func (p *problem) packB(dst []float32, pc, kc, jc, nc int) {
	b, ldb := p.b, p.ldb
	for jr := 0; jr < nc; jr += NR {
		nr := min(NR, nc-jr)
		d := dst[jr*kc : jr*kc+kc*NR]
		if nr < NR {
			clear(d)
		}
		c0 := jc + jr
		if !p.transB {
			if nr == NR {
				for kk := range kc {
					o := (pc+kk)*ldb + c0
					*(*[NR]float32)(d[kk*NR:]) = *(*[NR]float32)(b[o:])
				}
				continue
			}
			for kk := range kc {
				o := (pc+kk)*ldb + c0
				copy(d[kk*NR:kk*NR+nr], b[o:o+nr])
			}
			continue
		}
		for j := range nr {
			o := (c0+j)*ldb + pc
			src := b[o : o+kc]
			for kk, v := range src {
				d[kk*NR+j] = v
			}
		}
	}
}

// kernColGo and kernRowGo are the portable micro-kernels: every product
// rounded to float32 before it is added.
func kernColGo(kc int, a *float32, ks int, b, c *float32, ldc int, load bool) {
	pa := unsafeSlice(a, (kc-1)*ks+MR)
	kernGo(kc, func(i, k int) float32 { return pa[k*ks+i] }, b, c, ldc, load)
}

func kernRowGo(kc int, a *float32, rs int, b, c *float32, ldc int, load bool) {
	pa := unsafeSlice(a, (MR-1)*rs+kc)
	kernGo(kc, func(i, k int) float32 { return pa[i*rs+k] }, b, c, ldc, load)
}

func kernGo(kc int, at func(i, k int) float32, b, c *float32, ldc int, load bool) {
	pb := unsafeSlice(b, kc*NR)
	var acc [MR][NR]float32
	for kk := range kc {
		brow := (*[NR]float32)(pb[kk*NR : kk*NR+NR])
		for i := range MR {
			av := at(i, kk)
			r := &acc[i]
			for j, bv := range brow {
				r[j] += float32(av * bv)
			}
		}
	}
	cc := unsafeSlice(c, (MR-1)*ldc+NR)
	for i := range MR {
		row := cc[i*ldc : i*ldc+NR]
		if load {
			for j := range row {
				row[j] += acc[i][j]
			}
		} else {
			copy(row, acc[i][:])
		}
	}
}
