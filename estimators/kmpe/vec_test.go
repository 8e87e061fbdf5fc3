package kmpe

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/internal/portmath"
)

// mixedVec returns n values of mixed sign and magnitude (10^-8 to 10^8,
// some exact zeros and negative zeros), so that the order of a sum shows in
// its bits.
func mixedVec(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch r.IntN(20) {
		case 0:
			v[i] = 0
		case 1:
			v[i] = math.Copysign(0, -1)
		default:
			v[i] = (r.Float64() + 0.5) * math.Pow(10, 16*r.Float64()-8)
			if r.IntN(2) == 0 {
				v[i] = -v[i]
			}
		}
	}
	return v
}

// vecLengths are the lengths the kernels are checked at: every length to
// 200 (every tail of every block size) and some large ones.
func vecLengths() []int {
	var ns []int
	for n := range 201 {
		ns = append(ns, n)
	}
	return append(ns, 255, 256, 257, 1000, 1023, 4099)
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// Every implementation this CPU runs (the plain Go always; AVX2 and
// AVX-512 where available) gives the same bits as the plain Go, kernel by
// kernel, at every length. Slices start at an offset into a larger array
// (unaligned data), and the bytes around the written range must not
// change.
func TestVecKernelsAgree(t *testing.T) {
	impls := allKernels()
	t.Logf("implementations: %v", kernelNames(impls))
	if len(impls) == 1 {
		t.Log("no assembly kernels on this CPU or architecture: nothing to compare")
	}
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range vecLengths() {
		a, x, y := mixedVec(r, n+3)[3:], mixedVec(r, n+1)[1:], mixedVec(r, n+2)[2:]
		alpha, beta := -1.7e3*r.Float64(), 3e-4*r.Float64()
		wantDot := goKernels.dot(a, x)
		wantS, wantT := goKernels.dot2(a, x, y)
		wantY := slices.Clone(y)
		goKernels.axpy(alpha, a, wantY)
		wantX2, wantY2 := slices.Clone(x), slices.Clone(y)
		goKernels.axpy2(alpha, beta, a, wantX2, wantY2)
		for _, k := range impls[1:] {
			if got := k.dot(a, x); math.Float64bits(got) != math.Float64bits(wantDot) {
				t.Fatalf("%s: dot at n = %d: %v, go %v", k.name, n, got, wantDot)
			}
			if s, u := k.dot2(a, x, y); math.Float64bits(s) != math.Float64bits(wantS) || math.Float64bits(u) != math.Float64bits(wantT) {
				t.Fatalf("%s: dot2 at n = %d: %v %v, go %v %v", k.name, n, s, u, wantS, wantT)
			}
			// axpy into a slice of a larger array: its neighbours stay.
			buf := append(append([]float64{1.5}, y...), 2.5)
			k.axpy(alpha, a, buf[1:n+1])
			if !sameBits(buf[1:n+1], wantY) || buf[0] != 1.5 || buf[n+1] != 2.5 {
				t.Fatalf("%s: axpy at n = %d differs", k.name, n)
			}
			gx := append(slices.Clone(x), 3.5)
			gy := append(slices.Clone(y), 4.5)
			k.axpy2(alpha, beta, a, gx[:n], gy[:n])
			if !sameBits(gx[:n], wantX2) || !sameBits(gy[:n], wantY2) || gx[n] != 3.5 || gy[n] != 4.5 {
				t.Fatalf("%s: axpy2 at n = %d differs", k.name, n)
			}
		}
	}
}

// axpy4 gives, in every implementation, the bits of four axpyGo calls in
// a row (the exact gradient's sum over the support in the order of four
// axpys), on rows longer than y and into a slice of a larger array whose
// neighbours stay.
func TestAxpy4KernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	for _, n := range vecLengths() {
		var x [4][]float64
		for i := range x {
			x[i] = mixedVec(r, n+i+3)[i+1:] // 2 entries past y's end
		}
		a := [4]float64{-1.7e3 * r.Float64(), 3e-4 * r.Float64(), r.NormFloat64(), -r.Float64()}
		y := mixedVec(r, n+2)[2:]
		want := slices.Clone(y)
		for i := range x {
			axpyGo(a[i], x[i][:n], want)
		}
		for _, k := range allKernels() {
			buf := append(append([]float64{1.5}, y...), 2.5)
			k.axpy4(&a, &x, buf[1:n+1])
			if !sameBits(buf[1:n+1], want) || buf[0] != 1.5 || buf[n+1] != 2.5 {
				t.Fatalf("%s: axpy4 at n = %d differs from four axpys", k.name, n)
			}
		}
	}
}

