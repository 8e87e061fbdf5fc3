package classifiers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pueval/pueval/classifiers/nnet"
)

// NNetBagName is the registry name of the bagged-nets classifier.
const NNetBagName = "nnet-bag"

// nnetBagVersion is part of Key: bump it when a code change alters the
// scores produced for the same options, data and seed, so that cached scores
// are not reused across the change.
const nnetBagVersion = 2 // 2: the initial weights' scale by portmath.Pow (the same bits on every CPU; the scalar kernel's nets can change)

// Split is how a bootstrap sample is divided into training and validation.
type Split string

const (
	// SplitPosition holds out a random fraction of the bootstrap's draws
	// (positions), as the published MATLAB code does: a row drawn several
	// times can be in both parts.
	SplitPosition Split = "position"
	// SplitUnique holds out a random fraction of the distinct rows of the
	// bootstrap with all their copies, so no row is in both parts.
	SplitUnique Split = "unique"
)

// NNetBag is the options of the bagged-nets classifier, registered as
// "nnet-bag", and its Scorer. The embedded nnet.Params are inlined in YAML:
//
//	bags: 100            # B, nets in the bag
//	hidden: 5            # h, tanh units of the hidden layer
//	max_epochs: 500      # RPROP updates at most (PSB 2019: 5000)
//	max_fail: 25         # consecutive validation failures before stopping
//	val_fraction: 0.25   # fraction of the bootstrap held out for validation
//	split: position      # position (published) | unique
//	rprop: {delta0: 0.07, inc: 1.2, dec: 0.5, delta_max: 50, min_grad: 1e-5}
//	kernel: auto         # auto (fastest float32x16 kernel here) | avx512 | avx2 | float32-go | scalar (float64)
//	workers: 0           # goroutines training nets; 0 = GOMAXPROCS; never changes scores
type NNetBag struct {
	Bags        int `yaml:"bags"`
	nnet.Params `yaml:",inline"`
	ValFraction float64 `yaml:"val_fraction"`
	Split       Split   `yaml:"split"`
	Workers     int     `yaml:"workers" key:"-"` // execution only: never changes a score, so not in Key

	// duplicateRows trains each net on its bootstrap rows one copy per draw
	// (weight 1) instead of unique rows with multiplicity weights; the nets
	// are the same up to rounding. Only the benchmark sets it, to measure
	// what the weighted layout saves.
	duplicateRows bool
}

// DefaultNNetBag returns the published AAAI-2017 settings: 100 nets, h = 5, 500 epochs, 25 failures, 25 % validation split by
// position, trainrp's RPROP constants.
func DefaultNNetBag() NNetBag {
	return NNetBag{Bags: 100, Params: nnet.DefaultParams(), ValFraction: 0.25, Split: SplitPosition}
}

// Compile-time checks: NNetBag is a classifier's options and its Scorer.
var (
	_ Config = (*NNetBag)(nil)
	_ Scorer = (*NNetBag)(nil)
)

// maxBags bounds B so that a typo is an error rather than a day of training.
const maxBags = 100000

// Name returns "nnet-bag".
func (o *NNetBag) Name() string { return NNetBagName }

// Validate reports every invalid field at once.
func (o *NNetBag) Validate() error {
	var errs []error
	if o.Bags < 1 || o.Bags > maxBags {
		errs = append(errs, fmt.Errorf("bags = %d: want an integer in [1, %d]", o.Bags, maxBags))
	}
	if err := o.Params.Validate(); err != nil {
		errs = append(errs, err)
	}
	if !(o.ValFraction >= 0 && o.ValFraction < 1) {
		errs = append(errs, fmt.Errorf("val_fraction = %v: want a number in [0, 1)", o.ValFraction))
	}
	if o.Split != SplitPosition && o.Split != SplitUnique {
		errs = append(errs, fmt.Errorf("split = %q: want %q or %q", o.Split, SplitPosition, SplitUnique))
	}
	if o.Workers < 0 {
		errs = append(errs, fmt.Errorf("workers = %d: want an integer >= 0 (0 = GOMAXPROCS)", o.Workers))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("classifier %s: %w", NNetBagName, err)
	}
	return nil
}

// New validates the options and returns the Scorer (a copy of o).
func (o *NNetBag) New() (Scorer, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	c := *o
	return &c, nil
}

