package pulp

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pueval/pueval/report"
)

// optionLabel is an option's text on the figure's axis and in the table.
func optionLabel(o SensOption) string { return o.Choice + ": " + o.Label }

// SensitivityFigure draws the study: a panel per labeling (stacked), a row per
// option (today's protocol on top), each measure's rank correlation as a
// marker, PULP's with its bootstrap SE as a bar, and the paper's PULP value
// as a dashed red line.
func SensitivityFigure(opts []SensOption, paper PaperTable, name string, w, h vg.Length) report.Figure {
	n := len(opts)
	var ticks []plot.Tick
	for i, o := range opts {
		ticks = append(ticks, plot.Tick{Value: float64(n - 1 - i), Label: optionLabel(o)})
	}
	return report.Figure{Name: name, W: w, H: h, Draw: func(c draw.Canvas) {
		legend := plot.NewLegend()
		legend.TextStyle.Font.Size = vg.Points(9)
		for _, m := range Measures {
			l, s, _ := lineOf(m.Key, nil, nil)
			legend.Add(m.Label, l, s)
		}
		lw := legend.Rectangle(c).Size().X + vg.Points(14)
		area := draw.Crop(c, 0, -lw, 0, 0)
		tiles := draw.Tiles{Rows: len(PaperLabelings), Cols: 1, PadY: vg.Points(10), PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4)}
		xMin := sensitivityXMin(opts)
		for row, lab := range PaperLabelings {
			p := plot.New()
			p.Title.Text = "Rank correlation, " + LabelingName(lab)
			p.Title.TextStyle.Font.Size = vg.Points(10)
			p.X.Label.Text = "Spearman rho (PU vs true), Table 1's mean over Pr[y=1]"
			p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
			p.Y.Tick.Marker = plot.ConstantTicks(ticks)
			g := plotter.NewGrid()
			g.Horizontal.Color = color.Gray{Y: 230}
			p.Add(g)
			if v, ok := paper.Value(StatRank, lab, "pulp"); ok {
				ref := &plotter.Line{XYs: plotter.XYs{{X: v, Y: p.Y.Min}, {X: v, Y: p.Y.Max}}, LineStyle: draw.LineStyle{Color: styles["pulp"].color, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}}
				p.Add(ref)
			}
			for k, m := range Measures {
				off := float64((float64(k) - 3.5) * 0.08)
				var xy plotter.XYs
				for i, o := range opts {
					if v := o.Rank[lab][m.Key]; !math.IsNaN(v) {
						xy = append(xy, plotter.XY{X: v, Y: float64(n-1-i) + off})
						if se := o.SE[lab][m.Key]; m.Key == "pulp" && !math.IsNaN(se) {
							bar := &plotter.Line{XYs: plotter.XYs{{X: v - se, Y: float64(n-1-i) + off}, {X: v + se, Y: float64(n-1-i) + off}},
								LineStyle: draw.LineStyle{Color: styles["pulp"].color, Width: vg.Points(1.5)}}
							p.Add(bar)
						}
					}
				}
				if len(xy) > 0 {
					st := styles[m.Key]
					p.Add(&plotter.Scatter{XYs: xy, GlyphStyle: draw.GlyphStyle{Color: st.color, Radius: vg.Points(2.6), Shape: st.glyph}})
				}
			}
			// Set after the plotters, which widen the range (the SE bars).
			p.X.Min, p.X.Max = xMin, 1
			p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
			p.Draw(tiles.At(area, 0, row))
		}
		legend.Top, legend.Left = true, true
		legend.Draw(draw.Crop(c, c.Size().X-lw+vg.Points(8), 0, 0, 0))
	}}
}

// sensitivityXMin is the figure's left end: 0, or below the smallest rho
// rounded down to 0.1.
func sensitivityXMin(opts []SensOption) float64 {
	lo := 0.0
	for _, o := range opts {
		for _, row := range o.Rank {
			for _, v := range row {
				if !math.IsNaN(v) {
					lo = math.Min(lo, math.Floor(float64(10*v)-1e-9)/10)
				}
			}
		}
	}
	return lo
}

// SensitivityCSV is sensitivity.csv: one row per option, labeling and
// measure, with the rank correlation, its bootstrap SE and the counts.
func SensitivityCSV(opts []SensOption) string {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"choice", "option", "scenario", "measure", "rho", "se", "n_problems", "n_configurations"})
	for _, o := range opts {
		for _, l := range PaperLabelings {
			for _, m := range Measures {
				if _, ok := o.Rank[l]; !ok {
					continue
				}
				w.Write([]string{o.Choice, o.Label, l, m.Key, num(o.Rank[l][m.Key]), num(o.SE[l][m.Key]), strconv.Itoa(o.Problems), strconv.Itoa(o.Configs)})
			}
		}
	}
	w.Flush()
	return buf.String()
}

