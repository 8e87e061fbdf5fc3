package bounds

import (
	"context"
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
	// unlabeled instances, the curves assume.
	Beta Interval
	// Lower and Upper are the lower and upper curves; AUC is their ROC
	// areas: Lower.AUC(), Upper.AUC().
	Lower, Upper Curve
	// LowerPR and UpperPR are the curves whose PR areas are AUPR:
	// LowerPR.AUPR(), UpperPR.AUPR(). Over an interval they can be built at
	// other betas than Lower and Upper.
	LowerPR, UpperPR Curve
	AUC, AUPR        Interval
	// At holds the beta (in Beta) at which each of the four curves is
	// built: for [Ranking.Bounds] and [Ranking.NegativeBounds] the one whose
	// curve gives the extreme area (to within 1/|U|; for the positive-based
	// bounds over an interval, the best area found, within 1e-4 of the
	// reported bound); for the ends rules Beta.Low or Beta.High.
	At Betas
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

// Bounds returns the ROC and PR bounds for a beta anywhere in an interval
// (paper Sec. 5), with [Rounded] counting: the lower AUC is the smallest AUC
// of the lower curves at every beta of the interval, the upper AUC the
// largest of the upper curves, and the same for the AUPR. The tables depend
// on beta only through P_U = floor(beta |U|), so these are extremes over
// the whole numbers of latent positives the interval admits; a search finds
// them, and may report a bound up to 1e-4 wider than the extreme, never
// narrower (see the package doc). For a known beta pass
// [PointInterval](beta). band bounds the rank CDF of the known positives
// ([Ranking.Bootstrap], [Ranking.DKW], [Ranking.ECDF] for the point
// estimate, or a stored band). It is BoundsContext with a context that is
// never done.
//
// Lemma 4 would put the extremes at the interval's ends (the lower curve at
// Low, the upper at High, [Ranking.EndBounds]) when the ranking is better
// than random at every cut-off; but where beta is more than the top of the
// ranking can hold, the clamp of Eq. 11 binds and the upper curve falls as
// beta grows, so the ends alone can exclude the truth.
func (r *Ranking) Bounds(band Band, beta Interval) (Bounds, error) {
	return r.BoundsContext(context.Background(), band, beta)
}

// BoundsContext is [Ranking.Bounds] that stops, with an error wrapping
// context.Cause(ctx), when ctx is done.
func (r *Ranking) BoundsContext(ctx context.Context, band Band, beta Interval) (Bounds, error) {
	return r.intervalBounds(ctx, band, beta, false)
}

// EndBounds returns the bounds by Lemma 4's rule, the published code's: the
// lower curve is the lower tables at beta.Low, the upper curve the upper
// tables at beta.High. It equals [Ranking.Bounds] for a point interval; over
// a wider one it is valid only where Lemma 4's conditions hold at every
// cut-off and no clamp binds (see Bounds). For parity with the published
// code.
func (r *Ranking) EndBounds(band Band, beta Interval) (Bounds, error) {
	if err := checkInterval(beta); err != nil {
		return Bounds{}, err
	}
	lower, upper, err := r.tables(band, beta.Low, Rounded)
	if err != nil {
		return Bounds{}, err
	}
	if beta.High != beta.Low {
		if _, upper, err = r.tables(band, beta.High, Rounded); err != nil {
			return Bounds{}, err
		}
	}
	b := newBounds(beta, lower, upper, false)
	b.At = Betas{AUCLow: beta.Low, AUPRLow: beta.Low, AUCHigh: beta.High, AUPRHigh: beta.High}
	return b, nil
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
// negatives (App. C), for a beta anywhere in an interval: the known labels
// are flipped ([Ranking.Flip]), the tables are built at beta' = 1 - beta
// (the fraction of negatives among the unlabeled), every table is mapped
// back (TP <-> FP, FN <-> TN) and lower and upper swap, since the fewest
// latent negatives above a cut-off make the highest curve. band bounds the
// rank CDF of the known negatives: build it on r.Flip(). An error wrapping
// [ErrNoKnownNegative] when there is none. Over an interval each bound is
// the extreme over every whole number of latent negatives the interval
// admits, as in [Ranking.Bounds]. It is NegativeBoundsContext with a context
// that is never done.
//
// No rule at the ends would do: for the AUC the ends swap (App. C:
// "overestimating beta leads to underestimated bounds"): at a cut-off where
// the negatives' rank CDF is T_N the FPR is T_N whatever beta, and the TPR,
// (r + 1 - |head(N_L)| - T_N (1 - beta)|U|) / (|P_L| + beta |U|), has the
// derivative |U| (T_N - TPR) / (|P_L| + beta |U|) in beta, negative wherever
// the ranking is better than random. The precision, (r + 1 - FP) / (r + 1),
// rises with beta instead, so the AUPR can move either way (on the shared
// simulated rankings it rises, falls, or dips and rises).
func (r *Ranking) NegativeBounds(band Band, beta Interval) (Bounds, error) {
	return r.NegativeBoundsContext(context.Background(), band, beta)
}

// NegativeBoundsContext is [Ranking.NegativeBounds] that stops, with an
// error wrapping context.Cause(ctx), when ctx is done.
func (r *Ranking) NegativeBoundsContext(ctx context.Context, band Band, beta Interval) (Bounds, error) {
	return r.intervalBounds(ctx, band, beta, true)
}

// EndNegativeBounds returns the negative-based bounds from the interval's
// two ends only: each bound is the more extreme of its values at beta.Low and
// beta.High, area by area. It equals [Ranking.NegativeBounds] for a point
// interval; over a wider one the extreme can lie inside the interval.
func (r *Ranking) EndNegativeBounds(band Band, beta Interval) (Bounds, error) {
	if err := checkInterval(beta); err != nil {
		return Bounds{}, err
	}
	if r.nNeg == 0 {
		return Bounds{}, ErrNoKnownNegative
	}
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
	b.At = Betas{beta.Low, beta.Low, beta.Low, beta.Low}
	if beta.High == beta.Low {
		return b, nil
	}
	if lower, upper, err = ends(beta.High); err != nil {
		return Bounds{}, err
	}
	if a := lower.AUC(); a < b.AUC.Low {
		b.Lower, b.AUC.Low, b.At.AUCLow = lower, a, beta.High
	}
	if a := upper.AUC(); a > b.AUC.High {
		b.Upper, b.AUC.High, b.At.AUCHigh = upper, a, beta.High
	}
	if a := lower.AUPR(); a < b.AUPR.Low {
		b.LowerPR, b.AUPR.Low, b.At.AUPRLow = lower, a, beta.High
	}
	if a := upper.AUPR(); a > b.AUPR.High {
		b.UpperPR, b.AUPR.High, b.At.AUPRHigh = upper, a, beta.High
	}
	return b, nil
}
