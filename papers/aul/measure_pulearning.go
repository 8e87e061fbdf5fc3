package aul

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pueval/pueval/experiments"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/classifiers/kernelauc"
	"github.com/pueval/pueval/estimators/classprior"
)

// PULearningMeasure is the measure "pu-learning": the AUL paper's Figure 3
// (Huang et al., Sec. 4.3). Two PU learners with the same Gaussian-kernel
// basis, PU_AUC (Sakai et al. 2018, squared loss; it needs the class prior
// of U) and PU_AUL (no prior), are trained on PU data and judged by the AUC
// of their scores against the true labels of held-out rows
// (kernelauc.CompareOnFolds): the data set's rows are split into `folds`
// stratified folds; on each, a fraction beta of the training positives is
// labeled (beta: the cell's known-positives value, else |L| over the cell's
// positives), both learners (widths and ridge chosen by 5-fold
// cross-validation, at most `centres` basis centres) are fitted on the
// training rows, and the test AUCs are averaged over the folds. Keys of
// Record.Metrics["pu-learning"]:
//
//	pu_aul          PU_AUL's mean test AUC
//	pu_auc:SOURCE   PU_AUC's mean test AUC with the prior from SOURCE
//	prior:SOURCE    the prior PU_AUC was given (the mean over folds)
//
// SOURCE is an estimator ID of the config (its estimate of alpha for the
// cell) or "true" (each fold's true fraction of positives in U). The paper
// gives PU_AUC the best estimator per data set (by Table 1's MAE at beta =
// 0.1): `priors` maps a data set to its source as "NAME=SOURCE"; the others
// use `prior`.
//
// Where the estimate comes from (estimate_on):
//
//	cell  the estimate of the config's estimator SOURCE on the cell's own PU
//	      split of the whole data set (same beta, same distribution as each
//	      training fold's), one per cell;
//	fold  as the paper does: a new estimate on each training fold's labeled
//	      and unlabeled rows, by the registered estimator named SOURCE with
//	      its defaults (the config's estimators are not consulted). An
//	      estimator that reads scores reads the out-of-bag scores of
//	      `classifier` (its defaults) trained labeled against unlabeled on
//	      that fold's training rows; one that reads features (KM) reads the
//	      fold's rows. Five estimates per cell instead of one.
//
// With "true" each fold gets its exact value either way. With estimate_on
// fold the record also holds true_prior, the mean over folds of the true
// fraction of positives in U, beside the estimate.
//
//	metrics:
//	  - {name: pu-learning, prior: km1, priors: [spambase=distcurve, waveform=km2], folds: 5, centres: 200}
//	  - {name: pu-learning, prior: km1, estimate_on: fold, classifier: gbdt}
type PULearningMeasure struct {
	Prior   string   `yaml:"prior"`   // PU_AUC's prior source when priors names none
	Priors  []string `yaml:"priors"`  // NAME=SOURCE per data set
	Folds   int      `yaml:"folds"`   // outer train/test folds
	Centres int      `yaml:"centres"` // most Gaussian basis centres per learner
	// EstimateOn is "cell" (or empty) or "fold": see above.
	EstimateOn string `yaml:"estimate_on"`
	// Classifier names the classifier whose labeled-vs-unlabeled scores a
	// score-reading estimator reads with estimate_on fold.
	Classifier string `yaml:"classifier"`
}

// Where a PU_AUC prior is estimated.
const (
	EstimateOnCell = "cell"
	EstimateOnFold = "fold"
)

func (m *PULearningMeasure) Name() string { return "pu-learning" }

func (m *PULearningMeasure) Validate() error {
	var errs []error
	if m.Prior == "" {
		errs = append(errs, errors.New(`prior: want an estimator ID of the config or "true"`))
	}
	seen := map[string]bool{}
	for i, p := range m.Priors {
		name, src, ok := strings.Cut(p, "=")
		switch {
		case !ok || name == "" || src == "":
			errs = append(errs, fmt.Errorf("priors[%d] = %q: want DATASET=SOURCE (an estimator ID or true)", i, p))
		case seen[name]:
			errs = append(errs, fmt.Errorf("priors[%d]: data set %q named twice", i, name))
		}
		seen[name] = true
	}
	if m.Folds < 2 || m.Folds > 20 {
		errs = append(errs, fmt.Errorf("folds = %d: want an integer in [2, 20]", m.Folds))
	}
	if m.Centres < 10 || m.Centres > 5000 {
		errs = append(errs, fmt.Errorf("centres = %d: want an integer in [10, 5000]", m.Centres))
	}
	switch m.EstimateOn {
	case "", EstimateOnCell:
	case EstimateOnFold:
		errs = append(errs, m.validateFold()...)
	default:
		errs = append(errs, fmt.Errorf("estimate_on = %q: want %s or %s", m.EstimateOn, EstimateOnCell, EstimateOnFold))
	}
	return errors.Join(errs...)
}

