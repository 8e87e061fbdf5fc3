package nnet

import "math"

// The float32x16 numerics (NumericsFloat32x16) shared by the vector kernels
// (vecKernel, kernel_vec.go) and the plain-Go kernel f32GoKernel (kernel_f32go.go),
// which all compute the same bits as f32RefKernel (kernel_f32ref_test.go),
// the plainest statement in Go, one lane at a time (TestF32KernelsAgree).
//
// Layout (f32Layout.load). Rows go in blocks of 16, lane l of block B being
// row 16B + l; the rows with a training weight fill blocks [0, nbT), the
// validation-only rows the blocks after them, each part an even number of
// blocks; padding rows have zero weights, inputs and targets, and add exact
// zeros to every sum. Inputs are float32(mapped float64 value),
// stored per block column by column ([block][column][lane]), so that one
// 16-float load is one column of 16 rows. The kernel orders the active
// columns as: dense columns first (every column that is not binary, and the
// binary ones left over from the nibbles), then nq nibbles of four binary
// columns (columns holding only -1 and +1, such as one-hot codes). For a
// nibble, each row also stores the 4-bit index m with bit u set when the
// nibble's column u is +1.
//
// Arithmetic of one epoch, per row, all float32 with fma(a, b, c) = a*b + c
// rounded once (the vector FMA instructions), W, b, v, c = float32(w):
//
//	a_j  = b_j;  a_j = fma(W_jk, x_k, a_j) over the dense columns in order;
//	       then a_j = a_j + T_jq[m_q] over the nibbles in order, where the
//	       table T_jq[m] = sum over the nibble's columns u = 0..3, in order
//	       from 0, of (+W_ju if bit u of m else -W_ju) (float32 adds from 0)
//	       is the nibble's exact contribution sum_u W_ju x_u with x_u = +-1
//	z_j  = tanh32(a_j),   o = c; o = fma(v_j, z_j, o) over j,   y = tanh32(o)
//	e    = y - t,  e2 = e*e;   sseT_l = fma64(wt, e2, sseT_l), the same for sseV
//	(training blocks only:)
//	dl   = (wt*e) * fma(-y, y, 1);  gc_l += dl;  gv_jl = fma(dl, z_j, gv_jl)
//	dh_j = (dl*v_j) * fma(-z_j, z_j, 1);  gb_jl += dh_j;  gW_jkl = fma(dh_j, x_k, gW_jkl)
//
// where l is the row's lane: every sum runs over the rows of one lane in
// block order, sseT and sseV in float64 (fma64: math.FMA), the gradient in
// float32. At the end each sum is the float64 sum of its 16 lanes a_l,
// t_l = a_l + a_{l+8} (l < 8), then ((t0 + t1) + (t2 + t3)) + ((t4 + t5) +
// (t6 + t7)). tanh32 is the package's rational tanh with float32 coefficients:
// clamp to [-9, 9], P and Q by fma in Horner form, (x*P)/Q clamped to
// [-1, 1] (in float32 the quotient can round to 1 + 2^-23 near the clamp).
//
// Prediction (Trainer.PredictRows: out-of-bag rows) uses no nibbles: rows
// outside the training set need not map to +-1 in the binary columns. Per
// row, with x_k = float32 of the mapped value clamped to [-1e30, 1e30] and
// the columns in their active order:
//
//	a_j = b_j;  a_j = fma(W_jk, x_k, a_j) over k;  z_j = tanh32(a_j);
//	o = c;  o = fma(v_j, z_j, o) over j;  y = tanh32(o).
//
// Compared with the scalar float64 kernel a forward pass differs by about
// 1e-7 relative; RPROP uses only the signs of the gradient and the
// validation error's comparisons, so most nets come out the same, and the
// rest differ the way nets from two random seeds differ, only far less
// (TestF32NearF64 bounds an epoch's difference, the experiments package's
// TestKernelTolerance the scores').

