package classifiers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pueval/pueval/classifiers/gbdt"
	"github.com/pueval/pueval/classifiers/svm"
)

// SVMName is the registry name of the support vector classifier.
const SVMName = "svm"

// svmVersion is part of Key: bump it when a code change alters the scores
// produced for the same options, data and seed.
const svmVersion = 2 // 2: Platt's products rounded (arm64 fused them; amd64 scores unchanged)

// Weighting schemes of the SVM's PU training set.
const (
	// WeightingBiased: labeled rows are positives of weight 1, unlabeled
	// rows negatives of weight unlabeled_weight (the biased SVM of Liu et
	// al. 2003).
	WeightingBiased = "biased"
	// WeightingElkanNoto: Elkan & Noto's (KDD 2008) weighting, see
	// package svm.
	WeightingElkanNoto = "elkan-noto"
)

func init() {
	Register(SVMName, func() Config { o := DefaultSVM(); return &o })
}

// SVM is the options of the weighted C-SVC (package svm), registered as
// "svm", and its Scorer and FoldScorer: every row is scored by the model of
// a fold split that did not train on it. The Data's Y is read as labeled
// (true) versus unlabeled (false):
//
//	kernel: linear          # linear | rbf
//	c: 1                    # C; instance bounds C_i = c w_i
//	gamma: 0                # RBF width; 0 = 1/(d var X) of each fit's training rows
//	weighting: biased       # biased | elkan-noto
//	unlabeled_weight: 1     # w_u of the unlabeled rows (biased only)
//	platt_folds: 3          # inner folds of elkan-noto's Platt-scaled first stage
//	tolerance: 0.001        # SMO stopping tolerance (LIBSVM's eps)
//	cache_mb: 200           # kernel-row cache; never changes scores
//	folds: 8                # k of Score's stratified k-fold out-of-fold scores
//
// Scores are svm.UnitScore(f) = 1/2 + f/(2(1 + |f|)) of the decision
// value f of the fold model: the Scorer contract asks for [0, 1], and the
// map is strictly increasing with a closed-form inverse
// (svm.UnitScoreInverse), rounded monotonically, so rank-based measures
// see the order of the decision values (unlike the logistic function,
// which rounds every f above about 37 to 1), and f >= 0 (the SVM's
// positive class) gives a score >= 1/2. The scores are not probabilities.
//
// The PULP paper's 13 configurations are: kernel linear or rbf with
// unlabeled_weight 1, 0.5, 0.1 or 0.01 (8); weighting elkan-noto with
// kernel linear or rbf (2); kernel linear with c 0.01, 0.1 or 10 (3);
// every other option at its default.
type SVM struct {
	Kernel          string  `yaml:"kernel"`
	C               float64 `yaml:"c"`
	Gamma           float64 `yaml:"gamma"`
	Weighting       string  `yaml:"weighting"`
	UnlabeledWeight float64 `yaml:"unlabeled_weight"`
	PlattFolds      int     `yaml:"platt_folds"`
	Tolerance       float64 `yaml:"tolerance"`
	CacheMB         int     `yaml:"cache_mb" key:"-"` // execution only: never changes a score, so not in Key
	Folds           int     `yaml:"folds"`
}

// DefaultSVM returns the biased linear C-SVC with C = 1 and w_u = 1,
// LIBSVM's tolerance and cache size, 3 Platt folds and 8 folds (the PULP
// paper's cross-validation).
func DefaultSVM() SVM {
	return SVM{
		Kernel: "linear", C: 1, Weighting: WeightingBiased, UnlabeledWeight: 1, PlattFolds: 3,
		Tolerance: svm.DefaultTol, CacheMB: svm.DefaultCacheBytes >> 20, Folds: 8,
	}
}

// Compile-time checks: SVM is a classifier's options, its Scorer and a
// FoldScorer.
var (
	_ Config     = (*SVM)(nil)
	_ Scorer     = (*SVM)(nil)
	_ FoldScorer = (*SVM)(nil)
)

// maxCacheMB bounds cache_mb (1 TiB) so that a typo is an error.
const maxCacheMB = 1 << 20

// Name returns "svm".
func (o *SVM) Name() string { return SVMName }

