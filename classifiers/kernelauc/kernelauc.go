package kernelauc

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/pueval/pueval/internal/linalg"
	"github.com/pueval/pueval/internal/portmath"
	"gonum.org/v1/gonum/mat"
)

// Method names, as recorded in Model.Method.
const (
	MethodPUAUC = "pu-auc"
	MethodPUAUL = "pu-aul"
)

// Defaults of Options (pywsl's defaults).
const (
	DefaultCentres = 200
	DefaultFolds   = 5
)

// DefaultSigmaFactors is pywsl-Python's width grid relative to the median
// heuristic: sigma = sqrt(median squared distance) x logspace(-1, 1, 11).
func DefaultSigmaFactors() []float64 { return logspace(-1, 1, 11) }

// DefaultLambdas is the regularisation grid logspace(-3, 1, 10) of pywsl
// (MATLAB and Python alike).
func DefaultLambdas() []float64 { return logspace(-3, 1, 10) }

// logspace returns 10^(lo + k (hi - lo)/(num - 1)), k = 0..num-1, as
// numpy.logspace (and MATLAB's logspace) compute it.
func logspace(lo, hi float64, num int) []float64 {
	out := make([]float64, num)
	step := (hi - lo) / float64(num-1)
	for k := range out {
		out[k] = portmath.Pow(10, lo+float64(float64(k)*step))
	}
	return out
}

// Options configures FitPUAUC and FitPUAUL. The zero value gives the
// defaults above.
type Options struct {
	// Centres is the maximum number of Gaussian centres b; b = min(Centres,
	// n) rows are drawn without replacement from the n = n_L + n_U training
	// rows. 0 means DefaultCentres (200).
	Centres int
	// Sigmas, when not nil, is the absolute width grid (in the units of the
	// standardised features, or of the raw ones with Raw). Leave nil to use
	// SigmaFactors x sqrt(median squared row-centre distance).
	Sigmas []float64
	// SigmaFactors multiplies sqrt(median squared distance) when Sigmas is
	// nil; nil means DefaultSigmaFactors (logspace(-1, 1, 11)).
	SigmaFactors []float64
	// Lambdas is the ridge grid; nil means DefaultLambdas
	// (logspace(-3, 1, 10)).
	Lambdas []float64
	// Folds is the number of cross-validation folds (0 means 5). With a
	// single (sigma, lambda) pair no cross-validation is run.
	Folds int
	// Raw skips the standardisation: the features are used as given.
	// By default every column is z-scored with the mean and population
	// standard deviation of the n training rows (constant columns are
	// centred only) and the model applies the same map when scoring.
	Raw bool
	// Workers is the number of goroutines over the width grid; 0 or 1 runs
	// sequentially. Results do not depend on it.
	Workers int
}

type resolved struct {
	centres      int
	sigmas       []float64
	sigmaFactors []float64
	lambdas      []float64
	folds        int
	raw          bool
	workers      int
}

func positiveFinite(name string, v []float64) error {
	if len(v) == 0 {
		return fmt.Errorf("kernelauc: %s is empty", name)
	}
	for i, x := range v {
		if !(x > 0) || math.IsInf(x, 0) {
			return fmt.Errorf("kernelauc: %s[%d] = %v, want a finite value > 0", name, i, x)
		}
	}
	return nil
}

