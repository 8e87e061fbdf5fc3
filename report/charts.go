package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
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

// Band is a shaded region between two curves on the same X (a confidence
// band), drawn under the series.
type Band struct {
	Name         string
	X            []float64
	Lower, Upper []float64 // NaN where the band is unknown: that X is left out
	Color        color.Color
}

// LineChart is a chart of curves with the legend outside the data.
type LineChart struct {
	Title, XLabel, YLabel string
	Bands                 []Band
	Series                []Series
	XMin, XMax            float64 // fixed x range when XMax > XMin
	YMin, YMax            float64 // fixed y range when YMax > YMin
	Diagonal              bool    // dashed y = x line (ROC curves)
	// LegendBelow puts the legend under the plot rather than at its right
	// (for Panels side by side).
	LegendBelow bool
	// LogX draws the x axis on a log scale labelled in the data's own
	// units (CountTicks: 100, 200, 500, 1,000), for counts that grow by
	// factors; every x must then be positive.
	LogX bool
}

func (lc LineChart) plot() (*plot.Plot, []string, []plot.Thumbnailer, error) {
	p := newPlot(lc.Title, lc.XLabel, lc.YLabel)
	if lc.Diagonal {
		d, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			return nil, nil, nil, err
		}
		// Dotted, so that it is not read as one of the dashed curves.
		d.Color, d.Dashes = color.Gray{Y: 150}, []vg.Length{vg.Points(1), vg.Points(2.5)}
		p.Add(d)
	}
	names, thumbs, err := lc.addBands(p)
	if err != nil {
		return nil, nil, nil, err
	}
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
	if lc.LogX {
		if err := lc.positiveX(); err != nil {
			return nil, nil, nil, err
		}
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, CountTicks{}
	}
	return p, names, thumbs, nil
}

// addBands adds the chart's bands to p, under the curves, and returns
// their legend entries.
func (lc LineChart) addBands(p *plot.Plot) ([]string, []plot.Thumbnailer, error) {
	var names []string
	var thumbs []plot.Thumbnailer
	for _, b := range lc.Bands {
		if len(b.X) != len(b.Lower) || len(b.X) != len(b.Upper) {
			return nil, nil, fmt.Errorf("band %q: %d x values, %d lower, %d upper", b.Name, len(b.X), len(b.Lower), len(b.Upper))
		}
		var up, down plotter.XYs
		for i, x := range b.X {
			if math.IsNaN(b.Lower[i]) || math.IsNaN(b.Upper[i]) {
				continue
			}
			up = append(up, plotter.XY{X: x, Y: b.Upper[i]})
			down = append(down, plotter.XY{X: x, Y: b.Lower[i]})
		}
		if len(up) < 2 {
			continue
		}
		slices.Reverse(down)
		poly, err := plotter.NewPolygon(append(up, down...))
		if err != nil {
			return nil, nil, fmt.Errorf("band %q: %w", b.Name, err)
		}
		poly.Color, poly.LineStyle.Width = b.Color, 0
		p.Add(poly)
		names = append(names, b.Name)
		thumbs = append(thumbs, swatch{b.Color})
	}
	return names, thumbs, nil
}

// positiveX refuses an x <= 0 on a log axis (gonum's log scale panics).
func (lc LineChart) positiveX() error {
	for _, s := range lc.Series {
		for _, x := range s.X {
			if !(x > 0) {
				return fmt.Errorf("series %q: x = %g on a log axis", s.Name, x)
			}
		}
	}
	for _, b := range lc.Bands {
		for _, x := range b.X {
			if !(x > 0) {
				return fmt.Errorf("band %q: x = %g on a log axis", b.Name, x)
			}
		}
	}
	if lc.XMax > lc.XMin && !(lc.XMin > 0) {
		return fmt.Errorf("x range from %g on a log axis", lc.XMin)
	}
	return nil
}

// Figure returns the chart as a figure of the given size.
func (lc LineChart) Figure(name string, w, h vg.Length) (Figure, error) {
	p, names, thumbs, err := lc.plot()
	if err != nil {
		return Figure{}, fmt.Errorf("figure %s: %w", name, err)
	}
	drawFn := withLegendRight(p, names, thumbs)
	if lc.LegendBelow {
		drawFn = withLegendBelow(p, names, thumbs, 0)
	}
	return Figure{Name: name, W: w, H: h, Draw: drawFn}, nil
}

// Panels lays out charts in a grid of rows x cols, each with its own legend.
func Panels(name string, w, h vg.Length, cols int, charts []LineChart) (Figure, error) {
	rows := (len(charts) + cols - 1) / cols
	draws := make([]func(draw.Canvas), len(charts))
	rowsBelow := 0 // the longest legend under a panel: every such strip is as tall
	for _, lc := range charts {
		if lc.LegendBelow {
			rowsBelow = max(rowsBelow, len(lc.Bands)+len(lc.Series))
		}
	}
	for i, lc := range charts {
		p, names, thumbs, err := lc.plot()
		if err != nil {
			return Figure{}, fmt.Errorf("figure %s panel %d: %w", name, i, err)
		}
		draws[i] = withLegendRight(p, names, thumbs)
		if lc.LegendBelow {
			draws[i] = withLegendBelow(p, names, thumbs, rowsBelow)
		}
	}
	return Figure{Name: name, W: w, H: h, Draw: func(c draw.Canvas) {
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(10),
			PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
		for i, d := range draws {
			d(tiles.At(c, i%cols, i/cols))
		}
	}}, nil
}

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
	if len(bc.Groups) > 0 { // gonum's NominalX panics on none: a chart of no records
		p.NominalX(bc.Groups...)
	}
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
