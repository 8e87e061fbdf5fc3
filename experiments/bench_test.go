package experiments

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/classifiers/nnet"
	"github.com/pueval/pueval/datasets"
)

// cellBenchConfig is the AAAI-2017 paper's cell (papers/aaai2017/aaai2017.yaml:
// 1,000 labeled, at most 10,000 unlabeled, 100-net bags, AlphaMax-N, both
// truths, auc and aucpr) on the core's case-control protocol, which splits
// as the paper's does.
const cellBenchConfig = `experiment: aaai2017
seed: 2017
repeats: 50
protocol: {name: case-control, labeled: 1000, max_unlabeled: 10000}
grid: {beta: [1, 0.95, 0.75]}
datasets: [{name: landsat}]
classifier: {name: nnet-bag, bags: 100, hidden: 5, max_epochs: 500, max_fail: 25, val_fraction: 0.25, split: position}
estimators: [alphamax-n]
truths: [traditional, same-model]
metrics:
  - {name: auc, outside: [drop, clip]}
  - {name: aucpr, outside: [drop, clip], precision: [roc, eq3], area: [trapezoid, step]}
`

// BenchmarkCellAAAI times one full cell of papers/aaai2017/aaai2017.yaml on Landsat
// (6,435 rows, 36 features, 23 % positive: a mid-sized data set; 1,000
// labeled, 5,435 unlabeled): the PU split, the bag of 100 nets, AlphaMax-N
// and the recovery of every metric, once per kernel this binary and CPU can
// run (sub-benchmarks scalar, avx512). The traditional bag, trained once
// per data set, is trained before the timer starts. With PUEVAL_UCI_MIRROR
// set it uses the real Landsat; otherwise a synthetic set of its shape
// (Gaussian classes whose means differ in every feature, so the cells'
// nets train for a similar number of epochs). Reported: seconds per cell
// (wall, all cores), and the classifier's share of it.
func BenchmarkCellAAAI(b *testing.B) {
	ds := landsatForBench(b)
	for _, kernel := range nnet.Kernels() {
		if kernel == "float32-go" {
			continue // the vector kernels' numerics in plain Go, the slowest
		}
		b.Run(kernel, func(b *testing.B) {
			cfg, err := ParseConfig([]byte(cellBenchConfig), "bench.yaml", LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			cfg.Classifier.(*classifiers.NNetBag).Kernel = kernel
			cells, err := cfg.Cells(Selection{Datasets: []string{"landsat"}})
			if err != nil {
				b.Fatal(err)
			}
			r := &Runner{Config: cfg}
			if err := r.prepare(); err != nil {
				b.Fatal(err)
			}
			r.data[ds.Name] = ds
			ctx := context.Background()
			if _, err := r.supervised(ctx, ds, &cells[0]); err != nil {
				b.Fatal(err)
			}
			var clf float64
			b.ResetTimer()
			start := time.Now()
			for i := range b.N {
				rec, err := r.runCell(ctx, cells[i%len(cells)])
				if err != nil || rec.Status != "ok" {
					b.Fatalf("cell %s: %v %s", rec.Cell, err, rec.Error)
				}
				clf += rec.Timings["classifier"]
			}
			sec := time.Since(start).Seconds()
			b.ReportMetric(sec/float64(b.N), "s/cell")
			b.ReportMetric(clf/sec, "classifier-share")
		})
	}
}

// landsatForBench returns the real Landsat when the mirror is set, else a
// synthetic data set of its shape.
func landsatForBench(b *testing.B) *Data {
	if os.Getenv(datasets.EnvMirror) != "" {
		st, _ := openData(b)
		ds, err := st.Load(context.Background(), "landsat")
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("Landsat from the UCI mirror: %d rows, %d features", ds.N, ds.D)
		return &Data{Name: ds.Name, X: ds.X, Y: ds.Y, Fingerprint: ds.Fingerprint}
	}
	const n, d, pos = 6435, 36, 1508
	rng := rand.New(rand.NewPCG(36, 6435))
	x := mat.NewDense(n, d, nil)
	y := make([]bool, n)
	for i := range n {
		y[i] = i < pos
		for k := range d {
			v := 60 + 15*rng.NormFloat64()
			if y[i] {
				v += 6 * math.Cos(float64(k))
			}
			x.Set(i, k, math.Round(v))
		}
	}
	b.Logf("synthetic data of Landsat's shape (%s is not set): %d rows, %d features", datasets.EnvMirror, n, d)
	return &Data{Name: "landsat", X: x, Y: y, Fingerprint: "synthetic-landsat-shape"}
}

// BenchmarkRunnerOverhead times what the runner adds per cell around the
// plug-ins, on a grid of 6,000 cells that train nothing: a ranking of 300
// binormal scores (a ranking source), a case-control split of 30 labeled
// and the rest unlabeled, one measure (auc) with one truth and no
// estimator. Reported: microseconds per cell (wall, two workers), the
// store's appends and the final sort of the records included.
func BenchmarkRunnerOverhead(b *testing.B) {
	const src = `experiment: overhead
seed: 1
repeats: 1000
protocol: {name: case-control, labeled: 30, max_unlabeled: 0}
grid: {beta: [1, 0.9, 0.8]}
datasets:
  - {name: r1, source: {name: synth-scores, n: 300, positive_fraction: 0.4}}
  - {name: r2, source: {name: synth-scores, n: 300, positive_fraction: 0.3}}
truths: [same-model]
metrics: [auc]
`
	cfg, err := ParseConfig([]byte(src), "overhead.yaml", LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	cells, err := cfg.Cells(Selection{})
	if err != nil || len(cells) != 6000 {
		b.Fatalf("%d cells, %v", len(cells), err)
	}
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		dir := b.TempDir()
		sum, err := (&Runner{Config: cfg, Workers: 2}).Run(context.Background(), cells, dir)
		if err != nil || sum.Failed != 0 || sum.Ran != 6000 {
			b.Fatalf("%+v %v", sum, err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N*len(cells)), "us/cell")
}