// validateFold checks that every source is "true" or a registered
// estimator, and the classifier a registered one, as estimate_on fold needs.
func (m *PULearningMeasure) validateFold() []error {
	var errs []error
	srcs := []string{m.Prior}
	for _, p := range m.Priors {
		if _, src, ok := strings.Cut(p, "="); ok && src != "" {
			srcs = append(srcs, src)
		}
	}
	for _, src := range srcs {
		if src == "true" || src == "" {
			continue
		}
		if _, err := classprior.Defaults(src); err != nil {
			errs = append(errs, fmt.Errorf("estimate_on fold: prior source %q: %w", src, err))
		}
	}
	if _, err := classifiers.Defaults(m.Classifier); err != nil {
		errs = append(errs, fmt.Errorf("estimate_on fold: classifier: %w", err))
	}
	return errs
}

func (m *PULearningMeasure) Key() string {
	k := fmt.Sprintf("pu-learning/v1/prior=%s;priors=%s;folds=%d;centres=%d", m.Prior, strings.Join(m.Priors, ","), m.Folds, m.Centres)
	// The defaults keep the key of the records written before these options.
	if (m.EstimateOn != "" && m.EstimateOn != EstimateOnCell) || m.Classifier != classifiers.GBDTName {
		k += ";estimate_on=" + m.EstimateOn + ";classifier=" + m.Classifier
	}
	return k
}

func (m *PULearningMeasure) New() (experiments.Measure, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *PULearningMeasure) UsesRecovery() bool { return false }

// source returns the prior source of a data set.
func (m *PULearningMeasure) source(dataset string) string {
	for _, p := range m.Priors {
		if name, src, _ := strings.Cut(p, "="); name == dataset {
			return src
		}
	}
	return m.Prior
}

func (m *PULearningMeasure) Measure(ctx context.Context, c *experiments.CellRun, out *experiments.Values) error {
	X := c.Data.X
	if X == nil {
		return errors.New("pu-learning: the data set has no features (a ranking source): the learners need feature rows")
	}
	src := m.source(c.Cell.Dataset.Name)
	cfg := kernelauc.CompareConfig{Folds: m.Folds, Options: kernelauc.Options{Centres: m.Centres}}
	switch {
	case src == "true":
		cfg.PriorFunc = func(_ int, _, _ *mat.Dense, trueAlphaU float64) (float64, error) { return trueAlphaU, nil }
	case m.EstimateOn == EstimateOnFold:
		pf, err := m.foldPrior(ctx, c, src)
		if err != nil {
			return err
		}
		cfg.PriorFunc = pf
	default:
		found := false
		for _, e := range c.Estimates {
			if e.ID == src {
				cfg.Prior, found = e.Alpha, true
			}
		}
		if !found {
			return fmt.Errorf("pu-learning: data set %s: PU_AUC's prior source %q is not among the cell's estimates (an estimator ID of the config that succeeded, or true)", c.Cell.Dataset.Name, src)
		}
		if !(cfg.Prior > 0 && cfg.Prior < 1) {
			return fmt.Errorf("pu-learning: data set %s: %s's estimate %v is not in (0, 1): no prior for PU_AUC", c.Cell.Dataset.Name, src, cfg.Prior)
		}
	}
	if b, ok := c.Cell.Float("known-positives"); ok {
		cfg.Beta = b
	} else {
		pos := 0
		for _, y := range c.Y {
			if y {
				pos++
			}
		}
		if pos == 0 || c.NL == 0 {
			return errors.New("pu-learning: no labeled positives in the cell")
		}
		cfg.Beta = min(1, float64(c.NL)/float64(pos))
	}
	if err := context.Cause(ctx); err != nil {
		return err
	}
	res, err := kernelauc.CompareOnFolds(X, c.Data.Y, cfg, c.Rand("pu-learning"))
	if err != nil {
		return fmt.Errorf("pu-learning: %w", err)
	}
	var prior, truth float64
	for _, f := range res.Folds {
		prior += f.Prior / float64(len(res.Folds))
		truth += f.TrueAlphaU / float64(len(res.Folds))
	}
	out.Set("pu-learning", "pu_aul", res.AUCPUAUL)
	out.Set("pu-learning", "pu_auc:"+src, res.AUCPUAUC)
	out.Set("pu-learning", "prior:"+src, prior)
	if m.EstimateOn == EstimateOnFold {
		out.Set("pu-learning", "true_prior", truth)
	}
	return nil
}

