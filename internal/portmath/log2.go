package portmath

import "math"

// Log2 returns log2(x) with the same bits on every platform: math.Log2's
// formula, frexp then Log(frac)/ln2 + exp, with Log above and the product
// rounded before the exponent is added (the standard library's pure-Go
// Log2 lets arm64 fuse that multiply-add, and calls its own Log). On
// amd64, where math.Log2 is this formula over the same Log, the bits are
// math.Log2's. Exact powers of two give their exponent exactly.
func Log2(x float64) float64 {
	frac, exp := math.Frexp(x)
	if frac == 0.5 {
		return float64(exp - 1)
	}
	return float64(Log(frac)*(1/math.Ln2)) + float64(exp)
}
