package kmpe

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// mushroomLike returns n one-hot rows of 22 categorical features with 117
// columns in all (the AUL paper's Mushroom encoding), two classes with
// different category frequencies; the first nMix rows hold 50% of class 1,
// the rest are class 1.
func mushroomLike(seed uint64, n, nMix int) (mix, comp [][]float64) {
	r := rand.New(rand.NewPCG(seed, 117))
	card := []int{6, 4, 10, 2, 9, 2, 2, 2, 12, 2, 5, 4, 4, 9, 9, 1, 4, 3, 5, 9, 6, 7} // sums to 117
	row := func(pos bool) []float64 {
		x := make([]float64, 117)
		off := 0
		for _, c := range card {
			k := r.IntN(c)
			if pos && c > 1 && r.Float64() < 0.5 {
				k = 0 // class 1 favours the first category
			}
			x[off+k] = 1
			off += c
		}
		return x
	}
	for i := range n {
		if i < nMix {
			mix = append(mix, row(i%2 == 0))
		} else {
			comp = append(comp, row(true))
		}
	}
	return mix, comp
}

func benchKM(b *testing.B, mix, comp [][]float64) {
	ctx := context.Background()
	var r *Result
	c0 := cpuTime()
	for b.Loop() {
		var err error
		if r, err = Estimate(ctx, mix, comp, Options{Scaling: Raw}); err != nil {
			b.Fatal(err)
		}
	}
	var it, steps, sup int
	for _, s := range r.Solves {
		it += s.Iterations
		steps += s.Steps
		sup = max(sup, s.Support)
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(r.Solves)), "qps")
	b.ReportMetric(float64(steps), "active-steps")
	b.ReportMetric(float64(it), "smo-iters")
	b.ReportMetric(float64(sup), "max-support")
	b.Logf("KM1 %.4f KM2 %.4f sigma index %d", r.KM1, r.KM2, r.SigmaIndex)
}

// The AUL paper's timing case: 8,000 x 117 (published KM: 2,000 s).
func BenchmarkKM8000x117(b *testing.B) {
	mix, comp := mushroomLike(1, 8000, 7200)
	benchKM(b, mix, comp)
}

// About the AUL protocol's capped size: 4,000 x 10 Gaussian rows.
func BenchmarkKM4000x10(b *testing.B) {
	mix, comp := gaussBench(2160, 1440, 400)
	benchKM(b, mix, comp)
}

func BenchmarkKM2000x10(b *testing.B) {
	mix, comp := gaussBench(1080, 720, 200)
	benchKM(b, mix, comp)
}

// gaussBench returns 10-dimensional rows: a mixture of neg rows of N(0, I)
// and pos rows shifted by 1 in the first 3 features, and comp component
// rows from the shifted distribution (one stream, seed (2, 10)).
func gaussBench(neg, pos, comp int) (mix, component [][]float64) {
	r := rand.New(rand.NewPCG(2, 10))
	rows := func(n int, mean float64) [][]float64 {
		out := make([][]float64, n)
		for i := range out {
			out[i] = make([]float64, 10)
			for j := range out[i] {
				out[i][j] = r.NormFloat64()
				if j < 3 {
					out[i][j] += mean
				}
			}
		}
		return out
	}
	mix = append(rows(neg, 0), rows(pos, 1)...)
	return mix, rows(comp, 1)
}

// BenchmarkFactor4000 times the blocked Cholesky factorisation
// (factorRows) of a 4,000-row Gaussian kernel of 3-D rows, the size of
// the supports near lambda = 1 on the AUL data sets, and reports its rate
// (m^3/3 flops, a product and a subtraction counted as two).
func BenchmarkFactor4000(b *testing.B) {
	const m = 4000
	src, _, diag := gaussKernelRows(rand.New(rand.NewPCG(1, 2)), m, 3, 1)
	for i := range m {
		src[i][i] += 1e-3 // well conditioned: every pivot passes
		diag[i] = src[i][i]
	}
	work := newFactorRows(m)
	var elapsed time.Duration
	for b.Loop() {
		for i := range m {
			copy(work[i], src[i])
		}
		t0 := time.Now()
		if err := factorRows(work, diag); err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(t0)
	}
	b.ReportMetric(float64(m)*m*m/3/elapsed.Seconds()*float64(b.N)/1e9, "GFLOP/s")
}

// BenchmarkBuildSingular times chol.build of a 4,000-row support whose
// row 300 repeats row 10 (the pivot there is 0: the build fails), as the
// warm starts of numerically singular supports do (near-duplicate rows
// fail within their first few hundred pivots on the AUL data sets).
func BenchmarkBuildSingular(b *testing.B) {
	const n = 4000
	r := rand.New(rand.NewPCG(3, 4))
	rows := gaussRowsD(r, n, 3, 0)
	rows[300] = rows[10]
	q := kernelQP(gaussKernel(rows, 2), n)
	sup := make([]int, n)
	for i := range sup {
		sup[i] = i
	}
	for b.Loop() {
		var c chol
		if err := c.build(q, sup); err == nil {
			b.Fatal("the build of a singular support succeeded")
		}
	}
}

// BenchmarkExactGradient times qp.exactGradient (g = K v - K u, a sum over
// the support of rows of K) on a 4,000 x 4,000 kernel, the AUL protocol's
// size, for supports of 1,500 and 3,500 rows (those of d(1.05) on the AUL
// data sets) on one and two workers, and reports the rate at which it
// reads K's rows.
func BenchmarkExactGradient(b *testing.B) {
	const n = 4000
	r := rand.New(rand.NewPCG(5, 6))
	k := make([]float64, n*n)
	for i := range k {
		k[i] = r.Float64()
	}
	ka, kb := make([]float64, n), make([]float64, n)
	for _, sup := range []int{1500, 3500} {
		for _, workers := range []int{1, 2} {
			q := newQP(k, n, n/2, ka, kb, 1e-10, 1, workers)
			for _, t := range r.Perm(n)[:sup] {
				q.v[t] = r.Float64()
			}
			b.Run(fmt.Sprintf("support=%d/workers=%d", sup, workers), func(b *testing.B) {
				for b.Loop() {
					q.exactGradient()
				}
				b.ReportMetric(float64(sup*n*8)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
	}
}

// BenchmarkSolve2 times chol.solve2 from nothing (forward and back
// substitution with two right-hand sides) on the factor of a 3,000-row
// Gaussian kernel (72 MB of rows: a stream through memory), as the
// active-set method's steps on the AUL data sets' large supports do.
func BenchmarkSolve2(b *testing.B) {
	const m = 3000
	src, _, diag := gaussKernelRows(rand.New(rand.NewPCG(7, 8)), m, 3, 1)
	for i := range m {
		src[i][i] += 1e-3
		diag[i] = src[i][i]
	}
	if err := factorRows(src, diag); err != nil {
		b.Fatal(err)
	}
	c := chol{rows: src}
	a, one := make([]float64, m), make([]float64, m)
	for i := range a {
		a[i], one[i] = float64(i%7), 1
	}
	for b.Loop() {
		var f forward
		c.solve2(&f, a, one)
	}
}
