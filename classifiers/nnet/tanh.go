package nnet

// Rational approximation of tanh used by every unit of the net, in training
// and in prediction alike (so a trained net is a function of this activation,
// not of math.Tanh).
//
//	tanh(x) ~= x * P(x^2) / Q(x^2)  for |x| <= tanhClamp, and x is clamped to
//	           [-tanhClamp, tanhClamp] before evaluation,
//
// with P of degree 5 and Q of degree 4 in x^2 (an odd function, so
// tanh(-x) = -tanh(x) exactly). The coefficients were fitted by this project:
// Lawson-reweighted linearised least squares (the Loeb / Sanathanan-Koerner
// iteration) on 3,000 Chebyshev nodes of [0, 9], by fitRationalTanh in
// tanh_test.go (`go test -run TestTanhApprox -fit-tanh -v` prints them). Measured on a 1e-4 grid of [-30, 30] and on 10^6 random
// points: |approx - math.Tanh| <= 3.2e-8 everywhere (the largest error is the
// clamp: 1 - tanh(9) = 3.05e-8), the approximation is non-decreasing on the
// grid and |approx| < 1, so 1 - y^2 > 0 and a unit never reverses its
// gradient's sign. 3.2e-8 is below float32 resolution, so a float32 kernel
// can reuse the same coefficients.
//
// The cost is 9 multiply-adds, two multiplies, one division and the clamp,
// against an exponential (and its range reduction) for math.Tanh.
//
// The derivative used in back-propagation is 1 - y^2, the derivative of the
// exact tanh written in terms of its output; it differs from the slope of
// the approximation itself by at most 4.4e-8 on [-9, 9] (TestGradientCheck
// measures it), which could only matter through the signs RPROP takes.

const tanhClamp = 9

const (
	tanhP0 = 0.9999999938741571
	tanhP1 = 0.13676342124149987
	tanhP2 = 0.003863927542827194
	tanhP3 = 2.7923260675520154e-05
	tanhP4 = 3.040066286595887e-08
	tanhP5 = -1.2082866380771602e-11
	tanhQ1 = 0.4700967280232317
	tanhQ2 = 0.027229537059943586
	tanhQ3 = 0.0003931036945997299
	tanhQ4 = 1.281726319348098e-06
)

// tanh is the clamped rational approximation described above. NaN input
// gives NaN (the clamp comparisons are false for NaN).
func tanh(x float64) float64 {
	if x > tanhClamp {
		x = tanhClamp
	} else if x < -tanhClamp {
		x = -tanhClamp
	}
	y := x * x
	p := madd(madd(madd(madd(madd(tanhP5, y, tanhP4), y, tanhP3), y, tanhP2), y, tanhP1), y, tanhP0)
	q := madd(madd(madd(madd(tanhQ4, y, tanhQ3), y, tanhQ2), y, tanhQ1), y, 1)
	return x * p / q
}
