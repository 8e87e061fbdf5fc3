package benchevaluate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// LogReg is a ridge-penalised logistic regression fitted by Newton's method
// (iteratively reweighted least squares). Each feature is standardised with
// the mean and population standard deviation of the rows fitted on (as
// scikit-learn's StandardScaler); the coefficients w of the standardised
// features and the intercept b minimise
//
//	sum_i [ log(1 + exp(eta_i)) - y_i eta_i ] + Lambda/2 |w|^2,  eta_i = b + w.z_i,
//
// the intercept unpenalised: scikit-learn's LogisticRegression with C =
// 1/Lambda on standardised features.
type LogReg struct {
	// Lambda is the ridge penalty (> 0: it keeps the minimum unique and
	// finite when the classes are separable).
	Lambda float64
	// Tol ends the iterations when no coordinate of the Newton step exceeds
	// it; MaxIter bounds them.
	Tol     float64
	MaxIter int
	// Folds is k of the stratified, shuffled k-fold out-of-fold scores.
	Folds int
}

// DefaultLogReg is the benchmark's logistic regression: scikit-learn's
// default C = 1, 5 folds.
func DefaultLogReg() LogReg {
	return LogReg{Lambda: 1, Tol: 1e-10, MaxIter: 100, Folds: 5}
}

// Key is a canonical string of the options, for the score cache.
func (o LogReg) Key() string {
	return fmt.Sprintf("logreg/v1 lambda=%g tol=%g max_iter=%d folds=%d", o.Lambda, o.Tol, o.MaxIter, o.Folds)
}

func (o LogReg) validate() error {
	if !(o.Lambda > 0) || math.IsInf(o.Lambda, 0) {
		return fmt.Errorf("logreg: lambda %v: want a finite penalty > 0", o.Lambda)
	}
	if !(o.Tol > 0) || o.MaxIter < 1 || o.Folds < 2 {
		return fmt.Errorf("logreg: tol %v, max_iter %d, folds %d: want tol > 0, max_iter >= 1, folds >= 2", o.Tol, o.MaxIter, o.Folds)
	}
	return nil
}

// LogRegModel is a fitted logistic regression.
type LogRegModel struct {
	// Mean and Scale standardise a feature: z = (x - Mean) / Scale, and z =
	// 0 for a feature constant on the fitted rows (Scale 0).
	Mean, Scale []float64
	// Coef are the coefficients of the standardised features.
	Coef      []float64
	Intercept float64
	// Iter is the number of Newton steps taken.
	Iter int
}

// Prob is the fitted probability of the positive class for a feature row.
func (m *LogRegModel) Prob(x []float64) float64 {
	return sigmoid(m.eta(x))
}

func (m *LogRegModel) eta(x []float64) float64 {
	e := m.Intercept
	for j, v := range x {
		if m.Scale[j] > 0 {
			e += m.Coef[j] * ((v - m.Mean[j]) / m.Scale[j])
		}
	}
	return e
}

func sigmoid(e float64) float64 {
	if e >= 0 {
		return 1 / (1 + math.Exp(-e))
	}
	z := math.Exp(e)
	return z / (1 + z)
}

// softplus is log(1 + exp(e)) without overflow.
func softplus(e float64) float64 {
	if e > 0 {
		return e + math.Log1p(math.Exp(-e))
	}
	return math.Log1p(math.Exp(e))
}

// Fit fits the model on the given rows of x (all rows when rows is nil)
// with targets y (indexed like x's rows). Both classes must be present.
func (o LogReg) Fit(ctx context.Context, x *mat.Dense, y []bool, rows []int) (*LogRegModel, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("logreg: %d targets for %d rows", len(y), n)
	}
	if rows == nil {
		rows = make([]int, n)
		for i := range rows {
			rows[i] = i
		}
	}
	pos := 0
	for _, i := range rows {
		if y[i] {
			pos++
		}
	}
	if pos == 0 || pos == len(rows) {
		return nil, fmt.Errorf("logreg: %d of %d rows positive: want both classes", pos, len(rows))
	}
	m := standardiser(x, rows)
	z := make([]float64, len(rows)*d)
	for r, i := range rows {
		for j, v := range x.RawRowView(i) {
			if m.Scale[j] > 0 {
				z[r*d+j] = (v - m.Mean[j]) / m.Scale[j]
			}
		}
	}
	t := make([]float64, len(rows))
	for r, i := range rows {
		if y[i] {
			t[r] = 1
		}
	}
	theta, iter, err := o.newton(ctx, z, t, d)
	if err != nil {
		return nil, err
	}
	m.Intercept, m.Coef, m.Iter = theta[0], theta[1:], iter
	return m, nil
}

// standardiser returns a model holding the rows' feature means and
// population standard deviations (two passes: the mean, then the squares
// of the deviations, which loses no precision to cancellation).
func standardiser(x *mat.Dense, rows []int) *LogRegModel {
	_, d := x.Dims()
	m := &LogRegModel{Mean: make([]float64, d), Scale: make([]float64, d)}
	for _, i := range rows {
		for j, v := range x.RawRowView(i) {
			m.Mean[j] += v
		}
	}
	for j := range m.Mean {
		m.Mean[j] /= float64(len(rows))
	}
	for _, i := range rows {
		for j, v := range x.RawRowView(i) {
			dv := v - m.Mean[j]
			m.Scale[j] += dv * dv
		}
	}
	for j := range m.Scale {
		m.Scale[j] = math.Sqrt(m.Scale[j] / float64(len(rows)))
		// A column whose spread is round-off of its mean is constant.
		if m.Scale[j] <= 1e-12*math.Max(1, math.Abs(m.Mean[j])) {
			m.Scale[j] = 0
		}
	}
	return m
}

