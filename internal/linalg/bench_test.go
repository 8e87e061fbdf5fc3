package linalg

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The benchmarks run at the sizes of kernelauc's cross-validation: b = 200
// Gaussian centres, m rows of a fold's basis (a few hundred to a few
// thousand). Each reports CPU-ns/op too (the process's user + system CPU
// time per call), steadier than wall time on a shared machine.

// BenchmarkGram: S = Kt Kt' for a 200 x m basis.
func BenchmarkGram(bb *testing.B) {
	const b = 200
	for _, m := range []int{600, 1000, 5000} {
		bb.Run(fmt.Sprintf("b=%d/m=%d", b, m), func(bb *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			Kt := make([]float64, b*m)
			for i := range Kt {
				Kt[i] = rng.Float64()
			}
			S := make([]float64, b*b)
			c0 := cpuTime()
			for bb.Loop() {
				Gram(Kt, b, m, S)
			}
			bb.ReportMetric(float64(cpuTime()-c0)/float64(bb.N), "CPU-ns/op")
		})
	}
}

// BenchmarkCholesky: the factor of a 200 x 200 positive definite matrix.
func BenchmarkCholesky(bb *testing.B) {
	const b = 200
	A, _ := randomSPD(rand.New(rand.NewPCG(3, 4)), b)
	U := make([]float64, b*b)
	c0 := cpuTime()
	for bb.Loop() {
		copy(U, A)
		if !Cholesky(U, b) {
			bb.Fatal("refused")
		}
	}
	bb.ReportMetric(float64(cpuTime()-c0)/float64(bb.N), "CPU-ns/op")
}

// BenchmarkTransMulVec: g = Kt' w for a 200 x 600 basis.
func BenchmarkTransMulVec(bb *testing.B) {
	const b, m = 200, 600
	rng := rand.New(rand.NewPCG(5, 6))
	Kt := make([]float64, b*m)
	for i := range Kt {
		Kt[i] = rng.Float64()
	}
	w := make([]float64, b)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	w = slices.Clip(w)
	c0 := cpuTime()
	for bb.Loop() {
		TransMulVec(Kt, b, m, w)
	}
	bb.ReportMetric(float64(cpuTime()-c0)/float64(bb.N), "CPU-ns/op")
}
