package portmath

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/pueval/pueval/internal/goldenbits"
)

const refPrec = 300

// expRef is e^x to far beyond float64 precision: Taylor's series of
// e^(x/1024) in 300-bit arithmetic, squared ten times.
func expRef(x float64) *big.Float {
	y := new(big.Float).SetPrec(refPrec).SetFloat64(x / 1024) // exact: a power of 2
	sum := new(big.Float).SetPrec(refPrec).SetInt64(1)
	term := new(big.Float).SetPrec(refPrec).SetInt64(1)
	for n := int64(1); n <= 40; n++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(refPrec).SetInt64(n))
		sum.Add(sum, term)
	}
	for range 10 {
		sum.Mul(sum, sum)
	}
	return sum
}

// atanhRef is atanh(s) = s + s^3/3 + s^5/5 + ... for |s| <= 1/3 in 300-bit
// arithmetic (200 terms: s^400 < 2^-600).
func atanhRef(s *big.Float) *big.Float {
	s2 := new(big.Float).SetPrec(refPrec).Mul(s, s)
	pow := new(big.Float).SetPrec(refPrec).Set(s)
	sum := new(big.Float).SetPrec(refPrec)
	for n := int64(0); n < 200; n++ {
		term := new(big.Float).SetPrec(refPrec).Quo(pow, new(big.Float).SetPrec(refPrec).SetInt64(2*n+1))
		sum.Add(sum, term)
		pow.Mul(pow, s2)
	}
	return sum
}

// logRef is ln x for x > 0 in 300-bit arithmetic (logBigRef).
func logRef(x float64) *big.Float {
	return logBigRef(new(big.Float).SetPrec(refPrec).SetFloat64(x))
}

// logBigRef is ln y for y > 0 in 300-bit arithmetic: y = 2^e m with m in
// [1/2, 1), ln y = e ln 2 + 2 atanh((m - 1)/(m + 1)), ln 2 = 2 atanh(1/3).
func logBigRef(y *big.Float) *big.Float {
	bm := new(big.Float).SetPrec(refPrec)
	e := y.MantExp(bm)
	one := new(big.Float).SetPrec(refPrec).SetInt64(1)
	s := new(big.Float).SetPrec(refPrec).Quo(new(big.Float).SetPrec(refPrec).Sub(bm, one), new(big.Float).SetPrec(refPrec).Add(bm, one))
	third := new(big.Float).SetPrec(refPrec).Quo(one, new(big.Float).SetPrec(refPrec).SetInt64(3))
	ln2 := atanhRef(third)
	ln2.Mul(ln2, new(big.Float).SetPrec(refPrec).SetInt64(2))
	out := atanhRef(s)
	out.Mul(out, new(big.Float).SetPrec(refPrec).SetInt64(2))
	return out.Add(out, ln2.Mul(ln2, new(big.Float).SetPrec(refPrec).SetInt64(int64(e))))
}

// sweep fails unless f(x) is within one ulp (of the true value's binade)
// of the 300-bit value ref(x) at every x, and logs, for the record, how
// many of the values differ from this platform's std (the math package's).
func sweep(t *testing.T, name string, xs []float64, f, std func(float64) float64, ref func(float64) *big.Float) {
	t.Helper()
	diff := 0
	for _, x := range xs {
		got := f(x)
		want, _ := ref(x).Float64()
		ulp := math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want)
		if math.Abs(got-want) > ulp {
			t.Fatalf("%s(%v) = %v, 300-bit value %v", name, x, got, want)
		}
		if got != std(x) {
			diff++
		}
	}
	t.Logf("%d of %d values differ from math.%s in the last bit", diff, len(xs), name)
}

