package nnet

import (
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
)

// f32Shapes are the problem shapes the float32x16 tests run: numeric and
// one-hot columns, every h from 1 to 9 and two beyond the 8 units one call
// of the assembly loops takes, row counts that leave partial blocks and
// span several groups of blocks, a problem with no validation-only rows and
// one with a single training row.
var f32Shapes = []struct{ dNum, dHot, h, n, nTrain int }{
	{13, 0, 5, 101, 77}, {4, 0, 1, 50, 30}, {1, 0, 1, 3, 2}, {7, 0, 4, 10, 10}, {3, 0, 7, 20, 5}, {57, 0, 8, 33, 33},
	{2, 0, 3, 9, 1}, {0, 126, 5, 200, 150}, {5, 9, 5, 64, 40}, {3, 44, 7, 50, 17}, {0, 4, 2, 17, 16},
	{6, 8, 11, 70, 35}, {17, 0, 9, 40, 40}, {1, 12, 6, 33, 20}, {40, 0, 16, 1100, 700},
	{0, 0, 3, 20, 10}, // no active input
}

// TestF32KernelsAgree: every float32x16 kernel runnable on this CPU (the
// plain-Go float32-go everywhere, avx512 on an amd64 machine with AVX-512,
// avx2 on one with AVX2 and FMA, neon on arm64, in any build) computes bit
// for bit what the lane-at-a-time statement f32RefKernel computes: losses,
// gradient and predictions, on every shape of f32Shapes (h from 1 to 11,
// and 16).
func TestF32KernelsAgree(t *testing.T) {
	ran := 0
	for _, ki := range kernels {
		if ki.numerics != NumericsFloat32x16 || !ki.ok() {
			continue
		}
		ran++
		t.Logf("checking %s against the reference", ki.name)
		rng := rand.New(rand.NewPCG(8, 9))
		for _, s := range f32Shapes {
			p := randomProblem(rng, s.dNum, s.dHot, s.h, s.n, s.nTrain)
			d := s.dNum + s.dHot
			nw := s.h*d + 2*s.h + 1
			ref, fast := new(f32RefKernel), ki.new()
			ref.load(p)
			fast.load(p)
			gr, gf := make([]float64, nw), make([]float64, nw)
			for e := range 3 { // three weight vectors; buffers reused between epochs
				w := make([]float64, nw)
				for i := range w {
					w[i] = rng.NormFloat64() * float64(1+2*e)
				}
				tr, vr := ref.epoch(w, gr)
				tf, vf := fast.epoch(w, gf)
				if tr != tf || vr != vf {
					t.Fatalf("%s %+v: losses (%v, %v), reference (%v, %v)", ki.name, s, tf, vf, tr, vr)
				}
				for i := range gr {
					if gr[i] != gf[i] {
						t.Fatalf("%s %+v: gradient %d = %v, reference %v", ki.name, s, i, gf[i], gr[i])
					}
				}
				// Prediction of rows outside the training set, some far
				// outside [-1, 1] (and beyond float32's range).
				nx := 1 + rng.IntN(40)
				src := rowSource{raw: make([]float64, nx*(d+1)), stride: d + 1, cols: make([]int, d),
					lo: make([]float64, d), inv: make([]float64, d)}
				for i := range src.raw {
					src.raw[i] = rng.NormFloat64() * []float64{1, 3, 1e40}[rng.IntN(3)]
				}
				for c := range d {
					src.cols[c] = (c + 1) % (d + 1)
					src.lo[c], src.inv[c] = rng.NormFloat64(), 0.5+rng.Float64()
				}
				for i := range nx {
					src.idx = append(src.idx, (i*7)%nx)
				}
				pr, pf := make([]float64, nx), make([]float64, nx)
				ref.predict(w, &src, pr)
				fast.predict(w, &src, pf)
				for i := range pr {
					if pr[i] != pf[i] {
						t.Fatalf("%s %+v: prediction %d = %v, reference %v", ki.name, s, i, pf[i], pr[i])
					}
				}
			}
		}
	}
	if ran < 2 {
		t.Logf("no vector kernel runs here (kernels: %v): float32-go checked alone", Kernels())
	}
}

