package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one curve of a LineChart.
type Series struct {
	Name   string
	X, Y   []float64
	Color  color.Color
	Dashed bool
	// Marks are points drawn as circles on the curve (e.g. the maximum), with
	// a dotted vertical line down to the x axis.
	Marks []plotter.XY
}

// LineChart is a chart of curves with the legend outside the data.
type LineChart struct {
	Title, XLabel, YLabel string
	Series                []Series
	XMin, XMax            float64 // fixed x range when XMax > XMin
	YMin, YMax            float64 // fixed y range when YMax > YMin
	Diagonal              bool    // dashed y = x line (ROC curves)
}

func (lc LineChart) plot() (*plot.Plot, []string, []plot.Thumbnailer, error) {
	p := newPlot(lc.Title, lc.XLabel, lc.YLabel)
	if lc.Diagonal {
		d, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			return nil, nil, nil, err
		}
		d.Color, d.Dashes = color.Gray{Y: 150}, []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(d)
	}
	var names []string
	var thumbs []plot.Thumbnailer
	for _, s := range lc.Series {
		if len(s.X) != len(s.Y) {
			return nil, nil, nil, fmt.Errorf("series %q: %d x values, %d y values", s.Name, len(s.X), len(s.Y))
		}
		xy := make(plotter.XYs, len(s.X))
		for i := range s.X {
			xy[i] = plotter.XY{X: s.X[i], Y: s.Y[i]}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("series %q: %w", s.Name, err)
		}
		l.Color, l.Width = s.Color, vg.Points(1.4)
		if s.Dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		for _, m := range s.Marks {
			v, err := plotter.NewLine(plotter.XYs{{X: m.X, Y: m.Y}, {X: m.X, Y: lc.YMin}})
			if err == nil {
				v.Color, v.Dashes = s.Color, []vg.Length{vg.Points(1), vg.Points(2)}
				p.Add(v)
			}
			sc, err := plotter.NewScatter(plotter.XYs{m})
			if err != nil {
				return nil, nil, nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: s.Color, Radius: vg.Points(3), Shape: draw.RingGlyph{}}
			p.Add(sc)
		}
		names = append(names, s.Name)
		thumbs = append(thumbs, l)
	}
	if lc.XMax > lc.XMin {
		p.X.Min, p.X.Max = lc.XMin, lc.XMax
	}
	if lc.YMax > lc.YMin {
		p.Y.Min, p.Y.Max = lc.YMin, lc.YMax
	}
	return p, names, thumbs, nil
}

// Figure returns the chart as a figure of the given size.
func (lc LineChart) Figure(name string, w, h vg.Length) (Figure, error) {
	p, names, thumbs, err := lc.plot()
	if err != nil {
		return Figure{}, fmt.Errorf("figure %s: %w", name, err)
	}
	return Figure{Name: name, W: w, H: h, Draw: withLegendRight(p, names, thumbs)}, nil
}

// Panels lays out charts in a grid of rows x cols, each with its own legend.
func Panels(name string, w, h vg.Length, cols int, charts []LineChart) (Figure, error) {
	rows := (len(charts) + cols - 1) / cols
	draws := make([]func(draw.Canvas), len(charts))
	for i, lc := range charts {
		p, names, thumbs, err := lc.plot()
		if err != nil {
			return Figure{}, fmt.Errorf("figure %s panel %d: %w", name, i, err)
		}
		draws[i] = withLegendRight(p, names, thumbs)
	}
	return Figure{Name: name, W: w, H: h, Draw: func(c draw.Canvas) {
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(10),
			PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
		for i, d := range draws {
			d(tiles.At(c, i%cols, i/cols))
		}
	}}, nil
}

// Grid is a function sampled on a regular grid for a heat map: Z[r][c] at
// (X[c], Y[r]); NaN marks cells drawn in the "undefined" colour.
type Grid struct {
	X, Y []float64
	Z    [][]float64
}

// Dims returns the number of columns and rows.
func (g Grid) Dims() (c, r int) { return len(g.X), len(g.Y) }

// gridXYZ adapts Grid to plotter.GridXYZ.
type gridXYZ struct{ Grid }

func (g gridXYZ) Z(c, r int) float64 { return g.Grid.Z[r][c] }
func (g gridXYZ) X(c int) float64    { return g.Grid.X[c] }
func (g gridXYZ) Y(r int) float64    { return g.Grid.Y[r] }

// HeatPanel is one heat map with optional dotted reference lines.
type HeatPanel struct {
	Title          string
	Grid           Grid
	VLines, HLines []float64
	Lines          []Series // extra curves drawn over the map
}

