// Package bntrain trains DistCurve's network as the paper has it: dense
// layers 100 -> 2048 -> 1024 -> 512 -> 1, each hidden one followed by batch
// normalisation, ReLU and dropout (Keras's order: Dense, BatchNormalization,
// ReLU, Dropout), a linear output, mean absolute error, Adam, mini-batches of
// 32. It is the one-off trainer behind the shipped published network
// (estimators/distcurve/train -net published); inference is
// [distcurve.Network], to which [Model.Fold] exports the trained model.
//
// # Computation
//
// Activations are float32 matrices stored feature-major (width x batch), so
// that every product of a step is one of sgemm's with the batch as the short
// side: Z = W A (forward), dW = dZ A^T, dA = W^T dZ (backward). In training
// mode batch normalisation uses the batch's mean and biased variance,
// y = gamma (z - mu) / sqrt(var + eps) + beta, and updates the running
// statistics as Keras does: mean <- m mean + (1 - m) mu, var <- m var +
// (1 - m) var_batch (momentum m = 0.99, eps = 0.001). Dropout keeps a unit
// with probability 1 - rate and scales it by 1/(1 - rate) (inverted
// dropout: the identity at inference). A hidden Dense layer has no bias:
// the batch mean subtracted next cancels it exactly, so Keras's bias there
// gets a zero gradient and stays 0. Adam is Keras's: lr_t = lr sqrt(1 -
// beta2^t) / (1 - beta1^t), w <- w - lr_t m / (sqrt(v) + eps), with lr
// 0.001, beta1 0.9, beta2 0.999 and eps 1e-7 (Keras's defaults) unchanged
// over training. Initialisation is Keras's glorot_uniform, U(-l, l),
// l = sqrt(6 / (in + out)), biases 0, gamma 1, beta 0, running mean 0 and
// variance 1. The curves are standardised with the training set's
// per-point mean and standard deviation before the first layer, as for the
// small net (the file format carries them).
//
// # Streams and resumption
//
// Initialisation draws from PCG(seed, "init"); epoch e's shuffle and its
// dropout masks draw from streams keyed by a hash of (seed, e), so a run
// resumed from the checkpoint written after epoch e (weights, running
// statistics, Adam's moments and step, the best epoch so far) continues
// exactly as the uninterrupted run would. Products run on sgemm's
// goroutines, whose number does not change a bit; the bits do depend on the
// CPU (sgemm's AVX-512 kernel fuses multiply-adds, its Go kernel does not),
// which is acceptable for a one-off whose weights are shipped and checked
// by their sha256.
//
// # Export
//
// At inference BN is the affine map y = s (z - mean) + beta with
// s = gamma / sqrt(var + eps); [Model.Fold] folds it into the preceding
// Dense layer in float64 (W'[o] = s[o] W[o], b'[o] = beta[o] - s[o] mean[o])
// and drops dropout, giving a plain [distcurve.Network] of the same output.
package bntrain

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pueval/pueval/estimators/distcurve"
)

// Config sets the network and the optimiser.
type Config struct {
	Hidden     []int   // hidden widths (published: 2048, 1024, 512)
	Epochs     int     // passes over the training set (100)
	Batch      int     // mini-batch size (32)
	LR         float64 // Adam step size (0.001)
	Beta1      float64 // Adam's first-moment decay (0.9)
	Beta2      float64 // second-moment decay (0.999)
	Eps        float64 // Adam's epsilon (Keras: 1e-7)
	Dropout    float64 // dropout rate after each hidden layer (0.5)
	BNMomentum float64 // running-statistics momentum (Keras: 0.99)
	BNEps      float64 // variance epsilon (Keras: 0.001)
	Seed       uint64
}

// Published is the paper's configuration.
func Published(seed uint64) Config {
	return Config{Hidden: []int{2048, 1024, 512}, Epochs: 100, Batch: 32, LR: 1e-3, Beta1: 0.9, Beta2: 0.999,
		Eps: 1e-7, Dropout: 0.5, BNMomentum: 0.99, BNEps: 1e-3, Seed: seed}
}

// Validate checks the configuration.
func (c Config) Validate() error {
	if len(c.Hidden) == 0 || c.Epochs < 1 || c.Batch < 2 || !(c.LR > 0) || !(c.Eps > 0) || !(c.BNEps > 0) {
		return fmt.Errorf("bntrain: config: hidden %v, epochs %d, batch %d (>= 2), lr %v, eps %v, bn eps %v",
			c.Hidden, c.Epochs, c.Batch, c.LR, c.Eps, c.BNEps)
	}
	for _, w := range c.Hidden {
		if w < 1 {
			return fmt.Errorf("bntrain: config: hidden width %d", w)
		}
	}
	if !(c.Beta1 >= 0 && c.Beta1 < 1 && c.Beta2 >= 0 && c.Beta2 < 1 && c.Dropout >= 0 && c.Dropout < 1 &&
		c.BNMomentum >= 0 && c.BNMomentum <= 1) {
		return fmt.Errorf("bntrain: config: beta1 %v, beta2 %v, dropout %v, bn momentum %v", c.Beta1, c.Beta2, c.Dropout, c.BNMomentum)
	}
	return nil
}

