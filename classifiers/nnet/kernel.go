package nnet

import (
	"fmt"
	"math"
	"os"
	"strings"
)

// The AVX-512, AVX2 and NEON kernels' assembly and Go declarations are
// generated (gen_avx512.go holds the program and the amd64 sets,
// gen_neon.go the arm64 set).
//go:generate go run gen_avx512.go gen_neon.go

// The epoch kernel is the hot loop of every reproduction: one forward pass over every row of a net's bootstrap, the training
// and validation losses, and the back-propagated gradient over the rows with
// a training weight; the same kernel predicts the out-of-bag rows. Kernels:
//
//   - scalar (kernel_scalar.go): portable float64, bit-identical to
//     referenceKernel (kernel_reference.go, the plainest statement);
//   - avx512 (vecKernel in kernel_vec.go over the routines of
//     kernel_avx512_amd64.s: Go assembly, in every amd64 binary, chosen at
//     run time when the CPU has AVX-512, kernel_vec_amd64.go; listed but
//     never available elsewhere): the float32x16 numerics of
//     kernel_f32.go, 16 rows per register;
//   - avx2 (the same orchestration over the routines of
//     kernel_avx2_amd64.s): the same numerics and bits, each 16-row block
//     as two 8-lane YMM halves, chosen when the CPU has AVX2 and FMA but
//     not AVX-512;
//   - neon (the same orchestration over the routines of
//     kernel_neon_arm64.s, in every arm64 binary, kernel_vec_arm64.go): the
//     same numerics and bits, each 16-row block as four 4-lane NEON
//     quarters, chosen on arm64 CPUs (all have ASIMD);
//   - float32-go (kernel_f32go.go): the float32x16 numerics and bits in
//     plain Go, on any CPU, 16 rows per block with the lanes innermost: what
//     "auto" takes where no vector kernel runs. Every float32x16 kernel is
//     tested bit for bit against f32RefKernel (kernel_f32ref_test.go), the
//     plainest statement of the numerics, one lane at a time.
//
// "auto" never takes the scalar kernel: every machine computes the
// float32x16 numerics by default, so records are identical across CPUs.

// problem is one net's training set: n rows of d mapped inputs, the rows
// with a training weight first. The rows come from src (Trainer.Train) or,
// in tests, directly from x.
type problem struct {
	d, h      int       // active inputs, hidden units
	n, nTrain int       // rows; rows [0, nTrain) have wt > 0, rows [nTrain, n) only wv > 0
	src       rowSource // where the rows come from; src.raw == nil: from x
	x         []float64 // n*d mapped inputs, row-major: given (tests) or filled by mapped
	t         []float64 // targets, +1 or -1
	wt, wv    []float64 // training and validation weights (bootstrap multiplicities)
	sumTrain  float64   // sum of wt
	sumVal    float64   // sum of wv
}

// mapRow writes the d mapped inputs of row i into dst.
func (p *problem) mapRow(i int, dst []float64) {
	if p.src.raw == nil {
		copy(dst[:p.d], p.x[i*p.d:i*p.d+p.d])
		return
	}
	p.src.mapRow(i, dst)
}

// mapBlock writes the mapped inputs of the m <= lanes rows i0, ..., i0+m-1,
// converted to float32, into the column-major block xb: input k of row i0+l
// at xb[k*lanes+l]; lanes m and up are left as they are. The same values as
// mapRow and float32, a column at a time (no row buffer; each column's
// range is read once). It also ORs into off[k] the bits in which some
// |value| of column k differs from 1 (f32Layout.load's binary columns).
func (p *problem) mapBlock(i0, m int, xb []float32, off []uint32) {
	d := p.d
	xb, off = xb[:d*lanes], off[:d]
	if p.src.raw == nil {
		for k := range d {
			col := xb[k*lanes : k*lanes+m]
			var o uint32
			for l := range col {
				f := float32(p.x[(i0+l)*d+k])
				col[l] = f
				o |= notUnit(f)
			}
			off[k] |= o
		}
		return
	}
	p.src.mapBlock(i0, m, xb, off)
}

// notUnit is the bits in which |f| differs from 1: 0 exactly for -1 and +1.
func notUnit(f float32) uint32 { return math.Float32bits(f)&^(1<<31) ^ 0x3f800000 }

