package report

import (
	"bytes"
	"gonum.org/v1/plot/plotter"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

func demoBoxChart() BoxChart {
	rng := rand.New(rand.NewPCG(1, 2))
	series := []string{"PU", "IR", "DR", "IE", "DE"}
	bc := BoxChart{Title: "AUC error by beta", XLabel: "beta", YLabel: "estimate - truth",
		Groups: []string{"1.00", "0.95", "0.75"}, Series: series, Colors: ColorsOf(series, map[string]color.Color{"PU": ColorRed, "IR": ColorYellow}), ZeroLine: true}
	for s := range series {
		var row []BoxStats
		for g := range bc.Groups {
			x := make([]float64, 60)
			for i := range x {
				x[i] = rng.NormFloat64() * 0.02 * float64(g+1)
				if s == 0 {
					x[i] -= 0.1
				}
			}
			row = append(row, Box(x))
		}
		bc.Stats = append(bc.Stats, row)
	}
	return bc
}

// PNG, SVG and PDF output are byte-identical across runs (PDF dates are pinned).
func TestFigureBytesStable(t *testing.T) {
	f := demoBoxChart().Figure("demo", 16*vg.Centimeter, 9*vg.Centimeter)
	for _, format := range Formats {
		a, err := f.Render(format)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := f.Render(format)
		if !bytes.Equal(a, b) || len(a) < 1000 {
			t.Errorf("%s: %d and %d bytes, equal %v", format, len(a), len(b), bytes.Equal(a, b))
		}
	}
	if dir := os.Getenv("PUEVAL_FIGURE_DIR"); dir != "" {
		// For looking at the figures: PUEVAL_FIGURE_DIR=/tmp/figs go test -run BytesStable ./report
		if _, err := f.Save(dir); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSaveWritesAllFormats(t *testing.T) {
	dir := t.TempDir()
	paths, err := demoBoxChart().Figure("x", 10*vg.Centimeter, 6*vg.Centimeter).Save(dir)
	if err != nil || len(paths) != 3 {
		t.Fatal(paths, err)
	}
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
	}
	_ = color.Black
}

func TestHeatMapsAndLinesRender(t *testing.T) {
	// |x - y| on a grid, undefined (NaN) where x + y > 1.5.
	var g Grid
	for i := 0; i <= 20; i++ {
		g.X = append(g.X, float64(i)/20)
		g.Y = append(g.Y, float64(i)/20)
	}
	for r := range g.Y {
		row := make([]float64, len(g.X))
		for c := range g.X {
			row[c] = math.Abs(g.X[c] - g.Y[r])
			if g.X[c]+g.Y[r] > 1.5 {
				row[c] = math.NaN()
			}
		}
		g.Z = append(g.Z, row)
	}
	hm := HeatMaps{XLabel: "alpha-hat", YLabel: "beta-hat", BarLabel: "|AUC - AUC est|", Cols: 2, Max: 1,
		Undefined: color.Gray{Y: 160}, Panels: []HeatPanel{{Title: "a", Grid: g, VLines: []float64{0.25}, HLines: []float64{0.75}}, {Title: "b", Grid: g}}}
	lc := LineChart{Title: "ROC", XLabel: "FPR", YLabel: "TPR", Diagonal: true, YMax: 1,
		Series: []Series{{Name: "PU", X: []float64{0, 0.5, 1}, Y: []float64{0, 0.8, 1}, Color: color.Black,
			Marks: []plotter.XY{{X: 0.5, Y: 0.8}}}}}
	lf, err := lc.Figure("roc", 12*vg.Centimeter, 9*vg.Centimeter)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := Panels("panels", 20*vg.Centimeter, 9*vg.Centimeter, 2, []LineChart{lc, lc})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Figure{hm.Figure("heat", 16*vg.Centimeter, 8*vg.Centimeter), lf, pf} {
		a, err := f.Render("png")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := f.Render("png")
		if !bytes.Equal(a, b) {
			t.Errorf("%s: PNG differs between renders", f.Name)
		}
		if dir := os.Getenv("PUEVAL_FIGURE_DIR"); dir != "" {
			f.Save(dir)
		}
	}
}

// A bar chart renders byte-stably; mismatched values are an error naming
// the series.
func TestBarChart(t *testing.T) {
	bc := BarChart{Title: "t", Groups: []string{"a", "b"}, Series: []string{"x", "y"}, Values: [][]float64{{0.6, 0.7}, {0.8, math.NaN()}}, YMin: 0.5, YMax: 1}
	f, err := bc.Figure("bars", 12*vg.Centimeter, 8*vg.Centimeter)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := f.Render("svg")
	if !bytes.Equal(a, b) || len(a) < 1000 {
		t.Errorf("svg: %d and %d bytes, equal %v", len(a), len(b), bytes.Equal(a, b))
	}
	bc.Values[1] = []float64{0.8}
	if _, err := bc.Figure("bars", 12*vg.Centimeter, 8*vg.Centimeter); err == nil || !strings.Contains(err.Error(), "series y has 1 values for 2 groups") {
		t.Errorf("mismatch: %v", err)
	}
}
