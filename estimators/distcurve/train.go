package distcurve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TrainConfig sets the network shape and the optimiser.
type TrainConfig struct {
	Hidden []int   // hidden layer widths, ReLU after each
	Epochs int     // passes over the training set
	Batch  int     // mini-batch size
	LR     float64 // Adam step size at epoch 0; cosine-decayed to LR/100 at the last epoch
	Seed   uint64  // initialisation and shuffling stream
	// Log, if not nil, is called after every epoch.
	Log func(epoch int, lr, trainMAE, validMAE float64)
}

// DefaultTrainConfig is the configuration of the shipped network.
func DefaultTrainConfig(seed uint64) TrainConfig {
	return TrainConfig{Hidden: []int{256, 128, 64}, Epochs: 60, Batch: 64, LR: 1e-3, Seed: seed}
}

// TrainReport summarises a training run.
type TrainReport struct {
	BestEpoch  int     // epoch whose weights were kept (lowest validation MAE; the last without validation)
	TrainMAE   float64 // mean absolute error of the raw output on the training set during that epoch
	ValidMAE   float64 // validation MAE of the clipped output after that epoch (NaN without validation)
	Parameters int
}

// Train fits a network to the examples with the mean absolute error loss and
// Adam (beta1 0.9, beta2 0.999, eps 1e-8), He-uniform initialisation, inputs
// standardised with the training set's per-point mean and standard
// deviation. With validation examples the weights of the epoch with the
// lowest validation MAE are returned. Training is single-threaded apart from
// gonum's block-parallel matrix products, whose results do not depend on the
// schedule, so the network is a function of the data and cfg.Seed.
func Train(ctx context.Context, train, valid []Example, cfg TrainConfig) (*Network, TrainReport, error) {
	var rep TrainReport
	if len(train) == 0 {
		return nil, rep, errors.New("distcurve: train: no examples")
	}
	if cfg.Epochs < 1 || cfg.Batch < 1 || !(cfg.LR > 0) {
		return nil, rep, fmt.Errorf("distcurve: train: epochs %d, batch %d, lr %v", cfg.Epochs, cfg.Batch, cfg.LR)
	}
	in := len(train[0].Curve)
	for i, e := range append(train[:len(train):len(train)], valid...) {
		if len(e.Curve) != in {
			return nil, rep, fmt.Errorf("distcurve: train: example %d has %d points, want %d", i, len(e.Curve), in)
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x747261696e)) // "train"

	mean, scale := Standardisation(train)
	net := &Network{Mean: mean, Scale: scale}

	widths := append([]int{in}, cfg.Hidden...)
	widths = append(widths, 1)
	for k := 1; k < len(widths); k++ {
		if widths[k] < 1 {
			return nil, rep, fmt.Errorf("distcurve: train: layer width %d", widths[k])
		}
		l := Layer{In: widths[k-1], Out: widths[k], W: make([]float64, widths[k]*widths[k-1]), B: make([]float64, widths[k])}
		lim := math.Sqrt(6 / float64(l.In)) // He uniform
		if k == len(widths)-1 {
			lim = math.Sqrt(6/float64(l.In+l.Out)) / 10 // small linear output
		}
		for i := range l.W {
			l.W[i] = lim * (2*rng.Float64() - 1)
		}
		rep.Parameters += len(l.W) + len(l.B)
		net.Layers = append(net.Layers, l)
	}
	net.Layers[len(net.Layers)-1].B[0] = 0.5

	nl := len(net.Layers)
	B := cfg.Batch
	// Buffers: acts[k] is the input of layer k (B x widths[k]); zs[k] its
	// pre-activation output.
	acts := make([][]float64, nl+1)
	for k := range acts {
		acts[k] = make([]float64, B*widths[k])
	}
	grads := make([][]float64, nl+1) // d loss / d acts[k]
	for k := range grads {
		grads[k] = make([]float64, B*widths[k])
	}
	gW := make([][]float64, nl)
	gB := make([][]float64, nl)
	mW, vW, mB, vB := make([][]float64, nl), make([][]float64, nl), make([][]float64, nl), make([][]float64, nl)
	for k, l := range net.Layers {
		gW[k], mW[k], vW[k] = make([]float64, len(l.W)), make([]float64, len(l.W)), make([]float64, len(l.W))
		gB[k], mB[k], vB[k] = make([]float64, len(l.B)), make([]float64, len(l.B)), make([]float64, len(l.B))
	}
	y := make([]float64, B)
	impl := gonum.Implementation{}
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	step := 0

	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	best := cloneNet(net)
	rep.BestEpoch = -1
	rep.ValidMAE = math.NaN()
	bestValid := math.Inf(1)
	for epoch := range cfg.Epochs {
		if err := ctx.Err(); err != nil {
			return nil, rep, fmt.Errorf("distcurve: train: %w", context.Cause(ctx))
		}
		lr := cfg.LR
		if cfg.Epochs > 1 {
			lr = cfg.LR * (0.01 + 0.99*0.5*(1+math.Cos(math.Pi*float64(epoch)/float64(cfg.Epochs-1))))
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var sumAbs float64
		for start := 0; start < len(order); start += B {
			nb := min(B, len(order)-start)
			x := acts[0]
			for r := range nb {
				e := train[order[start+r]]
				for i, v := range e.Curve {
					x[r*in+i] = (v - net.Mean[i]) / net.Scale[i]
				}
				y[r] = e.Alpha
			}
			// Forward.
			for k, l := range net.Layers {
				z := acts[k+1]
				for r := range nb {
					copy(z[r*l.Out:(r+1)*l.Out], l.B)
				}
				impl.Dgemm(blas.NoTrans, blas.Trans, nb, l.Out, l.In, 1, acts[k], l.In, l.W, l.In, 1, z, l.Out)
				if k < nl-1 {
					for i := range z[:nb*l.Out] {
						z[i] = max(z[i], 0)
					}
				}
			}
			// MAE gradient.
			out := acts[nl]
			g := grads[nl]
			for r := range nb {
				d := out[r] - y[r]
				sumAbs += math.Abs(d)
				switch {
				case d > 0:
					g[r] = 1 / float64(nb)
				case d < 0:
					g[r] = -1 / float64(nb)
				default:
					g[r] = 0
				}
			}
			// Backward.
			for k := nl - 1; k >= 0; k-- {
				l := net.Layers[k]
				dz := grads[k+1]
				impl.Dgemm(blas.Trans, blas.NoTrans, l.Out, l.In, nb, 1, dz, l.Out, acts[k], l.In, 0, gW[k], l.In)
				clear(gB[k])
				for r := range nb {
					for o := range l.Out {
						gB[k][o] += dz[r*l.Out+o]
					}
				}
				if k > 0 {
					da := grads[k]
					impl.Dgemm(blas.NoTrans, blas.NoTrans, nb, l.In, l.Out, 1, dz, l.Out, l.W, l.In, 0, da, l.In)
					a := acts[k]
					for i := range da[:nb*l.In] {
						if a[i] <= 0 {
							da[i] = 0
						}
					}
				}
			}
			// Adam.
			step++
			c1 := 1 - math.Pow(beta1, float64(step))
			c2 := 1 - math.Pow(beta2, float64(step))
			for k, l := range net.Layers {
				adam(l.W, gW[k], mW[k], vW[k], lr, c1, c2, beta1, beta2, eps)
				adam(l.B, gB[k], mB[k], vB[k], lr, c1, c2, beta1, beta2, eps)
			}
		}
		trainMAE := sumAbs / float64(len(train))
		validMAE := math.NaN()
		if len(valid) > 0 {
			validMAE = MAE(net, valid)
			if validMAE < bestValid {
				bestValid = validMAE
				best = cloneNet(net)
				rep.BestEpoch, rep.TrainMAE, rep.ValidMAE = epoch, trainMAE, validMAE
			}
		} else {
			best = net
			rep.BestEpoch, rep.TrainMAE = epoch, trainMAE
		}
		if cfg.Log != nil {
			cfg.Log(epoch, lr, trainMAE, validMAE)
		}
	}
	if err := best.Validate(); err != nil {
		return nil, rep, fmt.Errorf("distcurve: train: %w", err)
	}
	return best, rep, nil
}

func adam(w, g, m, v []float64, lr, c1, c2, beta1, beta2, eps float64) {
	for i, gi := range g {
		m[i] = beta1*m[i] + (1-beta1)*gi
		v[i] = beta2*v[i] + (1-beta2)*gi*gi
		w[i] -= lr * (m[i] / c1) / (math.Sqrt(v[i]/c2) + eps)
	}
}

func cloneNet(n *Network) *Network {
	c := &Network{Mean: append([]float64(nil), n.Mean...), Scale: append([]float64(nil), n.Scale...)}
	for _, l := range n.Layers {
		c.Layers = append(c.Layers, Layer{In: l.In, Out: l.Out, W: append([]float64(nil), l.W...), B: append([]float64(nil), l.B...)})
	}
	return c
}

// MAE is the mean absolute error of the network's clipped prediction over
// the examples (NaN for none).
func MAE(n *Network, examples []Example) float64 {
	if len(examples) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, e := range examples {
		s += math.Abs(min(max(n.Raw(e.Curve), 0), 1) - e.Alpha)
	}
	return s / float64(len(examples))
}

// Standardisation is the per-point mean and population standard deviation
// of the training curves (a deviation of 0 taken as 1), the inputs'
// z = (x - mean)/scale of every shipped network. train is not empty and its
// curves have one length.
func Standardisation(train []Example) (mean, scale []float64) {
	in := len(train[0].Curve)
	mean, scale = make([]float64, in), make([]float64, in)
	for _, e := range train {
		for i, v := range e.Curve {
			mean[i] += v
		}
	}
	for i := range mean {
		mean[i] /= float64(len(train))
	}
	for _, e := range train {
		for i, v := range e.Curve {
			d := v - mean[i]
			scale[i] += d * d
		}
	}
	for i := range scale {
		scale[i] = math.Sqrt(scale[i] / float64(len(train)))
		if !(scale[i] > 1e-300) {
			scale[i] = 1
		}
	}
	return mean, scale
}
