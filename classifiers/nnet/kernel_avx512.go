//go:build goexperiment.simd && amd64

package nnet

import (
	"simd/archsimd"
	"unsafe"
)

// avx512Kernel computes the float32x16 numerics (kernel_f32.go) with one
// block of 16 rows per AVX-512 register: lane by lane the same operations
// as f32GoKernel in the same order, so the two agree bit for bit
// (TestF32KernelsAgree); only the schedule differs.
//
// The epoch runs over groups of up to avxGroup blocks. For each group:
//
//   - forward, two blocks at a time: the hidden units in chunks of four
//     (eight accumulators: every weight load serves two blocks), then one
//     at a time; dense columns by FMA with the weight pre-broadcast to a
//     vector, nibbles by a permute of the unit's 16-entry table (VPERMPS);
//     tanh; the output unit; the losses (float64); for training blocks the
//     output and hidden deltas, summed into the bias and output-weight
//     gradients and kept for the group;
//   - backward (training blocks only): the input-weight gradient as a small
//     matrix product, four units by two columns per pass, the eight
//     per-lane accumulators held in registers across the group's blocks.
//
// Every sum still runs, per lane, over the blocks in order, which is all the
// float32x16 numerics fix. All indexing is by unsafe pointer arithmetic
// within the slices that load sized; the slices' lengths are the bounds
// (TestF32KernelsAgree runs shapes with every remainder).
//go:generate go run gen_avx512.go

type avx512Kernel struct {
	f32Layout
	bb  []float32 // h*16: hidden biases, broadcast (predict)
	vb  []float32 // h*16: output weights, broadcast
	dhg []float32 // avxGroup*h*16: hidden deltas of the group's training blocks
	zg  []float32 // avxGroup*h*16: hidden outputs of the group's blocks
	Wp  []float32 // h*d*16: input weights in active column order, broadcast (predict)
	xp  []float32 // d*16: one block of rows to predict
}

// avxGroup is the number of blocks per group: 512 rows, whose inputs
// (2 KB per column) stay in the L1 or L2 cache between the forward and the
// backward pass.
const avxGroup = 32

func init() {
	registerKernel(kernelInfo{
		name: "avx512", numerics: NumericsFloat32x16, rank: 2,
		ok:  archsimd.X86.AVX512,
		new: func() kernel { return new(avx512Kernel) },
	})
}

type f32x16 = archsimd.Float32x16
type f64x8 = archsimd.Float64x8

// ptr is the address of s's first element.
func ptr(s []float32) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// lf loads the 16 floats at p[i:].
func lf(p unsafe.Pointer, i int) f32x16 {
	return archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(p, 4*i)))
}

// sf stores v at p[i:].
func sf(v f32x16, p unsafe.Pointer, i int) {
	v.Store((*[16]float32)(unsafe.Add(p, 4*i)))
}

// lu loads the 16 uint32s at p[i:].
func lu(p unsafe.Pointer, i int) archsimd.Uint32x16 {
	return archsimd.LoadUint32x16((*[16]uint32)(unsafe.Add(p, 4*i)))
}

// ld8 loads the 8 float64s at p[i:].
func ld8(p unsafe.Pointer, i int) f64x8 {
	return archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(p, 8*i)))
}

// Vector constants, each a row of 16 lanes, loaded rather than broadcast
// (a load has no arithmetic uop).
const (
	cNeg9 = iota
	cPos9
	cP5
	cP4
	cP3
	cP2
	cP1
	cP0
	cQ4
	cQ3
	cQ2
	cQ1
	cOne
	cNegOne
	cZero
	nConst
)

var consts = func() (c [nConst * lanes]float32) {
	v := [nConst]float32{-tanhClamp, tanhClamp, tanhP5f, tanhP4f, tanhP3f, tanhP2f, tanhP1f, tanhP0f,
		tanhQ4f, tanhQ3f, tanhQ2f, tanhQ1f, 1, -1, 0}
	for i, x := range v {
		for l := range lanes {
			c[i*lanes+l] = x
		}
	}
	return c
}()

// cv returns constant i as a vector.
func cv(i int) f32x16 { return lf(unsafe.Pointer(&consts), i*lanes) }

// tanh16 is tanh32 on 16 lanes.
func tanh16(x f32x16) f32x16 {
	x = x.Max(cv(cNeg9)).Min(cv(cPos9))
	y := x.Mul(x)
	p := cv(cP5).MulAdd(y, cv(cP4))
	p = p.MulAdd(y, cv(cP3))
	p = p.MulAdd(y, cv(cP2))
	p = p.MulAdd(y, cv(cP1))
	p = p.MulAdd(y, cv(cP0))
	q := cv(cQ4).MulAdd(y, cv(cQ3))
	q = q.MulAdd(y, cv(cQ2))
	q = q.MulAdd(y, cv(cQ1))
	q = q.MulAdd(y, cv(cOne))
	return x.Mul(p).Div(q).Max(cv(cNegOne)).Min(cv(cOne))
}

