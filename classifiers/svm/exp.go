package svm

import "math"

// expNonPos returns e^x for x <= 0 (and +0 for x below the underflow
// threshold or -Inf), within 1 ulp, with the same bits on every platform:
// math.Exp runs another algorithm in assembly on amd64 (with fused
// multiply-adds where the CPU has them) than elsewhere, and the two differ
// in the last bit for about one argument in six (TestExpNonPos). The
// algorithm is the classic one of fdlibm's e_exp.c (Sun Microsystems,
// also the portable math.Exp): x = k ln2 + r with |r| <= ln2/2 (ln2 split
// into a high part exact in products with k and a low correction), e^r =
// 1 + r + r c/(2 - c) with c = r - r^2 R(r^2) and R a degree-5 Remez
// polynomial, then e^x = 2^k e^r. Every product is rounded before it is
// added (the float64 conversions forbid fusion).
func expNonPos(x float64) float64 {
	const (
		ln2Hi     = 6.93147180369123816490e-01
		ln2Lo     = 1.90821492927058770002e-10
		log2e     = 1.44269504088896338700e+00
		p1        = 1.66666666666666657415e-01
		p2        = -2.77777777770155933842e-03
		p3        = 6.61375632143793436117e-05
		p4        = -1.65339022054652515390e-06
		p5        = 4.13813679705723846039e-08
		underflow = -7.45133219101941108420e+02
		nearZero  = -1.0 / (1 << 28)
	)
	switch {
	case !(x >= underflow):
		return 0
	case x > nearZero:
		// |x| < 2^-28: e^x = 1 + x to within an ulp.
		return 1 + x
	}
	k := int(float64(log2e*x) - 0.5)
	kf := float64(k)
	hi := x - float64(kf*ln2Hi)
	lo := float64(kf * ln2Lo)
	r := hi - lo
	t := float64(r * r)
	poly := p1 + float64(t*(p2+float64(t*(p3+float64(t*(p4+float64(t*p5)))))))
	c := r - float64(t*poly)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	if k >= -1021 {
		// y in [0.7, 1.5] times 2^k is a normal number: multiplying by the
		// power of two is exact, as math.Ldexp is, and much cheaper.
		return y * math.Float64frombits(uint64(1023+k)<<52)
	}
	return math.Ldexp(y, k)
}
