package experiments

import (
	"context"

	"github.com/pueval/pueval/experiments/results"
)

// AULMeasure is the measure "aul": the area under the lift curve (Huang et
// al., "AUL is a better optimization metric in PU learning", Eq. 2 and 4).
// Keys of Record.Metrics["aul"]:
//
//	pu         AUL^PU: L read as positive, against every row of L u U (Eq. 4)
//	truth:ID   each truth's AUL with the true labels, on L u U unless its on: says otherwise
//
// AUL needs no class prior: AUL^PU estimates AUL without one. Exactly,
// AUL^PU = c/2 + (1 - c) AUC^PU with c = |L|/|L u U|, and AUL = alpha/2 +
// (1 - alpha) AUC with alpha the positive share of the rows (metrics.AUL).
// It has no options.
//
//	metrics: [aul]
type AULMeasure struct{}

func (m *AULMeasure) Name() string          { return "aul" }
func (m *AULMeasure) Validate() error       { return nil }
func (m *AULMeasure) Key() string           { return "aul/v1" }
func (m *AULMeasure) New() (Measure, error) { return m, nil }
func (m *AULMeasure) UsesRecovery() bool    { return false }

func (m *AULMeasure) Measure(_ context.Context, c *CellRun, out *Values) error {
	pu, err := c.PU()
	if err != nil {
		return err
	}
	out.Set("aul", results.PU, pu.AUL())
	for _, t := range c.TruthRankings(SetAll) {
		out.Set("aul", results.TruthKey(t.ID), t.AUL())
	}
	return nil
}

// Compile-time checks.
var (
	_ MeasureConfig = (*AULMeasure)(nil)
	_ Measure       = (*AULMeasure)(nil)
	_ RecoveryUser  = (*AULMeasure)(nil)
)

func init() {
	Measures.Register("aul", "AUL (area under the lift curve) on L u U: AUL^PU (L against L u U, no prior needed) and the truths",
		func() MeasureConfig { return &AULMeasure{} })
}