// mapBlock is problem.mapBlock for rows of a matrix.
func (s *rowSource) mapBlock(i0, m int, xb []float32, off []uint32) {
	d := len(s.cols)
	xb, off = xb[:d*lanes], off[:d]
	at := s.rowsAt(i0, m)
	lo, inv := s.lo[:d], s.inv[:d]
	for k, c := range s.cols {
		col := xb[k*lanes : k*lanes+m]
		lk, ik := lo[k], inv[k]
		var o uint32
		for l, a := range at[:len(col)] {
			f := float32(scale(s.raw[a+c], lk, ik))
			col[l] = f
			o |= notUnit(f)
		}
		off[k] |= o
	}
}

// predictBlock is mapBlock for prediction: toF32 of the mapped values (the
// rows need not lie in the training range), and no binary columns.
func (s *rowSource) predictBlock(i0, m int, xb []float32) {
	d := len(s.cols)
	xb = xb[:d*lanes]
	at := s.rowsAt(i0, m)
	lo, inv := s.lo[:d], s.inv[:d]
	for k, c := range s.cols {
		col := xb[k*lanes : k*lanes+m]
		lk, ik := lo[k], inv[k]
		for l, a := range at[:len(col)] {
			col[l] = toF32(scale(s.raw[a+c], lk, ik))
		}
	}
}

// mapFunc is a vector routine mapping one full block of 16 rows (the amd64
// sets' mapCols and predCols, gen_avx512.go): for each of the d columns k,
// the 16 values raw[at[l]+cols[k]] mapped with lo[k] and inv[k] as
// mapBlock (mapCols, which also ORs notUnit's bits into off[k]) or
// predictBlock (predCols, which ignores off) do, stored at xb[k*16+l].
type mapFunc func(raw *float64, at *[lanes]int, cols *int, lo *float64, inv *float64, d int, xb *float32, off *uint32)

// limit returns the bound on row offsets below which every column of a row
// lies inside raw (gather's safety check), or 0 when some column is
// negative (gather then always declines).
func (s *rowSource) limit() int {
	last := 0
	for _, c := range s.cols {
		if c < 0 {
			return 0
		}
		last = max(last, c)
	}
	return max(0, len(s.raw)-last)
}

// gather maps the block of the m rows i0, ..., i0+m-1 into xb through the
// vector routine f, the same bits as mapBlock (f = mapCols; off as there)
// or predictBlock (f = predCols; off may be nil). It declines, returning
// false and writing nothing, unless the block is full (m = 16) and f is
// set and every row's offset is in [0, lim) (lim from limit; 0: none is):
// the assembly maps whole blocks and reads raw unchecked.
func (s *rowSource) gather(i0, m, lim int, f mapFunc, xb []float32, off []uint32) bool {
	if m < lanes || f == nil || lim == 0 {
		return false
	}
	at := s.rowsAt(i0, lanes)
	for _, a := range at {
		if a < 0 || a >= lim {
			return false
		}
	}
	d := len(s.cols)
	if d == 0 {
		return true
	}
	xb, lo, inv := xb[:d*lanes], s.lo[:d], s.inv[:d]
	o := (*uint32)(nil)
	if off != nil {
		o = &off[:d][0]
	}
	f(&s.raw[0], &at, &s.cols[0], &lo[0], &inv[0], d, &xb[0], o)
	return true
}

// rowsAt returns the offsets in raw of rows i0, ..., i0+m-1 (m <= lanes).
func (s *rowSource) rowsAt(i0, m int) (at [lanes]int) {
	for l := range m {
		at[l] = s.idx[i0+l] * s.stride
	}
	return at
}

// mapped returns the mapped rows, row-major, filling p.x from src.
func (p *problem) mapped() []float64 {
	if p.src.raw == nil {
		return p.x
	}
	x := grow(&p.x, p.n*p.d)
	for i := range p.n {
		p.src.mapRow(i, x[i*p.d:i*p.d+p.d])
	}
	return x
}

// rowSource is a list of rows of a feature matrix and the map of their
// active columns to the inputs of a net: input k of row i is
// scale(raw[idx[i]*stride + cols[k]], lo[k], inv[k]).
type rowSource struct {
	raw     []float64
	stride  int
	idx     []int
	cols    []int
	lo, inv []float64
}