func (o Options) resolve() (resolved, error) {
	r := resolved{centres: o.Centres, folds: o.Folds, raw: o.Raw, workers: o.Workers}
	if r.centres < 0 {
		return r, fmt.Errorf("kernelauc: Centres = %d < 0", o.Centres)
	}
	if r.centres == 0 {
		r.centres = DefaultCentres
	}
	if r.folds == 0 {
		r.folds = DefaultFolds
	}
	if r.folds < 2 {
		return r, fmt.Errorf("kernelauc: Folds = %d, want >= 2", o.Folds)
	}
	if r.workers < 0 {
		return r, fmt.Errorf("kernelauc: Workers = %d < 0", o.Workers)
	}
	if r.workers == 0 {
		r.workers = 1
	}
	if o.Sigmas != nil && o.SigmaFactors != nil {
		return r, errors.New("kernelauc: set Sigmas or SigmaFactors, not both")
	}
	if o.Sigmas != nil {
		if err := positiveFinite("Sigmas", o.Sigmas); err != nil {
			return r, err
		}
		r.sigmas = slices.Clone(o.Sigmas)
	} else {
		r.sigmaFactors = DefaultSigmaFactors()
		if o.SigmaFactors != nil {
			if err := positiveFinite("SigmaFactors", o.SigmaFactors); err != nil {
				return r, err
			}
			r.sigmaFactors = slices.Clone(o.SigmaFactors)
		}
	}
	r.lambdas = DefaultLambdas()
	if o.Lambdas != nil {
		if err := positiveFinite("Lambdas", o.Lambdas); err != nil {
			return r, err
		}
		r.lambdas = slices.Clone(o.Lambdas)
	}
	return r, nil
}

// Model is a fitted f(x) = sum_l w_l exp(-||z(x) - c_l||^2 / (2 sigma^2)),
// z the standardisation of the fit (identity with Options.Raw).
type Model struct {
	Method string  // MethodPUAUC or MethodPUAUL
	Prior  float64 // theta given to PU_AUC (0 for PU_AUL)
	NL, NU int     // training rows: labeled positives, unlabeled

	Sigma, Lambda           float64 // the selected pair
	SigmaIndex, LambdaIndex int     // its place in Sigmas, Lambdas
	Sigmas, Lambdas         []float64
	// MedianD2 is the median squared distance between the n training rows
	// and the b centres (standardised units), the scale of the default
	// width grid.
	MedianD2 float64
	// CV[s][l] is the mean over folds of the held-out criterion at
	// (Sigmas[s], Lambdas[l]): the PU zero-one AUC risk (PU_AUC, smaller is
	// better) or AUL^PU (PU_AUL, larger is better); NaN where the linear
	// system could not be solved. Nil when the grid has one pair.
	CV [][]float64

	W       []float64  // weights, one per centre
	Centres *mat.Dense // b x d, standardised coordinates
	Mean    []float64  // per-column shift of the standardisation
	Scale   []float64  // per-column divisor of the standardisation
}

// Dim is the number of input features.
func (m *Model) Dim() int { return len(m.Mean) }

// Score returns f(x) for one row of raw features.
func (m *Model) Score(x []float64) (float64, error) {
	if m == nil || m.Centres == nil {
		return 0, errors.New("kernelauc: Score on an unfitted model")
	}
	if len(x) != m.Dim() {
		return 0, fmt.Errorf("kernelauc: Score: row has %d features, model %d", len(x), m.Dim())
	}
	z := make([]float64, len(x))
	for k, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("kernelauc: Score: feature %d is %v", k, v)
		}
		z[k] = (v - m.Mean[k]) / m.Scale[k]
	}
	inv := 1 / (2 * m.Sigma * m.Sigma)
	b, d := m.Centres.Dims()
	raw := m.Centres.RawMatrix()
	var f float64
	for l := range b {
		c := raw.Data[l*raw.Stride : l*raw.Stride+d]
		var s float64
		for k, zk := range z {
			t := zk - c[k]
			s += float64(t * t)
		}
		f += float64(m.W[l] * portmath.Exp(-s*inv))
	}
	return f, nil
}

