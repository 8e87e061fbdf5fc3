package nnet

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var fitTanh = flag.Bool("fit-tanh", false, "re-fit the tanh approximation's coefficients and print them")

// tanhMaxErr is the stated bound on |tanh(x) - math.Tanh(x)| (tanh.go).
const tanhMaxErr = 3.2e-8

// TestTanhApprox checks the stated properties of the approximation against
// math.Tanh (the reference): the error bound on a dense grid of [-30, 30] and
// at 10^6 random points, oddness, |y| < 1 and monotonicity on the grid.
func TestTanhApprox(t *testing.T) {
	if *fitTanh {
		p, q := fitRationalTanh(5, 4, tanhClamp)
		t.Logf("P = %v\nQ = %v", p, q)
	}
	worst, at := 0.0, 0.0
	prev := -1.0
	for i := -300000; i <= 300000; i++ {
		x := float64(i) * 1e-4
		y := tanh(x)
		if e := math.Abs(y - math.Tanh(x)); e > worst {
			worst, at = e, x
		}
		if !(math.Abs(y) < 1) {
			t.Fatalf("tanh(%v) = %v: |y| must stay below 1", x, y)
		}
		if y < prev {
			t.Fatalf("tanh decreases at %v: %v after %v", x, y, prev)
		}
		prev = y
		if tanh(-x) != -y {
			t.Fatalf("tanh(-%v) = %v, want %v (odd)", x, tanh(-x), -y)
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 1000000 {
		x := 24*rng.Float64() - 12
		if e := math.Abs(tanh(x) - math.Tanh(x)); e > worst {
			worst, at = e, x
		}
	}
	t.Logf("max |tanh - math.Tanh| = %.3g at x = %v", worst, at)
	if worst > tanhMaxErr {
		t.Errorf("max error %.3g at %v exceeds the stated %.3g", worst, at, tanhMaxErr)
	}
	if !math.IsNaN(tanh(math.NaN())) {
		t.Errorf("tanh(NaN) = %v, want NaN", tanh(math.NaN()))
	}
	if tanh(math.Inf(1)) != tanh(tanhClamp) || tanh(math.Inf(-1)) != -tanh(tanhClamp) {
		t.Errorf("tanh(+-Inf) must be the clamped value")
	}
}

// fitRationalTanh fits tanh(x) ~= x P(x^2)/Q(x^2), deg P = m, deg Q = n,
// Q(0) = 1, on [0, c]: linearised least squares x P - tanh(x) Q ~ 0 on 3,000
// Chebyshev nodes, reweighted by 1/Q of the previous iterate (Loeb;
// Sanathanan & Koerner) and by Lawson's multiplicative rule w_i *= |err_i|,
// which drives the weighted L2 solution towards the minimax one. It keeps
// the iterate with the smallest maximum error on the nodes. This is how the
// coefficients in tanh.go were obtained (go test -run TestTanhApprox -fit-tanh -v).
func fitRationalTanh(m, n int, c float64) (p, q []float64) {
	const nodes = 3000
	xs := make([]float64, nodes)
	for i := range xs {
		xs[i] = c * (1 - math.Cos(math.Pi*float64(i)/(nodes-1))) / 2
	}
	s := c * c // the fit runs in y/s for conditioning
	poly := func(a []float64, y float64) float64 {
		r := 0.0
		for i := len(a) - 1; i >= 0; i-- {
			r = r*y + a[i]
		}
		return r
	}
	p, q = make([]float64, m+1), make([]float64, n+1)
	q[0] = 1
	w := make([]float64, nodes)
	for i := range w {
		w[i] = 1
	}
	best := math.Inf(1)
	var bp, bq []float64
	A := mat.NewDense(nodes, m+1+n, nil)
	bv := mat.NewVecDense(nodes, nil)
	for range 300 {
		for i, x := range xs {
			y, th := x*x/s, math.Tanh(x)
			sc := math.Sqrt(w[i]) / poly(q, y)
			yp := 1.0
			for j := 0; j <= m; j++ {
				A.Set(i, j, sc*x*yp)
				yp *= y
			}
			yp = y
			for j := 1; j <= n; j++ {
				A.Set(i, m+j, -sc*th*yp)
				yp *= y
			}
			bv.SetVec(i, sc*th)
		}
		var sol mat.VecDense
		if err := sol.SolveVec(A, bv); err != nil {
			panic(err)
		}
		for j := 0; j <= m; j++ {
			p[j] = sol.AtVec(j)
		}
		for j := 1; j <= n; j++ {
			q[j] = sol.AtVec(m + j)
		}
		worst, sum := 0.0, 0.0
		for i, x := range xs {
			y := x * x / s
			e := math.Abs(x*poly(p, y)/poly(q, y) - math.Tanh(x))
			worst = math.Max(worst, e)
			w[i] *= e + 1e-30
			sum += w[i]
		}
		for i := range w {
			w[i] *= nodes / sum
		}
		if worst < best {
			best, bp, bq = worst, append([]float64(nil), p...), append([]float64(nil), q...)
		}
	}
	for j := range bp {
		bp[j] /= math.Pow(s, float64(j))
	}
	for j := range bq {
		bq[j] /= math.Pow(s, float64(j))
	}
	return bp, bq
}
