package aaai2017

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/report"
)

func init() {
	report.RegisterFigure(report.AnalyticFigure{Name: "aaai2017-fig3",
		About: "AAAI-2017 Figure 3: 27 heat maps of |AUC - AUC_est| over (alpha-hat, beta-hat), infeasible region grey",
		Parts: figure3Parts(),
		Draw: func(dir string) ([]string, []string, error) {
			figs, err := Figure3Parts()
			if err != nil {
				return nil, nil, err
			}
			whole, err := Figure3()
			if err != nil {
				return nil, nil, err
			}
			var files []string
			for _, f := range append(figs, whole) {
				saved, err := f.Save(dir)
				if err != nil {
					return nil, nil, err
				}
				files = append(files, saved...)
			}
			return files, nil, nil
		}})
	report.RegisterFigure(report.AnalyticFigure{Name: "aaai2017-fig4",
		About: "AAAI-2017 Figure 4: the heat map for (alpha, beta, AUC) = (0.25, 0.75, 0.90) with the appendix's region lines",
		Draw: func(dir string) ([]string, []string, error) {
			fig, notes, err := Figure4()
			if err != nil {
				return nil, nil, err
			}
			files, err := fig.Save(dir)
			return files, notes, err
		}})
}

// heatCells are the cell centres of an n x n grid over the unit square.
func heatCells(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = (float64(i) + 0.5) / float64(n)
	}
	return x
}

// eq4ErrorGrid evaluates |AUC - AUC_est| over (alpha-hat, beta-hat), where
// AUC_est is Eq. 4 applied to the PU AUC that (alpha, beta, auc) produce. Cells
// where AUC_est falls outside [0, 1] (the infeasible region) are NaN.
func eq4ErrorGrid(alpha, beta, auc float64, n int) (report.Grid, float64, error) {
	aucPU, err := recovery.PUAUC(auc, alpha, beta)
	if err != nil {
		return report.Grid{}, 0, err
	}
	g := report.Grid{X: heatCells(n), Y: heatCells(n)}
	for _, bh := range g.Y {
		row := make([]float64, n)
		for c, ah := range g.X {
			est, err := recovery.DirectAUCUnclipped(aucPU, ah, bh)
			if err != nil || est < 0 || est > 1 {
				row[c] = math.NaN()
				continue
			}
			row[c] = math.Abs(auc - est)
		}
		g.Z = append(g.Z, row)
	}
	return g, aucPU, nil
}

var infeasibleGrey = color.Gray{Y: 150}

// The true values of Figure 3's maps.
var (
	fig3AUCs   = []float64{0.65, 0.80, 0.95}
	fig3Alphas = []float64{0.05, 0.25, 0.50}
	fig3Betas  = []float64{0.75, 0.95, 1.00}
)

// fig3Maps are the heat maps of Figure 3 for the given true AUCs, in rows
// of AUC then alpha, each row's maps by beta, every map titled by title.
func fig3Maps(aucs []float64, cols int, title func(auc, alpha, beta float64) string) (report.HeatMaps, error) {
	hm := report.HeatMaps{XLabel: "alpha-hat", YLabel: "beta-hat", BarLabel: "|AUC - AUC_est|", Cols: cols,
		Min: 0, Max: 1, Undefined: infeasibleGrey, EqualAxes: true,
		LineLegend: []report.Series{{Name: "infeasible: AUC_est outside [0, 1]"}, {Name: "true alpha, beta (dotted)", Color: color.Black, Dashed: true}}}
	for _, auc := range aucs {
		for _, alpha := range fig3Alphas {
			for _, beta := range fig3Betas {
				g, _, err := eq4ErrorGrid(alpha, beta, auc, 100)
				if err != nil {
					return report.HeatMaps{}, err
				}
				hm.Panels = append(hm.Panels, report.HeatPanel{Title: title(auc, alpha, beta),
					Grid: g, VLines: []float64{alpha}, HLines: []float64{beta}})
			}
		}
	}
	return hm, nil
}

// Figure3 draws Figure 3 as the paper lays it out: for alpha in {0.05,
// 0.25, 0.50}, beta in {0.75, 0.95, 1.00} and AUC in {0.65, 0.80, 0.95},
// the absolute error of the direct recovery (Eq. 4) over all estimates
// (alpha-hat, beta-hat), with the true alpha and beta as dotted lines and
// the infeasible region grey. Rows are the AUC values, columns the (alpha,
// beta) pairs.
func Figure3() (report.Figure, error) {
	hm, err := fig3Maps(fig3AUCs, 9, func(auc, alpha, beta float64) string {
		return fmt.Sprintf("AUC=%.2f a=%.2f b=%.2f", auc, alpha, beta)
	})
	if err != nil {
		return report.Figure{}, err
	}
	return hm.Figure("aaai2017-fig3", 44*vg.Centimeter, 14*vg.Centimeter), nil
}

// fig3PartName is the file name of Figure 3's part for a true AUC.
func fig3PartName(auc float64) string { return fmt.Sprintf("aaai2017-fig3-auc%.2f", auc) }

// figure3Parts names and captions the parts of Figure3Parts.
func figure3Parts() []report.FigurePart {
	var parts []report.FigurePart
	for _, auc := range fig3AUCs {
		parts = append(parts, report.FigurePart{Name: fig3PartName(auc),
			Caption: fmt.Sprintf("Figure 3, true AUC = %.2f: rows alpha = 0.05, 0.25, 0.50; columns beta = 0.75, 0.95, 1.00.", auc)})
	}
	return parts
}