// ScoreAll returns f for every row of X (raw features).
func (m *Model) ScoreAll(X *mat.Dense) ([]float64, error) {
	if X == nil {
		return nil, errors.New("kernelauc: ScoreAll: nil matrix")
	}
	r, c := X.Dims()
	if c != m.Dim() {
		return nil, fmt.Errorf("kernelauc: ScoreAll: %d features, model %d", c, m.Dim())
	}
	out := make([]float64, r)
	for i := range r {
		v, err := m.Score(X.RawRowView(i))
		if err != nil {
			return nil, fmt.Errorf("kernelauc: ScoreAll row %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// FitPUAUC fits PU_AUC (Sakai, Niu, Sugiyama 2018, squared pairwise loss,
// eta = 1): P holds the labeled positives, U the unlabeled rows, prior the
// class prior theta of U (the fraction of positives among U), in (0, 1).
// Centres and folds are drawn from rng; the same rng state gives the same
// model.
func FitPUAUC(P, U *mat.Dense, prior float64, opts Options, rng *rand.Rand) (*Model, error) {
	if !(prior > 0 && prior < 1) {
		return nil, fmt.Errorf("kernelauc: PU_AUC prior %v outside (0, 1)", prior)
	}
	m, err := fit(MethodPUAUC, P, U, prior, opts, rng, nil)
	if err != nil {
		return nil, fmt.Errorf("kernelauc: PU_AUC: %w", err)
	}
	return m, nil
}

// FitPUAUL fits PU_AUL (the AUL paper's analogue of PU_AUC): squared loss on
// the pairs (i in L, j in L u U), no prior. L holds the labeled positives,
// U the unlabeled rows.
func FitPUAUL(L, U *mat.Dense, opts Options, rng *rand.Rand) (*Model, error) {
	m, err := fit(MethodPUAUL, L, U, 0, opts, rng, nil)
	if err != nil {
		return nil, fmt.Errorf("kernelauc: PU_AUL: %w", err)
	}
	return m, nil
}

// stack copies L then U into one row-major slice, checking shapes and
// finiteness.
func stack(L, U *mat.Dense) (data []float64, nL, nU, d int, err error) {
	if L == nil || U == nil {
		return nil, 0, 0, 0, errors.New("nil matrix")
	}
	if L.IsEmpty() {
		return nil, 0, 0, 0, errors.New("no labeled rows")
	}
	if U.IsEmpty() {
		return nil, 0, 0, 0, errors.New("no unlabeled rows")
	}
	nL, d = L.Dims()
	nU, dU := U.Dims()
	if d != dU {
		return nil, 0, 0, 0, fmt.Errorf("labeled rows have %d features, unlabeled %d", d, dU)
	}
	data = make([]float64, 0, (nL+nU)*d)
	for _, M := range []*mat.Dense{L, U} {
		r, _ := M.Dims()
		for i := range r {
			row := M.RawRowView(i)
			for k, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, 0, 0, 0, fmt.Errorf("feature %d of a row is %v", k, v)
				}
			}
			data = append(data, row...)
		}
	}
	return data, nL, nU, d, nil
}

// standardise z-scores the columns of data (n x d) in place with the mean
// and population standard deviation; a column with standard deviation 0 is
// only centred.
func standardise(data []float64, n, d int) (mean, scale []float64) {
	mean = make([]float64, d)
	scale = make([]float64, d)
	for i := range n {
		for k := range d {
			mean[k] += data[i*d+k]
		}
	}
	for k := range d {
		mean[k] /= float64(n)
	}
	for i := range n {
		for k := range d {
			t := data[i*d+k] - mean[k]
			scale[k] += float64(t * t)
		}
	}
	for k := range d {
		s := math.Sqrt(scale[k] / float64(n))
		if !(s > 0) || math.IsInf(s, 0) {
			s = 1
		}
		scale[k] = s
	}
	for i := range n {
		for k := range d {
			data[i*d+k] = (data[i*d+k] - mean[k]) / scale[k]
		}
	}
	return mean, scale
}

// drawCentres returns b distinct row indices of 0..n-1 in draw order
// (partial Fisher-Yates on rng).
func drawCentres(n, b int, rng *rand.Rand) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for i := range b {
		j := i + rng.IntN(n-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	return idx[:b:b]
}

// assignFolds gives each of m rows a fold in 0..k-1: the sizes differ by at
// most one (fold floor(i k/m) for the i-th row of a random permutation), as
// pywsl's cv_index.
func assignFolds(m, k int, rng *rand.Rand) []int {
	perm := rng.Perm(m)
	f := make([]int, m)
	for i, p := range perm {
		f[p] = i * k / m
	}
	return f
}

// sqDists returns the n x b squared Euclidean distances between the rows of
// z (n x d) and the rows centres (indices into z).
func sqDists(z []float64, n, d int, centres []int) []float64 {
	b := len(centres)
	D := make([]float64, n*b)
	for i := range n {
		x := z[i*d : (i+1)*d]
		for l, c := range centres {
			y := z[c*d : (c+1)*d]
			var s float64
			for k := range d {
				t := x[k] - y[k]
				s += float64(t * t)
			}
			D[i*b+l] = s
		}
	}
	return D
}

// median is numpy.median: the mean of the two middle values for an even
// count. v must not hold NaN; it is not modified.
func median(v []float64) float64 {
	s := slices.Clone(v)
	n := len(s)
	hi := selectKth(s, n/2)
	if n%2 == 1 {
		return hi
	}
	// After selection s[:n/2] holds the n/2 smallest values.
	return (slices.Max(s[:n/2]) + hi) / 2
}

// selectKth reorders s so that s[k] is the value a sort would put there,
// with s[:k] <= s[k] <= s[k+1:], and returns it (Hoare's quickselect with a
// median-of-three pivot; a range that does not shrink fast enough is
// sorted instead).
func selectKth(s []float64, k int) float64 {
	lo, hi := 0, len(s)-1
	for iter := 0; lo < hi; iter++ {
		if iter > 64 {
			slices.Sort(s[lo : hi+1])
			break
		}
		mid := lo + (hi-lo)/2
		a, b, c := s[lo], s[mid], s[hi]
		p := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for s[i] < p {
				i++
			}
			for s[j] > p {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		// Now s[lo..j] <= p <= s[i..hi] and every value strictly between
		// j and i equals p.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return s[k]
		}
	}
	return s[k]
}

// draws fixes the random choices of a fit (tests against the numpy
// reference): centre row indices and fold labels.
type draws struct {
	centres      []int
	foldL, foldU []int
}

// fit is FitPUAUC / FitPUAUL; fixed, when not nil, replaces the draws from
// rng. The rng is used in this order: b centres (partial Fisher-Yates over
// the n rows, labeled first), then the labeled rows' folds, then the
// unlabeled rows' folds (each a permutation).
func fit(method string, L, U *mat.Dense, prior float64, opts Options, rng *rand.Rand, fixed *draws) (*Model, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if rng == nil && fixed == nil {
		return nil, errors.New("nil rng")
	}
	z, nL, nU, d, err := stack(L, U)
	if err != nil {
		return nil, err
	}
	n := nL + nU
	var mean, scale []float64
	if o.raw {
		mean, scale = make([]float64, d), make([]float64, d)
		for k := range scale {
			scale[k] = 1
		}
	} else {
		mean, scale = standardise(z, n, d)
	}
	b := min(o.centres, n)
	var centres []int
	if fixed != nil {
		centres = fixed.centres
		b = len(centres)
	} else {
		centres = drawCentres(n, b, rng)
	}
	D := sqDists(z, n, d, centres)
	med := median(D)
	sigmas := o.sigmas
	if sigmas == nil {
		if !(med > 0) {
			return nil, errors.New("median squared distance to the centres is 0 (too many identical rows); give Sigmas")
		}
		sigmas = make([]float64, len(o.sigmaFactors))
		for i, f := range o.sigmaFactors {
			sigmas[i] = f * math.Sqrt(med)
		}
	}
	e := &engine{method: method, prior: prior, D: D, n: n, nL: nL, nU: nU, b: b}
	var foldL, foldU []int
	if len(sigmas)*len(o.lambdas) > 1 {
		if nL < 2*o.folds {
			return nil, fmt.Errorf("%d labeled rows, need >= %d for %d-fold cross-validation (2 per held-out fold)", nL, 2*o.folds, o.folds)
		}
		if nU < o.folds {
			return nil, fmt.Errorf("%d unlabeled rows, need >= %d for %d-fold cross-validation", nU, o.folds, o.folds)
		}
		if fixed != nil {
			foldL, foldU = fixed.foldL, fixed.foldU
		} else {
			foldL = assignFolds(nL, o.folds, rng)
			foldU = assignFolds(nU, o.folds, rng)
		}
	}
	m, err := e.run(sigmas, o.lambdas, foldL, foldU, o.folds, o.workers)
	if err != nil {
		return nil, err
	}
	m.Prior = prior
	m.MedianD2 = med
	m.Mean, m.Scale = mean, scale
	C := mat.NewDense(b, d, nil)
	for l, c := range centres {
		C.SetRow(l, z[c*d:(c+1)*d])
	}
	m.Centres = C
	return m, nil
}

// engine holds the squared distances of the n training rows (labeled rows
// 0..nL-1, unlabeled nL..n-1) to the b centres.
type engine struct {
	method string
	prior  float64
	D      []float64 // n x b
	n      int
	nL, nU int
	b      int
}

// basisT returns the b x len(rows) transposed basis matrix of the rows:
// out[l*m + r] = exp(-D[rows[r], l] / (2 sigma^2)), computed as
// portmath.Exp(D[rows[r], l] c), c = -inv, inv = 1/(2 sigma^2) (D c is
// the product (-D) inv exactly: negation is exact), a row at a time by
// linalg.ExpScaled's vector kernels.
func (e *engine) basisT(sigma float64, rows []int) []float64 {
	m := len(rows)
	b := e.b
	c := -(1 / (2 * sigma * sigma))
	out := make([]float64, b*m)
	row := make([]float64, b)
	for r, i := range rows {
		linalg.ExpScaled(row, e.D[i*b:(i+1)*b], c)
		for l, v := range row {
			out[l*m+r] = v
		}
	}
	return out
}

// moments returns S = K'K (b x b, full) and v = K'1 for the rows of the
// transposed basis Kt (b x m).
func (e *engine) moments(Kt []float64, m int) (S, v []float64) {
	b := e.b
	S = make([]float64, b*b)
	v = make([]float64, b)
	if m == 0 {
		return S, v
	}
	linalg.Gram(Kt, b, m, S)
	for i := range b {
		var s float64
		for _, x := range Kt[i*m : (i+1)*m] {
			s += x
		}
		v[i] = s
	}
	return S, v
}

// system assembles the b x b matrix and right-hand side of the method's
// normal equations from the labeled and unlabeled sums S = K'K, v = K'1
// over nL and nU rows:
//
//	PU_AUC: H = (Kpu - theta Kpp)/(1 - theta), h = (m_P - m_U)/(1 - theta),
//	        Kpu = H_P - m_P m_U' - m_U m_P' + H_U, Kpp = 2 H_P - 2 m_P m_P';
//	PU_AUL: H = H_L - m_L m_A' - m_A m_L' + H_A, h = m_L - m_A, A = L u U;
//
// H_X = S_X/n_X, m_X = v_X/n_X.
func (e *engine) system(SL, vL []float64, nL int, SU, vU []float64, nU int) (H, h []float64) {
	b := e.b
	H = make([]float64, b*b)
	h = make([]float64, b)
	fl, fu := float64(nL), float64(nU)
	mL := make([]float64, b)
	mU := make([]float64, b)
	for i := range b {
		mL[i] = vL[i] / fl
		mU[i] = vU[i] / fu
	}
	switch e.method {
	case MethodPUAUC:
		th := e.prior
		c := 1 / (1 - th)
		for i := range b {
			for j := range b {
				hp := SL[i*b+j] / fl
				hu := SU[i*b+j] / fu
				kpu := hp - float64(mL[i]*mU[j]) - float64(mU[i]*mL[j]) + hu
				kpp := float64(2*hp) - float64(2*mL[i]*mL[j])
				H[i*b+j] = (kpu - float64(th*kpp)) * c
			}
			h[i] = (mL[i] - mU[i]) * c
		}
	default: // MethodPUAUL
		fa := float64(nL + nU)
		mA := make([]float64, b)
		for i := range b {
			mA[i] = (vL[i] + vU[i]) / fa
		}
		for i := range b {
			for j := range b {
				hl := SL[i*b+j] / fl
				ha := (SL[i*b+j] + SU[i*b+j]) / fa
				H[i*b+j] = hl - float64(mL[i]*mA[j]) - float64(mA[i]*mL[j]) + ha
			}
			h[i] = mL[i] - mA[i]
		}
	}
	return H, h
}

// solve returns w = (H + lambda I)^-1 h: Cholesky when H + lambda I is
// positive definite (always for PU_AUL), else Gaussian elimination with
// partial pivoting (the PU_AUC matrix can be indefinite), both
// internal/linalg's, in a fixed order. No condition number is estimated (it
// would cost about as much as the factorisation); ok is false when a pivot
// is exactly zero or w is not finite. H must be symmetric. A (b x b) is
// the factor's scratch, overwritten.
func solve(H, h []float64, b int, lambda float64, A []float64) (w []float64, ok bool) {
	A = A[:b*b]
	copy(A, H)
	for i := range b {
		A[i*b+i] += lambda
	}
	w = slices.Clone(h)
	if linalg.Cholesky(A, b) {
		linalg.CholeskySolve(A, b, w)
	} else {
		copy(A, H)
		for i := range b {
			A[i*b+i] += lambda
		}
		if !linalg.LUSolve(A, b, w) {
			return nil, false
		}
	}
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
	}
	return w, true
}

// criterion is the held-out model-selection value of the method: the PU
// zero-one AUC risk (PU_AUC) or AUL^PU (PU_AUL).
func (e *engine) criterion(gL, gU []float64) float64 {
	if e.method == MethodPUAUC {
		return puAUCRisk(gL, gU, e.prior)
	}
	return aulPU(gL, gU)
}

// better reports whether criterion value a beats the incumbent best.
func (e *engine) better(a, best float64) bool {
	if math.IsNaN(a) {
		return false
	}
	if math.IsNaN(best) {
		return true
	}
	if e.method == MethodPUAUC {
		return a < best
	}
	return a > best
}

// cvRow fills row[l] with the mean held-out criterion at (sigma,
// lambdas[l]) over the folds.
func (e *engine) cvRow(sigma float64, lambdas []float64, rowsL, rowsU [][]int, row []float64) {
	k := len(rowsL)
	KtL := make([][]float64, k)
	KtU := make([][]float64, k)
	SL := make([][]float64, k)
	vL := make([][]float64, k)
	SU := make([][]float64, k)
	vU := make([][]float64, k)
	for f := range k {
		KtL[f] = e.basisT(sigma, rowsL[f])
		KtU[f] = e.basisT(sigma, rowsU[f])
		SL[f], vL[f] = e.moments(KtL[f], len(rowsL[f]))
		SU[f], vU[f] = e.moments(KtU[f], len(rowsU[f]))
	}
	b := e.b
	clear(row)
	A := make([]float64, b*b) // solve's scratch, one per row of the grid
	for f := range k {
		trSL := make([]float64, b*b)
		trSU := make([]float64, b*b)
		trvL := make([]float64, b)
		trvU := make([]float64, b)
		var nL, nU int
		for g := range k {
			if g == f {
				continue
			}
			for i := range trSL {
				trSL[i] += SL[g][i]
				trSU[i] += SU[g][i]
			}
			for i := range b {
				trvL[i] += vL[g][i]
				trvU[i] += vU[g][i]
			}
			nL += len(rowsL[g])
			nU += len(rowsU[g])
		}
		H, h := e.system(trSL, trvL, nL, trSU, trvU, nU)
		for li, lam := range lambdas {
			w, ok := solve(H, h, b, lam, A)
			if !ok {
				row[li] = math.NaN()
				continue
			}
			gL := linalg.TransMulVec(KtL[f], b, len(rowsL[f]), w) // K w
			gU := linalg.TransMulVec(KtU[f], b, len(rowsU[f]), w)
			// Accumulated as MATLAB's score_table += loss/n_fold, so
			// values that are equal as rationals round alike.
			row[li] += e.criterion(gL, gU) / float64(k)
		}
	}
}

// run cross-validates over the grid (when it has more than one pair),
// selects the best pair and refits on all rows.
func (e *engine) run(sigmas, lambdas []float64, foldL, foldU []int, k, workers int) (*Model, error) {
	m := &Model{
		Method: e.method, NL: e.nL, NU: e.nU,
		Sigmas: slices.Clone(sigmas), Lambdas: slices.Clone(lambdas),
	}
	if len(sigmas)*len(lambdas) > 1 {
		rowsL := make([][]int, k)
		rowsU := make([][]int, k)
		for i, f := range foldL {
			rowsL[f] = append(rowsL[f], i)
		}
		for i, f := range foldU {
			rowsU[f] = append(rowsU[f], e.nL+i)
		}
		m.CV = make([][]float64, len(sigmas))
		for s := range m.CV {
			m.CV[s] = make([]float64, len(lambdas))
		}
		var wg sync.WaitGroup
		next := make(chan int)
		for range min(workers, len(sigmas)) {
			wg.Go(func() {
				for s := range next {
					e.cvRow(sigmas[s], lambdas, rowsL, rowsU, m.CV[s])
				}
			})
		}
		for s := range sigmas {
			next <- s
		}
		close(next)
		wg.Wait()
		// The first best in MATLAB's column-major order of the
		// (sigma, lambda) table: lambda outer, sigma inner.
		best := math.NaN()
		for l := range lambdas {
			for s := range sigmas {
				if e.better(m.CV[s][l], best) {
					best = m.CV[s][l]
					m.SigmaIndex, m.LambdaIndex = s, l
				}
			}
		}
		if math.IsNaN(best) {
			return nil, errors.New("no (sigma, lambda) pair gave a solvable system in cross-validation")
		}
	}
	m.Sigma, m.Lambda = sigmas[m.SigmaIndex], lambdas[m.LambdaIndex]
	w, err := e.weights(m.Sigma, m.Lambda)
	if err != nil {
		return nil, err
	}
	m.W = w
	return m, nil
}

// weights solves the method's system on all training rows.
func (e *engine) weights(sigma, lambda float64) ([]float64, error) {
	rowsL := make([]int, e.nL)
	for i := range rowsL {
		rowsL[i] = i
	}
	rowsU := make([]int, e.nU)
	for i := range rowsU {
		rowsU[i] = e.nL + i
	}
	SL, vL := e.moments(e.basisT(sigma, rowsL), e.nL)
	SU, vU := e.moments(e.basisT(sigma, rowsU), e.nU)
	H, h := e.system(SL, vL, e.nL, SU, vU, e.nU)
	w, ok := solve(H, h, e.b, lambda, make([]float64, e.b*e.b))
	if !ok {
		return nil, fmt.Errorf("singular system at sigma %g, lambda %g", sigma, lambda)
	}
	return w, nil
}
