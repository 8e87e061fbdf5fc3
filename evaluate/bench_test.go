package evaluate

import (
	"context"
	"testing"
)

// benchScores are 10^6 PU scores as a practitioner's large evaluation set
// has them: positives N(1.5, 1), negatives N(0, 1), 90,000 labeled
// (clean), 910,000 unlabeled with alpha 0.23 (30 % positives, 30 % of them
// labeled).
func benchScores(b *testing.B) Input {
	scores, labeled, _ := puScores(b, 31, 1.5, 0.2308, 1, 90_000, 910_000)
	return Input{Scores: scores, Labeled: labeled}
}

// BenchmarkRun1e6 is `pueval evaluate` on a score file of 10^6 rows after
// reading it: the defaults (every score-reading estimator, Claesen's
// bounds, 200 bootstrap resamples with alphamax-n re-run in each, both
// cores). The target is 10 s with the reading on the 2-core development
// machine. Run with go test -run '^$' -bench Run1e6 -benchtime 1x ./evaluate.
func BenchmarkRun1e6(b *testing.B) {
	in := benchScores(b)
	b.ResetTimer()
	c0 := cpuTime()
	for b.Loop() {
		if _, err := Run(context.Background(), in, Options{Bootstrap: 200, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkBootstrap1e6 is BenchmarkRun1e6 without Claesen's bounds: the
// estimators, the recoveries and the bootstrap.
func BenchmarkBootstrap1e6(b *testing.B) {
	in := benchScores(b)
	b.ResetTimer()
	c0 := cpuTime()
	for b.Loop() {
		if _, err := Run(context.Background(), in, Options{Bootstrap: 200, Seed: 1, BoundsResamples: -1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkResample1e6 is one bootstrap resample of those 10^6 rows,
// alphamax-n re-run on its first 10^5 draws, on one core.
func BenchmarkResample1e6(b *testing.B) {
	benchResample(b, "alphamax-n")
}

// BenchmarkResampleGivenPriors1e6 is one resample with alpha and beta
// given: the draws and the recovery alone.
func BenchmarkResampleGivenPriors1e6(b *testing.B) {
	benchResample(b, "")
}

// BenchmarkResampleAtThreshold1e6 is BenchmarkResampleGivenPriors1e6 with
// a threshold of the caller's below every score, the most thresholds to
// count through.
func BenchmarkResampleAtThreshold1e6(b *testing.B) {
	thr := -100.0
	benchResampleOpts(b, "", Options{Seed: 1, Threshold: &thr})
}

func benchResample(b *testing.B, method string) {
	benchResampleOpts(b, method, Options{Seed: 1})
}

func benchResampleOpts(b *testing.B, method string, opts Options) {
	in := benchScores(b)
	res := &Result{}
	r, err := res.rankScores(context.Background(), in.Scores, in.Labeled)
	if err != nil {
		b.Fatal(err)
	}
	s, err := newResampler(context.Background(), r, in, method, 0.2308, 1, opts.withDefaults())
	if err != nil {
		b.Fatal(err)
	}
	var sc scratch
	if _, err := s.resample(context.Background(), 0, &sc); err != nil { // the scratch's memory
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	i := 0
	for b.Loop() {
		if _, err := s.resample(context.Background(), i, &sc); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}
