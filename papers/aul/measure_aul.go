package aul

import (
	"context"
	"math"

	"github.com/pueval/pueval/experiments"

	"github.com/pueval/pueval/experiments/results"
)

// AULMeasure is the measure "aul": the area under the lift curve (Huang et
// al., "AUL is a better optimization metric in PU learning", Eq. 2 and 4).
// Keys of Record.Metrics["aul"]:
//
//	pu         AUL^PU: L read as positive, against every row of L u U (Eq. 4)
//	truth:ID   each truth's AUL with the true labels, on L u U unless its on: says otherwise
//	sd:pu      the standard deviation of AUL^PU over the SCAR splits that label |L| of the
//	           positives of L u U uniformly at random, the evaluated scores held fixed
//	           (Theorem 1; metrics.Ranking.AULSplitVariance); only when every row of L is
//	           positive, as in the scar-fraction protocol. sqrt(2/pi) sd:pu is the mean
//	           absolute error of AUL^PU that the theorem predicts (its error is nearly normal)
//
// AUL needs no class prior: AUL^PU estimates AUL without one. Exactly,
// AUL^PU = c/2 + (1 - c) AUC^PU with c = |L|/|L u U|, and AUL = alpha/2 +
// (1 - alpha) AUC with alpha the positive share of the rows (metrics.AUL).
// It has no options.
//
//	metrics: [aul]
type AULMeasure struct{}

func (m *AULMeasure) Name() string                      { return "aul" }
func (m *AULMeasure) Validate() error                   { return nil }
func (m *AULMeasure) Key() string                       { return "aul/v1" }
func (m *AULMeasure) New() (experiments.Measure, error) { return m, nil }
func (m *AULMeasure) UsesRecovery() bool                { return false }

func (m *AULMeasure) Measure(_ context.Context, c *experiments.CellRun, out *experiments.Values) error {
	pu, err := c.PU()
	if err != nil {
		return err
	}
	out.Set("aul", results.PU, pu.AUL())
	if sd, ok := aulSplitSD(c); ok {
		out.Set("aul", results.SDKey(results.PU), sd)
	}
	for _, t := range c.TruthRankings(experiments.SetAll) {
		out.Set("aul", results.TruthKey(t.ID), t.AUL())
	}
	return nil
}

// aulSplitSD is Theorem 1's standard deviation of AUL^PU for the cell: the
// evaluated scores ranked with the true labels, |L| of the positives
// labeled. It needs every labeled row to be positive (SCAR) and both
// classes among the rows.
func aulSplitSD(c *experiments.CellRun) (float64, bool) {
	if c.NL < 1 || c.NL > len(c.Y) || len(c.Y) != len(c.Scores) {
		return 0, false
	}
	for _, y := range c.Y[:c.NL] {
		if !y {
			return 0, false
		}
	}
	r, err := c.TrueRanking()
	if err != nil {
		return 0, false
	}
	return math.Sqrt(r.AULSplitVariance(c.NL)), true
}

// Compile-time checks.
var (
	_ experiments.MeasureConfig = (*AULMeasure)(nil)
	_ experiments.Measure       = (*AULMeasure)(nil)
	_ experiments.RecoveryUser  = (*AULMeasure)(nil)
)

func init() {
	experiments.Measures.Register("aul", "AUL (area under the lift curve) on L u U: AUL^PU (L against L u U, no prior needed) and the truths",
		func() experiments.MeasureConfig { return &AULMeasure{} })
}
