package report

import (
	"image"
	"image/color"
	"math"
	"slices"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgpdf"
)

// Grid is a function sampled on a regular grid for a heat map: Z[r][c] at
// (X[c], Y[r]); NaN marks cells drawn in the "undefined" colour.
type Grid struct {
	X, Y []float64
	Z    [][]float64
}

// Dims returns the number of columns and rows.
func (g Grid) Dims() (c, r int) { return len(g.X), len(g.Y) }

// HeatPanel is one heat map with optional dotted reference lines.
type HeatPanel struct {
	Title          string
	Grid           Grid
	VLines, HLines []float64
	Lines          []Series // extra curves drawn over the map
	Marks          []Mark   // points drawn over the map; those with a name get a legend entry
}

// Mark is a point drawn over a heat map: a filled circle with a white ring,
// which shows on any colour of the map and over the frame (a point may lie
// on the border, as a corner of the unit square does).
type Mark struct {
	Name  string
	X, Y  float64
	Color color.Color
}

// markGlyph is the style a Mark is drawn with: the fill, then the ring.
func (m Mark) draw(c *draw.Canvas, pt vg.Point) {
	c.DrawGlyph(draw.GlyphStyle{Color: color.White, Radius: vg.Points(4.2), Shape: draw.CircleGlyph{}}, pt)
	c.DrawGlyph(draw.GlyphStyle{Color: m.Color, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}, pt)
}

// Thumbnail draws the mark in a legend.
func (m Mark) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	m.draw(c, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2})
}

// HeatMaps is a grid of heat map panels sharing one colour scale and bar.
type HeatMaps struct {
	XLabel, YLabel, BarLabel string
	Panels                   []HeatPanel
	Cols                     int
	Min, Max                 float64 // colour range
	Undefined                color.Color
	// Legend entries for the Lines of the panels (name -> colour), drawn
	// beside the colour bar; a Series without a colour is a swatch of the
	// Undefined colour. Named Marks of the panels follow them.
	LineLegend []Series
	// EqualAxes draws every panel with equal x and y scales (its data area
	// as wide as high for equal ranges), so that a line of slope 1 is at 45
	// degrees, as in maps over (alpha-hat, beta-hat).
	EqualAxes bool
	// TextSize is the size of the panels' titles and axis labels, their
	// tick labels 1 pt smaller; 0: 8 pt.
	TextSize vg.Length
}

// unitTicks labels the unit interval at 0, .25, .5, .75 and 1.
var unitTicks = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25, Label: ".25"},
	{Value: 0.5, Label: ".5"}, {Value: 0.75, Label: ".75"}, {Value: 1, Label: "1"}})

// heatRamp is the reversed viridis colour map (van der Walt & Smith,
// matplotlib's default) sampled at nine points: light yellow for small
// values to dark purple for large ones. It is sequential and perceptually
// uniform, and its light end is yellow, not white, so that it stays apart
// from a white or grey "undefined" region.
var heatRamp = []color.RGBA{
	{0xfd, 0xe7, 0x25, 0xff}, {0xaa, 0xdc, 0x32, 0xff}, {0x5c, 0xc8, 0x63, 0xff},
	{0x27, 0xad, 0x81, 0xff}, {0x21, 0x90, 0x8d, 0xff}, {0x2c, 0x71, 0x8e, 0xff},
	{0x3b, 0x51, 0x8b, 0xff}, {0x47, 0x2c, 0x7a, 0xff}, {0x44, 0x01, 0x54, 0xff},
}

// heatLevels is the number of colours of HeatPalette: with the undefined
// colour they fill the 256 entries of a paletted PNG.
const heatLevels = 255

// HeatPalette is the colour scale of the heat maps, a sequential one for
// magnitudes such as |error|: light (small) to dark (large), as in the
// AAAI-2017 paper's Figure 4, in heatLevels steps.
func HeatPalette() []color.Color {
	out := make([]color.Color, heatLevels)
	for i := range out {
		t := float64(i) / float64(heatLevels-1) * float64(len(heatRamp)-1)
		k := min(int(t), len(heatRamp)-2)
		f := t - float64(k)
		a, b := heatRamp[k], heatRamp[k+1]
		mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
		out[i] = color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
	}
	return out
}

