package portmath

import (
	"bufio"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// log1pRef is ln(1 + x) in 300-bit arithmetic: 2 atanh(x/(2 + x)) where
// |x/(2 + x)| <= 1/3 (no cancellation however small x is), else ln of
// 1 + x, exact in 300 bits for these x, as 2^e m (m in [1/2, 1)).
func log1pRef(x float64) *big.Float {
	bx := new(big.Float).SetPrec(refPrec).SetFloat64(x)
	two := new(big.Float).SetPrec(refPrec).SetInt64(2)
	if x >= -0.5 && x <= 1 {
		s := new(big.Float).SetPrec(refPrec).Quo(bx, new(big.Float).SetPrec(refPrec).Add(two, bx))
		a := atanhRef(s)
		return a.Mul(a, two)
	}
	return logBigRef(new(big.Float).SetPrec(refPrec).Add(bx, new(big.Float).SetPrec(refPrec).SetInt64(1)))
}

// TestLog1p: on amd64 the bits of math.Log1p (the same code, which amd64
// does not fuse) at a million arguments over every branch; everywhere
// within 1 ulp of ln(1 + x) in 300-bit arithmetic at 6,000 of them and at
// the branch edges; the special values.
func TestLog1p(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	xs := []float64{0x1p-60, -0x1p-60, 0x1p-54, 0x1p-30, -0x1p-30, 0x1p-29, 1e-9, -1e-9, 0.41421356237309503,
		0.4142135623730951, -0.29289321881345248, -0.2928932188134524, 1e-6, -0.5, -0.9999999, 1, 1e15, 0x1p53,
		0x1p53 + 2, 1e300, math.MaxFloat64}
	for range 1000000 {
		x := math.Ldexp(0.5+rng.Float64()/2, rng.IntN(120)-60)
		if rng.IntN(3) == 0 {
			x = -math.Ldexp(0.5+rng.Float64()/2, -rng.IntN(60)) // in (-1, 0)
		}
		xs = append(xs, x)
	}
	if runtime.GOARCH == "amd64" {
		for _, x := range xs {
			if got, want := Log1p(x), math.Log1p(x); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("Log1p(%v) = %v, math.Log1p %v", x, got, want)
			}
		}
	}
	sample := xs[:21]
	for i := 21; i < len(xs); i += 167 {
		sample = append(sample, xs[i])
	}
	sweep(t, "Log1p", sample, Log1p, math.Log1p, log1pRef)
	if Log1p(0) != 0 || !math.Signbit(Log1p(math.Copysign(0, -1))) || !math.IsInf(Log1p(-1), -1) ||
		!math.IsInf(Log1p(math.Inf(1)), 1) || !math.IsNaN(Log1p(-1.5)) || !math.IsNaN(Log1p(math.Inf(-1))) ||
		!math.IsNaN(Log1p(math.NaN())) {
		t.Error("Log1p's special values")
	}
}

// TestErfc: within 3 ulps of erfc(x) by mpmath at 200 bits (4,022
// arguments over every region of the algorithm, both signs:
// testdata/erfc_mpmath.txt, frozen by testdata/erfc_mpmath.py). That is
// fdlibm's accuracy, not a loss here: on these arguments math.Erfc's worst
// errors are the same, region by region (3 ulps below 0.84375, where 1 -
// erf cancels, 2 up to 28, 0 beyond). The special values.
func TestErfc(t *testing.T) {
	f, err := os.Open("testdata/erfc_mpmath.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, diffStd := 0, 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		xb, err1 := strconv.ParseUint(fields[0], 16, 64)
		wb, err2 := strconv.ParseUint(fields[1], 16, 64)
		if err1 != nil || err2 != nil || len(fields) != 2 {
			t.Fatalf("bad line %q", sc.Text())
		}
		x, want := math.Float64frombits(xb), math.Float64frombits(wb)
		got := Erfc(x)
		ulp := math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want)
		if math.Abs(got-want) > 3*ulp {
			t.Errorf("Erfc(%v) = %v, mpmath %v", x, got, want)
		}
		if got != math.Erfc(x) {
			diffStd++
		}
		n++
	}
	if err := sc.Err(); err != nil || n != 4022 {
		t.Fatalf("%d lines read: %v", n, err)
	}
	t.Logf("%d of %d values differ from math.Erfc in the last bit", diffStd, n)
	if Erfc(0) != 1 || Erfc(math.Inf(1)) != 0 || Erfc(math.Inf(-1)) != 2 || !math.IsNaN(Erfc(math.NaN())) || Erfc(-7) != 2 || Erfc(30) != 0 {
		t.Error("Erfc's special values")
	}
}
