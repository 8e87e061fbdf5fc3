package report

import (
	"bytes"
	"image/color"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/vg"
)

func demoBoxChart() BoxChart {
	rng := rand.New(rand.NewPCG(1, 2))
	series := []string{"PU", "IR", "DR", "IE", "DE"}
	bc := BoxChart{Title: "AUC error by beta", XLabel: "beta", YLabel: "estimate - truth",
		Groups: []string{"1.00", "0.95", "0.75"}, Series: series, Colors: MethodColors(series), ZeroLine: true}
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