// HeatMaps is a grid of heat map panels sharing one colour scale and bar.
type HeatMaps struct {
	XLabel, YLabel, BarLabel string
	Panels                   []HeatPanel
	Cols                     int
	Min, Max                 float64 // colour range
	Undefined                color.Color
	// Legend entries for the Lines of the panels (name -> colour), drawn beside the colour bar.
	LineLegend []Series
}

// unitTicks labels the unit interval at 0, .25, .5, .75 and 1.
var unitTicks = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25, Label: ".25"},
	{Value: 0.5, Label: ".5"}, {Value: 0.75, Label: ".75"}, {Value: 1, Label: "1"}})

// HeatPalette is the colour scale of the heat maps: Moreland's smooth
// blue-red diverging map, with dark (large error) at the top.
func HeatPalette() palette.Palette {
	m := moreland.SmoothBlueRed()
	m.SetMin(0)
	m.SetMax(1)
	return m.Palette(64)
}

// Figure draws the panels and a colour bar on the right.
func (hm HeatMaps) Figure(name string, w, h vg.Length) Figure {
	pal := HeatPalette()
	return Figure{Name: name, W: w, H: h, Draw: func(c draw.Canvas) {
		setupPlotting()
		barW := vg.Points(70)
		if len(hm.LineLegend) > 0 {
			barW = vg.Points(200)
		}
		area := draw.Crop(c, 0, -barW, 0, 0)
		rows := (len(hm.Panels) + hm.Cols - 1) / hm.Cols
		tiles := draw.Tiles{Rows: rows, Cols: hm.Cols, PadX: vg.Points(6), PadY: vg.Points(6),
			PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(2)}
		for i, panel := range hm.Panels {
			p := newPlot(panel.Title, hm.XLabel, hm.YLabel)
			p.Title.TextStyle.Font.Size = vg.Points(8)
			p.X.Label.TextStyle.Font.Size = vg.Points(8)
			p.Y.Label.TextStyle.Font.Size = vg.Points(8)
			p.X.Tick.Label.Font.Size = vg.Points(7)
			p.Y.Tick.Label.Font.Size = vg.Points(7)
			hmap := plotter.NewHeatMap(gridXYZ{panel.Grid}, pal)
			hmap.Min, hmap.Max = hm.Min, hm.Max
			hmap.NaN = hm.Undefined
			hmap.Overflow = pal.Colors()[len(pal.Colors())-1]
			hmap.Underflow = pal.Colors()[0]
			p.Add(hmap)
			ref := func(xy plotter.XYs) {
				l, err := plotter.NewLine(xy)
				if err == nil {
					l.Color, l.Dashes, l.Width = color.Black, []vg.Length{vg.Points(1), vg.Points(2)}, vg.Points(0.8)
					p.Add(l)
				}
			}
			x0, x1 := panel.Grid.X[0], panel.Grid.X[len(panel.Grid.X)-1]
			y0, y1 := panel.Grid.Y[0], panel.Grid.Y[len(panel.Grid.Y)-1]
			for _, v := range panel.VLines {
				ref(plotter.XYs{{X: v, Y: y0}, {X: v, Y: y1}})
			}
			for _, v := range panel.HLines {
				ref(plotter.XYs{{X: x0, Y: v}, {X: x1, Y: v}})
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
				l, err := plotter.NewLine(xy)
				if err == nil {
					l.Color, l.Width = s.Color, vg.Points(1.3)
					if s.Dashed {
						l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
					}
					p.Add(l)
				}
			}
			p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
			if x0 >= 0 && x1 <= 1 && y0 >= 0 && y1 <= 1 {
				p.X.Tick.Marker, p.Y.Tick.Marker = unitTicks, unitTicks
				p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
			}
			p.Draw(tiles.At(area, i%hm.Cols, i/hm.Cols))
		}
		// Colour bar (and line legend) on the right.
		right := draw.Crop(c, c.Size().X-barW, 0, 0, 0)
		bp := newPlot("", "", hm.BarLabel)
		bp.HideX()
		cb := &plotter.ColorBar{ColorMap: colorMapOf(pal, hm.Min, hm.Max), Vertical: true}
		bp.Add(cb)
		bp.Y.Label.TextStyle.Font.Size = vg.Points(9)
		bp.Y.Tick.Label.Font.Size = vg.Points(8)
		barArea := draw.Crop(right, 0, -(barW - vg.Points(60)), vg.Points(30), -vg.Points(30))
		if len(hm.LineLegend) > 0 {
			barArea = draw.Crop(right, 0, -(barW - vg.Points(60)), right.Size().Y/2, -vg.Points(30))
			l := plot.NewLegend()
			l.TextStyle.Font.Size = vg.Points(8)
			l.Padding = vg.Points(2)
			for _, s := range hm.LineLegend {
				line, _ := plotter.NewLine(plotter.XYs{{}, {X: 1, Y: 1}})
				line.Color, line.Width = s.Color, vg.Points(1.3)
				if s.Dashed {
					line.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
				}
				if s.Color == nil {
					l.Add(s.Name, swatch{hm.Undefined})
					continue
				}
				l.Add(s.Name, line)
			}
			l.Top, l.Left = true, true
			l.Draw(draw.Crop(right, vg.Points(4), 0, vg.Points(20), -right.Size().Y/2-vg.Points(10)))
		}
		bp.Draw(barArea)
	}}
}

