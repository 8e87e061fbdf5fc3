//go:build amd64 || arm64

package nnet

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestVecRoutinesAnyCount checks the matrix loops of every assembly routine
// set this CPU runs (fwdDenseU over any number of dense columns, bwdTileUxC
// over any number of blocks) against their definition lane by lane with the
// exact fused multiply-add fma32, in the order the float32x16 numerics fix:
//
//	fwdDenseU: z[blk][j] = (...(b_j + W[j][0] x[blk][0]) + ...) + W[j][dn-1] x[blk][dn-1], blocks A and B
//	bwdTileUxC: g[j][c] = (...(g[j][c] + dh[0][j] x[0][c]) + ...) + dh[n-1][j] x[n-1][c]
//
// An epoch calls them with an even number of blocks per group and with the
// column counts of its shapes only; this test also gives the odd counts
// (the unrolled loops' tails), zero, and strides wider than the data, and
// checks that nothing outside the results is written.
func TestVecRoutinesAnyCount(t *testing.T) {
	sets := runnableRoutines()
	if len(sets) == 0 {
		t.Skip("no assembly routine set runs on this CPU")
	}
	rng := rand.New(rand.NewPCG(31, 7))
	fill := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(rng.NormFloat64())
		}
		return s
	}
	same := func(a, b []float32) int {
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				return i
			}
		}
		return -1
	}
	for name, r := range sets {
		for u := 1; u <= maxTileUnits; u++ {
			// Backward tiles: n blocks of x (xs floats apart, c+2 columns
			// wide) and of dh (hs floats apart), u rows of g (gs apart).
			for c := 1; c < len(r.bwdTiles[u]); c++ {
				for n := range 6 {
					xs, hs, gs := (c+2)*lanes, (u+1)*lanes, (c+1)*lanes
					x, dh, g := fill(max(1, n)*xs), fill(max(1, n)*hs), fill(u*gs)
					want := append([]float32(nil), g...)
					for j := range u {
						for k := range c {
							for l := range lanes {
								a := want[j*gs+k*lanes+l]
								for b := range n {
									a = fma32(dh[b*hs+j*lanes+l], x[b*xs+k*lanes+l], a)
								}
								want[j*gs+k*lanes+l] = a
							}
						}
					}
					r.bwdTiles[u][c](&x[0], 4*xs, &dh[0], 4*hs, n, &g[0], 4*gs)
					if i := same(g, want); i >= 0 {
						t.Fatalf("%s bwdTile%dx%d, %d blocks: g[%d] = %v, want %v", name, u, c, n, i, g[i], want[i])
					}
				}
			}
			// Forward: blocks A and B (xs floats apart) of dn columns,
			// weights ws floats apart, results zs floats apart.
			for dn := range 6 {
				xs, ws, zs := (dn+1)*lanes, dn+3, (u+2)*lanes
				x, w, b, z := fill(2*xs), fill(u*ws), fill(u), fill(2*zs)
				want := append([]float32(nil), z...)
				for blk := range 2 {
					for j := range u {
						for l := range lanes {
							a := b[j]
							for k := range dn {
								a = fma32(w[j*ws+k], x[blk*xs+k*lanes+l], a)
							}
							want[blk*zs+j*lanes+l] = a
						}
					}
				}
				r.fwdDense[u](&x[0], 4*xs, &w[0], 4*ws, dn, &z[0], 4*zs, &b[0])
				if i := same(z, want); i >= 0 {
					t.Fatalf("%s fwdDense%d, %d columns: z[%d] = %v, want %v", name, u, dn, i, z[i], want[i])
				}
			}
		}
	}
}

// TestLaneSums: every runnable set's laneSums equals laneSum bit for bit
// (signed zeros included) for 0 to 9 blocks of lanes holding normal,
// subnormal, huge, zero and -0 values, and writes nothing past s[n-1].
func TestLaneSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	ran := 0
	for name, r := range runnableRoutines() {
		if r.laneSums == nil {
			continue
		}
		ran++
		for n := range 10 {
			a := make([]float32, max(1, n)*lanes)
			for i := range a {
				a[i] = []float32{0, float32(math.Copysign(0, -1)), 1e-40, -3e38, 3e38, 1}[rng.IntN(6)] * float32(1+rng.IntN(3))
				if rng.IntN(2) == 0 {
					a[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(60)-30)))
				}
			}
			if n > 0 && rng.IntN(2) == 0 { // a block of -0: its sum is -0
				for i := range lanes {
					a[i] = float32(math.Copysign(0, -1))
				}
			}
			s := make([]float64, n+1)
			s[n] = 42
			r.laneSums(&a[0], n, &s[0])
			for i := range n {
				want := laneSum((*[lanes]float32)(a[i*lanes:]))
				if math.Float64bits(s[i]) != math.Float64bits(want) {
					t.Fatalf("%s: n=%d block %d: laneSums %v, laneSum %v", name, n, i, s[i], want)
				}
			}
			if s[n] != 42 {
				t.Fatalf("%s: n=%d: wrote past the sums", name, n)
			}
		}
	}
	if ran == 0 {
		t.Skip("no routine set with laneSums runs on this CPU")
	}
}
