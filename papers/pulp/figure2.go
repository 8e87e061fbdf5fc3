package pulp

import (
	"bytes"
	"encoding/csv"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pueval/pueval/report"
)

// Figure2CSV is fig2.csv: one row per labeling, Pr[y=1] and measure, with
// the rank correlation and the MAD of the point (empty where undefined;
// per fold, averaged over the folds and repeats) and the number of
// (problem, classifier) configurations. scenario is the record's labeling
// value, measure the metric key. Given a.FoldMeans, it is
// fig2-foldmeans.csv: the same over the configurations' fold means.
func Figure2CSV(a Analysis) string {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"scenario", "pi", "measure", "rho", "mad", "n_configurations"})
	for _, p := range a.Points {
		w.Write([]string{p.Labeling, strconv.FormatFloat(p.Pi, 'g', -1, 64), p.Measure, num(p.Rho), num(p.MAD), strconv.Itoa(p.Configs)})
	}
	w.Flush()
	return buf.String()
}

// num is a CSV number at six significant digits (the report package's
// precision), empty for NaN.
func num(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// Figure2Tables are the numbers of Figure 2 as two tables (rank
// correlation; MAD): a row per labeling and Pr[y=1], a column per measure.
func Figure2Tables(a Analysis) (rho, mad report.Table) {
	mk := func(caption string) report.Table {
		t := report.Table{Caption: caption,
			Labels: []report.Column{{Name: "labeling"}, {Name: "Pr[y=1]", CSV: "pi", LaTeX: `$\Pr[y=1]$`}, {Name: "configurations", CSV: "n_configurations", NoLaTeX: true}}}
		for _, m := range Measures {
			t.Values = append(t.Values, report.Column{Name: m.Label, CSV: m.Key, LaTeX: report.LaTeXEscape(m.Label)})
		}
		return t
	}
	rho = mk("Figure 2, top row: rank (Spearman) correlation between each measure on PU labels and on the true labels (mean over folds and repeats)")
	mad = mk("Figure 2, bottom row: mean absolute deviation between each measure on PU labels and on the true labels (mean over folds and repeats)")
	for _, l := range a.Labelings {
		for _, pi := range a.Pis {
			var rv, mv []float64
			configs, found := 0, false
			for _, m := range Measures {
				p, ok := a.Point(l, pi, m.Key)
				if !ok {
					rv, mv = append(rv, math.NaN()), append(mv, math.NaN())
					continue
				}
				found = true
				configs = max(configs, p.Configs)
				rv, mv = append(rv, p.Rho), append(mv, p.MAD)
			}
			if !found {
				continue
			}
			labels := []report.Label{{Text: LabelingName(l), CSV: l}, {Text: strconv.FormatFloat(pi, 'g', -1, 64)}, {Text: strconv.Itoa(configs)}}
			rho.Rows = append(rho.Rows, report.Row{Labels: labels, Values: rv})
			mad.Rows = append(mad.Rows, report.Row{Labels: labels, Values: mv})
		}
	}
	return rho, mad
}

// measureStyle is the colour, marker and dashes of a measure's line: the
// core's qualitative palette, PULP in its red and drawn thicker, MI in
// pink; Pseudo-F dashed, as it can coincide with F1.
type measureStyle struct {
	color  color.Color
	glyph  draw.GlyphDrawer
	dashed bool
	width  float64
}

var styles = map[string]measureStyle{
	"auc":      {report.Qualitative[0], draw.CircleGlyph{}, false, 1.2},
	"f1":       {report.Qualitative[1], draw.BoxGlyph{}, false, 1.2},
	"ll":       {report.Qualitative[2], draw.TriangleGlyph{}, false, 1.2},
	"mi":       {report.Qualitative[6], draw.CrossGlyph{}, false, 1.2},
	"pearson":  {report.Qualitative[4], draw.PyramidGlyph{}, false, 1.2},
	"map":      {report.Qualitative[5], draw.PlusGlyph{}, false, 1.2},
	"pulp":     {report.Qualitative[3], draw.CircleGlyph{}, false, 2.2},
	"pseudo-f": {report.Qualitative[7], draw.RingGlyph{}, true, 1.2},
}

// lineOf returns the line and markers of a measure's points (NaN left out)
// and whether there is at least one point.
func lineOf(m string, xs, ys []float64) (*plotter.Line, *plotter.Scatter, bool) {
	var xy plotter.XYs
	for i := range xs {
		if !math.IsNaN(ys[i]) && !math.IsInf(ys[i], 0) {
			xy = append(xy, plotter.XY{X: xs[i], Y: ys[i]})
		}
	}
	st := styles[m]
	if len(xy) == 0 {
		xy = plotter.XYs{{X: math.NaN(), Y: math.NaN()}} // a legend thumbnail only
	}
	l := &plotter.Line{XYs: xy, LineStyle: plotter.DefaultLineStyle}
	l.Color, l.Width = st.color, vg.Points(st.width)
	if st.dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	}
	s := &plotter.Scatter{XYs: xy, GlyphStyle: draw.GlyphStyle{Color: st.color, Radius: vg.Points(2.6), Shape: st.glyph}}
	return l, s, !math.IsNaN(xy[0].X)
}

