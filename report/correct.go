package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/estimators/recovery"
)

var (
	puColor        = color.RGBA{R: 0xd6, G: 0x3a, B: 0x3a, A: 0xff}
	recoveredColor = color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}
)

// CorrectionFigures draws, for `pueval correct --plot`, the PU (labeled vs
// unlabeled) and the recovered ROC and precision-recall curves of a
// practitioner's scores: roc.{png,pdf,svg} and pr.{png,pdf,svg}.
func CorrectionFigures(rc *recovery.Recovery, o recovery.Outside) ([]Figure, error) {
	r := rc.Ranking()
	s, err := rc.Summary(o)
	if err != nil {
		return nil, err
	}
	var puX, puY, recX, recY []float64
	for _, p := range r.ROC() {
		puX, puY = append(puX, p.FPR), append(puY, p.TPR)
	}
	for _, p := range rc.ROC(o) {
		recX, recY = append(recX, p.FPR), append(recY, p.TPR)
	}
	roc := LineChart{Title: fmt.Sprintf("ROC (alpha %.3f, beta %.3f, outside = %s)", rc.Alpha(), rc.Beta(), o),
		XLabel: "false positive rate", YLabel: "true positive rate", Diagonal: true, XMin: 0, XMax: 1, YMin: 0, YMax: 1,
		Series: []Series{
			{Name: fmt.Sprintf("PU: labeled vs unlabeled (AUC %.3f)", s.AUC.PU), X: puX, Y: puY, Color: puColor, Dashed: true},
			{Name: fmt.Sprintf("recovered (AUC %.3f)", s.AUC.Indirect), X: recX, Y: recY, Color: recoveredColor},
		}}
	var pX, pY, rX, rY []float64
	for _, p := range r.PR() {
		pX, pY = append(pX, p.Recall), append(pY, p.Precision)
	}
	for _, p := range rc.PRCurveOf(o, recovery.DefaultPRCurve) {
		rX, rY = append(rX, p.Recall), append(rY, p.Precision)
	}
	pr := LineChart{Title: fmt.Sprintf("Precision-recall (alpha %.3f, beta %.3f, outside = %s)", rc.Alpha(), rc.Beta(), o), XLabel: "recall", YLabel: "precision", XMin: 0, XMax: 1, YMin: 0, YMax: 1,
		Series: []Series{
			{Name: fmt.Sprintf("PU: labeled vs unlabeled (AP %.3f)", s.AUCPR.PU), X: pX, Y: pY, Color: puColor, Dashed: true},
			{Name: fmt.Sprintf("recovered, on the unlabeled set (AUC-PR %.3f)", s.AUCPR.Indirect), X: rX, Y: rY, Color: recoveredColor},
		}}
	var figs []Figure
	for _, c := range []struct {
		name string
		lc   LineChart
	}{{"roc", roc}, {"pr", pr}} {
		f, err := c.lc.Figure(c.name, 17*vg.Centimeter, 10*vg.Centimeter)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}
