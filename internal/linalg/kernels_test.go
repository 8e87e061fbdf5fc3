package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/internal/portmath"
)

// special are the values that test the kernels' IEEE edge cases: signed
// zeros, subnormals (the smallest, and one whose products underflow),
// infinities, NaN, and magnitudes whose products overflow.
var special = []float64{0, math.Copysign(0, -1), 5e-324, -4.9e-320, 2.2e-308, math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300, 1, -1}

// randomVals returns n values: standard normals, with probability pSpecial
// one of special instead.
func randomVals(rng *rand.Rand, n int, pSpecial float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		if rng.Float64() < pSpecial {
			v[i] = special[rng.IntN(len(special))]
		} else {
			v[i] = rng.NormFloat64()
		}
	}
	return v
}

// sameBits reports whether a and b are the same float64s bit for bit, a
// NaN matching any NaN, and the first index where they differ. Which NaN
// an operation on two NaNs returns depends on the order of its operands,
// which the compiler picks: two builds of the same plain Go (one with the
// fuzzer's instrumentation) return different NaNs for the same sums, and
// arm64's default NaN is not amd64's. So a kernel promises NaN where its
// statement gives NaN, and every other value's bits.
func sameBits(a, b []float64) (int, bool) {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return i, false
		}
	}
	return 0, len(a) == len(b)
}

// withKernels runs f with vk set to k.
func withKernels(k *kernels, f func()) {
	old := vk
	vk = k
	defer func() { vk = old }()
	f()
}

// TestGramKernelsAgree: the vector Gram (gramVec, every kernel this CPU
// runs, including the plain-Go panel) gives gramGo's bits, for b around the
// 4-row panels and the tile widths (1, 2, 3; 11, 12, 13; 23, 24, 25; 200),
// m around the k blocks (0, 1, 255, 256, 257, 600; b = 200 at 257 only),
// with special values (NaN, infinities, subnormals, signed zeros,
// overflowing products) mixed in at two rates; gramGo's S being exactly
// symmetric, so is the vector one.
func TestGramKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range allKernels() {
		kk := *k
		if kk.gramCols == 0 {
			kk.gramCols = 8 // the plain-Go panel, tiled as the assembly would be
		}
		for _, b := range []int{1, 2, 3, 4, 5, 11, 12, 13, 16, 23, 24, 25, 47, 49, 200} {
			for _, m := range []int{0, 1, 2, 7, 255, 256, 257, 600} {
				if b == 200 && m != 257 { // kernelauc's size, two blocks; the rest is slow under emulation
					continue
				}
				for _, ps := range []float64{0, 0.02} {
					Kt := randomVals(rng, b*m, ps)
					want := make([]float64, b*b)
					gramGo(Kt, b, m, want)
					got := slices.Repeat([]float64{math.NaN()}, b*b)
					gramVec(&kk, Kt, b, m, got)
					if i, ok := sameBits(got, want); !ok {
						t.Fatalf("%s: b = %d, m = %d, special %.2f: S[%d][%d] = %v (%#x), gramGo %v (%#x)", k.name, b, m, ps,
							i/b, i%b, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
					}
				}
			}
		}
	}
}