// gridTicks label the Pr[y=1] grid and the ends 0 and 1 of the x axis
// (gonum's default ticks, with 0, when the grid has more than 11 values).
func gridTicks(pis []float64) plot.Ticker {
	if len(pis) > 11 {
		return report.ZeroTicks{}
	}
	ticks := []plot.Tick{{Value: 0, Label: "0"}}
	for _, p := range pis {
		if p > 0 && p < 1 {
			ticks = append(ticks, plot.Tick{Value: p, Label: strconv.FormatFloat(p, 'g', -1, 64)})
		}
	}
	return plot.ConstantTicks(append(ticks, plot.Tick{Value: 1, Label: "1"}))
}

// Figure2YRanges are the y ranges of the two rows: the rank correlation
// from min(0, its smallest value rounded down to 0.1) to 1, the MAD from 0
// to its largest value rounded up to 0.05 (at least 0.05).
func Figure2YRanges(a Analysis) (rhoMin, rhoMax, madMax float64) {
	rhoMin, rhoMax, madMax = 0, 1, 0.05
	for _, p := range a.Points {
		if !math.IsNaN(p.Rho) {
			rhoMin = math.Min(rhoMin, math.Floor(float64(10*p.Rho)-1e-9)/10)
		}
		if !math.IsNaN(p.MAD) {
			madMax = math.Max(madMax, math.Ceil(float64(20*p.MAD)+1e-9)/20)
		}
	}
	return rhoMin, rhoMax, madMax
}

// Figure2 is the paper's Figure 2: a column per labeling (random, Scenario
// 1, Scenario 2), the rank correlation in the top row and the MAD in the
// bottom one, against Pr[y=1] in the unlabeled set, a line with markers
// per measure, one legend on the right. Both rows share their y range
// across the columns.
func Figure2(a Analysis, name string, w, h vg.Length) report.Figure {
	rhoMin, rhoMax, madMax := Figure2YRanges(a)
	cols := max(1, len(a.Labelings))
	return report.Figure{Name: name, W: w, H: h, Draw: func(c draw.Canvas) {
		// The plots are made here, after Figure.Render has set the report's
		// fonts (plot.New copies the default font).
		legend := plot.NewLegend()
		legend.TextStyle.Font.Size = vg.Points(9)
		legend.Padding = vg.Points(3)
		legend.ThumbnailWidth = vg.Points(22)
		for _, m := range Measures {
			l, s, _ := lineOf(m.Key, nil, nil)
			legend.Add(m.Label, l, s)
		}
		lw := legend.Rectangle(c).Size().X + vg.Points(14)
		area := draw.Crop(c, 0, -lw, 0, 0)
		tiles := draw.Tiles{Rows: 2, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(10),
			PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
		for col, lab := range a.Labelings {
			for row := range 2 {
				p := plot.New()
				p.Title.TextStyle.Font.Size = vg.Points(10)
				p.X.Label.Text = "Pr[y=1] in the unlabeled set"
				p.X.Min, p.X.Max = 0, 1
				p.X.Tick.Marker = gridTicks(a.Pis)
				p.Y.Tick.Marker = report.ZeroTicks{}
				g := plotter.NewGrid()
				g.Vertical.Color = nil
				g.Horizontal.Color = color.Gray{Y: 225}
				p.Add(g)
				if row == 0 {
					p.Title.Text = "Rank correlation, " + LabelingName(lab)
					p.Y.Label.Text = "Spearman rho (PU vs true labels)"
					p.Y.Min, p.Y.Max = rhoMin, rhoMax
				} else {
					p.Title.Text = "Mean absolute deviation, " + LabelingName(lab)
					p.Y.Label.Text = "MAD |PU - true|"
					p.Y.Min, p.Y.Max = 0, madMax
				}
				for _, m := range Measures {
					var xs, ys []float64
					for _, pi := range a.Pis {
						pt, ok := a.Point(lab, pi, m.Key)
						if !ok {
							continue
						}
						xs = append(xs, pi)
						if row == 0 {
							ys = append(ys, pt.Rho)
						} else {
							ys = append(ys, pt.MAD)
						}
					}
					if l, s, ok := lineOf(m.Key, xs, ys); ok {
						p.Add(l, s)
					}
				}
				p.Draw(tiles.At(area, col, row))
			}
		}
		legend.Top, legend.Left = true, true
		legend.YOffs = -vg.Points(24)
		legend.Draw(draw.Crop(c, c.Size().X-lw+vg.Points(8), 0, 0, 0))
	}}
}
