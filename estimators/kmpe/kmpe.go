package kmpe

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
)

// Defaults of [Options].
const (
	// DefaultTol is the KKT gap at which a QP counts as solved.
	DefaultTol = 1e-10
	// DefaultMaxIterPerRow times the number of pooled rows (at least
	// 1,000,000) caps the SMO iterations of one QP.
	DefaultMaxIterPerRow = 2000
)

// The published code's constants.
const (
	lambdaLo   = 1.0  // bisection interval [lambdaLo, lambdaHi]
	lambdaHi   = 8.0  //
	bisectEps  = 0.04 // stop when hi - lo <= eps; slope over eps/2
	slopeStart = 1.05 // begin_slope = (d(1.05) - d(1)) / 0.05
	nuWeight   = 0.2  // nu1 = ((1 - 0.2) begin_slope + 0.2 delta) / delta
	nu2Max     = 0.9  // nu2 above this is replaced by nu1
)

// WidthFactors are the multiples of sqrt(median squared distance) among
// which the kernel width is chosen (numpy logspace(-1, 1, 5)).
var WidthFactors = [5]float64{0.1, 1 / math.Sqrt(10), 1, math.Sqrt(10), 10}

// Options configure an estimate. The zero value means the defaults.
type Options struct {
	// Scaling of the features over the pooled rows (default zscore). Used
	// by [Estimate] and [Cache.Estimate]; a [Pool] is scaled when built.
	Scaling Scaling
	// Tol is the KKT gap at which each QP stops (default 1e-10).
	Tol float64
	// MaxIter caps the SMO iterations of one QP (default
	// max(1e6, 2000 (N+M))); reaching it is an error.
	MaxIter int
	// Workers is the number of goroutines for the distance and kernel
	// matrices and the gradients (default GOMAXPROCS). The result does not
	// depend on it.
	Workers int
}

