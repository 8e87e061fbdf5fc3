package recovery

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/metrics"
)

// Tally is a PU sample over fixed thresholds: L[k] labeled and U[k]
// unlabeled examples score at threshold k of a metrics.Ranking (k = 0 is
// +Inf and holds none; then the distinct scores, descending). A threshold
// with no example is not one of the sample's own. A bootstrap resample of
// the ranking's examples is such a tally, with the ranking's scores and
// new counts: it needs no sort.
type Tally struct {
	L, U []uint32
	// NL and NU are the sums of L and U.
	NL, NU int
}

// TallyOf returns the tally of r's own examples, its positives counted as
// labeled: Recover on it gives the numbers of New(r, ...). It is an error
// when r has 2^32 examples or more (the counts are uint32).
func TallyOf(r *metrics.Ranking) (Tally, error) {
	if uint64(r.N()) > math.MaxUint32 {
		return Tally{}, fmt.Errorf("recovery: tally of %d examples: at most %d", r.N(), uint64(math.MaxUint32))
	}
	t := Tally{L: make([]uint32, r.Len()), U: make([]uint32, r.Len()), NL: r.Positives(), NU: r.Negatives()}
	prev := r.Confusion(0)
	for k := 1; k < r.Len(); k++ {
		c := r.Confusion(k)
		t.L[k], t.U[k] = uint32(c.TP-prev.TP), uint32(c.FP-prev.FP)
		prev = c
	}
	return t, nil
}

// XY is a point of a curve: (FPR, TPR) on a ROC curve, (recall,
// precision) on a PR curve.
type XY struct{ X, Y float64 }

// Best is the maximum of a measure over the thresholds and the threshold
// that attains it (its index k in the tally; 0 is +Inf).
type Best struct {
	Value float64
	K     int
}

// Numbers are what [Workspace.Recover] computes: for a [New] of the
// ranking the tally counts, under the same alpha, beta and Outside o,
// they equal its Pi, IndirectAUC(o), DirectAUC(), AUCPR(o,
// DefaultPRCurve, DefaultPRArea) and Max of every measure (the value, and
// the threshold's index), bit for bit.
type Numbers struct {
	Alpha, Beta, Pi    float64
	AUC, Direct, AUCPR float64
	Max                [len(Measures)]Best // in the order of Measures
	// ROC is Algorithm 1's curve, [Recovery.ROC](o) without the
	// thresholds. It is the workspace's memory: valid until its next
	// Recover.
	ROC []XY
}

// PR returns point i of the PR curve read off n.ROC (the PRFromROC
// reading: [Recovery.PRFromROC] of the ROC curve), i = 0 ..
// len(n.ROC)-2: the recall and precision of ROC point i+1.
func (n *Numbers) PR(i int) XY {
	p := n.ROC[i+1]
	return XY{p.Y, rocPrecision(n.Alpha, p.X, p.Y)}
}

// Workspace computes the numbers of a recovery from a [Tally] in O(K)
// time (K thresholds) and memory it keeps from call to call: 16 bytes a
// threshold for the curve and 1 for its sort, where a [Recovery] holds 48
// for its points and 24 for each curve. It is for the bootstrap, which
// recovers a resample of the same thresholds hundreds of times. A
// Workspace is not safe for concurrent use; its zero value is ready.
type Workspace struct {
	roc    []XY
	sorter bucketSorter
	near   [len(Measures)][]nearTop
}

// nearTop is a threshold whose value lies within the tie tolerance of the
// largest value so far.
type nearTop struct {
	v float64
	k int
}

// Recover computes the numbers of the tally t under alpha, beta and o:
// one pass over the thresholds, then the sort of Algorithm 1's curve and
// one pass over it. It asks ctx every interrupt.Every thresholds. An
// unusable alpha and beta (wrapping [ErrPriors]), an unknown o and a
// tally whose counts do not add up are errors.
func (w *Workspace) Recover(ctx context.Context, t Tally, alpha, beta float64, o Outside) (Numbers, error) {
	if err := checkTally(t, alpha, beta, o); err != nil {
		return Numbers{}, err
	}
	num := Numbers{Alpha: alpha, Beta: beta, Pi: piOf(t.NL, t.NU, alpha, beta)}
	twice, err := w.pass(ctx, t, &num, o)
	if err != nil {
		return Numbers{}, err
	}
	num.Direct = clamp(eq4(float64(twice)/(2*float64(t.NL)*float64(t.NU)), alpha, beta), 0, 1)
	if err := w.finishROC(ctx, &num); err != nil {
		return Numbers{}, err
	}
	return num, nil
}

