package portmath

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestLog2: exact on powers of two, the special cases of math.Log2, and on
// amd64 (where math.Log2 is the same formula over the same Log) the bits of
// math.Log2 for a million arguments over the whole exponent range.
func TestLog2(t *testing.T) {
	for e := -1074; e <= 1023; e++ {
		if got := Log2(math.Ldexp(1, e)); got != float64(e) {
			t.Fatalf("Log2(2^%d) = %v", e, got)
		}
	}
	for _, x := range []float64{0, -1, math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64, 3, 10} {
		got, want := Log2(x), math.Log2(x)
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) && math.Abs(got-want) > 1e-15*math.Abs(want) {
			t.Errorf("Log2(%v) = %v, math.Log2 %v", x, got, want)
		}
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("math.Log2 fuses its multiply-add off amd64: the bit-for-bit comparison holds on amd64")
	}
	rng := rand.New(rand.NewPCG(2, 7))
	for range 1000000 {
		x := math.Ldexp(0.5+rng.Float64()/2, rng.IntN(2098)-1074)
		if got, want := Log2(x), math.Log2(x); got != want {
			t.Fatalf("Log2(%v) = %v, math.Log2 %v", x, got, want)
		}
	}
}
