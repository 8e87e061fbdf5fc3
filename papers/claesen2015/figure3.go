package claesen2015

import (
	"fmt"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Fig3Row is one beta-hat multiple of Figure 3: means over the repeats.
type Fig3Row struct {
	Multiple                   float64 // beta-hat / beta
	Beta                       float64 // the mean true beta
	BetaHat                    float64 // Multiple x Beta
	Runs                       int
	Lower, Upper, Point, Truth float64
	// Moved counts the repeats whose two bounds both lie on Lemma 4's side
	// of the same repeat's bounds at the true beta (below for Multiple < 1,
	// above for > 1); Compared counts the repeats with both settings.
	Moved, Compared int
	// Under counts the repeats whose upper bound is below the true AUC (the
	// "unlabeled as negative" underestimate at Multiple 0).
	Under int
}

// Figure3Rows aggregates the ok records of fig3-d3 by beta-hat multiple.
func Figure3Rows(recs []results.Record) []Fig3Row {
	rs := okRecords(recs, fig3Dataset)
	var rows []Fig3Row
	for _, f := range multiples(rs, aucMetric, "bootstrap-lower") {
		row := Fig3Row{Multiple: f}
		var lo, hi, pt, tr, alpha []float64
		for _, r := range rs {
			l, ok1 := value(r, aucMetric, key("bootstrap-lower", f))
			u, ok2 := value(r, aucMetric, key("bootstrap-upper", f))
			t, ok3 := value(r, aucMetric, truthKey)
			if !ok1 || !ok2 || !ok3 {
				continue
			}
			lo, hi, tr, alpha = append(lo, l), append(hi, u), append(tr, t), append(alpha, r.Alpha)
			if p, ok := value(r, aucMetric, key("point", f)); ok {
				pt = append(pt, p)
			}
			if u < t {
				row.Under++
			}
			l1, okL := value(r, aucMetric, key("bootstrap-lower", 1))
			u1, okU := value(r, aucMetric, key("bootstrap-upper", 1))
			if f != 1 && okL && okU {
				row.Compared++
				if (f < 1 && l < l1 && u < u1) || (f > 1 && l > l1 && u > u1) {
					row.Moved++
				}
			}
		}
		if len(lo) == 0 {
			continue
		}
		row.Runs = len(lo)
		row.Lower, row.Upper, row.Point, row.Truth = mean(lo), mean(hi), mean(pt), mean(tr)
		row.Beta = mean(alpha)
		row.BetaHat = f * row.Beta
		rows = append(rows, row)
	}
	return rows
}

// Figure3Table is the table of Figure 3: the mean bounds per multiple.
func Figure3Table(rows []Fig3Row) report.Table {
	t := report.Table{Caption: "Figure 3: mean bootstrap AUC bounds and point estimate by beta-hat (multiples of the true beta)",
		Labels: []report.Column{{Name: "beta-hat / beta", CSV: "multiple", LaTeX: `$\hat\beta/\beta$`}, {Name: "runs", NoLaTeX: true}},
		Values: []report.Column{{Name: "beta-hat", CSV: "beta_hat", LaTeX: `$\hat\beta$`}, {Name: "lower"}, {Name: "upper"}, {Name: "width"},
			{Name: "point"}, {Name: "true AUC", CSV: "truth"}}}
	for _, r := range rows {
		t.Rows = append(t.Rows, report.Row{Labels: []report.Label{{Text: g(r.Multiple)}, {Text: strconv.Itoa(r.Runs)}},
			Values: []float64{r.BetaHat, r.Lower, r.Upper, r.Upper - r.Lower, r.Point, r.Truth}})
	}
	return t
}

// Figure3Claims checks Lemma 4 on the means (beta-hat below beta lowers both
// bounds, above raises both; how many repeats agree is in the detail) and
// that beta-hat = 0 underestimates the true AUC (its upper bound, which
// equals its lower one, lies below the truth).
func Figure3Claims(rows []Fig3Row) []report.Claim {
	lemma := report.Claim{Item: "Fig. 3 (Lemma 4)", Test: "beta-hat < beta lowers both AUC bounds, beta-hat > beta raises both"}
	zero := report.Claim{Item: "Fig. 3", Test: "beta-hat = 0 (unlabeled as negative) underestimates the true AUC"}
	var ref *Fig3Row
	for i := range rows {
		if rows[i].Multiple == 1 {
			ref = &rows[i]
		}
	}
	if ref == nil {
		lemma.Detail = "no bounds at the true beta in the records"
	} else {
		ok, n := true, 0
		var parts []string
		for _, r := range rows {
			if r.Multiple == 1 {
				continue
			}
			n++
			dl, du := r.Lower-ref.Lower, r.Upper-ref.Upper
			moved := (r.Multiple < 1 && dl < 0 && du < 0) || (r.Multiple > 1 && dl > 0 && du > 0)
			ok = ok && moved
			parts = append(parts, fmt.Sprintf("%sx: lower %+.4f, upper %+.4f (%d/%d repeats)", g(r.Multiple), dl, du, r.Moved, r.Compared))
		}
		if n == 0 {
			lemma.Detail = "only the true beta in the records"
		} else {
			lemma.Verdict = report.VerdictOf(ok)
			lemma.Detail = "mean change from beta-hat = beta: " + strings.Join(parts, "; ")
		}
	}
	zero.Detail = "no bounds at beta-hat = 0 in the records"
	for _, r := range rows {
		if r.Multiple == 0 {
			zero.Verdict = report.VerdictOf(r.Upper < r.Truth)
			zero.Detail = fmt.Sprintf("mean AUC at beta-hat 0: %s against the true %s; below the truth in %d/%d repeats", f3(r.Upper), f3(r.Truth), r.Under, r.Runs)
		}
	}
	return []report.Claim{lemma, zero}
}

// Figure3Charts are the lower and the upper ROC curves of one record per
// beta-hat multiple, each panel with the true ROC curve.
func Figure3Charts(r results.Record, mults []float64) []report.LineChart {
	var charts []report.LineChart
	for _, side := range []string{"lower", "upper"} {
		var s []report.Series
		s = addCurve(s, r, "truth-roc", "true ROC", colorTruth, false)
		for i, f := range mults {
			s = addCurve(s, r, key("bootstrap-"+side+"-roc", f), fmt.Sprintf("beta-hat = %s beta", g(f)), paletteColor(i), f == 0)
		}
		charts = append(charts, report.LineChart{Title: fmt.Sprintf("%s bounds on the ROC curve (repeat %d)", side, r.Repeat),
			XLabel: "FPR", YLabel: "TPR", Series: s, XMin: 0, XMax: 1, YMin: 0, YMax: 1, Diagonal: true})
	}
	return charts
}

// writeFigure3 adds Figure 3's section.
func writeFigure3(s *section, in report.Input) error {
	s.heading("Figure 3: the effect of beta-hat on the ROC bounds (data set " + fig3Dataset + ")")
	rows := Figure3Rows(in.Records)
	claims := Figure3Claims(rows)
	if len(rows) == 0 {
		s.noRecords(absence(in, fig3Dataset), claims...)
		return nil
	}
	s.para(fmt.Sprintf("True beta %s (mean); the paper's beta-hat values are not stated: the config's multiples of beta.", f3(rows[0].Beta)), false)
	mults := make([]float64, len(rows))
	for i, r := range rows {
		mults[i] = r.Multiple
	}
	if r, ok := curveRecord(okRecords(in.Records, fig3Dataset), "truth-roc"); ok {
		f, err := report.Panels("fig3", 30*vg.Centimeter, 12*vg.Centimeter, 2, Figure3Charts(r, mults))
		if err != nil {
			return err
		}
		if err := s.figure(f, "Figure 3: lower (left) and upper (right) bootstrap bounds on the ROC curve for each beta-hat, with the true ROC curve."); err != nil {
			return err
		}
	} else {
		s.para("The records hold no curves of "+fig3Dataset+" (the measure's curves: 0): the figure is not drawn.", true)
	}
	if err := s.table(Figure3Table(rows), "fig3-table"); err != nil {
		return err
	}
	s.claimList(claims...)
	return nil
}
