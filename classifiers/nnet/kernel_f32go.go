package nnet

import "math"

// f32GoKernel is the float32x16 numerics (kernel_f32.go) in plain Go, fast
// enough to be the default where no vector kernel runs: the kernel
// "float32-go". It computes, bit for bit, what the lane-at-a-time statement
// f32RefKernel computes (TestF32KernelsAgree); only the schedule differs:
//
//   - a block of 16 rows at a time with the lane loop innermost, over the
//     [block][column][lane] layout as the vector kernels do (per unit, per
//     column, 16 independent lanes, so that the out-of-order core overlaps
//     the lanes' chains of dependent multiply-adds), through slices cut to
//     their length and fixed-size array pointers, so that the lane loops
//     have no bounds checks;
//   - float32 multiply-adds as float64 sums: the float64 product of two
//     float32s is exact, so one float64 addition and one rounding to
//     float32 give the fused result except on float32 rounding ties, which
//     one bit test rules out in the common case (see tieFree);
//   - that rounding by integer operations on the sum's bits (round32bits)
//     where the operands' ranges allow it (the tanh polynomials always; the
//     forward pass and the input-weight gradient when intSafe says so), by
//     the float32 conversions elsewhere (the conversions compete with the
//     multiply and the add for the floating-point ports: the integer
//     rounding made those loops about 20 % faster in a micro-benchmark);
//   - the float32 values that the multiply-adds read and write held in
//     float64 (exactly: float64(float32) values), so that the only
//     conversions are the roundings and the inputs' (read once for four
//     units);
//   - four hidden units per pass over a column of inputs, in the forward
//     pass and in the input-weight gradient, and the binary columns' sums
//     by add32.
type f32GoKernel struct {
	f32Layout
	W64   []float64 // h*d: float64(W), [j][kernel column]
	W4    []float64 // h4*dn: the dense columns' weights of units [0, h4), [j/4][c][j%4]
	a     []float64 // h*16: the block's pre-activations a_j, [j][lane]
	z     []float64 // h*16: the block's hidden outputs z_j
	dh    []float64 // h*16: the block's hidden deltas dh_j
	gW64  []float64 // h*d*16: gW; units [0, h4) as [j/4][c][j%4][lane]
	th    tanhBuf   // tanh's scratch, for h*16 lanes
	bin   []bool    // d: the kernel column holds only -1 and +1
	uX    []int     // dn: least ulpExp of the column's nonzero inputs
	maxX  []float64 // dn: largest |input| of the column
	sumWt float64   // sum of the training weights
	modeF []uint8   // dn: the epoch's column modes in the forward pass
	modeG []uint8   // d: the block's column modes in the input-weight gradient
	okG   bool      // the epoch's gradient bound (intSafe) holds
	xp    []float32 // d*16: one block of rows to predict
	modeP []uint8   // d: the column modes of that block
}

// Column modes: how a lane loop does a column's multiply-adds.
const (
	colConv = iota // float64 sum, tie test, rounding by conversion
	colInt         // float64 sum, tie test, rounding by round32bits (intSafe)
	colBin         // inputs -1 and +1: add32
)

// A float32 multiply-add fma(x, y, z) = RN32(v), v = x*y + z exact, is
// computed as s = float64(x)*float64(y) + float64(z), r = float32(s): the
// product is exact (two 24-bit significands; exponents within float64's
// normal range), so s = RN64(v) (also where a compiler fuses the addition
// into a float64 FMA), and r = RN32(RN64(v)). That double rounding is
// RN32(v) unless s is a float32 rounding boundary:
//
// Let a <= v <= b be consecutive float32s (b = 2^128 beyond the largest
// float32 a, where rounding overflows to infinity) and m = (a+b)/2 their
// midpoint. a, b and m are float64 numbers (25 significant bits at most,
// and float32's subnormal midpoints, multiples of 2^-150, lie in float64's
// normal range). RN64 is monotone and leaves float64 numbers unchanged, so
// a <= s <= b, and s lies on v's side of m or on m (v < m gives s <= m, v > m
// gives s >= m). So if s != m, r = RN32(s) is RN32(v). Beyond b = 2^128,
// s >= 2^128 implies v > m, and r is the infinity that RN32(v) is.
//
// So r is exact whenever s is not a float32 midpoint, which tieFree tests
// with one mask: every midpoint has the low 28 of its 52 fraction bits zero.
// For s in a binade [2^e, 2^(e+1)) of float32's normal range the fraction
// bits weigh down to 2^(e-52), a float32's only down to 2^(e-23), and the
// midpoints are the odd multiples of 2^(e-24): low 29 bits 1<<28 (the
// overflow midpoint 2^128 - 2^103 included). Below 2^-126 the midpoints are
// multiples of 2^-150 and the fraction bits weigh 2^-179 or less, so at
// least the low 29 bits are zero. The test also fails for one s in 2^28 at
// random, and for s that are float32s themselves (low 29 bits zero): the
// addend when the product is zero (padding rows, saturated units), the sum
// of two float32s of close exponents. exact32 lets those through, fma32r
// checks once more and falls back on the exact fma32 (TestFMA32Fast checks
// these paths against exact rounding). Zero, infinities and NaN take the
// second test or fma32, where float32(s) is what the vector FMA gives.