// TestAutoPicksVectorKernel: "auto" takes the avx512 kernel when the CPU
// can run it (in the default build: the kernels need no GOEXPERIMENT), else
// the avx2 kernel when the CPU has AVX2 and FMA, else, on arm64, the neon
// kernel, else float32-go (never the scalar kernel: the default numerics are
// float32x16 everywhere); and asking for a vector kernel the CPU cannot run
// is an error that says so. The CPU's features are then masked (hasAVX512,
// hasAVX2, hasNEON) to check the choice a CPU without AVX-512, one without
// AVX2, and one without any of them would make. With PUEVAL_EXPECT_KERNEL
// set (make test-cross, which runs the tests under emulated CPUs) "auto"
// must pick that kernel: a CPU the emulator does not present as expected
// would otherwise only make the vector tests skip.
func TestAutoPicksVectorKernel(t *testing.T) {
	if want := os.Getenv("PUEVAL_EXPECT_KERNEL"); want != "" && KernelName() != want {
		t.Fatalf("PUEVAL_EXPECT_KERNEL=%s, but auto picks %q (available: %v)", want, KernelName(), Kernels())
	}
	check := func(what string) {
		t.Helper()
		want := "float32-go"
		switch {
		case hasAVX512:
			want = "avx512"
		case hasAVX2:
			want = "avx2"
		case hasNEON:
			want = "neon"
		}
		if got := KernelName(); got != want {
			t.Fatalf("%s: KernelName() = %q, want %q (hasAVX512 %v, hasAVX2 %v, hasNEON %v)",
				what, got, want, hasAVX512, hasAVX2, hasNEON)
		}
		for _, k := range []struct {
			name string
			ok   bool
		}{{"avx512", hasAVX512}, {"avx2", hasAVX2}, {"neon", hasNEON}} {
			if got := KernelNumerics(k.name); got != NumericsFloat32x16 {
				t.Errorf("%s: KernelNumerics(%s) = %q", what, k.name, got)
			}
			if _, err := resolveKernel(k.name); (err == nil) != k.ok {
				t.Errorf("%s: resolveKernel(%s): error %v, available %v", what, k.name, err, k.ok)
			}
		}
	}
	check("this CPU")
	if runtime.GOARCH == "arm64" && !hasNEON {
		t.Errorf("arm64 without ASIMD: every ARMv8-A CPU has it")
	}
	saved512, saved2, savedNEON := hasAVX512, hasAVX2, hasNEON
	defer func() { hasAVX512, hasAVX2, hasNEON = saved512, saved2, savedNEON }()
	hasAVX512 = false
	check("AVX-512 masked")
	if saved2 && KernelName() != "avx2" {
		t.Fatalf("AVX-512 masked on an AVX2 CPU: KernelName() = %q, want avx2", KernelName())
	}
	hasAVX2 = false
	check("AVX-512 and AVX2 masked")
	hasNEON = false
	check("AVX-512, AVX2 and NEON masked")
	if KernelName() != "float32-go" {
		t.Fatalf("every vector kernel masked: KernelName() = %q, want float32-go (the float32x16 numerics everywhere)", KernelName())
	}
}

// TestF32NearF64: an epoch in the float32x16 numerics is close to the
// float64 reference: losses within 1e-5 relative, every gradient entry
// within 1e-3 of the gradient's largest entry (each entry is a float32 sum
// of terms of both signs, so its error is relative to the terms, not to the
// sum; 2e-4 is the worst seen on these shapes). Run on the reference Go
// statement, so on every CPU.
func TestF32NearF64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	worstL, worstG := 0.0, 0.0
	for _, s := range f32Shapes {
		p := randomProblem(rng, s.dNum, s.dHot, s.h, s.n, s.nTrain)
		d := s.dNum + s.dHot
		nw := s.h*d + 2*s.h + 1
		ref, f32 := new(referenceKernel), new(f32RefKernel)
		ref.load(p)
		f32.load(p)
		w := make([]float64, nw)
		for i := range w {
			w[i] = rng.NormFloat64()
		}
		gr, gf := make([]float64, nw), make([]float64, nw)
		tr, vr := ref.epoch(w, gr)
		tf, vf := f32.epoch(w, gf)
		for _, c := range [][2]float64{{tr, tf}, {vr, vf}} {
			rel := math.Abs(c[0]-c[1]) / math.Max(c[0], 1e-30)
			worstL = max(worstL, rel)
			if rel > 1e-5 {
				t.Errorf("%+v: loss %v, float64 %v (rel. %.2g)", s, c[1], c[0], rel)
			}
		}
		scale := 0.0
		for _, v := range gr {
			scale = max(scale, math.Abs(v))
		}
		for i := range gr {
			rel := math.Abs(gr[i]-gf[i]) / scale
			worstG = max(worstG, rel)
			if rel > 1e-3 {
				t.Errorf("%+v: gradient %d = %v, float64 %v", s, i, gf[i], gr[i])
			}
		}
	}
	t.Logf("worst relative loss difference %.2g, gradient difference %.2g (of the largest entry)", worstL, worstG)
}