// Validate reports every invalid field at once.
func (o *SVM) Validate() error {
	var errs []error
	if _, err := svm.ParseKernel(o.Kernel); err != nil {
		errs = append(errs, fmt.Errorf("kernel = %q: want linear or rbf", o.Kernel))
	}
	if !(o.C > 0) || math.IsInf(o.C, 1) {
		errs = append(errs, fmt.Errorf("c = %v: want a finite number > 0", o.C))
	}
	if !(o.Gamma >= 0) || math.IsInf(o.Gamma, 1) {
		errs = append(errs, fmt.Errorf("gamma = %v: want a finite number >= 0 (0 = 1/(d var X))", o.Gamma))
	}
	if o.Weighting != WeightingBiased && o.Weighting != WeightingElkanNoto {
		errs = append(errs, fmt.Errorf("weighting = %q: want %q or %q", o.Weighting, WeightingBiased, WeightingElkanNoto))
	}
	if !(o.UnlabeledWeight > 0) || math.IsInf(o.UnlabeledWeight, 1) || !(o.C*o.UnlabeledWeight > 0) {
		errs = append(errs, fmt.Errorf("unlabeled_weight = %v: want a finite number > 0", o.UnlabeledWeight))
	}
	if o.PlattFolds < 2 || o.PlattFolds > maxFolds {
		errs = append(errs, fmt.Errorf("platt_folds = %d: want an integer in [2, %d]", o.PlattFolds, maxFolds))
	}
	if !(o.Tolerance > 0) || math.IsInf(o.Tolerance, 1) {
		errs = append(errs, fmt.Errorf("tolerance = %v: want a finite number > 0", o.Tolerance))
	}
	if o.CacheMB < 1 || o.CacheMB > maxCacheMB {
		errs = append(errs, fmt.Errorf("cache_mb = %d: want an integer in [1, %d]", o.CacheMB, maxCacheMB))
	}
	if o.Folds < 2 || o.Folds > maxFolds {
		errs = append(errs, fmt.Errorf("folds = %d: want an integer in [2, %d]", o.Folds, maxFolds))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("classifier %s: %w", SVMName, err)
	}
	return nil
}

// New validates the options and returns the Scorer (a copy of o).
func (o *SVM) New() (Scorer, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	c := *o
	return &c, nil
}

// Key is a canonical string of the options that change scores (all but
// cache_mb) and the algorithm version. Every option is in it, also those
// the chosen kernel or weighting ignores (gamma for linear, platt_folds for
// biased, unlabeled_weight for elkan-noto): a cache entry is then never
// shared between such configurations, which costs a recomputation at worst.
func (o *SVM) Key() string {
	return fmt.Sprintf("%s/v%d kernel=%s c=%v gamma=%v weighting=%s unlabeled_weight=%v platt_folds=%d tolerance=%v folds=%d",
		SVMName, svmVersion, o.Kernel, o.C, o.Gamma, o.Weighting, o.UnlabeledWeight, o.PlattFolds, o.Tolerance, o.Folds)
}

// Score returns, for every row, UnitScore of the decision value given by
// the model trained on the other folds of a stratified k-fold split (k =
// folds) drawn from FoldStream(seed) (gbdt.StratifiedFolds), then as
// ScoreFolds. Fold model j of elkan-noto draws its inner Platt folds from
// PCG(NetSeed(seed, j+1)).
func (o *SVM) Score(ctx context.Context, data Data, seed uint64) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if _, _, err := data.check(); err != nil {
		return nil, fmt.Errorf("classifier %s: %w", SVMName, err)
	}
	folds, err := gbdt.StratifiedFolds(data.Y, o.Folds, FoldStream(seed))
	if err != nil {
		return nil, fmt.Errorf("classifier %s: stratified folds: %w", SVMName, err)
	}
	return o.ScoreFolds(ctx, data, folds, seed)
}

