package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PNGDPI is the resolution of the PNG figures.
const PNGDPI = 200

var plotSetup sync.Once

// setupPlotting sets gonum/plot's process-wide defaults once: a sans-serif
// font (plot and plotter keep separate copies of the default), and fixed PDF
// dates so that figures are byte-identical from run to run.
func setupPlotting() {
	plotSetup.Do(func() {
		plot.DefaultFont.Variant = "Sans"
		plotter.DefaultFont.Variant = "Sans"
		epoch := time.Unix(0, 0).UTC()
		fpdf.SetDefaultCreationDate(epoch)
		fpdf.SetDefaultModificationDate(epoch)
		fpdf.SetDefaultCatalogSort(true)
	})
}

// newPlot returns a plot with the report's style: sans fonts, light horizontal
// grid, round ticks that label 0 (ZeroTicks).
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	setupPlotting()
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Title.TextStyle.Font.Size = vg.Points(11)
	// gonum puts an axis label right against the tick labels (no padding):
	// a descender of the vertical label ("AUC_est") then touches them.
	p.X.Label.Padding, p.Y.Label.Padding = axisLabelPadding, axisLabelPadding
	// Round ticks that label 0 whenever the range spans it; a nominal axis
	// (NominalX) or a chart's own ticks replace these.
	p.X.Tick.Marker, p.Y.Tick.Marker = ZeroTicks{}, ZeroTicks{}
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	g.Horizontal.Color = color.Gray{Y: 225}
	p.Add(g)
	return p
}

// axisLabelPadding is the space between an axis label and its tick labels.
const axisLabelPadding = vg.Length(4) // points

// minBoxHeight is the height a box of (almost) no spread is drawn with,
// centred on its median, so that its colour shows: a box of equal quartiles
// would be a line in the median's black.
const minBoxHeight = vg.Length(4) // points

// Figure is a drawing of a given size, saved as PNG, PDF and SVG.
type Figure struct {
	Name string // file base name
	W, H vg.Length
	Draw func(c draw.Canvas)
}

// Formats are the file formats every figure is written in.
var Formats = []string{"png", "pdf", "svg"}

// Save writes dir/Name.{png,pdf,svg} and returns the paths.
func (f Figure) Save(dir string) ([]string, error) {
	setupPlotting()
	var paths []string
	for _, ext := range Formats {
		b, err := f.Render(ext)
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dir, f.Name+"."+ext)
		if err := WriteFile(p, b); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// Render draws the figure in one format: png (at PNGDPI), pdf or svg.
func (f Figure) Render(format string) ([]byte, error) {
	setupPlotting()
	var buf bytes.Buffer
	switch format {
	case "png":
		img := vgimg.NewWith(vgimg.UseWH(f.W, f.H), vgimg.UseDPI(PNGDPI), vgimg.UseBackgroundColor(color.White))
		f.Draw(draw.New(img))
		if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("figure %s: png: %w", f.Name, err)
		}
		return buf.Bytes(), nil
	case "pdf":
		pc := vgpdf.New(f.W, f.H)
		f.Draw(draw.New(pc))
		if _, err := pc.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("figure %s: pdf: %w", f.Name, err)
		}
		return buf.Bytes(), nil
	case "svg":
		sc := vgsvg.NewWith(vgsvg.UseWH(f.W, f.H))
		f.Draw(draw.New(sc))
		if _, err := sc.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("figure %s: svg: %w", f.Name, err)
		}
		return buf.Bytes(), nil
	}
	return nil, fmt.Errorf("figure %s: unknown format %q", f.Name, format)
}

// swatch is a legend thumbnail: a filled rectangle with an outline.
type swatch struct{ fill color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	pts := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min}
	c.FillPolygon(s.fill, pts)
	c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}, pts)
}

// newLegend is the report's legend of the entries: 9 pt text, 14 pt thumbnails.
func newLegend(entries []string, thumbs []plot.Thumbnailer) plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = vg.Points(9)
	l.Padding = vg.Points(3)
	l.ThumbnailWidth = vg.Points(14)
	for i, e := range entries {
		l.Add(e, thumbs[i])
	}
	return l
}

// withLegendRight draws plot p in the left part of c and a legend in a column
// on the right, outside the data, so no box or curve is ever covered.
func withLegendRight(p *plot.Plot, entries []string, thumbs []plot.Thumbnailer) func(draw.Canvas) {
	return func(c draw.Canvas) {
		setupPlotting()
		l := newLegend(entries, thumbs)
		lw := l.Rectangle(c).Size().X + vg.Points(12)
		plotArea := draw.Crop(c, 0, -lw, 0, 0)
		p.Draw(plotArea)
		legendArea := draw.Crop(c, c.Size().X-lw+vg.Points(6), 0, 0, 0)
		l.Top = true
		l.Left = true
		l.YOffs = -p.Title.TextStyle.Height(p.Title.Text) - vg.Points(8)
		l.Draw(legendArea)
	}
}