// checkTally checks Recover's arguments.
func checkTally(t Tally, alpha, beta float64, o Outside) error {
	if err := CheckPriors(alpha, beta); err != nil {
		return err
	}
	switch {
	case o != Drop && o != Clip:
		return fmt.Errorf("recovery: invalid Outside(%d)", int(o))
	case len(t.L) != len(t.U) || len(t.L) == 0:
		return fmt.Errorf("recovery: tally of %d labeled and %d unlabeled counts: want as many of each, threshold +Inf included", len(t.L), len(t.U))
	case t.L[0] != 0 || t.U[0] != 0:
		return fmt.Errorf("recovery: tally: %d labeled and %d unlabeled examples at threshold +Inf, want none", t.L[0], t.U[0])
	case t.NL <= 0 || t.NU <= 0:
		return fmt.Errorf("recovery: tally of %d labeled and %d unlabeled examples: %w", t.NL, t.NU, metrics.ErrOneClass)
	}
	return nil
}

// pass walks the thresholds once: the measures' maxima into num.Max, the
// recovered points Algorithm 1 keeps under o into w.roc (after its (0,
// 0)), and it returns twice the PU AUC's numerator, as
// metrics.Ranking.AUC sums it.
func (w *Workspace) pass(ctx context.Context, t Tally, num *Numbers, o Outside) (int64, error) {
	alpha, beta := num.Alpha, num.Beta
	n, fL, fU := float64(t.NL+t.NU), float64(t.NL), float64(t.NU)
	w.roc = append(grow(w.roc, len(t.L)+1)[:0], XY{}) // room for every point and (1, 1)
	var m maxima
	m.start(w, tieTolerance(alpha, beta))
	m.visit(0, Rates{Pi: num.Pi}) // +Inf: Eqs. 1-2 of (0, 0) are (0, 0)
	var tp, fp int
	var twice int64
	tick := interrupt.New(ctx)
	k := 1
	for ; k < len(t.L); k++ {
		if err := tick.Tick(); err != nil {
			return 0, fmt.Errorf("recovery: %d thresholds: %w", len(t.L), err)
		}
		l, u := int(t.L[k]), int(t.U[k])
		if l+u == 0 {
			continue
		}
		twice += int64(u) * int64(2*tp+l)
		tp, fp = tp+l, fp+u
		g, e := recoverRates(float64(tp)/fL, float64(fp)/fU, alpha, beta)
		m.visit(k, Rates{Gamma: g, Eta: e, Pi: num.Pi, Theta: float64(tp+fp) / n})
		if tp >= t.NL && fp >= t.NU {
			break // the lowest threshold: Algorithm 1 adds it as (1, 1)
		}
		if x, y, ok := o.apply(e, g); ok {
			w.roc = append(w.roc, XY{x, y})
		}
	}
	if err := tallyAddsUp(t, tp, fp, k); err != nil {
		return 0, err
	}
	num.Max = m.best()
	return twice, nil
}

// tallyAddsUp checks that the counts up to threshold k sum to t.NL and
// t.NU and that none follows.
func tallyAddsUp(t Tally, tp, fp, k int) error {
	if tp == t.NL && fp == t.NU && !slices.ContainsFunc(t.L[min(k+1, len(t.L)):], func(c uint32) bool { return c != 0 }) &&
		!slices.ContainsFunc(t.U[min(k+1, len(t.U)):], func(c uint32) bool { return c != 0 }) {
		return nil
	}
	var sl, su int
	for k := range t.L {
		sl, su = sl+int(t.L[k]), su+int(t.U[k])
	}
	return fmt.Errorf("recovery: tally counts sum to %d labeled and %d unlabeled, not %d and %d", sl, su, t.NL, t.NU)
}

// finishROC sorts w.roc[1:] as [Recovery.ROC] does (by eta, then gamma;
// runs of etas within the tie tolerance take the run's smallest eta,
// gamma ascending), adds (1, 1) and makes gamma non-decreasing, and sums
// the areas under the curve and under the PR curve read off it into num,
// in the one pass that does the runs. The thresholds that break
// [Recovery.ROC]'s ties are left out: they order only points equal in
// both coordinates.
func (w *Workspace) finishROC(ctx context.Context, num *Numbers) error {
	if err := w.sorter.sortXY(ctx, w.roc[1:]); err != nil {
		return fmt.Errorf("recovery: ROC curve of %d points: %w", len(w.roc)-1, err)
	}
	w.roc = append(w.roc, XY{1, 1}) // a run of its own: its eta is 1, beyond any other
	pts, alpha := w.roc, num.Alpha
	tol := tieTolerance(alpha, num.Beta)
	var auc float64
	pr := newPRSum(DefaultPRArea)
	last := pts[0]
	for i := 1; i < len(pts); {
		j := i + 1
		for j < len(pts)-1 && pts[j].X-pts[j-1].X <= tol {
			j++
		}
		if j-i > 1 {
			run := pts[i:j]
			eta := run[0].X
			sortY(run) // X differs only within the tolerance
			for r := range run {
				run[r].X = eta
			}
		}
		for ; i < j; i++ {
			p := &pts[i]
			p.Y = max(p.Y, last.Y)
			auc += float64((p.X - last.X) * (p.Y + last.Y) / 2) // as metrics.TrapezoidAUC
			pr.add(XY{p.Y, rocPrecision(alpha, p.X, p.Y)})
			last = *p
		}
	}
	num.ROC, num.AUC, num.AUCPR = pts, auc, pr.area
	return interrupt.Check(ctx)
}

