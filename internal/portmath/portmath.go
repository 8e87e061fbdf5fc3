package portmath

import "math"

const (
	ln2Hi = 6.93147180369123816490e-01 // 0x3fe62e42fee00000: exact in products with |k| < 2^11
	ln2Lo = 1.90821492927058770002e-10 // ln 2 - ln2Hi
	log2e = 1.44269504088896338700e+00
)

// The Remez coefficients of Exp (fdlibm e_exp.c).
const (
	expP1 = 1.66666666666666657415e-01
	expP2 = -2.77777777770155933842e-03
	expP3 = 6.61375632143793436117e-05
	expP4 = -1.65339022054652515390e-06
	expP5 = 4.13813679705723846039e-08
)

// Exp's range: above ExpOverflow e^x is +Inf, below ExpUnderflow 0; for
// |x| < 2^-28 it is 1 + x.
const (
	ExpOverflow  = 7.09782712893383973096e+02
	ExpUnderflow = -7.45133219101941108420e+02
	expNearZero  = 1.0 / (1 << 28)
)

// Exp returns e^x within 1 ulp, with the same bits on every platform (see
// the package documentation). Exp(+Inf) = +Inf, Exp(-Inf) = 0, Exp(NaN) =
// NaN.
func Exp(x float64) float64 {
	switch {
	case x != x || x > ExpOverflow:
		return x * math.Inf(1) // NaN stays NaN; +Inf for large x
	case x < ExpUnderflow:
		return 0
	case -expNearZero < x && x < expNearZero:
		return 1 + x
	}
	var k int
	if x < 0 {
		k = int(float64(log2e*x) - 0.5)
	} else {
		k = int(float64(log2e*x) + 0.5)
	}
	kf := float64(k)
	hi := x - float64(kf*ln2Hi)
	lo := float64(kf * ln2Lo)
	r := hi - lo
	t := float64(r * r)
	poly := expP1 + float64(t*(expP2+float64(t*(expP3+float64(t*(expP4+float64(t*expP5)))))))
	c := r - float64(t*poly)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	if -1021 <= k && k <= 1023 {
		// y in [0.7, 1.5] times 2^k is a normal number: multiplying by the
		// power of two is exact, as math.Ldexp is, and much cheaper.
		return y * math.Float64frombits(uint64(1023+k)<<52)
	}
	return math.Ldexp(y, k) // exact, pure Go on every platform
}

// The coefficients of Log's R (fdlibm e_log.c).
const (
	logL1 = 6.666666666666735130e-01
	logL2 = 3.999999999940941908e-01
	logL3 = 2.857142874366239149e-01
	logL4 = 2.222219843214978396e-01
	logL5 = 1.818357216161805012e-01
	logL6 = 1.531383769920937332e-01
	logL7 = 1.479819860511658591e-01
)

// Log returns the natural logarithm of x within 1 ulp, with the same bits
// on every platform. Log(0) = -Inf, Log(x < 0) = NaN, Log(+Inf) = +Inf,
// Log(NaN) = NaN.
func Log(x float64) float64 {
	switch {
	case x != x || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x) // exact: f1 in [1/2, 1)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (logL1 + float64(s4*(logL3+float64(s4*(logL5+float64(s4*logL7)))))))
	t2 := float64(s4 * (logL2 + float64(s4*(logL4+float64(s4*logL6)))))
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// Sigmoid returns the logistic function 1/(1 + e^-m) with the same bits on
// every platform. It evaluates e^-|m| (never overflowing) and returns
// 1/(1 + e) for m >= 0 and e/(1 + e) for m < 0, each within a few ulps.
func Sigmoid(m float64) float64 {
	if m >= 0 {
		return 1 / (1 + Exp(-m))
	}
	e := Exp(m)
	return e / (1 + e)
}

// Hypot returns sqrt(p^2 + q^2) as |p| sqrt(1 + (q/p)^2) with |p| >= |q|
// (avoiding overflow), with the same bits on every platform: math.Hypot
// computes this in assembly on amd64 and in Go elsewhere, where arm64
// fuses the 1 + (q/p)^2 into one multiply-add. Hypot(±Inf, q) = +Inf,
// Hypot(NaN, q) = NaN (q finite), Hypot(0, 0) = 0.
func Hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	switch {
	case math.IsInf(p, 1) || math.IsInf(q, 1):
		return math.Inf(1)
	case p != p || q != q:
		return math.NaN()
	}
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	q = q / p
	return p * math.Sqrt(1+float64(q*q))
}

// Pow returns x^y with the same bits on every platform: math.Pow's
// algorithm (the fractional part of y as e^(yf ln x) with |yf| <= 1/2,
// the integer part by repeated squaring of x's mantissa, the exponents
// kept apart and applied at the end by math.Ldexp), with Exp and Log for
// math.Exp and math.Log, which math.Pow calls. The special cases (x or y
// zero, infinite or NaN, y = ±1/2, |y| >= 2^63) are math.Pow's exact
// values.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y == 1:
		return x
	case x != x || y != y:
		return math.NaN()
	case x == 0 || math.IsInf(x, 0) || math.IsInf(y, 0) || y == 0.5 || y == -0.5:
		return math.Pow(x, y) // exact: no Exp or Log on these paths
	}
	yi, yf := math.Modf(math.Abs(y))
	if yf != 0 && x < 0 {
		return math.NaN()
	}
	if yi >= 1<<63 {
		return math.Pow(x, y) // 0, 1 or +Inf
	}
	// x^y = a1 2^ae.
	a1, ae := 1.0, 0
	if yf != 0 {
		if yf > 0.5 {
			yf--
			yi++
		}
		a1 = Exp(float64(yf * Log(x)))
	}
	x1, xe := math.Frexp(x)
	for i := int64(yi); i != 0; i >>= 1 {
		if xe < -1<<12 || 1<<12 < xe {
			// Catastrophic overflow or underflow: as math.Pow.
			ae += xe
			break
		}
		if i&1 == 1 {
			a1 *= x1
			ae += xe
		}
		x1 = float64(x1 * x1) // rounded: arm64 would fuse it into x1 + x1 below
		xe <<= 1
		if x1 < .5 {
			x1 += x1
			xe--
		}
	}
	if y < 0 {
		a1 = 1 / a1
		ae = -ae
	}
	return math.Ldexp(a1, ae)
}
