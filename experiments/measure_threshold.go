package experiments

import (
	"context"
	"fmt"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/metrics"
)

// ThresholdMeasure is the options of the measures "acc", "bacc", "f1" and
// "mcc" (accuracy, balanced accuracy, F1, Matthews correlation), recovered
// on all the data D = L u U as PSB-2019 does. Each is a maximum over
// thresholds, compared with the true value at the same threshold (PSB-2019
// Figure 2). Keys of Record.Metrics[acc, ...]:
//
//	truth:ID             the maximum over thresholds of each truth, on L u U unless its on: says otherwise
//	pu                   the maximum of the PU value (L read as positive, U as negative)
//	truth-at:pu          the evaluated scores' true value at that threshold
//	recovered:SOURCE     the maximum of the recovered value (PSB-2019 Eqs. 12-15, clipped to the measure's range)
//	truth-at:SOURCE      the true value at that threshold
//
// for SOURCE = real and each estimator's ID. They take no options.
type ThresholdMeasure struct {
	measure recovery.Measure
}

func (m *ThresholdMeasure) Name() string          { return m.measure.String() }
func (m *ThresholdMeasure) Validate() error       { return nil }
func (m *ThresholdMeasure) Key() string           { return m.measure.String() + "/v1" }
func (m *ThresholdMeasure) New() (Measure, error) { return m, nil }

// UsesRecovery is true: the maxima and their thresholds come from the recovery.
func (m *ThresholdMeasure) UsesRecovery() bool { return true }

func (m *ThresholdMeasure) Measure(_ context.Context, c *CellRun, out *Values) error {
	recs, err := c.Recoveries()
	if err != nil {
		return err
	}
	// The evaluated scores judged with the true labels on L u U: the true
	// value at each estimate's threshold.
	atTruth, err := c.TrueRanking()
	if err != nil {
		return fmt.Errorf("truth on labeled + unlabeled: %w", err)
	}
	name, tm := m.measure.String(), m.measure.Metric()
	for _, t := range c.TruthRankings(SetAll) {
		out.Set(name, results.TruthKey(t.ID), t.Max(tm).Value)
	}
	at := func(value, truthAt string, o metrics.Optimum) {
		out.Set(name, value, o.Value)
		out.Set(name, truthAt, tm(atTruth.ConfusionAt(o.Threshold)))
	}
	for i, r := range recs {
		if i == 0 {
			// The PU maximum: the same for every recovery, reported once.
			at(results.PU, results.TruthAtKey(results.PU), r.PUMax(m.measure))
		}
		at(results.RecoveryKey(results.Recovered, r.Source), results.TruthAtKey(r.Source), r.Max(m.measure))
	}
	return nil
}

// Compile-time checks.
var (
	_ MeasureConfig = (*ThresholdMeasure)(nil)
	_ Measure       = (*ThresholdMeasure)(nil)
	_ RecoveryUser  = (*ThresholdMeasure)(nil)
)

func init() {
	docs := map[recovery.Measure]string{
		recovery.Accuracy:         "accuracy",
		recovery.BalancedAccuracy: "balanced accuracy",
		recovery.F1:               "F1",
		recovery.MCC:              "Matthews correlation",
	}
	for _, meas := range recovery.Measures {
		Measures.Register(meas.String(),
			"best "+docs[meas]+" over thresholds on L u U: PU and recovered with the true and each estimated (alpha, beta), each beside the true value at its threshold, and the truths' maxima",
			func() MeasureConfig { return &ThresholdMeasure{measure: meas} })
	}
}
