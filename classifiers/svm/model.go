package svm

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/pueval/pueval/internal/oneclass"
	"gonum.org/v1/gonum/mat"
)

// Defaults of Params (LIBSVM's).
const (
	DefaultTol        = 1e-3
	DefaultCacheBytes = 200 << 20
)

// ErrOneClass is returned (wrapped) when a problem's instances hold a single
// class. It is oneclass.Err in this package's words: errors.Is matches it
// against the one-class error of any package.
var ErrOneClass = oneclass.New("training instances need at least one of each class")

// Stop reasons of a Model.
const (
	// StopConverged: the maximal KKT violation fell to the tolerance.
	StopConverged = "converged"
	// StopMaxIter: the iteration bound was reached first (the model is
	// usable but not optimal to the tolerance; LIBSVM warns likewise).
	StopMaxIter = "max-iter"
	// StopStalled: a step was too small to change either coefficient (the
	// kernel values dwarf the bounds: rescale the features), so the run
	// could only repeat itself; the model is that of the last step.
	StopStalled = "stalled"
)

// Params are the options of one C-SVC fit.
type Params struct {
	Kernel Kernel
	// C is the cost; instance t's bound is C_t = C W_t. C > 0.
	C float64
	// Gamma is the RBF kernel's width (> 0); 0 means ScaleGamma of the
	// problem's distinct rows (scikit-learn's gamma = "scale"). Ignored by
	// the linear kernel.
	Gamma float64
	// Tol is the stopping tolerance eps on the maximal violation
	// max_{I_up} -y_t G_t - min_{I_low} -y_t G_t; 0 = DefaultTol.
	Tol float64
	// CacheBytes bounds the kernel-row cache; 0 = DefaultCacheBytes. It
	// changes the work, never the result.
	CacheBytes int64
	// MaxIter bounds the SMO iterations; 0 = max(10^7, 100 n) (LIBSVM's
	// bound), n the number of instances.
	MaxIter int
	// Storage of the points (StorageAuto: sparse below SparseDensity). It
	// changes the work, never the result.
	Storage Storage
	// Shrinking enables LIBSVM's shrinking heuristic (on in
	// DefaultParams): less work per iteration once most instances sit at
	// a bound; the result is optimal to Tol either way, but not bit-equal.
	Shrinking bool
}

// DefaultParams returns a linear C-SVC with C = 1 and LIBSVM's tolerance,
// cache size and shrinking.
func DefaultParams() Params {
	return Params{Kernel: Linear, C: 1, Tol: DefaultTol, CacheBytes: DefaultCacheBytes, Shrinking: true}
}