// withLegendBelow draws plot p in the upper part of c and the legend under
// it, its entries one under the other from the left: for panels side by
// side, where a legend column at the right of each would leave the plots
// narrow.
//
// The legend's strip is rows entries tall (at least its own), so that
// panels side by side whose legends differ in length keep their axes
// level.
func withLegendBelow(p *plot.Plot, entries []string, thumbs []plot.Thumbnailer, rows int) func(draw.Canvas) {
	return func(c draw.Canvas) {
		setupPlotting()
		l := newLegend(entries, thumbs)
		lh := l.Rectangle(c).Size().Y
		if n := len(entries); n > 0 && rows > n {
			lh = lh * vg.Length(rows) / vg.Length(n)
		}
		lh += vg.Points(8)
		p.Draw(draw.Crop(c, 0, 0, lh, 0))
		l.Top, l.Left = true, true
		l.Draw(draw.Crop(c, vg.Points(6), 0, 0, lh-c.Size().Y))
	}
}

// boxes is a plotter of grouped box plots from precomputed BoxStats: group g
// is centred at x = g, series s is shifted within the group.
type boxes struct {
	stats  [][]BoxStats // [series][group]
	colors []color.Color
	width  float64 // width of one box in x units
	mean   bool    // mark the mean
}

func (b *boxes) offset(s int) float64 {
	n := float64(len(b.stats))
	return (float64(s) - (n-1)/2) * b.width * 1.15
}

func (b *boxes) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	line := draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
	for s, series := range b.stats {
		for g, st := range series {
			if st.N == 0 {
				continue
			}
			x := float64(g) + b.offset(s)
			x0, x1 := trX(x-b.width/2), trX(x+b.width/2)
			xm := trX(x)
			q1, q3 := trY(st.Q1), trY(st.Q3)
			if q3-q1 < minBoxHeight {
				m := trY(st.Median)
				q1, q3 = m-minBoxHeight/2, m+minBoxHeight/2
			}
			box := []vg.Point{{X: x0, Y: q1}, {X: x1, Y: q1}, {X: x1, Y: q3}, {X: x0, Y: q3}, {X: x0, Y: q1}}
			c.FillPolygon(b.colors[s], c.ClipPolygonXY(box))
			c.StrokeLines(line, c.ClipLinesXY(box)...)
			c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(1.2)},
				c.ClipLinesXY([]vg.Point{{X: x0, Y: trY(st.Median)}, {X: x1, Y: trY(st.Median)}})...)
			capW := (x1 - x0) / 4
			for _, w := range [][2]float64{{st.Q1, st.WhiskerLo}, {st.Q3, st.WhiskerHi}} {
				c.StrokeLines(line, c.ClipLinesXY([]vg.Point{{X: xm, Y: trY(w[0])}, {X: xm, Y: trY(w[1])}})...)
				c.StrokeLines(line, c.ClipLinesXY([]vg.Point{{X: xm - capW, Y: trY(w[1])}, {X: xm + capW, Y: trY(w[1])}})...)
			}
			if pt := (vg.Point{X: xm, Y: trY(st.Mean)}); b.mean && c.Contains(pt) {
				c.DrawGlyph(draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2.2), Shape: diamondGlyph{}}, pt)
			}
			gs := draw.GlyphStyle{Color: color.Gray{Y: 90}, Radius: vg.Points(1.3), Shape: draw.CircleGlyph{}}
			for _, o := range st.Outliers {
				pt := vg.Point{X: xm, Y: trY(o)}
				if c.Contains(pt) {
					c.DrawGlyph(gs, pt)
				}
			}
		}
	}
}

func (b *boxes) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	groups := 0
	for _, series := range b.stats {
		groups = max(groups, len(series))
		for _, st := range series {
			if st.N == 0 {
				continue
			}
			ymin = math.Min(ymin, st.WhiskerLo)
			ymax = math.Max(ymax, st.WhiskerHi)
			for _, o := range st.Outliers {
				ymin, ymax = math.Min(ymin, o), math.Max(ymax, o)
			}
		}
	}
	if math.IsInf(ymin, 1) {
		ymin, ymax = 0, 1
	}
	// A margin keeps the extreme whiskers and outliers off the frame and the title.
	pad := 0.05 * (ymax - ymin)
	return -0.6, float64(groups) - 0.4, ymin - pad, ymax + pad
}

// BoxChart describes a grouped box plot: one box per (group, series).
type BoxChart struct {
	Title, XLabel, YLabel string
	Groups                []string
	Series                []string
	Colors                []color.Color
	Stats                 [][]BoxStats // [series][group]
	// YMin, YMax fix the y range when YMax > YMin (points outside are clipped).
	YMin, YMax float64
	ZeroLine   bool // draw a dashed line at y = 0
	// Mean marks each box's mean with a black diamond.
	Mean bool
}