// Layer is one dense layer, W row-major (Out rows of In). A hidden layer
// has no bias (B nil) and carries its batch normalisation; the output
// layer has B and no normalisation.
type Layer struct {
	In, Out         int
	W, B            []float32
	Gamma, Beta     []float32 // BN scale and shift (hidden layers)
	RunMean, RunVar []float32 // BN running statistics (hidden layers)
}

// Model is a network with its BN layers unfolded.
type Model struct {
	Mean, Scale []float64 // input standardisation
	BNEps       float64
	Layers      []Layer
}

func (m *Model) hidden(k int) bool { return k < len(m.Layers)-1 }

// params lists the trained parameter slices in a fixed order (Adam's
// moments follow it).
func (m *Model) params() [][]float32 {
	var ps [][]float32
	for k := range m.Layers {
		l := &m.Layers[k]
		if m.hidden(k) {
			ps = append(ps, l.W, l.Gamma, l.Beta)
		} else {
			ps = append(ps, l.W, l.B)
		}
	}
	return ps
}

func (m *Model) clone() *Model {
	c := &Model{Mean: append([]float64(nil), m.Mean...), Scale: append([]float64(nil), m.Scale...), BNEps: m.BNEps}
	cp := func(x []float32) []float32 {
		if x == nil {
			return nil
		}
		return append([]float32(nil), x...)
	}
	for _, l := range m.Layers {
		c.Layers = append(c.Layers, Layer{In: l.In, Out: l.Out, W: cp(l.W), B: cp(l.B), Gamma: cp(l.Gamma), Beta: cp(l.Beta),
			RunMean: cp(l.RunMean), RunVar: cp(l.RunVar)})
	}
	return c
}

// newModel initialises a model (Keras's glorot_uniform) for inputs of width
// in, with the standardisation of train.
func newModel(train []distcurve.Example, cfg Config) *Model {
	in := len(train[0].Curve)
	mean, scale := distcurve.Standardisation(train)
	m := &Model{Mean: mean, Scale: scale, BNEps: cfg.BNEps}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x696e6974)) // "init"
	widths := append(append([]int{in}, cfg.Hidden...), 1)
	for k := 1; k < len(widths); k++ {
		l := Layer{In: widths[k-1], Out: widths[k], W: make([]float32, widths[k]*widths[k-1])}
		lim := math.Sqrt(6 / float64(l.In+l.Out))
		for i := range l.W {
			l.W[i] = float32(lim * (2*rng.Float64() - 1))
		}
		if k < len(widths)-1 {
			l.Gamma, l.Beta = fill(l.Out, 1), make([]float32, l.Out)
			l.RunMean, l.RunVar = make([]float32, l.Out), fill(l.Out, 1)
		} else {
			l.B = make([]float32, l.Out)
		}
		m.Layers = append(m.Layers, l)
	}
	return m
}

func fill(n int, v float32) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = v
	}
	return x
}

// Fold returns the inference network: each hidden layer's batch
// normalisation folded into its weights and bias in float64, dropout
// dropped.
func (m *Model) Fold() *distcurve.Network {
	n := &distcurve.Network{Mean: append([]float64(nil), m.Mean...), Scale: append([]float64(nil), m.Scale...)}
	for k, l := range m.Layers {
		fl := distcurve.Layer{In: l.In, Out: l.Out, W: make([]float64, len(l.W)), B: make([]float64, l.Out)}
		for o := range l.Out {
			s, b := 1.0, 0.0
			if m.hidden(k) {
				s = float64(l.Gamma[o]) / math.Sqrt(float64(l.RunVar[o])+m.BNEps)
				b = float64(l.Beta[o]) - float64(s*float64(l.RunMean[o]))
			} else {
				b = float64(l.B[o])
			}
			for i := range l.In {
				fl.W[o*l.In+i] = float64(s * float64(l.W[o*l.In+i]))
			}
			fl.B[o] = b
		}
		n.Layers = append(n.Layers, fl)
	}
	return n
}

// RawUnfolded is the model's inference output for one curve computed in
// float64 with the normalisation unfolded: z = W a, y = gamma (z - mean) /
// sqrt(var + eps) + beta, ReLU. It is the reference [Model.Fold] is
// tested against.
func (m *Model) RawUnfolded(x []float64) float64 {
	cur := make([]float64, len(x))
	for i, v := range x {
		cur[i] = (v - m.Mean[i]) / m.Scale[i]
	}
	for k, l := range m.Layers {
		next := make([]float64, l.Out)
		for o := range l.Out {
			s := 0.0
			for i, v := range cur {
				s += float64(float64(l.W[o*l.In+i]) * v)
			}
			if m.hidden(k) {
				s = float64(l.Gamma[o])*(s-float64(l.RunMean[o]))/math.Sqrt(float64(l.RunVar[o])+m.BNEps) + float64(l.Beta[o])
				s = max(s, 0)
			} else {
				s += float64(l.B[o])
			}
			next[o] = s
		}
		cur = next
	}
	return cur[0]
}
