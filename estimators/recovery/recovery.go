package recovery

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/metrics"
)

// Point is one threshold of a PU sample: its PU rates and the true rates
// recovered from them.
type Point struct {
	Threshold float64 // predict positive when score >= Threshold; +Inf predicts nothing
	GammaPU   float64 // fraction of the labeled set L predicted positive
	EtaPU     float64 // fraction of the unlabeled set U predicted positive
	Theta     float64 // fraction of D = L u U predicted positive
	Gamma     float64 // recovered true positive rate, AAAI-2017 Eq. 1 (not clipped)
	Eta       float64 // recovered false positive rate, AAAI-2017 Eq. 2 (not clipped)
}

// Recovery is a ranked PU sample with alpha and beta and the recovered rates
// of every threshold. Its results do not change after [New] (the ROC curves
// it keeps are computed once, at first use); all methods are safe for
// concurrent use.
type Recovery struct {
	r           *metrics.Ranking
	alpha, beta float64
	c, pi       float64
	pts         []Point
	lastK       int // index of the lowest threshold (everything predicted positive)

	// rocs holds Algorithm 1's curve per Outside mode, computed at first
	// use: the AUC and every PR reading derived from the curve ask for it,
	// and its sort is their cost (the AAAI-2017 config asks six times per
	// recovery for two distinct curves).
	rocs [len(Outsides)]rocCache
}

// rocCache is a curve computed once; a computation stopped by its context
// leaves it empty, for the next call to compute.
type rocCache struct {
	mu   sync.Mutex
	done bool
	pts  []metrics.ROCPoint
}

// New computes the recovered rates of every threshold of r, a ranking of L u
// U with label true for the labeled examples (metrics.Rank(scores, labeled)),
// for the proportion alpha of positives in U and beta in L. It is O(number of
// thresholds). It returns an error when beta - alpha <= 0 or alpha, beta are
// not proportions (wrapping [ErrPriors]), or r is nil.
func New(r *metrics.Ranking, alpha, beta float64) (*Recovery, error) {
	return NewContext(context.Background(), r, alpha, beta)
}

// NewContext is [New] stopped by ctx (asked every interrupt.Every
// thresholds: 10^7 of them take about 0.3 s), with an error wrapping ctx's
// cause.
func NewContext(ctx context.Context, r *metrics.Ranking, alpha, beta float64) (*Recovery, error) {
	if r == nil {
		return nil, errors.New("recovery: nil ranking")
	}
	if err := CheckPriors(alpha, beta); err != nil {
		return nil, err
	}
	n := float64(r.N())
	c := float64(r.Positives()) / n
	rc := &Recovery{r: r, alpha: alpha, beta: beta, c: c, pi: float64(c*beta) + float64((1-c)*alpha), lastK: r.Len() - 1}
	rc.pts = make([]Point, r.Len())
	tick := interrupt.New(ctx)
	for k := range rc.pts {
		if err := tick.Tick(); err != nil {
			return nil, fmt.Errorf("recovery: %d thresholds: %w", len(rc.pts), err)
		}
		cm := r.Confusion(k)
		gpu, epu := r.TPR(k), r.FPR(k)
		g, e := recoverRates(gpu, epu, alpha, beta)
		rc.pts[k] = Point{
			Threshold: r.Threshold(k), GammaPU: gpu, EtaPU: epu,
			Theta: float64(cm.TP+cm.FP) / n, Gamma: g, Eta: e,
		}
	}
	return rc, nil
}

// Alpha is the proportion of positives in the unlabeled set used for recovery.
func (rc *Recovery) Alpha() float64 { return rc.alpha }

// Beta is the proportion of positives in the labeled set used for recovery.
func (rc *Recovery) Beta() float64 { return rc.beta }

// C is the proportion of labeled examples, |L| / (|L| + |U|).
func (rc *Recovery) C() float64 { return rc.c }

// Pi is the proportion of positives in D = L u U, c beta + (1-c) alpha (PSB-2019 Eq. 11).
func (rc *Recovery) Pi() float64 { return rc.pi }

// Ranking is the PU ranking the recovery was built from (labeled = positive).
func (rc *Recovery) Ranking() *metrics.Ranking { return rc.r }

// Len is the number of thresholds, as metrics.Ranking.Len.
func (rc *Recovery) Len() int { return len(rc.pts) }

// Point returns threshold k (0 = +Inf, then the distinct scores descending).
func (rc *Recovery) Point(k int) Point { return rc.pts[k] }

// Points returns a copy of every threshold's point, in ranking order.
func (rc *Recovery) Points() []Point { return slices.Clone(rc.pts) }

