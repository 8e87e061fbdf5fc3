package bntrain

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkStep is one training step of the published net (batch 32):
// forward, backward and Adam.
func BenchmarkStep(b *testing.B) {
	train := synth(64, 100, 1)
	cfg := Published(1)
	s, err := NewState(train, cfg)
	if err != nil {
		b.Fatal(err)
	}
	w := newWork(s.Model, cfg.Batch)
	params := s.Model.params()
	curves, alphas := make([][]float64, 32), make([]float64, 32)
	for i := range 32 {
		curves[i], alphas[i] = train[i].Curve, train[i].Alpha
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cpu0 := cpuSeconds()
	for b.Loop() {
		w.input(s.Model, curves, alphas)
		w.forward(s.Model, 32, true, &cfg, rng)
		w.backward(s.Model, 32)
		s.Step++
		adam(params, w.grads, s.M, s.V, s.Step, &cfg)
	}
	// 543 MFLOP: 3 products per layer of 2 x 32 x (100 x 2048 + 2048 x 1024
	// + 1024 x 512 + 512) (the first layer's input gradient is not needed:
	// about 1 % less).
	b.ReportMetric(543e6*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(cpu/float64(b.N)*1e3, "cpu-ms/op")
	}
}
