package gmm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/pueval/pueval/internal/portmath"
	"gonum.org/v1/gonum/mat"
)

// ErrCollapsed reports that a mixture component lost all its responsibility
// (or, with RegCovar 0, all its variance) during EM. The fit is then
// degenerate; another Seed usually avoids it.
var ErrCollapsed = errors.New("mixture component collapsed")

// ErrTooFewRows reports fewer rows, or fewer distinct rows, than components.
var ErrTooFewRows = errors.New("too few rows for the number of components")

// minCount is the smallest total responsibility n_j = sum_i r_ij a
// component may keep: below a millionth of a row it explains no data, and its
// mean would be a ratio of round-off (0/0 once the responsibilities
// underflow).
const minCount = 1e-6

// seedStream is the second PCG word of the k-means++ stream, so that Seed
// alone names the stream and other packages' streams from the same seed differ.
const seedStream = 0x676d6d // "gmm"

// Options of the representativeness model.
type Options struct {
	Components int     // k, the number of mixture components; default 3
	PCA        int     // dimensions kept by the PCA; default 20; 0 = no PCA; capped at min(n-1, d)
	MaxIter    int     // at most this many EM iterations (at least 1); default 200
	Tol        float64 // stop when the mean log-likelihood per row gains less; default 1e-6
	RegCovar   float64 // added to every variance, as scikit-learn's reg_covar; default 1e-6
	Seed       uint64  // the k-means++ seeding stream
}

// DefaultOptions returns pueval's specification of the representativeness
// model: 3 diagonal components fitted by EM on a 20-dimensional PCA.
func DefaultOptions() Options {
	return Options{Components: 3, PCA: 20, MaxIter: 200, Tol: 1e-6, RegCovar: 1e-6}
}

func (o Options) check() error {
	switch {
	case o.Components < 1:
		return fmt.Errorf("gmm: %d components, need at least 1", o.Components)
	case o.PCA < 0:
		return fmt.Errorf("gmm: PCA dimension %d is negative", o.PCA)
	case o.MaxIter < 1:
		return fmt.Errorf("gmm: MaxIter %d, need at least 1 (start from DefaultOptions)", o.MaxIter)
	case !(o.Tol >= 0) || math.IsInf(o.Tol, 0):
		return fmt.Errorf("gmm: tolerance %v must be finite and non-negative", o.Tol)
	case !(o.RegCovar >= 0) || math.IsInf(o.RegCovar, 0):
		return fmt.Errorf("gmm: RegCovar %v must be finite and non-negative", o.RegCovar)
	}
	return nil
}

// Representativeness fits a PCA and then the mixture on the given rows of x
// and returns each of those rows' log-density under the fitted mixture, in
// the order of rows.
//
// The rows are first put in a canonical order (lexicographic by content), so
// the result does not depend on the order of rows: permuting rows permutes the
// output exactly, bit for bit.
func Representativeness(ctx context.Context, x *mat.Dense, rows []int, o Options) ([]float64, error) {
	return representativeness(ctx, x, rows, o, (*GMM).LogDensity)
}

// MaxPosterior is Representativeness with another score: each row's
// largest component posterior max_j P(j | x_i) under the fitted mixture
// (how clearly the row belongs to one component) instead of its
// log-density. Rows far from every component still get a posterior near
// 1 from the nearest one, so the two scores order rows differently.
func MaxPosterior(ctx context.Context, x *mat.Dense, rows []int, o Options) ([]float64, error) {
	return representativeness(ctx, x, rows, o, (*GMM).MaxPosterior)
}

// MaxPosterior returns max_j P(j | x_i) under the mixture for each row x_i
// of x.
func (g *GMM) MaxPosterior(x *mat.Dense) ([]float64, error) {
	if err := checkMatrix(x); err != nil {
		return nil, fmt.Errorf("gmm: posterior: %w", err)
	}
	n, d := x.Dims()
	if _, gd := g.p.Means.Dims(); d != gd {
		return nil, fmt.Errorf("gmm: posterior: %d columns, the mixture has %d dimensions", d, gd)
	}
	k := len(g.p.Weights)
	resp := make([]float64, n*k)
	eStep(x, g.p, resp, make([]float64, n))
	out := make([]float64, n)
	for i := range n {
		out[i] = slices.Max(resp[i*k : (i+1)*k])
	}
	return out, nil
}

