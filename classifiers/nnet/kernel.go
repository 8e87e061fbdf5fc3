package nnet

// The epoch kernel is the hot loop of every reproduction (DESIGN.md section
// 10): one forward pass over every gathered row, the training and validation
// losses, and the back-propagated gradient over the rows with a training
// weight. It sits behind the kernel interface so that a vector kernel
// (float32, 8 or 16 rows per register; issue 10) can replace the scalar one
// behind a build tag or a CPU check in newKernel, with the scalar kernel kept
// as the portable fallback and the reference its results are tested against.

// problem is one net's training set after gathering: n rows of d mapped
// inputs, row-major, the rows with a training weight first.
type problem struct {
	d, h      int       // active inputs, hidden units
	n, nTrain int       // rows; rows [0, nTrain) have wt > 0, rows [nTrain, n) only wv > 0
	x         []float64 // n*d mapped inputs in [-1, 1]
	t         []float64 // targets, +1 or -1
	wt, wv    []float64 // training and validation weights (bootstrap multiplicities)
	sumTrain  float64   // sum of wt
	sumVal    float64   // sum of wv
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
}

// newKernel returns the kernel Train uses. Today that is the scalar float64
// kernel; a faster kernel would be chosen here (and KernelName updated).
func newKernel() kernel { return new(scalarKernel) }

// KernelName names the epoch kernel Train uses, for run manifests:
// "scalar" is the portable float64 kernel.
func KernelName() string { return "scalar" }

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
// what the README's GFLOP/s figures use.
func FlopsPerEpoch(d, h, nTrain, nValOnly int) float64 {
	fwd := float64(2*h*d + 3*h + 8)
	bwd := float64(2*h*d + 7*h + 5)
	return float64(nTrain)*(fwd+bwd) + float64(nValOnly)*fwd
}