// foldPrior returns the PriorFunc of estimate_on fold: the estimator src
// (its defaults) on each training fold's L and U. Each fold draws from its
// own stream of the cell ("pu-learning/prior/FOLD"), so a fold's estimate
// does not depend on the others.
func (m *PULearningMeasure) foldPrior(ctx context.Context, c *experiments.CellRun, src string) (kernelauc.PriorFunc, error) {
	ecfg, err := classprior.Defaults(src)
	if err != nil {
		return nil, fmt.Errorf("pu-learning: data set %s: %w", c.Cell.Dataset.Name, err)
	}
	est, err := ecfg.New()
	if err != nil {
		return nil, fmt.Errorf("pu-learning: data set %s: estimator %s: %w", c.Cell.Dataset.Name, src, err)
	}
	fr, ok := ecfg.(classprior.FeatureReader)
	features := ok && fr.ReadsFeatures()
	return func(fold int, L, U *mat.Dense, _ float64) (float64, error) {
		rng := c.Rand(fmt.Sprintf("pu-learning/prior/%d", fold))
		in := classprior.Input{}
		if features {
			in.LabeledFeatures, in.UnlabeledFeatures = L, U
		} else {
			s, err := m.foldScores(ctx, L, U, rng.Uint64())
			if err != nil {
				return 0, fmt.Errorf("data set %s, fold %d: %w", c.Cell.Dataset.Name, fold, err)
			}
			nL, _ := L.Dims()
			in.Labeled, in.Unlabeled = s[:nL], s[nL:]
		}
		e, err := est.Estimate(ctx, in, rng)
		if err != nil {
			return 0, fmt.Errorf("data set %s, fold %d: estimator %s: %w", c.Cell.Dataset.Name, fold, src, err)
		}
		if !(e.Alpha > 0 && e.Alpha < 1) {
			return 0, fmt.Errorf("data set %s, fold %d: %s's estimate %v is not in (0, 1): no prior for PU_AUC", c.Cell.Dataset.Name, fold, src, e.Alpha)
		}
		return e.Alpha, nil
	}, nil
}

// foldScores are the out-of-bag scores of the measure's classifier trained
// labeled (L) against unlabeled (U), rows of L first.
func (m *PULearningMeasure) foldScores(ctx context.Context, L, U *mat.Dense, seed uint64) ([]float64, error) {
	ccfg, err := classifiers.Defaults(m.Classifier)
	if err != nil {
		return nil, err
	}
	sc, err := ccfg.New()
	if err != nil {
		return nil, fmt.Errorf("classifier %s: %w", m.Classifier, err)
	}
	nL, d := L.Dims()
	nU, _ := U.Dims()
	X := mat.NewDense(nL+nU, d, nil)
	X.Slice(0, nL, 0, d).(*mat.Dense).Copy(L)
	X.Slice(nL, nL+nU, 0, d).(*mat.Dense).Copy(U)
	y := make([]bool, nL+nU)
	for i := range nL {
		y[i] = true
	}
	res, err := sc.Score(ctx, classifiers.Data{X: X, Y: y}, seed)
	if err != nil {
		return nil, fmt.Errorf("classifier %s (labeled vs unlabeled): %w", m.Classifier, err)
	}
	return res.Scores, nil
}

// Compile-time checks.
var (
	_ experiments.MeasureConfig = (*PULearningMeasure)(nil)
	_ experiments.Measure       = (*PULearningMeasure)(nil)
	_ experiments.RecoveryUser  = (*PULearningMeasure)(nil)
)

func init() {
	experiments.Measures.Register("pu-learning", "the AUL paper's Figure 3: PU_AUC (with a prior from an estimator or the truth) and PU_AUL, kernel PU learners, by their test AUC on held-out rows",
		func() experiments.MeasureConfig {
			return &PULearningMeasure{Prior: "true", Folds: 5, Centres: 200, EstimateOn: EstimateOnCell, Classifier: classifiers.GBDTName}
		})
}
