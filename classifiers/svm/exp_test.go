package svm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// expRef is e^x to far beyond float64 precision: Taylor's series of
// e^(x/1024) in 300-bit arithmetic, squared ten times.
func expRef(x float64) *big.Float {
	const prec = 300
	y := new(big.Float).SetPrec(prec).SetFloat64(x / 1024) // exact: a power of 2
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); n <= 40; n++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
	}
	for range 10 {
		sum.Mul(sum, sum)
	}
	return sum
}

// TestSVMExpNonPos: within 1 ulp of e^x (a 300-bit reference) on [-745, 0]
// at random and special points; exactly 1 at 0, 0 at -Inf and below the
// underflow threshold; and, for the record, how often it differs from
// math.Exp (which on amd64 is another algorithm).
func TestSVMExpNonPos(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	xs := []float64{-1e-300, -1e-20, -0x1p-28, -1e-8, -0.5, -math.Ln2 / 2, -math.Ln2, -0.99364531961913, -1, -2, -10, -100,
		-700, -708.39, -709, -720}
	for range 1500 {
		xs = append(xs, -700*rng.Float64(), -rng.Float64())
	}
	diff := 0
	for _, x := range xs {
		got := expNonPos(x)
		want, _ := expRef(x).Float64()
		ulp := math.Nextafter(want, math.Inf(1)) - want
		if math.Abs(got-want) > ulp {
			t.Fatalf("expNonPos(%v) = %v, e^x = %v", x, got, want)
		}
		if got != math.Exp(x) {
			diff++
		}
	}
	t.Logf("%d of %d values differ from math.Exp in the last bit", diff, len(xs))
	for _, x := range []float64{-740, -744.4, -745, -745.13} {
		// Subnormal results: compare with math.Exp, within its ulp.
		got, want := expNonPos(x), math.Exp(x)
		if math.Abs(got-want) > 5e-324 {
			t.Errorf("expNonPos(%v) = %v, math.Exp %v", x, got, want)
		}
	}
	if expNonPos(0) != 1 || expNonPos(math.Copysign(0, -1)) != 1 || expNonPos(math.Inf(-1)) != 0 || expNonPos(-746) != 0 {
		t.Errorf("exp(0, -0, -Inf, -746) = %v, %v, %v, %v", expNonPos(0), expNonPos(math.Copysign(0, -1)), expNonPos(math.Inf(-1)), expNonPos(-746))
	}
}
