package claesen2015

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Fig2Row is one |P_L| of Figure 2: statistics over the repeats of the
// bootstrap AUC bounds at the true beta and of the true AUC.
type Fig2Row struct {
	Labeled int // |P_L|
	Runs    int // repeats holding the bounds and the truth
	// Means over the repeats; Width is the mean of upper - lower.
	Lower, Upper, Truth, Width float64
	// Coverage is the share of repeats with lower <= truth <= upper.
	Coverage float64
	// 2.5 and 97.5 percentiles (type 7) over the repeats.
	LowerQ, UpperQ, TruthQ [2]float64
}

// Figure2Rows aggregates the ok records of fig2-d3 by |P_L| (the grid's
// labeled, else Sizes.Labeled), ascending. Records lacking a bound or the
// truth are left out.
func Figure2Rows(recs []results.Record) []Fig2Row {
	lo, hi := key("bootstrap-lower", 1), key("bootstrap-upper", 1)
	type acc struct{ lower, upper, truth, width []float64 }
	by := map[int]*acc{}
	for _, r := range okRecords(recs, fig2Dataset) {
		l, ok1 := value(r, aucMetric, lo)
		u, ok2 := value(r, aucMetric, hi)
		t, ok3 := value(r, aucMetric, truthKey)
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		n := r.Sizes.Labeled
		if s, ok := r.Grid["labeled"]; ok {
			if v, err := strconv.Atoi(s); err == nil {
				n = v
			}
		}
		a := by[n]
		if a == nil {
			a = &acc{}
			by[n] = a
		}
		a.lower, a.upper, a.truth, a.width = append(a.lower, l), append(a.upper, u), append(a.truth, t), append(a.width, u-l)
	}
	var rows []Fig2Row
	for n, a := range by {
		covered := 0
		for i := range a.truth {
			if a.lower[i] <= a.truth[i] && a.truth[i] <= a.upper[i] {
				covered++
			}
		}
		q := func(xs []float64) [2]float64 { p := percentiles(xs, 0.025, 0.975); return [2]float64{p[0], p[1]} }
		rows = append(rows, Fig2Row{Labeled: n, Runs: len(a.truth),
			Lower: mean(a.lower), Upper: mean(a.upper), Truth: mean(a.truth), Width: mean(a.width),
			Coverage: float64(covered) / float64(len(a.truth)),
			LowerQ:   q(a.lower), UpperQ: q(a.upper), TruthQ: q(a.truth)})
	}
	slices.SortFunc(rows, func(a, b Fig2Row) int { return cmp.Compare(a.Labeled, b.Labeled) })
	return rows
}

// Figure2Table is the table of Figure 2: per |P_L| the repeats, the mean
// bounds, truth and width, and the coverage.
func Figure2Table(rows []Fig2Row) report.Table {
	t := report.Table{Caption: "Figure 2: bootstrap AUC bounds at the true beta against |P_L| (means over repeats; coverage: share of repeats with lower <= true AUC <= upper)",
		Labels: []report.Column{{Name: "|P_L|", CSV: "labeled", LaTeX: `$|P_L|$`}, {Name: "runs", NoLaTeX: true}},
		Values: []report.Column{{Name: "lower", CSV: "mean_lower"}, {Name: "upper", CSV: "mean_upper"}, {Name: "true AUC", CSV: "mean_truth"},
			{Name: "width", CSV: "mean_width"}, {Name: "coverage"},
			{Name: "lower 2.5%", CSV: "lower_p2.5"}, {Name: "upper 97.5%", CSV: "upper_p97.5"}}}
	for _, r := range rows {
		t.Rows = append(t.Rows, report.Row{
			Labels: []report.Label{{Text: strconv.Itoa(r.Labeled)}, {Text: strconv.Itoa(r.Runs)}},
			Values: []float64{r.Lower, r.Upper, r.Truth, r.Width, r.Coverage, r.LowerQ[0], r.UpperQ[1]}})
	}
	return t
}