// Key is a canonical string of the options that change scores (all but
// workers) and the algorithm version. It names the numerics of the kernel
// that will run (nnet.KernelNumerics: kernel "auto" resolves to the
// float32x16 numerics on every machine unless $PUEVAL_KERNEL forces
// scalar), except for the scalar kernel's float64, whose keys
// predate the vector kernels: scores of kernels with different numerics
// differ in the last bits and never share a cache entry.
func (o *NNetBag) Key() string {
	r := o.RPROP
	key := fmt.Sprintf("%s/v%d bags=%d hidden=%d max_epochs=%d max_fail=%d val_fraction=%v split=%s rprop=%v,%v,%v,%v,%v",
		NNetBagName, nnetBagVersion, o.Bags, o.Hidden, o.MaxEpochs, o.MaxFail, o.ValFraction, o.Split,
		r.Delta0, r.Inc, r.Dec, r.DeltaMax, r.MinGrad)
	if num := nnet.KernelNumerics(o.Kernel); num != nnet.NumericsFloat64 {
		key += " numerics=" + num
	}
	return key
}

// KernelName names the epoch kernel Score runs (option kernel, with "auto"
// resolved to the fastest this binary and CPU support), for run manifests.
func (o *NNetBag) KernelName() string { return o.Params.KernelName() }

// NetSeed derives net b's random stream from the bag's seed: the two PCG seed
// words are the (2b+1)-th and (2b+2)-th outputs of SplitMix64 (Steele, Lea &
// Flood 2014) started at seed. Every net thus has its own stream, fixed by
// (seed, b) alone, which is what makes a bag's scores independent of how its
// nets are spread over workers.
func NetSeed(seed uint64, b int) (uint64, uint64) {
	gamma := uint64(0x9e3779b97f4a7c15) // SplitMix64's increment; products wrap mod 2^64
	k := uint64(2*b + 1)
	return splitmix(seed + k*gamma), splitmix(seed + (k+1)*gamma)
}

