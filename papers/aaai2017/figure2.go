package aaai2017

import (
	"fmt"
	"image/color"
	"math"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// ErrorBins are the bins of |error of the estimated beta - alpha| of
// Figure 2 (b, d): small [0, 0.1), medium [0.1, 0.2), large [0.2, inf).
var ErrorBins = []struct {
	Name   string
	Lo, Hi float64
}{{"small [0, 0.1)", 0, 0.1}, {"medium [0.1, 0.2)", 0.1, 0.2}, {"large [0.2, inf)", 0.2, math.Inf(1)}}

// colors are the paper's colours of Figure 2: "red boxes" for PU, "yellow
// and green" for IR and DR, "blue and purple" for IE and DE.
var colors = map[string]color.Color{
	"PU": report.ColorRed, "IR": report.ColorYellow, "DR": report.ColorGreen,
	"IE": report.ColorBlue, "DE": report.ColorPurple,
}

// Figure2 returns the box charts of Figure 2 for one metric: signed errors
// (estimate - truth, the truth with ID truth) of each method grouped by the
// nominal beta (panels a, c) and by the |error of beta-hat - alpha-hat| bin
// of the estimate Record.Estimates[est] (panels b, d). Methods without
// values (DR, DE for AUC-PR) are left out.
func Figure2(recs []results.Record, metric, truth, est string, clip bool) (byBeta, byErr report.BoxChart) {
	cols := columnKeys(est, clip)
	if metric == "aucpr" {
		// The paper has no direct recovery of AUC-PR.
		var keep []struct{ name, key string }
		for _, c := range cols {
			if c.name != "DR" && c.name != "DE" {
				keep = append(keep, c)
			}
		}
		cols = keep
	}
	label := metricLabel[metric]
	truthKey := results.TruthKey(truth)
	betas := report.NominalBetas(recs)
	byB := make([][][]float64, len(cols))
	byE := make([][][]float64, len(cols))
	for i := range cols {
		byB[i] = make([][]float64, len(betas))
		byE[i] = make([][]float64, len(ErrorBins))
	}
	for _, r := range recs {
		m, ok := r.Metrics[metric]
		tv, okT := m[truthKey]
		if r.Status != results.StatusOK || !ok || !okT {
			continue
		}
		bi := report.IndexFloat(betas, report.NominalBeta(r))
		ei := -1
		if e, ok := r.Estimates[est]; ok && est != "" {
			d := math.Abs((e.Beta - e.Alpha) - (r.Beta - r.Alpha))
			for k, bin := range ErrorBins {
				if d >= bin.Lo && d < bin.Hi {
					ei = k
				}
			}
		}
		for i, c := range cols {
			v, ok := m[c.key]
			if !ok {
				continue
			}
			byB[i][bi] = append(byB[i][bi], v-tv)
			if ei >= 0 {
				byE[i][ei] = append(byE[i][ei], v-tv)
			}
		}
	}
	statsOf := func(x [][][]float64) [][]report.BoxStats {
		out := make([][]report.BoxStats, len(x))
		for i := range x {
			for _, v := range x[i] {
				out[i] = append(out[i], report.Box(v))
			}
		}
		return out
	}
	var groups []string
	for _, b := range betas {
		groups = append(groups, fmt.Sprintf("%.2f", b))
	}
	var bins []string
	for _, b := range ErrorBins {
		bins = append(bins, b.Name)
	}
	ylabel := label + " estimate - truth"
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	byBeta = report.BoxChart{Title: label + ": error by beta", XLabel: "beta (true)", YLabel: ylabel,
		Groups: groups, Series: names, Colors: report.ColorsOf(names, colors), Stats: statsOf(byB), ZeroLine: true}
	byErr = report.BoxChart{Title: label + ": error by |error of estimated beta - alpha|", XLabel: "|error of beta-hat - alpha-hat|",
		YLabel: ylabel, Groups: bins, Series: names, Colors: report.ColorsOf(names, colors), Stats: statsOf(byE), ZeroLine: true}
	return byBeta, byErr
}

// SignTests runs the appendix's sign test of indirect against direct AUC
// recovery on the per-(data set, beta) mean absolute errors: with real
// (alpha, beta) (DR vs IR) and with estimated ones (DE vs IE). Rows missing
// any of the four are left out.
func SignTests(rows []Row) (withTrue, estimated report.SignTest, err error) {
	var dr, ir, de, ie []float64
	for _, r := range rows {
		if math.IsNaN(r.DR) || math.IsNaN(r.IR) || math.IsNaN(r.DE) || math.IsNaN(r.IE) {
			continue
		}
		dr, ir, de, ie = append(dr, r.DR), append(ir, r.IR), append(de, r.DE), append(ie, r.IE)
	}
	if withTrue, err = report.CompareErrors(dr, ir, 3); err != nil {
		return withTrue, estimated, fmt.Errorf("sign test DR vs IR: %w", err)
	}
	if estimated, err = report.CompareErrors(de, ie, 3); err != nil {
		return withTrue, estimated, fmt.Errorf("sign test DE vs IE: %w", err)
	}
	return withTrue, estimated, nil
}
