// Package portmath computes e^x, ln x, log2 x, ln(1 + x), x^y, the
// logistic function, sqrt(p^2 + q^2), cube roots and erfc x, and draws
// standard normal variates, with the same bits on every CPU and
// architecture, so that results built on them (a boosted model's
// probabilities, a Gaussian kernel matrix, a Platt fit, AlphaMax's
// likelihood) are reproducible to the bit anywhere.
//
// The standard library's math.Exp and math.Log are not: on amd64 math.Exp
// is assembly with a fused multiply-add branch taken only where the CPU has
// FMA, math.Log is assembly on amd64 and Go elsewhere, and arm64 runs its
// own; each is within an ulp of the truth, but they differ from each other
// in the last bit for about one argument in six. (Measured: a 30-round
// boosted model's margins hash differently on a Zen 4, on arm64 and on an
// amd64 without FMA.)
//
// Both functions here are the classic algorithms of fdlibm (Sun
// Microsystems; also the portable code of Go's math package), written so
// that the compiler cannot change them: every product is rounded (an
// explicit float64 conversion) before it is added, which forbids fusion on
// arm64, ppc64, riscv64, s390x and amd64 with GOAMD64=v3. IEEE 754
// addition, multiplication and division are then the same everywhere.
//
// # Exp
//
// x = k ln2 + r with k = round(x / ln2) (as int(x log2e -+ 1/2)) and
// |r| <= ln2/2, ln2 split into a high part exact in products with k and a
// low correction (r = hi - lo); then
//
//	e^r = 1 + r + r c / (2 - c),  c = r - r^2 (P1 + r^2 (P2 + ... + r^2 P5)),
//
// P a degree-5 Remez polynomial in r^2 (error below 2^-59), and e^x = 2^k
// e^r. The result is within 1 ulp of e^x (TestExp, against 300-bit
// arithmetic). |x| < 2^-28 gives 1 + x; x > 709.78 gives +Inf; x < -745.13
// gives 0.
//
// # Log
//
// x = 2^k (1 + f) with sqrt(2)/2 <= 1 + f < sqrt(2); with s = f/(2 + f),
//
//	ln(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)),  R(z) = L1 z + L2 z^2 + ... + L7 z^7,
//
// and ln x = k ln2_hi + (ln(1 + f) + k ln2_lo). Within 1 ulp (TestLog).
// ln 0 = -Inf, ln x = NaN for x < 0.
//
// # Pow
//
// math.Pow's algorithm, x^y = e^(yf ln x) x^yi 2^..., with Exp and Log
// above for the math package's (the fractional part yf in [-1/2, 1/2],
// the integer part by repeated squaring of the mantissa, exact for
// 10^k to k = 22).
//
// # Hypot
//
// sqrt(p^2 + q^2) = |p| sqrt(1 + (q/p)^2) with |p| >= |q|: the operations
// of math.Hypot's amd64 assembly (so the same bits there), which arm64's
// Go version fuses.
//
// # Log2
//
// math.Log2's formula, frexp(x) = (frac, exp), then Log(frac)/ln2 + exp,
// over Log above with the product rounded (exact powers of two give exp - 1
// exactly): math.Log2's bits on amd64 (TestLog2).
//
// # Cbrt
//
// math.Cbrt's algorithm (fdlibm's s_cbrt.c): a first guess from the
// exponent bits divided by 3, one rational step to 23 bits, chopped to
// 22 bits, then one Newton step t + t (x/t^2 - t)/(2t + x/t^2) to within
// 0.667 ulp. math.Cbrt is this Go code on amd64 (so the same bits there,
// TestCbrt), which arm64 fuses.
//
// # Log1p
//
// math.Log1p's algorithm (fdlibm's s_log1p.c): 1 + x = 2^k (1 + f) with a
// correction c for the rounding of 1 + x, then ln(1 + f) by the series
// of Log above in s = f/(2 + f), plus k ln2 and c/(1 + x). Within 1 ulp
// (TestLog1p, against 300-bit values), and math.Log1p's bits on amd64,
// where it is this Go code unfused; arm64's differ for about 1 argument in
// 850.
//
// # Erfc
//
// math.Erfc's algorithm (fdlibm's s_erf.c): rational approximations on
// [0, 0.84375), [0.84375, 1.25), [1.25, 1/0.35) and [1/0.35, 28), the
// last two as e^(-z^2 - 0.5625) e^((z - x)(z + x) + R/S) / x with z = x
// chopped to 20 bits, and Exp above for e^x. Within fdlibm's 3 ulps
// (TestErfc, against mpmath), the same worst errors as math.Erfc's, whose
// bits differ between amd64 and arm64 for about a third of the arguments.
//
// # NormFloat64
//
// math/rand/v2's ziggurat (Marsaglia and Tsang 2000) with the standard
// library's 128-strip tables, consuming the source as (*rand.Rand).NormFloat64
// does: a draw inside a rectangle is j w[i] (about 97 % of draws); the base
// strip's tail x = -ln(u1)/r, accepted when -2 ln(u2) >= x^2; a wedge
// accepts x when f[i] + u (f[i-1] - f[i]) < e^(-x^2/2) in float32. Log and
// Exp come from above and the products are rounded: on amd64 the draws
// are the standard library's (TestNormFloat64), which on arm64 differ in
// the tail's last bits and can flip a wedge test.
//
// Kernels that need many values at once (estimators/kmpe's vector
// exponential) perform the operations of Exp lane by lane and are tested
// to give Exp's bits.
package portmath
