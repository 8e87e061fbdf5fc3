package claesen2015

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/report"
)

// Figure1Name is the analytic figure's name (`pueval figure claesen2015-fig1`).
const Figure1Name = "claesen2015-fig1"

// The paper's worked example (Sec. 2.1, Figure 1).
var (
	Fig1Ranking = []string{"B", "E", "D", "G", "H", "A", "F", "C", "I"}
	Fig1P1      = []string{"B", "D", "A", "C"}
	Fig1P2      = []string{"E", "G", "F"}
)

// fig1Caption is what the paper states: the 1-based ranks at which each
// set's CDF jumps and its values there.
var fig1Caption = []struct {
	set   []string
	ranks []int
	cdf   []float64
}{
	{Fig1P1, []int{1, 3, 6, 8}, []float64{0.25, 0.5, 0.75, 1}},
	{Fig1P2, []int{2, 4, 7}, []float64{1.0 / 3, 2.0 / 3, 1}},
}

func init() {
	report.RegisterFigure(report.AnalyticFigure{Name: Figure1Name,
		About: "Claesen et al. 2015 Figure 1: rank CDFs of P1 = {B,D,A,C} and P2 = {E,G,F} within R = (B,E,D,G,H,A,F,C,I)",
		Draw:  drawFigure1})
}

// RankCDF returns the rank CDF of set within ranking (the paper's Eq. 6):
// the 1-based ranks of set's members in increasing order and the CDF there,
// i/|set| at the i-th. A member not in the ranking, or listed twice, is an
// error.
func RankCDF(ranking, set []string) (ranks []int, cdf []float64, err error) {
	for i, x := range set {
		if slices.Index(set, x) != i {
			return nil, nil, fmt.Errorf("rank CDF: %q listed twice", x)
		}
		r := slices.Index(ranking, x)
		if r < 0 {
			return nil, nil, fmt.Errorf("rank CDF: %q is not in the ranking", x)
		}
		ranks = append(ranks, r+1)
	}
	slices.Sort(ranks)
	for i := range ranks {
		cdf = append(cdf, float64(i+1)/float64(len(set)))
	}
	return ranks, cdf, nil
}

// Figure1 draws the two rank CDFs as right-continuous step functions over
// the ranks 0..|R| and returns notes comparing them with the paper's values.
func Figure1() (report.Figure, []string, error) {
	lc := report.LineChart{Title: "Rank CDF of two sets of positives", XLabel: "rank r", YLabel: "F(P, r)",
		XMin: 0, XMax: float64(len(Fig1Ranking)), YMin: 0, YMax: 1.05}
	var notes []string
	agree := true
	for i, c := range fig1Caption {
		ranks, cdf, err := RankCDF(Fig1Ranking, c.set)
		if err != nil {
			return report.Figure{}, nil, err
		}
		xs := make([]float64, len(ranks))
		var marks []plotter.XY
		for j, r := range ranks {
			xs[j] = float64(r)
			marks = append(marks, plotter.XY{X: float64(r), Y: cdf[j]})
		}
		x, y := stepPoints(0, 0, xs, cdf, float64(len(Fig1Ranking)))
		s, _ := series(fmt.Sprintf("P%d = {%s}", i+1, strings.Join(c.set, ",")), x, y, paletteColor(i), i == 1)
		s.Marks = marks
		lc.Series = append(lc.Series, s)
		if !slices.Equal(ranks, c.ranks) || !closeAll(cdf, c.cdf) {
			agree = false
			notes = append(notes, fmt.Sprintf("Figure 1, P%d: the example gives CDF %v at ranks %v, the paper %v at %v", i+1, cdf, ranks, c.cdf, c.ranks))
		}
	}
	if agree {
		notes = append(notes, "Figure 1: the rank CDFs agree with the paper's example: P1 1/4, 2/4, 3/4, 1 at ranks 1, 3, 6, 8; P2 1/3, 2/3, 1 at ranks 2, 4, 7.")
	}
	f, err := lc.Figure(Figure1Name, 16*vg.Centimeter, 9*vg.Centimeter)
	return f, notes, err
}

func drawFigure1(dir string) (files, notes []string, err error) {
	f, notes, err := Figure1()
	if err != nil {
		return nil, nil, err
	}
	files, err = f.Save(dir)
	return files, notes, err
}

func closeAll(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}
