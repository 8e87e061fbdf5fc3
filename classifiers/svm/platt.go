package svm

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/pueval/pueval/internal/portmath"
	"gonum.org/v1/gonum/mat"
)

// Platt is a fitted sigmoid P(y = +1 | f) = 1/(1 + exp(A f + B)) of a
// decision value f (Platt 1999; A < 0 when larger f means more positive).
type Platt struct {
	A, B float64
	// Iter is the number of Newton iterations; Converged says whether the
	// gradient fell below 1e-5 (otherwise the line search failed or 100
	// iterations passed, and A, B are the last iterate, as in Lin, Lin &
	// Weng's algorithm).
	Iter      int
	Converged bool
}

// Prob returns 1/(1 + exp(A f + B)), the logistic function of -(A f + B)
// (portmath.Sigmoid: without overflow, the same bits on every CPU).
func (p Platt) Prob(f float64) float64 {
	return portmath.Sigmoid(-(float64(p.A*f) + p.B)) // rounded: arm64 would fuse it
}

// Constants of Lin, Lin & Weng (2007), Algorithm 1 / Appendix.
const (
	plattMaxIter = 100
	plattMinStep = 1e-10
	plattSigma   = 1e-12 // added to the Hessian's diagonal
	plattGradEps = 1e-5
)

// FitPlatt fits the sigmoid to decision values dec with labels y by
// minimising the cross-entropy
//
//	-sum_i t_i log p_i + (1 - t_i) log(1 - p_i),  p_i = 1/(1 + exp(A f_i + B)),
//
// with Platt's smoothed targets t_i = (N+ + 1)/(N+ + 2) for positives and
// 1/(N- + 2) for negatives, from A = 0, B = log((N- + 1)/(N+ + 1)), by
// Newton's method with a backtracking (Armijo) line search and the Hessian
// regularised by 1e-12 I (Lin, Lin & Weng 2007). The objective is
// evaluated as t z + log(1 + exp(-z)) for z = A f + B >= 0 and
// (t - 1) z + log(1 + exp(z)) otherwise, which never overflows.
func FitPlatt(dec []float64, y []bool) (Platt, error) {
	if len(dec) != len(y) {
		return Platt{}, fmt.Errorf("svm: platt: %d decision values for %d labels", len(dec), len(y))
	}
	npos := 0
	for i, f := range dec {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return Platt{}, fmt.Errorf("svm: platt: decision value %d is %v", i, f)
		}
		if y[i] {
			npos++
		}
	}
	nneg := len(y) - npos
	if npos == 0 || nneg == 0 {
		return Platt{}, fmt.Errorf("svm: platt: %d positive and %d negative values: %w", npos, nneg, ErrOneClass)
	}
	hi := (float64(npos) + 1) / (float64(npos) + 2)
	lo := 1 / (float64(nneg) + 2)
	t := make([]float64, len(y))
	for i, v := range y {
		t[i] = lo
		if v {
			t[i] = hi
		}
	}
	obj := func(a, b float64) float64 {
		s := 0.0
		for i, f := range dec {
			z := float64(a*f) + b
			if z >= 0 {
				s += float64(t[i]*z) + portmath.Log1p(portmath.Exp(-z))
			} else {
				s += float64((t[i]-1)*z) + portmath.Log1p(portmath.Exp(z))
			}
		}
		return s
	}
	// (portmath.Log1p: math.Log1p's bits differ on arm64, which fuses its
	// multiply-adds, for about 1 argument in 850.)
	p := Platt{B: portmath.Log1p((float64(nneg)+1)/(float64(npos)+1) - 1)}
	fval := obj(p.A, p.B)
	for p.Iter = 0; p.Iter < plattMaxIter; p.Iter++ {
		// Gradient and Hessian of the objective in (A, B).
		h11, h22, h21, g1, g2 := plattSigma, plattSigma, 0.0, 0.0, 0.0
		for i, f := range dec {
			z := float64(p.A*f) + p.B
			var pr, q float64 // pr = p_i, q = 1 - p_i
			if z >= 0 {
				e := portmath.Exp(-z)
				pr, q = e/(1+e), 1/(1+e)
			} else {
				e := portmath.Exp(z)
				pr, q = 1/(1+e), e/(1+e)
			}
			d2 := float64(pr * q)
			h11 += float64(f * f * d2)
			h22 += d2
			h21 += float64(f * d2)
			d1 := t[i] - pr
			g1 += float64(f * d1)
			g2 += d1
		}
		if math.Abs(g1) < plattGradEps && math.Abs(g2) < plattGradEps {
			p.Converged = true
			return p, nil
		}
		det := float64(h11*h22) - float64(h21*h21)
		dA := -(float64(h22*g1) - float64(h21*g2)) / det
		dB := -(float64(-h21*g1) + float64(h11*g2)) / det
		gd := float64(g1*dA) + float64(g2*dB)
		step := 1.0
		for step >= plattMinStep {
			na, nb := p.A+float64(step*dA), p.B+float64(step*dB)
			if nf := obj(na, nb); nf < fval+float64(1e-4*step*gd) {
				p.A, p.B, fval = na, nb, nf
				break
			}
			step /= 2
		}
		if step < plattMinStep {
			// The line search failed: keep the last iterate.
			return p, nil
		}
	}
	return p, nil
}