// heatLayer draws a Grid as one raster image rather than a rectangle per
// cell: vector cells leave a mesh of hairline seams in SVG and PDF viewers
// (each edge is anti-aliased against the background), and 27 maps of 100 x
// 100 cells made a 25 MB SVG. The image has the resolution of the PNG
// figures (PNGDPI, or the canvas's when finer) and the aspect ratio of the
// area it fills, each pixel the colour of the cell under its centre, so no
// viewer needs to stretch or smooth it.
type heatLayer struct {
	grid      Grid
	min, max  float64
	pal       []color.Color
	undefined color.Color
	// seq numbers the maps of one figure. In a PDF the seq-th map is seq
	// pixels wider than its area's resolution: the PDF library writes a
	// page's images sorted by width (fpdf's catalog sort, which the
	// package's init turns on) and, among equal widths, in the order of a
	// Go map's iteration, which changes from run to run; distinct widths
	// make the file the same every time.
	seq int
}

// Reports are byte-identical from run to run: the PDF library's resource
// catalogs (fonts, images) in a fixed order rather than a map's.
func init() { fpdf.SetDefaultCatalogSort(true) }

// cellEdges are the boundaries of cells centred at xs: midway between
// centres, the outer ones as far out as the neighbouring half-cell (a unit
// width for a single cell, as gonum's heat map does).
func cellEdges(xs []float64) []float64 {
	n := len(xs)
	if n == 0 {
		return nil
	}
	e := make([]float64, n+1)
	if n == 1 {
		e[0], e[1] = xs[0]-0.5, xs[0]+0.5
		return e
	}
	e[0] = xs[0] - (xs[1]-xs[0])/2
	for i := 1; i < n; i++ {
		e[i] = (xs[i-1] + xs[i]) / 2
	}
	e[n] = xs[n-1] + (xs[n-1]-xs[n-2])/2
	return e
}

func (h *heatLayer) DataRange() (xmin, xmax, ymin, ymax float64) {
	ex, ey := cellEdges(h.grid.X), cellEdges(h.grid.Y)
	if len(ex) == 0 || len(ey) == 0 {
		return 0, 1, 0, 1
	}
	return ex[0], ex[len(ex)-1], ey[0], ey[len(ey)-1]
}

// colorIndex is the palette index of z: clamped to the colour range, the
// last index (the undefined colour) for NaN.
func (h *heatLayer) colorIndex(z float64) uint8 {
	if math.IsNaN(z) || !(h.max > h.min) {
		return uint8(len(h.pal))
	}
	t := (z - h.min) / (h.max - h.min)
	i := int(math.Round(math.Max(0, math.Min(1, t)) * float64(len(h.pal)-1)))
	return uint8(i)
}

// cellOf maps n pixels spanning [lo, hi] to the cells with the given edges:
// the cell under each pixel's centre.
func cellOf(n int, lo, hi float64, edges []float64) []int {
	out := make([]int, n)
	for p := range out {
		v := lo + (float64(p)+0.5)/float64(n)*(hi-lo)
		i, _ := slices.BinarySearch(edges, v)
		out[p] = min(max(i-1, 0), len(edges)-2)
	}
	return out
}

func (h *heatLayer) Plot(c draw.Canvas, plt *plot.Plot) {
	cols, rows := h.grid.Dims()
	if cols == 0 || rows == 0 {
		return
	}
	ex, ey := cellEdges(h.grid.X), cellEdges(h.grid.Y)
	// Only the part of the grid inside the axes' ranges is drawn.
	x0, x1 := math.Max(ex[0], plt.X.Min), math.Min(ex[cols], plt.X.Max)
	y0, y1 := math.Max(ey[0], plt.Y.Min), math.Min(ey[rows], plt.Y.Max)
	if !(x1 > x0 && y1 > y0) {
		return
	}
	trX, trY := plt.Transforms(&c)
	rect := vg.Rectangle{Min: vg.Point{X: trX(x0), Y: trY(y0)}, Max: vg.Point{X: trX(x1), Y: trY(y1)}}
	base := baseCanvas(c.Canvas)
	dpi := float64(PNGDPI)
	if d, ok := base.(interface{ DPI() float64 }); ok {
		dpi = math.Max(dpi, d.DPI())
	}
	w := max(1, int(math.Round(rect.Size().X.Dots(dpi))))
	ht := max(1, int(math.Round(rect.Size().Y.Dots(dpi))))
	if _, ok := base.(*vgpdf.Canvas); ok {
		w += h.seq
	}
	pal := append(slices.Clone(h.pal), h.undefined)
	img := image.NewPaletted(image.Rect(0, 0, w, ht), pal)
	colOf := cellOf(w, x0, x1, ex)
	rowOf := cellOf(ht, y0, y1, ey)
	for py := range ht {
		r := rowOf[ht-1-py] // image rows run top down, the grid's bottom up
		for px := range w {
			img.Pix[py*img.Stride+px] = h.colorIndex(h.grid.Z[r][colOf[px]])
		}
	}
	if _, ok := base.(*vgpdf.Canvas); ok {
		flipRows(img)
	}
	c.DrawImage(rect, img)
}