// ScoreFolds scores the rows of each fold j = 0..k-1 (k = 1 + the largest
// fold number) with the model trained on the rows of the other folds:
// Scores[i] = UnitScore(f_j(x_i)), OOBCount 1, and Models[j] describes
// fold j's training (Epochs: SMO iterations of all the SVMs it trained,
// the inner Platt models of elkan-noto included; BestEpoch: the final
// model's; Stop: converged; TrainMSE: the weighted training
// misclassification rate of the final model, sign(f) against the instance
// labels). A fold whose training rows lack a class is an error wrapping
// ErrOneClass; an SVM that stops short of the tolerance (at the iteration
// bound, 10^7, far beyond any sane problem, or stalled on steps too small
// to change a coefficient) is an error too, since Result has no place for
// a warning that a run would notice.
func (o *SVM) ScoreFolds(ctx context.Context, data Data, folds []int, seed uint64) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	n, d, err := data.check()
	if err != nil {
		return nil, fmt.Errorf("classifier %s: %w", SVMName, err)
	}
	wrap := func(err error) error { return fmt.Errorf("classifier %s: %w", SVMName, err) }
	if len(folds) != n {
		return nil, wrap(fmt.Errorf("%d fold numbers for %d rows", len(folds), n))
	}
	k := 0
	for i, f := range folds {
		if f < 0 {
			return nil, wrap(fmt.Errorf("row %d: fold %d: want >= 0", i, f))
		}
		k = max(k, f+1)
	}
	if k < 2 {
		return nil, wrap(fmt.Errorf("%d fold(s): want at least 2", k))
	}
	test := make([][]int, k)
	labeled := make([]int, k)
	for i, f := range folds {
		test[f] = append(test[f], i)
		if data.Y[i] {
			labeled[f]++
		}
	}
	totalLabeled := 0
	for _, l := range labeled {
		totalLabeled += l
	}
	for j, t := range test {
		if len(t) == 0 {
			return nil, wrap(fmt.Errorf("fold %d of %d is empty", j, k))
		}
		trL := totalLabeled - labeled[j]
		trU := n - len(t) - trL
		if trL == 0 || trU == 0 {
			return nil, wrap(fmt.Errorf("fold %d of %d: the other folds hold %d labeled and %d unlabeled rows: %w", j, k, trL, trU, ErrOneClass))
		}
	}
	kern, _ := svm.ParseKernel(o.Kernel)
	p := svm.DefaultParams()
	p.Kernel, p.C, p.Gamma, p.Tol, p.CacheBytes = kern, o.C, o.Gamma, o.Tolerance, int64(o.CacheMB)<<20

	res := &Result{Scores: make([]float64, n), OOBCount: make([]int, n), Models: make([]ModelStats, k)}
	train := make([]int, 0, n)
	for j := range k {
		if err := ctx.Err(); err != nil {
			return nil, wrap(fmt.Errorf("fold %d of %d: %w", j, k, context.Cause(ctx)))
		}
		train = train[:0]
		for i, f := range folds {
			if f != j {
				train = append(train, i)
			}
		}
		m, st, err := o.fit(ctx, data, train, p, seed, j)
		if err != nil {
			if errors.Is(err, svm.ErrOneClass) {
				// errors.Is already matches ErrOneClass (one sentinel, oneclass.Err);
				// the parenthesis keeps the text that records of failed cells hold.
				err = fmt.Errorf("%w (%v)", err, ErrOneClass)
			}
			return nil, wrap(fmt.Errorf("fold %d of %d: %w", j, k, err))
		}
		dec := make([]float64, len(test[j]))
		if err := m.Decision(data.X, test[j], dec); err != nil {
			return nil, wrap(fmt.Errorf("fold %d of %d: %w", j, k, err))
		}
		for t, i := range test[j] {
			res.Scores[i] = svm.UnitScore(dec[t])
			res.OOBCount[i] = 1
		}
		st.Inputs = d
		st.OOBRows = len(test[j])
		// Scoring: one kernel value per test row and support vector
		// (linear: one dot with w).
		if m.Kernel == svm.Linear {
			st.Flops += 2 * float64(len(test[j])*d)
		} else {
			st.Flops += float64(float64(len(test[j])*m.SupportVectors) * (2*float64(d) + 20))
		}
		res.Models[j] = st
	}
	return res, nil
}

// fit trains fold j's model on the rows train (labeled vs unlabeled) under
// the configured weighting.
func (o *SVM) fit(ctx context.Context, data Data, train []int, p svm.Params, seed uint64, j int) (*svm.Model, ModelStats, error) {
	st := ModelStats{TrainRows: len(train), ValMSE: math.NaN()}
	lab := make([]bool, len(train))
	for t, i := range train {
		lab[t] = data.Y[i]
	}
	var prob svm.Problem
	switch o.Weighting {
	case WeightingElkanNoto:
		inner, err := gbdt.StratifiedFolds(lab, o.PlattFolds, rand.New(rand.NewPCG(NetSeed(seed, j+1))))
		if err != nil {
			return nil, st, fmt.Errorf("elkan-noto's inner Platt folds: %w", err)
		}
		first := p
		first.Kernel, first.Gamma = svm.Linear, 0
		g, cv, err := svm.PlattCV(ctx, data.X, train, lab, inner, first)
		if err != nil {
			return nil, st, fmt.Errorf("elkan-noto's first stage: %w", err)
		}
		if cv.NotConverged > 0 {
			return nil, st, fmt.Errorf("elkan-noto's first stage: %d inner SVM(s) stopped short of the tolerance", cv.NotConverged)
		}
		st.Epochs += cv.Iter
		st.Flops += cv.Flops
		if prob, _, err = svm.ElkanNotoProblem(train, lab, g); err != nil {
			return nil, st, err
		}
	default:
		prob = svm.Problem{Rows: train, Y: lab, W: make([]float64, len(train))}
		for t, l := range lab {
			prob.W[t] = o.UnlabeledWeight
			if l {
				prob.W[t] = 1
			}
		}
	}
	prob.X = data.X
	m, err := svm.Train(ctx, prob, p)
	if err != nil {
		return nil, st, err
	}
	if m.Stop != svm.StopConverged {
		return nil, st, fmt.Errorf("SMO stopped (%s) after %d iterations with a maximal violation %v above the tolerance %v", m.Stop, m.Iter, m.Gap, p.Tol)
	}
	st.Epochs += m.Iter
	st.BestEpoch = m.Iter
	st.Stop = m.Stop
	st.Flops += m.Flops
	st.TrainMSE = m.TrainError
	return m, st, nil
}
