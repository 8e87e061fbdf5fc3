package nnet

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEpochBank times one epoch of the kernel on the shape of one net
// of BenchmarkBag100Bank (classifiers): d = 13, h = 5, 5,800 rows with a
// training weight and 1,150 with only a validation weight (the expected
// counts for a bootstrap of 11,000 split 75/25 by position). Single
// goroutine; reports nominal GFLOP/s (FlopsPerEpoch), ns per row and CPU ns
// per epoch (less sensitive than wall time to other processes on a shared
// machine).
func BenchmarkEpochBank(b *testing.B) {
	const d, h, nT, nV = 13, 5, 5800, 1150
	rng := rand.New(rand.NewPCG(1, 2))
	p := &problem{d: d, h: h, n: nT + nV, nTrain: nT}
	for i := range p.n {
		for range d {
			p.x = append(p.x, 2*rng.Float64()-1)
		}
		p.t = append(p.t, float64(2*rng.IntN(2)-1))
		wt, wv := float64(1+rng.IntN(2)), float64(rng.IntN(2))
		if i >= nT {
			wt, wv = 0, 1
		}
		p.wt, p.wv = append(p.wt, wt), append(p.wv, wv)
	}
	w := make([]float64, h*d+2*h+1)
	initNguyenWidrow(w, h, d, rng)
	g := make([]float64, len(w))
	k := newKernel()
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