// newton minimises the penalised loss over theta = (b, w) for standardised
// rows z (n x d, row-major) and 0/1 targets t. Each step solves H s = g by
// Cholesky and halves it until the loss does not increase.
func (o LogReg) newton(ctx context.Context, z, t []float64, d int) ([]float64, int, error) {
	theta := make([]float64, d+1)
	loss := o.loss(z, t, theta, d)
	for iter := 1; iter <= o.MaxIter; iter++ {
		if err := ctx.Err(); err != nil {
			return nil, iter, fmt.Errorf("logreg: %w", context.Cause(ctx))
		}
		g, h := o.gradHess(z, t, theta, d)
		step, err := solveSPD(h, g)
		if err != nil {
			return nil, iter, err
		}
		next := make([]float64, d+1)
		for f := 1.0; ; f /= 2 {
			for j := range theta {
				next[j] = theta[j] - f*step[j]
			}
			if l := o.loss(z, t, next, d); l <= loss || f < 1e-10 {
				loss = l
				break
			}
		}
		maxStep := 0.0
		for j := range theta {
			maxStep = math.Max(maxStep, math.Abs(next[j]-theta[j]))
		}
		theta = next
		if maxStep < o.Tol {
			return theta, iter, nil
		}
	}
	return theta, o.MaxIter, nil
}

func (o LogReg) loss(z, t, theta []float64, d int) float64 {
	l := 0.0
	for r := range t {
		e := theta[0]
		for j, v := range z[r*d : (r+1)*d] {
			e += theta[j+1] * v
		}
		l += softplus(e) - t[r]*e
	}
	for _, w := range theta[1:] {
		l += o.Lambda / 2 * w * w
	}
	return l
}

// gradHess returns the gradient and the Hessian (upper triangle filled)
// of the loss at theta.
func (o LogReg) gradHess(z, t, theta []float64, d int) ([]float64, *mat.SymDense) {
	g := make([]float64, d+1)
	h := make([]float64, (d+1)*(d+1))
	row := make([]float64, d+1)
	row[0] = 1
	for r := range t {
		copy(row[1:], z[r*d:(r+1)*d])
		e := 0.0
		for j, v := range row {
			e += theta[j] * v
		}
		p := sigmoid(e)
		res, w := p-t[r], p*(1-p)
		for j, v := range row {
			g[j] += res * v
			wv := w * v
			hj := h[j*(d+1) : (j+1)*(d+1)]
			for k := j; k <= d; k++ {
				hj[k] += wv * row[k]
			}
		}
	}
	for j := 1; j <= d; j++ {
		g[j] += o.Lambda * theta[j]
		h[j*(d+1)+j] += o.Lambda
	}
	return g, mat.NewSymDense(d+1, h)
}

// solveSPD solves h s = g for a symmetric positive definite h.
func solveSPD(h *mat.SymDense, g []float64) ([]float64, error) {
	var ch mat.Cholesky
	if !ch.Factorize(h) {
		return nil, errors.New("logreg: the Hessian is not positive definite (every fitted probability 0 or 1?)")
	}
	s := mat.NewVecDense(len(g), nil)
	if err := ch.SolveVecTo(s, mat.NewVecDense(len(g), g)); err != nil {
		return nil, fmt.Errorf("logreg: %w", err)
	}
	return s.RawVector().Data, nil
}

// OutOfFold scores every row of x by the model fitted on the other folds
// of a stratified k-fold split (o.Folds folds; each class's rows shuffled
// by rng, then dealt to the folds in turn), so that no row is scored by a
// model that saw it. The scores are probabilities of y.
func (o LogReg) OutOfFold(ctx context.Context, x *mat.Dense, y []bool, rng *rand.Rand) ([]float64, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	fold := StratifiedFolds(y, o.Folds, rng)
	scores := make([]float64, n)
	for f := range o.Folds {
		var train, test []int
		for i, k := range fold {
			if k == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		m, err := o.Fit(ctx, x, y, train)
		if err != nil {
			return nil, fmt.Errorf("fold %d of %d: %w", f+1, o.Folds, err)
		}
		for _, i := range test {
			scores[i] = m.Prob(x.RawRowView(i))
		}
	}
	return scores, nil
}

// StratifiedFolds assigns every row to one of k folds: the rows of each
// class in an order shuffled by rng, dealt to folds 0, 1, ..., k-1, 0, ...
// (the positives continuing where the negatives stopped), so every fold
// holds its share of each class to within one row.
func StratifiedFolds(y []bool, k int, rng *rand.Rand) []int {
	var pos, neg []int
	for i, v := range y {
		if v {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	rng.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	fold := make([]int, len(y))
	next := 0
	for _, rows := range [][]int{neg, pos} {
		for _, i := range rows {
			fold[i] = next % k
			next++
		}
	}
	return fold
}
