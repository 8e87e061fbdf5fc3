package bounds

import (
	"errors"
	"fmt"
)

// ErrNoKnownNegative is returned by [Ranking.NegativeBounds] for a ranking
// without known negatives.
var ErrNoKnownNegative = errors.New("bounds: no known negative (negative-based bounds need the rank CDF of the known negatives)")

// Interval is a closed interval [Low, High].
type Interval struct{ Low, High float64 }

// PointInterval is the interval [x, x]: a known beta.
func PointInterval(x float64) Interval { return Interval{x, x} }

// Width is High - Low.
func (i Interval) Width() float64 { return i.High - i.Low }

// Contains reports whether Low <= x <= High.
func (i Interval) Contains(x float64) bool { return i.Low <= x && x <= i.High }

// Tighter returns the narrower of a and b (a when they are equally wide):
// App. C reports, of the positive-based and the negative-based bounds,
// whichever is tighter. A reversed interval (Low > High) is never the
// tighter of a well-ordered one.
func Tighter(a, b Interval) Interval {
	switch {
	case a.Low > a.High && b.Low <= b.High:
		return b
	case b.Low > b.High && a.Low <= a.High:
		return a
	case b.Width() < a.Width():
		return b
	}
	return a
}

// Bounds are the lower and upper curves of one ranking, band and beta
// interval, with their areas.
type Bounds struct {
	// Beta is the interval of beta, the fraction of positives among the
	// unlabeled instances, the curves assume. For positive-based bounds
	// Lower comes from its Low end and Upper from its High end (Lemma 4); for
	// negative-based ones see [Ranking.NegativeBounds].
	Beta Interval
	// Lower and Upper are the lower and upper curves; AUC is their ROC
	// areas: Lower.AUC(), Upper.AUC().
	Lower, Upper Curve
	// LowerPR and UpperPR are the curves whose PR areas are AUPR:
	// LowerPR.AUPR(), UpperPR.AUPR(). They are Lower and Upper except for
	// negative-based bounds over an interval ([Ranking.NegativeBounds]).
	LowerPR, UpperPR Curve
	AUC, AUPR        Interval
	// FromNegatives marks bounds built from the rank CDF of the known
	// negatives (App. C).
	FromNegatives bool
}

// checkInterval refuses a beta interval that is not 0 <= Low <= High < 1.
func checkInterval(beta Interval) error {
	if err := checkBeta(beta.Low); err != nil {
		return err
	}
	if err := checkBeta(beta.High); err != nil {
		return err
	}
	if beta.Low > beta.High {
		return fmt.Errorf("bounds: beta interval [%v, %v] is reversed: %w", beta.Low, beta.High, ErrBeta)
	}
	return nil
}

// Bounds returns the ROC and PR bounds for beta in an interval (paper Sec. 5
// and Lemma 4), with [Rounded] counting: the lower curve is
// the lower tables at beta.Low, the upper curve the upper tables at
// beta.High. For a known beta pass [PointInterval](beta). band bounds the
// rank CDF of the known positives ([Ranking.Bootstrap], [Ranking.DKW],
// [Ranking.ECDF] for the point estimate, or a stored band).
//
// Lemma 4 makes the interval's ends valid bounds when the ranking is better
// than random (the PU AUC above 1/2); on a worse ranking a larger beta lowers
// the curves, and the lower AUC can exceed the upper one.
func (r *Ranking) Bounds(band Band, beta Interval) (Bounds, error) {
	if err := checkInterval(beta); err != nil {
		return Bounds{}, err
	}
	return r.bounds(band, beta)
}

func (r *Ranking) bounds(band Band, beta Interval) (Bounds, error) {
	lower, upper, err := r.tables(band, beta.Low, Rounded)
	if err != nil {
		return Bounds{}, err
	}
	if beta.High != beta.Low {
		if _, upper, err = r.tables(band, beta.High, Rounded); err != nil {
			return Bounds{}, err
		}
	}
	return newBounds(beta, lower, upper, false), nil
}

func newBounds(beta Interval, lower, upper Curve, neg bool) Bounds {
	return Bounds{
		Beta: beta, Lower: lower, Upper: upper, LowerPR: lower, UpperPR: upper,
		AUC:           Interval{lower.AUC(), upper.AUC()},
		AUPR:          Interval{lower.AUPR(), upper.AUPR()},
		FromNegatives: neg,
	}
}

// NegativeBounds returns the bounds built from the rank CDF of the known
// negatives (App. C): the known labels are flipped
// ([Ranking.Flip]), the tables are built at beta' = 1 - beta (the fraction
// of negatives among the unlabeled), every table is mapped back (TP <-> FP,
// FN <-> TN) and lower and upper swap, since the fewest latent negatives
// above a cut-off make the highest curve. band bounds the rank CDF of the
// known negatives: build it on r.Flip(). An error wrapping
// [ErrNoKnownNegative] when there is none.
//
// Over an interval, each bound is the more extreme of its values at the two
// ends, area by area: the lower AUC is the smaller of the lower curves' AUC
// at beta.Low and at beta.High, and so on. Lemma 4's rule (lower curve at
// Low, upper at High) does not carry over. For the AUC the ends swap (App.
// C: "overestimating beta leads to underestimated bounds"): at a cut-off
// where the negatives' rank CDF is T_N the FPR is T_N whatever beta, and the
// TPR, (r + 1 - |head(N_L)| - T_N (1 - beta)|U|) / (|P_L| + beta |U|), has
// the derivative |U| (T_N - TPR) / (|P_L| + beta |U|) in beta, negative
// wherever the ranking is better than random. The precision, (r + 1 - FP) /
// (r + 1), rises with beta instead, so the AUPR can move either way (on the
// shared simulated rankings it rises, falls, or dips and rises). The
// curves of the AUC bounds are Lower and Upper, those of the AUPR bounds
// LowerPR and UpperPR.
func (r *Ranking) NegativeBounds(band Band, beta Interval) (Bounds, error) {
	if err := checkInterval(beta); err != nil {
		return Bounds{}, err
	}
	if r.nNeg == 0 {
		return Bounds{}, ErrNoKnownNegative
	}
	// On the flipped ranking the upper tables (the most latent negatives
	// above each cut-off) become the lower curve, and the lower tables the
	// upper one.
	f := r.Flip()
	ends := func(b float64) (lower, upper Curve, err error) {
		fl, fu, err := f.tables(band, 1-b, Rounded)
		return fu.flip(), fl.flip(), err
	}
	lower, upper, err := ends(beta.Low)
	if err != nil {
		return Bounds{}, err
	}
	b := newBounds(beta, lower, upper, true)
	if beta.High == beta.Low {
		return b, nil
	}
	lower, upper, err = ends(beta.High)
	if err != nil {
		return Bounds{}, err
	}
	if a := lower.AUC(); a < b.AUC.Low {
		b.Lower, b.AUC.Low = lower, a
	}
	if a := upper.AUC(); a > b.AUC.High {
		b.Upper, b.AUC.High = upper, a
	}
	if a := lower.AUPR(); a < b.AUPR.Low {
		b.LowerPR, b.AUPR.Low = lower, a
	}
	if a := upper.AUPR(); a > b.AUPR.High {
		b.UpperPR, b.AUPR.High = upper, a
	}
	return b, nil
}