// representativeness fits the PCA and the mixture on the rows in a
// canonical order and returns score of each row, in the order of rows.
func representativeness(ctx context.Context, x *mat.Dense, rows []int, o Options, score func(*GMM, *mat.Dense) ([]float64, error)) ([]float64, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if x == nil {
		return nil, fmt.Errorf("gmm: representativeness: nil matrix")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("gmm: representativeness: %w", err)
	}
	if len(rows) < o.Components {
		return nil, fmt.Errorf("gmm: representativeness: %d rows for %d components: %w", len(rows), o.Components, ErrTooFewRows)
	}
	if err := checkRows(x, rows); err != nil {
		return nil, fmt.Errorf("gmm: representativeness: %w", err)
	}
	order := make([]int, len(rows)) // order[i]: position in rows of the i-th row in canonical order
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return compareRows(x.RawRowView(rows[a]), x.RawRowView(rows[b]))
	})
	canon := make([]int, len(rows))
	for i, p := range order {
		canon[i] = rows[p]
	}

	var z *mat.Dense
	if o.PCA > 0 {
		p, err := FitPCA(x, canon, o.PCA)
		if err != nil {
			return nil, fmt.Errorf("gmm: representativeness: %w", err)
		}
		if p.Components == nil {
			return nil, fmt.Errorf("gmm: representativeness: the %d rows are all identical: %w", len(rows), ErrTooFewRows)
		}
		if z, err = p.Transform(x, canon); err != nil {
			return nil, fmt.Errorf("gmm: representativeness: %w", err)
		}
	} else {
		z = mat.NewDense(len(canon), x.RawMatrix().Cols, nil)
		for i, r := range canon {
			copy(z.RawRowView(i), x.RawRowView(r))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("gmm: representativeness: %w", err)
	}
	g, err := Fit(ctx, z, o)
	if err != nil {
		return nil, fmt.Errorf("gmm: representativeness: %w", err)
	}
	dens, err := score(g, z)
	if err != nil {
		return nil, fmt.Errorf("gmm: representativeness: %w", err)
	}
	out := make([]float64, len(rows))
	for i, p := range order {
		out[p] = dens[i]
	}
	return out, nil
}

// compareRows orders rows lexicographically by value.
func compareRows(a, b []float64) int {
	for c := range a {
		if r := cmp.Compare(a[c], b[c]); r != 0 {
			return r
		}
	}
	return 0
}

// checkRows reports row indices out of range and non-finite values.
func checkRows(x *mat.Dense, rows []int) error {
	n := x.RawMatrix().Rows
	for _, r := range rows {
		if r < 0 || r >= n {
			return fmt.Errorf("row index %d out of range [0, %d)", r, n)
		}
		for c, v := range x.RawRowView(r) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("row %d column %d is %v", r, c, v)
			}
		}
	}
	return nil
}

// Params are the parameters of a mixture of k Gaussians with diagonal
// covariances in d dimensions.
type Params struct {
	Weights []float64  // k mixing weights, positive, summing to 1
	Means   *mat.Dense // k×d, one mean per row
	Vars    *mat.Dense // k×d, the diagonal of each covariance, positive
}

func (p Params) check(d int) error {
	k := len(p.Weights)
	if k < 1 {
		return fmt.Errorf("no components")
	}
	if p.Means == nil || p.Vars == nil {
		return fmt.Errorf("nil means or variances")
	}
	if r, c := p.Means.Dims(); r != k || c != d {
		return fmt.Errorf("means are %d×%d, want %d×%d", r, c, k, d)
	}
	if r, c := p.Vars.Dims(); r != k || c != d {
		return fmt.Errorf("variances are %d×%d, want %d×%d", r, c, k, d)
	}
	sum := 0.0
	for j, w := range p.Weights {
		if !(w > 0) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %d is %v, must be positive and finite", j, w)
		}
		sum += w
		for c := range d {
			if m := p.Means.At(j, c); math.IsNaN(m) || math.IsInf(m, 0) {
				return fmt.Errorf("mean %d,%d is %v", j, c, m)
			}
			if v := p.Vars.At(j, c); !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("variance %d,%d is %v, must be positive and finite", j, c, v)
			}
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("weights sum to %v, not 1", sum)
	}
	return nil
}

