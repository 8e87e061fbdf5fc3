package svm

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchUniforms returns u_i = (splitmix64(seed + (i+1) 0x9e3779b97f4a7c15)
// >> 11) 2^-53, i < count: the stream testdata/sklearn_oracle.py's
// uniforms draws, so that its --time mode times scikit-learn on the same
// data as these benchmarks.
func benchUniforms(seed uint64, count int) []float64 {
	u := make([]float64, count)
	for i := range u {
		z := seed + uint64(i+1)*0x9e3779b97f4a7c15
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		u[i] = float64(z>>11) * 0x1p-53
	}
	return u
}

// benchDense is the oracle script's bench_dense: n x d uniform features
// (MNIST-like shape), a third of the rows positive and shifted by 0.25 on
// the first 64 features; the target is "labeled" = the even positive rows,
// a PU training set.
func benchDense(n, d int) (*mat.Dense, []bool) {
	x := mat.NewDense(n, d, benchUniforms(1, n*d))
	s := make([]bool, n)
	for i := range n {
		if i%3 == 0 {
			for k := range 64 {
				x.Set(i, k, x.At(i, k)+0.25)
			}
			s[i] = i%2 == 0
		}
	}
	return x, s
}

// benchSparse is the oracle script's bench_sparse: TF-IDF-like rows, each
// entry nonzero with probability 0.03 (0.08 on the first 100 columns of
// positive rows), uniform values, rows L2-normalised; about 3.3 % dense.
func benchSparse(n, d int) (*mat.Dense, []bool) {
	m, v := benchUniforms(2, n*d), benchUniforms(3, n*d)
	x := mat.NewDense(n, d, nil)
	s := make([]bool, n)
	for i := range n {
		pos := i%3 == 0
		s[i] = pos && i%2 == 0
		ss := 0.0
		for k := range d {
			prob := 0.03
			if pos && k < 100 {
				prob = 0.08
			}
			if m[i*d+k] < prob {
				x.Set(i, k, v[i*d+k])
				ss += v[i*d+k] * v[i*d+k]
			}
		}
		if ss > 0 {
			nrm := math.Sqrt(ss)
			for k := range d {
				x.Set(i, k, x.At(i, k)/nrm)
			}
		}
	}
	return x, s
}

// BenchmarkSVMFit times one fit of a PULP-sized training set (1,950 rows,
// the largest training fold of the reproduction), C = 1, tolerance 1e-3,
// unit weights, shrinking: RBF (gamma = 1/(d var X)) on 256 dense features
// and linear on 1,000 sparse ones; plus the PU weighting w_u = 0.1 on each,
// and the other kernel on each. Reported besides wall time: CPU time per
// fit (on a shared machine wall time grows when others take the cores, CPU
// time much less), SMO iterations, support vectors, and the kernel values
// computed as a fraction of n^2. Run it with GOMAXPROCS=1 (training is
// sequential anyway). Compare with `sklearn_oracle.py --time`.
func BenchmarkSVMFit(b *testing.B) {
	xd, sd := benchDense(1950, 256)
	xs, ss := benchSparse(1950, 1000)
	wts := func(s []bool, wu float64) []float64 {
		w := make([]float64, len(s))
		for i, v := range s {
			w[i] = wu
			if v {
				w[i] = 1
			}
		}
		return w
	}
	for _, c := range []struct {
		name string
		x    *mat.Dense
		s    []bool
		k    Kernel
		wu   float64
	}{
		{"rbf-dense-1950x256", xd, sd, RBF, 1},
		{"linear-sparse-1950x1000", xs, ss, Linear, 1},
		{"rbf-dense-1950x256-wu0.1", xd, sd, RBF, 0.1},
		{"linear-sparse-1950x1000-wu0.1", xs, ss, Linear, 0.1},
		{"linear-dense-1950x256", xd, sd, Linear, 1},
		{"rbf-sparse-1950x1000", xs, ss, RBF, 1},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := DefaultParams()
			p.Kernel = c.k
			prob := Problem{X: c.x, Y: c.s, W: wts(c.s, c.wu)}
			var m *Model
			c0 := cpuTime()
			for b.Loop() {
				var err error
				if m, err = Train(context.Background(), prob, p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N)/1e6, "CPU-ms/op")
			b.ReportMetric(float64(m.Iter), "iter")
			b.ReportMetric(float64(m.SupportVectors), "SVs")
			b.ReportMetric(float64(m.KernelValues)/float64(1950*1950), "Kfrac")
		})
	}
}