// baseCanvas is the backend under the draw.Canvas layers that plots and
// crops wrap around it (vgimg, vgpdf or vgsvg).
func baseCanvas(cv vg.Canvas) vg.Canvas {
	for {
		switch c := cv.(type) {
		case draw.Canvas:
			cv = c.Canvas
		case *draw.Canvas:
			cv = c.Canvas
		default:
			return cv
		}
	}
}

// flipRows turns img upside down. gonum/plot's PDF canvas (v0.17) draws
// images upside down: its page transform flips the y axis and DrawImage
// does not undo it, so the PDF gets the image flipped beforehand.
func flipRows(img *image.Paletted) {
	h := img.Rect.Dy()
	for top, bottom := 0, h-1; top < bottom; top, bottom = top+1, bottom-1 {
		a := img.Pix[top*img.Stride : top*img.Stride+img.Stride]
		b := img.Pix[bottom*img.Stride : bottom*img.Stride+img.Stride]
		for i := range a {
			a[i], b[i] = b[i], a[i]
		}
	}
}

// colourBar draws the palette as a vertical bar over [min, max]: band i is
// filled from its own bottom to the top of the bar, so each band lies on
// the previous one and no background shows between them (abutting bands
// leave seams in vector formats, as heat map cells do).
type colourBar struct {
	pal      []color.Color
	min, max float64
}

func (b *colourBar) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	n := len(b.pal)
	x0, x1 := trX(0), trX(1)
	top := trY(b.max)
	for i, col := range b.pal {
		y := trY(b.min + float64(i)/float64(n)*(b.max-b.min))
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y}, {X: x1, Y: y}, {X: x1, Y: top}, {X: x0, Y: top}})
	}
}

func (b *colourBar) DataRange() (xmin, xmax, ymin, ymax float64) { return 0, 1, b.min, b.max }

// equalAxes crops c so that p's data area in it has equal x and y scales,
// centred in c: a line of slope 1 in data units is then drawn at 45 degrees.
// The axes' sizes do not depend on the canvas's, so one crop suffices.
func equalAxes(p *plot.Plot, c draw.Canvas) draw.Canvas {
	dx, dy := p.X.Max-p.X.Min, p.Y.Max-p.Y.Min
	if !(dx > 0 && dy > 0) {
		return c
	}
	da := p.DataCanvas(c).Size()
	// Points per data unit along each axis; the larger one shrinks.
	sx, sy := da.X/vg.Length(dx), da.Y/vg.Length(dy)
	switch {
	case sx > sy:
		d := da.X - sy*vg.Length(dx)
		return draw.Crop(c, d/2, -d/2, 0, 0)
	case sy > sx:
		d := da.Y - sx*vg.Length(dy)
		return draw.Crop(c, 0, 0, d/2, -d/2)
	}
	return c
}

// casedLine adds xy to p as a line with a white casing under it, so that it
// shows on the dark end of the palette as well as on the light one.
func casedLine(p *plot.Plot, xy plotter.XYs, col color.Color, width, casingWidth vg.Length, dashes []vg.Length) {
	casing, err := plotter.NewLine(xy)
	if err != nil {
		return
	}
	casing.Color, casing.Width = color.White, casingWidth
	l, _ := plotter.NewLine(xy)
	l.Color, l.Width, l.Dashes = col, width, dashes
	p.Add(casing, l)
}

// panelPlot is the plot of one panel: the raster map, the reference lines,
// the extra curves and the marks.
func (hm HeatMaps) panelPlot(panel HeatPanel, pal []color.Color) *plot.Plot {
	return hm.panelPlotSeq(panel, pal, 0)
}

