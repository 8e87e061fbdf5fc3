//go:build amd64 || arm64

package nnet

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestVecRoutinesAnyCount checks the matrix loops of every assembly routine
// set this CPU runs (fwdDenseU over any number of dense columns, nibU over
// any number of nibbles, both over 0 to 3 pairs of blocks, bwdTileUxC over
// any number of blocks) against their definition lane by lane with the
// exact fused multiply-add fma32, in the order the float32x16 numerics fix:
//
//	fwdDenseU: z[blk][j] = (...(b_j + W[j][0] x[blk][0]) + ...) + W[j][dn-1] x[blk][dn-1], every block of the pairs
//	nibU: z[blk][j] = (...(z[blk][j] + T[j][0][m_0]) + ...) + T[j][nq-1][m_nq-1], m_q the block's index of nibble q
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
			// Forward: pairs of blocks, consecutive blocks xs floats
			// apart, of dn columns, weights ws floats apart, results zs
			// floats apart; then the nibbles (nq per block, nbs apart)
			// added to them from tables ts floats apart.
			for dn := range 6 {
				for pairs := range 4 {
					nblk := max(2, 2*pairs)
					xs, ws, zs := (dn+1)*lanes, dn+3, (u+2)*lanes
					x, w, b, z := fill(nblk*xs), fill(u*ws), fill(u), fill(nblk*zs)
					want := append([]float32(nil), z...)
					for blk := range 2 * pairs {
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
					r.fwdDense[u](&x[0], 4*xs, &w[0], 4*ws, dn, &z[0], 4*zs, &b[0], pairs)
					if i := same(z, want); i >= 0 {
						t.Fatalf("%s fwdDense%d, %d columns, %d pairs: z[%d] = %v, want %v", name, u, dn, pairs, i, z[i], want[i])
					}
					nq := dn
					ts, nbs := (nq+1)*lanes, (nq+1)*lanes
					tab, nib := fill(u*ts), make([]uint32, nblk*nbs)
					for i := range nib {
						nib[i] = uint32(rng.IntN(lanes))
					}
					for blk := range 2 * pairs {
						for j := range u {
							for l := range lanes {
								a := want[blk*zs+j*lanes+l]
								for q := range nq {
									a += tab[j*ts+q*lanes+int(nib[blk*nbs+q*lanes+l])]
								}
								want[blk*zs+j*lanes+l] = a
							}
						}
					}
					r.nibbles[u](&tab[0], 4*ts, &nib[0], 4*nbs, nq, &z[0], 4*zs, pairs)
					if i := same(z, want); i >= 0 {
						t.Fatalf("%s nib%d, %d nibbles, %d pairs: z[%d] = %v, want %v", name, u, nq, pairs, i, z[i], want[i])
					}
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

// TestGatherBlock: the gathering routines (mapCols, predCols) of every
// routine set this CPU runs fill a block with the bits of the Go loops
// (rowSource.mapBlock with its off bits, rowSource.predictBlock), over
// values of every kind (NaN, infinities, -0, beyond float32, exactly +-1
// after the map, ordinary), a column subset in any order, a raw slice ending
// at the last row's last used column (a gonum view), and rows spread over
// raw; gather declines a row whose columns would leave raw.
func TestGatherBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 7))
	ran := 0
	for name, r := range runnableRoutines() {
		if r.mapCols == nil {
			continue
		}
		ran++
		for trial := range 40 {
			stride := 1 + rng.IntN(12)
			n := lanes + rng.IntN(3*lanes)
			d := 1 + rng.IntN(stride)
			cols := rng.Perm(stride)[:d]
			last := 0
			for _, c := range cols {
				last = max(last, c)
			}
			raw := make([]float64, (n-1)*stride+last+1)
			special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 1, 2, 1e40, -1e40, 3.4e38, 1e-310}
			for i := range raw {
				switch rng.IntN(3) {
				case 0:
					raw[i] = special[rng.IntN(len(special))]
				case 1:
					raw[i] = float64(rng.IntN(2)) // 0 or 1: -1 or +1 with lo 0, inv 2
				default:
					raw[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
				}
			}
			s := rowSource{raw: raw, stride: stride, cols: cols}
			for range lanes + rng.IntN(n) {
				s.idx = append(s.idx, rng.IntN(n))
			}
			for range d {
				if rng.IntN(2) == 0 {
					s.lo, s.inv = append(s.lo, 0), append(s.inv, 2)
				} else {
					s.lo, s.inv = append(s.lo, rng.NormFloat64()), append(s.inv, rng.ExpFloat64())
				}
			}
			lim := s.limit()
			if lim != len(raw)-last {
				t.Fatalf("limit %d, want %d", lim, len(raw)-last)
			}
			i0 := rng.IntN(len(s.idx) - lanes + 1)
			want, got := make([]float32, d*lanes), make([]float32, d*lanes)
			wantOff, gotOff := make([]uint32, d), make([]uint32, d)
			for k := range d {
				wantOff[k] = uint32(k) << 20 // bits already set stay set
				gotOff[k] = wantOff[k]
			}
			s.mapBlock(i0, lanes, want, wantOff)
			if !s.gather(i0, lanes, lim, r.mapCols, got, gotOff) {
				t.Fatalf("%s trial %d: gather declined rows inside raw", name, trial)
			}
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s trial %d mapCols: column %d lane %d = %v, mapBlock %v (raw %v)", name, trial, i/lanes, i%lanes, got[i], want[i], raw[s.idx[i0+i%lanes]*stride+cols[i/lanes]])
				}
			}
			for k := range d {
				if gotOff[k] != wantOff[k] {
					t.Fatalf("%s trial %d mapCols: off[%d] = %#x, mapBlock %#x", name, trial, k, gotOff[k], wantOff[k])
				}
			}
			s.predictBlock(i0, lanes, want)
			if !s.gather(i0, lanes, lim, r.predCols, got, nil) {
				t.Fatalf("%s trial %d: gather declined rows inside raw", name, trial)
			}
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s trial %d predCols: column %d lane %d = %v, predictBlock %v", name, trial, i/lanes, i%lanes, got[i], want[i])
				}
			}
			// A row one stride past the last: its columns leave raw.
			s.idx[i0+rng.IntN(lanes)] = n
			clear(got)
			if s.gather(i0, lanes, lim, r.mapCols, got, gotOff) || s.gather(i0, lanes, lim, r.predCols, got, nil) {
				t.Fatalf("%s trial %d: gather took a row outside raw", name, trial)
			}
			for _, v := range got {
				if v != 0 {
					t.Fatalf("%s trial %d: a declined gather wrote the block", name, trial)
				}
			}
		}
	}
	if ran == 0 {
		t.Skip("no routine set with mapCols runs on this CPU")
	}
}