func (p Params) clone() Params {
	return Params{
		Weights: slices.Clone(p.Weights),
		Means:   mat.DenseCopyOf(p.Means),
		Vars:    mat.DenseCopyOf(p.Vars),
	}
}

// GMM is a Gaussian mixture with diagonal covariances fitted by EM.
type GMM struct {
	p         Params
	iters     int
	converged bool
	trace     []float64 // mean log-likelihood per row: at the start, then after each iteration
}

// Weights returns a copy of the mixing weights.
func (g *GMM) Weights() []float64 { return slices.Clone(g.p.Weights) }

// Means returns a copy of the k×d component means.
func (g *GMM) Means() *mat.Dense { return mat.DenseCopyOf(g.p.Means) }

// Vars returns a copy of the k×d component variances (RegCovar included).
func (g *GMM) Vars() *mat.Dense { return mat.DenseCopyOf(g.p.Vars) }

// Iterations is the number of EM iterations (M-steps) performed.
func (g *GMM) Iterations() int { return g.iters }

// Converged reports whether EM stopped on the tolerance rather than MaxIter.
func (g *GMM) Converged() bool { return g.converged }

// LogLikelihood is the mean log-density of the training rows under the
// final parameters (scikit-learn's score(X)).
func (g *GMM) LogLikelihood() float64 { return g.trace[len(g.trace)-1] }

// Fit fits a k-component mixture (k = o.Components) to the rows of x by EM,
// started from k-means++ seeds drawn from the stream o.Seed: each row is
// assigned to its nearest seed and the initial parameters are those of this
// hard assignment. o.PCA is ignored.
//
// The seeds depend on the order of the rows (the draws pick row positions);
// Representativeness removes that dependence by sorting the rows first.
func Fit(ctx context.Context, x *mat.Dense, o Options) (*GMM, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := checkMatrix(x); err != nil {
		return nil, fmt.Errorf("gmm: fit: %w", err)
	}
	n, d := x.Dims()
	k := o.Components
	if n < k {
		return nil, fmt.Errorf("gmm: fit: %d rows for %d components: %w", n, k, ErrTooFewRows)
	}
	rng := rand.New(rand.NewPCG(o.Seed, seedStream))
	seeds, err := kmeansPP(rng, x, k)
	if err != nil {
		return nil, fmt.Errorf("gmm: fit: %w", err)
	}
	resp := make([]float64, n*k)
	for i := range n {
		xi := x.RawRowView(i)
		best, bestD := 0, math.Inf(1)
		for j, s := range seeds {
			if dd := sqDist(xi, x.RawRowView(s)); dd < bestD {
				best, bestD = j, dd
			}
		}
		resp[i*k+best] = 1
	}
	p := Params{Weights: make([]float64, k), Means: mat.NewDense(k, d, nil), Vars: mat.NewDense(k, d, nil)}
	if err := mStep(x, resp, o.RegCovar, p); err != nil {
		// Every seed is its own nearest seed, so no component starts empty;
		// the check stays as a guard, not as an expected path.
		return nil, fmt.Errorf("gmm: fit: initial parameters: %w", err)
	}
	return em(ctx, x, p, o)
}

// FitFrom runs EM on the rows of x from the given initial parameters (which
// it does not modify); o.Components, o.PCA and o.Seed are ignored. It is
// Fit without the seeding, for comparisons with other implementations
// started from the same point.
func FitFrom(ctx context.Context, x *mat.Dense, init Params, o Options) (*GMM, error) {
	if err := checkMatrix(x); err != nil {
		return nil, fmt.Errorf("gmm: fit: %w", err)
	}
	_, d := x.Dims()
	if err := init.check(d); err != nil {
		return nil, fmt.Errorf("gmm: fit: initial parameters: %w", err)
	}
	o.Components = len(init.Weights)
	if err := o.check(); err != nil {
		return nil, err
	}
	return em(ctx, x, init.clone(), o)
}