// TestExp: within 1 ulp of e^x (a 300-bit reference) on [-745, 709] at
// random and special points; the special values; and, for the record, how
// often it differs from this platform's math.Exp.
func TestExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	xs := []float64{-1e-300, -1e-20, -0x1p-28, -1e-8, -0.5, -math.Ln2 / 2, -math.Ln2, -0.99364531961913, -1, -2, -10,
		-100, -700, -708.39, -709, -720, 1e-20, 0x1p-28, 0.5, math.Ln2 / 2, math.Ln2, 1, 2, 10, 100, 700, 709, 709.78}
	for range 1500 {
		xs = append(xs, -700*rng.Float64(), -rng.Float64(), 700*rng.Float64(), rng.Float64())
	}
	sweep(t, "Exp", xs, Exp, math.Exp, expRef)
	for _, x := range []float64{-740, -744.4, -745, -745.13} {
		// Subnormal results: compare with math.Exp, within its ulp.
		if got, want := Exp(x), math.Exp(x); math.Abs(got-want) > 5e-324 {
			t.Errorf("Exp(%v) = %v, math.Exp %v", x, got, want)
		}
	}
	for _, c := range []struct{ x, want float64 }{
		{0, 1}, {math.Copysign(0, -1), 1}, {math.Inf(-1), 0}, {-746, 0}, {ExpUnderflow - 1e-9, 0},
		{710, math.Inf(1)}, {math.Inf(1), math.Inf(1)}, {math.MaxFloat64, math.Inf(1)},
	} {
		if got := Exp(c.x); got != c.want {
			t.Errorf("Exp(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := Exp(math.NaN()); !math.IsNaN(got) {
		t.Errorf("Exp(NaN) = %v", got)
	}
}

// TestLog: within 1 ulp of ln x (a 300-bit reference) over the whole range
// of positive doubles, subnormals included, and near 1 (where cancellation
// would show); the special values.
func TestLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	xs := []float64{5e-324, 1e-310, math.SmallestNonzeroFloat64 * 3, 1e-300, 1e-9, 0.5, math.Sqrt2 / 2, 0.99999999, 1 - 0x1p-53,
		1 + 0x1p-52, 1.00000001, math.Sqrt2, 2, math.E, 10, 1e9, 1e300, math.MaxFloat64}
	for range 1500 {
		xs = append(xs, math.Ldexp(0.5+rng.Float64()/2, rng.IntN(2098)-1074), 0.5+rng.Float64(), 1+(rng.Float64()-0.5)*1e-6)
	}
	sweep(t, "Log", xs, Log, math.Log, logRef)
	if Log(1) != 0 || !math.IsInf(Log(0), -1) || !math.IsInf(Log(math.Inf(1)), 1) || !math.IsNaN(Log(-1)) ||
		!math.IsNaN(Log(math.NaN())) || !math.IsInf(Log(math.Copysign(0, -1)), -1) {
		t.Errorf("Log(1, 0, +Inf, -1, NaN, -0) = %v %v %v %v %v %v", Log(1), Log(0), Log(math.Inf(1)), Log(-1),
			Log(math.NaN()), Log(math.Copysign(0, -1)))
	}
}

// TestSigmoid: the identity sigma(-m) = 1 - sigma(m) to within 2 ulps of 1,
// sigma(0) = 1/2 exactly, the limits, and agreement with the defining
// 1/(1 + e^-m) (through Exp) within 4 ulps where that does not overflow.
func TestSigmoid(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	if Sigmoid(0) != 0.5 || Sigmoid(800) != 1 || Sigmoid(-800) != 0 || Sigmoid(math.Inf(1)) != 1 ||
		Sigmoid(math.Inf(-1)) != 0 || !math.IsNaN(Sigmoid(math.NaN())) {
		t.Fatalf("Sigmoid(0, 800, -800, +Inf, -Inf, NaN) = %v %v %v %v %v %v", Sigmoid(0), Sigmoid(800), Sigmoid(-800),
			Sigmoid(math.Inf(1)), Sigmoid(math.Inf(-1)), Sigmoid(math.NaN()))
	}
	for range 20000 {
		m := (rng.Float64() - 0.5) * 60
		s, sn := Sigmoid(m), Sigmoid(-m)
		if math.Abs(s+sn-1) > 0x1p-52 {
			t.Fatalf("Sigmoid(%v) + Sigmoid(%v) = %v", m, -m, s+sn)
		}
		def := 1 / (1 + Exp(-m))
		if math.Abs(s-def) > 4*(math.Nextafter(def, 2)-def) {
			t.Fatalf("Sigmoid(%v) = %v, 1/(1+e^-m) = %v", m, s, def)
		}
	}
}