func (o Options) withDefaults(n int) Options {
	o.Scaling = o.Scaling.orDefault()
	if o.Tol == 0 {
		o.Tol = DefaultTol
	}
	if o.MaxIter == 0 {
		o.MaxIter = max(1_000_000, DefaultMaxIterPerRow*n)
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

func (o Options) validate() error {
	var errs []error
	if err := o.Scaling.Validate(); err != nil {
		errs = append(errs, err)
	}
	if !(o.Tol >= 0) || math.IsInf(o.Tol, 0) {
		errs = append(errs, fmt.Errorf("tol %v: want a finite non-negative number (0 = default)", o.Tol))
	}
	if o.MaxIter < 0 {
		errs = append(errs, fmt.Errorf("max_iter %d: want 0 (default) or more", o.MaxIter))
	}
	if len(errs) > 0 {
		return fmt.Errorf("kmpe options: %w", errors.Join(errs...))
	}
	return nil
}

// Result is a KM1/KM2 estimate with its diagnostics.
type Result struct {
	// KM1 = kappa(nu2) and KM2 = kappa(nu1): estimates of kappa, the
	// fraction of the component distribution in the mixture (alpha_U in PU
	// learning with the unlabeled rows as mixture and the labeled rows as
	// component).
	KM1, KM2 float64
	Scaling  Scaling // the feature scaling used
	N, M     int     // mixture and component rows
	// ConstantFeatures are the feature columns constant over the pooled
	// rows (0-based; nil for an estimate from a distance matrix).
	ConstantFeatures []int
	// RawExponent k says that raw features were multiplied by 2^k before
	// their distances were computed: 0, unless their largest magnitude
	// lies outside [2^-300, 2^300], where squared distances would
	// overflow or lose their bits. MedianD2, SigmaMedian and Sigmas are in
	// the units of the multiplied features; the kernel, and so every
	// other number, does not depend on k. 0 for zscore, minmax and a
	// distance matrix.
	RawExponent int

	MedianD2    float64    // numpy median of all (N+M)^2 squared distances
	SigmaMedian float64    // sqrt(MedianD2)
	Sigmas      [5]float64 // SigmaMedian x WidthFactors
	Deltas      [5]float64 // RKHS distance of the two embeddings per width
	SigmaIndex  int        // the chosen width (largest delta, first on ties)
	Sigma       float64    // Sigmas[SigmaIndex]
	Delta       float64    // Deltas[SigmaIndex]

	D100, D105  float64 // d(1) and d(1.05)
	BeginSlope  float64 // (d(1.05) - d(1)) / 0.05
	Nu1         float64 // (0.8 BeginSlope + 0.2 Delta) / Delta
	Nu2         float64 // the nu2 used (Nu1 when Nu2Raw > 0.9)
	Nu2Raw      float64 // (1/sqrt(min(N, M))) / Delta
	Nu2Replaced bool    // Nu2Raw > 0.9

	Lambda1, Lambda2 float64 // lambda* of KM1 (nu2) and of KM2 (nu1)
	Path1, Path2     []Step  // their bisection steps
	// Solves lists every distinct QP in the order solved (a lambda met
	// again is not solved again).
	Solves []Solve
}

// Step is one bisection step: at Mid = (Lo + Hi)/2 the slope (D(Mid+0.02) -
// D(Mid)) x 50 is compared with Threshold = nu x delta; Above (slope >
// threshold) moves Hi to Mid, otherwise Lo moves to Mid.
type Step struct {
	Lo, Hi, Mid float64
	D, DPlus    float64 // d(Mid), d(Mid + 0.02)
	Slope       float64
	Threshold   float64
	Above       bool
}

// Solve is one QP: d(Lambda) = sqrt(max(0, Squared)).
type Solve struct {
	Lambda     float64
	D          float64
	Squared    float64
	Iterations int     // SMO iterations
	Steps      int     // active-set support changes
	Fallback   bool    // the active-set method met a singular support; SMO finished
	Gap        float64 // final KKT gap (<= Tol)
	Support    int     // rows with positive weight at the solution
}

// Estimate returns KM1 and KM2 for the mixture rows (N x d) and the
// component rows (M x d). The rows are pooled (mixture first), scaled by
// opt.Scaling over the pooled rows, and the method of the package
// documentation runs on them. An estimate whose n x n matrices would not
// fit in the memory available is refused before they are allocated, with
// a [*SizeError] wrapping [ErrTooLarge] (one that would fit once
// concurrent estimates end waits for them).
func Estimate(ctx context.Context, mixture, component [][]float64, opt Options) (*Result, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	pooled, err := poolRows(mixture, component)
	if err != nil {
		return nil, err
	}
	opt = opt.withDefaults(len(pooled))
	n, d, w := saturating(len(pooled)), saturating(len(pooled[0])), saturating(opt.Workers)
	release, err := gate.admit(ctx, directBytes(n, d, w), len(pooled), func(avail uint64) int {
		return maxRowsFor(func(m uint64) uint64 { return directBytes(m, d, w) }, avail, len(pooled))
	}, true)
	if err != nil {
		return nil, err
	}
	defer release()
	scaled, constant, rawExp, err := scaleRows(pooled, opt.Scaling)
	if err != nil {
		return nil, err
	}
	if err := context.Cause(ctx); err != nil {
		return nil, fmt.Errorf("kmpe: %w", err)
	}
	d2 := squaredDistances(scaled, opt.Workers)
	med := medianAll(d2, len(scaled), opt.Workers)
	res, err := run(ctx, d2, len(scaled), len(mixture), med, opt)
	if err != nil {
		return nil, err
	}
	res.ConstantFeatures, res.RawExponent = constant, rawExp
	return res, nil
}

// poolRows checks both sides and returns mixture rows then component rows.
func poolRows(mixture, component [][]float64) ([][]float64, error) {
	if len(mixture) == 0 {
		return nil, errors.New("kmpe: no mixture rows")
	}
	if len(component) == 0 {
		return nil, errors.New("kmpe: no component rows")
	}
	d := len(mixture[0])
	if d == 0 {
		return nil, errors.New("kmpe: rows have no features")
	}
	if err := checkRows("mixture", mixture, d); err != nil {
		return nil, err
	}
	if err := checkRows("component", component, d); err != nil {
		return nil, err
	}
	pooled := make([][]float64, 0, len(mixture)+len(component))
	pooled = append(pooled, mixture...)
	return append(pooled, component...), nil
}

// run is the method on the pooled squared distances d2 (n x n, the first
// nMix rows the mixture), whose numpy median is med. It overwrites d2 with
// the chosen kernel.
func run(ctx context.Context, d2 []float64, n, nMix int, med float64, opt Options) (*Result, error) {
	return runWith(ctx, &directKernels{d2: d2, n: n, nMix: nMix, workers: opt.Workers}, n, nMix, med, opt)
}

// kernelSource gives run the Gaussian kernel of the pooled rows (split
// order: the nMix mixture rows first) at a width.
type kernelSource interface {
	// sums returns, per pooled row, the sums of its kernel row over the
	// mixture columns and over the component columns; index is the
	// width's position in WidthFactors.
	sums(index int, sigma float64) (sm, sc []float64)
	// kernel returns the n x n kernel matrix (row-major); index is the
	// width's position in WidthFactors.
	kernel(index int, sigma float64) []float64
}

// directKernels computes everything from the split's squared distances,
// writing the kernel over them.
type directKernels struct {
	d2      []float64
	n, nMix int
	workers int
}

func (k *directKernels) sums(_ int, sigma float64) (sm, sc []float64) {
	return k.pass(sigma, false)
}

func (k *directKernels) kernel(_ int, sigma float64) []float64 {
	k.pass(sigma, true)
	return k.d2
}

// pass computes the row sums at sigma, and with store the kernel over d2.
// The kernel row is exponentiated as a whole (vk.expNeg: portmath.Exp's
// values), into d2's row or a worker's buffer, then summed in order.
func (k *directKernels) pass(sigma float64, store bool) (sm, sc []float64) {
	n, nMix, d2 := k.n, k.nMix, k.d2
	sm, sc = make([]float64, n), make([]float64, n)
	den := 2 * sigma * sigma
	bufs := make([][]float64, max(1, k.workers))
	parallelRows(n, k.workers, func(w, lo, hi int) {
		for i := lo; i < hi; i++ {
			row := d2[i*n : (i+1)*n]
			kr := row
			if !store {
				if bufs[w] == nil {
					bufs[w] = make([]float64, n)
				}
				kr = bufs[w]
			}
			vk.expNeg(kr, row, den)
			var a, b float64
			for _, kv := range kr[:nMix] {
				a += kv
			}
			for _, kv := range kr[nMix:] {
				b += kv
			}
			sm[i], sc[i] = a, b
		}
	})
	return sm, sc
}

// runWith is run with the kernels from src.
func runWith(ctx context.Context, src kernelSource, n, nMix int, med float64, opt Options) (*Result, error) {
	nComp := n - nMix
	res := &Result{Scaling: opt.Scaling, N: nMix, M: nComp, MedianD2: med, SigmaMedian: math.Sqrt(med)}
	if math.IsInf(med, 0) {
		return nil, fmt.Errorf("kmpe: the median squared distance of the %d pooled rows is %v: the distances overflow", n, med)
	}
	if !(med > 0) {
		return nil, fmt.Errorf("kmpe: the median squared distance of the %d pooled rows is %v: more than half the pairs coincide, no kernel width", n, med)
	}
	delta := func(sm, sc []float64) float64 {
		var mm, mc, cc float64
		for i := range nMix {
			mm += sm[i]
			mc += sc[i]
		}
		for i := nMix; i < n; i++ {
			cc += sc[i]
		}
		fn, fm := float64(nMix), float64(nComp)
		return math.Sqrt(max(0, mm/(fn*fn)+cc/(fm*fm)-2*mc/(fn*fm)))
	}
	var sm, sc []float64 // the sums at the chosen width
	for s, f := range WidthFactors {
		res.Sigmas[s] = res.SigmaMedian * f
		m, c := src.sums(s, res.Sigmas[s])
		res.Deltas[s] = delta(m, c)
		if s == 0 || res.Deltas[s] > res.Deltas[res.SigmaIndex] {
			res.SigmaIndex, sm, sc = s, m, c
		}
		if err := context.Cause(ctx); err != nil {
			return nil, fmt.Errorf("kmpe: %w", err)
		}
	}
	res.Sigma = res.Sigmas[res.SigmaIndex]
	res.Delta = res.Deltas[res.SigmaIndex]
	if !(res.Delta > 0) {
		return nil, fmt.Errorf("kmpe: the mixture and component embeddings coincide (RKHS distance %v at every width)", res.Delta)
	}
	kmat := src.kernel(res.SigmaIndex, res.Sigma)
	ka, kb := make([]float64, n), make([]float64, n)
	for i := range n {
		ka[i] = sm[i] / float64(nMix)
		kb[i] = sc[i] / float64(nComp)
	}
	q := newQP(kmat, n, nMix, ka, kb, opt.Tol, opt.MaxIter, opt.Workers)
	memo := map[float64]float64{}
	dist := func(lambda float64) (float64, error) {
		if d, ok := memo[lambda]; ok {
			return d, nil
		}
		if err := context.Cause(ctx); err != nil {
			return 0, fmt.Errorf("kmpe: %w", err)
		}
		sol, err := q.solve(ctx, lambda)
		if err != nil {
			return 0, err
		}
		d := math.Sqrt(max(0, sol.squared))
		memo[lambda] = d
		res.Solves = append(res.Solves, Solve{Lambda: lambda, D: d, Squared: sol.squared,
			Iterations: sol.iterations, Steps: sol.steps, Fallback: sol.fallback, Gap: sol.gap, Support: sol.support})
		return d, nil
	}
	var err error
	if res.D100, err = dist(1); err != nil {
		return nil, err
	}
	if res.D105, err = dist(slopeStart); err != nil {
		return nil, err
	}
	res.BeginSlope = (res.D105 - res.D100) / (slopeStart - 1)
	res.Nu1 = (float64((1-nuWeight)*res.BeginSlope) + float64(nuWeight*res.Delta)) / res.Delta
	res.Nu2Raw = (1 / math.Sqrt(float64(min(nMix, nComp)))) / res.Delta
	res.Nu2 = res.Nu2Raw
	if res.Nu2Raw > nu2Max {
		res.Nu2, res.Nu2Replaced = res.Nu1, true
	}
	mpe := func(nu float64) (float64, []Step, error) {
		lo, hi := lambdaLo, lambdaHi
		var path []Step
		for hi-lo > bisectEps {
			m := float64((lo + hi) / 2) // rounded: arm64 would fuse its (exact) halving into m + eps/2
			dm, err := dist(m)
			if err != nil {
				return 0, nil, err
			}
			dp, err := dist(m + bisectEps/2)
			if err != nil {
				return 0, nil, err
			}
			st := Step{Lo: lo, Hi: hi, Mid: m, D: dm, DPlus: dp, Slope: (dp - dm) * (2 / bisectEps), Threshold: nu * res.Delta}
			st.Above = st.Slope > st.Threshold
			if st.Above {
				hi = m
			} else {
				lo = m
			}
			path = append(path, st)
		}
		return (lo + hi) / 2, path, nil
	}
	if res.Lambda1, res.Path1, err = mpe(res.Nu2); err != nil {
		return nil, err
	}
	if res.Lambda2, res.Path2, err = mpe(res.Nu1); err != nil {
		return nil, err
	}
	res.KM1 = (res.Lambda1 - 1) / res.Lambda1
	res.KM2 = (res.Lambda2 - 1) / res.Lambda2
	return res, nil
}