// Validate reports every invalid field at once.
func (p Params) Validate() error {
	var errs []error
	if p.Kernel != Linear && p.Kernel != RBF {
		errs = append(errs, fmt.Errorf("kernel %d: want Linear or RBF", int(p.Kernel)))
	}
	if !(p.C > 0) || math.IsInf(p.C, 1) {
		errs = append(errs, fmt.Errorf("C = %v: want a finite number > 0", p.C))
	}
	if !(p.Gamma >= 0) || math.IsInf(p.Gamma, 1) {
		errs = append(errs, fmt.Errorf("gamma = %v: want a finite number >= 0 (0 = 1/(d var(X)))", p.Gamma))
	}
	if !(p.Tol >= 0) || math.IsInf(p.Tol, 1) {
		errs = append(errs, fmt.Errorf("tolerance = %v: want a finite number > 0 (0 = %v)", p.Tol, DefaultTol))
	}
	if p.CacheBytes < 0 {
		errs = append(errs, fmt.Errorf("cache bytes = %d: want >= 0 (0 = %d)", p.CacheBytes, DefaultCacheBytes))
	}
	if p.MaxIter < 0 {
		errs = append(errs, fmt.Errorf("max iterations = %d: want >= 0 (0 = LIBSVM's bound)", p.MaxIter))
	}
	if p.Storage < StorageAuto || p.Storage > StorageSparse {
		errs = append(errs, fmt.Errorf("storage %d: want StorageAuto, StorageDense or StorageSparse", int(p.Storage)))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	return nil
}

// Problem is a weighted binary training set. Instance t is the point
// X[Rows[t]] with label Y[t] and weight W[t]; a row of X may back several
// instances (Elkan-Noto weighting gives an unlabeled row a positive and a
// negative instance), whose kernel values are computed once.
type Problem struct {
	// X holds the points, one per row. It is read, never modified; the rows
	// used must be finite.
	X *mat.Dense
	// Rows are the rows of X of the instances; nil means every row, in
	// order.
	Rows []int
	// Y is each instance's label: true = +1, false = -1.
	Y []bool
	// W is each instance's weight (finite, > 0): C_t = C W[t]. nil means
	// weight 1 for all.
	W []float64
}

// Model is a trained C-SVC: f(x) = sum_t y_t alpha_t K(x_t, x) + B.
type Model struct {
	Kernel Kernel
	// Gamma is the RBF width used (resolved when Params.Gamma was 0).
	Gamma float64
	// B is the bias (LIBSVM's -rho).
	B float64
	// Alpha holds the dual coefficient of each instance, 0 <= Alpha[t] <=
	// C_t.
	Alpha []float64
	// Iter is the number of SMO iterations.
	Iter int
	// Stop is StopConverged, StopMaxIter or StopStalled.
	Stop string
	// Gap is the final maximal violation (<= the tolerance when
	// converged).
	Gap float64
	// SupportVectors counts the distinct rows with a nonzero coefficient.
	SupportVectors int
	// TrainError is the weighted fraction of training instances that the
	// model misclassifies (f >= 0 read as +1), sum_t W_t [sign f(x_t) !=
	// y_t] / sum_t W_t, from the solver's gradient (f(x_t) = y_t - F_t +
	// B), so it costs no kernel evaluation.
	TrainError float64
	// Sparse says whether the points were stored sparsely.
	Sparse bool
	// KernelValues counts the kernel values computed during training.
	KernelValues int64
	// Flops is a nominal count of floating-point operations of training:
	// 2 per multiply-add of the kernel values computed, 20 per
	// exponential, 10 per instance per iteration.
	Flops float64

	d    int
	w    []float64 // linear: sum_t beta_t x_t
	sv   *points   // RBF: the support rows
	coef []float64 // RBF: their summed beta
}

// D is the number of features the model expects.
func (m *Model) D() int { return m.d }

// Weights returns a copy of the linear model's weight vector w (f(x) = w.x
// + B), nil for an RBF model.
func (m *Model) Weights() []float64 {
	if m.w == nil {
		return nil
	}
	return append([]float64(nil), m.w...)
}

// ScaleGamma returns 1/(d var(X)) over the entries of the given rows of x
// (nil = all), scikit-learn's gamma = "scale", or 1 when that variance is
// 0 (scikit-learn's choice too); +Inf when the variance is so small
// (subnormal) that the quotient overflows. The variance is the population
// one (mean of squared deviations from the mean), summed in row-major
// order.
func ScaleGamma(x *mat.Dense, rows []int) float64 {
	r, d := x.Dims()
	if rows == nil {
		rows = make([]int, r)
		for i := range rows {
			rows[i] = i
		}
	}
	raw := x.RawMatrix()
	sum := 0.0
	for _, i := range rows {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			sum += v
		}
	}
	cnt := float64(len(rows) * d)
	mean := sum / cnt
	ss := 0.0
	for _, i := range rows {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			e := v - mean
			ss += float64(e * e)
		}
	}
	v := ss / cnt
	if !(v > 0) || math.IsInf(v, 0) {
		return 1
	}
	return 1 / (float64(d) * v)
}