// TestHypot: on amd64, math.Hypot is assembly performing the same
// operations, so the bits agree there (elsewhere it is Go that arm64
// fuses); within 1 ulp of the 300-bit value in general; special values.
func TestHypot(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	for range 20000 {
		p := math.Ldexp(rng.Float64()-0.5, rng.IntN(80)-40)
		q := math.Ldexp(rng.Float64()-0.5, rng.IntN(80)-40)
		got := Hypot(p, q)
		if runtime.GOARCH == "amd64" && got != math.Hypot(p, q) {
			t.Fatalf("Hypot(%v, %v) = %v, math.Hypot %v", p, q, got, math.Hypot(p, q))
		}
		bp, bq := new(big.Float).SetPrec(refPrec).SetFloat64(p), new(big.Float).SetPrec(refPrec).SetFloat64(q)
		ref := new(big.Float).SetPrec(refPrec).Add(new(big.Float).SetPrec(refPrec).Mul(bp, bp), new(big.Float).SetPrec(refPrec).Mul(bq, bq))
		want, _ := ref.Sqrt(ref).Float64()
		if math.Abs(got-want) > 2*(math.Nextafter(want, math.Inf(1))-want) {
			t.Fatalf("Hypot(%v, %v) = %v, 300-bit value %v", p, q, got, want)
		}
	}
	if Hypot(0, 0) != 0 || Hypot(3, 4) != 5 || Hypot(-3, 4) != 5 || !math.IsInf(Hypot(math.Inf(-1), math.NaN()), 1) ||
		!math.IsNaN(Hypot(math.NaN(), 1)) || Hypot(1e300, 1e300) != math.Hypot(1e300, 1e300) {
		t.Errorf("Hypot(0,0), (3,4), (-3,4), (-Inf,NaN), (NaN,1), (1e300,1e300) = %v %v %v %v %v %v", Hypot(0, 0), Hypot(3, 4),
			Hypot(-3, 4), Hypot(math.Inf(-1), math.NaN()), Hypot(math.NaN(), 1), Hypot(1e300, 1e300))
	}
}

// TestPow: powers of 10 in [10^-5, 10^5] (numpy.logspace's grids) within
// 4 ulps of math.Pow (the two differ where math.Exp and Exp do, and each
// squaring adds its rounding: at 10^-2.8502858044324855 they are 3 ulps
// apart, each 1.5 ulps from the true value by Python's 50-digit decimal);
// bases in [2^-21, 2^20] to exponents in [-20, 20] within 16 ulps (the
// error of e^(yf ln x) grows with ln x, the squarings' with y: on arm64,
// whose math.Pow is fused Go, the two were 5 ulps apart at
// 20792.8^-11.46); exact integer powers of 10 to 10^±22; the special
// cases equal math.Pow's.
func TestPow(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for range 20000 {
		x, y, ulps := math.Ldexp(0.5+rng.Float64()/2, rng.IntN(40)-20), float64(rng.Float64()*40)-20, 16.0
		if rng.IntN(2) == 0 {
			x, y, ulps = 10, float64(rng.Float64()*10)-5, 4
		}
		got, want := Pow(x, y), math.Pow(x, y)
		if math.Abs(got-want) > ulps*(math.Nextafter(want, math.Inf(1))-want) {
			t.Fatalf("Pow(%v, %v) = %v, math.Pow %v (tolerance %v ulps)", x, y, got, want, ulps)
		}
	}
	for k := -22; k <= 22; k++ {
		want, _ := strconv.ParseFloat(fmt.Sprintf("1e%d", k), 64)
		if got := Pow(10, float64(k)); got != want {
			t.Errorf("Pow(10, %d) = %v, want %v", k, got, want)
		}
	}
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range [][2]float64{{0, -1}, {math.Copysign(0, -1), -3}, {0, 2}, {2, inf}, {0.5, inf}, {-1, inf}, {inf, -2},
		{-inf, 3}, {-inf, -3}, {4, 0.5}, {4, -0.5}, {-2, 3}, {-2, 0.5}, {3, 0}, {nan, 0}, {1, nan}, {nan, 2}, {2, 1e300}, {0.5, 1e300}} {
		got, want := Pow(c[0], c[1]), math.Pow(c[0], c[1])
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("Pow(%v, %v) = %v, math.Pow %v", c[0], c[1], got, want)
		}
	}
}

// TestCbrt: on amd64, where math.Cbrt is the same Go code unfused, the
// bits are math.Cbrt's at a million arguments over the whole range of
// doubles (subnormals included) and at the special values; everywhere,
// the result r is within 1 ulp: (r - ulp)^3 < x < (r + ulp)^3 in exact
// arithmetic.
func TestCbrt(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 8, -27, 2, 3, 1e-300, 5e-324, -5e-324, 1e-310, 0x1p-1022,
		0x1p-1022 - 5e-324, math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for range 1000000 {
		x := math.Ldexp(0.5+rng.Float64()/2, rng.IntN(2098)-1074)
		if rng.IntN(2) == 0 {
			x = -x
		}
		xs = append(xs, x)
	}
	for n := 2; n <= 1000; n++ {
		xs = append(xs, float64(n)) // histogram sample sizes (classprior's bin width)
	}
	for i, x := range xs {
		got := Cbrt(x)
		if runtime.GOARCH == "amd64" {
			if want := math.Cbrt(x); math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
				t.Fatalf("Cbrt(%v) = %v, math.Cbrt %v", x, got, want)
			}
		}
		if x == 0 || math.IsInf(x, 0) || x != x {
			if math.Float64bits(got) != math.Float64bits(x) && !(got != got && x != x) {
				t.Errorf("Cbrt(%v) = %v", x, got)
			}
			continue
		}
		if math.Signbit(got) != math.Signbit(x) {
			t.Fatalf("Cbrt(%v) = %v: wrong sign", x, got)
		}
		if i%50 != 0 {
			continue
		}
		a := math.Abs(got)
		bx := new(big.Float).SetPrec(refPrec).SetFloat64(math.Abs(x))
		for _, c := range []struct {
			r    float64
			sign int
		}{{math.Nextafter(a, 0), -1}, {math.Nextafter(a, math.Inf(1)), 1}} {
			br := new(big.Float).SetPrec(refPrec).SetFloat64(c.r)
			cube := new(big.Float).SetPrec(refPrec).Mul(br, br)
			cube.Mul(cube, br)
			if cube.Cmp(bx) != c.sign {
				t.Fatalf("Cbrt(%v) = %v: not within 1 ulp of the cube root", x, got)
			}
		}
	}
}