// colorMapOf wraps a palette as a palette.ColorMap over [min, max] for the colour bar.
func colorMapOf(p palette.Palette, min, max float64) palette.ColorMap {
	return &paletteMap{cols: p.Colors(), min: min, max: max}
}

type paletteMap struct {
	cols     []color.Color
	min, max float64
}

func (m *paletteMap) At(v float64) (color.Color, error) {
	if v < m.min || v > m.max || math.IsNaN(v) {
		return nil, fmt.Errorf("value %v outside [%v, %v]", v, m.min, m.max)
	}
	i := int((v - m.min) / (m.max - m.min) * float64(len(m.cols)))
	return m.cols[min(i, len(m.cols)-1)], nil
}
func (m *paletteMap) Max() float64                { return m.max }
func (m *paletteMap) Min() float64                { return m.min }
func (m *paletteMap) SetMax(v float64)            { m.max = v }
func (m *paletteMap) SetMin(v float64)            { m.min = v }
func (m *paletteMap) Alpha() float64              { return 1 }
func (m *paletteMap) SetAlpha(float64)            {}
func (m *paletteMap) Palette(int) palette.Palette { return nil }

// BarChart is a grouped bar chart: one bar per series in each group
// (Values[series][group]; NaN leaves the bar out), the series side by side
// in the order given, a legend on the right.
type BarChart struct {
	Title, XLabel, YLabel string
	Groups                []string
	Series                []string
	Values                [][]float64
	Colors                []color.Color // one per series; nil: Qualitative
	YMin, YMax            float64       // fixed y range when YMax > YMin
}

// Figure draws the chart.
func (bc BarChart) Figure(name string, w, h vg.Length) (Figure, error) {
	p := newPlot(bc.Title, bc.XLabel, bc.YLabel)
	n := len(bc.Series)
	if n == 0 || len(bc.Values) != n {
		return Figure{}, fmt.Errorf("report: bar chart %s: %d series and %d value rows", name, n, len(bc.Values))
	}
	// Bars in data units: the groups are 1 apart, the bars fill 80 % of it.
	width := 0.8 / float64(n)
	thumbs := make([]plot.Thumbnailer, n)
	for s := range n {
		if len(bc.Values[s]) != len(bc.Groups) {
			return Figure{}, fmt.Errorf("report: bar chart %s: series %s has %d values for %d groups", name, bc.Series[s], len(bc.Values[s]), len(bc.Groups))
		}
		c := QualitativeColor(s)
		if s < len(bc.Colors) && bc.Colors[s] != nil {
			c = bc.Colors[s]
		}
		var xys plotter.XYs
		for g, v := range bc.Values[s] {
			if !math.IsNaN(v) {
				xys = append(xys, plotter.XY{X: float64(g) + (float64(s)-float64(n-1)/2)*width, Y: v})
			}
		}
		if len(xys) > 0 {
			bars := &bars{xys: xys, width: width, fill: c, base: bc.YMin}
			p.Add(bars)
		}
		thumbs[s] = swatch{c}
	}
	p.NominalX(bc.Groups...)
	p.X.Min, p.X.Max = -0.6, float64(len(bc.Groups))-0.4
	if bc.YMax > bc.YMin {
		p.Y.Min, p.Y.Max = bc.YMin, bc.YMax
	}
	return Figure{Name: name, W: w, H: h, Draw: withLegendRight(p, bc.Series, thumbs)}, nil
}

// bars draws filled rectangles of a width in data units centred at each X,
// from base up to Y.
type bars struct {
	xys   plotter.XYs
	width float64
	fill  color.Color
	base  float64
}

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, xy := range b.xys {
		x0, x1 := trX(xy.X-b.width/2), trX(xy.X+b.width/2)
		y0, y1 := trY(b.base), trY(xy.Y)
		rect := c.ClipPolygonY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		c.FillPolygon(b.fill, rect)
	}
}

func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), b.base, b.base
	for _, xy := range b.xys {
		xmin, xmax = min(xmin, xy.X-b.width/2), max(xmax, xy.X+b.width/2)
		ymin, ymax = min(ymin, xy.Y), max(ymax, xy.Y)
	}
	return
}