// Figure returns the chart as a figure of the given size.
func (bc BoxChart) Figure(name string, w, h vg.Length) Figure {
	p := newPlot(bc.Title, bc.XLabel, bc.YLabel)
	width := 0.8 / float64(len(bc.Series)) / 1.15
	b := &boxes{stats: bc.Stats, colors: bc.Colors, width: width, mean: bc.Mean}
	if bc.ZeroLine {
		zero := plotter.NewFunction(func(float64) float64 { return 0 })
		zero.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		zero.Color = color.Gray{Y: 120}
		p.Add(zero)
	}
	p.Add(b)
	if len(bc.Groups) > 0 { // gonum's NominalX panics on none: a chart of no records
		p.NominalX(bc.Groups...)
	}
	p.X.Min, p.X.Max = -0.6, float64(len(bc.Groups))-0.4
	if bc.YMax > bc.YMin {
		p.Y.Min, p.Y.Max = bc.YMin, bc.YMax
	}
	thumbs := make([]plot.Thumbnailer, len(bc.Series))
	for i := range thumbs {
		thumbs[i] = swatch{bc.Colors[i]}
	}
	return Figure{Name: name, W: w, H: h, Draw: withLegendRight(p, bc.Series, thumbs)}
}

// The colours of the estimates in the box plots, after the papers' figures
// (AAAI-2017 Figure 2: "red boxes" for the PU values, "yellow and green" for
// the recoveries with real alpha and beta, "blue and purple" for those with
// estimated ones).
var (
	ColorRed    color.Color = color.RGBA{R: 0xd6, G: 0x3a, B: 0x3a, A: 0xff}
	ColorYellow color.Color = color.RGBA{R: 0xf2, G: 0xc9, B: 0x3d, A: 0xff}
	ColorGreen  color.Color = color.RGBA{R: 0x5c, G: 0xb8, B: 0x5c, A: 0xff}
	ColorBlue   color.Color = color.RGBA{R: 0x4a, G: 0x86, B: 0xc8, A: 0xff}
	ColorPurple color.Color = color.RGBA{R: 0x9b, G: 0x6b, B: 0xc2, A: 0xff}
)

// Qualitative is a palette of ten distinct colours for the lines or boxes of
// one chart (matplotlib's "tab10", in its order: blue, orange, green, red,
// purple, brown, pink, grey, olive, cyan).
var Qualitative = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
	color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
	color.RGBA{0xe3, 0x77, 0xc2, 0xff}, color.RGBA{0x7f, 0x7f, 0x7f, 0xff}, color.RGBA{0xbc, 0xbd, 0x22, 0xff},
	color.RGBA{0x17, 0xbe, 0xcf, 0xff},
}

// QualitativeColor is Qualitative's i-th colour, cycling.
func QualitativeColor(i int) color.Color { return Qualitative[i%len(Qualitative)] }

// ColorsOf returns the colour of each name in byName, shades of grey for
// names it lacks, for BoxChart.Colors.
func ColorsOf(names []string, byName map[string]color.Color) []color.Color {
	out := make([]color.Color, len(names))
	for i, n := range names {
		c, ok := byName[n]
		if !ok {
			c = color.Gray{Y: uint8(120 + 20*(i%5))}
		}
		out[i] = c
	}
	return out
}

// diamondGlyph draws a filled diamond (gonum/plot has none): the mean marker
// of box plots.
type diamondGlyph struct{}

func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	p := make(vg.Path, 0, 5)
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.Fill(p)
}

// ZeroTicks label an axis at multiples of a round step (1, 2, 2.5 or 5
// times a power of ten, giving at most 6 intervals), so 0 is labelled
// whenever it lies in the range, with unlabelled minor ticks halfway.
// gonum's default ticker starts its labels at the range's lower end
// (-0.5, -0.2, 0.1), which leaves a box plot of errors without a 0 to
// read the sign of the error against.
type ZeroTicks struct{}

// Ticks implements plot.Ticker.
func (ZeroTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	raw := (hi - lo) / 6
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * pow
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*pow >= raw*(1-1e-9) {
			step = m * pow
			break
		}
	}
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	if math.Abs(step/pow-2.5) < 1e-9 {
		decimals++
	}
	var ticks []plot.Tick
	for k := math.Ceil(lo/step*2 - 1e-9); k <= math.Floor(hi/step*2+1e-9); k++ {
		v := k * step / 2
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		switch {
		case v == 0:
			ticks = append(ticks, plot.Tick{Value: 0, Label: "0"})
		case int64(k)%2 == 0:
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		default:
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

// CountTicks label a log axis in the data's own units at 1, 2 and 5 times
// each power of ten in the range (only the powers of ten when it spans
// more than three decades), with unlabelled minor ticks at the other
// whole multiples; whole numbers get thousands separators ("1,000").
type CountTicks struct{}

// Ticks implements plot.Ticker.
func (CountTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0 && hi >= lo) || math.IsInf(hi, 0) {
		return plot.LogTicks{}.Ticks(lo, hi)
	}
	first, last := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	labelled := map[int]bool{1: true, 2: true, 5: true}
	if last-first > 3 {
		labelled = map[int]bool{1: true}
	}
	var ticks []plot.Tick
	for e := first; e <= last; e++ {
		pow := math.Pow(10, float64(e))
		for m := 1; m <= 9; m++ {
			v := float64(m) * pow
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[m] {
				t.Label = countLabel(v)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// countLabel writes v as a whole number with thousands separators when it
// is one, else in the shortest form.
func countLabel(v float64) string {
	if v != math.Trunc(v) || v >= 1e15 {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	s := strconv.FormatInt(int64(v), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