// Rates returns the recovered population rates of threshold k (gamma and eta
// by Eqs. 1-2, pi by Eq. 11, theta measured on D), from which [Measure.Of]
// gives the recovered acc, bacc, F1 and mcc (PSB-2019 Eqs. 12-15).
func (rc *Recovery) Rates(k int) Rates {
	p := rc.pts[k]
	return Rates{Gamma: p.Gamma, Eta: p.Eta, Pi: rc.pi, Theta: p.Theta}
}

// PURates returns the PU rates of threshold k in the same form (gamma_pu,
// eta_pu, c, theta): [Measure.Of] on them gives the uncorrected PU values,
// which equal the confusion-matrix values of package metrics on the PU labels.
func (rc *Recovery) PURates(k int) Rates {
	p := rc.pts[k]
	return Rates{Gamma: p.GammaPU, Eta: p.EtaPU, Pi: rc.c, Theta: p.Theta}
}

// DirectAUC is the direct recovery (AAAI-2017 Eq. 4, clipped to [0, 1]) of
// the PU AUC of the ranking. alpha and beta were checked by [New].
func (rc *Recovery) DirectAUC() float64 {
	return clamp(eq4(rc.r.AUC(), rc.alpha, rc.beta), 0, 1)
}

// ROC returns the recovered ROC curve of AAAI-2017 Algorithm 1: the points
// (eta, gamma) of Eqs. 1-2 at every threshold, those outside [0,1]^2 dropped
// or clipped as o says, sorted by eta ascending (then gamma ascending, then
// threshold descending, so the order is total), gamma made non-decreasing by
// a running maximum, between (0,0) (threshold +Inf) and (1,1) (the lowest
// score), which are the exact recovered values of those two thresholds. Each
// point keeps the threshold it was recovered at; after sorting the thresholds
// need not be monotone. O(K log K) at the first call per mode; the curve is
// kept, and later calls (and the areas read off it) cost a copy at most.
//
// Etas that differ only by rounding count as equal (see [tieTolerance]): where
// two thresholds have the same eta in exact arithmetic (common: with alpha =
// 0.3, beta = 0.9, |L| = 2,000, |U| = 20,000, any two thresholds 3 labeled and
// 10 unlabeled examples apart do), rounding could put the higher gamma first,
// and the running maximum would then lift the lower point and add area that
// the exact curve does not have (the vertical segment must be entered at its
// lowest gamma). So after sorting, every maximal run of points whose
// consecutive etas differ by at most the tolerance takes the run's smallest
// eta and is ordered by gamma ascending.
func (rc *Recovery) ROC(o Outside) []metrics.ROCPoint {
	return slices.Clone(rc.sharedROC(o))
}

// PrepareROC computes the curve of [Recovery.ROC] under o, which the
// areas and PR readings of o share, and keeps it, stopped by ctx: its sort
// and loops ask ctx every interrupt.Every points (10^7 thresholds take
// about 2 s), and a stopped computation keeps nothing. Later calls under o
// read the kept curve. An unknown o is an error.
func (rc *Recovery) PrepareROC(ctx context.Context, o Outside) error {
	if o < 0 || int(o) >= len(rc.rocs) {
		return fmt.Errorf("recovery: unknown outside mode %d", o)
	}
	_, err := rc.cachedROC(ctx, o)
	return err
}

// sharedROC is [Recovery.ROC] without the copy, for the package's readers
// of the curve, which do not modify it.
func (rc *Recovery) sharedROC(o Outside) []metrics.ROCPoint {
	if o < 0 || int(o) >= len(rc.rocs) {
		pts, _ := rc.roc(context.Background(), o)
		return pts
	}
	pts, _ := rc.cachedROC(context.Background(), o)
	return pts
}

// cachedROC returns the kept curve under o, computing it when it is not.
func (rc *Recovery) cachedROC(ctx context.Context, o Outside) ([]metrics.ROCPoint, error) {
	c := &rc.rocs[o]
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.done {
		pts, err := rc.roc(ctx, o)
		if err != nil {
			return nil, err
		}
		c.pts, c.done = pts, true
	}
	return c.pts, nil
}

