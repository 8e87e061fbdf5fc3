package psb2019

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/internal/portmath"
	"github.com/pueval/pueval/metrics"
	"github.com/pueval/pueval/report"
)

func init() {
	report.RegisterFigure(report.AnalyticFigure{Name: "psb2019-fig1",
		About: "PSB-2019 Figure 1: acc, bacc, F, MCC against the threshold, traditional vs PU, Gaussian case study (+ fig1.json)",
		Draw:  drawFigure1})
}

// drawFigure1 saves Figure 1 and fig1.json, its maxima and thresholds, and
// notes where they disagree with the caption.
func drawFigure1(dir string) (files, notes []string, err error) {
	fig, summary, err := Figure1()
	if err != nil {
		return nil, nil, err
	}
	b, err := json.MarshalIndent(summary, "", "  ")
	if err != nil {
		return nil, nil, fmt.Errorf("fig1.json: %w", err)
	}
	p := filepath.Join(dir, "fig1.json")
	if err := report.WriteFile(p, append(b, '\n')); err != nil {
		return nil, nil, err
	}
	saved, err := fig.Save(dir)
	if err != nil {
		return nil, nil, err
	}
	return append(saved, p), summary.notes(), nil
}

// Figure1Summary is fig1.json: for each measure, the maximum and its
// threshold in the traditional and the PU (non-traditional) setting.
type Figure1Summary map[string]map[string]struct {
	Max       float64 `json:"max"`
	Threshold float64 `json:"threshold"`
}

// caption holds the values the Figure 1 caption states (max, tau).
var caption = map[string][2][2]float64{
	"acc": {{0.86, 0.42}, {0.90, 5}}, "bacc": {{0.84, 0}, {0.67, 0}},
	"f1": {{0.77, 0.19}, {0.30, 0.50}}, "mcc": {{0.66, 0.29}, {0.22, 0.29}},
}

func (s Figure1Summary) notes() []string {
	var out []string
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for i, setting := range []string{"traditional", "pu"} {
			got, want := s[k][setting], caption[k][i]
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

// Figure1 draws Figure 1: with h0 = N(-1, 1), h1 = N(1, 1), alpha =
// 1/4, beta = 3/4, c = 1/10 (pi = 3/10) and the classifier 1(x >= tau), the
// traditional and the PU (labeled vs unlabeled on D) accuracy, balanced
// accuracy, F-measure and MCC for tau in [-5, 5] (step 0.01), computed exactly
// from gamma = 1 - Phi(tau - 1), eta = 1 - Phi(tau + 1) by PSB-2019 Eqs. 3-8;
// the PU rates are gamma_pu = beta gamma + (1 - beta) eta and eta_pu = alpha
// gamma + (1 - alpha) eta on a population whose positive fraction is c. The
// maxima are marked and returned (the first tau on ties).
func Figure1() (report.Figure, Figure1Summary, error) {
	const alpha, beta, c = 0.25, 0.75, 0.1
	pi, err := recovery.Pi(c, alpha, beta)
	if err != nil {
		return report.Figure{}, nil, err
	}
	q := func(z float64) float64 { return 0.5 * portmath.Erfc(z/math.Sqrt2) } // 1 - Phi(z), the same bits on every CPU
	var taus []float64
	for i := -500; i <= 500; i++ {
		taus = append(taus, float64(i)/100)
	}
	summary := Figure1Summary{}
	var charts []report.LineChart
	for _, m := range recovery.Measures {
		var tr, pu []float64
		best := [2]metrics.Optimum{{Value: math.Inf(-1)}, {Value: math.Inf(-1)}}
		for _, tau := range taus {
			gamma, eta := q(tau-1), q(tau+1)
			theta := recovery.Theta(gamma, eta, pi)
			gpu, epu, err := recovery.PURates(gamma, eta, alpha, beta)
			if err != nil {
				return report.Figure{}, nil, err
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
		charts = append(charts, report.LineChart{Title: label, XLabel: "threshold tau", YLabel: m.String(), XMin: -5, XMax: 5, YMin: math.Min(lo, 0), YMax: 1,
			Series: []report.Series{
				{Name: fmt.Sprintf("traditional (max %.2f at %.2f)", best[0].Value, best[0].Threshold), X: taus, Y: tr,
					Color: color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}, Marks: []plotter.XY{{X: best[0].Threshold, Y: best[0].Value}}},
				{Name: fmt.Sprintf("PU (max %.2f at %.2f)", best[1].Value, best[1].Threshold), X: taus, Y: pu,
					Color: color.RGBA{R: 0xd6, G: 0x3a, B: 0x3a, A: 0xff}, Dashed: true, Marks: []plotter.XY{{X: best[1].Threshold, Y: best[1].Value}}},
			}})
	}
	fig, err := report.Panels("psb2019-fig1", 32*vg.Centimeter, 20*vg.Centimeter, 2, charts)
	return fig, summary, err
}