// CVStats summarises the models of PlattCV.
type CVStats struct {
	Platt Platt
	// Iter and Flops add up over the fold models; KernelValues likewise.
	Iter         int
	Flops        float64
	KernelValues int64
	// NotConverged counts fold models that stopped short of the tolerance
	// (Stop StopMaxIter or StopStalled).
	NotConverged int
}

// PlattCV returns, for each instance (row rows[t] of x, label y[t], weight
// 1), the Platt probability g_t = P(y = +1 | x) from the model trained on
// the instances of the other folds (folds[t] in 0..k-1): every instance's
// decision value is held out; one sigmoid is fitted (FitPlatt) to all the
// held-out decision values and applied to them, as LIBSVM's
// cross-validated probability estimates do.
func PlattCV(ctx context.Context, x *mat.Dense, rows []int, y []bool, folds []int, p Params) ([]float64, CVStats, error) {
	var st CVStats
	n := len(rows)
	if len(y) != n || len(folds) != n {
		return nil, st, fmt.Errorf("svm: platt cv: %d rows, %d labels, %d folds: want equal counts", n, len(y), len(folds))
	}
	k := 0
	for t, f := range folds {
		if f < 0 {
			return nil, st, fmt.Errorf("svm: platt cv: instance %d: fold %d: want >= 0", t, f)
		}
		k = max(k, f+1)
	}
	if k < 2 {
		return nil, st, fmt.Errorf("svm: platt cv: %d fold(s): want at least 2", k)
	}
	dec := make([]float64, n)
	for j := range k {
		var trRows, teRows, teIdx []int
		var trY []bool
		for t, f := range folds {
			if f == j {
				teRows, teIdx = append(teRows, rows[t]), append(teIdx, t)
			} else {
				trRows, trY = append(trRows, rows[t]), append(trY, y[t])
			}
		}
		if len(teRows) == 0 {
			return nil, st, fmt.Errorf("svm: platt cv: fold %d of %d is empty", j, k)
		}
		m, err := Train(ctx, Problem{X: x, Rows: trRows, Y: trY}, p)
		if err != nil {
			return nil, st, fmt.Errorf("svm: platt cv: fold %d of %d: %w", j, k, err)
		}
		st.Iter += m.Iter
		st.Flops += m.Flops + float64(2*float64(len(teRows))*float64(m.d))
		st.KernelValues += m.KernelValues
		if m.Stop != StopConverged {
			st.NotConverged++
		}
		out := make([]float64, len(teRows))
		if err := m.Decision(x, teRows, out); err != nil {
			return nil, st, fmt.Errorf("svm: platt cv: fold %d of %d: %w", j, k, err)
		}
		for q, t := range teIdx {
			dec[t] = out[q]
		}
	}
	pl, err := FitPlatt(dec, y)
	if err != nil {
		return nil, st, err
	}
	st.Platt = pl
	g := make([]float64, n)
	for t, f := range dec {
		g[t] = pl.Prob(f)
	}
	return g, st, nil
}

