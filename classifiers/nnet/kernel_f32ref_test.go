package nnet

import "math"

// f32RefKernel is the float32x16 numerics (kernel_f32.go) in plain Go, one
// lane at a time, in the order of the statement: the reference every
// float32x16 kernel (avx512, avx2, float32-go) is tested against bit for bit
// (TestF32KernelsAgree). It was the kernel float32-go until f32GoKernel
// took its name, 5-9x faster.
type f32RefKernel struct {
	f32Layout
	xr []float64 // d: one mapped row
}

func (k *f32RefKernel) predict(w []float64, src *rowSource, out []float64) {
	d, h := k.d, k.h
	z := k.z[:h]
	xr := grow(&k.xr, d)
	for i := range src.idx {
		src.mapRow(i, xr)
		for j := range h {
			a := float32(w[h*d+j])
			for c, xv := range xr {
				a = fma32(float32(w[j*d+c]), toF32(xv), a)
			}
			z[j] = tanh32(a)
		}
		o := float32(w[h*d+2*h])
		for j := range h {
			o = fma32(float32(w[h*d+h+j]), z[j], o)
		}
		out[i] = float64(tanh32(o))
	}
}

func (k *f32RefKernel) epoch(w, g []float64) (sseT, sseV float64) {
	k.prepare(w)
	d, h, dn, nq := k.d, k.h, k.dn, k.nq
	z := k.z[:h]
	for blk := range k.nb {
		xb := k.x[blk*k.dx*lanes : (blk+1)*k.dx*lanes]
		for l := range lanes {
			slot := blk*lanes + l
			for j := range h {
				a := k.b[j]
				for c := range dn {
					a = fma32(k.W[j*d+c], xb[c*lanes+l], a)
				}
				for q := range nq {
					m := k.nib[(blk*nq+q)*lanes+l]
					a += k.tab[(j*nq+q)*lanes+int(m)]
				}
				z[j] = tanh32(a)
			}
			o := k.c
			for j := range h {
				o = fma32(k.v[j], z[j], o)
			}
			y := tanh32(o)
			e := y - k.t[slot]
			e2 := e * e
			k.sT[l] = math.FMA(k.wt64[slot], float64(e2), k.sT[l])
			k.sV[l] = math.FMA(k.wv64[slot], float64(e2), k.sV[l])
			if blk >= k.nbT {
				continue
			}
			// The conversions keep a compiler from fusing the last
			// multiplication into the sum that follows (as gc does with
			// GOAMD64=v3 and on arm64): the vector kernels round both.
			dl := float32((k.wt[slot] * e) * fma32(-y, y, 1))
			k.gc[l] += dl
			for j := range h {
				k.gv[j*lanes+l] = fma32(dl, z[j], k.gv[j*lanes+l])
				dh := float32((dl * k.v[j]) * fma32(-z[j], z[j], 1))
				k.gb[j*lanes+l] += dh
				for c := range d {
					i := (j*d+c)*lanes + l
					k.gW[i] = fma32(dh, xb[c*lanes+l], k.gW[i])
				}
			}
		}
	}
	return k.finish(g)
}