// Figure2Chart draws the mean bounds and the mean truth against |P_L| on
// a log axis labelled in counts, with the 2.5 and 97.5 percentiles of each
// bound over the repeats, dashed.
func Figure2Chart(rows []Fig2Row) report.LineChart {
	x := make([]float64, len(rows))
	col := func(f func(Fig2Row) float64) []float64 {
		out := make([]float64, len(rows))
		for i, r := range rows {
			out[i] = f(r)
		}
		return out
	}
	for i, r := range rows {
		x[i] = float64(r.Labeled)
	}
	var s []report.Series
	s = addSeries(s, "mean true AUC", x, col(func(r Fig2Row) float64 { return r.Truth }), colorTruth, false)
	s = addSeries(s, "mean upper bound", x, col(func(r Fig2Row) float64 { return r.Upper }), report.ColorRed, false)
	s = addSeries(s, "mean lower bound", x, col(func(r Fig2Row) float64 { return r.Lower }), report.ColorBlue, false)
	s = addSeries(s, "upper: 97.5 %", x, col(func(r Fig2Row) float64 { return r.UpperQ[1] }), report.ColorRed, true)
	s = addSeries(s, "upper: 2.5 %", x, col(func(r Fig2Row) float64 { return r.UpperQ[0] }), report.ColorPurple, true)
	s = addSeries(s, "lower: 97.5 %", x, col(func(r Fig2Row) float64 { return r.LowerQ[1] }), report.ColorGreen, true)
	s = addSeries(s, "lower: 2.5 %", x, col(func(r Fig2Row) float64 { return r.LowerQ[0] }), report.ColorBlue, true)
	return report.LineChart{Title: "Figure 2: AUC bounds against the number of known positives",
		XLabel: "|P_L|, known positives (log scale)", YLabel: "AUC", Series: s, LogX: true}
}

// MinCoverage is the coverage of the AUC bounds the spec asks of every
// |P_L| (the band is pointwise 95 %, so the AUC's coverage is high but not
// guaranteed).
const MinCoverage = 0.9

// Figure2Claims checks that the mean width decreases strictly in |P_L| and
// that the coverage is at least MinCoverage at every |P_L|.
func Figure2Claims(rows []Fig2Row) []report.Claim {
	width := report.Claim{Item: "Fig. 2", Test: "the mean width of the AUC bounds decreases strictly as |P_L| grows"}
	cover := report.Claim{Item: "Fig. 2", Test: fmt.Sprintf("the bounds contain the true AUC in at least %.0f %% of the repeats at every |P_L|", 100*MinCoverage)}
	if len(rows) < 2 {
		why := fmt.Sprintf("%d value(s) of |P_L| in the records; two are needed", len(rows))
		width.Detail, cover.Detail = why, why
		if len(rows) == 1 {
			cover.Verdict = report.VerdictOf(rows[0].Coverage >= MinCoverage)
			cover.Detail = fmt.Sprintf("|P_L| %d: %.1f %%", rows[0].Labeled, 100*rows[0].Coverage)
		}
		return []report.Claim{width, cover}
	}
	var ws, cs []string
	strict, worst := true, 0
	for i, r := range rows {
		ws = append(ws, fmt.Sprintf("%d: %s", r.Labeled, f3(r.Width)))
		cs = append(cs, fmt.Sprintf("%d: %.1f %%", r.Labeled, 100*r.Coverage))
		if i > 0 && !(r.Width < rows[i-1].Width) {
			strict = false
		}
		if r.Coverage < rows[worst].Coverage {
			worst = i
		}
	}
	width.Verdict, width.Detail = report.VerdictOf(strict), "mean widths by |P_L|: "+strings.Join(ws, ", ")
	cover.Verdict = report.VerdictOf(rows[worst].Coverage >= MinCoverage)
	cover.Detail = fmt.Sprintf("lowest %.1f %% at |P_L| %d; by |P_L|: %s", 100*rows[worst].Coverage, rows[worst].Labeled, strings.Join(cs, ", "))
	return []report.Claim{width, cover}
}

// writeFigure2 adds Figure 2's section.
func writeFigure2(s *section, in report.Input) error {
	s.heading("Figure 2: the effect of |P_L| on the AUC bounds (data set " + fig2Dataset + ")")
	rows := Figure2Rows(in.Records)
	claims := Figure2Claims(rows)
	if len(rows) == 0 {
		s.noRecords(absence(in, fig2Dataset), claims...)
		return nil
	}
	s.para(fmt.Sprintf("Bootstrap bounds at beta-hat = beta, %d to %d repeats per |P_L|; the paper's score model and |P_L| grid are not stated (the config's choice: binormal d3, |U| = 100,000, beta = 0.2).",
		minRuns(rows), maxRuns(rows)), false)
	f, err := Figure2Chart(rows).Figure("fig2", 18*vg.Centimeter, 10*vg.Centimeter)
	if err != nil {
		return err
	}
	if err := s.figure(f, "Figure 2: mean lower and upper AUC bound and mean true AUC against |P_L| (log scale), with the 2.5 and 97.5 percentiles of each bound over the repeats."); err != nil {
		return err
	}
	if err := s.table(Figure2Table(rows), "fig2-table"); err != nil {
		return err
	}
	s.claimList(claims...)
	return nil
}

func minRuns(rows []Fig2Row) int {
	m := rows[0].Runs
	for _, r := range rows {
		m = min(m, r.Runs)
	}
	return m
}

func maxRuns(rows []Fig2Row) int {
	m := 0
	for _, r := range rows {
		m = max(m, r.Runs)
	}
	return m
}
