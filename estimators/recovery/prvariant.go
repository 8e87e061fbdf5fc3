package recovery

import (
	"fmt"

	"github.com/pueval/pueval/metrics"
)

// PRCurve says where the recovered precision-recall curve comes from. The
// AAAI-2017 appendix defines precision by Eq. 3 and says only that it "leads
// to an equivalent indirect algorithm" for AUC-PR; the two readings below
// agree in exact population arithmetic (where gamma, eta and eta_pu obey
// eta_pu = alpha gamma + (1 - alpha) eta) and differ on samples.
type PRCurve int

const (
	// PREq3 takes every threshold Algorithm 1 keeps (outside points dropped
	// or clipped), with recall = the recovered gamma and precision
	// = alpha gamma / eta_pu (Eq. 3, clipped to [0, 1]): [Recovery.PR].
	// The sampling noise of gamma and eta_pu enters the ratio unsmoothed,
	// and nothing makes the curve a feasible PR curve.
	PREq3 PRCurve = iota
	// PRFromROC reads the curve off Algorithm 1's recovered ROC curve
	// ([Recovery.ROC]: sorted by eta, gamma made non-decreasing): recall
	// = gamma and precision = alpha gamma / (alpha gamma + (1 - alpha) eta),
	// the precision of a classifier with those true rates on a set with
	// class prior alpha. It inherits the monotone ROC curve's regularity:
	// where the recovered eta is 0 (no negative above the threshold) the
	// precision is exactly 1.
	PRFromROC
)

// The reading of the recovered PR curve that [Recovery.Summary] and the
// aucpr measure of package experiments use by default: the precision of
// Algorithm 1's recovered ROC curve, trapezoid area. Of the four readings
// it is the one that reproduces AAAI-2017 Table 2's IR column (on the full
// reproduction: mean .062 against the paper's .064, per row within .007 on
// average; the literal Eq. 3 with average precision gives .085 and .018,
// docs/aucpr.md). It is also far closer to the truth than Eq. 3
// on nearly separable data, where eta_pu of the top thresholds is a
// ratio of a few examples.
const (
	DefaultPRCurve = PRFromROC
	DefaultPRArea  = AreaTrapezoid
)

// String returns "eq3" or "roc".
func (c PRCurve) String() string {
	switch c {
	case PREq3:
		return "eq3"
	case PRFromROC:
		return "roc"
	}
	return fmt.Sprintf("PRCurve(%d)", int(c))
}

// ParsePRCurve parses "eq3" or "roc".
func ParsePRCurve(s string) (PRCurve, error) {
	for _, c := range [...]PRCurve{PREq3, PRFromROC} {
		if s == c.String() {
			return c, nil
		}
	}
	return 0, fmt.Errorf("precision curve %q: want eq3 or roc", s)
}

// PRArea says how the area under a recovered precision-recall curve is
// summed.
type PRArea int

const (
	// AreaStep is average precision, sum_k (R_k - R_{k-1}) P_k with R_k the
	// running maximum of the recall (a recall gain counts once, at the
	// first point that reaches it): the sum package metrics uses for the
	// truth (metrics.Ranking.AveragePrecision, scikit-learn's
	// average_precision_score).
	AreaStep PRArea = iota
	// AreaTrapezoid is the trapezoid rule over the same points,
	// sum_k (R_k - R_{k-1}) (P_k + P_{k-1}) / 2, the curve starting at
	// recall 0 with its first point's precision (MATLAB's trapz over a
	// PR curve).
	AreaTrapezoid
)

// String returns "step" or "trapezoid".
func (a PRArea) String() string {
	switch a {
	case AreaStep:
		return "step"
	case AreaTrapezoid:
		return "trapezoid"
	}
	return fmt.Sprintf("PRArea(%d)", int(a))
}

// ParsePRArea parses "step" or "trapezoid".
func ParsePRArea(s string) (PRArea, error) {
	for _, a := range [...]PRArea{AreaStep, AreaTrapezoid} {
		if s == a.String() {
			return a, nil
		}
	}
	return 0, fmt.Errorf("area %q: want step or trapezoid", s)
}

