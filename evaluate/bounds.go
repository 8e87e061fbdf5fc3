package evaluate

import (
	"context"
	"errors"
	"fmt"

	"github.com/pueval/pueval/estimators/bounds"
)

// boundsOf computes Claesen et al.'s bounds into res: the labeled rows are
// the known positives, the unlabeled rows unlabeled; Claesen's beta (the
// fraction of positives among the unlabeled, which is alpha here) ranges
// over the estimators' alphas, or is the given alpha. It returns an error
// when they cannot be computed (no alpha, a ranking the method refuses).
func boundsOf(ctx context.Context, res *Result, scores []float64, labeled []bool, opts Options) error {
	var iv bounds.Interval
	switch {
	case res.Priors.Source == "given":
		iv = bounds.PointInterval(float64(res.Priors.Alpha))
	case res.Agreement != nil:
		iv = bounds.Interval{Low: float64(res.Agreement.Alpha.Min), High: float64(res.Agreement.Alpha.Max)}
	default:
		return errors.New("no estimate of alpha (Claesen's beta, the fraction of positives among the unlabeled)")
	}
	// Claesen's beta must leave a latent negative: an alpha of 1 (every
	// unlabeled example positive) is kept just below.
	const top = 1 - 1e-9
	iv.Low, iv.High = max(0, min(iv.Low, top)), max(0, min(iv.High, top))
	labels := make([]bounds.Label, len(labeled))
	for i, l := range labeled {
		if l {
			labels[i] = bounds.Positive
		}
	}
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	r, err := bounds.RankContext(ctx, scores, labels, bounds.Grouped)
	if err != nil {
		return err
	}
	band, kind, resamples, err := boundsBand(ctx, r, opts)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	b, err := r.BoundsContext(ctx, band, iv)
	if err != nil {
		return err
	}
	res.Bounds = &Bounds{
		ClaesenBeta: Interval{Float(iv.Low), Float(iv.High)},
		Band:        kind, Resamples: resamples, Level: Float(opts.Level),
		AUC:  Interval{Float(b.AUC.Low), Float(b.AUC.High)},
		AUPR: Interval{Float(b.AUPR.Low), Float(b.AUPR.High)},
	}
	pts := func(ps []bounds.Point) []Point {
		c := xy{make([]float64, len(ps)), make([]float64, len(ps))}
		for i, p := range ps {
			c.x[i], c.y[i] = p.X, p.Y
		}
		return thin(c, opts.CurvePoints)
	}
	res.Curves.ROC.BoundsLower, res.Curves.ROC.BoundsUpper = pts(b.Lower.ROC()), pts(b.Upper.ROC())
	res.Curves.PR.BoundsLower, res.Curves.PR.BoundsUpper = pts(b.LowerPR.PR()), pts(b.UpperPR.PR())
	if msg := labelNoise(res.Priors); msg != "" {
		res.Warnings = append(res.Warnings, Warning{Code: WarnBoundsNoisy, Message: "the bounds read every labeled example as a positive, but " + msg + ", so the bounds are not valid bounds here"})
	}
	if b.AUC.Low > b.AUC.High {
		res.Warnings = append(res.Warnings, Warning{Code: WarnBoundsFailed, Message: fmt.Sprintf(
			"the lower AUC bound %.4f is above the upper %.4f: the bounds' areas, trapezoids over sorted points, need not keep their order on a ranking no better than random", b.AUC.Low, b.AUC.High)})
	}
	return nil
}

// MaxBandCells is the most counts the bootstrap band of the bounds may keep
// (resamples times the known positives' distinct ranks, 4 bytes each: 64
// MiB). Past it the band is the DKW band (simultaneous, O(n), no
// resampling): with that many known positives both bands are a few
// thousandths wide, far narrower than what not knowing alpha leaves.
const MaxBandCells = 1 << 24

// boundsBand is the band of the bounds on the known positives' rank CDF:
// the bootstrap band of opts.BoundsResamples resamples, or the DKW band
// past MaxBandCells, with its kind and resamples.
func boundsBand(ctx context.Context, r *bounds.Ranking, opts Options) (bounds.Band, string, int, error) {
	if cells := opts.BoundsResamples * distinctRanks(r); cells > MaxBandCells {
		b, err := r.DKW(opts.Level)
		return b, "dkw", 0, err
	}
	b, err := r.BootstrapContext(ctx, stream(opts.Seed, tagBoundsBand), opts.BoundsResamples, opts.Level)
	return b, "bootstrap", opts.BoundsResamples, err
}

// distinctRanks is the number of distinct ranks of the known positives.
func distinctRanks(r *bounds.Ranking) int {
	return r.ECDF().Len()
}

// CleanBeta is the beta above which the labeled set counts as clean.
const CleanBeta = 0.99

// labelNoise says how the priors make some labeled examples negative: a
// given beta below CleanBeta, or an estimated one whose whole region (the
// priors the intervals cover) lies below it; "" when clean labels are
// credible. An estimate of beta alone is no evidence of noise: the
// estimators' beta errs by 0.1 and more on small or weakly separated
// samples.
func labelNoise(p Priors) string {
	beta := float64(p.Beta)
	switch {
	case !p.Valid:
		return ""
	case p.Source == "given" && beta < CleanBeta:
		return fmt.Sprintf("beta is given as %.3f: about %.0f%% of the labeled examples are negative", beta, 100*(1-beta))
	case p.Region != nil && float64(p.Region.Beta.High) < CleanBeta:
		return fmt.Sprintf("beta is estimated at %.3f and the priors the intervals cover reach at most %.3f: some labeled examples are likely negative", beta, float64(p.Region.Beta.High))
	}
	return ""
}