// roc computes the curve of [Recovery.ROC], stopped by ctx. The sort's
// order is total (the thresholds are distinct), so it is the one order of
// the points whatever sorts them.
func (rc *Recovery) roc(ctx context.Context, o Outside) ([]metrics.ROCPoint, error) {
	stopped := func(err error) error { return fmt.Errorf("recovery: ROC curve of %d thresholds: %w", len(rc.pts), err) }
	tick := interrupt.New(ctx)
	out := make([]metrics.ROCPoint, 1, len(rc.pts))
	out[0] = metrics.ROCPoint{Threshold: math.Inf(1)}
	for k := 1; k < rc.lastK; k++ {
		p := rc.pts[k]
		if e, g, ok := o.apply(p.Eta, p.Gamma); ok {
			out = append(out, metrics.ROCPoint{Threshold: p.Threshold, FPR: e, TPR: g})
		}
		if err := tick.Tick(); err != nil {
			return nil, stopped(err)
		}
	}
	byGamma := func(a, b metrics.ROCPoint) int {
		return cmp.Or(cmp.Compare(a.TPR, b.TPR), cmp.Compare(b.Threshold, a.Threshold))
	}
	pts := out[1:]
	byEta := func(a, b metrics.ROCPoint) int { return cmp.Or(cmp.Compare(a.FPR, b.FPR), byGamma(a, b)) }
	if err := sortByKey(ctx, &bucketSorter{}, pts, func(p metrics.ROCPoint) float64 { return p.FPR }, byEta); err != nil {
		return nil, stopped(err)
	}
	tol := tieTolerance(rc.alpha, rc.beta)
	for i := 0; i < len(pts); {
		if err := tick.Tick(); err != nil {
			return nil, stopped(err)
		}
		j := i + 1
		for j < len(pts) && pts[j].FPR-pts[j-1].FPR <= tol {
			j++
		}
		if j-i > 1 {
			run := pts[i:j]
			eta := run[0].FPR
			slices.SortFunc(run, byGamma)
			for r := range run {
				run[r].FPR = eta
			}
		}
		i = j
	}
	out = append(out, metrics.ROCPoint{Threshold: rc.pts[rc.lastK].Threshold, FPR: 1, TPR: 1})
	for i := 1; i < len(out); i++ {
		out[i].TPR = max(out[i].TPR, out[i-1].TPR)
	}
	return out, nil
}

// tieTolerance is how close two recovered etas must be to count as equal in
// Algorithm 1: 1e-12 / (beta - alpha). Eq. 2 evaluated in float64 is within
// about 8e-16 / (beta - alpha) of its exact value, and alpha, beta themselves
// carry a relative representation error of 1e-16 that moves eta by about as
// much, so etas equal in exact arithmetic land well within the tolerance;
// genuinely different etas of a sample differ by multiples of about
// 1 / (|L| |U| (beta - alpha)), far more for any sample that fits in memory.
func tieTolerance(alpha, beta float64) float64 { return 1e-12 / (beta - alpha) }

// IndirectAUC is the trapezoid area under [Recovery.ROC] (AAAI-2017
// Algorithm 1; IR/IE in the paper's tables).
func (rc *Recovery) IndirectAUC(o Outside) float64 {
	return metrics.TrapezoidAUC(rc.sharedROC(o))
}

// PR returns the recovered precision-recall curve on the unlabeled set: at
// every threshold that Algorithm 1 keeps under o (in descending threshold
// order, +Inf left out as in metrics.Ranking.PR), recall = recovered gamma
// (clipped into [0,1] under Clip) and precision = alpha gamma / eta_pu
// (AAAI-2017 Eq. 3) clipped to [0, 1] ([Precision]). The lowest threshold is
// always kept with its exact recovered value (recall 1, precision alpha).
// The recall need not be monotone; [Recovery.IndirectAUCPR] handles that.
func (rc *Recovery) PR(o Outside) []metrics.PRPoint {
	out := make([]metrics.PRPoint, 0, len(rc.pts)-1)
	for k := 1; k < rc.lastK; k++ {
		p := rc.pts[k]
		if _, g, ok := o.apply(p.Eta, p.Gamma); ok {
			out = append(out, metrics.PRPoint{Threshold: p.Threshold, Recall: g, Precision: Precision(rc.alpha, g, p.EtaPU)})
		}
	}
	return append(out, metrics.PRPoint{Threshold: rc.pts[rc.lastK].Threshold, Recall: 1, Precision: rc.alpha})
}

// IndirectAUCPR is the recovered AUC-PR on the unlabeled set (AAAI-2017,
// indirect only): the average precision sum_k (R_k - R_{k-1}) P_k over
// [Recovery.PR], with R_k the running maximum of the recall, so a recall gain
// is counted once, at the first threshold that reaches it.
func (rc *Recovery) IndirectAUCPR(o Outside) float64 {
	var ap, rmax float64
	for _, p := range rc.PR(o) {
		if p.Recall > rmax {
			ap += (p.Recall - rmax) * p.Precision
			rmax = p.Recall
		}
	}
	return ap
}

// Value returns the recovered measure m at threshold k (PSB-2019 Eqs. 12-15),
// clipped to [Measure.Range].
func (rc *Recovery) Value(m Measure, k int) float64 { return m.Clip(m.Of(rc.Rates(k))) }

