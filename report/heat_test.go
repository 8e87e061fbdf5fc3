package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// TestZeroTicks: the labelled ticks are multiples of a round step and
// include 0 whenever the range spans it. The first case is the y range of
// the full AAAI-2017 run's Figure 2(a), where gonum's default ticker labels
// -0.5, -0.2 and 0.1 and no 0 (issue 19).
func TestZeroTicks(t *testing.T) {
	labels := func(ticks []plot.Tick) []float64 {
		var out []float64
		for _, tk := range ticks {
			if tk.Label != "" {
				v, err := strconv.ParseFloat(tk.Label, 64)
				if err != nil {
					t.Fatalf("label %q: %v", tk.Label, err)
				}
				out = append(out, v)
			}
		}
		return out
	}
	hasZero := func(vs []float64) bool {
		for _, v := range vs {
			if v == 0 {
				return true
			}
		}
		return false
	}
	if hasZero(labels(plot.DefaultTicks{}.Ticks(-0.55, 0.17))) {
		t.Log("gonum's default ticker now labels 0 on [-0.55, 0.17]; ZeroTicks is still the report's")
	}
	for _, c := range []struct {
		lo, hi, step float64
		zero         bool
	}{
		{-0.55, 0.17, 0.2, true},
		{-0.3, 0.6, 0.2, true},
		{-1, 1, 0.5, true},
		{-0.84, 0.91, 0.5, true},
		{0.05, 0.9, 0.2, false},
		{0, 1, 0.2, true},
		{-5, 5, 2, true},
		{0.001, 0.0032, 0.0005, false},
	} {
		vs := labels(ZeroTicks{}.Ticks(c.lo, c.hi))
		if len(vs) < 2 || hasZero(vs) != c.zero {
			t.Errorf("[%g, %g]: labels %v, want 0 among them: %v", c.lo, c.hi, vs, c.zero)
		}
		for _, v := range vs {
			if k := v / c.step; math.Abs(k-math.Round(k)) > 1e-6 || v < c.lo-1e-12 || v > c.hi+1e-12 {
				t.Errorf("[%g, %g]: label %g is not a multiple of %g inside the range", c.lo, c.hi, v, c.step)
			}
		}
	}
}

// TestHeatPaletteSequential: |error| maps light (small) to dark (large),
// monotonically, as the paper's Figure 4; the light end is not white, so it
// stays apart from a white undefined region.
func TestHeatPaletteSequential(t *testing.T) {
	lum := func(c color.Color) float64 {
		r, g, b, _ := c.RGBA()
		return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
	}
	pal := HeatPalette()
	if len(pal) != heatLevels {
		t.Fatalf("%d colours", len(pal))
	}
	for i := 1; i < len(pal); i++ {
		if lum(pal[i]) > lum(pal[i-1])+1.0/255 { // within 8-bit rounding
			t.Fatalf("luminance rises at %d: %.3f after %.3f", i, lum(pal[i]), lum(pal[i-1]))
		}
	}
	if first, last := lum(pal[0]), lum(pal[len(pal)-1]); first < 0.75 || last > 0.1 || pal[0] == color.Color(color.RGBA{255, 255, 255, 255}) {
		t.Errorf("ends: luminance %.3f (small) and %.3f (large), first %v", first, last, pal[0])
	}
}

// uniformGrid is an n x n grid over the unit square with every cell z
// except the NaN ones, which nan selects.
func uniformGrid(n int, z float64, nan func(x, y float64) bool) Grid {
	g := Grid{X: heatCentres(n), Y: heatCentres(n)}
	for _, y := range g.Y {
		row := make([]float64, n)
		for c, x := range g.X {
			row[c] = z
			if nan != nil && nan(x, y) {
				row[c] = math.NaN()
			}
		}
		g.Z = append(g.Z, row)
	}
	return g
}

func heatCentres(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = (float64(i) + 0.5) / float64(n)
	}
	return x
}