// Train fits a C-SVC to prob: SMO with second-order working-set selection
// (see the package documentation). A Model that stopped at the iteration
// bound or stalled is returned with Stop = StopMaxIter or StopStalled and
// no error. It returns an
// error, never panics, on bad data or options, and one wrapping ctx's cause
// when ctx ends first.
func Train(ctx context.Context, prob Problem, p Params) (*Model, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Tol == 0 {
		p.Tol = DefaultTol
	}
	if p.CacheBytes == 0 {
		p.CacheBytes = DefaultCacheBytes
	}
	if prob.X == nil {
		return nil, errors.New("svm: nil feature matrix")
	}
	r, d := prob.X.Dims()
	rows := prob.Rows
	if rows == nil {
		rows = make([]int, r)
		for i := range rows {
			rows[i] = i
		}
	}
	n := len(rows)
	if len(prob.Y) != n || (prob.W != nil && len(prob.W) != n) {
		return nil, fmt.Errorf("svm: %d instances, %d labels, %d weights: want equal counts (or nil weights)", n, len(prob.Y), len(prob.W))
	}
	if d == 0 {
		return nil, errors.New("svm: no features")
	}
	// Distinct rows become the points, in order of first use.
	ptOf := make(map[int]int32, n)
	pt := make([]int32, n)
	var ptRows []int
	for t, row := range rows {
		if row < 0 || row >= r {
			return nil, fmt.Errorf("svm: instance %d: row %d out of [0, %d)", t, row, r)
		}
		k, ok := ptOf[row]
		if !ok {
			k = int32(len(ptRows))
			ptOf[row] = k
			ptRows = append(ptRows, row)
		}
		pt[t] = k
	}
	if err := checkFinite(prob.X, ptRows); err != nil {
		return nil, fmt.Errorf("svm: %w", err)
	}
	s := &smo{
		pt: pt, y: make([]float64, n), lo: make([]float64, n), hi: make([]float64, n),
		beta: make([]float64, n), f: make([]float64, n), tol: p.Tol, shrinking: p.Shrinking,
	}
	npos := 0
	for t := range n {
		w := 1.0
		if prob.W != nil {
			w = prob.W[t]
		}
		c := p.C * w
		if !(w > 0) || math.IsInf(w, 1) || !(c > 0) || math.IsInf(c, 1) {
			return nil, fmt.Errorf("svm: instance %d: weight %v (bound C w = %v): want a finite weight > 0 with a finite, positive C w", t, w, c)
		}
		if prob.Y[t] {
			s.y[t], s.hi[t] = 1, c
			npos++
		} else {
			s.y[t], s.lo[t] = -1, -c
		}
		// beta = 0: F = y - K beta = y.
		s.f[t] = s.y[t]
	}
	if npos == 0 || npos == n {
		return nil, fmt.Errorf("svm: %d of %d instances positive: %w", npos, n, ErrOneClass)
	}

	pts := gather(prob.X, ptRows, p.Storage)
	if err := checkScale(pts, s, p.Kernel); err != nil {
		return nil, err
	}
	kf := kernelFunc{kind: p.Kernel}
	if p.Kernel == RBF {
		kf.gamma = p.Gamma
		if kf.gamma == 0 {
			kf.gamma = ScaleGamma(prob.X, ptRows)
			if math.IsInf(kf.gamma, 1) {
				return nil, errors.New("svm: gamma = 1/(d var X) overflows (the variance of the features is below 1e-308): rescale the features")
			}
		}
	}
	s.cache = newKernelCache(pts, kf, p.CacheBytes)
	kd := s.cache.diag()
	s.ident = len(ptRows) == n
	s.kd = make([]float64, n)
	for t, q := range pt {
		s.kd[t] = kd[q]
	}
	maxIter := p.MaxIter
	if maxIter == 0 {
		maxIter = max(10_000_000, 100*n)
	}
	converged, gap, err := s.solve(ctx, maxIter)
	if err != nil {
		return nil, err
	}

	m := &Model{
		Kernel: p.Kernel, Gamma: kf.gamma, B: s.bias(), Alpha: make([]float64, n),
		Iter: s.iters, Stop: StopConverged, Gap: gap, Sparse: pts.sparse(),
		KernelValues: s.cache.values, d: d,
	}
	switch {
	case s.stalled:
		m.Stop = StopStalled
	case !converged:
		m.Stop = StopMaxIter
	}
	m.Flops = float64(2*float64(s.cache.madds+s.reconMadds)) + float64(20*float64(s.cache.exps)) + float64(10*float64(n)*float64(s.iters))
	wsum, werr := 0.0, 0.0
	for t, yt := range s.y {
		w := s.hi[t] - s.lo[t] // C W_t
		wsum += w
		if (yt-s.f[t]+m.B >= 0) != (yt > 0) {
			werr += w
		}
	}
	m.TrainError = werr / wsum
	// Coefficients per point, summed over its instances in instance order.
	coef := make([]float64, pts.n)
	for t, b := range s.beta {
		m.Alpha[t] = math.Abs(b)
		coef[pt[t]] += b
	}
	var sv []int
	for k, c := range coef {
		if c != 0 {
			sv = append(sv, k)
		}
	}
	m.SupportVectors = len(sv)
	if p.Kernel == Linear {
		// w = sum_p coef_p x_p, each w_k summed over the points in order.
		m.w = make([]float64, d)
		buf := make([]float64, d)
		for _, k := range sv {
			c := coef[k]
			if pts.sparse() {
				for q := pts.start[k]; q < pts.start[k+1]; q++ {
					m.w[pts.idx[q]] += float64(c * pts.val[q])
				}
				continue
			}
			for q, v := range pts.row(k, buf) {
				m.w[q] += float64(c * v)
			}
		}
		return m, nil
	}
	svRows := make([]int, len(sv))
	m.coef = make([]float64, len(sv))
	for q, k := range sv {
		svRows[q] = ptRows[k]
		m.coef[q] = coef[k]
	}
	st := StorageDense
	if pts.sparse() {
		st = StorageSparse
	}
	m.sv = gather(prob.X, svRows, st)
	return m, nil
}

