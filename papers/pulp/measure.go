package pulp

import (
	"context"
	"fmt"

	"github.com/pueval/pueval/experiments"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/metrics"
)

// MeasureSet is the measure "pu-measures": the eight measures of the
// PULP paper (Hajizadeh, Li, Dollevoet, Tax, S+SSPR 2014; metrics.PUMeasures)
// of the evaluated scores, each computed twice on every held-out fold of the
// protocol's cross-validation (Split.Folds; the whole of L u U as one fold
// when the protocol has none): with the PU labels (labeled read as
// positive, unlabeled as negative) and with the true labels. Metrics (the
// paper's columns): auc, f1, ll (Lee & Liu), mi, pearson, map, pulp,
// pseudo-f. Keys of each:
//
//	pu@F, true@F   fold F (1..k): PU labels, true labels
//	pu, true       their means over the folds
//
// The paper evaluates a measure by how well its PU values rank and match
// the true values over many (data set, classifier) configurations (Spearman
// correlation and mean absolute deviation; report pulp). With true labels,
// PULP's t is the number of true positives of the fold and Pseudo-F's
// P(y=1) their share. It has no options.
//
//	metrics: [pu-measures]
type MeasureSet struct{}

func (m *MeasureSet) Name() string                      { return "pu-measures" }
func (m *MeasureSet) Validate() error                   { return nil }
func (m *MeasureSet) Key() string                       { return "pu-measures/v1" }
func (m *MeasureSet) New() (experiments.Measure, error) { return m, nil }
func (m *MeasureSet) UsesRecovery() bool                { return false }

// puMeasureValues lists a metrics.PUMeasures in results.PUMeasures' order.
func puMeasureValues(m metrics.PUMeasures) []float64 {
	return []float64{m.AUC, m.F1, m.LeeLiu, m.MI, m.Pearson, m.MAP, m.PULP, m.PseudoF}
}

func (m *MeasureSet) Measure(_ context.Context, c *experiments.CellRun, out *experiments.Values) error {
	n := len(c.Scores)
	folds := c.Split.Folds
	if folds == nil {
		folds = make([]int, n)
	}
	if len(folds) != n {
		return fmt.Errorf("pu-measures: %d folds for %d rows", len(folds), n)
	}
	k := 0
	for _, f := range folds {
		k = max(k, f+1)
	}
	sums := map[string][]float64{results.PU: make([]float64, len(results.PUMeasures)), results.TrueLabels: make([]float64, len(results.PUMeasures))}
	counts := map[string]int{}
	for f := range k {
		var scores []float64
		var pu, truth []bool
		for i, fi := range folds {
			if fi == f {
				scores = append(scores, c.Scores[i])
				pu = append(pu, i < c.NL)
				truth = append(truth, c.Y[i])
			}
		}
		for _, set := range []struct {
			key    string
			labels []bool
		}{{results.PU, pu}, {results.TrueLabels, truth}} {
			r, err := metrics.Rank(scores, set.labels)
			if err != nil {
				c.Warn("pu-measures: fold %d, %s labels: %v: left out", f+1, set.key, err)
				continue
			}
			vals := puMeasureValues(r.PU())
			for j, name := range results.PUMeasures {
				if c.Split.Folds != nil {
					out.Set(name, results.FoldKey(set.key, f+1), vals[j])
				}
				sums[set.key][j] += vals[j]
			}
			counts[set.key]++
		}
	}
	for key, s := range sums {
		if counts[key] == 0 {
			continue
		}
		for j, name := range results.PUMeasures {
			out.Set(name, key, s[j]/float64(counts[key]))
		}
	}
	return nil
}

// Compile-time checks.
var (
	_ experiments.MeasureConfig = (*MeasureSet)(nil)
	_ experiments.Measure       = (*MeasureSet)(nil)
	_ experiments.RecoveryUser  = (*MeasureSet)(nil)
)

func init() {
	experiments.Measures.Register("pu-measures", "the PULP paper's eight measures (auc, f1, ll, mi, pearson, map, pulp, pseudo-f) per held-out fold, with PU labels (pu@F) and true labels (true@F), and their fold means",
		func() experiments.MeasureConfig { return &MeasureSet{} })
}