// checkMatrix reports a nil or empty matrix and non-finite values.
func checkMatrix(x *mat.Dense) error {
	if x == nil || x.IsEmpty() {
		return fmt.Errorf("no data")
	}
	rows := make([]int, x.RawMatrix().Rows)
	for i := range rows {
		rows[i] = i
	}
	return checkRows(x, rows)
}

// em iterates E- and M-steps from p (which it owns) until the mean
// log-likelihood gains less than o.Tol or o.MaxIter M-steps are done.
//
// Each iteration is an M-step from the current responsibilities followed by
// the E-step of the new parameters, so the parameters returned are those whose
// log-likelihood was measured last. (scikit-learn tests the gain of the
// previous E-step and so makes one more M-step; the fixed point is the same.)
func em(ctx context.Context, x *mat.Dense, p Params, o Options) (*GMM, error) {
	n := x.RawMatrix().Rows
	k := len(p.Weights)
	resp := make([]float64, n*k)
	dens := make([]float64, n)
	g := &GMM{p: p, trace: make([]float64, 0, o.MaxIter+1)}
	ll := eStep(x, p, resp, dens)
	if math.IsNaN(ll) || math.IsInf(ll, 0) {
		return nil, fmt.Errorf("gmm: em: initial log-likelihood is %v", ll)
	}
	g.trace = append(g.trace, ll)
	for it := 1; it <= o.MaxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("gmm: em iteration %d: %w", it, err)
		}
		if err := mStep(x, resp, o.RegCovar, p); err != nil {
			return nil, fmt.Errorf("gmm: em iteration %d: %w", it, err)
		}
		next := eStep(x, p, resp, dens)
		if math.IsNaN(next) || math.IsInf(next, 0) {
			return nil, fmt.Errorf("gmm: em iteration %d: log-likelihood is %v", it, next)
		}
		g.trace = append(g.trace, next)
		g.iters = it
		if next-ll < o.Tol {
			g.converged = true
			break
		}
		ll = next
	}
	return g, nil
}

// LogDensity returns log p(x_i) under the mixture for each row x_i of x.
func (g *GMM) LogDensity(x *mat.Dense) ([]float64, error) {
	if err := checkMatrix(x); err != nil {
		return nil, fmt.Errorf("gmm: log-density: %w", err)
	}
	n, d := x.Dims()
	if _, gd := g.p.Means.Dims(); d != gd {
		return nil, fmt.Errorf("gmm: log-density: %d columns, the mixture has %d dimensions", d, gd)
	}
	dens := make([]float64, n)
	eStep(x, g.p, make([]float64, n*len(g.p.Weights)), dens)
	return dens, nil
}

// eStep sets dens[i] = log p(x_i) and resp[i*k+j] = P(j | x_i), and returns
// the mean of dens. Everything is computed in logs: the responsibilities as
// exp(log w_j + log N(x_i | m_j, v_j) - log p(x_i)), with log p by
// log-sum-exp, so that rows far from every component lose no precision.
func eStep(x *mat.Dense, p Params, resp, dens []float64) float64 {
	n, d := x.Dims()
	k := len(p.Weights)
	// c_j = log w_j - 1/2 sum_d log(2 pi v_jd), and the precisions 1/v_jd.
	c := make([]float64, k)
	prec := make([]float64, k*d)
	for j := range k {
		v := p.Vars.RawRowView(j)
		s := 0.0
		for t := range d {
			s += portmath.Log(2 * math.Pi * v[t])
			prec[j*d+t] = 1 / v[t]
		}
		c[j] = portmath.Log(p.Weights[j]) - float64(s/2)
	}
	total := 0.0
	for i := range n {
		xi := x.RawRowView(i)
		lp := resp[i*k : (i+1)*k]
		top := math.Inf(-1)
		for j := range k {
			m := p.Means.RawRowView(j)
			pj := prec[j*d : (j+1)*d]
			q := 0.0
			for t, v := range xi {
				r := v - m[t]
				q += float64(r * r * pj[t])
			}
			lp[j] = c[j] - float64(q/2)
			top = max(top, lp[j])
		}
		s := 0.0
		for j := range k {
			s += portmath.Exp(lp[j] - top)
		}
		lse := top + portmath.Log(s)
		for j := range k {
			lp[j] = portmath.Exp(lp[j] - lse)
		}
		dens[i] = lse
		total += lse
	}
	return total / float64(n)
}