// mapRow writes the mapped inputs of row i into dst (len(cols) values).
func (s *rowSource) mapRow(i int, dst []float64) {
	src := s.raw[s.idx[i]*s.stride:]
	lo, inv := s.lo[:len(s.cols)], s.inv[:len(s.cols)]
	dst = dst[:len(s.cols)]
	for k, c := range s.cols {
		dst[k] = scale(src[c], lo[k], inv[k])
	}
}

// kernel evaluates one epoch. The parameter vector w (and the gradient g) is
// laid out as in Net.Weights: W (h x d, row-major), b (h), v (h), c.
type kernel interface {
	// load prepares the kernel for a problem (a vector kernel converts and
	// transposes it here). The kernel may keep p until the next load.
	load(p *problem)
	// epoch returns, at weights w, the weighted sums of squared errors
	// sseT = sum_i wt_i (y_i - t_i)^2 and sseV = sum_i wv_i (y_i - t_i)^2
	// in +-1 target units, and writes into g the vector
	// sum_i wt_i (y_i - t_i) dy_i/dw = (1/2) d(sseT)/dw.
	epoch(w, g []float64) (sseT, sseV float64)
	// predict writes into out[i] the output y in [-1, 1] at weights w of
	// row i of src (any values; the problem of the last load gives d and
	// h). It may use the kernel's buffers, not the loaded problem's rows.
	predict(w []float64, src *rowSource, out []float64)
}

// kernelInfo describes one epoch kernel.
type kernelInfo struct {
	name string // as in Params.Kernel and run manifests
	// numerics names the arithmetic: kernels with equal numerics compute
	// the same bits (they may differ in speed and in the CPUs they need).
	numerics string
	rank     int         // "auto" takes the available kernel of highest rank
	manual   bool        // never chosen by "auto"
	ok       func() bool // whether this binary and CPU can run it
	new      func() kernel
}

// kernels lists the epoch kernels: the portable scalar kernel, the
// portable statement of the vector kernels' numerics in plain Go
// (kernel_f32.go), and the vector kernels, whose ok says whether this CPU
// can run them (on other architectures than theirs, never). The list is
// kept sorted by rank. "auto" never takes the scalar kernel, so that every
// machine computes the same float32x16 numerics by default and records are
// identical across CPUs and builds; the scalar kernel (float64, the
// published MATLAB code's precision) is chosen by name.
var kernels = []kernelInfo{{
	name: "scalar", numerics: NumericsFloat64, rank: -1, manual: true,
	ok:  func() bool { return true },
	new: func() kernel { return new(scalarKernel) },
}, {
	// The float32x16 numerics on any CPU: "auto" takes it where no vector
	// kernel runs.
	name: "float32-go", numerics: NumericsFloat32x16, rank: 0,
	ok:  func() bool { return true },
	new: func() kernel { return new(f32GoKernel) },
}, {
	name: "avx2", numerics: NumericsFloat32x16, rank: 1,
	ok: avx2OK, new: newAVX2Kernel,
}, {
	// avx2 and neon never coexist (amd64 and arm64): the same rank.
	name: "neon", numerics: NumericsFloat32x16, rank: 1,
	ok: neonOK, new: newNEONKernel,
}, {
	name: "avx512", numerics: NumericsFloat32x16, rank: 2,
	ok: avx512OK, new: newAVX512Kernel,
}}

// KernelEnv is the environment variable that forces what "auto" (and an
// empty Params.Kernel) selects, for tests and benchmarks: e.g.
// PUEVAL_KERNEL=avx2 on an AVX-512 machine. A kernel named in a
// configuration is not overridden. Kernels of one numerics give the same
// bits, so forcing one of them changes only the speed (and the kernel that
// records and manifests name); forcing "scalar" changes the numerics, and
// with them the score-cache key.
const KernelEnv = "PUEVAL_KERNEL"