// tieFree reports whether s cannot be a float32 midpoint, so that float32(s)
// is the rounding of the exact value that s rounds; the compiler inlines it
// (go build -gcflags=-m) into one test of the low 28 bits.
func tieFree(s float64) bool {
	return math.Float64bits(s)&(1<<28-1) != 0
}

// exact32 reports whether float32(s) is the rounding of the exact value
// that s rounds: tieFree(s), or else s is itself a float32 (or zero, or
// infinite), which no midpoint is. The second test, taken only when the
// first fails, keeps the lane loops on their fast path where s is a float32.
func exact32(s float64) bool {
	return tieFree(s) || float64(float32(s)) == s
}

// fma32r is fma32(x, y, z) given s = x*y + z rounded to float64: the cold
// path, where tieFree(s) is false.
func fma32r(s float64, x, y, z float32) float32 {
	if r := float32(s); float64(r) == s { // s is a float32 (so no midpoint), ±0 or ±Inf
		return r
	}
	return fma32(x, y, z)
}

// fma64 is fma32 of float32 values given and returned as float64, by the
// fast path and its cold path (fma32r): the lanes that leave a lane loop's
// fast path.
func fma64(x, y, z float64) float64 {
	s := x*y + z
	if tieFree(s) {
		return float64(float32(s))
	}
	return float64(fma32r(s, float32(x), float32(y), float32(z)))
}

// add32 is the float32 sum of two float32 values held in float64: a
// multiply-add whose product is a float32 (an input of -1 or +1: a binary
// column). Rounding the float64 sum to float32 needs no tie test: if the
// exponents of x and y differ by 28 or less, the exact sum fits in 53 bits,
// so the float64 sum is exact and rounded once; if by more, say |y| <
// |x|/2^28, then |y| is below a sixteenth of x's float32 ulp (even of the
// smaller ulp below a power of two), so the exact sum and its float64
// rounding both lie within a quarter ulp of x and round to x alike.
func add32(x, y float64) float64 {
	return float64(float32(x + y))
}

// round32bits rounds the float64 with bits b to float32, for |s| in
// [2^-126, 2^127) (float32's normal range, rounding up at most to 2^127),
// unless b's low 29 bits are 1<<28 (tie32): adding half a float32 ulp to
// the 29 fraction bits below a float32's last and cutting them rounds to
// nearest, a carry out of the fraction raising the exponent; with the low
// 29 bits zero, b is a float32 and comes back unchanged. The lane loops use
// it where the conversions would keep the floating-point ports busy: the
// tie test has the bits in an integer register already, and an integer
// store writes them out.
func round32bits(b uint64) uint64 {
	return (b + 1<<28) &^ (1<<29 - 1)
}

// tie32 reports whether the float64 with bits b, in float32's normal range,
// lies halfway between two float32s (round32bits' one exception); the first
// test, which fails but for one sum in 2^28 or a float32, is tieFree's.
func tie32(b uint64) bool {
	return b&(1<<28-1) == 0 && b&(1<<28) != 0
}

// ulpExp is the exponent of the float32 ulp of f (finite): f is an integer
// multiple of 2^ulpExp(f), -149 for zero and subnormals.
func ulpExp(f float32) int {
	return max(int(math.Float32bits(f)>>23&0xff), 1) - 150
}

