package aul

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pueval/pueval/experiments"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers/kernelauc"
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
// Choice: an estimator's prior is its estimate on the cell's own PU split
// of the whole data set (same beta, same distribution as each training
// fold's), not a new estimate on each training fold: it saves five
// estimates per data set (KM runs for seconds to a minute at 4,000 rows);
// with "true" each fold gets its exact value.
//
//	metrics:
//	  - {name: pu-learning, prior: km1, priors: [spambase=distcurve, waveform=km2], folds: 5, centres: 200}
type PULearningMeasure struct {
	Prior   string   `yaml:"prior"`   // PU_AUC's prior source when priors names none
	Priors  []string `yaml:"priors"`  // NAME=SOURCE per data set
	Folds   int      `yaml:"folds"`   // outer train/test folds
	Centres int      `yaml:"centres"` // most Gaussian basis centres per learner
}

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
	return errors.Join(errs...)
}

func (m *PULearningMeasure) Key() string {
	return fmt.Sprintf("pu-learning/v1/prior=%s;priors=%s;folds=%d;centres=%d", m.Prior, strings.Join(m.Priors, ","), m.Folds, m.Centres)
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
	if src == "true" {
		cfg.PriorFunc = func(_ int, _, _ *mat.Dense, trueAlphaU float64) (float64, error) { return trueAlphaU, nil }
	} else {
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
	var prior float64
	for _, f := range res.Folds {
		prior += f.Prior / float64(len(res.Folds))
	}
	out.Set("pu-learning", "pu_aul", res.AUCPUAUL)
	out.Set("pu-learning", "pu_auc:"+src, res.AUCPUAUC)
	out.Set("pu-learning", "prior:"+src, prior)
	return nil
}

// Compile-time checks.
var (
	_ experiments.MeasureConfig = (*PULearningMeasure)(nil)
	_ experiments.Measure       = (*PULearningMeasure)(nil)
	_ experiments.RecoveryUser  = (*PULearningMeasure)(nil)
)

func init() {
	experiments.Measures.Register("pu-learning", "the AUL paper's Figure 3: PU_AUC (with a prior from an estimator or the truth) and PU_AUL, kernel PU learners, by their test AUC on held-out rows",
		func() experiments.MeasureConfig { return &PULearningMeasure{Prior: "true", Folds: 5, Centres: 200} })
}
