package classifiers

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers/nnet"
)

// bankLike draws the benchmark's data set: the shape of the AAAI-2017 Bank
// cell (1,000 labeled + 10,000 unlabeled rows, d = 13, about 10 % targets 1):
// n rows, a fraction pos of them positive (exactly round(pos*n)), 7 numeric
// features on different scales (two heavy-tailed) whose means shift with the
// class, and 6 binary features whose rates shift with the class. The classes
// overlap (a single net reaches an AUC near 0.8), as labeled-vs-unlabeled
// data do.
func bankLike(rng *rand.Rand, n int, pos float64) Data {
	const d = 13
	x := mat.NewDense(n, d, nil)
	y := make([]bool, n)
	nPos := int(math.Round(pos * float64(n)))
	shift := [7]float64{0.6, 0.4, 0.3, 0.2, 0.1, 0, 0}
	scale := [7]float64{10, 1000, 1, 5, 1, 100, 1}
	pNeg := [6]float64{0.3, 0.5, 0.2, 0.6, 0.1, 0.4}
	pPos := [6]float64{0.4, 0.4, 0.3, 0.6, 0.2, 0.4}
	for i := range n {
		y[i] = i < nPos
		row := x.RawRowView(i)
		for k := range 7 {
			v := rng.NormFloat64()
			if y[i] {
				v += shift[k]
			}
			if k == 1 || k == 5 {
				v = math.Exp(v) // heavy-tailed, like Bank's balance and duration
			}
			row[k] = scale[k] * v
		}
		for k := range 6 {
			p := pNeg[k]
			if y[i] {
				p = pPos[k]
			}
			if rng.Float64() < p {
				row[7+k] = 1
			}
		}
	}
	return Data{X: x, Y: y}
}

// BenchmarkBag100Bank is issue 4's benchmark: one bag of 100 nets (h = 5, at
// most 500 epochs, 25 failures, 25 % validation by position) on the
// synthetic 11,000 x 13 set with 10 % positives. Reported: wall seconds per
// bag, CPU seconds per bag (all threads; on a shared machine cpu-s/bag
// divided by the number of cores estimates the wall time on a quiet one),
// nominal GFLOP/s over wall time (nnet.FlopsPerEpoch) and mean epochs per
// net.
// It runs once per kernel available (sub-benchmarks avx512, avx2 or neon,
// scalar, float32-go).
func BenchmarkBag100Bank(b *testing.B) {
	forKernels(b, func(b *testing.B, kernel string) { benchBag(b, kernel, false) })
}

// BenchmarkBag100BankDuplicated is the same bag with every net trained on
// one row per bootstrap draw (the layout the weighted unique rows replace).
func BenchmarkBag100BankDuplicated(b *testing.B) {
	forKernels(b, func(b *testing.B, kernel string) { benchBag(b, kernel, true) })
}

// forKernels runs f as a sub-benchmark for each kernel this binary and CPU
// can run, float32-go (the vector kernels' numerics in plain Go) included.
func forKernels(b *testing.B, f func(b *testing.B, kernel string)) {
	for _, k := range nnet.Kernels() {
		b.Run(k, func(b *testing.B) { f(b, k) })
	}
}

func benchBag(b *testing.B, kernel string, dup bool) {
	data := bankLike(rand.New(rand.NewPCG(1, 2)), 11000, 0.1)
	o := DefaultNNetBag()
	o.Kernel = kernel
	o.duplicateRows = dup
	var flops, epochs float64
	var elapsed, cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start, startCPU := time.Now(), cpuTime()
		res, err := o.Score(context.Background(), data, uint64(i))
		elapsed += time.Since(start)
		cpu += cpuTime() - startCPU
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range res.Models {
			flops += m.Flops
			epochs += float64(m.Epochs)
		}
	}
	b.ReportMetric(elapsed.Seconds()/float64(b.N), "s/bag")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/bag")
	b.ReportMetric(flops/elapsed.Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(epochs/float64(b.N*o.Bags), "epochs/net")
}
