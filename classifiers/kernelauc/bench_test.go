package kernelauc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// spambaseLike draws a Spambase-sized PU problem: n = 4,000 rows, d = 57,
// alpha = 0.394 (Table 1 of the AUL paper), beta = 0.1 of the positives
// labeled; positives N(mu, I) with mu_k = 0.25 for the first 20 columns,
// negatives N(0, I), columns rescaled by 10^(k mod 4 - 1) so that the
// standardisation matters.
func spambaseLike(seed uint64) (L, U *mat.Dense, alphaU float64) {
	rng := rand.New(rand.NewPCG(seed, 57))
	const n, d = 4000, 57
	nP := 1576 // round(0.394 n)
	nL := 158  // round(0.1 nP)
	row := func(pos bool) []float64 {
		r := make([]float64, d)
		for k := range r {
			m := 0.0
			if pos && k < 20 {
				m = 0.25
			}
			s := []float64{0.1, 1, 10, 100}[k%4]
			r[k] = (m + rng.NormFloat64()) * s
		}
		return r
	}
	var lr, ur [][]float64
	for i := range n {
		pos := i < nP
		if pos && i < nL {
			lr = append(lr, row(true))
		} else {
			ur = append(ur, row(pos))
		}
	}
	return dense(lr), dense(ur), float64(nP-nL) / float64(n-nL)
}

// BenchmarkFitSpambaseSized: one full cross-validated fit (11 widths x 10
// lambdas x 5 folds, b = 200, refit) on 4,000 x 57, per learner and worker
// count. Reports CPU-ns/op (user + system CPU time of the process per fit,
// less sensitive than wall time to other processes on a shared machine).
func BenchmarkFitSpambaseSized(b *testing.B) {
	L, U, alphaU := spambaseLike(1)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("PU_AUC/workers=%d", w), func(b *testing.B) {
			c0 := cpuTime()
			for b.Loop() {
				if _, err := FitPUAUC(L, U, alphaU, Options{Workers: w}, rand.New(rand.NewPCG(1, 2))); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "CPU-ns/op")
		})
		b.Run(fmt.Sprintf("PU_AUL/workers=%d", w), func(b *testing.B) {
			c0 := cpuTime()
			for b.Loop() {
				if _, err := FitPUAUL(L, U, Options{Workers: w}, rand.New(rand.NewPCG(1, 2))); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "CPU-ns/op")
		})
	}
}

// BenchmarkCompareOnFoldsSpambaseSized: the whole Figure 3 protocol (5 outer
// folds, each a PU_AUC and a PU_AUL fit on 3,200 training rows) on a
// 4,000 x 57 PN set shaped like spambaseLike, true alpha_U as the prior.
func BenchmarkCompareOnFoldsSpambaseSized(b *testing.B) {
	L, U, _ := spambaseLike(1)
	X := mat.NewDense(4000, 57, nil)
	X.Stack(L, U)
	y := make([]bool, 4000)
	for i := range 1576 { // spambaseLike's positives: the L rows, then U's first
		y[i] = true
	}
	cfg := CompareConfig{PriorFunc: func(_ int, _, _ *mat.Dense, a float64) (float64, error) { return a, nil }}
	c0 := cpuTime()
	for b.Loop() {
		res, err := CompareOnFolds(X, y, cfg, rand.New(rand.NewPCG(3, 3)))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.AUCPUAUC, "AUC-PU_AUC")
		b.ReportMetric(res.AUCPUAUL, "AUC-PU_AUL")
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "CPU-ns/op")
}