// panelPlotSeq is panelPlot for the seq-th panel of a figure (see
// heatLayer.seq).
func (hm HeatMaps) panelPlotSeq(panel HeatPanel, pal []color.Color, seq int) *plot.Plot {
	p := newPlot(panel.Title, hm.XLabel, hm.YLabel)
	size := hm.TextSize
	if size <= 0 {
		size = vg.Points(8)
	}
	p.Title.TextStyle.Font.Size = size
	p.X.Label.TextStyle.Font.Size = size
	p.Y.Label.TextStyle.Font.Size = size
	p.X.Tick.Label.Font.Size = size - 1
	p.Y.Tick.Label.Font.Size = size - 1
	layer := &heatLayer{grid: panel.Grid, min: hm.Min, max: hm.Max, pal: pal, undefined: hm.Undefined, seq: seq}
	if layer.undefined == nil {
		layer.undefined = color.White
	}
	p.Add(layer)
	x0, x1, y0, y1 := layer.DataRange()
	dotted := []vg.Length{vg.Points(1), vg.Points(2)}
	for _, v := range panel.VLines {
		casedLine(p, plotter.XYs{{X: v, Y: y0}, {X: v, Y: y1}}, color.Black, vg.Points(0.8), vg.Points(1.4), dotted)
	}
	for _, v := range panel.HLines {
		casedLine(p, plotter.XYs{{X: x0, Y: v}, {X: x1, Y: v}}, color.Black, vg.Points(0.8), vg.Points(1.4), dotted)
	}
	for _, s := range panel.Lines {
		xy := make(plotter.XYs, 0, len(s.X))
		for j := range s.X {
			if !math.IsNaN(s.Y[j]) {
				xy = append(xy, plotter.XY{X: s.X[j], Y: s.Y[j]})
			}
		}
		if len(xy) < 2 {
			continue
		}
		var dashes []vg.Length
		if s.Dashed {
			dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		casedLine(p, xy, s.Color, vg.Points(1.3), vg.Points(2.5), dashes)
	}
	if len(panel.Marks) > 0 {
		p.Add(marks(panel.Marks))
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
	if x0 >= 0 && x1 <= 1 && y0 >= 0 && y1 <= 1 {
		p.X.Tick.Marker, p.Y.Tick.Marker = unitTicks, unitTicks
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	}
	return p
}

// marks is a plotter of Marks; they are drawn even where they overhang the
// data area (a corner point would otherwise show a quarter).
type marks []Mark

func (ms marks) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for _, m := range ms {
		m.draw(&c, vg.Point{X: trX(m.X), Y: trY(m.Y)})
	}
}

// legend is the legend beside the colour bar, and its number of entries:
// LineLegend, then the named marks of the panels (each name once).
func (hm HeatMaps) legend() (plot.Legend, int) {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = vg.Points(8)
	l.Padding = vg.Points(2)
	for _, s := range hm.LineLegend {
		if s.Color == nil {
			l.Add(s.Name, swatch{hm.Undefined})
			continue
		}
		line, _ := plotter.NewLine(plotter.XYs{{}, {X: 1, Y: 1}})
		line.Color, line.Width = s.Color, vg.Points(1.3)
		if s.Dashed {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		l.Add(s.Name, line)
	}
	n := len(hm.LineLegend)
	seen := map[string]bool{}
	for _, panel := range hm.Panels {
		for _, m := range panel.Marks {
			if m.Name != "" && !seen[m.Name] {
				seen[m.Name] = true
				l.Add(m.Name, m)
				n++
			}
		}
	}
	l.Top, l.Left = true, true
	return l, n
}

// Figure draws the panels and, on the right, the colour bar and the legend.
func (hm HeatMaps) Figure(name string, w, h vg.Length) Figure {
	pal := HeatPalette()
	return Figure{Name: name, W: w, H: h, Draw: func(c draw.Canvas) {
		setupPlotting()
		l, entries := hm.legend()
		barW := vg.Points(70)
		if entries > 0 {
			barW = max(barW, l.Rectangle(c).Size().X+vg.Points(12))
		}
		area := draw.Crop(c, 0, -barW, 0, 0)
		rows := (len(hm.Panels) + hm.Cols - 1) / hm.Cols
		tiles := draw.Tiles{Rows: rows, Cols: hm.Cols, PadX: vg.Points(6), PadY: vg.Points(6),
			PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(2)}
		for i, panel := range hm.Panels {
			p := hm.panelPlotSeq(panel, pal, i)
			tile := tiles.At(area, i%hm.Cols, i/hm.Cols)
			if hm.EqualAxes {
				tile = equalAxes(p, tile)
			}
			p.Draw(tile)
		}
		right := draw.Crop(c, c.Size().X-barW, 0, 0, 0)
		bp := newPlot("", "", hm.BarLabel)
		bp.HideX()
		bp.Add(&colourBar{pal: pal, min: hm.Min, max: hm.Max})
		bp.Y.Min, bp.Y.Max = hm.Min, hm.Max
		bp.Y.Label.TextStyle.Font.Size = vg.Points(9)
		bp.Y.Tick.Label.Font.Size = vg.Points(8)
		barArea := draw.Crop(right, 0, -(barW - vg.Points(60)), vg.Points(30), -vg.Points(30))
		if entries > 0 {
			barArea = draw.Crop(right, 0, -(barW - vg.Points(60)), right.Size().Y/2, -vg.Points(30))
			l.Draw(draw.Crop(right, vg.Points(4), 0, vg.Points(20), -right.Size().Y/2-vg.Points(10)))
		}
		bp.Draw(barArea)
	}}
}