// f32Layout is a problem in the float32x16 layout, with the per-epoch
// float32 weights and per-lane accumulators. The float32x16 kernels embed
// it; only their epoch loops differ.
type f32Layout struct {
	dx      int // columns per block in x: d, or d+1 to make it odd
	d, h    int
	nb, nbT int // blocks; [0, nbT) hold the training rows
	dn, nq  int // dense columns; nibbles (kernel columns dn + 4q + u)
	perm    []int
	x       []float32 // nb*d*16: [block][kernel column][lane]
	nib     []uint32  // nb*nq*16: [block][nibble][lane], values 0..15
	t, wt   []float32 // nb*16
	wt64    []float64 // nb*16, the training weights as float64
	wv64    []float64 // nb*16
	W       []float32 // h*d: [j][kernel column]
	b, v    []float32 // h
	c       float32
	tab     []float32 // h*nq*16: [j][nibble][m]
	gW      []float32 // h*d*16: [j][kernel column][lane]
	gb, gv  []float32 // h*16: [j][lane]
	gc      []float32 // 16
	sT, sV  []float64 // 16
	z, dh   []float32 // h*16: the current block's hidden outputs and deltas
	off     []uint32  // d: scratch (binary columns)
	tmp     []float32 // d*16: one block (permuting columns)

	// sums, when set (vector kernels), is laneSum over n consecutive
	// blocks of 16 lanes into s[0:n], in assembly; gs is its output.
	sums func(a *float32, n int, s *float64)
	gs   []float64

	// gather, when set (the amd64 vector kernels), maps each full block of
	// a rowSource's rows (rowSource.gather); nil: rowSource.mapBlock.
	gather mapFunc
}

const lanes = 16

// plus is 1 for v > 0, else 0 (the compiler makes it a SETcc, no branch).
func plus(v float32) uint32 {
	if v > 0 {
		return 1
	}
	return 0
}

