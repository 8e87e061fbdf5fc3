package nnet

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/internal/portmath"
)

// Rows is a weighted selection of the rows of a feature matrix, the training
// set of one net. Row Index[i] enters the training loss with weight Train[i]
// and the validation loss with weight Val[i]. For a bootstrap the weights are
// the row's multiplicities: with the published split by position a row drawn
// three times, twice into training positions and once into a validation
// position, has Train 2 and Val 1. An index may appear more than once (each
// occurrence is a separate row); rows with both weights zero are ignored.
//
// Extremes, when set, must have been built from the matrix given to Train
// (NewExtremes); it speeds up the min-max map's ranges and changes nothing
// else.
type Rows struct {
	Index      []int
	Train, Val []float64
	Extremes   *Extremes
}

// StopReason says why a training run ended.
type StopReason uint8

const (
	StopMaxEpochs  StopReason = iota // MaxEpochs updates done
	StopValidation                   // MaxFail consecutive validation failures
	StopMinGrad                      // gradient norm below RPROP.MinGrad
	StopGoal                         // training MSE reached 0 (MATLAB's goal)
)

func (r StopReason) String() string {
	switch r {
	case StopMaxEpochs:
		return "max-epochs"
	case StopValidation:
		return "validation"
	case StopMinGrad:
		return "min-grad"
	case StopGoal:
		return "goal"
	}
	return fmt.Sprintf("StopReason(%d)", uint8(r))
}

// Stats describe one training run.
type Stats struct {
	Epochs    int        // RPROP updates performed
	BestEpoch int        // epoch (number of updates) of the returned weights
	Stop      StopReason // why training ended
	TrainMSE  float64    // training MSE of the returned weights, 0/1 target units
	ValMSE    float64    // validation MSE of the returned weights (NaN without validation rows)
	TrainRows int        // rows with a training weight
	ValOnly   int        // rows with only a validation weight
	Inputs    int        // active (non-constant) columns
	Flops     float64    // nominal floating-point operations of the Epochs+1 passes (see FlopsPerEpoch)
}

// Trainer trains nets one after another, reusing its buffers, so that the
// epoch loop allocates nothing. A Trainer is not safe for concurrent use: give
// each goroutine its own.
type Trainer struct {
	p Params

	// problem, rebuilt by every Train call
	cols     []int     // active columns
	min, inv []float64 // their mapping
	prob     problem   // gathered, mapped rows

	// optimisation state, length nWeights
	w, g, gPrev, delta, best []float64

	k       kernel
	kernel  string   // its name
	order   []int    // rows of the problem, training rows first
	sel     []uint64 // selected rows (setup with Rows.Extremes)
	trained bool     // a net was trained: PredictRows may run
	inputs  int      // columns of the matrix of the last Train

	// trace, when set (tests only), sees the errors of every epoch.
	trace func(epoch int, perf, vperf float64)
}

// NewTrainer returns a Trainer for the given parameters.
func NewTrainer(p Params) (*Trainer, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("nnet: invalid parameters: %w", err)
	}
	k, _ := resolveKernel(p.Kernel)
	return &Trainer{p: p, k: k.new(), kernel: k.name}, nil
}

// Params returns the trainer's parameters.
func (tr *Trainer) Params() Params { return tr.p }

// Kernel names the epoch kernel the trainer runs.
func (tr *Trainer) Kernel() string { return tr.kernel }

// ErrNoTrainingRows is returned (wrapped) when no row has a positive training weight.
var ErrNoTrainingRows = errors.New("no row has a positive training weight")