// axpy2x4 likewise gives the bits of four axpy2Go calls in a row.
func TestAxpy2x4KernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	for _, n := range vecLengths() {
		var rows [4][]float64
		for i := range rows {
			rows[i] = mixedVec(r, n+i+3)[i+1:] // 2 entries past x's end
		}
		var a, b [4]float64
		for i := range a {
			a[i], b[i] = -1.7e3*r.Float64(), 3e-4*r.NormFloat64()
		}
		x, y := mixedVec(r, n+1)[1:], mixedVec(r, n+2)[2:]
		wantX, wantY := slices.Clone(x), slices.Clone(y)
		for i := range rows {
			axpy2Go(a[i], b[i], rows[i][:n], wantX, wantY)
		}
		for _, k := range allKernels() {
			gx := append(slices.Clone(x), 3.5)
			gy := append(slices.Clone(y), 4.5)
			k.axpy2x4(&a, &b, &rows, gx[:n], gy[:n])
			if !sameBits(gx[:n], wantX) || !sameBits(gy[:n], wantY) || gx[n] != 3.5 || gy[n] != 4.5 {
				t.Fatalf("%s: axpy2x4 at n = %d differs from four axpy2s", k.name, n)
			}
		}
	}
}

// The rotations: blocks of rotRows rows (of different lengths past the
// rotated range, as in chol.remove) at several offsets and rotation counts.
func TestRotKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{8, 16, 24, 64, 200, 1024} {
		for _, off := range []int{0, 1, 5, 13} {
			rows := make([][]float64, rotRows)
			for i := range rows {
				rows[i] = mixedVec(r, off+n+1+i)
			}
			cs, sn := make([]float64, n), make([]float64, n)
			for j := range cs {
				th := 2 * math.Pi * r.Float64()
				cs[j], sn[j] = math.Cos(th), math.Sin(th)
			}
			xs := mixedVec(r, rotRows)
			want, wantX := cloneRows(rows), slices.Clone(xs)
			goKernels.rot(want, off, wantX, cs, sn)
			// The plain Go against the scalar loop of chol.remove.
			for i, row := range rows {
				ref := slices.Clone(row)
				x := xs[i]
				for j := range n {
					y := ref[off+j+1]
					ref[off+j], x = float64(cs[j]*x)+float64(sn[j]*y), float64(-sn[j]*x)+float64(cs[j]*y)
				}
				if !sameBits(ref, want[i]) || math.Float64bits(x) != math.Float64bits(wantX[i]) {
					t.Fatalf("rotGo row %d differs from the scalar loop (n %d, off %d)", i, n, off)
				}
			}
			for _, k := range allKernels()[1:] {
				got, gotX := cloneRows(rows), slices.Clone(xs)
				k.rot(got, off, gotX, cs, sn)
				for i := range got {
					if !sameBits(got[i], want[i]) {
						t.Fatalf("%s: rot row %d (n %d, off %d) differs", k.name, i, n, off)
					}
				}
				if !sameBits(gotX, wantX) {
					t.Fatalf("%s: rot carried values (n %d, off %d) differ", k.name, n, off)
				}
			}
		}
	}
}

// The Cholesky update tile: every implementation writes the same bits,
// and only the tile's columns.
func TestSubTileKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	for _, kn := range []int{1, 3, 32, 64} {
		for _, nc := range []int{16, 32, 48, 256} {
			k0 := r.IntN(5)
			j0 := k0 + kn + r.IntN(7)
			ldp := nc + r.IntN(9)
			rows := make([][]float64, subRows)
			for i := range rows {
				rows[i] = mixedVec(r, j0+nc+r.IntN(3))
			}
			pt := mixedVec(r, (kn-1)*ldp+nc)
			want := cloneRows(rows)
			goKernels.subTile(want, k0, kn, pt, ldp, j0, nc)
			for i, row := range rows {
				for j := range row {
					w := row[j]
					if j >= j0 && j < j0+nc {
						for k := range kn {
							w -= float64(row[k0+k] * pt[k*ldp+j-j0])
						}
					}
					if math.Float64bits(w) != math.Float64bits(want[i][j]) {
						t.Fatalf("subTileGo row %d column %d: %v, want %v", i, j, want[i][j], w)
					}
				}
			}
			for _, k := range allKernels()[1:] {
				got := cloneRows(rows)
				k.subTile(got, k0, kn, pt, ldp, j0, nc)
				for i := range got {
					if !sameBits(got[i], want[i]) {
						t.Fatalf("%s: subTile row %d (kn %d, nc %d) differs", k.name, i, kn, nc)
					}
				}
			}
		}
	}
}

