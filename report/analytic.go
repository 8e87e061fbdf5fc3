package report

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/metrics"
)

// AnalyticFigures are the figures drawn from the papers' equations alone, by name.
var AnalyticFigures = []struct {
	Name, About string
}{
	{"aaai2017-fig3", "AAAI-2017 Figure 3: 27 heat maps of |AUC - AUC_est| over (alpha-hat, beta-hat), infeasible region grey"},
	{"aaai2017-fig4", "AAAI-2017 Figure 4: the heat map for (alpha, beta, AUC) = (0.25, 0.75, 0.90) with the appendix's region lines"},
	{"psb2019-fig1", "PSB-2019 Figure 1: acc, bacc, F, MCC against the threshold, traditional vs PU, Gaussian case study (+ fig1.json)"},
}

// WriteAnalyticFigure draws the named analytic figure into dir and returns
// the files written and notes on where the paper disagrees with its equations.
func WriteAnalyticFigure(name, dir string) (files, notes []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	var fig Figure
	switch name {
	case "aaai2017-fig3":
		fig, err = AAAIFigure3()
	case "aaai2017-fig4":
		fig, notes, err = AAAIFigure4()
	case "psb2019-fig1":
		var summary PSBFigure1Summary
		fig, summary, err = PSBFigure1()
		if err == nil {
			b, _ := json.MarshalIndent(summary, "", "  ")
			p := filepath.Join(dir, "fig1.json")
			if err = os.WriteFile(p, append(b, '\n'), 0o644); err == nil {
				files = append(files, p)
			}
			notes = summary.notes()
		}
	default:
		var names []string
		for _, f := range AnalyticFigures {
			names = append(names, f.Name)
		}
		return nil, nil, fmt.Errorf("unknown figure %q (known: %s)", name, strings.Join(names, ", "))
	}
	if err != nil {
		return nil, nil, err
	}
	saved, err := fig.Save(dir)
	return append(saved, files...), notes, err
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
func eq4ErrorGrid(alpha, beta, auc float64, n int) (Grid, float64, error) {
	aucPU, err := recovery.PUAUC(auc, alpha, beta)
	if err != nil {
		return Grid{}, 0, err
	}
	g := Grid{X: heatCells(n), Y: heatCells(n)}
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

// AAAIFigure3 draws AAAI-2017 Figure 3: for alpha in {0.05, 0.25, 0.50}, beta
// in {0.75, 0.95, 1.00} and AUC in {0.65, 0.80, 0.95}, the absolute error of
// the direct recovery (Eq. 4) over all estimates (alpha-hat, beta-hat), with
// the true alpha and beta as dotted lines and the infeasible region grey.
// Rows are the AUC values, columns the (alpha, beta) pairs.
func AAAIFigure3() (Figure, error) {
	hm := HeatMaps{XLabel: "alpha-hat", YLabel: "beta-hat", BarLabel: "|AUC - AUC_est|", Cols: 9,
		Min: 0, Max: 1, Undefined: infeasibleGrey,
		LineLegend: []Series{{Name: "infeasible: AUC_est outside [0, 1]"}, {Name: "true alpha, beta (dotted)", Color: color.Black, Dashed: true}}}
	for _, auc := range []float64{0.65, 0.80, 0.95} {
		for _, alpha := range []float64{0.05, 0.25, 0.50} {
			for _, beta := range []float64{0.75, 0.95, 1.00} {
				g, _, err := eq4ErrorGrid(alpha, beta, auc, 100)
				if err != nil {
					return Figure{}, err
				}
				hm.Panels = append(hm.Panels, HeatPanel{
					Title: fmt.Sprintf("AUC=%.2f a=%.2f b=%.2f", auc, alpha, beta),
					Grid:  g, VLines: []float64{alpha}, HLines: []float64{beta}})
			}
		}
	}
	return hm.Figure("aaai2017-fig3", 44*vg.Centimeter, 16*vg.Centimeter), nil
}

// AAAIFigure4 draws AAAI-2017 Figure 4: the heat map for (alpha, beta, AUC) =
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
func AAAIFigure4() (Figure, []string, error) {
	const alpha, beta, auc = 0.25, 0.75, 0.90
	g, aucPU, err := eq4ErrorGrid(alpha, beta, auc, 200)
	if err != nil {
		return Figure{}, nil, err
	}
	d := beta - alpha
	line := func(name string, off float64, col color.Color, dashed bool) Series {
		s := Series{Name: name, Color: col, Dashed: dashed}
		for _, x := range []float64{0, 1} {
			s.X = append(s.X, x)
			s.Y = append(s.Y, x+off)
		}
		// Keep the segment inside the unit square.
		return clipSegment(s)
	}
	lines := []Series{
		line("AUC_est = AUC", d, color.RGBA{G: 0x80, A: 0xff}, false),
		line("AUC_est = 1", d*(2*auc-1), color.Black, false),
		line("AUC_est = 0", -d*(2*auc-1), color.Black, true),
		line("AUC_est = 1 - AUC", -d, color.RGBA{R: 0xb0, A: 0xff}, true),
	}
	white := color.White
	hm := HeatMaps{XLabel: "alpha-hat", YLabel: "beta-hat", BarLabel: "|AUC - AUC_est|", Cols: 1, Min: 0, Max: 1, Undefined: white,
		Panels: []HeatPanel{{Title: fmt.Sprintf("AUC = %.2f, alpha = %.2f, beta = %.2f: AUC_pu = %.2f by Eq. 4 (caption: 0.80)", auc, alpha, beta, aucPU),
			Grid: g, VLines: []float64{alpha}, HLines: []float64{beta}, Lines: lines}},
		LineLegend: append([]Series{{Name: "infeasible (white): AUC_est outside [0, 1]"}}, lines...)}
	// The white infeasible region needs a swatch that shows: use light grey in the legend.
	hm.LineLegend[0].Color = nil
	fig := hm.Figure("aaai2017-fig4", 20*vg.Centimeter, 13*vg.Centimeter)
	notes := []string{fmt.Sprintf("AAAI-2017 Figure 4: the caption states AUC_pu = 0.80 for (alpha, beta, AUC) = (0.25, 0.75, 0.90), "+
		"but Eq. 4 gives AUC_pu = (1 - (beta - alpha))/2 + (beta - alpha) AUC = %.2f; the figure shows the equation's value "+
		"(0.80 would recover to the infeasible 1.1).", aucPU)}
	return fig, notes, nil
}

// clipSegment restricts the straight segment s (two points) to the unit square.
func clipSegment(s Series) Series {
	x0, y0, x1, y1 := s.X[0], s.Y[0], s.X[1], s.Y[1]
	slope := (y1 - y0) / (x1 - x0)
	lo, hi := math.Max(0, (0-y0)/slope+x0), math.Min(1, (1-y0)/slope+x0)
	lo, hi = math.Max(lo, 0), math.Min(hi, 1)
	if lo >= hi {
		s.X, s.Y = nil, nil
		return s
	}
	s.X = []float64{lo, hi}
	s.Y = []float64{y0 + slope*(lo-x0), y0 + slope*(hi-x0)}
	return s
}

// PSBFigure1Summary is fig1.json: for each measure, the maximum and its
// threshold in the traditional and the PU (non-traditional) setting.
type PSBFigure1Summary map[string]map[string]struct {
	Max       float64 `json:"max"`
	Threshold float64 `json:"threshold"`
}

// psbCaption are the values the PSB-2019 Figure 1 caption states (max, tau).
var psbCaption = map[string][2][2]float64{
	"acc": {{0.86, 0.42}, {0.90, 5}}, "bacc": {{0.84, 0}, {0.67, 0}},
	"f1": {{0.77, 0.19}, {0.30, 0.50}}, "mcc": {{0.66, 0.29}, {0.22, 0.29}},
}

func (s PSBFigure1Summary) notes() []string {
	var out []string
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for i, setting := range []string{"traditional", "pu"} {
			got, want := s[k][setting], psbCaption[k][i]
			if math.Abs(got.Max-want[0]) > 0.005 || math.Abs(got.Threshold-want[1]) > 0.005 {
				out = append(out, fmt.Sprintf("PSB-2019 Figure 1, %s %s: the equations give max %.3f at tau = %.2f, the caption %.2f at %.2f",
					k, setting, got.Max, got.Threshold, want[0], want[1]))
			}
		}
	}
	if len(out) == 0 {
		out = append(out, "PSB-2019 Figure 1: all eight maxima and thresholds of the caption agree with the equations (to the caption's two decimals).")
	}
	return out
}

// PSBFigure1 draws PSB-2019 Figure 1: with h0 = N(-1, 1), h1 = N(1, 1), alpha =
// 1/4, beta = 3/4, c = 1/10 (pi = 3/10) and the classifier 1(x >= tau), the
// traditional and the PU (labeled vs unlabeled on D) accuracy, balanced
// accuracy, F-measure and MCC for tau in [-5, 5] (step 0.01), computed exactly
// from gamma = 1 - Phi(tau - 1), eta = 1 - Phi(tau + 1) by PSB-2019 Eqs. 3-8;
// the PU rates are gamma_pu = beta gamma + (1 - beta) eta and eta_pu = alpha
// gamma + (1 - alpha) eta on a population whose positive fraction is c. The
// maxima are marked and returned (the first tau on ties).
func PSBFigure1() (Figure, PSBFigure1Summary, error) {
	const alpha, beta, c = 0.25, 0.75, 0.1
	pi, err := recovery.Pi(c, alpha, beta)
	if err != nil {
		return Figure{}, nil, err
	}
	q := func(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) } // 1 - Phi(z)
	var taus []float64
	for i := -500; i <= 500; i++ {
		taus = append(taus, float64(i)/100)
	}
	summary := PSBFigure1Summary{}
	var charts []LineChart
	for _, m := range recovery.Measures {
		var tr, pu []float64
		best := [2]metrics.Optimum{{Value: math.Inf(-1)}, {Value: math.Inf(-1)}}
		for _, tau := range taus {
			gamma, eta := q(tau-1), q(tau+1)
			theta := recovery.Theta(gamma, eta, pi)
			gpu, epu, err := recovery.PURates(gamma, eta, alpha, beta)
			if err != nil {
				return Figure{}, nil, err
			}
			v := [2]float64{m.Of(recovery.Rates{Gamma: gamma, Eta: eta, Pi: pi, Theta: theta}),
				m.Of(recovery.Rates{Gamma: gpu, Eta: epu, Pi: c, Theta: theta})}
			tr, pu = append(tr, v[0]), append(pu, v[1])
			for i := range v {
				if v[i] > best[i].Value {
					best[i] = metrics.Optimum{Value: v[i], Threshold: tau}
				}
			}
		}
		summary[m.String()] = map[string]struct {
			Max       float64 `json:"max"`
			Threshold float64 `json:"threshold"`
		}{
			"traditional": {best[0].Value, best[0].Threshold},
			"pu":          {best[1].Value, best[1].Threshold},
		}
		label := map[string]string{"acc": "Accuracy", "bacc": "Balanced accuracy", "f1": "F-measure", "mcc": "MCC"}[m.String()]
		lo, _ := m.Range()
		charts = append(charts, LineChart{Title: label, XLabel: "threshold tau", YLabel: m.String(), XMin: -5, XMax: 5, YMin: math.Min(lo, 0), YMax: 1,
			Series: []Series{
				{Name: fmt.Sprintf("traditional (max %.2f at %.2f)", best[0].Value, best[0].Threshold), X: taus, Y: tr,
					Color: color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}, Marks: []plotter.XY{{X: best[0].Threshold, Y: best[0].Value}}},
				{Name: fmt.Sprintf("PU (max %.2f at %.2f)", best[1].Value, best[1].Threshold), X: taus, Y: pu,
					Color: color.RGBA{R: 0xd6, G: 0x3a, B: 0x3a, A: 0xff}, Dashed: true, Marks: []plotter.XY{{X: best[1].Threshold, Y: best[1].Value}}},
			}})
	}
	fig, err := Panels("psb2019-fig1", 32*vg.Centimeter, 20*vg.Centimeter, 2, charts)
	return fig, summary, err
}
