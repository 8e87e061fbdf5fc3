package kmpe

// Vector kernels of the QP's inner loops. Four independent accumulators
// break the dependency chain of a plain sum (the loops are otherwise
// bound by the latency of one add); the summation order is fixed, so a
// result does not depend on anything but the inputs.

// dot returns sum_k a[k] b[k], len(b) >= len(a): four partial sums over k
// mod 4, added as (s0 + s1) + (s2 + s3), then the tail in order.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= len(a); k += 4 {
		s0 += a[k] * b[k]
		s1 += a[k+1] * b[k+1]
		s2 += a[k+2] * b[k+2]
		s3 += a[k+3] * b[k+3]
	}
	s := (s0 + s1) + (s2 + s3)
	for ; k < len(a); k++ {
		s += a[k] * b[k]
	}
	return s
}

// dot2 returns dot(a, x) and dot(a, y) in one pass over a.
func dot2(a, x, y []float64) (float64, float64) {
	x, y = x[:len(a)], y[:len(a)]
	var s0, s1, t0, t1 float64
	k := 0
	for ; k+2 <= len(a); k += 2 {
		s0 += a[k] * x[k]
		t0 += a[k] * y[k]
		s1 += a[k+1] * x[k+1]
		t1 += a[k+1] * y[k+1]
	}
	s, t := s0+s1, t0+t1
	for ; k < len(a); k++ {
		s += a[k] * x[k]
		t += a[k] * y[k]
	}
	return s, t
}

// axpy sets y[k] += alpha x[k], len(y) >= len(x).
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	k := 0
	for ; k+4 <= len(x); k += 4 {
		y[k] += alpha * x[k]
		y[k+1] += alpha * x[k+1]
		y[k+2] += alpha * x[k+2]
		y[k+3] += alpha * x[k+3]
	}
	for ; k < len(x); k++ {
		y[k] += alpha * x[k]
	}
}

// axpy2 sets x[k] += a r[k] and y[k] += b r[k] in one pass over r (the
// same values as two axpy calls).
func axpy2(a, b float64, r, x, y []float64) {
	x, y = x[:len(r)], y[:len(r)]
	for k, v := range r {
		x[k] += a * v
		y[k] += b * v
	}
}