// The reductions are sums of the products, to rounding: against an exact
// sum (big.Float) on values of one sign, where the relative error is at
// most about n eps.
func TestDotAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	for _, n := range []int{1, 31, 32, 33, 100, 1000} {
		a, b := make([]float64, n), make([]float64, n)
		exact := new(big.Float).SetPrec(2000)
		for i := range a {
			a[i], b[i] = r.Float64(), r.Float64()
			exact.Add(exact, new(big.Float).SetPrec(2000).Mul(big.NewFloat(a[i]), big.NewFloat(b[i])))
		}
		want, _ := exact.Float64()
		for _, k := range allKernels() {
			got := k.dot(a, b)
			s, u := k.dot2(a, b, a)
			if math.Abs(got-want) > float64(n)*1e-16*want || math.Abs(s-want) > float64(n)*1e-16*want {
				t.Errorf("%s: n %d: dot %v, dot2 %v, exact %v", k.name, n, got, s, want)
			}
			_ = u
		}
	}
}

func cloneRows(rows [][]float64) [][]float64 {
	out := make([][]float64, len(rows))
	for i, row := range rows {
		out[i] = slices.Clone(row)
	}
	return out
}

func kernelNames(ks []*vecKernels) []string {
	var names []string
	for _, k := range ks {
		names = append(names, k.name)
	}
	return names
}

// BenchmarkVec times each kernel in each implementation at a length that
// stays in the L1/L2 cache (512) and one of a large support's factor row
// (4,000).
func BenchmarkVec(b *testing.B) {
	r := rand.New(rand.NewPCG(29, 30))
	for _, k := range allKernels() {
		for _, n := range []int{512, 4000} {
			a, x, y := mixedVec(r, n), mixedVec(r, n), mixedVec(r, n)
			b.Run(fmt.Sprintf("dot/%s/%d", k.name, n), func(b *testing.B) {
				b.SetBytes(int64(16 * n))
				for b.Loop() {
					k.dot(a, x)
				}
			})
			b.Run(fmt.Sprintf("dot2/%s/%d", k.name, n), func(b *testing.B) {
				b.SetBytes(int64(24 * n))
				for b.Loop() {
					k.dot2(a, x, y)
				}
			})
			b.Run(fmt.Sprintf("axpy/%s/%d", k.name, n), func(b *testing.B) {
				b.SetBytes(int64(16 * n))
				for b.Loop() {
					k.axpy(1e-3, a, y)
				}
			})
			b.Run(fmt.Sprintf("axpy2/%s/%d", k.name, n), func(b *testing.B) {
				b.SetBytes(int64(24 * n))
				for b.Loop() {
					k.axpy2(1e-3, -1e-3, a, x, y)
				}
			})
			b.Run(fmt.Sprintf("rot/%s/%d", k.name, n), func(b *testing.B) {
				rows := make([][]float64, rotRows)
				for i := range rows {
					rows[i] = mixedVec(r, n+1)
				}
				cs, sn := make([]float64, n), make([]float64, n)
				for j := range cs {
					cs[j], sn[j] = 0.6, 0.8
				}
				xs := make([]float64, rotRows)
				b.SetBytes(int64(8 * rotRows * n))
				for b.Loop() {
					k.rot(rows, 0, xs, cs, sn)
				}
			})
			b.Run(fmt.Sprintf("expNeg/%s/%d", k.name, n), func(b *testing.B) {
				src, dst := make([]float64, n), make([]float64, n)
				for i := range src {
					src[i] = 20 * r.Float64()
				}
				b.SetBytes(int64(8 * n))
				for b.Loop() {
					k.expNeg(dst, src, 2)
				}
			})
			b.Run(fmt.Sprintf("subTile/%s/%d", k.name, n), func(b *testing.B) {
				const kn = 32
				rows := make([][]float64, subRows)
				for i := range rows {
					rows[i] = make([]float64, kn+n)
				}
				pt := make([]float64, kn*n)
				b.SetBytes(int64(8 * subRows * n * kn)) // multiply-subtracts x 8
				for b.Loop() {
					k.subTile(rows, 0, kn, pt, n, kn, n)
				}
			})
		}
	}
}

