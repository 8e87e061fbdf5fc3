package classifiers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pueval/pueval/classifiers/gbdt"
)

// GBDTName is the registry name of the gradient-boosted trees classifier.
const GBDTName = "gbdt"

// gbdtVersion is part of Key: bump it when a code change alters the scores
// produced for the same options, data and seed.
const gbdtVersion = 2 // 2: portable sigmoid and log (internal/portmath), no fused multiply-adds

func init() {
	Register(GBDTName, func() Config { o := DefaultGBDT(); return &o })
}

// GBDT is the options of the histogram gradient-boosted trees classifier
// (package gbdt), registered as "gbdt", and its Scorer: every row is scored
// by the model of a stratified k-fold split that did not train on it. The
// embedded gbdt.Params are inlined in YAML:
//
//	leaves: 31           # most leaves per tree (leaf-wise growth)
//	learning_rate: 0.1   # shrinkage of every leaf value
//	rounds: 100          # trees, no early stopping
//	min_leaf: 20         # fewest training rows per leaf
//	min_hessian: 0.001   # smallest hessian sum per leaf
//	bins: 255            # most histogram bins per feature (2..256)
//	lambda: 0            # L2 penalty on leaf values
//	min_gain: 0          # gain a split must exceed
//	max_depth: 0         # 0 = no depth limit
//	folds: 5             # k of the stratified k-fold out-of-fold scores
//	workers: 0           # goroutines; 0 = GOMAXPROCS; never changes scores
type GBDT struct {
	gbdt.Params `yaml:",inline"`
	Folds       int `yaml:"folds"`
}

// DefaultGBDT returns LightGBM's binary defaults (gbdt.DefaultParams) with
// 5-fold out-of-fold scores: the AUL paper's evaluated classifier (the paper
// names LightGBM; its settings are LightGBM's defaults).
func DefaultGBDT() GBDT {
	return GBDT{Params: gbdt.DefaultParams(), Folds: gbdt.DefaultFolds}
}

// Compile-time checks: GBDT is a classifier's options and its Scorer.
var (
	_ Config = (*GBDT)(nil)
	_ Scorer = (*GBDT)(nil)
)

// maxFolds bounds k so that a typo is an error rather than hours of
// training.
const maxFolds = 1000

// Name returns "gbdt".
func (o *GBDT) Name() string { return GBDTName }

// Validate reports every invalid field at once.
func (o *GBDT) Validate() error {
	var errs []error
	if err := o.Params.Validate(); err != nil {
		errs = append(errs, err)
	}
	if o.Folds < 2 || o.Folds > maxFolds {
		errs = append(errs, fmt.Errorf("folds = %d: want an integer in [2, %d]", o.Folds, maxFolds))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("classifier %s: %w", GBDTName, err)
	}
	return nil
}

// New validates the options and returns the Scorer (a copy of o).
func (o *GBDT) New() (Scorer, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	c := *o
	return &c, nil
}

// Key is a canonical string of the options that change scores (all but
// workers) and the algorithm version.
func (o *GBDT) Key() string {
	return fmt.Sprintf("%s/v%d %s folds=%d", GBDTName, gbdtVersion, o.Params.Key(), o.Folds)
}

// FoldStream is the random stream from which the out-of-fold classifiers
// (gbdt, svm) draw their Score's folds for a seed: PCG seeded with
// NetSeed(seed, 0). Exported so that tests and oracles can reproduce a
// Score call's folds.
func FoldStream(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(NetSeed(seed, 0)))
}

// Score returns, for every row, the probability of class 1 (the logistic
// function of the margin) given by the model trained on the other folds of
// a stratified k-fold split drawn from FoldStream(seed)
// (gbdt.StratifiedFolds). Every row is out of fold exactly once (OOBCount
// 1); Models describes the fold models in fold order.
func (o *GBDT) Score(ctx context.Context, data Data, seed uint64) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	n, _, err := data.check()
	if err != nil {
		return nil, fmt.Errorf("classifier %s: %w", GBDTName, err)
	}
	oof, err := gbdt.OOF(ctx, data.X, data.Y, o.Folds, o.Params, FoldStream(seed))
	if err != nil {
		if errors.Is(err, gbdt.ErrOneClass) {
			// errors.Is already matches ErrOneClass (one sentinel, oneclass.Err);
			// the parenthesis keeps the text that records of failed cells hold.
			err = fmt.Errorf("%w (%v)", err, ErrOneClass)
		}
		return nil, fmt.Errorf("classifier %s: %w", GBDTName, err)
	}
	res := &Result{Scores: make([]float64, n), OOBCount: make([]int, n), Models: make([]ModelStats, len(oof.Models))}
	for i, m := range oof.Margins {
		res.Scores[i] = gbdt.Sigmoid(m)
		res.OOBCount[i] = 1
	}
	for j, m := range oof.Models {
		res.Models[j] = ModelStats{
			Epochs: len(m.Trees), BestEpoch: len(m.Trees), Stop: "rounds",
			TrainRows: m.TrainRows, OOBRows: n - m.TrainRows, Inputs: m.Inputs,
			TrainMSE: m.TrainMSE, ValMSE: math.NaN(),
		}
	}
	return res, nil
}