// SensitivityTable is the study in brief: per option, PULP's rho (SE) in
// each scenario, the range of the eight measures' rho under random
// labeling, and Scenario 2's best measure with PULP's place.
func SensitivityTable(opts []SensOption) report.Table {
	t := report.Table{Caption: "Sensitivity study: Table 1's rank correlations under each choice varied alone (bootstrap SE over the problems in brackets)",
		Labels: []report.Column{{Name: "choice"}, {Name: "option"}, {Name: "problems x classifiers", CSV: "n_configurations", NoLaTeX: true},
			{Name: "PULP random"}, {Name: "PULP S1"}, {Name: "PULP S2"}, {Name: "random: min-max of 8"}, {Name: "S2: best; PULP's place"}}}
	for _, o := range opts {
		cell := func(l string) string {
			return fmt.Sprintf("%s (%s)", f3(o.Rank[l]["pulp"]), f3(o.SE[l]["pulp"]))
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range o.Rank[Random] {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		t.Rows = append(t.Rows, report.Row{Labels: []report.Label{{Text: o.Choice}, {Text: o.Label}, {Text: strconv.Itoa(o.Configs)},
			{Text: cell(Random)}, {Text: cell(Scenario1)}, {Text: cell(Scenario2)},
			{Text: fmt.Sprintf("%s-%s", f3(lo), f3(hi))}, {Text: fmt.Sprintf("%s; %s", measureLabel(o.BestS2), o.PULPRankS2)}}})
	}
	return t
}

// SensitivityConclusion states what the options show, from their values:
// whether any option brings Table 1 back (every random rho >= 0.8 and
// PULP the best in Scenario 2 by MarginSEs SEs), PULP's largest random
// rho, and under which options claim 1's closeness (the random row within
// RandomSpread), claim 2 and claim 3 hold.
func SensitivityConclusion(opts []SensOption) string {
	var back, pulpBestS2, pulpOverLL, close []string
	maxPULP, maxAt := math.Inf(-1), ""
	for _, o := range opts {
		lab := optionLabel(o)
		if v := o.Rank[Random]["pulp"]; v > maxPULP {
			maxPULP, maxAt = v, lab
		}
		minRandom, maxRandom := math.Inf(1), math.Inf(-1)
		for _, v := range o.Rank[Random] {
			minRandom, maxRandom = math.Min(minRandom, v), math.Max(maxRandom, v)
		}
		if maxRandom-minRandom <= RandomSpread {
			close = append(close, lab)
		}
		best := beatsByMargin(o, Scenario2, "pulp")
		if best {
			pulpBestS2 = append(pulpBestS2, lab)
		}
		if minRandom >= 0.8 && best {
			back = append(back, lab)
		}
		if d := o.Rank[Scenario1]["pulp"] - o.Rank[Scenario1]["ll"]; d > MarginSEs*math.Hypot(o.SE[Scenario1]["pulp"], o.SE[Scenario1]["ll"]) {
			pulpOverLL = append(pulpOverLL, lab)
		}
	}
	var b strings.Builder
	if len(back) > 0 {
		fmt.Fprintf(&b, "Table 1 comes back (every random-labeling rho >= 0.8 and PULP the best in Scenario 2 by %d SEs) under: %s. ", MarginSEs, strings.Join(back, "; "))
	} else {
		fmt.Fprintf(&b, "No option tried brings Table 1 back: none has every random-labeling rho >= 0.8 with PULP the best in Scenario 2 by %d SEs. ", MarginSEs)
	}
	fmt.Fprintf(&b, "PULP's random-labeling rho is at most %.3f (%s; the paper 0.916). ", maxPULP, maxAt)
	fmt.Fprintf(&b, "Of the paper's claims, the random-labeling rank correlations stay within %.1f of each other (claim 1 without its PULP threshold) under %s; "+
		"PULP is the best measure in Scenario 2 by %d SEs (claim 2) under %s; PULP's Scenario-1 rho exceeds L&L's by %d SEs (claim 3) under %s.",
		RandomSpread, orNoOption(close), MarginSEs, orNoOption(pulpBestS2), MarginSEs, orNoOption(pulpOverLL))
	return b.String()
}

// beatsByMargin says measure key's rho beats every other measure's in
// labeling l by MarginSEs combined SEs (the SEs of the two, as if
// independent: conservative for positively correlated replicates).
func beatsByMargin(o SensOption, l, key string) bool {
	row, ok := o.Rank[l]
	if !ok || math.IsNaN(row[key]) {
		return false
	}
	for _, m := range Measures {
		if m.Key == key || math.IsNaN(row[m.Key]) {
			continue
		}
		se := math.Hypot(o.SE[l][key], o.SE[l][m.Key])
		if math.IsNaN(se) || !(row[key]-row[m.Key] > MarginSEs*se) {
			return false
		}
	}
	return true
}

func orNoOption(xs []string) string {
	if len(xs) == 0 {
		return "no option"
	}
	return strings.Join(xs, "; ")
}