// The kernel's exp: every implementation gives portmath.Exp(-x/den) bit
// for bit, on squared distances of every scale (the arguments span the
// vector code's range [-708, 0], its ends, the near-zero branch of 1 + x
// around -2^-28, the subnormal and overflow ranges and the special
// values), at every length to 40 (every tail) and in place.
func TestExpNegAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 38))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, 5e-324,
		708 * 2, 708*2 + 1e-12, 709 * 2, 7.45e2 * 2, 1e6, -1416, -1418, -1500, 1e308,
		0x1p-27, 0x1p-27 * (1 + 0x1p-52), 0x1p-27 * (1 - 0x1p-53), 1e-9, 1e-8}
	for _, den := range []float64{2, 0.02, 1e-6, 3.7, 1e3} {
		for _, n := range vecLengths()[:41] {
			src := make([]float64, n)
			for i := range src {
				switch r.IntN(10) {
				case 0:
					src[i] = special[r.IntN(len(special))] * den / 2
				case 1:
					src[i] = (1410 + 10*r.Float64()) * den / 2 // around x = -705..-710
				default:
					src[i] = r.Float64() * math.Pow(10, 4*r.Float64()-2) * den
				}
			}
			want := make([]float64, n)
			for i, x := range src {
				want[i] = portmath.Exp(-x / den)
			}
			for _, k := range allKernels() {
				got := make([]float64, n)
				k.expNeg(got, src, den)
				inPlace := slices.Clone(src)
				k.expNeg(inPlace, inPlace, den)
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
						t.Fatalf("%s: den %v n %d: exp(-%v/den) = %v, portmath.Exp %v", k.name, den, n, src[i], got[i], want[i])
					}
					if math.Float64bits(inPlace[i]) != math.Float64bits(got[i]) && !math.IsNaN(got[i]) {
						t.Fatalf("%s: in place differs", k.name)
					}
				}
			}
		}
	}
	// Many arguments across the fast range.
	src := make([]float64, 1<<16)
	for i := range src {
		src[i] = 1417 * r.Float64()
	}
	for _, k := range allKernels() {
		got := make([]float64, len(src))
		k.expNeg(got, src, 2)
		for i, x := range src {
			if w := portmath.Exp(-x / 2); math.Float64bits(got[i]) != math.Float64bits(w) {
				t.Fatalf("%s: exp(-%v) = %v, portmath.Exp %v", k.name, x/2, got[i], w)
			}
		}
	}
}

// The squared distances: every implementation's tiles give sqDistGo's
// bits, and squaredDistances (tiles, slabs and left-over rows and columns,
// any worker count) gives the direct sum of its statement, symmetric with
// a zero diagonal.
func TestSqDistAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 40))
	for _, d := range []int{1, 3, 117} {
		for _, nc := range []int{16, 48} {
			ldo, ldt := nc+r.IntN(5), nc+r.IntN(7)
			xb, xt := mixedVec(r, subRows*d), mixedVec(r, (d-1)*ldt+nc)
			want := make([]float64, (subRows-1)*ldo+nc)
			goKernels.sqDist(want, ldo, xb, xt, ldt, d, nc)
			for _, k := range allKernels()[1:] {
				got := make([]float64, len(want))
				k.sqDist(got, ldo, xb, xt, ldt, d, nc)
				if !sameBits(got, want) {
					t.Fatalf("%s: sqDist d %d nc %d differs", k.name, d, nc)
				}
			}
		}
	}
	saved := vk
	defer func() { vk = saved }()
	for _, n := range []int{1, 5, 37, 600} {
		rows := make([][]float64, n)
		for i := range rows {
			rows[i] = mixedVec(r, 7)
		}
		want := make([]float64, n*n)
		for i, xi := range rows {
			for j, xj := range rows {
				var s float64
				for k, a := range xi {
					d := a - xj[k]
					s += float64(d * d)
				}
				want[i*n+j] = s
			}
		}
		for _, k := range allKernels() {
			vk = k
			for _, workers := range []int{1, 3} {
				if got := squaredDistances(rows, workers); !sameBits(got, want) {
					t.Fatalf("%s: squaredDistances of %d rows (%d workers) differs from the direct sums", k.name, n, workers)
				}
			}
		}
	}
}
