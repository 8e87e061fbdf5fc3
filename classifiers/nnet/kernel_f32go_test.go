package nnet

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactFMA32 is x*y + z rounded once to float32 (to nearest even, with
// float32's subnormals and overflow to infinity), by math/big; x, y and z
// are finite.
func exactFMA32(x, y, z float32) float32 {
	const prec = 1000 // exact: the sum spans at most 2*277 + 48 bits
	p := new(big.Float).SetPrec(prec).SetFloat64(float64(x))
	p.Mul(p, new(big.Float).SetPrec(prec).SetFloat64(float64(y)))
	p.Add(p, new(big.Float).SetPrec(prec).SetFloat64(float64(z)))
	f, _ := p.Float32()
	return f
}

// randF32 draws a float32 of random sign and of an exponent drawn from the
// whole range (subnormals and zero included) or, with near, from [-20, 20].
func randF32(rng *rand.Rand, near bool) float32 {
	var e int
	if near {
		e = rng.IntN(41) - 20
	} else {
		e = rng.IntN(290) - 160 // 2^-160 (zero in float32) to 2^129 (infinite)
	}
	f := float32(math.Ldexp(1+rng.Float64(), e))
	if rng.IntN(2) == 0 {
		f = -f
	}
	switch rng.IntN(64) {
	case 0:
		f = 0
	case 1:
		f = float32(math.Copysign(0, -1))
	case 2:
		f = math.Float32frombits(rng.Uint32() & 0x807fffff) // subnormal
	}
	return f
}

// The lane loops' paths for one multiply-add, as they are written there.

// convPath is a colConv lane: exact32, else fma64.
func convPath(x, y, z float32) float32 {
	s := float64(x)*float64(y) + float64(z)
	if exact32(s) {
		return float32(s)
	}
	return float32(fma64(float64(x), float64(y), float64(z)))
}

// intPath is a colInt lane: tie32, else round32bits.
func intPath(x, y, z float32) float32 {
	b := math.Float64bits(float64(x)*float64(y) + float64(z))
	if tie32(b) {
		return float32(fma64(float64(x), float64(y), float64(z)))
	}
	return float32(math.Float64frombits(round32bits(b)))
}

// intSafeFor says whether the kernel would give the multiply-add to
// intPath: a product of whole multiples of 2^-149 and a sum well within
// float32's range (intSafe's conditions, without zero factors' exception).
func intSafeFor(x, y, z float32) bool {
	s := math.Abs(float64(x)*float64(y)) + math.Abs(float64(z))
	return (x == 0 || y == 0 || ulpExp(x)+ulpExp(y) >= -149) && s < intBound
}

// tieTriples returns multiply-adds whose float64 sum lies on a float32
// rounding midpoint (or next to one) while the exact value does not, the
// cases a double rounding gets wrong: z = mid - x*y rounded to float32,
// plus the float32 neighbours of that z.
func tieTriples(rng *rand.Rand, n int) [][3]float32 {
	var out [][3]float32
	for len(out) < n {
		x, y := randF32(rng, true), randF32(rng, true)
		m := float64(x) * float64(y)
		r := float32(m)
		if r == 0 || math.IsInf(float64(r), 0) {
			continue
		}
		up := math.Nextafter32(r, float32(math.Inf(1)))
		for _, mid := range []float64{(float64(r) + float64(up)) / 2, float64(r) + (float64(up)-float64(r))/2*(1+0x1p-30)} {
			zz := float32(mid - m)
			out = append(out, [3]float32{x, y, zz},
				[3]float32{x, y, math.Nextafter32(zz, float32(math.Inf(1)))},
				[3]float32{x, y, math.Nextafter32(zz, float32(math.Inf(-1)))})
		}
	}
	return out
}

// TestFMA32Fast checks the kernel's float32 multiply-adds against exact
// rounding (math/big): fma64 (tieFree, else fma32r), the colConv lane (convPath: exact32 and the
// float32 conversion, else fma64) on every kind of operand, and the colInt
// lane (intPath: tie32 and round32bits) where intSafe gives it the column,
// on millions of random triples (2^-160 to 2^129: zeros, subnormals,
// overflow), triples of close exponents and cancelling ones, and
// constructed ties, where a plain double rounding goes wrong.
func TestFMA32Fast(t *testing.T) {
	n := 3_000_000
	if testing.Short() {
		n = 200_000
	}
	rng := rand.New(rand.NewPCG(21, 22))
	var intChecked, ties int
	check := func(x, y, z float32) {
		want := exactFMA32(x, y, z)
		same := func(got float32) bool { return math.Float32bits(got) == math.Float32bits(want) }
		if got := float32(fma64(float64(x), float64(y), float64(z))); !same(got) {
			t.Fatalf("fma64(%g, %g, %g) = %g, want %g", x, y, z, got, want)
		}
		if got := convPath(x, y, z); !same(got) {
			t.Fatalf("conversion path (%g, %g, %g) = %g, want %g", x, y, z, got, want)
		}
		if intSafeFor(x, y, z) {
			intChecked++
			if got := intPath(x, y, z); !same(got) {
				t.Fatalf("integer path (%g, %g, %g) = %g, want %g", x, y, z, got, want)
			}
		}
		if s := float64(x)*float64(y) + float64(z); !tieFree(s) && float64(float32(s)) != s {
			ties++
		}
	}
	for i := range n {
		var x, y, z float32
		switch i % 4 {
		case 0: // anything
			x, y, z = randF32(rng, false), randF32(rng, false), randF32(rng, false)
		case 1: // ordinary magnitudes
			x, y, z = randF32(rng, true), randF32(rng, true), randF32(rng, true)
		case 2: // cancellation: z near -x*y
			x, y = randF32(rng, true), randF32(rng, true)
			z = -float32(float64(x) * float64(y))
			for range rng.IntN(3) {
				z = math.Nextafter32(z, float32(rng.NormFloat64()))
			}
		case 3: // near float32's subnormal range
			x = float32(math.Ldexp(rng.Float64()+1, -60-rng.IntN(40)))
			y = float32(math.Ldexp(rng.Float64()+1, -20-rng.IntN(40)))
			z = randF32(rng, false)
			if rng.IntN(2) == 0 {
				z = -float32(float64(x) * float64(y))
			}
		}
		if math.IsInf(float64(x), 0) || math.IsInf(float64(y), 0) || math.IsInf(float64(z), 0) {
			continue
		}
		check(x, y, z)
	}
	for _, c := range tieTriples(rng, n/20) {
		check(c[0], c[1], c[2])
	}
	// Float32 range limits: sums at the overflow threshold and at the
	// smallest normal, signed zeros.
	maxF := float32(math.MaxFloat32)
	for _, c := range [][3]float32{
		{maxF, 1, maxF}, {maxF, 0.5, maxF / 2}, {maxF, -1, maxF}, {0x1p64, 0x1p63, 0x1p126 * 1.9999999},
		{0x1p-100, 0x1p-26, 0}, {0x1p-100, 0x1p-27, -0x1p-149}, {0x1p-75, 0x1p-75, 0}, {0x1p-75, 0x1p-74, 0x1p-149},
		{0x1p-63, 0x1p-63, -0x1p-126}, {1.5, 0x1p-150, 0},
		{0, 1, 0}, {float32(math.Copysign(0, -1)), 1, 0}, {float32(math.Copysign(0, -1)), 1, float32(math.Copysign(0, -1))},
		{2, 3, -6}, {-2, 3, 6},
	} {
		check(c[0], c[1], c[2])
	}
	// Infinite and NaN operands: the fast paths give what fma32 gives.
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	for _, c := range [][3]float32{{inf, 1, 0}, {1, 2, -inf}, {inf, 0, 1}, {nan, 1, 2}, {1, 2, nan}, {inf, 1, -inf}} {
		want := fma32(c[0], c[1], c[2])
		for _, got := range []float32{float32(fma64(float64(c[0]), float64(c[1]), float64(c[2]))), convPath(c[0], c[1], c[2])} {
			if got != want && !(got != got && want != want) {
				t.Fatalf("%v: %g, fma32 %g", c, got, want)
			}
		}
	}
	t.Logf("%d triples, %d through the integer path, %d float64 sums on a tie", n, intChecked, ties)
	if ties == 0 {
		t.Error("no tie exercised the cold path")
	}
}

// TestAdd32: the float32 sum of two float32s through a float64 sum (add32)
// is the correctly rounded one, for exponents close and far apart,
// cancellation, subnormals and overflow.
func TestAdd32(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	for i := range n {
		x, z := randF32(rng, i%2 == 0), randF32(rng, i%2 == 0)
		if i%3 == 0 {
			z = float32(math.Ldexp(float64(x), -rng.IntN(40)))
			if rng.IntN(2) == 0 {
				z = -z
			}
		}
		if math.IsInf(float64(x), 0) || math.IsInf(float64(z), 0) {
			continue
		}
		want := exactFMA32(x, 1, z)
		if got := float32(add32(float64(x), float64(z))); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("add32(%g, %g) = %g, want %g", x, z, got, want)
		}
	}
}