// oneMinusSq is fma(-z, z, 1).
func oneMinusSq(z f32x16) f32x16 {
	return cv(cZero).Sub(z).MulAdd(z, cv(cOne))
}

func (k *avx512Kernel) load(p *problem) {
	k.f32Layout.load(p)
	h := k.h
	growF32(&k.bb, h*lanes)
	growF32(&k.vb, h*lanes)
	growF32(&k.dhg, avxGroup*h*lanes)
	growF32(&k.zg, avxGroup*h*lanes)
}

func (k *avx512Kernel) epoch(w, g []float64) (sseT, sseV float64) {
	k.prepare(w)
	h := k.h
	for j := range h {
		for l := range lanes {
			k.vb[j*lanes+l] = k.v[j]
		}
	}
	var acc lossAcc
	for g0 := 0; g0 < k.nb; g0 += avxGroup {
		g1 := min(g0+avxGroup, k.nb)
		k.forward(g0, g1, &acc)
		if g0 < k.nbT {
			k.backward(g0, min(g1, k.nbT))
		}
	}
	acc.store(k.sT, k.sV)
	return k.finish(g)
}

// lossAcc holds the per-lane float64 loss sums, lanes 0-7 and 8-15.
type lossAcc struct{ t0, t1, v0, v1 f64x8 }

func (a *lossAcc) store(sT, sV []float64) {
	a.t0.Store((*[8]float64)(sT[:8]))
	a.t1.Store((*[8]float64)(sT[8:16]))
	a.v0.Store((*[8]float64)(sV[:8]))
	a.v1.Store((*[8]float64)(sV[8:16]))
}

// forward runs blocks [g0, g1) (an even number): first the hidden units of
// every block, two blocks at a time, then the output unit, the losses and
// the deltas block by block (two loops, so that the long dependency chain of
// each block's output unit overlaps with the next block's).
func (k *avx512Kernel) forward(g0, g1 int, acc *lossAcc) {
	h, d, dn, nq := k.h, k.d, k.dn, k.nq
	pv := ptr(k.vb)
	pz, pdh := ptr(k.zg), ptr(k.dhg)
	pt, pwt := ptr(k.t), ptr(k.wt)
	pwt64, pwv64 := unsafe.Pointer(unsafe.SliceData(k.wt64)), unsafe.Pointer(unsafe.SliceData(k.wv64))
	pgb, pgv, pgc := ptr(k.gb), ptr(k.gv), ptr(k.gc)
	hl := h * lanes // block stride of zg and dhg
	for blk := g0; blk < g1; blk += 2 {
		xa := blk * k.dx * lanes // block A's inputs; block B's follow
		na := blk * nq * lanes
		za := (blk - g0) * hl // block A's hidden outputs; block B's follow at +hl
		// Dense columns, then nibbles: the assembly loops, up to
		// maxTileUnits units a call.
		for j0 := 0; j0 < h; j0 += maxTileUnits {
			u := min(maxTileUnits, h-j0)
			fwdDense[u](&k.x[xa], k.dx*lanes*4, &k.W[j0*d], d*4, dn, &k.zg[za+j0*lanes], hl*4, &k.b[j0])
			if nq > 0 {
				nibbles[u](&k.tab[j0*nq*lanes], nq*lanes*4, &k.nib[na], nq*lanes*4, nq, &k.zg[za+j0*lanes], hl*4)
			}
		}
		for j := range h {
			sf(tanh16(lf(pz, za+j*lanes)), pz, za+j*lanes)
			sf(tanh16(lf(pz, za+hl+j*lanes)), pz, za+hl+j*lanes)
		}
	}

	// Output unit, losses and deltas, block by block.
	cc := archsimd.BroadcastFloat32x16(k.c)
	t0, t1, v0, v1 := acc.t0, acc.t1, acc.v0, acc.v1
	gc := lf(pgc, 0)
	for blk := g0; blk < g1; blk++ {
		zo := (blk - g0) * hl
		o := cc
		for j := range h {
			o = lf(pv, j*lanes).MulAdd(lf(pz, zo+j*lanes), o)
		}
		y := tanh16(o)
		r := blk * lanes // row offset of the block in t, wt, wt64, wv64
		e := y.Sub(lf(pt, r))
		e2 := e.Mul(e)
		lo, hi := e2.GetLo().ConvertToFloat64(), e2.GetHi().ConvertToFloat64()
		t0, t1 = ld8(pwt64, r).MulAdd(lo, t0), ld8(pwt64, r+8).MulAdd(hi, t1)
		v0, v1 = ld8(pwv64, r).MulAdd(lo, v0), ld8(pwv64, r+8).MulAdd(hi, v1)
		if blk >= k.nbT {
			continue
		}
		dl := lf(pwt, r).Mul(e).Mul(oneMinusSq(y))
		gc = gc.Add(dl)
		for j := range h {
			z := lf(pz, zo+j*lanes)
			sf(dl.MulAdd(z, lf(pgv, j*lanes)), pgv, j*lanes)
			dh := dl.Mul(lf(pv, j*lanes)).Mul(oneMinusSq(z))
			sf(lf(pgb, j*lanes).Add(dh), pgb, j*lanes)
			sf(dh, pdh, zo+j*lanes)
		}
	}
	sf(gc, pgc, 0)
	acc.t0, acc.t1, acc.v0, acc.v1 = t0, t1, v0, v1
}

