package gbdt

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzTrain feeds arbitrary small matrices (any float64 bit patterns, any
// targets, any small options) to Train and OOF: the result must be finite
// margins or an error, never a panic.
func FuzzTrain(f *testing.F) {
	f.Add([]byte{30, 2, 0x55, 3, 4, 0, 0, 0, 0, 0, 0, 240, 63}, uint64(1))
	f.Add([]byte{12, 1, 0xf0, 2, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0x7f}, uint64(2))
	f.Fuzz(func(t *testing.T, b []byte, seed uint64) {
		if len(b) < 5 {
			return
		}
		n, d := int(b[0])%40+1, int(b[1])%4+1
		labels := b[2]
		p := DefaultParams()
		p.Rounds, p.MinLeaf, p.Leaves, p.Bins, p.Workers = 3, int(b[3])%6+1, int(b[4])%6+2, int(b[3])%8+2, int(b[4])%3+1
		b = b[5:]
		x := mat.NewDense(n, d, nil)
		y := make([]bool, n)
		for i := range n {
			y[i] = labels>>(i%8)&1 == 1
			for k := range d {
				if len(b) >= 8 {
					x.Set(i, k, math.Float64frombits(binary.LittleEndian.Uint64(b)))
					b = b[8:]
				} else {
					x.Set(i, k, float64((i*7+k*3)%5))
				}
			}
		}
		m, err := Train(context.Background(), x, y, nil, p)
		if err == nil {
			for i := range n {
				if v := m.Margin(x.RawRowView(i)); math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d: margin %v", i, v)
				}
			}
		}
		res, err := OOF(context.Background(), x, y, 2, p, rand.New(rand.NewPCG(seed, 0)))
		if err == nil {
			for i, v := range res.Margins {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d: out-of-fold margin %v", i, v)
				}
			}
		}
	})
}
