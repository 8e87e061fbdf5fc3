package bntrain

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/pueval/pueval/estimators/distcurve"
)

// EpochLog is one epoch's record.
type EpochLog struct {
	Epoch              int
	TrainMAE, ValidMAE float64 // training MAE of the raw output in training mode (dropout on), validation MAE of the clipped output
	Seconds            float64 // filled by the caller's hook (wall time is not part of the result)
}

// State is everything a run needs to continue: the model, Adam's moments
// and step count, the number of epochs done, the best model so far.
type State struct {
	Config    Config
	Model     *Model
	M, V      [][]float32 // Adam's moments, as Model.params
	Step      int64
	Epochs    int // epochs done
	Best      *Model
	BestEpoch int // -1 before the first validation
	BestValid float64
	Log       []EpochLog
}

// NewState initialises a run.
func NewState(train []distcurve.Example, cfg Config) (*State, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(train) == 0 || len(train[0].Curve) == 0 {
		return nil, errors.New("bntrain: no training examples")
	}
	m := newModel(train, cfg)
	s := &State{Config: cfg, Model: m, BestEpoch: -1, BestValid: math.Inf(1)}
	for _, p := range m.params() {
		s.M = append(s.M, make([]float32, len(p)))
		s.V = append(s.V, make([]float32, len(p)))
	}
	return s, nil
}

// streamKey hashes (seed, epoch, purpose) into a PCG seed, so that every
// epoch's draws are fixed without replaying the earlier epochs'.
func streamKey(seed uint64, epoch int, purpose string) uint64 {
	h := fnv.New64a()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], seed)
	binary.LittleEndian.PutUint64(b[8:], uint64(epoch))
	h.Write(b[:])
	h.Write([]byte(purpose))
	return h.Sum64()
}

// Run trains from the state's epoch up to its Config.Epochs. After every
// epoch it records the log entry, keeps the model if its validation MAE is
// the lowest so far, and calls hook (checkpointing, printing); a hook
// error stops the run. The context is checked before every mini-batch.
func Run(ctx context.Context, s *State, train, valid []distcurve.Example, hook func(*State) error) error {
	cfg := &s.Config
	if err := checkExamples(s.Model, train, valid); err != nil {
		return err
	}
	w := newWork(s.Model, cfg.Batch)
	params := s.Model.params()
	order := make([]int, len(train))
	curves, alphas := make([][]float64, cfg.Batch), make([]float64, cfg.Batch)
	for s.Epochs < cfg.Epochs {
		epoch := s.Epochs
		shuf := rand.New(rand.NewPCG(streamKey(cfg.Seed, epoch, "shuffle"), 0))
		drop := rand.New(rand.NewPCG(streamKey(cfg.Seed, epoch, "dropout"), 0))
		for i := range order {
			order[i] = i
		}
		shuf.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var sumAbs float64
		for start := 0; start < len(order); start += cfg.Batch {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("bntrain: epoch %d: %w", epoch, context.Cause(ctx))
			}
			nb := min(cfg.Batch, len(order)-start)
			for r := range nb {
				e := &train[order[start+r]]
				curves[r], alphas[r] = e.Curve, e.Alpha
			}
			w.input(s.Model, curves[:nb], alphas[:nb])
			w.forward(s.Model, nb, true, cfg, drop)
			sumAbs += w.backward(s.Model, nb)
			s.Step++
			adam(params, w.grads, s.M, s.V, s.Step, cfg)
		}
		rec := EpochLog{Epoch: epoch, TrainMAE: sumAbs / float64(len(train)), ValidMAE: math.NaN()}
		if len(valid) > 0 {
			rec.ValidMAE = MAE(s.Model, valid)
			if rec.ValidMAE < s.BestValid {
				s.BestValid, s.BestEpoch, s.Best = rec.ValidMAE, epoch, s.Model.clone()
			}
		}
		s.Log = append(s.Log, rec)
		s.Epochs++
		if hook != nil {
			if err := hook(s); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkExamples(m *Model, sets ...[]distcurve.Example) error {
	in := m.Layers[0].In
	for k, set := range sets {
		for i, e := range set {
			if len(e.Curve) != in {
				return fmt.Errorf("bntrain: set %d example %d: %d points, the network takes %d", k, i, len(e.Curve), in)
			}
			for j, v := range e.Curve {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("bntrain: set %d example %d: curve[%d] = %v", k, i, j, v)
				}
			}
		}
	}
	return nil
}

// Predict is the model's float32 inference output (running statistics, no
// dropout), clipped to [0, 1], for each curve.
func Predict(m *Model, curves [][]float64) []float64 {
	const B = 256
	w := newWork(m, B)
	out := make([]float64, len(curves))
	for start := 0; start < len(curves); start += B {
		nb := min(B, len(curves)-start)
		w.input(m, curves[start:start+nb], nil)
		w.forward(m, nb, false, nil, nil)
		for r := range nb {
			out[start+r] = min(max(float64(w.a[len(m.Layers)-1][r]), 0), 1)
		}
	}
	return out
}

// MAE is the mean absolute error of Predict over the examples.
func MAE(m *Model, examples []distcurve.Example) float64 {
	curves := make([][]float64, len(examples))
	for i := range examples {
		curves[i] = examples[i].Curve
	}
	s := 0.0
	for i, p := range Predict(m, curves) {
		s += math.Abs(p - examples[i].Alpha)
	}
	return s / float64(len(examples))
}
