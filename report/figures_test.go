package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// renderPNG draws f as its PNG and decodes it.
func renderPNG(t *testing.T, f Figure) image.Image {
	t.Helper()
	b, err := f.Render("png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// near says whether two colours differ by at most tol in each channel.
func near(a, b color.Color, tol int) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) bool { return abs(int(x>>8)-int(y>>8)) <= tol }
	return d(r1, r2) && d(g1, g2) && d(b1, b2)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// countColour counts the pixels of img within tol of c.
func countColour(img image.Image, c color.Color, tol int) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if near(img.At(x, y), c, tol) {
				n++
			}
		}
	}
	return n
}

// inkColumns says, per column of img, whether it holds a dark pixel.
func inkColumns(img image.Image) []bool {
	b := img.Bounds()
	out := make([]bool, b.Dx())
	for x := b.Min.X; x < b.Max.X; x++ {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if r, g, bl, _ := img.At(x, y).RGBA(); r>>8 < 128 && g>>8 < 128 && bl>>8 < 128 {
				out[x-b.Min.X] = true
				break
			}
		}
	}
	return out
}

// TestZeroSpreadBoxVisible: a box whose quartiles are equal (every value
// the same) shows its series' colour. Drawn at its true height it is a
// line under the black median, and the series cannot be told apart (the
// AUL report's Figure 2, where an estimator gave one value on every split).
// The box is drawn minBoxHeight (4 pt = 11 px at 200 dpi) tall over the
// width of one of two series' boxes in a 10 cm wide plot: several hundred
// pixels of the colour; a line would give none clear of the outline.
func TestZeroSpreadBoxVisible(t *testing.T) {
	flat := BoxStats{N: 5, Q1: 0.05, Median: 0.05, Q3: 0.05, WhiskerLo: 0.05, WhiskerHi: 0.05, Mean: 0.05}
	spread := BoxStats{N: 5, Q1: -0.01, Median: 0, Q3: 0.01, WhiskerLo: -0.02, WhiskerHi: 0.02, Mean: 0}
	fill := color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	bc := BoxChart{Title: "t", Groups: []string{"a"}, Series: []string{"flat", "spread"},
		Colors: []color.Color{fill, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}},
		Stats:  [][]BoxStats{{flat}, {spread}}}
	img := renderPNG(t, bc.Figure("box", 10*vg.Centimeter, 6*vg.Centimeter))
	// The legend's swatch of the series is 14 x ~9 pt with an outline: about
	// 30 x 20 px of the colour; the box must add clearly more.
	if n := countColour(img, fill, 8); n < 1000 {
		t.Errorf("%d pixels of the flat series' colour: its box is not visible", n)
	}
}

// TestAxisLabelClearOfTicks: a vertical axis label stands clear of the
// tick labels. gonum sets it right against them: the heat maps' colour bar
// label "|AUC - AUC_est|" (9 pt) ended 8 px (2.9 pt at 200 dpi) before its
// 8 pt tick labels, which at the page's scale of Figure 3 touched. With
// the bar's font sizes and a tick label at the label's height, the columns
// with ink are the label's, then the tick label's, then the tick and the
// axis; between the first two there must be at least 5 pt (14 px) of white.
func TestAxisLabelClearOfTicks(t *testing.T) {
	p := newPlot("", "", "|AUC - AUC_est|")
	p.HideX()
	p.Y.Label.TextStyle.Font.Size = vg.Points(9)
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0.5, Label: "0.6"}})
	img := renderPNG(t, Figure{Name: "axis", W: 4 * vg.Centimeter, H: 4 * vg.Centimeter, Draw: func(c draw.Canvas) { p.Draw(c) }})
	ink := inkColumns(img)
	var runs [][2]int // runs of ink columns, as [start, end)
	for x := 0; x < len(ink); x++ {
		if ink[x] && (x == 0 || !ink[x-1]) {
			runs = append(runs, [2]int{x, x})
		}
		if ink[x] {
			runs[len(runs)-1][1] = x + 1
		}
	}
	if len(runs) < 2 {
		t.Fatalf("ink runs %v: want the label's, then the tick label's", runs)
	}
	if gap := runs[1][0] - runs[0][1]; gap < 14 {
		t.Errorf("the label ends %d px before the tick labels (ink runs %v): want at least 14 (5 pt at 200 dpi)", gap, runs)
	}
}

// TestEmptyChartsRender: a box or bar chart without groups (a report over
// records that hold none of its values) draws an empty chart; gonum's
// NominalX panics on no names.
func TestEmptyChartsRender(t *testing.T) {
	bc := BoxChart{Title: "t", Series: []string{"s"}, Colors: []color.Color{color.Black}, Stats: [][]BoxStats{nil}}
	renderPNG(t, bc.Figure("box", 8*vg.Centimeter, 6*vg.Centimeter))
	bar := BarChart{Title: "t", Series: []string{"s"}, Values: [][]float64{nil}}
	f, err := bar.Figure("bar", 8*vg.Centimeter, 6*vg.Centimeter)
	if err != nil {
		t.Fatal(err)
	}
	renderPNG(t, f)
}

// TestCountTicks: a log axis is labelled in counts at 1, 2 and 5 times the
// powers of ten (by hand: 100 to 1,000 gives 100, 200, 500, 1,000 and minor
// ticks at 300, 400, 600, ..., 900), only at the powers over more than
// three decades.
func TestCountTicks(t *testing.T) {
	labels := func(lo, hi float64) (labelled []string, minor int) {
		for _, tk := range (CountTicks{}).Ticks(lo, hi) {
			if tk.Label == "" {
				minor++
			} else {
				labelled = append(labelled, tk.Label)
			}
		}
		return labelled, minor
	}
	for _, c := range []struct {
		lo, hi float64
		want   string
		minor  int
	}{
		{100, 1000, "100 200 500 1,000", 6},
		{150, 900, "200 500", 6},
		{100, 100000, "100 200 500 1,000 2,000 5,000 10,000 20,000 50,000 100,000", 18},
		{1, 1e5, "1 10 100 1,000 10,000 100,000", 40},
		{0.1, 0.5, "0.1 0.2 0.5", 2},
	} {
		got, minor := labels(c.lo, c.hi)
		if strings.Join(got, " ") != c.want || minor != c.minor {
			t.Errorf("[%g, %g]: labels %q and %d minor ticks, want %q and %d", c.lo, c.hi, got, minor, c.want, c.minor)
		}
	}
}

// TestLogXRefusesNonPositive: a log x axis with x <= 0 is an error naming
// the series (gonum's log scale would panic).
func TestLogXRefusesNonPositive(t *testing.T) {
	lc := LineChart{LogX: true, Series: []Series{{Name: "bounds", X: []float64{0, 100}, Y: []float64{0.5, 0.6}, Color: color.Black}}}
	if _, err := lc.Figure("f", 8*vg.Centimeter, 6*vg.Centimeter); err == nil || !strings.Contains(err.Error(), `series "bounds": x = 0`) {
		t.Errorf("x = 0 on a log axis: %v", err)
	}
	lc.Series[0].X[0] = 10
	f, err := lc.Figure("f", 8*vg.Centimeter, 6*vg.Centimeter)
	if err != nil {
		t.Fatal(err)
	}
	renderPNG(t, f)
}
