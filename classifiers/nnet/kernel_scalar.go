package nnet

// scalarKernel is the portable float64 kernel Train uses. It computes
// exactly what referenceKernel computes, bit for bit (TestKernelsAgree): the
// same multiply-adds in the same order for every sum, only scheduled
// for a CPU:
//
//   - rows are processed in pairs, so every weight loaded from memory serves
//     two rows and the two rows' dependency chains run side by side;
//   - hidden units are processed in chunks of four, with the input weights of
//     a chunk stored interleaved (wc[k*4+u]) so that one input value feeds
//     four accumulators held in registers; leftover units (h mod 4) go one
//     at a time;
//   - the input-weight gradient of a chunk is accumulated in the same
//     interleaved layout, two rows per load and store.
//
// Padding rows (to make both row groups even) have zero weights and add
// exact zeros to every sum. Each unit's pre-activation is still b_j plus its
// dot product in column order, and each gradient entry still sums rows in
// order, which is why the results are identical to the reference.
type scalarKernel struct {
	d, h      int
	n, nTrain int       // rows after padding; [0, nTrain) have training weights
	x         []float64 // n*d, row-major
	t, wt, wv []float64
	wc, gc    []float64 // input weights and their gradient, chunk-interleaved
	z         []float64 // hidden activations of the current pair: z0 (h), z1 (h)
	dh        []float64 // hidden deltas of the current pair: dh0 (h), dh1 (h)
	r         []float64 // one mapped row (predict)
}

func (k *scalarKernel) load(p *problem) {
	d := p.d
	k.d, k.h = d, p.h
	nT := p.nTrain + p.nTrain%2
	nV := (p.n - p.nTrain) + (p.n-p.nTrain)%2
	k.n, k.nTrain = nT+nV, nT
	x := grow(&k.x, k.n*d)
	t, wt, wv := grow(&k.t, k.n), grow(&k.wt, k.n), grow(&k.wv, k.n)
	for i := range p.nTrain {
		p.mapRow(i, x[i*d:i*d+d])
	}
	copy(t, p.t[:p.nTrain])
	copy(wt, p.wt[:p.nTrain])
	copy(wv, p.wv[:p.nTrain])
	pad := func(at int) {
		clear(x[at*d : at*d+d])
		t[at], wt[at], wv[at] = 0, 0, 0
	}
	if nT > p.nTrain {
		pad(p.nTrain)
	}
	for i := p.nTrain; i < p.n; i++ {
		at := nT + i - p.nTrain
		p.mapRow(i, x[at*d:at*d+d])
	}
	copy(t[nT:], p.t[p.nTrain:p.n])
	copy(wt[nT:], p.wt[p.nTrain:p.n])
	copy(wv[nT:], p.wv[p.nTrain:p.n])
	if k.n-nT > p.n-p.nTrain {
		pad(k.n - 1)
	}
	grow(&k.wc, p.h*d)
	grow(&k.gc, p.h*d)
	grow(&k.z, 2*p.h)
	grow(&k.dh, 2*p.h)
}

// pack copies the row-major input weights W (h x d) into the chunked layout:
// units [0, h4) in chunks of four, chunk c at wc[c*d : c*d+4*d] with unit
// c+u's weight on input k at c*d + 4k + u; units [h4, h) row-major after them.
func pack(wc, W []float64, h, d int) {
	h4 := h &^ 3
	for c := 0; c < h4; c += 4 {
		dst := wc[c*d : c*d+4*d]
		for u := range 4 {
			for kk, v := range W[(c+u)*d : (c+u)*d+d] {
				dst[4*kk+u] = v
			}
		}
	}
	copy(wc[h4*d:h*d], W[h4*d:h*d])
}

// unpack is pack's inverse.
func unpack(W, wc []float64, h, d int) {
	h4 := h &^ 3
	for c := 0; c < h4; c += 4 {
		src := wc[c*d : c*d+4*d]
		for u := range 4 {
			row := W[(c+u)*d : (c+u)*d+d]
			for kk := range row {
				row[kk] = src[4*kk+u]
			}
		}
	}
	copy(W[h4*d:h*d], wc[h4*d:h*d])
}