// intSafe: the multiply-adds s = x*y + z of a column may be rounded by
// round32bits (colInt) when every product x*y is an integer multiple of
// 2^-149 (float32's smallest subnormal) and every |s| stays below 2^127.
// round32bits needs s in [2^-126, 2^127) or a float32; with such products
// and z a float32, the exact v = x*y + z is a multiple of 2^-149, and if
// |s| < 2^-126 then |v| <= 2^-126 (RN64 is monotone), so v has at most 23
// significant bits, s = v, and s is a float32. A product is such a multiple
// when ulpExp(x) + ulpExp(y) >= -149, which the kernel checks from the least
// ulpExp of the column's inputs (uX, at load) and of the weights (per
// epoch) or of the block's hidden deltas (per block); ordinary values
// (|x|, |y| > 2^-50) always pass. The bound on |s| comes from the magnitudes
// (a margin of 2^27 covers the roundings): in the forward pass |a_j| <=
// |b_j| + sum_k |W_jk| max|x_k|; in the gradient |gW_jk| <= sum over rows of
// |dh_j x_k| <= sum(wt) * 2 * max|v| * max|x| (|e| <= 2, 1 - y^2 and
// 1 - z^2 in [0, 1]). Otherwise the column takes colConv.
const intBound = 0x1p100

func (k *f32GoKernel) load(p *problem) {
	k.f32Layout.load(p)
	d, h, dn := k.d, k.h, k.dn
	grow(&k.W64, h*d)
	grow(&k.W4, h*dn)
	grow(&k.a, h*lanes)
	grow(&k.z, h*lanes)
	grow(&k.dh, h*lanes)
	grow(&k.gW64, h*d*lanes)
	k.th.grow(h * lanes)
	k.bin = growSlice(k.bin, d)
	for kc, c := range k.perm {
		k.bin[kc] = k.off[c] == 0
	}
	k.uX = growSlice(k.uX, dn)
	k.maxX = grow(&k.maxX, dn)
	for c := range dn {
		u, m := 1000, 0.0
		for blk := range k.nb {
			for _, v := range k.x[(blk*k.dx+c)*lanes : (blk*k.dx+c+1)*lanes] {
				if v != 0 {
					u = min(u, ulpExp(v))
				}
				m = max(m, math.Abs(float64(v)))
			}
		}
		k.uX[c], k.maxX[c] = u, m
	}
	k.sumWt = 0
	for _, v := range k.wt64 {
		k.sumWt += v
	}
	k.modeF = growSlice(k.modeF, dn)
	k.modeG = growSlice(k.modeG, d)
	k.modeP = growSlice(k.modeP, d)
}

