package nnet

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEpochBank times one epoch of each available kernel on the shape
// of one net of BenchmarkBag100Bank (classifiers): d = 13, h = 5, 5,800
// rows with a training weight and 1,150 with only a validation weight (the
// expected counts for a bootstrap of 11,000 split 75/25 by position).
// Single goroutine; reports nominal GFLOP/s (FlopsPerEpoch), ns per row and
// CPU ns per epoch (less sensitive than wall time to other processes on a
// shared machine).
func BenchmarkEpochBank(b *testing.B) {
	benchEpoch(b, 13, 0, 5800, 1150)
}

// BenchmarkEpochMushroom is the same on the shape of a Mushroom net: 126
// one-hot columns (22 groups, one 1 per group), about 5,100 training and
// 1,000 validation-only rows of an 8,124-row bootstrap.
func BenchmarkEpochMushroom(b *testing.B) {
	benchEpoch(b, 0, 126, 5100, 1000)
}

// BenchmarkEpochGas is the same on the shape of a Gas net: 128 numeric
// columns, about 1,630 training and 320 validation-only rows of a
// 3,095-row bootstrap.
func BenchmarkEpochGas(b *testing.B) {
	benchEpoch(b, 128, 0, 1630, 320)
}

// benchEpoch runs the epoch benchmark for every available kernel on random
// data with dNum numeric columns and dHot one-hot columns in 22 groups.
func benchEpoch(b *testing.B, dNum, dHot, nT, nV int) {
	for _, name := range Kernels() { // float32-go included: the reference's cost
		b.Run(name, func(b *testing.B) {
			benchEpochKernel(b, name, dNum, dHot, nT, nV)
		})
	}
}

func benchEpochKernel(b *testing.B, name string, dNum, dHot, nT, nV int) {
	const h = 5
	d := dNum + dHot
	rng := rand.New(rand.NewPCG(1, 2))
	p := randomProblem(rng, dNum, dHot, h, nT+nV, nT)
	w := make([]float64, h*d+2*h+1)
	initNguyenWidrow(w, h, d, rng)
	g := make([]float64, len(w))
	ki, err := resolveKernel(name)
	if err != nil {
		b.Fatal(err)
	}
	k := ki.new()
	k.load(p)
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		k.epoch(w, g)
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(FlopsPerEpoch(d, h, nT, nV)/sec/1e9, "GFLOP/s")
	b.ReportMetric(sec*1e9/float64(p.n), "ns/row")
}

// randomProblem draws a problem of n rows (the first nTrain with a training
// weight of 1 or 2 and a validation weight of 0 or 1, the others with only a
// validation weight of 1) with dNum numeric columns uniform in [-1, 1] and
// dHot one-hot columns (-1/+1) in groups of dHot/22 or so, one +1 per group.
func randomProblem(rng *rand.Rand, dNum, dHot, h, n, nTrain int) *problem {
	d := dNum + dHot
	p := &problem{d: d, h: h, n: n, nTrain: nTrain}
	groups := min(22, dHot)
	for i := range n {
		for range dNum {
			p.x = append(p.x, 2*rng.Float64()-1)
		}
		row := len(p.x)
		for range dHot {
			p.x = append(p.x, -1)
		}
		for gr := range groups {
			lo, hi := gr*dHot/groups, (gr+1)*dHot/groups
			p.x[row+lo+rng.IntN(hi-lo)] = 1
		}
		p.t = append(p.t, float64(2*rng.IntN(2)-1))
		wt, wv := float64(1+rng.IntN(2)), float64(rng.IntN(2))
		if i >= nTrain {
			wt, wv = 0, 1
		}
		p.wt, p.wv = append(p.wt, wt), append(p.wv, wv)
		p.sumTrain += wt
		p.sumVal += wv
	}
	return p
}