// goldenBits is the FNV-64a hash of the bits of Exp, Log, Sigmoid, Hypot
// and Pow at 500,000 fixed arguments (exponents in [-50, 10], logarithms
// over 40 binades, margins in [-30, 30], legs in [-1/2, 1/2], powers of 10
// in [-5, 5]), as computed on amd64 (AVX-512, FMA);
// test-cross checks it under qemu-aarch64 and an amd64 CPU without
// AVX-512, where math.Exp and math.Log give other bits.
const goldenBits = "0966d0733b7dc7bc"

// TestGoldenBits: the functions' bits are the same on this platform as on
// the one that wrote goldenBits (a regression and portability check, the
// value being a golden regenerated by code: run with -v to print it).
func TestGoldenBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	h := goldenbits.New()
	for range 100000 {
		// The products are rounded before the additions (float64), or
		// arm64 would fuse them and draw other arguments.
		h.Add(Exp(float64(rng.Float64()*60) - 50))
		h.Add(Log(math.Ldexp(0.5+rng.Float64()/2, rng.IntN(40)-20)))
		h.Add(Sigmoid(float64(rng.Float64()*60) - 30))
		h.Add(Hypot(rng.Float64()-0.5, rng.Float64()-0.5))
		h.Add(Pow(10, float64(rng.Float64()*10)-5))
	}
	got := h.String()
	t.Logf("golden bits %s", got)
	if got != goldenBits {
		t.Errorf("Exp/Log/Sigmoid bits hash to %s on this platform, %s where goldenBits was written", got, goldenBits)
	}

	// Log2, Cbrt, Log1p and Erfc, added later, hash apart so that
	// goldenBits stays as it was written.
	h = goldenbits.New()
	for range 100000 {
		h.Add(Log2(math.Ldexp(0.5+rng.Float64()/2, rng.IntN(40)-20)))
		h.Add(Cbrt(float64(rng.Float64()*2000) - 1000))
		h.Add(Log1p(math.Ldexp(rng.Float64()-0.5, -rng.IntN(30)))) // |x| <= 1/2
		h.Add(Log1p(math.Ldexp(rng.Float64(), rng.IntN(40)-20)))
		h.Add(Erfc(float64(rng.Float64()*14) - 4))
	}
	got = h.String()
	t.Logf("golden bits (Log2, Cbrt, Log1p, Erfc) %s", got)
	if got != goldenBitsMore {
		t.Errorf("Log2/Cbrt/Log1p/Erfc bits hash to %s on this platform, %s where goldenBitsMore was written", got, goldenBitsMore)
	}
	got = normalGoldenHash()
	t.Logf("golden bits (NormFloat64) %s", got)
	if got != goldenNormal {
		t.Errorf("NormFloat64's draws hash to %s on this platform, %s where goldenNormal was written", got, goldenNormal)
	}
}

// goldenBitsMore is the hash of Log2, Cbrt, Log1p and Erfc at 500,000
// fixed arguments (logarithms over 40 binades, cube roots in [-1000,
// 1000], ln(1 + x) for |x| <= 1/2 over 30 binades and for x in [0, 2^20),
// erfc on [-4, 10]), written on amd64 (AVX-512, FMA) like goldenBits.
const goldenBitsMore = "f43042c96d0e048e"

func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = -float64(i) / 64
	}
	b.Run("portmath", func(b *testing.B) {
		var s float64
		for b.Loop() {
			for _, x := range xs {
				s += Exp(x)
			}
		}
		_ = s
	})
	b.Run("math", func(b *testing.B) {
		var s float64
		for b.Loop() {
			for _, x := range xs {
				s += math.Exp(x)
			}
		}
		_ = s
	})
}