// Figure3Parts draws Figure 3 in three figures, one per true AUC, each a 3 x
// 3 grid of its maps (rows alpha, columns beta) with its own colour bar: the
// whole figure's 27 maps in rows of nine are too small to read on a page.
func Figure3Parts() ([]report.Figure, error) {
	var figs []report.Figure
	for _, auc := range fig3AUCs {
		hm, err := fig3Maps([]float64{auc}, 3, func(_, alpha, beta float64) string {
			return fmt.Sprintf("alpha = %.2f, beta = %.2f", alpha, beta)
		})
		if err != nil {
			return nil, err
		}
		hm.TextSize = vg.Points(10) // shown at its drawn size: 13 CSS px titles, 12 px ticks
		figs = append(figs, hm.Figure(fig3PartName(auc), 21*vg.Centimeter, 18*vg.Centimeter))
	}
	return figs, nil
}

// Figure4 draws Figure 4: the heat map for (alpha, beta, AUC) =
// (0.25, 0.75, 0.90), the infeasible region white as in the paper, and the
// lines of its right panel, which all follow from Eq. 4 (AUC_est depends on
// the estimates only through beta-hat - alpha-hat):
//
//	AUC_est = AUC      on beta-hat = alpha-hat + (beta - alpha)
//	AUC_est = 1        on beta-hat = alpha-hat + (beta - alpha)(2 AUC - 1)
//	AUC_est = 0        on beta-hat = alpha-hat - (beta - alpha)(2 AUC - 1)
//	AUC_est = 1 - AUC  on beta-hat = alpha-hat - (beta - alpha)
//	AUC_est = AUC_pu   at (alpha-hat, beta-hat) = (0, 1); 1 - AUC_pu at (1, 0)
//
// The paper's caption says AUC_pu = 0.80 "from Equation 4"; Eq. 4 gives 0.70.
// The figure uses the equation's value and the returned note says so.
func Figure4() (report.Figure, []string, error) {
	const alpha, beta, auc = 0.25, 0.75, 0.90
	g, aucPU, err := eq4ErrorGrid(alpha, beta, auc, 200)
	if err != nil {
		return report.Figure{}, nil, err
	}
	d := beta - alpha
	line := func(name string, off float64, col color.Color, dashed bool) report.Series {
		s := report.Series{Name: name, Color: col, Dashed: dashed}
		for _, x := range []float64{0, 1} {
			s.X = append(s.X, x)
			s.Y = append(s.Y, x+off)
		}
		// Keep the segment inside the unit square.
		return clipSegment(s)
	}
	lines := []report.Series{
		line("AUC_est = AUC", d, color.RGBA{G: 0x80, A: 0xff}, false),
		line("AUC_est = 1", d*(2*auc-1), color.Black, false),
		line("AUC_est = 0", -d*(2*auc-1), color.Black, true),
		line("AUC_est = 1 - AUC", -d, color.RGBA{R: 0xb0, A: 0xff}, true),
	}
	// The corner points of the paper's right panel: where both estimates are
	// at their extremes, Eq. 4 returns the PU AUC itself, or its complement.
	corners := []report.Mark{
		{Name: fmt.Sprintf("AUC_est = AUC_pu = %.2f at (0, 1)", aucPU), X: 0, Y: 1, Color: report.QualitativeColor(1)},
		{Name: fmt.Sprintf("AUC_est = 1 - AUC_pu = %.2f at (1, 0)", 1-aucPU), X: 1, Y: 0, Color: report.QualitativeColor(0)},
	}
	white := color.White
	hm := report.HeatMaps{XLabel: "alpha-hat", YLabel: "beta-hat", BarLabel: "|AUC - AUC_est|", Cols: 1, Min: 0, Max: 1, Undefined: white,
		EqualAxes: true,
		Panels: []report.HeatPanel{{Title: fmt.Sprintf("AUC = %.2f, alpha = %.2f, beta = %.2f: AUC_pu = %.2f by Eq. 4 (caption: 0.80)", auc, alpha, beta, aucPU),
			Grid: g, VLines: []float64{alpha}, HLines: []float64{beta}, Lines: lines, Marks: corners}},
		LineLegend: append([]report.Series{{Name: "infeasible (white): AUC_est outside [0, 1]"}}, lines...)}
	// The white infeasible region needs a swatch that shows: use light grey in the legend.
	hm.LineLegend[0].Color = nil
	fig := hm.Figure("aaai2017-fig4", 20*vg.Centimeter, 13*vg.Centimeter)
	notes := []string{fmt.Sprintf("AAAI-2017 Figure 4: the caption states AUC_pu = 0.80 for (alpha, beta, AUC) = (0.25, 0.75, 0.90), "+
		"but Eq. 4 gives AUC_pu = (1 - (beta - alpha))/2 + (beta - alpha) AUC = %.2f; the figure shows the equation's value "+
		"(0.80 would recover to the infeasible 1.1).", aucPU)}
	return fig, notes, nil
}

// clipSegment restricts the straight segment s (two points) to the unit square.
func clipSegment(s report.Series) report.Series {
	x0, y0, x1, y1 := s.X[0], s.Y[0], s.X[1], s.Y[1]
	slope := (y1 - y0) / (x1 - x0)
	lo, hi := math.Max(0, (0-y0)/slope+x0), math.Min(1, (1-y0)/slope+x0)
	lo, hi = math.Max(lo, 0), math.Min(hi, 1)
	if lo >= hi {
		s.X, s.Y = nil, nil
		return s
	}
	s.X = []float64{lo, hi}
	s.Y = []float64{y0 + float64(slope*(lo-x0)), y0 + float64(slope*(hi-x0))}
	return s
}
