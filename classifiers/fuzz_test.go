package classifiers

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzScore feeds arbitrary small matrices (any float64 bit patterns, any
// targets) to a small bag: the result must be scores in [0, 1] or an error,
// never a panic, a NaN or a hang.
func FuzzScore(f *testing.F) {
	f.Add([]byte{3, 2, 1, 0, 0, 0, 0, 0, 0, 240, 63, 0, 0, 0, 0, 0, 0, 0, 64}, uint64(1))
	f.Add([]byte{5, 1, 0x55, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0xff}, uint64(2))
	f.Fuzz(func(t *testing.T, b []byte, seed uint64) {
		if len(b) < 3 {
			return
		}
		n, d := int(b[0])%12+1, int(b[1])%4+1
		labels := b[2]
		b = b[3:]
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
		o := DefaultNNetBag()
		o.Bags, o.MaxEpochs, o.Workers = 3, 20, 2
		res, err := o.Score(context.Background(), Data{X: x, Y: y}, seed)
		if err != nil {
			return
		}
		for i, s := range res.Scores {
			if !(s >= 0 && s <= 1) {
				t.Fatalf("row %d: score %v", i, s)
			}
		}
	})
}
