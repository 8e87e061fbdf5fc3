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
	// grouped records that the first cut-off may hold a whole tie group
	// ([Grouped] ties): the PR curve then starts inside it (see PR).
	grouped bool
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
	for _, i := range c.rocOrder(&scratch{}) {
		t := c.Tables[i]
		pts = append(pts, Point{t.FPR(), t.TPR()})
	}
	return pts
}

// PR returns the precision-recall curve of the tables: the points (recall,
// precision) sorted ascending (by recall, then precision). In input-order
// mode nothing is added, as in the published code. In grouped mode, when the
// first cut-off holds a tie group of m > 1 instances, the curve also has the
// point (recall/m, precision) of that cut-off: where a cut-off after the
// group's first instance would lie, in expectation over the orders of the
// group. It plays the part of the ROC curve's (0, 0): without it a ranking
// whose scores all tie would have a PR curve of one point and an area of 0,
// where its precision is the prior at every recall. With m = 1 the point is
// the first point itself, so grouped and input-order agree without ties.
func (c Curve) PR() []Point {
	pts := make([]Point, 0, len(c.Tables)+1)
	c.eachPR(&scratch{}, func(p Point) { pts = append(pts, p) })
	return pts
}

// AUC is the trapezoid area under ROC (the published auc()), computed
// without building the points.
func (c Curve) AUC() float64 { return c.auc(&scratch{}) }

func (c Curve) auc(s *scratch) float64 {
	a, prev := 0.0, Point{} // from (0, 0)
	for _, i := range c.rocOrder(s) {
		p := Point{c.Tables[i].FPR(), c.Tables[i].TPR()}
		a += float64((p.X - prev.X) * (p.Y + prev.Y) / 2)
		prev = p
	}
	return a
}

// AUPR is the trapezoid area under PR (the published auc() of the PR points;
// not average precision), over the points of [Curve.PR].
func (c Curve) AUPR() float64 { return c.aupr(&scratch{}) }

func (c Curve) aupr(s *scratch) float64 {
	a, first := 0.0, true
	var prev Point
	c.eachPR(s, func(p Point) {
		if !first {
			a += float64((p.X - prev.X) * (p.Y + prev.Y) / 2)
		}
		prev, first = p, false
	})
	return a
}

// eachPR calls yield with the points of the PR curve in order.
func (c Curve) eachPR(s *scratch, yield func(Point)) {
	start, hasStart := c.prStart()
	for _, i := range c.prOrder(s) {
		t := c.Tables[i]
		p := Point{t.TPR(), t.Precision()}
		if hasStart && comparePoints(start, p) < 0 {
			yield(start)
			hasStart = false
		}
		yield(p)
	}
	if hasStart {
		yield(start)
	}
}

// prStart is the point that starts the PR curve inside the first tie group
// in grouped mode (see PR), and whether there is one.
func (c Curve) prStart() (Point, bool) {
	if !c.grouped || len(c.Tables) == 0 {
		return Point{}, false
	}
	t := c.Tables[0]
	m := t.TP + t.FP
	if !(m > 1) {
		return Point{}, false
	}
	return Point{float64(t.TPR() / m), t.Precision()}, true
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
	f := Curve{Tables: make([]Table, len(c.Tables)), integer: c.integer, grouped: c.grouped}
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

// scratch holds the buffers of the orders, so that a scan over many counts
// of latent positives sorts without allocating.
type scratch struct{ idx, start []int }

// ints returns b resized to n (reusing its memory), zeroed.
func ints(b []int, n int) []int {
	if cap(b) < n {
		return make([]int, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// countable reports whether the points can be sorted by counting: whole
// counts, and TP + FP (the instances at or above the cut-off) strictly
// increasing in rank order, as on every curve of a ranking, flipped or not.
// Then, within one FP, TP = (TP + FP) - FP increases with the rank, and
// within one TP the precision TP/(TP + FP) decreases with it.
func (c Curve) countable() bool {
	if !c.integer {
		return false
	}
	for i := 1; i < len(c.Tables); i++ {
		a, b := c.Tables[i-1], c.Tables[i]
		if !(b.TP+b.FP > a.TP+a.FP) {
			return false
		}
	}
	return true
}

// rocOrder returns the table indices ordered by (FP, TP) ascending, which
// is (FPR, TPR) order since both share one denominator over a curve: when
// the curve is countable, the rank order sorted stably by FP. Down a
// positive-based curve FP mostly grows and steps back only a little where a
// known positive lifts the surrogate true positives, so an insertion sort
// from the rank order does it in about O(n); past a few moves per table it
// gives way to a counting sort, O(n + largest FP).
func (c Curve) rocOrder(s *scratch) []int {
	if !c.countable() {
		return c.comparisonOrder(func(t Table) (float64, float64) { return t.FPR(), t.TPR() })
	}
	t := c.Tables
	n := len(t)
	s.idx = ints(s.idx, n)
	idx := s.idx
	budget := 8 * n
	for i := range n {
		fp := t[i].FP
		j := i
		for j > 0 && t[idx[j-1]].FP > fp {
			idx[j] = idx[j-1]
			j--
		}
		idx[j] = i
		if budget -= i - j; budget < 0 {
			return countingOrder(n, func(i int) int { return int(t[i].FP) }, s, false)
		}
	}
	return idx
}

// prOrder returns the table indices ordered by (recall, precision)
// ascending. Within one TP the precision TP/(TP + FP) ascends as TP + FP
// (the instances at or above the cut-off) descends, so on a countable curve
// the order is the rank order sorted by TP with each TP's tables reversed:
// the rank order with every run of equal TP reversed when TP ascends down
// the ranking (positive-based curves), a counting sort otherwise. At TP = 0
// every precision is 0: the same point in any order.
func (c Curve) prOrder(s *scratch) []int {
	if !c.countable() {
		return c.comparisonOrder(func(t Table) (float64, float64) { return t.TPR(), t.Precision() })
	}
	t := c.Tables
	n := len(t)
	for i := 1; i < n; i++ {
		if t[i].TP < t[i-1].TP {
			return countingOrder(n, func(i int) int { return int(t[i].TP) }, s, true)
		}
	}
	s.idx = ints(s.idx, n)
	for start := 0; start < n; {
		end := start + 1
		for end < n && t[end].TP == t[start].TP {
			end++
		}
		for j := start; j < end; j++ {
			s.idx[j] = end - 1 - (j - start)
		}
		start = end
	}
	return s.idx
}

// countingOrder sorts the indices 0..n-1 by the whole number key, stably in
// index order or, with reverse, in reverse index order within one key. O(n
// + largest key).
func countingOrder(n int, key func(int) int, s *scratch, reverse bool) []int {
	maxKey := 0
	for i := range n {
		maxKey = max(maxKey, key(i))
	}
	s.start = ints(s.start, maxKey+2)
	for i := range n {
		s.start[key(i)+1]++
	}
	for k := 1; k < len(s.start); k++ {
		s.start[k] += s.start[k-1]
	}
	s.idx = ints(s.idx, n)
	for j := range n {
		i := j
		if reverse {
			i = n - 1 - j
		}
		k := key(i)
		s.idx[s.start[k]] = i
		s.start[k]++
	}
	return s.idx
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