// PRCurveOf returns the recovered precision-recall curve that c names
// (in descending threshold order for PREq3, in the ROC curve's order for
// PRFromROC; +Inf and the ROC curve's (0, 0) left out).
func (rc *Recovery) PRCurveOf(o Outside, c PRCurve) []metrics.PRPoint {
	if c == PREq3 {
		return rc.PR(o)
	}
	return rc.PRFromROC(rc.sharedROC(o))
}

// PRFromROC is the PRFromROC reading of a recovered ROC curve roc (as
// [Recovery.ROC] returns it, under any Outside): PRCurveOf(o, PRFromROC)
// is PRFromROC(ROC(o)). A caller that needs both curves sorts the points
// once.
func (rc *Recovery) PRFromROC(roc []metrics.ROCPoint) []metrics.PRPoint {
	if len(roc) == 0 {
		return nil
	}
	out := make([]metrics.PRPoint, 0, len(roc)-1)
	for _, p := range roc[1:] {
		out = append(out, metrics.PRPoint{Threshold: p.Threshold, Recall: p.TPR, Precision: rocPrecision(rc.alpha, p.FPR, p.TPR)})
	}
	return out
}

// rocPrecision is the PRFromROC precision of a recovered ROC point (eta,
// gamma): alpha gamma / (alpha gamma + (1 - alpha) eta), 1 where nothing
// is predicted positive.
func rocPrecision(alpha, eta, gamma float64) float64 {
	pos := float64(alpha * gamma)
	if den := pos + float64((1-alpha)*eta); den > 0 {
		return pos / den
	}
	return 1
}

// AUCPR is the recovered AUC-PR on the unlabeled set under o, with the
// curve c and the area rule a. IndirectAUCPR(o) = AUCPR(o, PREq3, AreaStep).
func (rc *Recovery) AUCPR(o Outside, c PRCurve, a PRArea) float64 {
	return prArea(rc.PRCurveOf(o, c), a)
}

// AreaUnder is the area under a recovered PR curve pts by rule a, as
// [Recovery.AUCPR] takes it: AUCPR(o, c, a) = AreaUnder(PRCurveOf(o, c), a).
func AreaUnder(pts []metrics.PRPoint, a PRArea) float64 { return prArea(pts, a) }

// prArea sums the area under pts by rule a, the recall taken as its
// running maximum (a recovered recall need not be monotone).
func prArea(pts []metrics.PRPoint, a PRArea) float64 {
	return prAreaOf(len(pts), func(i int) XY { return XY{pts[i].Recall, pts[i].Precision} }, a)
}

// prAreaOf is prArea of the n points at(0), ..., at(n-1), each (recall,
// precision).
func prAreaOf(n int, at func(int) XY, a PRArea) float64 {
	s := newPRSum(a)
	for i := range n {
		s.add(at(i))
	}
	return s.area
}

// prSum sums the area under a PR curve point by point, by its rule.
type prSum struct {
	rule             PRArea
	area, rmax, prev float64 // prev: the precision at the last recall gain; -1: none yet
}

func newPRSum(a PRArea) prSum { return prSum{rule: a, prev: -1} }

// add adds the next point (recall X, precision Y).
func (s *prSum) add(p XY) {
	if p.X <= s.rmax {
		// A vertical segment (the same recall; recalls within 1e-12
		// count as the same, since Eq. 1 gives equal recalls a few ulps
		// apart) starts the next trapezoid at its precision; a real dip
		// of the recall adds nothing.
		if s.prev >= 0 && p.X >= s.rmax-1e-12 {
			s.prev = p.Y
		}
		return
	}
	switch s.rule {
	case AreaStep:
		s.area += float64((p.X - s.rmax) * p.Y)
	case AreaTrapezoid:
		if s.prev < 0 {
			s.prev = p.Y
		}
		s.area += float64((p.X - s.rmax) * (p.Y + s.prev) / 2)
	}
	s.prev = p.Y
	s.rmax = p.X
}