// splitmix is SplitMix64's output function applied to a state.
func splitmix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Score trains o.Bags nets, each on its own bootstrap sample of the rows of
// data, and returns for every row the mean of (y + 1)/2 over the nets for
// which the row was out of bag (not drawn); a row out of bag in no net gets
// the mean score of the other rows.
//
// Net b, with the stream NetSeed(seed, b), draws in this order: n row indices
// uniformly with replacement (the bootstrap); for SplitUnique, the validation
// rows (round(ValFraction * distinct rows) of them, a uniform subset); then
// its initial weights (nnet). For SplitPosition the first
// round(ValFraction * n) draws are the validation positions: the draws are
// independent and identically distributed, so this has exactly the
// distribution of the published choice of a random subset of positions.
// The net is trained on the distinct drawn rows, each weighted by its number
// of training and of validation draws.
func (o *NNetBag) Score(ctx context.Context, data Data, seed uint64) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	n, _, err := data.check()
	if err != nil {
		return nil, fmt.Errorf("classifier %s: %w", NNetBagName, err)
	}
	workers := o.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, o.Bags)
	// The nets' column ranges come from one index of the matrix rather
	// than a pass over every net's rows (about 3 % of a bag's time).
	ext, err := nnet.NewExtremes(data.X)
	if err != nil {
		return nil, fmt.Errorf("classifier %s: %w", NNetBagName, err)
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	// Nets finish in any order; their out-of-bag predictions are summed in
	// net order (the reducer below), so the floating-point sums and hence
	// the scores are the same for any number of workers.
	var (
		mu      sync.Mutex
		pending = make([]*netOutput, o.Bags)
		next    int
		sum     = make([]float64, n)
		count   = make([]int, n)
		models  = make([]ModelStats, o.Bags)
		queue   atomic.Int64
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
	)
	fail := func(err error) {
		errOnce.Do(func() { first = err; cancel(err) })
	}
	for range workers {
		wg.Go(func() {
			w, err := o.newWorker(n)
			if err != nil {
				fail(err)
				return
			}
			w.rows.Extremes = ext
			for {
				b := int(queue.Add(1) - 1)
				if b >= o.Bags || ctx.Err() != nil {
					return
				}
				out, err := w.run(ctx, data, seed, b)
				if err != nil {
					fail(fmt.Errorf("classifier %s: net %d: %w", NNetBagName, b, err))
					return
				}
				mu.Lock()
				pending[b] = out
				for next < o.Bags && pending[next] != nil {
					p := pending[next]
					for i, r := range p.rows {
						sum[r] += p.pred[i]
						count[r]++
					}
					models[next] = p.stats
					pending[next] = nil
					next++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	if err := context.Cause(ctx); err != nil && next < o.Bags {
		return nil, fmt.Errorf("classifier %s: %w", NNetBagName, err)
	}

	res := &Result{Scores: make([]float64, n), OOBCount: count, Models: models}
	var total float64
	var scored int
	for i := range n {
		if count[i] > 0 {
			res.Scores[i] = sum[i] / float64(count[i])
			total += res.Scores[i]
			scored++
		}
	}
	fill := 0.5 // only if no row was ever out of bag (tiny data, one net)
	if scored > 0 {
		fill = total / float64(scored)
	}
	for i := range n {
		if count[i] == 0 {
			res.Scores[i] = fill
			res.Filled++
		}
	}
	return res, nil
}

// drawBootstrap draws a bootstrap sample of the n = len(nT) rows and its
// validation part, writing into nT[r] and nV[r] the number of training and
// validation draws of row r (uniq is scratch space, returned for reuse):
//
//   - SplitPosition: n draws uniformly with replacement; the first
//     round(valFrac*n) draws are validation, the rest training. The draws are
//     i.i.d., so the first k of them have exactly the distribution of a
//     uniformly random set of k positions (the published divideind choice).
//   - SplitUnique: n draws; then round(valFrac*u) of the u distinct drawn
//     rows, a uniformly random subset (partial Fisher-Yates), become
//     validation rows with all their draws.
func drawBootstrap(rng *rand.Rand, split Split, valFrac float64, nT, nV []int32, uniq []int) []int {
	n := len(nT)
	clear(nT)
	clear(nV)
	switch split {
	case SplitPosition:
		nVal := int(math.Round(valFrac * float64(n)))
		for pos := range n {
			r := rng.IntN(n)
			if pos < nVal {
				nV[r]++
			} else {
				nT[r]++
			}
		}
	case SplitUnique:
		for range n {
			nT[rng.IntN(n)]++
		}
		uniq = uniq[:0]
		for r, c := range nT {
			if c > 0 {
				uniq = append(uniq, r)
			}
		}
		nVal := int(math.Round(valFrac * float64(len(uniq))))
		for i := range nVal {
			j := i + rng.IntN(len(uniq)-i)
			uniq[i], uniq[j] = uniq[j], uniq[i]
			r := uniq[i]
			nV[r], nT[r] = nT[r], 0
		}
	}
	return uniq
}

// netOutput is one net's contribution: its out-of-bag rows, in increasing
// order, and their predictions (y + 1)/2.
type netOutput struct {
	rows  []int32
	pred  []float64
	stats ModelStats
}

// worker holds one goroutine's reusable buffers.
type worker struct {
	o       *NNetBag
	trainer *nnet.Trainer
	nT, nV  []int32 // per row: training and validation draws
	uniq    []int   // distinct drawn rows (SplitUnique)
	oob     []int   // out-of-bag rows
	rows    nnet.Rows
}

func (o *NNetBag) newWorker(n int) (*worker, error) {
	tr, err := nnet.NewTrainer(o.Params)
	if err != nil {
		return nil, err
	}
	return &worker{o: o, trainer: tr, nT: make([]int32, n), nV: make([]int32, n)}, nil
}

// run trains net b and predicts its out-of-bag rows.
func (w *worker) run(ctx context.Context, data Data, seed uint64, b int) (*netOutput, error) {
	o := w.o
	n := len(data.Y)
	rng := rand.New(rand.NewPCG(NetSeed(seed, b)))
	nT, nV := w.nT, w.nV
	w.uniq = drawBootstrap(rng, o.Split, o.ValFraction, nT, nV, w.uniq)

	rows := &w.rows
	rows.Index, rows.Train, rows.Val = rows.Index[:0], rows.Train[:0], rows.Val[:0]
	oob := 0
	for r := range n {
		t, v := nT[r], nV[r]
		switch {
		case t == 0 && v == 0:
			oob++
		case o.duplicateRows:
			for range t {
				rows.Index, rows.Train, rows.Val = append(rows.Index, r), append(rows.Train, 1), append(rows.Val, 0)
			}
			for range v {
				rows.Index, rows.Train, rows.Val = append(rows.Index, r), append(rows.Train, 0), append(rows.Val, 1)
			}
		default:
			rows.Index, rows.Train, rows.Val = append(rows.Index, r), append(rows.Train, float64(t)), append(rows.Val, float64(v))
		}
	}

	_, st, err := w.trainer.Train(ctx, data.X, data.Y, *rows, rng)
	if err != nil {
		return nil, err
	}
	// Out-of-bag prediction here in the worker, by the trainer's kernel.
	w.oob = w.oob[:0]
	for r := range n {
		if nT[r] == 0 && nV[r] == 0 {
			w.oob = append(w.oob, r)
		}
	}
	out := &netOutput{rows: make([]int32, len(w.oob)), pred: make([]float64, len(w.oob))}
	for i, r := range w.oob {
		out.rows[i] = int32(r)
	}
	if err := w.trainer.PredictRows(data.X, w.oob, out.pred); err != nil {
		return nil, err
	}
	out.stats = ModelStats{
		Epochs: st.Epochs, BestEpoch: st.BestEpoch, Stop: st.Stop.String(),
		TrainRows: st.TrainRows, ValOnlyRows: st.ValOnly, OOBRows: oob, Inputs: st.Inputs,
		TrainMSE: st.TrainMSE, ValMSE: st.ValMSE, Flops: st.Flops,
	}
	return out, nil
}