// TestHeatLayerNoSeams draws a uniform map and a map with an undefined
// half, as the PNG figures are drawn, and reads the pixels back: every
// pixel inside the data area has the cell's exact colour. Cells drawn as
// anti-aliased rectangles leave lighter seams on every cell edge (the
// "mesh" of issue 19).
func TestHeatLayerNoSeams(t *testing.T) {
	pal := HeatPalette()
	grey := color.RGBA{150, 150, 150, 255}
	for _, c := range []struct {
		name string
		grid Grid
		want func(x, y float64) color.Color
	}{
		{"uniform", uniformGrid(40, 0.5, nil), func(x, y float64) color.Color { return pal[(heatLevels-1)/2] }},
		{"undefined above the diagonal", uniformGrid(40, 0, func(x, y float64) bool { return y > x }),
			func(x, y float64) color.Color {
				if y > x {
					return grey
				}
				return pal[0]
			}},
	} {
		hm := HeatMaps{Cols: 1, Min: 0, Max: 1, Undefined: grey, EqualAxes: true, Panels: []HeatPanel{{Grid: c.grid}}}
		p := hm.panelPlot(hm.Panels[0], pal)
		const dpi = 100
		img := vgimg.NewWith(vgimg.UseWH(10*vg.Centimeter, 10*vg.Centimeter), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
		dc := draw.New(img)
		p.Draw(dc)
		da := p.DataCanvas(dc).Rectangle
		im := img.Image()
		h := im.Bounds().Dy()
		bad := 0
		// Pixel centres 2 pixels inside the data area; near the diagonal
		// the cell under a pixel is ambiguous.
		x0, x1 := int(da.Min.X.Dots(dpi))+2, int(da.Max.X.Dots(dpi))-2
		y0, y1 := int(da.Min.Y.Dots(dpi))+2, int(da.Max.Y.Dots(dpi))-2
		for px := x0; px < x1; px++ {
			for py := y0; py < y1; py++ {
				fx := (float64(px) + 0.5 - da.Min.X.Dots(dpi)) / (da.Max.X.Dots(dpi) - da.Min.X.Dots(dpi))
				fy := (float64(py) + 0.5 - da.Min.Y.Dots(dpi)) / (da.Max.Y.Dots(dpi) - da.Min.Y.Dots(dpi))
				if math.Abs(fx-fy) < 0.04 {
					continue
				}
				got := color.RGBAModel.Convert(im.At(px, h-1-py))
				if want := color.RGBAModel.Convert(c.want(fx, fy)); got != want {
					if bad++; bad <= 3 {
						t.Errorf("%s: pixel (%d, %d) at (%.3f, %.3f) is %v, want %v", c.name, px, py, fx, fy, got, want)
					}
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d pixels off their cell's colour", c.name, bad)
		}
	}
}

// TestEqualAxes: a panel in a wide or a tall tile gets a square data area
// for its unit ranges, so the 45-degree line is at 45 degrees.
func TestEqualAxes(t *testing.T) {
	hm := HeatMaps{Cols: 1, Max: 1, Undefined: color.White, Panels: []HeatPanel{{Title: "t", Grid: uniformGrid(10, 0.3, nil)}}}
	for _, size := range [][2]vg.Length{{12 * vg.Centimeter, 6 * vg.Centimeter}, {5 * vg.Centimeter, 11 * vg.Centimeter}} {
		img := vgimg.New(size[0], size[1])
		p := hm.panelPlot(hm.Panels[0], HeatPalette())
		da := p.DataCanvas(equalAxes(p, draw.New(img))).Size()
		if math.Abs(float64(da.X-da.Y)) > 0.01 || da.X < vg.Centimeter {
			t.Errorf("tile %v: data area %v x %v", size, da.X, da.Y)
		}
	}
}

// TestDenseHeatMapsSmall: 27 maps of 100 x 100 cells, the size of the
// AAAI-2017 Figure 3, stay far below 2 MB as SVG and PDF (drawn cell by
// cell they made a 25 MB SVG and a 4.4 MB PDF) and the SVG holds an image
// per map, not a path per cell.
func TestDenseHeatMapsSmall(t *testing.T) {
	hm := HeatMaps{XLabel: "alpha-hat", YLabel: "beta-hat", BarLabel: "|error|", Cols: 9, Min: 0, Max: 1,
		Undefined: color.Gray{Y: 150}, EqualAxes: true, LineLegend: []Series{{Name: "undefined"}}}
	for i := range 27 {
		off := float64(i) / 27
		g := Grid{X: heatCentres(100), Y: heatCentres(100)}
		for _, y := range g.Y {
			row := make([]float64, 100)
			for c, x := range g.X {
				row[c] = math.Abs(math.Sin(7*x+off) * math.Cos(5*y))
				if y-x > off {
					row[c] = math.NaN()
				}
			}
			g.Z = append(g.Z, row)
		}
		hm.Panels = append(hm.Panels, HeatPanel{Title: "p", Grid: g, VLines: []float64{off}, HLines: []float64{1 - off}})
	}
	f := hm.Figure("dense", 44*vg.Centimeter, 14*vg.Centimeter)
	for _, format := range []string{"svg", "pdf"} {
		b, err := f.Render(format)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 2<<20 {
			t.Errorf("%s: %d bytes, over 2 MB", format, len(b))
		}
		if format == "svg" {
			if n := strings.Count(string(b), "<image"); n != 27 {
				t.Errorf("svg: %d images for 27 maps", n)
			}
			if n := strings.Count(string(b), "<path"); n > 5000 {
				t.Errorf("svg: %d paths: the cells are drawn one by one", n)
			}
		}
	}
}

// TestHeatMapPDFUpright: the PDF shows a map the way up the PNG does.
// gonum/plot's PDF canvas draws images upside down, and the canvas a
// plotter gets is wrapped in draw.Canvas layers, so the map is flipped for
// the PDF backend under them. The test rasterises the PDF with poppler's
// pdftoppm (skipped where it is not installed) and compares it with the PNG:
// the undefined (grey) triangle above the diagonal is grey in both.
func TestHeatMapPDFUpright(t *testing.T) {
	grey := color.RGBA{150, 150, 150, 255}
	hm := HeatMaps{Cols: 1, Min: 0, Max: 1, Undefined: grey, EqualAxes: true,
		Panels: []HeatPanel{{Grid: uniformGrid(40, 0, func(x, y float64) bool { return y > x })}}}
	f := hm.Figure("upright", 8*vg.Centimeter, 6*vg.Centimeter)
	var backend vg.Canvas
	probe := hm.panelPlot(hm.Panels[0], HeatPalette())
	probe.Add(plotterFunc(func(c draw.Canvas, _ *plot.Plot) { backend = baseCanvas(c.Canvas) }))
	probe.Draw(draw.New(vgpdf.New(8*vg.Centimeter, 6*vg.Centimeter)))
	if _, ok := backend.(*vgpdf.Canvas); !ok {
		t.Errorf("a plotter's canvas unwraps to %T, not the PDF canvas", backend)
	}
	pdftoppm, err := exec.LookPath("pdftoppm")
	if err != nil {
		t.Skip("pdftoppm (poppler-utils) is not installed: the PDF is not rasterised")
	}
	dir := t.TempDir()
	pdf, err := f.Render("pdf")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(pdftoppm, "-r", strconv.Itoa(PNGDPI), "-png", "-singlefile",
		filepath.Join(dir, "f.pdf"), filepath.Join(dir, "f")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	fromPDF := readPNG(t, filepath.Join(dir, "f.png"))
	b, err := f.Render("png")
	if err != nil {
		t.Fatal(err)
	}
	fromPNG, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	greyPNG, both := 0, 0
	bounds := fromPNG.Bounds().Intersect(fromPDF.Bounds())
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if color.RGBAModel.Convert(fromPNG.At(x, y)) != grey {
				continue
			}
			greyPNG++
			r, g, bl, _ := fromPDF.At(x, y).RGBA()
			if near := func(v uint32) bool { return math.Abs(float64(v>>8)-150) <= 6 }; near(r) && near(g) && near(bl) {
				both++
			}
		}
	}
	if greyPNG < 1000 || float64(both) < 0.95*float64(greyPNG) {
		t.Errorf("of the PNG's %d grey pixels, %d are grey in the PDF: the PDF's map is not the PNG's way up", greyPNG, both)
	}
}

// plotterFunc is a plotter from a function.
type plotterFunc func(draw.Canvas, *plot.Plot)

func (f plotterFunc) Plot(c draw.Canvas, p *plot.Plot) { f(c, p) }

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestHeatMapsPDFDeterministic: a figure of many maps renders to the same
// PDF bytes every time. The PDF library writes images in the order of a Go
// map's iteration unless their widths differ (heatLayer.seq); with 27 maps
// of equal size, two renders differed in about one byte in six.
func TestHeatMapsPDFDeterministic(t *testing.T) {
	hm := HeatMaps{XLabel: "x", YLabel: "y", BarLabel: "z", Cols: 9, Min: 0, Max: 1}
	for i := range 27 {
		g := Grid{X: heatCentres(20), Y: heatCentres(20)}
		for _, y := range g.Y {
			row := make([]float64, 20)
			for c, x := range g.X {
				row[c] = math.Mod(x*float64(i+1)+y, 1)
			}
			g.Z = append(g.Z, row)
		}
		hm.Panels = append(hm.Panels, HeatPanel{Title: "p", Grid: g})
	}
	f := hm.Figure("det", 44*vg.Centimeter, 14*vg.Centimeter)
	first, err := f.Render("pdf")
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		again, err := f.Render("pdf")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatal("two renders of the same figure give different PDFs")
		}
	}
}