// TestFMA32 checks the float32 fused multiply-add emulation against exact
// rational arithmetic (math/big) on random operands, on products and
// addends of close magnitude with cancellation, and on constructed ties,
// where a double rounding through float64 would go wrong.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	exact := func(x, y, z float32) float32 {
		r := new(big.Rat).Mul(new(big.Rat).SetFloat64(float64(x)), new(big.Rat).SetFloat64(float64(y)))
		r.Add(r, new(big.Rat).SetFloat64(float64(z)))
		f, _ := r.Float32()
		return f
	}
	check := func(x, y, z float32) {
		if got, want := fma32(x, y, z), exact(x, y, z); got != want {
			t.Fatalf("fma32(%v, %v, %v) = %v, want %v", x, y, z, got, want)
		}
	}
	ties := 0
	for i := range 50000 {
		x := float32(rng.NormFloat64() * math.Exp2(float64(rng.IntN(40)-20)))
		y := float32(rng.NormFloat64())
		z := float32(rng.NormFloat64() * math.Exp2(float64(rng.IntN(60)-30)))
		if i%3 == 0 {
			z = -x * y // cancellation
		}
		check(x, y, z)
		// A tie for the float64 sum: z = -(x*y rounded to a float32
		// midpoint) plus a tiny addend that float64 loses.
		m := float64(x) * float64(y)
		r := float32(m)
		if r == 0 || math.IsInf(float64(r), 0) {
			continue
		}
		up := math.Nextafter32(r, float32(math.Inf(1)))
		mid := (float64(r) + float64(up)) / 2
		// x*y + z = mid + tiny: pick z = mid - x*y rounded to float32 when exact.
		zz := float32(mid - m)
		if float64(zz) == mid-m {
			check(x, y, zz)
			ties++
			small := math.Nextafter32(zz, float32(math.Inf(1)))
			check(x, y, small)
			check(x, y, math.Nextafter32(zz, float32(math.Inf(-1))))
		}
	}
	t.Logf("%d constructed near-ties", ties)
}

// TestTanh32: the float32 evaluation of the rational tanh stays within
// 3.5e-7 of math.Tanh (float32 rounding of a value below 1 is up to 6e-8;
// the evaluation adds a few roundings), is odd, never exceeds 1 in
// magnitude (so 1 - y^2 >= 0), on every float32 in [0, 9.5] with the last
// 8 mantissa bits zero and on 10^6 random float32s. (Unlike the float64
// version it is not monotone: rounding makes it step down by up to a few
// ulps in places, which nothing relies on.)
func TestTanh32(t *testing.T) {
	worst := 0.0
	var xs []float32
	for b := math.Float32bits(0); ; b += 1 << 8 {
		x := math.Float32frombits(b)
		if x > 9.5 {
			break
		}
		xs = append(xs, x)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 1000000 {
		xs = append(xs, float32(rng.Float64()*12))
	}
	for _, x := range xs {
		y := tanh32(x)
		if y > 1 || y < 0 {
			t.Fatalf("tanh32(%v) = %v: outside [0, 1]", x, y)
		}
		if tanh32(-x) != -y {
			t.Fatalf("tanh32(-%v) = %v, want %v", x, tanh32(-x), -y)
		}
		worst = max(worst, math.Abs(float64(y)-math.Tanh(float64(x))))
	}
	t.Logf("max |tanh32 - tanh| = %.2g on %d points", worst, len(xs))
	if worst > 3.5e-7 {
		t.Errorf("max error %.2g > 3.5e-7", worst)
	}
}

// TestKernelEnvForcesAuto: $PUEVAL_KERNEL decides what "auto" and ""
// select (and so the numerics and the cache key), a kernel named in the
// parameters is not overridden, and a name that is unknown or unavailable
// on this CPU is an error that names the variable.
func TestKernelEnvForcesAuto(t *testing.T) {
	t.Setenv(KernelEnv, "scalar")
	if got := KernelName(); got != "scalar" {
		t.Fatalf("%s=scalar: KernelName() = %q", KernelEnv, got)
	}
	if got := KernelNumerics("auto"); got != NumericsFloat64 {
		t.Fatalf("%s=scalar: KernelNumerics(auto) = %q, want %q", KernelEnv, got, NumericsFloat64)
	}
	if got := (Params{Kernel: "float32-go"}).KernelName(); got != "float32-go" {
		t.Fatalf("%s=scalar: an explicit float32-go became %q", KernelEnv, got)
	}
	t.Setenv(KernelEnv, "float32-go")
	if got := (Params{}).KernelName(); got != "float32-go" {
		t.Fatalf("%s=float32-go: Params{}.KernelName() = %q", KernelEnv, got)
	}
	t.Setenv(KernelEnv, "auto")
	if got, want := KernelName(), kernels[len(kernels)-1].name; hasAVX512 && got != want {
		t.Fatalf("%s=auto: KernelName() = %q, want %q", KernelEnv, got, want)
	}
	for _, bad := range []string{"avx1024", "avx512"} {
		if bad == "avx512" && hasAVX512 {
			continue
		}
		t.Setenv(KernelEnv, bad)
		p := DefaultParams()
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), KernelEnv) || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s=%s: Validate() = %v, want an error naming the variable and the kernel", KernelEnv, bad, err)
		}
	}
}
