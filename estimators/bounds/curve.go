package bounds

import (
	"cmp"
	"slices"
)

// Point is a point of a curve: (FPR, TPR) on a ROC curve, (recall,
// precision) on a PR curve.
type Point struct{ X, Y float64 }

// Curve is one bound (the lower or the upper one): the table of every
// cut-off, in rank order.
type Curve struct {
	Tables []Table
	// integer records that the counts are whole numbers (Rounded counting),
	// which lets the points be sorted by counting in O(n). Without it they
	// are sorted by comparison; the result is the same.
	integer bool
}

// ROC returns the ROC curve of the tables: the points (FPR, TPR) sorted
// ascending (by FPR, then TPR), as the published code sorts them, after the point (0, 0) of the empty prediction. The published code
// has no empty prediction, but (0, 0) adds no area there: with one instance
// at the first cut-off its table has FPR = 0 or TPR = 0. In grouped mode it
// starts the curve at the +Inf threshold as package metrics does, so that a
// first tie group with both classes adds its triangle.
func (c Curve) ROC() []Point {
	pts := make([]Point, 0, len(c.Tables)+1)
	pts = append(pts, Point{})
	for _, i := range c.rocOrder() {
		t := c.Tables[i]
		pts = append(pts, Point{t.FPR(), t.TPR()})
	}
	return pts
}

// PR returns the precision-recall curve of the tables: the points (recall,
// precision) sorted ascending (by recall, then precision), nothing added.
func (c Curve) PR() []Point {
	pts := make([]Point, 0, len(c.Tables))
	for _, i := range c.prOrder() {
		t := c.Tables[i]
		pts = append(pts, Point{t.TPR(), t.Precision()})
	}
	return pts
}

// AUC is the trapezoid area under ROC (the published auc()), computed
// without building the points.
func (c Curve) AUC() float64 {
	a, prev := 0.0, Point{} // from (0, 0)
	for _, i := range c.rocOrder() {
		p := Point{c.Tables[i].FPR(), c.Tables[i].TPR()}
		a += float64((p.X - prev.X) * (p.Y + prev.Y) / 2)
		prev = p
	}
	return a
}

// AUPR is the trapezoid area under PR (the published auc() of the PR points;
// not average precision).
func (c Curve) AUPR() float64 {
	a := 0.0
	var prev Point
	for k, i := range c.prOrder() {
		p := Point{c.Tables[i].TPR(), c.Tables[i].Precision()}
		if k > 0 {
			a += float64((p.X - prev.X) * (p.Y + prev.Y) / 2)
		}
		prev = p
	}
	return a
}

// PathAUC is the signed area under the ROC path through the tables in rank
// order, starting at (0, 0): the FPR moves back wherever a known positive
// lifts the surrogate true positives. With the ECDF as band, no known
// negatives, RealValued counting and no clamp binding it equals (AUC_PU -
// beta/2)/(1 - beta) exactly (see the package doc); AUC, which sorts the
// points first, differs from it slightly.
func (c Curve) PathAUC() float64 {
	pts := make([]Point, 0, len(c.Tables)+1)
	pts = append(pts, Point{})
	for _, t := range c.Tables {
		pts = append(pts, Point{t.FPR(), t.TPR()})
	}
	return Trapezoid(pts)
}

// flip maps every table to the other class (TP <-> FP, FN <-> TN).
func (c Curve) flip() Curve {
	f := Curve{Tables: make([]Table, len(c.Tables)), integer: c.integer}
	for i, t := range c.Tables {
		f.Tables[i] = t.flip()
	}
	return f
}

// Trapezoid is the trapezoid area under the points in the given order:
// sum of (x_{k+1} - x_k) (y_k + y_{k+1}) / 2.
func Trapezoid(pts []Point) float64 {
	a := 0.0
	for k := 1; k < len(pts); k++ {
		a += float64((pts[k].X - pts[k-1].X) * (pts[k].Y + pts[k-1].Y) / 2)
	}
	return a
}

func comparePoints(a, b Point) int {
	if c := cmp.Compare(a.X, b.X); c != 0 {
		return c
	}
	return cmp.Compare(a.Y, b.Y)
}

// rocOrder returns the table indices ordered by (FP, TP) ascending, which
// is (FPR, TPR) order since both share one denominator over a curve.
func (c Curve) rocOrder() []int {
	if !c.integer || !c.tpAscending() {
		return c.comparisonOrder(func(t Table) (float64, float64) { return t.FPR(), t.TPR() })
	}
	// TP ascends in rank order (the surrogate true positives never decrease
	// down a ranking's cut-offs), so a stable counting sort by FP suffices.
	n := len(c.Tables)
	maxFP := 0
	for _, t := range c.Tables {
		maxFP = max(maxFP, int(t.FP))
	}
	start := make([]int, maxFP+2)
	for _, t := range c.Tables {
		start[int(t.FP)+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	idx := make([]int, n)
	for i, t := range c.Tables {
		k := int(t.FP)
		idx[start[k]] = i
		start[k]++
	}
	return idx
}

// prOrder returns the table indices ordered by (recall, precision)
// ascending. Within one TP, precision TP/(TP+FP) ascends as TP+FP (the
// number of instances at or above the cut-off) descends, so with TP
// ascending in rank order the order is rank order with every run of equal
// TP reversed (at TP = 0 every precision is 0: the same point).
func (c Curve) prOrder() []int {
	if !c.integer || !c.tpAscending() {
		return c.comparisonOrder(func(t Table) (float64, float64) { return t.TPR(), t.Precision() })
	}
	n := len(c.Tables)
	idx := make([]int, n)
	for start := 0; start < n; {
		end := start + 1
		for end < n && c.Tables[end].TP == c.Tables[start].TP {
			end++
		}
		for j := start; j < end; j++ {
			idx[j] = end - 1 - (j - start)
		}
		start = end
	}
	return idx
}

// tpAscending reports whether TP never decreases in rank order, as it does
// on every curve of a ranking with a non-decreasing band.
func (c Curve) tpAscending() bool {
	for i := 1; i < len(c.Tables); i++ {
		if c.Tables[i].TP < c.Tables[i-1].TP {
			return false
		}
	}
	return true
}

// comparisonOrder sorts the indices by the points xy gives, stably.
func (c Curve) comparisonOrder(xy func(Table) (float64, float64)) []int {
	idx := make([]int, len(c.Tables))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		xa, ya := xy(c.Tables[a])
		xb, yb := xy(c.Tables[b])
		return comparePoints(Point{xa, ya}, Point{xb, yb})
	})
	return idx
}
