package claesen2015

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Figure4Charts are Figure 4's panels: the rank CDFs of the known positives
// of both models (the paper's left panel), their ROC bounds at beta-hat 0
// and 0.1 (its right panel; at 0 the two bounds coincide), and against
// beta-hat the point estimate, its affine value and the bounds of each model,
// and the two models' point estimates together.
func Figure4Charts(recs []results.Record, rows []Fig4Row) []report.LineChart {
	cdf := report.LineChart{Title: "rank CDF of the known positives", XLabel: "rank r (normalized)", YLabel: "CDF",
		XMin: 0, XMax: 1, YMin: 0, YMax: 1}
	roc := report.LineChart{Title: "ROC bounds at beta-hat 0 and 0.1", XLabel: "FPR", YLabel: "TPR",
		XMin: 0, XMax: 1, YMin: 0, YMax: 1, Diagonal: true}
	both := report.LineChart{Title: "point estimates (affine dashed)", XLabel: "beta-hat", YLabel: "AUC"}
	var perModel []report.LineChart
	cs := Figure4Compare(rows)
	f01 := -1.0
	if c, ok := atBetaHat(cs, 0.1); ok {
		f01 = c.Multiple
	}
	for i, m := range Fig4Models {
		c := paletteColor(i)
		if r, ok := curveRecord(okRecords(recs, m.Dataset), "cdf-known"); ok {
			cdf.Series = addCurve(cdf.Series, r, "cdf-known", m.Name, c, false)
			roc.Series = addCurve(roc.Series, r, key("bootstrap-lower-roc", 0), m.Name+", beta-hat 0", c, true)
			if f01 >= 0 {
				roc.Series = addCurve(roc.Series, r, key("bootstrap-lower-roc", f01), m.Name+", 0.1 lower", c, false)
				roc.Series = addCurve(roc.Series, r, key("bootstrap-upper-roc", f01), m.Name+", 0.1 upper", paletteColor(i+2), false)
			}
		}
		var x, point, affine, lo, hi, truth []float64
		for _, r := range rows {
			if r.Model == m.Dataset {
				x, point, affine = append(x, r.BetaHat), append(point, r.Point), append(affine, r.Affine)
				lo, hi, truth = append(lo, r.Lower), append(hi, r.Upper), append(truth, r.Truth)
			}
		}
		lc := report.LineChart{Title: m.Name + " (" + m.Dataset + ")", XLabel: "beta-hat", YLabel: "AUC"}
		lc.Series = addSeries(lc.Series, "true AUC", x, truth, colorTruth, false)
		lc.Series = addSeries(lc.Series, "point", x, point, c, false)
		lc.Series = addSeries(lc.Series, "affine", x, affine, colorGrey, true)
		lc.Series = addSeries(lc.Series, "upper", x, hi, report.ColorRed, true)
		lc.Series = addSeries(lc.Series, "lower", x, lo, report.ColorBlue, true)
		perModel = append(perModel, lc)
		both.Series = addSeries(both.Series, m.Name+" point", x, point, c, false)
		both.Series = addSeries(both.Series, m.Name+" affine", x, affine, c, true)
	}
	return append([]report.LineChart{cdf, roc}, append(perModel, both)...)
}

// writeFigure4 adds Figure 4's section: the charts, the paper's inset
// table beside ours, the full table, the finding about the clamp, and the
// claims.
func writeFigure4(s *section, in report.Input) error {
	s.heading("Figure 4: the effect of beta-hat on model selection (data sets " + fig4Model1 + ", " + fig4Model2 + ")")
	rows := Figure4Rows(in.Records)
	cs := Figure4Compare(rows)
	claims := Figure4Claims(cs)
	if len(rows) == 0 {
		var why []string
		for _, m := range Fig4Models {
			why = append(why, absence(in, m.Dataset))
		}
		s.noRecords(strings.Join(why, "; "), claims...)
		return nil
	}
	s.para("The paper's inset table reports one AUROC per model and beta-hat. With the ECDF of the known positives as band "+
		"and real-valued counts, that point estimate is affine in beta-hat: AUC = (AUC_PU - b/2)/(1 - b), AUC_PU the "+
		"known-positives-against-the-rest AUC. For two models ranked with the same beta-hat the difference "+
		"of the affine values is (AUC_PU,1 - AUC_PU,2)/(1 - b): its sign does not depend on b, so the two models' order cannot flip "+
		"unless the clamp binds, i.e. beta-hat is larger than the top of a ranking can hold (theta = T(r) b |U| above the unlabeled "+
		"instances at or above rank r). The table's point - affine column shows where it binds; the claims below say at which "+
		"beta-hat, if any, the order flips and whether the clamp binds there. The paper's numbers cannot be reproduced: its two "+
		"rankings were not published; only the sign pattern is compared.", false)
	f, err := report.Panels("fig4", 36*vg.Centimeter, 20*vg.Centimeter, 3, Figure4Charts(in.Records, rows))
	if err != nil {
		return err
	}
	if err := s.figure(f, "Figure 4: rank CDFs of the known positives, ROC bounds at beta-hat 0 and 0.1 (first repeat with curves), and against beta-hat the mean point estimate, its affine value and the bootstrap bounds of each model."); err != nil {
		return err
	}
	if err := s.table(Figure4InsetTable(cs), "fig4-inset"); err != nil {
		return err
	}
	if err := s.table(Figure4Table(rows), "fig4-table"); err != nil {
		return err
	}
	if len(cs) > 0 {
		s.para(fmt.Sprintf("True beta: %s (model 1), %s (model 2). These two models and this true beta are a tuned choice: model 2 is the published d2 shifted to N(2.15, 2^2), and beta 0.05 was picked, so that the paper's sign pattern appears; the grid below runs the published d2 and other true betas.", f3(cs[0].M1.Beta), f3(cs[0].M2.Beta)), false)
	}
	s.claimList(claims...)
	return writeFigure4Grid(s, in)
}

// writeFigure4Grid adds the grid of models and true betas (data sets
// fig4g-...), when the records hold it.
func writeFigure4Grid(s *section, in report.Input) error {
	rows := Figure4GridRows(in.Records)
	if len(rows) == 0 {
		return nil
	}
	s.para("Figure 4 across models and true betas: the inset's two levels for each model, with model 2 the tuned N(2.15, 2^2) or the published utility's d2, N(2, 2^2), and true betas from 0.01 to 0.2 (|U| 45,000, 5,000 known positives, as above; beta-hat 0.1 is the multiple 0.1/beta of each).", false)
	if err := s.table(Figure4GridTable(rows), "fig4-grid"); err != nil {
		return err
	}
	s.para(Figure4GridFinding(rows), false)
	return nil
}
