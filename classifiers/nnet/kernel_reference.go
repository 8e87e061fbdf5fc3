package nnet

// referenceKernel is the plainest statement of the epoch: one row at a time,
// each hidden unit's dot product in column order, every multiply-add
// rounded twice (see madd). The tests hold every other kernel to it.
type referenceKernel struct {
	p *problem
	z []float64 // hidden activations of the current row
	x []float64 // the problem's mapped rows
	r []float64 // one mapped row (predict)
}

func (k *referenceKernel) load(p *problem) {
	k.p = p
	k.x = p.mapped()
	grow(&k.z, p.h)
}

func (k *referenceKernel) epoch(w, g []float64) (sseT, sseV float64) {
	p := k.p
	d, h := p.d, p.h
	W, b := w[:h*d], w[h*d:h*d+h]
	v, c := w[h*d+h:h*d+2*h], w[h*d+2*h]
	clear(g)
	gW, gb := g[:h*d], g[h*d:h*d+h]
	gv := g[h*d+h : h*d+2*h]
	gc := 0.0
	z := k.z[:h]
	for i := range p.n {
		xr := k.x[i*d : i*d+d]
		o := c
		for j := range h {
			wr := W[j*d : j*d+d]
			a := b[j]
			for kk, xv := range xr {
				a = madd(wr[kk], xv, a)
			}
			z[j] = tanh(a)
			o = madd(v[j], z[j], o)
		}
		y := tanh(o)
		e := y - p.t[i]
		e2 := e * e
		sseT = madd(p.wt[i], e2, sseT)
		sseV = madd(p.wv[i], e2, sseV)
		if i >= p.nTrain {
			continue
		}
		// float64(...) keeps the products' rounding: a compiler may fuse
		// t := x*y; s += t (see madd), and gc does on arm64.
		dlt := float64(p.wt[i] * e * madd(-y, y, 1))
		gc += dlt
		for j := range h {
			gv[j] = madd(dlt, z[j], gv[j])
			dj := float64(dlt * v[j] * madd(-z[j], z[j], 1))
			gb[j] += dj
			gr := gW[j*d : j*d+d]
			for kk, xv := range xr {
				gr[kk] = madd(dj, xv, gr[kk])
			}
		}
	}
	g[h*d+2*h] = gc
	return sseT, sseV
}

func (k *referenceKernel) predict(w []float64, src *rowSource, out []float64) {
	predict64(w, src, k.p.d, k.p.h, &k.r, out)
}

// predict64 is the float64 forward pass of the scalar and reference
// kernels, the same operations in the same order as Net.Predict: a row
// predicted here gets exactly the output Net.Predict computes for it.
// buf is scratch space.
func predict64(w []float64, src *rowSource, d, h int, buf *[]float64, out []float64) {
	W, b := w[:h*d], w[h*d:h*d+h]
	v, c := w[h*d+h:h*d+2*h], w[h*d+2*h]
	xr := grow(buf, d)
	for i := range src.idx {
		src.mapRow(i, xr)
		o := c
		for j := range h {
			wr := W[j*d : j*d+d]
			a := b[j]
			for kk, xv := range xr {
				a = madd(wr[kk], xv, a)
			}
			o = madd(v[j], tanh(a), o)
		}
		out[i] = tanh(o)
	}
}