// TestF32GoExtremes: the float32-go kernel agrees bit for bit with the
// reference where its shortcuts do not apply: weights too small for
// intSafe (subnormal, or products below 2^-149 with tiny inputs), too
// large for its bounds (beyond float32's range: infinities and NaN in the
// sums), zero weights, inputs with tiny values and exact zeros, and
// constant rows.
func TestF32GoExtremes(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	scales := []float64{0x1p-140, 0x1p-100, 0x1p-60, 0x1p-20, 1, 0x1p40, 0x1p100, 0x1p130}
	for _, s := range f32Shapes {
		p := randomProblem(rng, s.dNum, s.dHot, s.h, s.n, s.nTrain)
		d := s.dNum + s.dHot
		for i := range p.x {
			if c := i % max(d, 1); c < s.dNum && rng.IntN(8) == 0 {
				p.x[i] = []float64{0, 1e-30, -3e-12, 0x1p-70, 1}[rng.IntN(5)]
			}
		}
		ref, fast := new(f32RefKernel), new(f32GoKernel)
		ref.load(p)
		fast.load(p)
		nw := s.h*d + 2*s.h + 1
		gr, gf := make([]float64, nw), make([]float64, nw)
		for _, sc := range scales {
			w := make([]float64, nw)
			for i := range w {
				w[i] = rng.NormFloat64() * sc
				if rng.IntN(10) == 0 {
					w[i] = 0
				}
				if rng.IntN(10) == 0 { // an ordinary weight among the extreme ones
					w[i] = rng.NormFloat64()
				}
			}
			tr, vr := ref.epoch(w, gr)
			tf, vf := fast.epoch(w, gf)
			same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
			if !same(tr, tf) || !same(vr, vf) {
				t.Fatalf("%+v, scale %g: losses (%v, %v), reference (%v, %v)", s, sc, tf, vf, tr, vr)
			}
			for i := range gr {
				if !same(gr[i], gf[i]) {
					t.Fatalf("%+v, scale %g: gradient %d = %v, reference %v", s, sc, i, gf[i], gr[i])
				}
			}
		}
	}
}