// Train fits one net to the rows of x selected by rows, with targets y
// (true = 1, mapped to +1; false = 0, mapped to -1), drawing its initial
// weights from rng. It returns the weights of the epoch with the lowest
// validation error (the final weights when no row has a validation weight).
//
// The procedure (package documentation gives the formulas): min-max map of
// the active columns over all selected rows; Nguyen-Widrow initialisation;
// full-batch RPROP on the weighted training MSE; after every epoch the
// weighted validation MSE is compared with the best so far; training stops at
// MaxEpochs updates, MaxFail consecutive validation failures, a gradient norm
// below MinGrad, or a training MSE of 0. ctx is checked once per epoch.
func (tr *Trainer) Train(ctx context.Context, x *mat.Dense, y []bool, rows Rows, rng *rand.Rand) (*Net, Stats, error) {
	tr.trained = false
	if err := tr.setup(x, y, rows); err != nil {
		return nil, Stats{}, err
	}
	st, err := tr.fit(ctx, rng)
	if err != nil {
		return nil, st, err
	}
	tr.trained = true
	_, tr.inputs = x.Dims()
	return tr.net(x), st, nil
}

// setup validates rows, finds the active columns and their ranges, and
// gathers the mapped rows into tr.prob: rows with a training weight first,
// then rows with only a validation weight, each group in the order given.
func (tr *Trainer) setup(x *mat.Dense, y []bool, rows Rows) error {
	if x == nil {
		return errors.New("nnet: train: nil feature matrix")
	}
	n, d := x.Dims()
	if len(y) != n {
		return fmt.Errorf("nnet: train: %d targets for %d rows", len(y), n)
	}
	if len(rows.Train) != len(rows.Index) || len(rows.Val) != len(rows.Index) {
		return fmt.Errorf("nnet: train: rows has %d indices, %d training and %d validation weights",
			len(rows.Index), len(rows.Train), len(rows.Val))
	}
	raw := x.RawMatrix()

	// One pass over the selected rows: weights, counts, and the column
	// ranges over every selected row (MATLAB's mapminmax is fitted on the
	// whole bootstrap sample, validation positions included).
	lo := grow(&tr.min, d)
	hi := grow(&tr.inv, d)
	for k := range d {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	ext := rows.Extremes
	var sel []uint64 // with ext: the selected rows, a bit set
	if ext != nil {
		if ext.x != x || ext.n != n || ext.d != d {
			return errors.New("nnet: train: rows.Extremes was built from another matrix")
		}
		tr.sel = growSlice(tr.sel, (n+63)/64)
		sel = tr.sel
		clear(sel)
	}
	var sumT float64
	nT, nV := 0, 0
	for i, r := range rows.Index {
		if r < 0 || r >= n {
			return fmt.Errorf("nnet: train: row index %d out of range [0, %d)", r, n)
		}
		wt, wv := rows.Train[i], rows.Val[i]
		if !(wt >= 0) || !(wv >= 0) || math.IsInf(wt, 0) || math.IsInf(wv, 0) {
			return fmt.Errorf("nnet: train: row %d has weights (%v, %v); weights must be finite and >= 0", r, wt, wv)
		}
		switch {
		case wt > 0:
			nT++
			sumT += wt
		case wv > 0:
			nV++
		default:
			continue
		}
		if ext != nil {
			sel[r>>6] |= 1 << (r & 63)
			continue
		}
		row := raw.Data[r*raw.Stride : r*raw.Stride+d]
		lo, hi := lo[:len(row)], hi[:len(row)]
		for k, v := range row {
			if v-v != 0 { // NaN or infinite
				return fmt.Errorf("nnet: train: feature %d of row %d is %v; features must be finite", k, r, v)
			}
			if v < lo[k] {
				lo[k] = v
			}
			if v > hi[k] {
				hi[k] = v
			}
		}
	}
	if nT == 0 {
		return fmt.Errorf("nnet: train: %w", ErrNoTrainingRows)
	}
	if ext != nil {
		ext.ranges(sel, rows.Index, lo, hi)
	}
	tr.cols = tr.cols[:0]
	m := 0
	for k := range d {
		// -0 and +0 are equal values, and whichever a column's range ends
		// at maps every value the same; +0 makes the ranges, and hence Net,
		// the same bit for bit with or without Extremes.
		lo[k], hi[k] = lo[k]+0, hi[k]+0
		if math.IsInf(hi[k]-lo[k], 0) {
			return fmt.Errorf("nnet: train: column %d spans [%g, %g], a range that overflows float64", k, lo[k], hi[k])
		}
		// A column constant over the rows carries no information and would
		// divide by zero; so would a range so small that 2/range overflows.
		if inv := 2 / (hi[k] - lo[k]); hi[k] > lo[k] && !math.IsInf(inv, 0) {
			tr.cols = append(tr.cols, k)
			lo[m], hi[m] = lo[k], inv
			m++
		}
	}
	tr.min, tr.inv = lo[:m], hi[:m]

	p := &tr.prob
	p.d, p.h = m, tr.p.Hidden
	p.n, p.nTrain = nT+nV, nT
	p.sumTrain = sumT
	order := growInt(&tr.order, p.n)
	ts := grow(&p.t, p.n)
	wts := grow(&p.wt, p.n)
	wvs := grow(&p.wv, p.n)
	put := func(at, i int) {
		r := rows.Index[i]
		order[at] = r
		ts[at] = -1
		if y[r] {
			ts[at] = 1
		}
		wts[at], wvs[at] = rows.Train[i], rows.Val[i]
	}
	at, atV := 0, nT
	for i := range rows.Index {
		switch {
		case rows.Train[i] > 0:
			put(at, i)
			at++
		case rows.Val[i] > 0:
			put(atV, i)
			atV++
		}
	}
	p.src = rowSource{raw: raw.Data, stride: raw.Stride, idx: order, cols: tr.cols, lo: tr.min[:m], inv: tr.inv[:m]}
	p.x = p.x[:0]
	var sumV float64
	for _, v := range wvs {
		sumV += v
	}
	p.sumVal = sumV
	return nil
}

// fit runs the epoch loop on tr.prob. It allocates only when the problem is
// larger than any before (buffer growth), never per epoch.
func (tr *Trainer) fit(ctx context.Context, rng *rand.Rand) (Stats, error) {
	p := &tr.prob
	nw := p.h*p.d + 2*p.h + 1
	w, g := grow(&tr.w, nw), grow(&tr.g, nw)
	gPrev, delta, best := grow(&tr.gPrev, nw), grow(&tr.delta, nw), grow(&tr.best, nw)
	initNguyenWidrow(w, p.h, p.d, rng)
	clear(gPrev)
	for i := range delta {
		delta[i] = tr.p.RPROP.Delta0
	}
	tr.k.load(p)

	hasVal := p.sumVal > 0
	st := Stats{TrainRows: p.nTrain, ValOnly: p.n - p.nTrain, Inputs: p.d, ValMSE: math.NaN()}
	stop := stopper{maxEpochs: tr.p.MaxEpochs, maxFail: tr.p.MaxFail, minGrad: tr.p.RPROP.MinGrad, hasVal: hasVal}
	flops := FlopsPerEpoch(p.d, p.h, p.nTrain, p.n-p.nTrain)
	done := ctx.Done()
	// Loss in 0/1 target units: (y01 - t01)^2 = (e/2)^2 with e = y - t in
	// +-1 units, so MSE = sse/(4 W). The kernel's gradient is
	// sum_i wt_i e_i dy_i/dw = (1/2) d(sse)/dw, so d(MSE)/dw = g/(2 W_train).
	trainScale, valScale := 1/(4*p.sumTrain), 1/(4*p.sumVal)
	gScale := 1 / (2 * p.sumTrain)
	for epoch := 0; ; epoch++ {
		select {
		case <-done:
			return st, fmt.Errorf("nnet: train: stopped after %d epochs: %w", epoch, context.Cause(ctx))
		default:
		}
		sseT, sseV := tr.k.epoch(w, g)
		st.Flops += flops
		perf, vperf := sseT*trainScale, sseV*valScale
		if tr.trace != nil {
			tr.trace(epoch, perf, vperf)
		}
		gnorm := 0.0
		for _, v := range g {
			gnorm = madd(v, v, gnorm)
		}
		gnorm = math.Sqrt(gnorm) * gScale
		improved, reason, stopNow := stop.observe(epoch, perf, vperf, gnorm)
		if improved || !hasVal {
			copy(best, w)
			st.BestEpoch, st.TrainMSE = epoch, perf
			if hasVal {
				st.ValMSE = vperf
			}
		}
		if stopNow {
			st.Epochs, st.Stop = epoch, reason
			break
		}
		rpropStep(w, g, gPrev, delta, tr.p.RPROP)
	}
	return st, nil
}

// PredictRows writes into out[i] the score in (0, 1) of row idx[i] of x
// under the net the last successful Train call returned, computed by the
// trainer's kernel: with the scalar kernel exactly what Net.Predict
// computes, with the float32 kernels their prediction numerics
// (kernel_f32.go). x must have the columns of the matrix the net was trained
// on, and finite features (PredictRows does not check; Net.Predict does).
// It allocates only to grow the trainer's buffers.
func (tr *Trainer) PredictRows(x *mat.Dense, idx []int, out []float64) error {
	if !tr.trained {
		return errors.New("nnet: predict rows: no net trained")
	}
	_, d := x.Dims()
	if d != tr.inputs {
		return fmt.Errorf("nnet: predict rows: %d features, the net was trained on %d", d, tr.inputs)
	}
	if len(out) < len(idx) {
		return fmt.Errorf("nnet: predict rows: %d outputs for %d rows", len(out), len(idx))
	}
	raw := x.RawMatrix()
	src := rowSource{raw: raw.Data, stride: raw.Stride, idx: idx, cols: tr.cols, lo: tr.min, inv: tr.inv}
	m := len(tr.cols)
	nw := tr.prob.h*m + 2*tr.prob.h + 1
	tr.k.predict(tr.best[:nw], &src, out[:len(idx)])
	for i := range idx {
		out[i] = (out[i] + 1) / 2
		if math.IsNaN(out[i]) {
			// Only a row so far outside the training range that its mapped
			// value overflows can get here.
			return fmt.Errorf("nnet: predict rows: row %d lies too far outside the training range (its mapped features overflow)", idx[i])
		}
	}
	return nil
}

// net copies the best weights and the mapping into a new Net.
func (tr *Trainer) net(x *mat.Dense) *Net {
	_, d := x.Dims()
	nw := tr.prob.h*tr.prob.d + 2*tr.prob.h + 1
	return &Net{
		d:       d,
		cols:    append([]int(nil), tr.cols...),
		min:     append([]float64(nil), tr.min...),
		inv:     append([]float64(nil), tr.inv...),
		h:       tr.prob.h,
		weights: append([]float64(nil), tr.best[:nw]...),
	}
}

// stopper holds MATLAB's early-stopping bookkeeping (trainrp with a
// validation set): the initial weights are the first "best"; a later epoch
// with validation MSE strictly below the best becomes the best and resets the
// failure count, one strictly above it counts a failure, and an equal one
// does neither.
type stopper struct {
	maxEpochs, maxFail int
	minGrad            float64
	hasVal             bool

	best  float64
	fails int
}

// observe records the errors of the weights after `epoch` updates and says
// whether they are the best so far and whether to stop, checking in MATLAB's
// order: goal (training MSE 0), maximum epochs, minimum gradient, validation
// failures.
func (s *stopper) observe(epoch int, perf, vperf, gnorm float64) (improved bool, reason StopReason, stop bool) {
	if s.hasVal {
		switch {
		case epoch == 0 || vperf < s.best:
			s.best, s.fails, improved = vperf, 0, true
		case vperf > s.best:
			s.fails++
		}
	}
	switch {
	case perf <= 0:
		return improved, StopGoal, true
	case epoch >= s.maxEpochs:
		return improved, StopMaxEpochs, true
	case gnorm < s.minGrad:
		return improved, StopMinGrad, true
	case s.hasVal && s.fails >= s.maxFail:
		return improved, StopValidation, true
	}
	return improved, 0, false
}

// rpropStep applies one RPROP update as MATLAB trainrp does (Riedmiller &
// Braun 1993 without weight-backtracking, the variant Igel & Huesken 2000
// call Rprop-): per weight, if the gradient kept its sign since the last
// epoch the step grows by Inc (capped at DeltaMax), if it changed sign the
// step shrinks by Dec, if either is zero the step is kept; the weight then
// moves by the step against the sign of its gradient (not at all for a zero
// gradient).
//
// The branches a weight takes follow the signs of its gradients, which
// mispredict often; the factors and signs are picked as float64 bit
// patterns (integer SETcc/CMOV) and multiplied in instead, exactly: d*1 = d,
// w - 1*d = w - d, w - (-1)*d = w + d and w - 0*d = w (-0 included), as
// rpropStepBranches in the tests checks bit for bit. 3 % of an AAAI-2017
// repeat's CPU with the branches.
func rpropStep(w, g, gPrev, delta []float64, r RPROP) {
	g, gPrev, delta = g[:len(w)], gPrev[:len(w)], delta[:len(w)]
	one, negOne := math.Float64bits(1), math.Float64bits(-1)
	inc, dec := math.Float64bits(r.Inc), math.Float64bits(r.Dec)
	noCap, capMax := math.Float64bits(math.Inf(1)), math.Float64bits(r.DeltaMax)
	for i := range w {
		gi := g[i]
		s := gi * gPrev[i]
		f, c := one, noCap
		if s > 0 {
			f, c = inc, capMax
		}
		if s < 0 {
			f = dec
		}
		d := delta[i] * math.Float64frombits(f)
		if cv := math.Float64frombits(c); d > cv { // rare: predicted
			d = cv
		}
		delta[i] = d
		var sg uint64 // +0
		if gi > 0 {
			sg = one
		}
		if gi < 0 {
			sg = negOne
		}
		w[i] -= math.Float64frombits(sg) * d
		gPrev[i] = gi
	}
}

// initNguyenWidrow draws the initial weights (Nguyen & Widrow 1990) for h
// hidden units on d inputs in [-1, 1] and one output unit on the h hidden
// outputs in [-1, 1]: each unit's input weight vector has a uniformly random
// direction (a uniform draw from [-1, 1]^d, normalised) and length
// beta = 0.7 * units^(1/inputs), and its bias is uniform in [-beta, beta].
// Draw order: W row by row, then b, then v, then c. The power is
// portmath.Pow: math.Pow rounds differently on amd64 with FMA, amd64
// without, and arm64 (e.g. 7^(1/160), PSB-2019's HIV), and the initial
// weights must be the same bits everywhere. (The float32x16 kernels round
// the weights to float32, where the two scales agree; the float64 scalar
// kernel sees the difference.)
func initNguyenWidrow(w []float64, h, d int, rng *rand.Rand) {
	W, b := w[:h*d], w[h*d:h*d+h]
	v, c := w[h*d+h:h*d+2*h], w[h*d+2*h:h*d+2*h+1]
	layer := func(W, b []float64, units, inputs int) {
		beta := 0.7
		if inputs > 0 {
			beta = 0.7 * portmath.Pow(float64(units), 1/float64(inputs))
		}
		for j := range units {
			row := W[j*inputs : j*inputs+inputs]
			for {
				norm := 0.0
				for k := range row {
					row[k] = 2*rng.Float64() - 1
					norm = madd(row[k], row[k], norm)
				}
				if inputs == 0 {
					break
				}
				if norm > 0 {
					f := beta / math.Sqrt(norm)
					for k := range row {
						row[k] *= f
					}
					break
				}
			}
		}
		for j := range b {
			b[j] = beta * (2*rng.Float64() - 1)
		}
	}
	layer(W, b, h, d)
	layer(v, c, 1, h)
}

// grow returns (*buf)[:n], reallocating only when the capacity is too small.
func grow(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	*buf = (*buf)[:n]
	return *buf
}
