package sgemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refGemm is the float64 reference: every product and sum in float64.
func refGemm(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) []float64 {
	out := make([]float64, m*n)
	for i := range m {
		for j := range n {
			s := 0.0
			for p := range k {
				var av, bv float32
				if transA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if transB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += float64(float64(av) * float64(bv))
			}
			if beta != 0 {
				s += float64(float64(beta) * float64(c[i*ldc+j]))
			}
			out[i*n+j] = s
		}
	}
	return out
}

func randMat(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(2*rng.Float64() - 1)
	}
	return x
}

// available lists the micro-kernel sets this CPU can run.
func available() []kernelSet {
	if kernels.name == goKernels.name {
		return []kernelSet{goKernels}
	}
	return []kernelSet{goKernels, kernels}
}

// TestGemmMatchesReference checks Gemm against the float64 product on
// shapes that are and are not multiples of the tile and blocks (m, n, k
// around MR, NR, KC, MC, NC), every transpose, beta 0 (C holding NaN,
// which must not leak), 1 and 0.5, padded leading dimensions, 1 and 3
// goroutines, each kernel. The tolerance is float32 rounding of a k-term
// sum of products of magnitude <= 1: |error| <= 2 k eps32 sum|a_ip b_pj|.
func TestGemmMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := [][3]int{{1, 1, 1}, {14, 32, 1}, {13, 31, 7}, {15, 33, 257}, {29, 65, 300}, {32, 2048, 100},
		{2048, 32, 100}, {170, 530, 40}, {3, 1100, 513}, {512, 1, 64}, {1, 512, 1024}, {MC + 1, NC + 1, KC + 1}}
	defer func(k kernelSet, th int) { kernels, Threads = k, th }(kernels, Threads)
	for _, ks := range available() {
		kernels = ks
		name := ks.name
		for _, sh := range shapes {
			m, n, k := sh[0], sh[1], sh[2]
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				for _, beta := range []float32{0, 1, 0.5} {
					for _, th := range []int{1, 3} {
						Threads = th
						t.Run(fmt.Sprintf("%s/%dx%dx%d/%v/beta%v/th%d", name, m, n, k, tr, beta, th), func(t *testing.T) {
							checkOne(t, rng, tr[0], tr[1], m, n, k, beta)
						})
					}
				}
			}
		}
	}
}

func checkOne(t *testing.T, rng *rand.Rand, transA, transB bool, m, n, k int, beta float32) {
	lda, ldb, ldc := k+3, n+1, n+2
	ar, br := m, k
	if transA {
		lda, ar = m+3, k
	}
	if transB {
		ldb, br = k+1, n
	}
	a, b := randMat(rng, ar*lda), randMat(rng, br*ldb)
	c := randMat(rng, m*ldc)
	if beta == 0 {
		for i := range c {
			c[i] = float32(math.NaN())
		}
	}
	pad := slices.Clone(c)
	want := refGemm(transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc)
	Gemm(transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc)
	tol := 2 * float64(k+2) * 0x1p-24 * float64(k+1)
	for i := range m {
		for j := range ldc {
			got := c[i*ldc+j]
			if j >= n {
				if math.Float32bits(got) != math.Float32bits(pad[i*ldc+j]) {
					t.Fatalf("C[%d][%d] beyond n = %d written: %v", i, j, n, got)
				}
				continue
			}
			if d := math.Abs(float64(got) - want[i*n+j]); !(d <= tol) {
				t.Fatalf("C[%d][%d] = %v, float64 reference %v (|diff| %g > %g)", i, j, got, want[i*n+j], d, tol)
			}
		}
	}
}

// TestGemmThreadsSameBits: the result does not depend on the number of
// goroutines (every element is summed in the same order).
func TestGemmThreadsSameBits(t *testing.T) {
	defer func(th int) { Threads = th }(Threads)
	rng := rand.New(rand.NewPCG(3, 4))
	m, n, k := 300, 700, 600
	a, b := randMat(rng, m*k), randMat(rng, k*n)
	var first []float32
	for _, th := range []int{1, 2, 5, 16} {
		Threads = th
		c := make([]float32, m*n)
		Gemm(false, true, m, n, k, a, k, b, k, 0, c, n)
		if first == nil {
			first = c
			continue
		}
		for i := range c {
			if math.Float32bits(c[i]) != math.Float32bits(first[i]) {
				t.Fatalf("threads %d: C[%d] = %v, 1 thread %v", th, i, c[i], first[i])
			}
		}
	}
}

// TestGemmRejectsShortSlices: a slice too short for its shape panics with
// the matrix named, rather than reading out of bounds.
func TestGemmRejectsShortSlices(t *testing.T) {
	defer func() {
		r := recover()
		if r == nil || !contains(fmt.Sprint(r), "B:") {
			t.Fatalf("recover() = %v, want a panic naming B", r)
		}
	}()
	Gemm(false, false, 2, 3, 4, make([]float32, 8), 4, make([]float32, 11), 3, 0, make([]float32, 6), 3)
}

func contains(s, sub string) bool { return stringsContains(s, sub) }

func stringsContains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// BenchmarkGemm measures the products of one training step of the
// published net (batch 32, activations stored feature-major: C is width x
// batch) and a square product, in GFLOPS (2 m n k per product).
func BenchmarkGemm(b *testing.B) {
	cases := []struct {
		name    string
		ta, tb  bool
		m, n, k int
	}{
		{"fwd2048x32x1024", false, false, 1024, 32, 2048},
		{"gradW1024x2048x32", false, true, 1024, 2048, 32},
		{"back2048x32x1024", true, false, 2048, 32, 1024},
		{"square1024", false, false, 1024, 1024, 1024},
	}
	defer func(th int) { Threads = th }(Threads)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range cases {
		for _, th := range []int{1, Threads} {
			Threads = th
			b.Run(fmt.Sprintf("%s/threads%d", c.name, th), func(b *testing.B) {
				ar, ac := c.m, c.k
				if c.ta {
					ar, ac = c.k, c.m
				}
				br, bc := c.k, c.n
				if c.tb {
					br, bc = c.n, c.k
				}
				x, y, z := randMat(rng, ar*ac), randMat(rng, br*bc), make([]float32, c.m*c.n)
				b.ResetTimer()
				cpu0 := cpuSeconds()
				for b.Loop() {
					Gemm(c.ta, c.tb, c.m, c.n, c.k, x, ac, y, bc, 0, z, c.n)
				}
				flop := 2 * float64(c.m*c.n*c.k) * float64(b.N)
				b.ReportMetric(flop/b.Elapsed().Seconds()/1e9, "GFLOPS")
				if cpu := cpuSeconds() - cpu0; cpu > 0 {
					// Per second of CPU time: what a core delivers while it
					// runs, whatever share of a loaded machine the benchmark
					// gets (on a quiet one, GFLOPS = threads x this).
					b.ReportMetric(flop/cpu/1e9, "GFLOPS/cpu-s")
				}
			})
		}
	}
}