// mStep sets p to the parameters that maximise the expected complete-data
// log-likelihood under the responsibilities resp (n×k, row-major), plus reg
// on every variance:
//
//	n_j = sum_i r_ij, w_j = n_j / n, m_j = sum_i r_ij x_i / n_j,
//	v_jd = sum_i r_ij (x_id - m_jd)^2 / n_j + reg.
//
// The variance uses the two-pass form (deviations from the new mean), not
// E[x^2] - m^2 as scikit-learn does, to avoid cancellation when the mean is
// large against the spread. Sums run over rows in order, so the result is
// reproducible to the bit.
func mStep(x *mat.Dense, resp []float64, reg float64, p Params) error {
	n, d := x.Dims()
	k := len(p.Weights)
	nk := make([]float64, k)
	for i := range n {
		for j := range k {
			nk[j] += resp[i*k+j]
		}
	}
	for j := range k {
		if !(nk[j] >= minCount) {
			return fmt.Errorf("component %d keeps a total responsibility of %g rows: %w", j, nk[j], ErrCollapsed)
		}
	}
	means, vars := p.Means.RawMatrix(), p.Vars.RawMatrix()
	for j := range k {
		clear(p.Means.RawRowView(j))
		clear(p.Vars.RawRowView(j))
	}
	for i := range n {
		xi := x.RawRowView(i)
		for j := range k {
			r := resp[i*k+j]
			m := means.Data[j*means.Stride : j*means.Stride+d]
			for t, v := range xi {
				m[t] += float64(r * v)
			}
		}
	}
	for j := range k {
		m := p.Means.RawRowView(j)
		for t := range m {
			m[t] /= nk[j]
		}
	}
	for i := range n {
		xi := x.RawRowView(i)
		for j := range k {
			r := resp[i*k+j]
			m := means.Data[j*means.Stride : j*means.Stride+d]
			v := vars.Data[j*vars.Stride : j*vars.Stride+d]
			for t, xv := range xi {
				dv := xv - m[t]
				v[t] += float64(r * dv * dv)
			}
		}
	}
	for j := range k {
		v := p.Vars.RawRowView(j)
		for t := range v {
			v[t] = v[t]/nk[j] + reg
			if !(v[t] > 0) {
				return fmt.Errorf("component %d has variance %g in dimension %d: %w", j, v[t], t, ErrCollapsed)
			}
		}
		p.Weights[j] = nk[j] / float64(n)
	}
	return nil
}

// kmeansPP draws k distinct seed rows by k-means++ (Arthur and Vassilvitskii
// 2007): the first uniformly, each next one with probability proportional to
// its squared distance to the nearest seed so far. It fails when fewer than
// k rows are distinct, as every remaining row then has distance 0.
func kmeansPP(rng *rand.Rand, x *mat.Dense, k int) ([]int, error) {
	n := x.RawMatrix().Rows
	seeds := []int{rng.IntN(n)}
	dist := make([]float64, n)
	for i := range n {
		dist[i] = sqDist(x.RawRowView(i), x.RawRowView(seeds[0]))
	}
	for len(seeds) < k {
		total := 0.0
		for _, v := range dist {
			total += v
		}
		if !(total > 0) {
			return nil, fmt.Errorf("k-means++: only %d distinct rows for %d components: %w", len(seeds), k, ErrTooFewRows)
		}
		// The first row whose cumulative distance exceeds u; rows at distance
		// 0 (seeds and their duplicates) can never be picked.
		u := rng.Float64() * total
		next, cum := -1, 0.0
		for i, v := range dist {
			if v == 0 {
				continue
			}
			next = i
			if cum += v; cum > u {
				break
			}
		}
		seeds = append(seeds, next)
		s := x.RawRowView(next)
		for i := range n {
			dist[i] = min(dist[i], sqDist(x.RawRowView(i), s))
		}
	}
	return seeds, nil
}

func sqDist(a, b []float64) float64 {
	s := 0.0
	for t, v := range a {
		r := v - b[t]
		s += float64(r * r)
	}
	return s
}