// maxScale bounds the magnitudes the solver may meet: |F_t| <= 1 +
// max|K| sum_t C_t must stay far from overflow (sums of n of them, squares
// in the working-set selection yield at most -Inf, never NaN).
const maxScale = 1e290

// checkScale rejects problems whose kernel values or gradients could
// overflow float64: the largest squared norm (for RBF, the distances are
// sums of two of them), times sum_t C_t for the linear kernel (|K| <=
// max ||x||^2), must stay below maxScale.
func checkScale(pts *points, s *smo, k Kernel) error {
	maxSq := 0.0
	for _, v := range pts.sq {
		maxSq = max(maxSq, v)
	}
	sumC := 0.0
	for t := range s.hi {
		sumC += s.hi[t] - s.lo[t]
	}
	if !(maxSq <= maxScale) {
		return fmt.Errorf("svm: a squared row norm is %v (over %g): rescale the features", maxSq, maxScale)
	}
	if !(sumC <= maxScale) {
		return fmt.Errorf("svm: the bounds C_t sum to %v (over %g): lower C or the weights", sumC, maxScale)
	}
	if k == Linear && !(maxSq*sumC <= maxScale) {
		return fmt.Errorf("svm: the largest squared row norm %v times the sum of the bounds C_t %v exceeds %g: rescale the features", maxSq, sumC, maxScale)
	}
	return nil
}

// checkFinite returns an error naming the first NaN or infinite entry of the
// given rows.
func checkFinite(x *mat.Dense, rows []int) error {
	_, d := x.Dims()
	raw := x.RawMatrix()
	for _, i := range rows {
		for k, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("feature %d of row %d is %v: features must be finite", k, i, v)
			}
		}
	}
	return nil
}

// Decision sets out[t] = f(X[rows[t]]) (rows nil = every row of x, in
// order). The sum over support vectors runs in training order, so a row's
// value does not depend on the other rows asked for.
func (m *Model) Decision(x *mat.Dense, rows []int, out []float64) error {
	if x == nil {
		return errors.New("svm: decision: nil feature matrix")
	}
	r, d := x.Dims()
	if d != m.d {
		return fmt.Errorf("svm: decision: %d features, the model has %d", d, m.d)
	}
	if rows == nil {
		rows = make([]int, r)
		for i := range rows {
			rows[i] = i
		}
	}
	if len(out) != len(rows) {
		return fmt.Errorf("svm: decision: %d outputs for %d rows", len(out), len(rows))
	}
	for t, i := range rows {
		if i < 0 || i >= r {
			return fmt.Errorf("svm: decision: row %d (position %d) out of [0, %d)", i, t, r)
		}
	}
	if err := checkFinite(x, rows); err != nil {
		return fmt.Errorf("svm: decision: %w", err)
	}
	raw := x.RawMatrix()
	if m.w != nil {
		for t, i := range rows {
			f := dotDense(m.w, raw.Data[i*raw.Stride:i*raw.Stride+d]) + m.B
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("svm: decision: row %d: the decision value overflows (%v): rescale the features", i, f)
			}
			out[t] = f
		}
		return nil
	}
	st := StorageDense
	if m.sv.sparse() {
		st = StorageSparse
	}
	kf := kernelFunc{kind: m.Kernel, gamma: m.Gamma}
	ns := m.sv.n
	js := make([]int32, ns)
	for q := range js {
		js[q] = int32(q)
	}
	dots := make([]float64, ns)
	buf := make([]float64, d)
	// A batch of rows at a time bounds the copy's memory.
	const batch = 256
	for lo := 0; lo < len(rows); lo += batch {
		hi := min(lo+batch, len(rows))
		q := gather(x, rows[lo:hi], st)
		for t := range hi - lo {
			dotsTo(q, t, m.sv, js, dots, buf)
			sum := 0.0
			for s, c := range m.coef {
				sum += float64(c * kf.value(dots[s], q.sq[t], m.sv.sq[s]))
			}
			out[lo+t] = sum + m.B
		}
	}
	return nil
}
