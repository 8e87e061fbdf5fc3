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

// BenchmarkCellAAAI times one full cell of configs/aaai2017.yaml on Landsat
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
			cfg, err := ReadConfig("aaai2017", LoadOptions{})
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