// Max returns the maximum over thresholds of the recovered measure m
// (PSB-2019 Eqs. 12-15) and the threshold that attains it. The arg-max is
// taken on the unclipped values and the value then clipped to
// [Measure.Range] (see the package documentation for why). Ties go to the
// highest threshold, as in metrics.Ranking.Max; values within
// [tieTolerance] of the maximum tie, because values equal in exact arithmetic
// come out of Eqs. 1-2 differing by rounding. O(K): one pass for the maximum,
// one for the highest threshold that reaches it.
func (rc *Recovery) Max(m Measure) metrics.Optimum {
	top, best := math.Inf(-1), -1
	for k := range rc.pts {
		if v := m.Of(rc.Rates(k)); v > top {
			top, best = v, k
		}
	}
	if best < 0 { // every value NaN: only an invalid Measure gets here
		return metrics.Optimum{Value: math.NaN(), Threshold: math.Inf(1)}
	}
	tol := tieTolerance(rc.alpha, rc.beta)
	for k := range best {
		if m.Of(rc.Rates(k)) >= top-tol {
			best = k
			break
		}
	}
	return metrics.Optimum{Value: m.Clip(m.Of(rc.Rates(best))), Threshold: rc.pts[best].Threshold}
}

// PUMax is the maximum over thresholds of the uncorrected measure (labeled
// read as positive, unlabeled as negative), metrics.Ranking.Max of
// m.Metric() on the PU ranking.
func (rc *Recovery) PUMax(m Measure) metrics.Optimum { return rc.r.Max(m.Metric()) }

// DirectBalancedAccuracy is PSB-2019 Theorem 2.1's balanced accuracy at
// threshold k, recovered directly from the PU confusion matrix's balanced
// accuracy ([DirectBalancedAccuracy]); not clipped. It equals
// BalancedAccuracy.Of(rc.Rates(k)) up to rounding.
func (rc *Recovery) DirectBalancedAccuracy(k int) float64 {
	bpu := rc.r.Confusion(k).BalancedAccuracy()
	return (2*bpu-1)/(2*(rc.beta-rc.alpha)) + 0.5
}

// DirectMCC is PSB-2019 Theorem 2.1's MCC at threshold k, recovered directly
// from the PU confusion matrix's MCC ([DirectMCC]); not clipped. It equals
// MCC.Of(rc.Rates(k)) up to rounding.
func (rc *Recovery) DirectMCC(k int) float64 {
	return directMCC(rc.r.Confusion(k).MCC(), rc.c, rc.pi, rc.beta-rc.alpha)
}

// Summary is what `pueval correct` reports: the PU and recovered areas and
// the best threshold metrics.
type Summary struct {
	Alpha, Beta float64
	C, Pi       float64 // |L|/(|L|+|U|) and c beta + (1-c) alpha
	Outside     Outside // how IndirectAUC and IndirectAUCPR treated points outside [0,1]^2
	AUC         AUCs
	AUCPR       AUCPRs
	Acc         Optima
	BAcc        Optima
	F1          Optima
	MCC         Optima
}

// AUCs are the PU AUC (labeled vs unlabeled) and its direct (Eq. 4) and
// indirect (Algorithm 1) recoveries.
type AUCs struct{ PU, Direct, Indirect float64 }

// AUCPRs are the PU AUC-PR (average precision of labeled vs unlabeled) and
// its indirect recovery on the unlabeled set (the default reading:
// DefaultPRCurve, DefaultPRArea).
type AUCPRs struct{ PU, Indirect float64 }

// Optima are the maximum of a threshold metric over thresholds, uncorrected
// (PU) and recovered, each with the threshold that attains it.
type Optima struct{ PU, Recovered metrics.Optimum }

// Optima returns the field of s for measure m.
func (s Summary) Optima(m Measure) Optima {
	switch m {
	case Accuracy:
		return s.Acc
	case BalancedAccuracy:
		return s.BAcc
	case F1:
		return s.F1
	case MCC:
		return s.MCC
	}
	return Optima{}
}

// Summary computes every number of a [Summary], with Algorithm 1 under o.
// It returns an error only for an invalid o.
func (rc *Recovery) Summary(o Outside) (Summary, error) {
	if o != Drop && o != Clip {
		return Summary{}, fmt.Errorf("recovery: invalid Outside(%d)", int(o))
	}
	s := Summary{
		Alpha: rc.alpha, Beta: rc.beta, C: rc.c, Pi: rc.pi, Outside: o,
		AUC:   AUCs{PU: rc.r.AUC(), Direct: rc.DirectAUC(), Indirect: rc.IndirectAUC(o)},
		AUCPR: AUCPRs{PU: rc.r.AveragePrecision(), Indirect: rc.AUCPR(o, DefaultPRCurve, DefaultPRArea)},
	}
	opt := func(m Measure) Optima { return Optima{PU: rc.PUMax(m), Recovered: rc.Max(m)} }
	s.Acc, s.BAcc, s.F1, s.MCC = opt(Accuracy), opt(BalancedAccuracy), opt(F1), opt(MCC)
	return s, nil
}
