package svm

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzSVMTrain feeds arbitrary small problems (any float64 bit patterns as
// features and weights, any labels, both kernels): Train must return an
// error or a model whose decision values are finite (or a Decision error),
// never panic, return NaN or hang.
func FuzzSVMTrain(f *testing.F) {
	f.Add([]byte{3, 2, 5, 0, 0, 0, 0, 0, 0, 240, 63, 0, 0, 0, 0, 0, 0, 0, 64}, false)
	f.Add([]byte{5, 1, 0x55, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0xff}, true)
	f.Add([]byte{6, 3, 0x2a, 0, 0, 0, 0, 0, 0, 0x30, 0x7e, 1, 0, 0, 0, 0, 0, 0, 0}, true)
	f.Fuzz(func(t *testing.T, b []byte, rbf bool) {
		if len(b) < 3 {
			return
		}
		n, d := int(b[0])%12+1, int(b[1])%4+1
		labels := b[2]
		b = b[3:]
		next := func(i, k int) float64 {
			if len(b) >= 8 {
				v := math.Float64frombits(binary.LittleEndian.Uint64(b))
				b = b[8:]
				return v
			}
			return float64((i*7+k*3)%5) - 2
		}
		x := mat.NewDense(n, d, nil)
		y := make([]bool, n)
		for i := range n {
			y[i] = labels>>(i%8)&1 == 1
			for k := range d {
				x.Set(i, k, next(i, k))
			}
		}
		var w []float64
		if len(b) >= 8*n {
			w = make([]float64, n)
			for i := range w {
				w[i] = next(i, 0)
			}
		}
		p := DefaultParams()
		p.MaxIter = 100000
		if rbf {
			p.Kernel = RBF
		}
		m, err := Train(context.Background(), Problem{X: x, Y: y, W: w}, p)
		if err != nil {
			return
		}
		out := make([]float64, n)
		if err := m.Decision(x, nil, out); err != nil {
			return
		}
		for i, v := range out {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("row %d: decision %v", i, v)
			}
		}
	})
}
