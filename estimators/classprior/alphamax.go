package classprior

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// MinScores is the smallest number of scores (or, for the feature-reading
// estimators, rows) each side must have: every estimator refuses fewer.
const MinScores = 10

// FewUnlabeled and FewLabeled are the sample sizes below which every
// estimator warns that its estimate is unreliable: the sizes below which
// the published AlphaMax code warns (n < 100/0.1, n1 < 100), applied to
// all of them so that estimates compared side by side warn alike.
const (
	FewUnlabeled = 1000
	FewLabeled   = 100
)

// sampleWarnings returns the warnings of a sample of nL labeled and nU
// unlabeled scores or rows (unit) that is small. AlphaMax's (published)
// keep the words they have always had.
func sampleWarnings(unit string, nL, nU int, published bool) []string {
	why := func(n int) string {
		if published {
			return fmt.Sprintf("the published code warns below %d", n)
		}
		return fmt.Sprintf("every estimator warns below %d, as the published AlphaMax code does", n)
	}
	var w []string
	if nU < FewUnlabeled {
		w = append(w, fmt.Sprintf("only %d unlabeled %s (%s): the estimate is unreliable", nU, unit, why(FewUnlabeled)))
	}
	if nL < FewLabeled {
		w = append(w, fmt.Sprintf("only %d labeled %s (%s): the estimate is unreliable", nL, unit, why(FewLabeled)))
	}
	return w
}

// alphaMax is the AlphaMax estimator (clean labels) or, with noisy set,
// AlphaMax-N.
type alphaMax struct {
	name  string
	noisy bool
	o     Options // validated, defaults filled in
	grid  []float64
}

func (e *alphaMax) Name() string { return e.name }

// Estimate implements [Estimator] on in's scores (it reads no features).
func (e *alphaMax) Estimate(ctx context.Context, in Input, rng *rand.Rand) (Estimate, error) {
	if err := context.Cause(ctx); err != nil {
		return Estimate{}, fmt.Errorf("%s: %w", e.name, err)
	}
	labeled, unlabeled := in.Labeled, in.Unlabeled
	if err := checkScores("labeled", labeled); err != nil {
		return Estimate{}, err
	}
	if err := checkScores("unlabeled", unlabeled); err != nil {
		return Estimate{}, err
	}
	est := Estimate{Method: e.name, Scale: e.o.Scale, Knee: e.o.Knee, Beta: 1}
	var err error
	if unlabeled, err = subsample("unlabeled", unlabeled, e.o.MaxUnlabeled, rng, &est); err != nil {
		return Estimate{}, err
	}
	if labeled, err = subsample("labeled", labeled, e.o.MaxLabeled, rng, &est); err != nil {
		return Estimate{}, err
	}
	est.Warnings = append(est.Warnings, sampleWarnings("scores", len(labeled), len(unlabeled), true)...)
	var ranked [][]*histogram // the rank scale's histograms, per run and origin
	if e.o.Scale == ScaleRank {
		if ranked, err = e.rankHistograms(ctx, labeled, unlabeled); err != nil {
			return Estimate{}, err
		}
	}

	// Run 1: how much of the labeled distribution the unlabeled sample holds.
	c1, w1, err := e.run(ctx, e.binner(unlabeled, labeled, ranked, 0), CurveUnlabeled)
	if err != nil {
		return Estimate{}, fmt.Errorf("%s: unlabeled as mixture, labeled as component: %w", e.name, err)
	}
	est.Curves = append(est.Curves, c1)
	est.Warnings = append(est.Warnings, w1...)
	if !e.noisy {
		est.Alpha = c1.Estimate
		return est, nil
	}
	// Run 2: how much of the unlabeled distribution the labeled sample holds.
	if err := context.Cause(ctx); err != nil {
		return Estimate{}, fmt.Errorf("%s: %w", e.name, err)
	}
	c2, w2, err := e.run(ctx, e.binner(labeled, unlabeled, ranked, 1), CurveLabeled)
	if err != nil {
		return Estimate{}, fmt.Errorf("%s: labeled as mixture, unlabeled as component: %w", e.name, err)
	}
	est.Curves = append(est.Curves, c2)
	est.Warnings = append(est.Warnings, w2...)
	est.Alpha, est.Beta = combine(c1.Estimate, c2.Estimate)
	est.Warnings = append(est.Warnings, gapWarnings(est.Alpha, est.Beta)...)
	return est, nil
}

// SmallGap is the beta-hat - alpha-hat below which AlphaMax-N warns: the
// recovered metrics divide by beta - alpha (AAAI 2017 Eqs. 1-4), so an
// error of 0.01 in either estimate moves them by 20% or more.
const SmallGap = 0.05

// gapWarnings flags an AlphaMax-N estimate whose beta - alpha is not
// positive or is small. With both run estimates in (0, 1) the algebra gives
// beta - alpha = al (1 - au) / (1 - au kappa) > 0, so the first case cannot
// come from the runs; it is checked because callers divide by the gap.
func gapWarnings(alpha, beta float64) []string {
	switch {
	case !(beta > alpha):
		return []string{fmt.Sprintf("beta-hat %.4g <= alpha-hat %.4g: corrections that divide by beta - alpha are undefined", beta, alpha)}
	case beta-alpha < SmallGap:
		return []string{fmt.Sprintf("beta-hat - alpha-hat = %.4g is below %g: the labeled and unlabeled scores look alike, and corrections that divide by beta - alpha are unstable", beta-alpha, SmallGap)}
	}
	return nil
}