// TestElementwiseKernelsAgree: subScaled, divide and addScaled4 of
// every kernel this CPU runs give the plain Go's bits, for every length
// 0..41 (the vector blocks of 16 and 8 and their tails) at offsets 0..2,
// with special values mixed in.
func TestElementwiseKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, k := range allKernels() {
		for n := range 42 {
			for off := range 3 {
				for _, ps := range []float64{0, 0.1} {
					x := [4][]float64{}
					for r := range x {
						x[r] = randomVals(rng, n+off, ps)[off:]
					}
					a := [4]float64(randomVals(rng, 4, ps))
					y := randomVals(rng, n+off, ps)[off:]
					name := fmt.Sprintf("%s: n = %d, offset %d, special %.1f", k.name, n, off, ps)

					got, want := slices.Clone(y), slices.Clone(y)
					k.divide(got, a[1])
					divideGo(want, a[1])
					if i, ok := sameBits(got, want); !ok {
						t.Fatalf("%s: divide y[%d] = %v, plain Go %v", name, i, got[i], want[i])
					}
					got, want = slices.Clone(y), slices.Clone(y)
					k.subScaled(got, a[0], x[0])
					subScaledGo(want, a[0], x[0])
					if i, ok := sameBits(got, want); !ok {
						t.Fatalf("%s: subScaled y[%d] = %v, plain Go %v", name, i, got[i], want[i])
					}
					got, want = slices.Clone(y), slices.Clone(y)
					k.addScaled4(got, a, x[0], x[1], x[2], x[3])
					addScaled4Go(want, a, x[0], x[1], x[2], x[3])
					if i, ok := sameBits(got, want); !ok {
						t.Fatalf("%s: addScaled4 y[%d] = %v, plain Go %v", name, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestSyrk4KernelsAgree: syrk4 of every kernel this CPU runs gives
// syrk4Go's bits on every row i0..i1-1 and leaves the rest of A (the lower
// triangle, the other rows, the columns past b) untouched, for b and i0
// around the vector blocks, i1 = b or 2 short of it (odd b), rows longer than b (lda > b), with special
// values mixed in.
func TestSyrk4KernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, k := range allKernels() {
		for _, b := range []int{1, 4, 5, 8, 9, 16, 17, 23, 24, 25, 40, 41} {
			for _, i0 := range []int{0, 1, 4, 7, b - 1, b} {
				if i0 < 0 || i0 > b {
					continue
				}
				i1 := max(i0, b-2*(b%2))
				for _, extra := range []int{0, 3} {
					lda := b + extra
					for _, ps := range []float64{0, 0.1} {
						A := randomVals(rng, b*lda, ps)
						U := randomVals(rng, 4*lda, ps)
						u := [4][]float64{U[:lda], U[lda : 2*lda], U[2*lda : 3*lda], U[3*lda:]}
						got, want := slices.Clone(A), slices.Clone(A)
						k.syrk4(got, lda, u, i0, i1, b)
						syrk4Go(want, lda, u, i0, i1, b)
						if i, ok := sameBits(got, want); !ok {
							t.Fatalf("%s: b = %d, rows %d-%d, lda = %d, special %.1f: A[%d][%d] = %v, syrk4Go %v",
								k.name, b, i0, i1, lda, ps, i/lda, i%lda, got[i], want[i])
						}
						for i := range b {
							for j := range lda {
								if _, ok := sameBits(want[i*lda+j:i*lda+j+1], A[i*lda+j:i*lda+j+1]); !ok && (i < i0 || i >= i1 || j < i || j >= b) {
									t.Fatalf("b = %d, rows %d-%d, lda = %d: syrk4Go wrote A[%d][%d]", b, i0, i1, lda, i, j)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestSubScaled4IsFourSubScaled: subScaled4Go's statement is four
// subScaledGo calls in a row (what Cholesky's blocking rests on), on
// special values too.
func TestSubScaled4IsFourSubScaled(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for n := range 20 {
		x := [4][]float64{randomVals(rng, n, 0.2), randomVals(rng, n, 0.2), randomVals(rng, n, 0.2), randomVals(rng, n, 0.2)}
		a := [4]float64(randomVals(rng, 4, 0.2))
		y := randomVals(rng, n, 0.2)
		got, want := slices.Clone(y), slices.Clone(y)
		subScaled4Go(got, a, x[0], x[1], x[2], x[3])
		for r := range 4 {
			subScaledGo(want, a[r], x[r])
		}
		if i, ok := sameBits(got, want); !ok {
			t.Fatalf("n = %d: y[%d] = %v, four subScaled %v", n, i, got[i], want[i])
		}
	}
}

// TestCholeskyKernelsAgree: Cholesky (its upper triangle, the factor),
// CholeskySolve, LUSolve and TransMulVec give the same bits with every
// kernel this CPU runs as with the plain Go, for sizes around the 4-row
// blocks, around the vector Cholesky's panels of 32 (from 64 on: its last
// rows 0-3 past a multiple of 4), and kernelauc's 200.
func TestCholeskyKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, b := range []int{1, 2, 3, 4, 5, 7, 8, 9, 17, 33, 63, 64, 65, 66, 67, 95, 96, 97, 99, 200} {
		A, h := randomSPD(rng, b)
		m := 2*b + 3
		Kt := randomVals(rng, b*m, 0.01)
		type result struct{ U, x, lu, g []float64 }
		run := func() result {
			var r result
			U := slices.Clone(A)
			if !Cholesky(U, b) {
				t.Fatalf("b = %d: positive definite matrix refused", b)
			}
			r.x = slices.Clone(h)
			CholeskySolve(U, b, r.x)
			for i := range b { // the factor: the upper triangle
				r.U = append(r.U, U[i*b+i:(i+1)*b]...)
			}
			r.lu = slices.Clone(h)
			if !LUSolve(slices.Clone(A), b, r.lu) {
				t.Fatalf("b = %d: LUSolve refused", b)
			}
			r.g = TransMulVec(Kt, b, m, h)
			return r
		}
		var want result
		withKernels(&goKernels, func() { want = run() })
		for _, k := range allKernels() {
			var got result
			withKernels(k, func() { got = run() })
			for _, c := range []struct {
				what      string
				got, want []float64
			}{{"Cholesky", got.U, want.U}, {"CholeskySolve", got.x, want.x}, {"LUSolve", got.lu, want.lu}, {"TransMulVec", got.g, want.g}} {
				if i, ok := sameBits(c.got, c.want); !ok {
					t.Errorf("%s: b = %d: %s entry %d = %v, plain Go %v", k.name, b, c.what, i, c.got[i], c.want[i])
				}
			}
		}
	}
}

// TestTransMulVecInOrder: TransMulVec's g[k] is the row-ordered sum of
// w[i] Kt[i][k] (written out here), for b around the four-row passes.
func TestTransMulVecInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, b := range []int{0, 1, 3, 4, 5, 8, 11} {
		const m = 9
		Kt := randomVals(rng, b*m, 0.05)
		w := randomVals(rng, b, 0.05)
		got := TransMulVec(Kt, b, m, w)
		for k := range m {
			var want float64
			for i := range b {
				want += float64(w[i] * Kt[i*m+k])
			}
			if _, ok := sameBits(got[k:k+1], []float64{want}); !ok {
				t.Fatalf("b = %d: g[%d] = %v, in-order sum %v", b, k, got[k], want)
			}
		}
	}
}

// FuzzGramKernelsAgree: the vector Gram of every kernel this CPU runs
// gives gramGo's bits on any values (the fuzzer's bytes read as float64s)
// and shape.
func FuzzGramKernelsAgree(f *testing.F) {
	seed := func(b, m uint8, vals ...float64) {
		var raw []byte
		for _, v := range vals {
			u := math.Float64bits(v)
			for s := range 8 {
				raw = append(raw, byte(u>>(8*s)))
			}
		}
		f.Add(b, m, raw)
	}
	seed(1, 0)
	seed(2, 1, math.NaN(), 1)
	seed(3, 3, math.Inf(1), 0, math.Copysign(0, -1), 5e-324, 1e300, -1e300, 2.2e-308, 1, -1)
	seed(25, 2, special...)
	seed(13, 1, special...)
	f.Fuzz(func(t *testing.T, b8, m8 uint8, raw []byte) {
		b, m := int(b8%64)+1, int(m8)
		Kt := make([]float64, b*m)
		for i := range Kt {
			var u uint64
			for s := range 8 {
				if j := (8*i + s) % max(len(raw), 1); j < len(raw) {
					u |= uint64(raw[j]) << (8 * s)
				}
			}
			Kt[i] = math.Float64frombits(u)
		}
		want := make([]float64, b*b)
		gramGo(Kt, b, m, want)
		for _, k := range allKernels() {
			kk := *k
			if kk.gramCols == 0 {
				kk.gramCols = 8
			}
			got := make([]float64, b*b)
			gramVec(&kk, Kt, b, m, got)
			if i, ok := sameBits(got, want); !ok {
				t.Fatalf("%s: b = %d, m = %d: S[%d][%d] = %#x, gramGo %#x", k.name, b, m, i/b, i%b, math.Float64bits(got[i]), math.Float64bits(want[i]))
			}
		}
	})
}

// TestPickKernels: the kernel set follows the CPU's features: AVX-512 over
// AVX2 over the plain Go (the features masked here).
func TestPickKernels(t *testing.T) {
	t.Logf("this CPU's kernels: %s (%d sets)", pickKernels().name, len(allKernels()))
	if len(allKernels()) == 1 {
		if pickKernels() != &goKernels {
			t.Fatal("only the plain Go runs here, but another kernel set was picked")
		}
		return
	}
	testPickKernelsAMD64(t)
}

// TestExpScaledAgrees: ExpScaled of every kernel this CPU runs gives
// portmath.Exp(src[k] c)'s bits (the statement, expScaledGo), in place
// too, for lengths 0..40 (the vector registers and tails) and scales c
// around the Gaussian kernel's -1/(2 sigma^2), on arguments across
// [-710, 0] (both sides of the vector path's -708 bound), the near-zero
// branch (|x| < 2^-28), positive and special values.
func TestExpScaledAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	args := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -5e-324,
		-708, -708 - 1e-12, -708 + 1e-12, -709, -745, -746, -1e6, 1, 700, 710,
		-0x1p-28, -0x1p-28 * (1 + 0x1p-52), -0x1p-28 * (1 - 0x1p-53), -1e-9, -1e-8}
	for _, c := range []float64{-0.5, -1e-4, -3.7, -1e3, -1} {
		for n := range 41 {
			src := make([]float64, n)
			for i := range src {
				switch rng.IntN(10) {
				case 0:
					src[i] = args[rng.IntN(len(args))] / c
				case 1:
					src[i] = -(705 + 5*rng.Float64()) / c // x around -705..-710
				default:
					src[i] = rng.Float64() * math.Pow(10, 4*rng.Float64()-2) / -c
				}
			}
			want := make([]float64, n)
			expScaledGo(want, src, c)
			for i, x := range src {
				if w := portmath.Exp(x * c); math.Float64bits(w) != math.Float64bits(want[i]) && !math.IsNaN(w) {
					t.Fatalf("expScaledGo(%v, %v) = %v, portmath.Exp %v", x, c, want[i], w)
				}
			}
			for _, k := range allKernels() {
				got := make([]float64, n)
				k.expScaled(got, src, c)
				inPlace := slices.Clone(src)
				k.expScaled(inPlace, inPlace, c)
				for _, g := range [][]float64{got, inPlace} {
					if i, ok := sameBits(g, want); !ok {
						t.Fatalf("%s: c = %v, n = %d: exp(%v c) = %v, portmath.Exp %v", k.name, c, n, src[i], g[i], want[i])
					}
				}
			}
		}
	}
}

// TestCholPanelKernelsAgree: cholPanel of every vector kernel this CPU
// runs gives cholPanelGo's bits, for kn = 1..40 terms, one to three tiles,
// row and column offsets in t, with special values mixed in.
func TestCholPanelKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, k := range allKernels() {
		if k.gramCols == 0 {
			continue
		}
		for kn := 1; kn <= 40; kn++ {
			for tiles := 1; tiles <= 3; tiles++ {
				nc := tiles * k.gramCols
				i0, j0 := rng.IntN(5), rng.IntN(7)
				ldt := max(i0+4, j0+nc) + rng.IntN(3)
				tm := randomVals(rng, kn*ldt, 0.05)
				out := randomVals(rng, 4*(nc+1), 0.05)
				rowsOf := func(o []float64) [4][]float64 {
					return [4][]float64{o[:nc], o[nc+1 : 2*nc+1], o[2*nc+2 : 3*nc+2], o[3*nc+3 : 4*nc+3]}
				}
				got, want := slices.Clone(out), slices.Clone(out)
				k.cholPanel(rowsOf(got), tm, ldt, i0, j0, nc, kn, true)
				cholPanelGo(rowsOf(want), tm, ldt, i0, j0, nc, kn, true)
				if i, ok := sameBits(got, want); !ok {
					t.Fatalf("%s: kn = %d, nc = %d: entry %d = %v, cholPanelGo %v", k.name, kn, nc, i, got[i], want[i])
				}
			}
		}
	}
}