func growF32(buf *[]float32, n int) []float32 {
	if cap(*buf) < n {
		*buf = make([]float32, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

func growU32(buf *[]uint32, n int) []uint32 {
	if cap(*buf) < n {
		*buf = make([]uint32, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

func growInt(buf *[]int, n int) []int {
	if cap(*buf) < n {
		*buf = make([]int, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

func (k *f32Layout) load(p *problem) {
	d, h := p.d, p.h
	k.d, k.h = d, h
	// Blocks come in pairs (the vector kernel takes two at a time): round
	// both parts up to an even number of blocks.
	even := func(rows int) int { b := (rows + lanes - 1) / lanes; return b + b%2 }
	k.nbT = even(p.nTrain)
	k.nb = k.nbT + even(p.n-p.nTrain)

	nb := k.nb
	// An odd number of columns per block (a padding column when d is
	// even), so that one column of consecutive blocks falls in different
	// cache sets.
	k.dx = d | 1
	dx := k.dx
	x := growF32(&k.x, nb*dx*lanes)
	t, wt := growF32(&k.t, nb*lanes), growF32(&k.wt, nb*lanes)
	wt64, wv64 := grow(&k.wt64, nb*lanes), grow(&k.wv64, nb*lanes)
	clear(x)
	clear(t)
	clear(wt)
	clear(wt64)
	clear(wv64)

	// The rows in active column order, and the binary columns: those whose
	// every value is -1 or +1 in float32 (0/1 columns after the min-max
	// map, such as one-hot codes); off[c] collects the bits in which some
	// |x| differs from 1.
	off := growU32(&k.off, d)
	clear(off)
	// Full blocks of a matrix's rows go through the kernel's gathering
	// routine when it has one, the rest through mapBlock.
	lim := 0
	if k.gather != nil && p.src.raw != nil {
		lim = p.src.limit()
	}
	// put maps rows i0..i1-1 into the blocks from slot s0 on (a multiple
	// of lanes), a block at a time.
	put := func(i0, i1, s0 int) {
		for i := i0; i < i1; i += lanes {
			m := min(lanes, i1-i)
			slot := s0 + i - i0
			xb := x[(slot/lanes)*dx*lanes:]
			if !p.src.gather(i, m, lim, k.gather, xb, off) {
				p.mapBlock(i, m, xb, off)
			}
			for l := range m {
				t[slot+l] = float32(p.t[i+l])
				wt[slot+l] = float32(p.wt[i+l])
				wt64[slot+l], wv64[slot+l] = float64(float32(p.wt[i+l])), float64(float32(p.wv[i+l]))
			}
		}
	}
	put(0, p.nTrain, 0)
	put(p.nTrain, p.n, k.nbT*lanes)

	// Kernel column order: dense columns first, then the binary columns in
	// nibbles of four; x is permuted to it in place, block by block.
	nbin := 0
	for _, o := range off {
		if o == 0 {
			nbin++
		}
	}
	k.nq = nbin / 4
	k.dn = d - 4*k.nq
	perm := growInt(&k.perm, d)
	at, atBin, used := 0, k.dn, 0
	for c := range d {
		if off[c] == 0 && used < 4*k.nq {
			perm[atBin] = c
			atBin++
			used++
		} else {
			perm[at] = c
			at++
		}
	}
	nib := growU32(&k.nib, nb*k.nq*lanes)
	if k.nq > 0 {
		tmp := growF32(&k.tmp, d*lanes)
		for blk := range nb {
			xb := x[blk*dx*lanes : blk*dx*lanes+d*lanes]
			copy(tmp, xb)
			for kc, c := range perm {
				copy(xb[kc*lanes:kc*lanes+lanes], tmp[c*lanes:c*lanes+lanes])
			}
			for q := range k.nq {
				nq := nib[(blk*k.nq+q)*lanes : (blk*k.nq+q+1)*lanes]
				c0 := k.dn + 4*q
				x0 := xb[c0*lanes : c0*lanes+lanes]
				x1 := xb[(c0+1)*lanes : (c0+1)*lanes+lanes]
				x2 := xb[(c0+2)*lanes : (c0+2)*lanes+lanes]
				x3 := xb[(c0+3)*lanes : (c0+3)*lanes+lanes]
				// Bit u is set where column u holds +1 (padding lanes
				// hold 0). Without a branch, which one-hot codes would
				// mispredict half the time (it took half of load's time).
				for l := range nq {
					nq[l] = plus(x0[l]) | plus(x1[l])<<1 | plus(x2[l])<<2 | plus(x3[l])<<3
				}
			}
		}
	}

	growF32(&k.W, h*d)
	growF32(&k.b, h)
	growF32(&k.v, h)
	growF32(&k.tab, h*k.nq*lanes)
	growF32(&k.gW, h*d*lanes)
	growF32(&k.gb, h*lanes)
	growF32(&k.gv, h*lanes)
	growF32(&k.gc, lanes)
	grow(&k.sT, lanes)
	grow(&k.sV, lanes)
	growF32(&k.z, h*lanes)
	growF32(&k.dh, h*lanes)
}

// prepare converts the weights to float32 in kernel column order, builds
// the nibble tables and clears the accumulators.
func (k *f32Layout) prepare(w []float64) {
	d, h := k.d, k.h
	for j := range h {
		row := w[j*d : j*d+d]
		Wj := k.W[j*d : j*d+d]
		for kc, c := range k.perm {
			Wj[kc] = float32(row[c])
		}
		k.b[j] = float32(w[h*d+j])
		k.v[j] = float32(w[h*d+h+j])
		for q := range k.nq {
			wq := (*[4]float32)(Wj[k.dn+4*q:])
			tq := (*[lanes]float32)(k.tab[(j*k.nq+q)*lanes:])
			// T[m] = (((0 -+ w0) -+ w1) -+ w2) -+ w3, "+" where bit u of m
			// is set; a - w and a + (-w) are the same IEEE operation.
			var zero float32
			s0 := [2]float32{zero - wq[0], zero + wq[0]}
			s1 := [2]float32{-wq[1], wq[1]}
			s2 := [2]float32{-wq[2], wq[2]}
			s3 := [2]float32{-wq[3], wq[3]}
			for m := range lanes {
				tq[m] = ((s0[m&1] + s1[m>>1&1]) + s2[m>>2&1]) + s3[m>>3&1]
			}
		}
	}
	k.c = float32(w[h*d+2*h])
	clear(k.gW)
	clear(k.gb)
	clear(k.gv)
	clear(k.gc)
	clear(k.sT)
	clear(k.sV)
}

// finish reduces the per-lane sums into g (Net.Weights layout) and returns
// the losses. The h*d input-weight sums go through sumLanes (in Go they
// took 3 % of an AAAI-2017 repeat's CPU, 1-1.5 % in assembly).
func (k *f32Layout) finish(g []float64) (sseT, sseV float64) {
	d, h := k.d, k.h
	gs := growSlice(k.gs, h*d)
	k.gs = gs
	k.sumLanes(k.gW[:h*d*lanes], gs)
	for j := range h {
		gj := gs[j*d : j*d+d]
		for kc, c := range k.perm {
			g[j*d+c] = gj[kc]
		}
	}
	for j := range h {
		g[h*d+j] = laneSum((*[lanes]float32)(k.gb[j*lanes:]))
		g[h*d+h+j] = laneSum((*[lanes]float32)(k.gv[j*lanes:]))
	}
	g[h*d+2*h] = laneSum((*[lanes]float32)(k.gc))
	return laneSum64((*[lanes]float64)(k.sT)), laneSum64((*[lanes]float64)(k.sV))
}

// sumLanes sets s[i] to laneSum of a's block i of 16 lanes, by k.sums
// when set.
func (k *f32Layout) sumLanes(a []float32, s []float64) {
	if len(s) == 0 {
		return
	}
	if k.sums != nil {
		k.sums(&a[0], len(s), &s[0])
		return
	}
	for i := range s {
		s[i] = laneSum((*[lanes]float32)(a[i*lanes:]))
	}
}

// laneSum is the float64 sum of 16 lanes: t_l = a_l + a_{l+8}, then
// ((t0 + t1) + (t2 + t3)) + ((t4 + t5) + (t6 + t7)).
func laneSum(a *[lanes]float32) float64 {
	t0, t1 := float64(a[0])+float64(a[8]), float64(a[1])+float64(a[9])
	t2, t3 := float64(a[2])+float64(a[10]), float64(a[3])+float64(a[11])
	t4, t5 := float64(a[4])+float64(a[12]), float64(a[5])+float64(a[13])
	t6, t7 := float64(a[6])+float64(a[14]), float64(a[7])+float64(a[15])
	return ((t0 + t1) + (t2 + t3)) + ((t4 + t5) + (t6 + t7))
}

// laneSum64 is laneSum of float64 lanes.
func laneSum64(a *[lanes]float64) float64 {
	t0, t1, t2, t3 := a[0]+a[8], a[1]+a[9], a[2]+a[10], a[3]+a[11]
	t4, t5, t6, t7 := a[4]+a[12], a[5]+a[13], a[6]+a[14], a[7]+a[15]
	return ((t0 + t1) + (t2 + t3)) + ((t4 + t5) + (t6 + t7))
}

// float32 coefficients of the rational tanh (tanh.go).
const (
	tanhP0f = float32(tanhP0)
	tanhP1f = float32(tanhP1)
	tanhP2f = float32(tanhP2)
	tanhP3f = float32(tanhP3)
	tanhP4f = float32(tanhP4)
	tanhP5f = float32(tanhP5)
	tanhQ1f = float32(tanhQ1)
	tanhQ2f = float32(tanhQ2)
	tanhQ3f = float32(tanhQ3)
	tanhQ4f = float32(tanhQ4)
)

// tanh32 is the rational tanh in float32 arithmetic, as the vector kernels
// evaluate it.
func tanh32(x float32) float32 {
	x = min(max(x, -tanhClamp), tanhClamp)
	y := x * x
	p := fma32(fma32(fma32(fma32(fma32(tanhP5f, y, tanhP4f), y, tanhP3f), y, tanhP2f), y, tanhP1f), y, tanhP0f)
	q := fma32(fma32(fma32(fma32(tanhQ4f, y, tanhQ3f), y, tanhQ2f), y, tanhQ1f), y, 1)
	return min(max(x*p/q, -1), 1)
}

// fma32 returns x*y + z rounded once to float32, as the vector FMA
// instructions compute it. The product is exact in float64; the sum s of
// the float64 addition is exact up to the error err (TwoSum), and rounding
// s to float32 rounds x*y + z correctly except when s lies exactly halfway
// between two float32s and err breaks the tie.
func fma32(x, y, z float32) float32 {
	p := float64(x) * float64(y)
	zz := float64(z)
	s := p + zz
	bb := s - p
	err := (p - (s - bb)) + (zz - bb)
	r := float32(s)
	if err == 0 || float64(r) == s || math.IsInf(s, 0) {
		return r
	}
	// The float32 neighbour of r on s's side; s is a tie iff it is halfway.
	var o float32
	if s > float64(r) {
		o = math.Nextafter32(r, float32(math.Inf(1)))
	} else {
		o = math.Nextafter32(r, float32(math.Inf(-1)))
	}
	if s-float64(r) != float64(o)-s {
		return r
	}
	if (s > float64(r)) == (err > 0) {
		return o
	}
	return r
}

// toF32 is the float32 of a mapped input for prediction, clamped to
// [-1e30, 1e30] so that no product or sum of the forward pass overflows.
func toF32(v float64) float32 {
	if v > 1e30 {
		v = 1e30
	} else if v < -1e30 {
		v = -1e30
	}
	return float32(v)
}