// combine turns the two AlphaMax-N runs into (alpha, beta): with
// au = alpha/beta (run 1) and kappa = (1-beta)/(1-alpha) (run 2),
// al = 1 - kappa, alpha = au*al/(1 - au*(1 - al)) and
// beta = al/(1 - au*(1 - al)) (Jain, White, Radivojac 2016; notes section 1.6).
func combine(au, kappa float64) (alpha, beta float64) {
	al := 1 - kappa
	den := 1 - float64(au*(1-al)) // product rounded before subtracting, as on amd64: arm64 would fuse it
	return au * al / den, al / den
}

func checkScores(side string, s []float64) error {
	if len(s) == 0 {
		return fmt.Errorf("no %s scores", side)
	}
	if len(s) < MinScores {
		return fmt.Errorf("only %d %s scores: need at least %d", len(s), side, MinScores)
	}
	first := s[0]
	constant := true
	for i, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s score %d is %v: scores must be finite", side, i, v)
		}
		if v != first {
			constant = false
		}
	}
	if constant {
		return fmt.Errorf("all %d %s scores equal %v: a constant sample has no histogram bin width", len(s), side, first)
	}
	return nil
}

// subsample draws limit scores with replacement when s has more, as the
// published estimateMixprop does above its sample-size caps; limit 0 keeps
// every score.
func subsample(side string, s []float64, limit int, rng *rand.Rand, est *Estimate) ([]float64, error) {
	if limit == 0 || len(s) <= limit {
		return s, nil
	}
	if rng == nil {
		return nil, errors.New("subsampling " + side + " scores needs a random source (rng is nil)")
	}
	out := make([]float64, limit)
	for i := range out {
		out[i] = s[rng.IntN(len(s))]
	}
	est.Warnings = append(est.Warnings, fmt.Sprintf("%d %s scores drawn with replacement from %d (max_%s)", limit, side, len(s), side))
	if err := checkScores(side+" (subsampled)", out); err != nil {
		return nil, err
	}
	return out, nil
}

// rankHistograms sorts the scores and bins them on the rank scale: the
// histograms of run 1 (the labeled sample as the component) and, for
// AlphaMax-N, run 2, at every origin, in one walk over the scores.
func (e *alphaMax) rankHistograms(ctx context.Context, labeled, unlabeled []float64) ([][]*histogram, error) {
	ranks, err := newPooled(ctx, labeled, unlabeled)
	if err != nil {
		return nil, fmt.Errorf("%s: ranking the scores: %w", e.name, err)
	}
	runs := []bool{true}
	if e.noisy {
		runs = append(runs, false)
	}
	h, err := ranks.rankHistograms(ctx, runs, e.o.Shifts)
	if err != nil {
		return nil, fmt.Errorf("%s: binning the ranks: %w", e.name, err)
	}
	return h, nil
}

// binner returns the histogram of one run at origin j of e.o.Shifts.
type binner func(ctx context.Context, j int) (*histogram, error)

// binner returns the histograms of the run with the given mixture and
// component: on the rank scale those of ranked[run], made beforehand; on
// the raw scale binned on the component's automatic width.
func (e *alphaMax) binner(mixture, component []float64, ranked [][]*histogram, run int) binner {
	var w float64
	return func(ctx context.Context, j int) (*histogram, error) {
		if ranked != nil {
			return ranked[run][j], nil
		}
		if w == 0 {
			var err error
			if w, err = binWidth(component); err != nil {
				return nil, fmt.Errorf("component sample: %w", err)
			}
		}
		return newHistogramContext(ctx, mixture, component, w, float64(j)/float64(e.o.Shifts))
	}
}

// run is one AlphaMax execution: the likelihood curve of mixture against
// component on the grid (the histograms of bins), then the knee; with
// Shifts > 1, once per histogram origin, the estimate being the mean over
// the origins. A cancelled ctx stops it within interrupt.Every scores of
// the binning, an EM iteration or a grid point, with an error wrapping
// ctx's cause.
func (e *alphaMax) run(ctx context.Context, bins binner, name string) (Curve, []string, error) {
	var c Curve
	var warnings []string
	var sum float64
	for j := range e.o.Shifts {
		h, err := bins(ctx, j)
		if err != nil {
			return Curve{}, nil, err
		}
		raw, ll, err := llCurveContext(ctx, h, e.grid)
		if err != nil {
			return Curve{}, nil, err
		}
		p := pick(e.grid, ll, h.n, h.n1, len(h.bin), e.o)
		if e.o.Knee == KneeDrop && p.warning == "" {
			if p.value, err = refineDrop(ctx, h, e.grid, ll, p.knee, dropTolerance(e.o.DropTau, h.n, h.n1, len(h.bin))); err != nil {
				return Curve{}, nil, err
			}
			p.drop = p.value
		}
		if j == 0 {
			// The grid is cloned so that a caller editing a curve cannot change the estimator.
			c = Curve{Name: name, Alpha: slices.Clone(e.grid), LogLik: ll, Raw: raw, BinWidth: h.width, Bins: h.nBins,
				Knee: e.grid[p.knee], KneeIndex: p.knee, Drop: p.drop}
		}
		if e.o.Shifts > 1 {
			c.Shifts = append(c.Shifts, p.value)
		}
		sum += p.value
		// Each origin may warn (a flat curve); say it once.
		if msg := name + " curve: " + p.warning; p.warning != "" && !slices.Contains(warnings, msg) {
			warnings = append(warnings, msg)
		}
	}
	c.Estimate = sum / float64(e.o.Shifts)
	return c, warnings, nil
}