// backward adds the input-weight gradient of training blocks [g0, g1):
// gW[j][c] += dh_j * x_c, per lane, block by block, in tiles of up to
// maxTileUnits units by a few columns (the assembly loops).
func (k *avx512Kernel) backward(g0, g1 int) {
	h, d := k.h, k.d
	xs, hs, gs := k.dx*lanes*4, h*lanes*4, d*lanes*4 // byte strides: block of x, block of dhg, unit of gW
	n := g1 - g0
	for j0 := 0; j0 < h; j0 += maxTileUnits {
		tiles := bwdTiles[min(maxTileUnits, h-j0)]
		w := len(tiles) - 1
		for c := 0; c < d; c += w {
			cw := min(w, d-c)
			tiles[cw](&k.x[(g0*k.dx+c)*lanes], xs, &k.dhg[j0*lanes], hs, n, &k.gW[(j0*d+c)*lanes], gs)
		}
	}
}

// predict runs the float32x16 prediction (kernel_f32.go) one block of 16
// rows at a time: the rows are transposed into a column-major block, then
// the hidden units go four at a time as in the epoch, without nibbles.
func (k *avx512Kernel) predict(w, x []float64, n int, out []float64) {
	d, h := k.d, k.h
	Wp := growF32(&k.Wp, h*d*lanes)
	for j := range h {
		for c := range d {
			wv := float32(w[j*d+c])
			row := Wp[(j*d+c)*lanes : (j*d+c+1)*lanes]
			for l := range row {
				row[l] = wv
			}
		}
		for l := range lanes {
			k.bb[j*lanes+l] = float32(w[h*d+j])
			k.vb[j*lanes+l] = float32(w[h*d+h+j])
		}
	}
	xp := growF32(&k.xp, d*lanes)
	var y [lanes]float32
	pW, pb, pv, px := ptr(Wp), ptr(k.bb), ptr(k.vb), ptr(xp)
	pz := ptr(k.zg)
	cc := archsimd.BroadcastFloat32x16(float32(w[h*d+2*h]))
	for i0 := 0; i0 < n; i0 += lanes {
		rows := min(lanes, n-i0)
		clear(xp)
		for l := range rows {
			xr := x[(i0+l)*d : (i0+l)*d+d]
			for c, v := range xr {
				xp[c*lanes+l] = toF32(v)
			}
		}
		j := 0
		for ; j+4 <= h; j += 4 {
			a0, a1, a2, a3 := lf(pb, j*lanes), lf(pb, (j+1)*lanes), lf(pb, (j+2)*lanes), lf(pb, (j+3)*lanes)
			w0, w1, w2, w3 := j*d*lanes, (j+1)*d*lanes, (j+2)*d*lanes, (j+3)*d*lanes
			for c := 0; c < d; c++ {
				xc := lf(px, c*lanes)
				a0 = lf(pW, w0+c*lanes).MulAdd(xc, a0)
				a1 = lf(pW, w1+c*lanes).MulAdd(xc, a1)
				a2 = lf(pW, w2+c*lanes).MulAdd(xc, a2)
				a3 = lf(pW, w3+c*lanes).MulAdd(xc, a3)
			}
			sf(tanh16(a0), pz, j*lanes)
			sf(tanh16(a1), pz, (j+1)*lanes)
			sf(tanh16(a2), pz, (j+2)*lanes)
			sf(tanh16(a3), pz, (j+3)*lanes)
		}
		for ; j < h; j++ {
			a := lf(pb, j*lanes)
			wj := j * d * lanes
			for c := 0; c < d; c++ {
				a = lf(pW, wj+c*lanes).MulAdd(lf(px, c*lanes), a)
			}
			sf(tanh16(a), pz, j*lanes)
		}
		o := cc
		for j := range h {
			o = lf(pv, j*lanes).MulAdd(lf(pz, j*lanes), o)
		}
		tanh16(o).Store(&y)
		for l := range rows {
			out[i0+l] = float64(y[l])
		}
	}
}
