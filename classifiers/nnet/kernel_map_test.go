package nnet

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMapBlock: mapBlock's block holds float32(mapRow) of each row, column
// by column (predictBlock's toF32(mapRow)), leaves the lanes past the m rows alone, and off marks every
// column but the binary one, for rows of a matrix (permuted indices, a
// column subset, a stride wider than the row) and for a problem given its
// mapped rows.
func TestMapBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, stride = 40, 9
	src := rowSource{raw: make([]float64, n*stride), stride: stride, idx: rng.Perm(n)[:37],
		cols: []int{0, 2, 3, 7, 8}}
	for i := range src.raw {
		src.raw[i] = rng.NormFloat64() * []float64{10, 1e40}[rng.IntN(2)] // some beyond float32 (toF32's clamp)
	}
	for range src.cols {
		src.lo = append(src.lo, rng.NormFloat64())
		src.inv = append(src.inv, rng.ExpFloat64())
	}
	// Column 8 (input 4) holds 0 and 1, mapped to -1 and +1: a binary column.
	for r := range n {
		src.raw[r*stride+8] = float64(rng.IntN(2))
	}
	src.lo[4], src.inv[4] = 0, 2
	d := len(src.cols)
	given := &problem{d: d, n: len(src.idx), x: make([]float64, len(src.idx)*d)}
	xr := make([]float64, d)
	for i := range src.idx {
		src.mapRow(i, xr)
		copy(given.x[i*d:], xr)
	}
	for _, p := range []*problem{{d: d, n: len(src.idx), src: src}, given} {
		for _, i0 := range []int{0, 16, 32, 37} { // 37: no rows left
			m := min(lanes, len(src.idx)-i0)
			xb := make([]float32, d*lanes)
			for i := range xb {
				xb[i] = 99 // past m: to be left alone
			}
			off := make([]uint32, d)
			p.mapBlock(i0, m, xb, off)
			for k, o := range off {
				if (o == 0) != (k == 4 || m == 0) {
					t.Errorf("raw %v rows from %d: off[%d] = %#x; only input 4 is binary (all of them with no rows)", p.src.raw != nil, i0, k, o)
				}
			}
			pb := make([]float32, d*lanes)
			if p.src.raw != nil {
				p.src.predictBlock(i0, m, pb)
			}
			for l := range lanes {
				if l < m {
					p.mapRow(i0+l, xr)
				}
				for k := range d {
					if l < m && p.src.raw != nil && math.Float32bits(pb[k*lanes+l]) != math.Float32bits(toF32(xr[k])) {
						t.Fatalf("predictBlock rows from %d: lane %d column %d = %v, want toF32 %v", i0, l, k, pb[k*lanes+l], toF32(xr[k]))
					}
				}
				for k := range d {
					want := float32(99)
					if l < m {
						want = float32(xr[k])
					}
					if got := xb[k*lanes+l]; math.Float32bits(got) != math.Float32bits(want) {
						t.Fatalf("raw %v rows from %d: lane %d column %d = %v, want %v", p.src.raw != nil, i0, l, k, got, want)
					}
				}
			}
		}
	}
}