// BenchmarkMapRows times mapping a Mushroom-shaped bootstrap (8,124 rows
// drawn with replacement from an 8,124 x 117 matrix of 0/1 values, all
// columns active) into blocks, as f32Layout.load does per net: "go" is
// rowSource.mapBlock, the others each routine set's mapCols
// (rowSource.gather). Reports ns per mapped value.
func BenchmarkMapRows(b *testing.B) {
	const n, d = 8124, 117
	rng := rand.New(rand.NewPCG(44, 8))
	s := rowSource{raw: make([]float64, n*d), stride: d, cols: make([]int, d),
		lo: make([]float64, d), inv: make([]float64, d)}
	for i := range s.raw {
		s.raw[i] = float64(rng.IntN(2))
	}
	for k := range d {
		s.cols[k], s.lo[k], s.inv[k] = k, 0, 2
	}
	for range n {
		s.idx = append(s.idx, rng.IntN(n))
	}
	xb, off := make([]float32, d*lanes), make([]uint32, d)
	blocks := n / lanes
	run := func(b *testing.B, block func(i0 int)) {
		for b.Loop() {
			for i := range blocks {
				block(i * lanes)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(blocks*lanes*d), "ns/value")
	}
	b.Run("go", func(b *testing.B) {
		run(b, func(i0 int) { s.mapBlock(i0, lanes, xb, off) })
	})
	lim := s.limit()
	for name, r := range runnableRoutines() {
		if r.mapCols == nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			run(b, func(i0 int) { s.gather(i0, lanes, lim, r.mapCols, xb, off) })
		})
	}
}
