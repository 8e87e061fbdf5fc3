// Package nnet trains the feed-forward nets of the papers' classifier: one
// hidden layer of h tanh units and a tanh output, fitted by full-batch RPROP
// to the mean squared error, with early stopping on a validation set. It
// reproduces what MATLAB's feedforwardnet(h, 'trainrp') does in the published
// AAAI-2017 code, from the papers and MATLAB's documented defaults.
//
// # Model
//
// For a row x of raw features, with the active columns c_1..c_m (those not
// constant over the training rows):
//
//	x'_k = 2 (x_{c_k} - min_k) / (max_k - min_k) - 1           (mapminmax to [-1, 1])
//	y    = tanh(c + sum_j v_j tanh(b_j + sum_k W_jk x'_k))      j = 1..h, k = 1..m
//	score = (y + 1) / 2                                          (reverse mapminmax of {0, 1})
//
// min_k and max_k are taken over every row the net is given (training and
// validation weights alike: MATLAB fits mapminmax to the whole bootstrap
// sample before dividing it). The published code first z-scores the columns
// with the bootstrap's mean and standard deviation; a positive affine map
// followed by min-max is the same min-max of the raw column, so the z-score
// is omitted. Constant columns are dropped (MATLAB's removeconstantrows).
// A bag's nets find min_k and max_k from one [Extremes] of the matrix, each
// column's 16 lowest and highest rows (the first of them the net holds),
// instead of reading every value of every net's rows; the ranges are the
// same.
// Targets are t = +1 for true and -1 for false.
//
// # Training
//
// The training loss is the weighted MSE in the units of the original 0/1
// targets (only min_grad depends on the units),
//
//	E(w) = sum_i a_i ((y_i + 1)/2 - (t_i + 1)/2)^2 / sum_i a_i = sum_i a_i (y_i - t_i)^2 / (4 sum_i a_i),
//
// with a_i the row's training weight (its number of training draws in a
// bootstrap); the validation MSE is the same with the validation weights.
// The gradient is back-propagated with tanh'(u) = 1 - tanh(u)^2.
//
// RPROP (Riedmiller & Braun 1993, without weight-backtracking as in MATLAB
// trainrp; Igel & Huesken 2000 call it Rprop-): every weight has a step
// delta_i, initially delta0 = 0.07. After each full-batch gradient g,
//
//	g_i g_i' > 0:  delta_i = min(1.2 delta_i, 50)
//	g_i g_i' < 0:  delta_i = 0.5 delta_i
//	otherwise:     delta_i unchanged
//	w_i = w_i - sign(g_i) delta_i
//
// with g' the previous epoch's gradient (0 before the first update).
//
// Stopping, checked after evaluating the weights of every epoch e = 0, 1, ...
// (e updates done), in MATLAB's order: training MSE 0 (goal); e = max_epochs
// (500); |dE/dw| < min_grad (1e-5); max_fail (25) consecutive validation
// failures. The initial weights are the first best; an epoch whose
// validation MSE is strictly below the best becomes the best and resets the
// failure count, one strictly above counts a failure, an equal one does
// neither. The weights returned are the best epoch's (the last epoch's
// without validation rows).
//
// Initial weights (Nguyen & Widrow 1990): each unit's input weight vector has
// a uniformly random direction and length beta = 0.7 units^(1/inputs) (h and
// m for the hidden layer, 1 and h for the output), and its bias is uniform in
// [-beta, beta], as in the paper. MATLAB's initnw is a variant of the same
// rule (it spaces the hidden biases evenly); only the starting point of
// training differs, and the published nets cannot be reproduced draw for
// draw in any case (different random number generator).
//
// # Numerics and determinism
//
// tanh is a clamped rational approximation, |error| <= 3.2e-8 (tanh.go).
// The scalar kernel rounds every multiply-add twice (madd), so its results
// do not depend on the compiler's use of fused multiply-add; with a given
// rng stream a net is a deterministic function of its rows, bit for bit on
// every build.
//
// Params.Kernel selects the epoch kernel (kernel.go): "auto" (the default)
// takes the fastest float32x16 kernel this binary and CPU can run
// (KernelName: "avx512" on an amd64 CPU with AVX-512 F, CD, BW, DQ and VL,
// in any build, a plain go install included; else "avx2" on an amd64 CPU
// with AVX2 and FMA; "neon" on arm64; else "float32-go", plain Go). So
// every machine computes the same float32x16 numerics by default and gives
// the same records; "scalar" (float64, the published code's precision) is
// chosen by name only, and the environment variable PUEVAL_KERNEL
// (KernelEnv) forces what "auto" takes, for tests and benchmarks. Kernels
// with the same numerics (KernelNumerics) compute the same bits; the
// vector kernels' float32x16 numerics (kernel_f32.go: float32 inputs and
// weights, fused multiply-adds, per-lane sums over 16 interleaved row
// streams reduced in float64, 0/1 columns through 16-entry tables) give
// nets that differ from the float64 ones only where a gradient sign or a
// validation comparison lands the other way: most nets come out the same,
// the others like nets of a slightly different problem (TestF32NearF64 for
// an epoch; experiments.TestKernelTolerance for the scores of whole cells).
// Within one kernel a net is still a deterministic function of its rows
// and rng stream.
//
// # Performance
//
// A Trainer gathers the selected rows once (distinct rows with integer
// weights rather than one row per bootstrap draw), maps them straight from
// the caller's matrix into the kernel's layout, reuses its buffers and
// allocates nothing in the epoch loop; PredictRows scores out-of-bag rows
// with the same kernel. The scalar kernel processes rows in pairs and hidden
// units in chunks of four. The avx512 kernel processes 16 rows per register,
// two blocks of 16 at a time, every vector loop (matrix loops, tanh, output
// unit) in Go assembly generated by gen_avx512.go, so it needs no
// GOEXPERIMENT and is picked at run time (golang.org/x/sys/cpu), and the
// 0/1 columns of a bootstrap (one-hot codes) four at a time through table
// lookups (VPERMPS); it is 7-12x faster than the scalar kernel
// (docs/performance.md). The avx2 kernel runs the same loops, generated by
// the same program, on each block as two 8-lane halves (16 YMM registers: fewer
// blocks and columns per pass; the 16-entry tables as two 8-entry VPERMPS
// and a blend): its epochs take 1.6-1.7x the avx512 kernel's time, 9-13x
// less than the scalar kernel's. The neon kernel (arm64) runs them too, on
// each block as four 4-lane quarters (32 vector registers; the 16-entry
// tables by a byte TBL over 64 bytes), generated by gen_neon.go, whose
// instructions Go's arm64 assembler lacks are encoded by the generator
// and checked against a disassembler (make test-cross, which also runs its
// tests under qemu-aarch64; its speed on arm64 hardware is not measured
// yet). FlopsPerEpoch gives the nominal operation count used for GFLOP/s.
//
// References:
//   - M. Riedmiller, H. Braun. A direct adaptive method for faster
//     backpropagation learning: the RPROP algorithm. IEEE ICNN 1993.
//   - C. Igel, M. Huesken. Improving the Rprop learning algorithm. NC 2000.
//   - D. Nguyen, B. Widrow. Improving the learning speed of 2-layer neural
//     networks by choosing initial values of the adaptive weights. IJCNN 1990.
//   - MathWorks documentation of trainrp (delt_inc 1.2, delt_dec 0.5,
//     delta0 0.07, deltamax 50, min_grad 1e-5, max_fail, goal 0), mapminmax
//     and removeconstantrows.
//   - For the tanh fit: H. Loeb (1957) and C. Sanathanan, J. Koerner (1963),
//     linearised rational least squares; C. Lawson (1961), reweighting
//     towards the minimax solution.
package nnet