// sortY sorts points by Y.
func sortY(pts []XY) {
	if len(pts) > bigBucket {
		slices.SortFunc(pts, func(a, b XY) int { return cmp.Compare(a.Y, b.Y) })
		return
	}
	for i := 1; i < len(pts); i++ {
		for j := i; j > 0 && pts[j].Y < pts[j-1].Y; j-- {
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
}

// maxima finds every measure's maximum over the thresholds in one pass,
// with [Recovery.Max]'s tie rule: the highest threshold (lowest k) whose
// value is within the tie tolerance of the maximum. That threshold's value
// exceeds every value before it, so it was the largest so far when it came:
// each measure keeps, in order, the thresholds that were, while they lie
// within the tolerance of the largest value.
type maxima struct {
	near  *[len(Measures)][]nearTop
	top   [len(Measures)]float64
	found [len(Measures)]bool
	tol   float64
}

func (m *maxima) start(w *Workspace, tol float64) {
	m.near, m.tol = &w.near, tol
	for i := range m.near {
		m.near[i] = m.near[i][:0]
		m.top[i] = math.Inf(-1)
	}
}

// visit counts threshold k with recovered rates x: Measure.Of of each
// measure in the order of Measures, written out (it is the loop of every
// resample; TestWorkspaceIsRecovery checks the order). Each value is
// rounded (float64) before raise subtracts the tolerance from it: arm64
// would fuse the product that ends a measure (bacc's halving, mcc's last
// factor) with that subtraction.
func (m *maxima) visit(k int, x Rates) {
	if v := x.Accuracy(); v > m.top[0] {
		m.raise(0, float64(v), k)
	}
	if v := x.BalancedAccuracy(); v > m.top[1] {
		m.raise(1, float64(v), k)
	}
	if top := m.top[2]; !(top > 0) || !belowF1(x, top) {
		if v := x.F1(); v > top {
			m.raise(2, float64(v), k)
		}
	}
	if top := m.top[3]; !(top > 0) || !belowMCC(x, top) {
		if v := x.MCC(); v > top {
			m.raise(3, float64(v), k)
		}
	}
}

// skipMargin is the relative margin by which belowF1 and belowMCC want a
// value below the top: far above the few roundings between their
// products and the measure's own divisions and square root (each within
// 2^-53 relative), so that a value they pass over is below the top as
// computed, and far below the gaps that matter.
const skipMargin = 1e-9

// belowF1 reports, without F1's division, that x.F1() is below top > 0:
// 2 pi gamma < top (pi + theta) (1 - skipMargin).
func belowF1(x Rates, top float64) bool {
	d := x.Pi + x.Theta
	return d > 0 && 2*x.Pi*x.Gamma < float64(float64(top*d)*(1-skipMargin))
}

// belowMCC reports, without MCC's division and square root, that
// x.MCC() is below top > 0: gamma <= eta (an MCC of 0 or less), theta
// in {0, 1} (an MCC of 0), or (gamma - eta)^2 pi (1 - pi) < top^2
// theta (1 - theta) (1 - skipMargin).
func belowMCC(x Rates, top float64) bool {
	d := x.Theta * (1 - x.Theta)
	diff := x.Gamma - x.Eta
	if d <= 0 || diff <= 0 {
		return true
	}
	return float64(diff*diff)*float64(x.Pi*(1-x.Pi)) < float64(float64(float64(top*top)*d)*(1-skipMargin))
}

// raise makes v, at threshold k, measure i's largest value so far.
func (m *maxima) raise(i int, v float64, k int) {
	m.top[i], m.found[i] = v, true
	keep := m.near[i][:0]
	for _, p := range m.near[i] {
		if p.v >= v-m.tol {
			keep = append(keep, p)
		}
	}
	m.near[i] = append(keep, nearTop{v, k})
}

// best returns every measure's maximum, clipped to its range (NaN at
// +Inf when no value exceeded -Inf, as [Recovery.Max]).
func (m *maxima) best() [len(Measures)]Best {
	var b [len(Measures)]Best
	for i, me := range Measures {
		if !m.found[i] {
			b[i] = Best{Value: math.NaN()}
			continue
		}
		p := m.near[i][0]
		b[i] = Best{Value: me.Clip(p.v), K: p.k}
	}
	return b
}
