package claesen2015

import (
	"image/color"
	"math"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Colours: the truth black, the bounds at the true beta in the core's red
// (upper) and blue (lower), beta-hat multiples from a qualitative palette.
var (
	colorTruth = color.Black
	colorGrey  = color.Gray{Y: 130}
)

// paletteColor is the i-th colour of the core's qualitative palette.
func paletteColor(i int) color.Color { return report.QualitativeColor(i) }

// series builds a chart series from x and y, dropping the points where
// either is NaN or infinite (gonum's line plotter rejects them); ok is false
// when no point is left, and the caller leaves the series out.
func series(name string, x, y []float64, c color.Color, dashed bool) (report.Series, bool) {
	s := report.Series{Name: name, Color: c, Dashed: dashed}
	for i := range x {
		if i < len(y) && finite(x[i]) && finite(y[i]) {
			s.X, s.Y = append(s.X, x[i]), append(s.Y, y[i])
		}
	}
	return s, len(s.X) > 0
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// addSeries appends the series of x, y to list when it has points.
func addSeries(list []report.Series, name string, x, y []float64, c color.Color, dashed bool) []report.Series {
	if s, ok := series(name, x, y, c, dashed); ok {
		list = append(list, s)
	}
	return list
}

// addCurve appends the record's curve as a series when it has it.
func addCurve(list []report.Series, r results.Record, curve, name string, c color.Color, dashed bool) []report.Series {
	pts, ok := r.Curves[curve]
	if !ok {
		return list
	}
	x, y := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		x[i], y[i] = p[0], p[1]
	}
	return addSeries(list, name, x, y, c, dashed)
}

// stepPoints draws a right-continuous step function through (xs[i], ys[i])
// from (x0, y0) to xEnd: horizontal runs, vertical jumps at each xs[i].
func stepPoints(x0, y0 float64, xs, ys []float64, xEnd float64) (x, y []float64) {
	x, y = []float64{x0}, []float64{y0}
	last := y0
	for i := range xs {
		x, y = append(x, xs[i], xs[i]), append(y, last, ys[i])
		last = ys[i]
	}
	return append(x, xEnd), append(y, last)
}