func (k *scalarKernel) epoch(w, g []float64) (sseT, sseV float64) {
	d, h := k.d, k.h
	h4 := h &^ 3
	b := w[h*d : h*d+h]
	v := w[h*d+h : h*d+2*h]
	c := w[h*d+2*h]
	wc, gcW := k.wc[:h*d], k.gc[:h*d]
	pack(wc, w[:h*d], h, d)
	clear(gcW)
	clear(g)
	gb := g[h*d : h*d+h]
	gv := g[h*d+h : h*d+2*h]
	var gOut float64
	z0, z1 := k.z[:h], k.z[h:2*h]
	dh0, dh1 := k.dh[:h], k.dh[h:2*h]

	for i := 0; i < k.n; i += 2 {
		x0 := k.x[i*d : i*d+d]
		x1 := k.x[i*d+d : i*d+2*d]
		x1 = x1[:len(x0)]

		// Forward: hidden units in chunks of four, two rows at once.
		for cc := 0; cc < h4; cc += 4 {
			a00, a01, a02, a03, a10, a11, a12, a13 := dot4x2(wc[cc*d:cc*d+4*d], x0, x1, b[cc:cc+4:cc+4])
			zc0, zc1 := z0[cc:cc+4:cc+4], z1[cc:cc+4:cc+4]
			zc0[0], zc0[1], zc0[2], zc0[3] = tanh(a00), tanh(a01), tanh(a02), tanh(a03)
			zc1[0], zc1[1], zc1[2], zc1[3] = tanh(a10), tanh(a11), tanh(a12), tanh(a13)
		}
		for j := h4; j < h; j++ {
			a0, a1 := dot1x2(wc[j*d:j*d+d], x0, x1, b[j])
			z0[j], z1[j] = tanh(a0), tanh(a1)
		}
		o0, o1 := c, c
		for j, vj := range v {
			o0 = madd(vj, z0[j], o0)
			o1 = madd(vj, z1[j], o1)
		}
		y0, y1 := tanh(o0), tanh(o1)
		e0, e1 := y0-k.t[i], y1-k.t[i+1]
		e20, e21 := e0*e0, e1*e1
		sseT = madd(k.wt[i], e20, sseT)
		sseV = madd(k.wv[i], e20, sseV)
		sseT = madd(k.wt[i+1], e21, sseT)
		sseV = madd(k.wv[i+1], e21, sseV)
		if i >= k.nTrain {
			continue
		}

		// Backward for the pair, row 0's contribution before row 1's in
		// every sum (the reference's row order).
		// float64(...) keeps the products' rounding: a compiler may fuse
		// t := x*y; s += t (see madd), and gc does on arm64.
		d0 := float64(k.wt[i] * e0 * madd(-y0, y0, 1))
		d1 := float64(k.wt[i+1] * e1 * madd(-y1, y1, 1))
		gOut += d0
		gOut += d1
		for j, vj := range v {
			gv[j] = madd(d0, z0[j], gv[j])
			gv[j] = madd(d1, z1[j], gv[j])
			q0 := float64(d0 * vj * madd(-z0[j], z0[j], 1))
			q1 := float64(d1 * vj * madd(-z1[j], z1[j], 1))
			gb[j] += q0
			gb[j] += q1
			dh0[j], dh1[j] = q0, q1
		}
		for cc := 0; cc < h4; cc += 4 {
			grad4x2(gcW[cc*d:cc*d+4*d], x0, x1, dh0[cc:cc+4:cc+4], dh1[cc:cc+4:cc+4])
		}
		for j := h4; j < h; j++ {
			grad1x2(gcW[j*d:j*d+d], x0, x1, dh0[j], dh1[j])
		}
	}
	unpack(g[:h*d], gcW, h, d)
	g[h*d+2*h] = gOut
	return sseT, sseV
}

// The four leaf functions below hold the inner loops. They are separate,
// non-inlined functions so that the compiler's register allocator sees only
// their few live values (eight accumulators, two inputs, four weights) and
// keeps them all in registers; inlined into epoch they were spilled.

// dot4x2 returns b_u + sum_k w[4k+u] x0[k] and the same for x1, u = 0..3,
// each sum accumulated in column order.
//
//go:noinline
func dot4x2(w, x0, x1, b []float64) (a00, a01, a02, a03, a10, a11, a12, a13 float64) {
	b = b[:4]
	a00, a01, a02, a03 = b[0], b[1], b[2], b[3]
	a10, a11, a12, a13 = a00, a01, a02, a03
	x1 = x1[:len(x0)]
	w = w[:4*len(x0)]
	for k, xa := range x0 {
		xb := x1[k]
		ws := w[4*k : 4*k+4 : 4*k+4]
		a00 = madd(ws[0], xa, a00)
		a01 = madd(ws[1], xa, a01)
		a02 = madd(ws[2], xa, a02)
		a03 = madd(ws[3], xa, a03)
		a10 = madd(ws[0], xb, a10)
		a11 = madd(ws[1], xb, a11)
		a12 = madd(ws[2], xb, a12)
		a13 = madd(ws[3], xb, a13)
	}
	return
}

// dot1x2 returns b + sum_k w[k] x0[k] and the same for x1.
//
//go:noinline
func dot1x2(w, x0, x1 []float64, b float64) (a0, a1 float64) {
	a0, a1 = b, b
	x1 = x1[:len(x0)]
	w = w[:len(x0)]
	for k, xa := range x0 {
		a0 = madd(w[k], xa, a0)
		a1 = madd(w[k], x1[k], a1)
	}
	return
}

// grad4x2 adds q0[u] x0[k] and then q1[u] x1[k] to g[4k+u], u = 0..3.
//
//go:noinline
func grad4x2(g, x0, x1, q0, q1 []float64) {
	q0, q1 = q0[:4], q1[:4]
	p00, p01, p02, p03 := q0[0], q0[1], q0[2], q0[3]
	p10, p11, p12, p13 := q1[0], q1[1], q1[2], q1[3]
	x1 = x1[:len(x0)]
	g = g[:4*len(x0)]
	for k, xa := range x0 {
		xb := x1[k]
		gs := g[4*k : 4*k+4 : 4*k+4]
		gs[0] = madd(p10, xb, madd(p00, xa, gs[0]))
		gs[1] = madd(p11, xb, madd(p01, xa, gs[1]))
		gs[2] = madd(p12, xb, madd(p02, xa, gs[2]))
		gs[3] = madd(p13, xb, madd(p03, xa, gs[3]))
	}
}

// grad1x2 adds q0 x0[k] and then q1 x1[k] to g[k].
//
//go:noinline
func grad1x2(g, x0, x1 []float64, q0, q1 float64) {
	x1 = x1[:len(x0)]
	g = g[:len(x0)]
	for k, xa := range x0 {
		g[k] = madd(q1, x1[k], madd(q0, xa, g[k]))
	}
}

func (k *scalarKernel) predict(w []float64, src *rowSource, out []float64) {
	predict64(w, src, k.d, k.h, &k.r, out)
}