func growSlice[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func (k *f32GoKernel) epoch(w, g []float64) (sseT, sseV float64) {
	k.prepare(w)
	d, h, dn := k.d, k.h, k.dn
	h4 := h &^ 3
	for i, v := range k.W {
		k.W64[i] = float64(v)
	}
	for j := range h4 {
		for c := range dn {
			k.W4[(j&^3)*dn+4*c+j&3] = k.W64[j*d+c]
		}
	}
	k.columnModes()
	clear(k.gW64)
	for blk := range k.nb {
		k.hidden(blk)
		k.output(blk)
		if blk < k.nbT {
			k.gradW(blk)
		}
	}
	for j := range h {
		for c := range d {
			src := k.gW64[(j*d+c)*lanes:]
			if j < h4 {
				src = k.gW64[((j&^3)*d+4*c+j&3)*lanes:]
			}
			dst := k.gW[(j*d+c)*lanes : (j*d+c+1)*lanes]
			for l := range dst {
				dst[l] = float32(src[l])
			}
		}
	}
	return k.finish(g)
}

// columnModes sets the forward pass's column modes and the gradient's bound
// for the epoch's weights (intSafe).
func (k *f32GoKernel) columnModes() {
	d, h, dn := k.d, k.h, k.dn
	okF := true
	for j := range h {
		bound := math.Abs(float64(k.b[j]))
		for c := range dn {
			bound += math.Abs(k.W64[j*d+c]) * k.maxX[c]
		}
		okF = okF && bound < intBound // false for NaN
	}
	for c := range dn {
		k.modeF[c] = colConv
		if k.bin[c] {
			k.modeF[c] = colBin
			continue
		}
		u := 1000
		for j := range h {
			if w := k.W[j*d+c]; w != 0 {
				u = min(u, ulpExp(w))
			}
		}
		if okF && u+k.uX[c] >= -149 {
			k.modeF[c] = colInt
		}
	}
	maxV, maxX := 0.0, 0.0
	for _, v := range k.v {
		maxV = max(maxV, math.Abs(float64(v)))
	}
	for _, m := range k.maxX {
		maxX = max(maxX, m)
	}
	k.okG = 2*k.sumWt*maxV*maxX < intBound
}

// The lane loops below share one pattern: an inner loop without calls over
// the lanes (the multiply-adds of the fast path inline) leaves at a lane
// whose test fails, before storing that lane's results; the outer loop does
// that lane by fma64 and resumes the inner loop at the next. A call in the
// inner loop would make the compiler save registers on every lane. The lane
// index is unsigned, so that the compiler proves it in bounds (go build
// -gcflags=-d=ssa/check_bce finds no check in the inner loops).

// hidden computes the block's hidden outputs z: a_j = b_j; a_j = fma(W_jk,
// x_k, a_j) over the dense columns in order; a_j += T_jq[m_q] over the
// nibbles (float32); z_j = tanh32(a_j).
func (k *f32GoKernel) hidden(blk int) {
	d, h, dn, nq := k.d, k.h, k.dn, k.nq
	h4 := h &^ 3
	x := k.x[blk*k.dx*lanes : blk*k.dx*lanes+dn*lanes]
	a := k.a[:h*lanes]
	for j := range h {
		aj := a[j*lanes : j*lanes+lanes]
		for l := range aj {
			aj[l] = float64(k.b[j])
		}
	}
	for j := 0; j < h4; j += 4 {
		dense4((*[4 * lanes]float64)(a[j*lanes:]), x, k.modeF, k.W4[j*dn:(j+4)*dn])
	}
	for j := h4; j < h; j++ {
		dense1(a[j*lanes:j*lanes+lanes], x, k.modeF, k.W64[j*d:j*d+dn])
	}
	if nq > 0 {
		nib := k.nib[blk*nq*lanes : (blk+1)*nq*lanes]
		for j := range h {
			for q := range nq {
				addNibble(a[j*lanes:j*lanes+lanes], nib[q*lanes:q*lanes+lanes], (*[lanes]float32)(k.tab[(j*nq+q)*lanes:]))
			}
		}
	}
	k.th.tanh(k.z, a)
}

// dense4 sets a_ul = fma(w_cu, x_cl, a_ul) over the columns c in order, for
// four units u at once: a is [u][lane], w is [c][u], x holds len(mode)
// columns of 16 lanes.
func dense4(a *[4 * lanes]float64, x []float32, mode []uint8, w []float64) {
	n := len(mode)
	x, w = x[:n*lanes], w[:4*n]
	for c, m := range mode {
		wc := (*[4]float64)(w[4*c:])
		c0, c1, c2, c3 := wc[0], wc[1], wc[2], wc[3]
		xc := (*[lanes]float32)(x[c*lanes:])
		l := uint(0)
		switch m {
		case colBin:
			for l, xf := range xc {
				xv := float64(xf)
				a[l], a[lanes+l] = add32(c0*xv, a[l]), add32(c1*xv, a[lanes+l])
				a[2*lanes+l], a[3*lanes+l] = add32(c2*xv, a[2*lanes+l]), add32(c3*xv, a[3*lanes+l])
			}
			continue
		case colInt:
			for {
				for ; l < lanes; l++ {
					xv := float64(xc[l])
					b0 := math.Float64bits(c0*xv + a[l])
					b1 := math.Float64bits(c1*xv + a[lanes+l])
					b2 := math.Float64bits(c2*xv + a[2*lanes+l])
					b3 := math.Float64bits(c3*xv + a[3*lanes+l])
					if tie32(b0) || tie32(b1) || tie32(b2) || tie32(b3) {
						break
					}
					a[l], a[lanes+l] = math.Float64frombits(round32bits(b0)), math.Float64frombits(round32bits(b1))
					a[2*lanes+l], a[3*lanes+l] = math.Float64frombits(round32bits(b2)), math.Float64frombits(round32bits(b3))
				}
				if l == lanes {
					break
				}
				xv := float64(xc[l])
				a[l], a[lanes+l] = fma64(c0, xv, a[l]), fma64(c1, xv, a[lanes+l])
				a[2*lanes+l], a[3*lanes+l] = fma64(c2, xv, a[2*lanes+l]), fma64(c3, xv, a[3*lanes+l])
				l++
			}
			continue
		}
		for {
			for ; l < lanes; l++ {
				xv := float64(xc[l])
				s0 := c0*xv + a[l]
				s1 := c1*xv + a[lanes+l]
				s2 := c2*xv + a[2*lanes+l]
				s3 := c3*xv + a[3*lanes+l]
				if !exact32(s0) || !exact32(s1) || !exact32(s2) || !exact32(s3) {
					break
				}
				a[l], a[lanes+l] = float64(float32(s0)), float64(float32(s1))
				a[2*lanes+l], a[3*lanes+l] = float64(float32(s2)), float64(float32(s3))
			}
			if l == lanes {
				break
			}
			xv := float64(xc[l])
			a[l], a[lanes+l] = fma64(c0, xv, a[l]), fma64(c1, xv, a[lanes+l])
			a[2*lanes+l], a[3*lanes+l] = fma64(c2, xv, a[2*lanes+l]), fma64(c3, xv, a[3*lanes+l])
			l++
		}
	}
}

// dense1 is dense4 for one unit (w is [c]).
func dense1(a []float64, x []float32, mode []uint8, w []float64) {
	n := len(w)
	a, x, mode = a[:lanes], x[:n*lanes], mode[:n]
	for c, wc := range w {
		xc := (*[lanes]float32)(x[c*lanes:])
		l := uint(0)
		switch mode[c] {
		case colBin:
			for l, xf := range xc {
				a[l] = add32(wc*float64(xf), a[l])
			}
			continue
		case colInt: // two lanes per iteration (the last odd one, after a tie, by fma64)
			for {
				for ; l+1 < lanes; l += 2 {
					b0 := math.Float64bits(wc*float64(xc[l]) + a[l])
					b1 := math.Float64bits(wc*float64(xc[l+1]) + a[l+1])
					if tie32(b0) || tie32(b1) {
						break
					}
					a[l], a[l+1] = math.Float64frombits(round32bits(b0)), math.Float64frombits(round32bits(b1))
				}
				if l == lanes {
					break
				}
				a[l] = fma64(wc, float64(xc[l]), a[l])
				l++
			}
			continue
		}
		for {
			for ; l < lanes; l++ {
				s := wc*float64(xc[l]) + a[l]
				if !exact32(s) {
					break
				}
				a[l] = float64(float32(s))
			}
			if l == lanes {
				break
			}
			a[l] = fma64(wc, float64(xc[l]), a[l])
			l++
		}
	}
}

// addNibble: a_l = a_l + tab[m_l] in float32.
func addNibble(a []float64, m []uint32, tab *[lanes]float32) {
	a, m = a[:lanes], m[:lanes]
	for l, ml := range m {
		a[l] = float64(float32(a[l]) + tab[ml&(lanes-1)])
	}
}

// tanhBuf evaluates tanh32 over many lanes, Horner step by Horner step with
// the lanes innermost, so that the lanes' chains of dependent multiply-adds
// overlap.
type tanhBuf struct {
	x       []float32
	y, p, q []float64
}

func (t *tanhBuf) grow(n int) {
	growF32(&t.x, n)
	grow(&t.y, n)
	grow(&t.p, n)
	grow(&t.q, n)
}

// tanh sets z_i = tanh32(a_i) for the len(a) lanes (at most the size grown).
//
// Its multiply-adds are rounded by round32bits: every partial sum of the
// two Horner chains lies in float32's normal range, for y = x^2 in [0, 81]
// (|x| <= 9). P's are, in order, within [2.9e-8, 3.1e-8], [2.7e-5, 3.1e-5],
// [3.8e-3, 6.4e-3], [0.13, 0.66] and [0.99, 54] (P5 < 0 is the only
// negative coefficient, and 81*|P5| is 3 % of P4); Q's within [3.9e-4,
// 5.1e-4], [0.027, 0.069], [0.47, 6.1] and [1, 490]. A NaN (from a NaN
// input) has the low 29 bits zero, as every float64 made from a float32
// does, and comes out of round32bits unchanged.
func (t *tanhBuf) tanh(z, a []float64) {
	n := uint(len(a))
	z = z[:n]
	x, y, p, q := t.x[:n], t.y[:n], t.p[:n], t.q[:n]
	for i, v := range a {
		f := float32(v)
		// min(max(f, -9), 9): the comparisons give the same for every
		// float32, NaN and signed zeros included, in fewer instructions.
		if f < -tanhClamp {
			f = -tanhClamp
		} else if f > tanhClamp {
			f = tanhClamp
		}
		x[i] = f
		y[i] = float64(f * f)
		p[i], q[i] = float64(tanhP5f), float64(tanhQ4f)
	}
	horner(p, q, y, tanhP4f, tanhQ3f)
	horner(p, q, y, tanhP3f, tanhQ2f)
	horner(p, q, y, tanhP2f, tanhQ1f)
	horner(p, q, y, tanhP1f, 1)
	// The last step of P, fma(p, y, P0), then x*P/Q clamped to [-1, 1].
	const p0 = float64(tanhP0f)
	i := uint(0)
	for {
		for ; i < n; i++ {
			b := math.Float64bits(p[i]*y[i] + p0)
			if tie32(b) {
				break
			}
			r := x[i] * float32(math.Float64frombits(round32bits(b))) / float32(q[i])
			if r < -1 { // min(max(r, -1), 1)
				r = -1
			} else if r > 1 {
				r = 1
			}
			z[i] = float64(r)
		}
		if i == n {
			break
		}
		r := x[i] * float32(fma64(p[i], y[i], p0)) / float32(q[i])
		z[i] = float64(min(max(r, -1), 1))
		i++
	}
}

// horner is one Horner step of both polynomials: p_i = fma(p_i, y_i, cp),
// q_i = fma(q_i, y_i, cq), rounded by round32bits (tanh).
func horner(p, q, y []float64, cp, cq float32) {
	n := uint(len(y))
	p, q = p[:n], q[:n]
	dp, dq := float64(cp), float64(cq)
	i := uint(0)
	for {
		for ; i < n; i++ {
			bp := math.Float64bits(p[i]*y[i] + dp)
			bq := math.Float64bits(q[i]*y[i] + dq)
			if tie32(bp) || tie32(bq) {
				break
			}
			p[i], q[i] = math.Float64frombits(round32bits(bp)), math.Float64frombits(round32bits(bq))
		}
		if i == n {
			break
		}
		p[i], q[i] = fma64(p[i], y[i], dp), fma64(q[i], y[i], dq)
		i++
	}
}

// output runs the block's output unit, o = c; o = fma(v_j, z_j, o) over j;
// y = tanh32(o), the losses, and for a training block the deltas and the
// gradient of the output layer and of the hidden biases.
func (k *f32GoKernel) output(blk int) {
	h := k.h
	var o, y [lanes]float64
	for l := range o {
		o[l] = float64(k.c)
	}
	for j := range h {
		outStep(&o, float64(k.v[j]), k.z[j*lanes:j*lanes+lanes])
	}
	k.th.tanh(y[:], o[:])
	r := blk * lanes
	t := (*[lanes]float32)(k.t[r:])
	wt64 := (*[lanes]float64)(k.wt64[r:])
	wv64 := (*[lanes]float64)(k.wv64[r:])
	sT, sV := (*[lanes]float64)(k.sT), (*[lanes]float64)(k.sV)
	var e [lanes]float32
	for l := range e {
		e[l] = float32(y[l]) - t[l]
		e2 := float64(e[l] * e[l])
		sT[l] = math.FMA(wt64[l], e2, sT[l])
		sV[l] = math.FMA(wv64[l], e2, sV[l])
	}
	if blk >= k.nbT {
		return
	}
	wt := (*[lanes]float32)(k.wt[r:])
	gc := (*[lanes]float32)(k.gc)
	var dl [lanes]float64
	for l, yl := range y {
		u := -yl*yl + 1 // fma(-y, y, 1)
		if !exact32(u) {
			u = fma64(-yl, yl, 1)
		}
		// The conversion keeps a compiler from fusing the product into
		// the sum (as gc does with GOAMD64=v3 and on arm64; the vector
		// kernels round both), the same in backStep.
		d := float32((wt[l] * e[l]) * float32(u))
		gc[l] += d
		dl[l] = float64(d)
	}
	for j := range h {
		backStep(&dl, k.v[j], k.z[j*lanes:j*lanes+lanes], k.gv[j*lanes:j*lanes+lanes],
			k.gb[j*lanes:j*lanes+lanes], k.dh[j*lanes:j*lanes+lanes])
	}
}

// outStep: o_l = fma(v, z_l, o_l).
func outStep(o *[lanes]float64, v float64, z []float64) {
	z = z[:lanes]
	l := uint(0)
	for {
		for ; l < lanes; l++ {
			s := v*z[l] + o[l]
			if !exact32(s) {
				break
			}
			o[l] = float64(float32(s))
		}
		if l == lanes {
			break
		}
		o[l] = fma64(v, z[l], o[l])
		l++
	}
}

// backStep is one hidden unit's part of the backward pass of a block:
// gv_l = fma(dl_l, z_l, gv_l), dh_l = (dl_l*v) * fma(-z_l, z_l, 1),
// gb_l += dh_l.
func backStep(dl *[lanes]float64, v float32, z []float64, gv, gb []float32, dh []float64) {
	z, gv, gb, dh = z[:lanes], gv[:lanes], gb[:lanes], dh[:lanes]
	l := uint(0)
	for {
		for ; l < lanes; l++ {
			zl := z[l]
			s := dl[l]*zl + float64(gv[l])
			u := -zl*zl + 1
			if !exact32(s) || !exact32(u) {
				break
			}
			gv[l] = float32(s)
			q := float32((float32(dl[l]) * v) * float32(u))
			gb[l] += q
			dh[l] = float64(q)
		}
		if l == lanes {
			break
		}
		zl := z[l]
		gv[l] = float32(fma64(dl[l], zl, float64(gv[l])))
		q := float32((float32(dl[l]) * v) * float32(fma64(-zl, zl, 1)))
		gb[l] += q
		dh[l] = float64(q)
		l++
	}
}

// gradW adds the training block's input-weight gradient, gW_jk =
// fma(dh_j, x_k, gW_jk) per lane over every column.
func (k *f32GoKernel) gradW(blk int) {
	d, h, dn := k.d, k.h, k.dn
	h4 := h &^ 3
	x := k.x[blk*k.dx*lanes : blk*k.dx*lanes+d*lanes]
	// The least ulpExp of the block's nonzero hidden deltas (intSafe), from
	// the least float64 exponent field among them (each is a float32).
	e := uint64(0x7ff)
	for _, v := range k.dh[:h*lanes] {
		if b := math.Float64bits(v) >> 52 & 0x7ff; b < e && v != 0 {
			e = b
		}
	}
	u := max(int(e)-1023, -126) - 23
	for c := range d {
		switch {
		case k.bin[c]:
			k.modeG[c] = colBin
		case c < dn && k.okG && u+k.uX[c] >= -149:
			k.modeG[c] = colInt
		default:
			k.modeG[c] = colConv
		}
	}
	for j := 0; j < h4; j += 4 {
		grad4((*[4 * lanes]float64)(k.dh[j*lanes:]), x, k.modeG, k.gW64[j*d*lanes:(j+4)*d*lanes])
	}
	for j := h4; j < h; j++ {
		grad1(k.dh[j*lanes:j*lanes+lanes], x, k.modeG, k.gW64[j*d*lanes:(j+1)*d*lanes])
	}
}

// grad4 adds fma(dh_ul, x_cl, g_cul) over the len(mode) columns c of x for
// four units u: dh is [u][lane], g is [c][u][lane].
func grad4(dh *[4 * lanes]float64, x []float32, mode []uint8, g []float64) {
	n := len(mode)
	x, g = x[:n*lanes], g[:n*4*lanes]
	for c, m := range mode {
		xc := (*[lanes]float32)(x[c*lanes:])
		gc := (*[4 * lanes]float64)(g[c*4*lanes:])
		l := uint(0)
		switch m {
		case colBin:
			for l, xf := range xc {
				xv := float64(xf)
				gc[l], gc[lanes+l] = add32(dh[l]*xv, gc[l]), add32(dh[lanes+l]*xv, gc[lanes+l])
				gc[2*lanes+l] = add32(dh[2*lanes+l]*xv, gc[2*lanes+l])
				gc[3*lanes+l] = add32(dh[3*lanes+l]*xv, gc[3*lanes+l])
			}
			continue
		case colInt:
			for {
				for ; l < lanes; l++ {
					xv := float64(xc[l])
					b0 := math.Float64bits(dh[l]*xv + gc[l])
					b1 := math.Float64bits(dh[lanes+l]*xv + gc[lanes+l])
					b2 := math.Float64bits(dh[2*lanes+l]*xv + gc[2*lanes+l])
					b3 := math.Float64bits(dh[3*lanes+l]*xv + gc[3*lanes+l])
					if tie32(b0) || tie32(b1) || tie32(b2) || tie32(b3) {
						break
					}
					gc[l], gc[lanes+l] = math.Float64frombits(round32bits(b0)), math.Float64frombits(round32bits(b1))
					gc[2*lanes+l], gc[3*lanes+l] = math.Float64frombits(round32bits(b2)), math.Float64frombits(round32bits(b3))
				}
				if l == lanes {
					break
				}
				xv := float64(xc[l])
				gc[l], gc[lanes+l] = fma64(dh[l], xv, gc[l]), fma64(dh[lanes+l], xv, gc[lanes+l])
				gc[2*lanes+l] = fma64(dh[2*lanes+l], xv, gc[2*lanes+l])
				gc[3*lanes+l] = fma64(dh[3*lanes+l], xv, gc[3*lanes+l])
				l++
			}
			continue
		}
		for {
			for ; l < lanes; l++ {
				xv := float64(xc[l])
				s0 := dh[l]*xv + gc[l]
				s1 := dh[lanes+l]*xv + gc[lanes+l]
				s2 := dh[2*lanes+l]*xv + gc[2*lanes+l]
				s3 := dh[3*lanes+l]*xv + gc[3*lanes+l]
				if !exact32(s0) || !exact32(s1) || !exact32(s2) || !exact32(s3) {
					break
				}
				gc[l], gc[lanes+l] = float64(float32(s0)), float64(float32(s1))
				gc[2*lanes+l], gc[3*lanes+l] = float64(float32(s2)), float64(float32(s3))
			}
			if l == lanes {
				break
			}
			xv := float64(xc[l])
			gc[l], gc[lanes+l] = fma64(dh[l], xv, gc[l]), fma64(dh[lanes+l], xv, gc[lanes+l])
			gc[2*lanes+l] = fma64(dh[2*lanes+l], xv, gc[2*lanes+l])
			gc[3*lanes+l] = fma64(dh[3*lanes+l], xv, gc[3*lanes+l])
			l++
		}
	}
}

// grad1 is grad4 for one unit: g is [c][lane].
func grad1(dh []float64, x []float32, mode []uint8, g []float64) {
	n := len(mode)
	dh, x, g = dh[:lanes], x[:n*lanes], g[:n*lanes]
	for c, m := range mode {
		xc := (*[lanes]float32)(x[c*lanes:])
		gc := (*[lanes]float64)(g[c*lanes:])
		l := uint(0)
		switch m {
		case colBin:
			for l, xf := range xc {
				gc[l] = add32(dh[l]*float64(xf), gc[l])
			}
			continue
		case colInt: // two lanes per iteration, as in dense1
			for {
				for ; l+1 < lanes; l += 2 {
					b0 := math.Float64bits(dh[l]*float64(xc[l]) + gc[l])
					b1 := math.Float64bits(dh[l+1]*float64(xc[l+1]) + gc[l+1])
					if tie32(b0) || tie32(b1) {
						break
					}
					gc[l], gc[l+1] = math.Float64frombits(round32bits(b0)), math.Float64frombits(round32bits(b1))
				}
				if l == lanes {
					break
				}
				gc[l] = fma64(dh[l], float64(xc[l]), gc[l])
				l++
			}
			continue
		}
		for {
			for ; l < lanes; l++ {
				s := dh[l]*float64(xc[l]) + gc[l]
				if !exact32(s) {
					break
				}
				gc[l] = float64(float32(s))
			}
			if l == lanes {
				break
			}
			gc[l] = fma64(dh[l], float64(xc[l]), gc[l])
			l++
		}
	}
}

// predict runs the float32x16 prediction (kernel_f32.go) 16 rows at a
// time: the rows mapped and transposed into one block (every column dense,
// in active order; those of the block that hold only -1 and +1 by add32,
// the others colConv: the rows need not be in the training range), then the
// epoch's lane loops.
func (k *f32GoKernel) predict(w []float64, src *rowSource, out []float64) {
	n := len(src.idx)
	d, h := k.d, k.h
	xp := growF32(&k.xp, d*lanes)
	W, a, z := k.W64[:h*d], k.a[:h*lanes], k.z[:h*lanes]
	mode := k.modeP[:d]
	for i := range W {
		W[i] = float64(float32(w[i]))
	}
	var o, y [lanes]float64
	for i0 := 0; i0 < n; i0 += lanes {
		rows := min(lanes, n-i0)
		clear(xp)
		src.predictBlock(i0, rows, xp)
		for c := range mode {
			mode[c] = colBin
			for _, v := range xp[c*lanes : c*lanes+lanes] {
				if v != 1 && v != -1 {
					mode[c] = colConv
					break
				}
			}
		}
		for j := range h {
			aj := a[j*lanes : j*lanes+lanes]
			for l := range aj {
				aj[l] = float64(float32(w[h*d+j]))
			}
			dense1(aj, xp, mode, W[j*d:j*d+d])
		}
		k.th.tanh(z, a)
		for l := range o {
			o[l] = float64(float32(w[h*d+2*h]))
		}
		for j := range h {
			outStep(&o, float64(float32(w[h*d+h+j])), z[j*lanes:j*lanes+lanes])
		}
		k.th.tanh(y[:], o[:])
		for r := range rows {
			out[i0+r] = y[r]
		}
	}
}
