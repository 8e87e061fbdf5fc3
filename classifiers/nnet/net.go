package nnet

import (
	"fmt"
	"math"
)

// Net is a trained one-hidden-layer net together with the input mapping it
// was trained with. It is immutable and safe for concurrent use.
//
// For raw features x (one row of the caller's matrix) it computes
//
//	x'_k = 2 (x_{c_k} - min_k) / (max_k - min_k) - 1    for the active columns c_k
//	z_j  = tanh(b_j + sum_k W_jk x'_k)                    j = 1..h
//	y    = tanh(c + sum_j v_j z_j)                        in (-1, 1)
//	score = (y + 1) / 2                                   in (0, 1)
//
// where tanh is the package's rational approximation, min_k and max_k are the
// column's range over the rows the net was trained with (training and
// validation rows: MATLAB's mapminmax sees the whole bootstrap sample), and
// columns constant over those rows are dropped (MATLAB's removeconstantrows).
// x' is not clamped to [-1, 1]: a row outside the training range maps outside
// it, as in MATLAB.
type Net struct {
	d       int       // columns of the caller's matrix
	cols    []int     // active columns c_k
	min     []float64 // min_k
	inv     []float64 // 2 / (max_k - min_k)
	h       int       // hidden units
	weights []float64 // W (h x len(cols), row-major), b (h), v (h), c
}

// Inputs is the number of columns a row passed to Predict must have.
func (n *Net) Inputs() int { return n.d }

// ActiveColumns returns the columns the net uses (those not constant over its
// training rows), in increasing order.
func (n *Net) ActiveColumns() []int { return append([]int(nil), n.cols...) }

// Hidden is h.
func (n *Net) Hidden() int { return n.h }

// Weights returns a copy of the parameter vector: W (h rows of
// len(ActiveColumns()) input weights), then the h hidden biases b, the h
// output weights v and the output bias c.
func (n *Net) Weights() []float64 { return append([]float64(nil), n.weights...) }

// Predict returns the net's score in (0, 1) for one row of raw features.
func (n *Net) Predict(x []float64) (float64, error) {
	if len(x) != n.d {
		return 0, fmt.Errorf("nnet: predict: row has %d features, the net was trained on %d", len(x), n.d)
	}
	for k, c := range n.cols {
		if v := x[c]; math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("nnet: predict: feature %d is %v; features must be finite", k, v)
		}
	}
	s := n.predict(x)
	if math.IsNaN(s) {
		// Only a row so far outside the training range that its mapped
		// value overflows can get here.
		return 0, fmt.Errorf("nnet: predict: row lies too far outside the training range (its mapped features overflow)")
	}
	return s, nil
}

// predict is Predict without the checks: the bag calls it on rows it has
// already validated.
func (n *Net) predict(x []float64) float64 {
	return (n.output(x) + 1) / 2
}

// output is y in (-1, 1). It evaluates the same expressions in the same
// order as the scalar kernel's forward pass, so with that kernel a training
// row gets exactly the output training computed for it.
func (n *Net) output(x []float64) float64 {
	d := len(n.cols)
	h := n.h
	w := n.weights
	o := w[h*d+2*h]
	for j := range h {
		wr := w[j*d : j*d+d]
		a := w[h*d+j]
		for k, c := range n.cols {
			a = madd(wr[k], scale(x[c], n.min[k], n.inv[k]), a)
		}
		o = madd(w[h*d+h+j], tanh(a), o)
	}
	return tanh(o)
}

// scale is the min-max map of one feature to [-1, 1]: 2 (x - min)/(max - min) - 1,
// with inv = 2/(max - min).
func scale(x, min, inv float64) float64 { return madd(x-min, inv, -1) }
