package benchevaluate

import (
	"context"
	"math"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/evaluate"
	"github.com/pueval/pueval/metrics"
)

// PriorGrid is a case's recovered numbers on a grid of priors around the
// estimated ones (Options.Grid): alpha = CenterAlpha + AlphaOffsets[i],
// beta - alpha = (CenterBeta - CenterAlpha) exp(LogGapOffsets[j]), beta
// capped at 1; Values[i][j] the recovered numbers there (NaN where the
// priors are unusable). With the truth and the given-priors run's
// sampling intervals, it lets the region of priors that evaluate's
// intervals cover be fitted and checked without running evaluate again.
type PriorGrid struct {
	CenterAlpha   float64               `json:"center_alpha"`
	CenterBeta    float64               `json:"center_beta"`
	AlphaOffsets  []float64             `json:"alpha_offsets"`
	LogGapOffsets []float64             `json:"log_gap_offsets"`
	Values        [][]evaluate.Headline `json:"values"`
}

// The grid's offsets: wide enough to hold the estimators' errors on the
// benchmark's cases (up to about 0.6 in alpha and a factor of e^1.2 in
// beta - alpha at 150 rows).
var (
	gridAlphaOffsets  = []float64{-0.6, -0.45, -0.35, -0.3, -0.25, -0.2, -0.15, -0.12, -0.1, -0.08, -0.06, -0.04, -0.02, 0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3}
	gridLogGapOffsets = []float64{-0.5, -0.4, -0.3, -0.25, -0.2, -0.15, -0.12, -0.09, -0.06, -0.03, 0, 0.03, 0.06, 0.09, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.65, 0.8, 1, 1.2}
)

// priorGrid recovers the numbers of the scores on the grid around the
// priors of an evaluate run.
func priorGrid(ctx context.Context, scores []float64, labeled []bool, p evaluate.Priors) (*PriorGrid, error) {
	if !p.Valid {
		return nil, nil
	}
	r, err := metrics.RankContext(ctx, scores, labeled)
	if err != nil {
		return nil, err
	}
	t, err := recovery.TallyOf(r)
	if err != nil {
		return nil, err
	}
	g := &PriorGrid{CenterAlpha: float64(p.Alpha), CenterBeta: float64(p.Beta), AlphaOffsets: gridAlphaOffsets, LogGapOffsets: gridLogGapOffsets}
	gap := g.CenterBeta - g.CenterAlpha
	nan := evaluate.Float(math.NaN())
	var ws recovery.Workspace
	for _, da := range gridAlphaOffsets {
		row := make([]evaluate.Headline, len(gridLogGapOffsets))
		for j, lg := range gridLogGapOffsets {
			a := g.CenterAlpha + da
			b := min(1, a+gap*math.Exp(lg))
			row[j] = evaluate.Headline{AUC: nan, AUCPR: nan, Acc: nan, BAcc: nan, F1: nan, MCC: nan}
			if a < 0 || recovery.CheckPriors(a, b) != nil {
				continue
			}
			num, err := ws.Recover(ctx, t, a, b, recovery.Drop)
			if err != nil {
				return nil, err
			}
			row[j] = evaluate.HeadlineOf(&num)
		}
		g.Values = append(g.Values, row)
	}
	return g, nil
}