// ElkanNotoC is Elkan & Noto's estimator e1 of c = P(s = 1 | y = 1): the mean
// of g = P(s = 1 | x) over the labeled instances.
func ElkanNotoC(g []float64, labeled []bool) (float64, error) {
	if len(g) != len(labeled) {
		return 0, fmt.Errorf("svm: elkan-noto: %d probabilities for %d labels", len(g), len(labeled))
	}
	sum, cnt := 0.0, 0
	for t, l := range labeled {
		if l {
			sum += g[t]
			cnt++
		}
	}
	if cnt == 0 {
		return 0, errors.New("svm: elkan-noto: no labeled instance to estimate c from")
	}
	return sum / float64(cnt), nil
}

// ElkanNotoWeight is the weight w = P(y = 1 | x, s = 0) =
// ((1 - c)/c) g/(1 - g) of an unlabeled instance with g = P(s = 1 | x)
// (Elkan & Noto 2008, Sec. 3), clamped into [0, 1]: the formula exceeds 1
// when g > c (an estimation error; a probability cannot), and g = 1 (or
// more) is the limit w = 1; g <= 0 or c >= 1 give 0.
func ElkanNotoWeight(c, g float64) float64 {
	switch {
	case g >= 1:
		return 1
	case !(g > 0) || c >= 1:
		return 0
	}
	w := (1 - c) / c * (g / (1 - g))
	return max(0, min(1, w))
}

// ElkanNotoProblem builds the weighted training set of Elkan & Noto's
// weighting from the labeled / unlabeled rows and their held-out g: every
// labeled row is a positive of weight 1; every unlabeled row is a positive
// of weight w = ElkanNotoWeight(c, g) and a negative of weight 1 - w, in
// that order, a copy of weight 0 left out. It returns the problem (X unset:
// the caller's matrix) and c = ElkanNotoC(g, labeled).
func ElkanNotoProblem(rows []int, labeled []bool, g []float64) (Problem, float64, error) {
	if len(rows) != len(labeled) {
		return Problem{}, 0, fmt.Errorf("svm: elkan-noto: %d rows for %d labels", len(rows), len(labeled))
	}
	c, err := ElkanNotoC(g, labeled)
	if err != nil {
		return Problem{}, 0, err
	}
	var pr Problem
	add := func(row int, y bool, w float64) {
		pr.Rows, pr.Y, pr.W = append(pr.Rows, row), append(pr.Y, y), append(pr.W, w)
	}
	for t, row := range rows {
		if labeled[t] {
			add(row, true, 1)
			continue
		}
		w := ElkanNotoWeight(c, g[t])
		if w > 0 {
			add(row, true, w)
		}
		if 1-w > 0 {
			add(row, false, 1-w)
		}
	}
	return pr, c, nil
}

// UnitScore maps a decision value f onto [0, 1]:
//
//	s = 1 - 1/(2 (1 + f))  for f >= 0,    s = 1/(2 (1 - f))  for f < 0,
//
// i.e. s = 1/2 + f/(2 (1 + |f|)), a strictly increasing bijection of the
// reals onto (0, 1) with s(0) = 1/2 and the closed-form inverse
// UnitScoreInverse. In float64 every operation of it rounds monotonically,
// so it never inverts an order; it merges two decision values only when
// they are closer than the resolution of s there (2^-53 absolute above
// 1/2, 2^-53 relative below): about 1e-16 near 0 (every |f| < 1e-16 gives
// 1/2), 1e-12 near f = 100. The logistic function, by contrast, rounds to
// 1 for every f above about 37. So rank-based measures see the order and
// ties of the decision values, and f >= 0 gives s >= 1/2 (s < 1/2 only for
// f < 0). The scores are not probabilities.
func UnitScore(f float64) float64 {
	if f >= 0 {
		return 1 - 0.5/(1+f)
	}
	return 0.5 / (1 - f)
}

// UnitScoreInverse returns the decision value f with UnitScore(f) = s:
// f = 1/(2 (1 - s)) - 1 for s >= 1/2, 1 - 1/(2 s) otherwise.
func UnitScoreInverse(s float64) float64 {
	if s >= 0.5 {
		return 0.5/(1-s) - 1
	}
	return 1 - 0.5/s
}