// Numerics of the kernels (KernelNumerics).
const (
	// NumericsFloat64 is the scalar kernel's: float64, every sum in row order.
	NumericsFloat64 = "float64"
	// NumericsFloat32x16 is the vector kernels': float32 with fused
	// multiply-adds, per-lane sums over 16 interleaved row streams reduced in
	// float64 (kernel_f32.go).
	NumericsFloat32x16 = "float32x16"
)

// resolveKernel returns the kernel a Params.Kernel value selects.
func resolveKernel(name string) (kernelInfo, error) {
	if name == "" || name == "auto" {
		if forced := os.Getenv(KernelEnv); forced != "" && forced != "auto" {
			k, err := resolveKernel(forced)
			if err != nil {
				return k, fmt.Errorf("environment %s: %w", KernelEnv, err)
			}
			return k, nil
		}
		for i := len(kernels) - 1; i >= 0; i-- {
			if k := kernels[i]; !k.manual && k.ok() {
				return k, nil
			}
		}
	}
	for _, k := range kernels {
		if k.name != name {
			continue
		}
		if !k.ok() {
			return k, fmt.Errorf("kernel = %q: not available on this CPU (available: %s)", name, strings.Join(Kernels(), ", "))
		}
		return k, nil
	}
	known := []string{"auto", "scalar", "avx2", "avx512", "neon", "float32-go"}
	return kernelInfo{}, fmt.Errorf("kernel = %q: want one of %s (available on this CPU: %s)",
		name, strings.Join(known, ", "), strings.Join(Kernels(), ", "))
}

// KernelName names the epoch kernel Train uses by default (Params.Kernel ""
// or "auto"): the fastest float32x16 kernel this binary and CPU can run, or
// the one $PUEVAL_KERNEL names (KernelEnv; "" if it names none available).
// "avx512" is the float32 AVX-512 kernel, in every amd64 binary and chosen
// when the CPU has AVX-512; "avx2" the same numerics with AVX2 and FMA,
// chosen on amd64 CPUs without AVX-512; "neon" the same numerics with
// arm64's Advanced SIMD, chosen on arm64; "float32-go" the same numerics in
// plain Go, chosen where none of them runs. "scalar", the portable float64
// kernel, is never the default.
func KernelName() string {
	k, _ := resolveKernel("")
	return k.name
}

// Kernels lists the kernels this binary and CPU can run, in the order
// "auto" prefers them (scalar, which "auto" never chooses, last).
func Kernels() []string {
	var names []string
	for i := len(kernels) - 1; i >= 0; i-- {
		if kernels[i].ok() {
			names = append(names, kernels[i].name)
		}
	}
	return names
}

// KernelNumerics returns the numerics of the named kernel ("" and "auto"
// resolved as in Params.Kernel), or "" for an unknown name: kernels with the
// same numerics give bit-identical nets, so score caches key on it.
func KernelNumerics(name string) string {
	k, err := resolveKernel(name)
	if err != nil && k.name == "" {
		return ""
	}
	return k.numerics
}

// FlopsPerEpoch is the nominal number of floating-point operations of one
// epoch (one forward pass over all rows and one backward pass over the
// training rows) of a net with d active inputs and h hidden units on nTrain
// rows with a training weight and nValOnly rows with only a validation
// weight. Multiplies and adds count one each and
// tanh counts one:
//
//	forward, per row:     2hd (hidden pre-activations, bias included) + h (tanh)
//	                      + 2h (output pre-activation) + 1 (tanh) + 1 (error)
//	                      + 6 (two weighted squared errors)      = 2hd + 3h + 8
//	backward, per training row: 4 (delta = wt e (1 - y^2)) + 1 (output bias)
//	                      + 2h (output weights) + 4h (hidden deltas)
//	                      + h (hidden biases) + 2hd (input weights) = 2hd + 7h + 5
//
// For the AAAI setting (d = 13, h = 5) that is 323 per training row and 153
// per validation-only row. The real operation count is higher (each tanh
// is 20 arithmetic operations, a division and a clamp); the nominal count is
// what the GFLOP/s figures of the benchmarks (docs/performance.md) use.
func FlopsPerEpoch(d, h, nTrain, nValOnly int) float64 {
	fwd := float64(2*h*d + 3*h + 8)
	bwd := float64(2*h*d + 7*h + 5)
	return float64(nTrain)*(fwd+bwd) + float64(nValOnly)*fwd
}
