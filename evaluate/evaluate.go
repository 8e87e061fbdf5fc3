package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/metrics"
)

// Input is a PU sample: one row per example, each in the labeled set L or
// the unlabeled set U.
type Input struct {
	// Scores are held-out scores of a model, higher = more positive (more
	// like the labeled). Nil: Options.Classifier is trained on Features,
	// labeled against unlabeled, and scores every row held out.
	Scores []float64
	// Labeled is true for the rows of L, false for those of U.
	Labeled []bool
	// Features are the rows' features (n x d): required without Scores,
	// optional with them (the feature-reading estimators, KM1 and KM2, run
	// only when they are given).
	Features *mat.Dense
	// Truth, optional, is every row's true class (benchmark data only): the
	// result then holds the true numbers beside the recovered ones.
	Truth []bool
}

// Priors given by the caller instead of estimated.
type GivenPriors struct {
	Alpha, Beta float64
}

// Options configure Run. The zero value is usable: nnet-bag (when scores
// must be trained), every estimator that applies, no bootstrap, seed 0.
type Options struct {
	// Classifier trains the scores when Input.Scores is nil; nil means
	// nnet-bag with its defaults (the papers' bag of 100 nets, out-of-bag
	// scores), the classifier the AlphaMax estimators were designed with:
	// on Spambase with 30 % of the positives labeled, alphamax-n on its
	// scores gives beta 0.98 (truth 1), on gbdt's out-of-fold scores 0.85.
	Classifier classifiers.Config
	// Estimators are the class-prior estimators to run, by registry name;
	// empty means every one that applies ([Applicable]). Unless Priors is
	// set, the mean of the score-reading ones' alpha and beta (of every
	// usable one's when none reads scores) gives the priors.
	Estimators []string
	// Priors, when set, are used instead of the estimated ones.
	Priors *GivenPriors
	// Threshold, when set, is the caller's own threshold: accuracy,
	// balanced accuracy, F1 and MCC are also given when predicting
	// positive at score >= *Threshold (Metric.AtThreshold), beside their
	// best values over thresholds. It must be finite.
	Threshold *float64
	// Bootstrap is the number of bootstrap resamples (0: no intervals;
	// at most MaxBootstrap).
	Bootstrap int
	// Level is the confidence level of the intervals and of the bounds'
	// band (0 means 0.95).
	Level float64
	// Seed fixes every random draw: the classifier's, the estimators', the
	// bootstrap's. The result is a function of the input, the options and
	// the seed, whatever Workers.
	Seed uint64
	// Outside is the recovered ROC curve's treatment of points outside the
	// unit square (recovery.Drop, the paper's, by default).
	Outside recovery.Outside
	// KMMaxRows caps the rows the feature-reading estimators read (their
	// kernel matrix is n x n): above it, a random subsample of that many
	// rows with L and U in their proportions. 0 means DefaultKMMaxRows.
	KMMaxRows int
	// EstimatorMaxRows caps the rows the score-reading estimators read,
	// likewise; 0 means DefaultEstimatorMaxRows.
	EstimatorMaxRows int
	// BoundsResamples is the number of bootstrap resamples of the band of
	// Claesen's bounds (0 means DefaultBoundsResamples; negative: no bounds).
	BoundsResamples int
	// CurvePoints caps the points of each curve in the result (0 means
	// DefaultCurvePoints); the areas are computed on the full curves.
	CurvePoints int
	// Workers is the number of goroutines of the bootstrap (0 means
	// GOMAXPROCS). It never changes a number.
	Workers int
	// Progress, when set, is told what is being done (for a command's
	// stderr).
	Progress func(string)
}

// Defaults of Options.
const (
	DefaultLevel     = 0.95
	DefaultKMMaxRows = 2000
	// DefaultEstimatorMaxRows is how many rows the score-reading
	// estimators (alphamax-n, alphamax, distcurve) read at most: above
	// it, all of them read one random subsample of that many rows, L and U
	// in their proportions, and so does the first one's re-run in every
	// bootstrap resample (on the resample's own rows), so that the
	// intervals cover the estimate the result reports. Their error falls
	// slowly above it while their time grows with the rows, and the
	// bootstrap pays that time in each of its resamples. Mean absolute
	// error of alpha on binormal scores (positives N(1.5, 1)), A: alpha
	// 0.3, beta 1, 10 % labeled, 5 samples; B: alpha 0.23, beta 1, 9 %
	// labeled, 6 samples; milliseconds per estimate on the loaded 2-core
	// development machine:
	//
	//	rows      alphamax-n              alphamax               distcurve (A)
	//	          A      B      ms        A      B      ms       error  ms
	//	10^4      0.034  -      4         0.045  -      1        0.083  13
	//	10^5      0.023  0.024  12-27     0.029  0.028  5-8      0.054  420
	//	3 10^5    0.030  0.018  28-49     0.028  0.018  12-20    0.053  2,100
	//	10^6      0.016  0.014  118-228   0.018  0.014  60-84    0.048  9,900
	//
	// (distcurve's network was trained on samples of 10^3 to 10^4 rows,
	// and 10^7 rows took it 260 s.) The subsample is in the output: each
	// estimator's rows, and the estimator-subsampled warning.
	DefaultEstimatorMaxRows = 100_000
	DefaultBoundsResamples  = 1000
	DefaultCurvePoints      = 201
	// SmallGap is the beta - alpha below which the recovery is flagged as
	// unstable: it divides by beta - alpha.
	SmallGap = 0.05
	// DisagreeGap is the spread of the estimators' beta - alpha above
	// which they are flagged as disagreeing.
	DisagreeGap = 0.1
	// MaxBootstrap is the most bootstrap resamples: every resample's
	// numbers and recovered curves (two of bandGrid points) are kept until
	// the percentile intervals are taken, about 2 KB a resample whatever
	// the input's size (the heap peaks near 4 KB a resample with the
	// garbage of the resamples), so 100,000 take about 400 MB; far more
	// resamples than percentile intervals need.
	MaxBootstrap = 100_000
)

// BootstrapMethod is Bootstrap.Method: how the intervals are built from
// the resamples ([SamplingInterval]).
const BootstrapMethod = "percentile, sides x1.3, BC for the best values over thresholds"

// Texts of Bootstrap.Covers: what the intervals cover with given and with
// estimated priors.
const (
	CoversGiven     = "the sampling of the labeled and unlabeled examples, with the model held fixed (its scores are not retrained per resample) and alpha and beta as given; not the training of the model"
	CoversEstimated = "the sampling of the labeled and unlabeled examples, with the model held fixed, and the error of the estimated alpha and beta: the numbers' spread over a region of priors around the estimate (Priors.Region), sized so that 95 % intervals held the truth in about 95 % of the practitioner benchmark's cases; not the training of the model"
)

func (o Options) withDefaults() Options {
	if o.Level == 0 {
		o.Level = DefaultLevel
	}
	if o.KMMaxRows == 0 {
		o.KMMaxRows = DefaultKMMaxRows
	}
	if o.EstimatorMaxRows == 0 {
		o.EstimatorMaxRows = DefaultEstimatorMaxRows
	}
	if o.BoundsResamples == 0 {
		o.BoundsResamples = DefaultBoundsResamples
	}
	if o.CurvePoints == 0 {
		o.CurvePoints = DefaultCurvePoints
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

func (o Options) validate() error {
	var errs []error
	if !(o.Level > 0 && o.Level < 1) {
		errs = append(errs, fmt.Errorf("level %v: want a confidence level in (0, 1)", o.Level))
	}
	if o.Bootstrap < 0 || o.Bootstrap > MaxBootstrap {
		errs = append(errs, fmt.Errorf("bootstrap %d: want 0 (none) or a number of resamples up to %d", o.Bootstrap, MaxBootstrap))
	}
	if o.KMMaxRows < 20 {
		errs = append(errs, fmt.Errorf("km max rows %d: want at least 20", o.KMMaxRows))
	}
	if o.EstimatorMaxRows < 20 {
		errs = append(errs, fmt.Errorf("estimator max rows %d: want at least 20", o.EstimatorMaxRows))
	}
	if o.CurvePoints < 2 {
		errs = append(errs, fmt.Errorf("curve points %d: want at least 2", o.CurvePoints))
	}
	if o.Outside != recovery.Drop && o.Outside != recovery.Clip {
		errs = append(errs, fmt.Errorf("outside %v: want drop or clip", o.Outside))
	}
	if t := o.Threshold; t != nil && (math.IsNaN(*t) || math.IsInf(*t, 0)) {
		errs = append(errs, fmt.Errorf("threshold %v: want a finite score (predict positive when score >= threshold)", *t))
	}
	if p := o.Priors; p != nil {
		if err := recovery.CheckPriors(p.Alpha, p.Beta); err != nil {
			errs = append(errs, fmt.Errorf("alpha %v, beta %v: %w", p.Alpha, p.Beta, err))
		}
	}
	seen := map[string]bool{}
	for _, name := range o.Estimators {
		if _, err := classprior.Defaults(name); err != nil {
			errs = append(errs, err)
		}
		if seen[name] {
			errs = append(errs, fmt.Errorf("estimator %s listed twice", name))
		}
		seen[name] = true
	}
	return errors.Join(errs...)
}

// check validates the input and returns |L| and |U|.
func (in Input) check() (nL, nU int, err error) {
	n := len(in.Labeled)
	if in.Scores == nil && in.Features == nil {
		return 0, 0, errors.New("evaluate: no scores and no features: give one of them")
	}
	if in.Scores != nil && len(in.Scores) != n {
		return 0, 0, fmt.Errorf("evaluate: %d scores for %d rows", len(in.Scores), n)
	}
	if in.Features != nil {
		if r, _ := in.Features.Dims(); r != n {
			return 0, 0, fmt.Errorf("evaluate: %d feature rows for %d rows", r, n)
		}
	}
	if in.Truth != nil && len(in.Truth) != n {
		return 0, 0, fmt.Errorf("evaluate: %d true labels for %d rows", len(in.Truth), n)
	}
	for i, s := range in.Scores {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return 0, 0, fmt.Errorf("evaluate: the score of row %d is %v: scores must be finite", i+1, s)
		}
	}
	for _, l := range in.Labeled {
		if l {
			nL++
		}
	}
	nU = n - nL
	if nL == 0 || nU == 0 {
		return nL, nU, fmt.Errorf("evaluate: %d labeled and %d unlabeled rows: want some of each", nL, nU)
	}
	return nL, nU, nil
}

// Run evaluates the model: it trains the classifier when no scores are
// given, estimates alpha and beta with every estimator, recovers every
// number under the priors, bounds the curves and bootstraps the intervals.
// Bad input (NaN scores, an empty L or U, features that cannot train) is
// an error; everything that makes numbers unreliable but computable (tied
// scores, an estimator that fails or returns beta <= alpha) is a warning
// in the result, and the numbers that cannot be computed are NaN (null in
// JSON).
func Run(ctx context.Context, in Input, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("evaluate: %w", err)
	}
	nL, nU, err := in.check()
	if err != nil {
		return nil, err
	}
	res := &Result{
		Schema: Schema, NLabeled: nL, NUnlabeled: nU, C: Float(float64(nL) / float64(nL+nU)),
		Pi: nan, Outside: opts.Outside.String(), Estimators: []EstimatorResult{},
		Warnings: []Warning{}, Assumptions: []Assumption{},
	}
	scores, err := res.scoreInput(ctx, in, opts)
	if err != nil {
		return nil, err
	}
	r, err := res.rankScores(ctx, scores, in.Labeled)
	if err != nil {
		return nil, err
	}
	if err := res.runEstimators(ctx, in, scores, opts); err != nil {
		return nil, err
	}
	res.choosePriors(opts)
	if err := res.recoverNumbers(ctx, r, opts); err != nil {
		return nil, err
	}
	in.Scores = scores
	if err := res.boundAndBootstrap(ctx, r, in, opts); err != nil {
		return nil, err
	}
	if in.Truth != nil {
		if err = res.truthOf(ctx, scores, in.Labeled, in.Truth, opts); err != nil {
			return nil, err
		}
	}
	res.warnAtEnd()
	res.Assumptions = assumptions(res)
	return res, nil
}

// stopped wraps the cause of a cancelled ctx for Run's caller; nil while
// ctx is not done. Run asks it between steps that each take under about
// 0.1 s on 10^7 rows; the longer steps ask their context inside.
func stopped(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("evaluate: %w", context.Cause(ctx))
}

// progress tells o.Progress, when set, what is being done.
func (o Options) progress(format string, a ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, a...))
	}
}

// warn adds a warning to the result.
func (res *Result) warn(code, format string, a ...any) {
	res.Warnings = append(res.Warnings, Warning{Code: code, Message: fmt.Sprintf(format, a...)})
}

// scoreInput returns the scores, given or trained labeled against
// unlabeled (held out), and says in res.Scores where they came from.
func (res *Result) scoreInput(ctx context.Context, in Input, opts Options) ([]float64, error) {
	if in.Scores != nil {
		res.Scores = Scores{Source: "given"}
		return in.Scores, nil
	}
	cfg := opts.Classifier
	if cfg == nil {
		d := classifiers.DefaultNNetBag()
		cfg = &d
	}
	sc, err := cfg.New()
	if err != nil {
		return nil, fmt.Errorf("evaluate: %w", err)
	}
	opts.progress("training %s on %d rows", cfg.Name(), res.NLabeled+res.NUnlabeled)
	start := time.Now()
	r, err := sc.Score(ctx, classifiers.Data{X: in.Features, Y: in.Labeled}, opts.Seed)
	if err != nil {
		return nil, fmt.Errorf("evaluate: training %s: %w", cfg.Name(), err)
	}
	res.Scores = Scores{Source: "trained", Classifier: cfg.Name(), Key: cfg.Key(), Seed: opts.Seed,
		HeldOut: heldOut(cfg, r), Seconds: time.Since(start).Seconds()}
	return r.Scores, nil
}

// rankScores ranks the scores, labeled against unlabeled, and warns about
// scores that say nothing (all tied, a PU AUC not above 1/2) or are few.
func (res *Result) rankScores(ctx context.Context, scores []float64, labeled []bool) (*metrics.Ranking, error) {
	r, err := metrics.RankContext(ctx, scores, labeled)
	if err != nil {
		return nil, fmt.Errorf("evaluate: %w", err)
	}
	res.Scores.Distinct, res.Scores.Values = r.Len()-1, scores
	if r.Len() == 2 {
		res.warn(WarnTiedScores, "every score is %v: the model ranks nothing, so no number says anything about it", r.Threshold(1))
	}
	aucPU := r.AUC()
	if aucPU <= 0.5 {
		res.warn(WarnAUCPU, "the PU AUC (labeled against unlabeled) is %.4f, not above 1/2: the model does not rank the labeled examples above the unlabeled ones, so it has learned nothing the recovery can use (are higher scores more positive? are the scores held out?)", aucPU)
	}
	if nL, nU := res.NLabeled, res.NUnlabeled; nL < 100 || nU < 1000 {
		res.warn(WarnFewScores, "%d labeled and %d unlabeled examples: the estimators want at least 100 and 1000, and the intervals are wide", nL, nU)
	}
	return r, nil
}

// runEstimators runs the estimators of opts (every applicable one by
// default) into res.Estimators, and warns about those that failed, warned
// or read a subsample. Only a cancelled ctx, or an estimator that needs
// features the input lacks, is an error.
func (res *Result) runEstimators(ctx context.Context, in Input, scores []float64, opts Options) error {
	names := opts.Estimators
	if len(names) == 0 {
		names = Applicable(in.Features != nil)
	}
	for _, name := range names {
		if ReadsFeatures(name) && in.Features == nil {
			return fmt.Errorf("evaluate: estimator %s reads the examples' features, and the input has none", name)
		}
	}
	labeled, unlabeled, err := splitContext(ctx, scores, in.Labeled)
	if err != nil {
		return err
	}
	ss, err := scoreSampleOf(ctx, labeled, unlabeled, opts)
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("evaluate: %w", context.Cause(ctx))
		}
		opts.progress("estimating alpha and beta with %s", name)
		e := runEstimator(ctx, name, ss, in, opts)
		if errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded) {
			return fmt.Errorf("evaluate: %w", e.err)
		}
		res.Estimators = append(res.Estimators, e.EstimatorResult)
	}
	for _, e := range res.Estimators {
		if e.Error != "" {
			res.warn(WarnEstimatorFailed, "%s gave no estimate: %s", e.Method, e.Error)
			continue
		}
		for _, w := range e.Warnings {
			res.warn(WarnEstimator, "%s: %s", e.Method, w)
		}
		if e.Subsampled {
			why := "its kernel matrix is dense: n x n"
			if e.Reads == "scores" {
				why = fmt.Sprintf("above %d rows the score-reading estimators read a subsample of that many, and the first re-reads as many in every bootstrap resample: beyond it their error falls slowly while their time grows with the rows", opts.EstimatorMaxRows)
			}
			res.warn(WarnSubsampled, "%s read a random subsample of %d of the %d rows (%s)", e.Method, e.Rows, res.NLabeled+res.NUnlabeled, why)
		}
	}
	return nil
}

// choosePriors sets res.Priors: given, else the estimators' consensus, and
// warns when the recovery cannot use them or they make it unstable.
func (res *Result) choosePriors(opts Options) {
	switch {
	case opts.Priors != nil:
		res.Priors = Priors{Source: "given", Alpha: Float(opts.Priors.Alpha), Beta: Float(opts.Priors.Beta), Valid: true}
	case len(res.Estimators) > 0:
		alpha, beta, names, ok := consensus(res.Estimators)
		if !ok {
			res.Priors = Priors{Source: "estimated", Alpha: nan, Beta: nan}
			res.warn(WarnInvalidPriors, "no estimator gave usable priors (beta > alpha: the labeled set richer in positives than the unlabeled), so no recovered number is given; give --alpha and --beta if you know them")
			break
		}
		res.Priors = Priors{Source: "estimated", Method: methodName(names), Alpha: Float(alpha), Beta: Float(beta), Valid: true}
		if cleanOnly(res.Estimators, names) {
			res.warn(WarnCleanOnlyPrimary, "the priors come from %s, which assume clean labels (beta = 1); if some labeled examples may be negative, add alphamax-n", strings.Join(names, ", "))
		}
	default:
		res.Priors = Priors{Source: "estimated", Alpha: nan, Beta: nan}
		res.warn(WarnInvalidPriors, "no estimator ran and no alpha and beta were given, so no recovered number is given")
	}
	if res.Priors.Valid {
		if gap := float64(res.Priors.Beta - res.Priors.Alpha); gap < SmallGap {
			res.warn(WarnSmallGap, "beta - alpha is %.4f: the recovery divides by it, so every recovered number is unstable (the labeled set is hardly richer in positives than the unlabeled)", gap)
		}
	}
}

// cleanOnly reports whether every estimator named assumes clean labels.
func cleanOnly(es []EstimatorResult, names []string) bool {
	for _, e := range es {
		if slices.Contains(names, e.Method) && !e.CleanLabels {
			return false
		}
	}
	return true
}

// recoverNumbers recovers every number and curve of r under res.Priors
// (NaN without valid priors) and the headline numbers under each
// estimator's priors, and warns when the estimators disagree. Each
// recovery is a recovery.Workspace's of r's tally, which gives
// recovery.New's numbers and holds a third of its memory.
func (res *Result) recoverNumbers(ctx context.Context, r *metrics.Ranking, opts Options) error {
	t, err := recovery.TallyOf(r)
	if err != nil {
		return fmt.Errorf("evaluate: %w", err)
	}
	var ws recovery.Workspace
	for i := range res.Estimators {
		e := &res.Estimators[i]
		if e.Error != "" || recovery.CheckPriors(float64(e.Alpha), float64(e.Beta)) != nil {
			continue
		}
		num, err := recoverTally(ctx, &ws, t, float64(e.Alpha), float64(e.Beta), opts.Outside)
		if err != nil {
			return err
		}
		h := HeadlineOf(&num)
		e.Recovered = &h
	}
	var num *recovery.Numbers
	if res.Priors.Valid {
		n, err := recoverTally(ctx, &ws, t, float64(res.Priors.Alpha), float64(res.Priors.Beta), opts.Outside)
		if err != nil {
			return err
		}
		num, res.Pi = &n, Float(n.Pi)
	}
	if res.Metrics, err = metricsOf(ctx, r, num); err != nil {
		return err
	}
	if opts.Threshold != nil {
		if err := res.atThreshold(r, t, *opts.Threshold); err != nil {
			return err
		}
	}
	if p := &res.Priors; p.Source == "estimated" && p.Valid {
		region := priorRegion(float64(p.Alpha), float64(p.Beta), res.NLabeled, float64(res.Metrics.AUC.Recovered))
		p.Region, p.AlphaInterval, p.BetaInterval = &region, &region.Alpha, &region.Beta
	}
	res.Agreement = agreementOf(res.Estimators)
	if a := res.Agreement; a != nil && a.Estimators > 1 {
		if spread := float64(a.BetaMinusAlpha.Max - a.BetaMinusAlpha.Min); spread > DisagreeGap {
			res.warn(WarnDisagree, "the estimators' beta - alpha ranges from %.3f to %.3f: the recovered numbers depend on which one is right (the table lists each one's)", float64(a.BetaMinusAlpha.Min), float64(a.BetaMinusAlpha.Max))
		}
	}
	res.Curves = curvesOf(r, num, opts)
	return stopped(ctx)
}

// recoverTally is ws.Recover stopped by ctx (with an error saying so;
// alpha and beta were checked).
func recoverTally(ctx context.Context, ws *recovery.Workspace, t recovery.Tally, alpha, beta float64, o recovery.Outside) (recovery.Numbers, error) {
	num, err := ws.Recover(ctx, t, alpha, beta, o)
	if err != nil {
		if serr := stopped(ctx); serr != nil {
			return recovery.Numbers{}, serr
		}
		return recovery.Numbers{}, fmt.Errorf("evaluate: %w", err)
	}
	return num, nil
}

// boundAndBootstrap adds Claesen's bounds over the estimators' alpha (a
// warning when they fail) and the bootstrap intervals, as opts ask; r
// ranks in.Scores. The bounds (one core) run beside the bootstrap (every
// core) on a result of their own, merged afterwards in a fixed order (the
// bounds' fields and warnings first), so the output does not depend on
// which finishes first.
func (res *Result) boundAndBootstrap(ctx context.Context, r *metrics.Ranking, in Input, opts Options) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	bres := &Result{Priors: res.Priors, Agreement: res.Agreement}
	done := make(chan error, 1)
	if opts.BoundsResamples > 0 {
		opts.progress("bounding the curves (Claesen et al.)")
		go func() { done <- boundsOf(ctx, bres, in.Scores, in.Labeled, opts) }()
	} else {
		done <- nil
	}
	var boot []Warning
	if opts.Bootstrap > 0 {
		opts.progress("bootstrap: %d resamples", opts.Bootstrap)
		n0 := len(res.Warnings)
		if err := bootstrap(ctx, res, r, in, opts); err != nil {
			cancel(err)
			<-done
			return err
		}
		if b := res.Bootstrap; b.Failed > 0 {
			res.warn(WarnBootstrapFailed, "%d of %d bootstrap resamples gave no usable numbers and are left out of the intervals, which are then too narrow", b.Failed, b.Resamples)
		}
		boot = append(boot, res.Warnings[n0:]...)
		res.Warnings = res.Warnings[:n0]
	}
	if err := <-done; err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("evaluate: %w", context.Cause(ctx))
		}
		bres.warn(WarnBoundsFailed, "no bounds: %v", err)
	}
	res.Bounds = bres.Bounds
	res.Curves.ROC.BoundsLower, res.Curves.ROC.BoundsUpper = bres.Curves.ROC.BoundsLower, bres.Curves.ROC.BoundsUpper
	res.Curves.PR.BoundsLower, res.Curves.PR.BoundsUpper = bres.Curves.PR.BoundsLower, bres.Curves.PR.BoundsUpper
	res.Warnings = append(append(res.Warnings, bres.Warnings...), boot...)
	return nil
}

// heldOut describes how a classifier's scores are held out.
func heldOut(cfg classifiers.Config, r *classifiers.Result) string {
	switch c := cfg.(type) {
	case *classifiers.GBDT:
		return fmt.Sprintf("out-of-fold, %d folds (stratified)", c.Folds)
	case *classifiers.NNetBag:
		s := fmt.Sprintf("out-of-bag, %d nets", c.Bags)
		if r.Filled > 0 {
			s += fmt.Sprintf(" (%d rows in every bootstrap got the mean score)", r.Filled)
		}
		return s
	case *classifiers.SVM:
		return fmt.Sprintf("out-of-fold, %d folds", c.Folds)
	}
	return "held out by the classifier"
}

// split returns the scores of the labeled and of the unlabeled rows.
func split(scores []float64, labeled []bool) (l, u []float64) {
	l, u, _ = splitContext(context.Background(), scores, labeled)
	return l, u
}

// splitContext is split asking ctx every interrupt.Every rows (10^7 rows
// take about 0.1 s; each side is allocated once: growing them by append
// took 0.3 s).
func splitContext(ctx context.Context, scores []float64, labeled []bool) (l, u []float64, err error) {
	nL := 0
	for _, b := range labeled {
		if b {
			nL++
		}
	}
	l, u = make([]float64, 0, nL), make([]float64, 0, len(scores)-nL)
	for i, s := range scores {
		if i%interrupt.Every == 0 {
			if err := stopped(ctx); err != nil {
				return nil, nil, err
			}
		}
		if labeled[i] {
			l = append(l, s)
		} else {
			u = append(u, s)
		}
	}
	return l, u, nil
}

// steps runs each step in order, asking ctx before each and after the
// last: the steps are passes over the thresholds that take under about
// 0.1 s on 10^7 rows each.
func steps(ctx context.Context, each ...func()) error {
	for _, f := range each {
		if err := stopped(ctx); err != nil {
			return err
		}
		f()
	}
	return stopped(ctx)
}

// metricsOf computes the PU numbers and, with num, the recovered ones,
// asking ctx between the passes over the thresholds.
func metricsOf(ctx context.Context, r *metrics.Ranking, num *recovery.Numbers) (Metrics, error) {
	f := func(x float64) *Float { v := Float(x); return &v }
	m := Metrics{
		AUC:   Metric{Set: "U", PU: Float(r.AUC()), Recovered: nan, Direct: f(math.NaN())},
		AUCPR: Metric{Set: "U", PU: nan, Recovered: nan},
	}
	if num != nil {
		m.AUC.Recovered, m.AUC.Direct, m.AUCPR.Recovered = Float(num.AUC), f(num.Direct), Float(num.AUCPR)
	}
	todo := []func(){func() { m.AUCPR.PU = Float(r.AveragePrecision()) }}
	for i, me := range recovery.Measures {
		mt := m.measure(me)
		todo = append(todo, func() {
			pu := r.Max(me.Metric())
			*mt = Metric{Set: "D", PU: Float(pu.Value), PUThreshold: f(pu.Threshold), Recovered: nan, Threshold: f(math.NaN())}
			if num != nil {
				b := num.Max[i]
				mt.Recovered, mt.Threshold = Float(b.Value), f(r.Threshold(b.K))
			}
		})
	}
	if err := steps(ctx, todo...); err != nil {
		return Metrics{}, err
	}
	return m, nil
}

// measure returns the field of m for a threshold measure.
func (m *Metrics) measure(me recovery.Measure) *Metric {
	switch me {
	case recovery.Accuracy:
		return &m.Acc
	case recovery.BalancedAccuracy:
		return &m.BAcc
	case recovery.F1:
		return &m.F1
	}
	return &m.MCC
}

// HeadlineOf is the headline numbers of a recovery: its AUC, AUC-PR and
// the best value of each threshold measure.
func HeadlineOf(num *recovery.Numbers) Headline {
	h := Headline{AUC: Float(num.AUC), AUCPR: Float(num.AUCPR)}
	for i, me := range recovery.Measures {
		switch v := Float(num.Max[i].Value); me {
		case recovery.Accuracy:
			h.Acc = v
		case recovery.BalancedAccuracy:
			h.BAcc = v
		case recovery.F1:
			h.F1 = v
		case recovery.MCC:
			h.MCC = v
		}
	}
	return h
}

// agreementOf is the spread of the estimators that gave an estimate; nil
// when none did.
func agreementOf(es []EstimatorResult) *Agreement {
	var a Agreement
	first := true
	span := func(r *Range, v Float, init bool) {
		if init {
			*r = Range{v, v}
			return
		}
		r.Min, r.Max = min(r.Min, v), max(r.Max, v)
	}
	firstRec := true
	for _, e := range es {
		if e.Error != "" {
			continue
		}
		span(&a.Alpha, e.Alpha, first)
		span(&a.Beta, e.Beta, first)
		span(&a.BetaMinusAlpha, e.BetaMinusAlpha, first)
		first = false
		a.Estimators++
		if e.Recovered != nil {
			span(&a.AUC, e.Recovered.AUC, firstRec)
			span(&a.F1, e.Recovered.F1, firstRec)
			firstRec = false
		}
	}
	if a.Estimators == 0 {
		return nil
	}
	if firstRec {
		a.AUC, a.F1 = Range{nan, nan}, Range{nan, nan}
	}
	return &a
}

// truthOf computes the true numbers into res: AUC and AUC-PR (average
// precision) on U with its true labels, with their curves (at most
// opts.CurvePoints points each), and the best threshold measures on D = L
// u U, and those at opts.Threshold when it is set.
func (res *Result) truthOf(ctx context.Context, scores []float64, labeled, truth []bool, opts Options) error {
	k := opts.CurvePoints
	t := &Truth{Alpha: nan, Beta: nan, Headline: Headline{AUC: nan, AUCPR: nan, Acc: nan, BAcc: nan, F1: nan, MCC: nan}}
	nU := 0
	for _, l := range labeled {
		if !l {
			nU++
		}
	}
	uS, uT := make([]float64, 0, nU), make([]bool, 0, nU)
	var posL, posU, nL int
	for i, s := range scores {
		if labeled[i] {
			nL++
			if truth[i] {
				posL++
			}
			continue
		}
		uS, uT = append(uS, s), append(uT, truth[i])
		if truth[i] {
			posU++
		}
	}
	t.Alpha, t.Beta = Float(float64(posU)/float64(len(uS))), Float(float64(posL)/float64(nL))
	if ru, err := metrics.RankContext(ctx, uS, uT); err == nil {
		t.AUC, t.AUCPR = Float(ru.AUC()), Float(ru.AveragePrecision())
		res.Curves.ROC.Truth, res.Curves.PR.Truth = thinROC(ru, k), thinPR(ru, k)
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	if rd, err := metrics.RankContext(ctx, scores, truth); err == nil {
		max := func(to *Float, m recovery.Measure) func() { return func() { *to = Float(rd.Max(m.Metric()).Value) } }
		err := steps(ctx, max(&t.Acc, recovery.Accuracy), max(&t.BAcc, recovery.BalancedAccuracy), max(&t.F1, recovery.F1), max(&t.MCC, recovery.MCC))
		if err != nil {
			return err
		}
		if opts.Threshold != nil {
			t.AtThreshold = truthAtThreshold(rd.ConfusionAt(*opts.Threshold), *opts.Threshold)
		}
	} else if opts.Threshold != nil {
		t.AtThreshold = &TruthAtThreshold{Threshold: Float(*opts.Threshold), Acc: nan, BAcc: nan, F1: nan, MCC: nan}
	}
	res.Truth = t
	return stopped(ctx)
}

// assumptions lists what the numbers of res need.
func assumptions(res *Result) []Assumption {
	a := []Assumption{
		{"all recovered numbers", "the labeled examples are a random sample of their classes (SCAR; with label noise, of the positives and the negatives separately): a labeled positive scores like an unlabeled positive, likewise for negatives. Under biased labeling (which positives get labeled depends on their features) the recovered numbers are biased, and so is every estimator of alpha and beta"},
		{"all numbers", "the scores are held out (out-of-fold or out-of-bag, never scores of the rows the model was trained on) and higher means more positive"},
		{"auc, aucpr", "are about the unlabeled set U with its true labels (AAAI-2017): alpha is its fraction of positives"},
		{"acc, bacc, f1, mcc", "are about all the data D = L u U with their true labels (PSB-2019): pi = c beta + (1 - c) alpha is its fraction of positives"},
	}
	if res.Priors.Source == "estimated" {
		a = append(a, Assumption{"alpha, beta estimates", "the positives' score distribution is not contained in the negatives' (irreducibility; AlphaMax, AlphaMax-N estimate the largest fraction consistent with the data); alphamax, distcurve, km1 and km2 also assume clean labels (beta = 1)"})
	}
	if res.Bounds != nil {
		a = append(a, Assumption{"bounds", "every labeled example is positive (beta = 1) and the labeled positives are a random sample of the positives (Claesen et al. 2015); they bound the curves of D = L u U for alpha in the given interval, at the band's confidence level"})
	}
	if res.Bootstrap != nil {
		a = append(a, Assumption{"intervals", "cover " + res.Bootstrap.Covers})
	}
	return a
}

// Estimate runs the class-prior estimators on in without evaluating a
// model (`pueval estimate --method all`): opts.Estimators, or every one
// that applies to what in holds (the score-reading ones with scores, the
// feature-reading ones with features, on a subsample of opts.KMMaxRows
// rows). It returns each estimator's result (without recovered numbers)
// and their agreement. Only bad input and a cancelled ctx are errors; an
// estimator that fails has its Error set.
func Estimate(ctx context.Context, in Input, opts Options) ([]EstimatorResult, *Agreement, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, nil, fmt.Errorf("evaluate: %w", err)
	}
	if _, _, err := in.check(); err != nil {
		return nil, nil, err
	}
	names := opts.Estimators
	if len(names) == 0 {
		for _, n := range Applicable(in.Features != nil) {
			if ReadsFeatures(n) || in.Scores != nil {
				names = append(names, n)
			}
		}
	}
	var ss scoreSample
	if in.Scores != nil {
		labeled, unlabeled := split(in.Scores, in.Labeled)
		var err error
		if ss, err = scoreSampleOf(ctx, labeled, unlabeled, opts); err != nil {
			return nil, nil, err
		}
	}
	out := []EstimatorResult{}
	for _, name := range names {
		if !ReadsFeatures(name) && in.Scores == nil {
			return nil, nil, fmt.Errorf("evaluate: estimator %s reads scores, and the input has none", name)
		}
		if ReadsFeatures(name) && in.Features == nil {
			return nil, nil, fmt.Errorf("evaluate: estimator %s reads the examples' features, and the input has none", name)
		}
		e := runEstimator(ctx, name, ss, in, opts)
		if ctx.Err() != nil {
			return nil, nil, fmt.Errorf("evaluate: %w", context.Cause(ctx))
		}
		out = append(out, e.EstimatorResult)
	}
	return out, agreementOf(out), nil
}

// Applicable lists the estimators that apply to an input, the default
// first: AlphaMax-N (noisy labels, estimates both alpha and beta), then
// every other registered score-reading estimator, then, with features,
// the feature-reading ones.
func Applicable(features bool) []string {
	names := []string{classprior.AlphaMaxNName}
	var feat []string
	for _, n := range classprior.Names() {
		if n == classprior.AlphaMaxNName {
			continue
		}
		if ReadsFeatures(n) {
			feat = append(feat, n)
		} else {
			names = append(names, n)
		}
	}
	if features {
		names = append(names, feat...)
	}
	return names
}

// ReadsFeatures reports whether the named estimator reads feature rows
// rather than scores.
func ReadsFeatures(name string) bool {
	c, err := classprior.Defaults(name)
	if err != nil {
		return false
	}
	fr, ok := c.(classprior.FeatureReader)
	return ok && fr.ReadsFeatures()
}

// ParseEstimators reads a comma-separated list of estimator names, or
// "all" (nil: every one that applies).
func ParseEstimators(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "all" {
		return nil, nil
	}
	var names []string
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if _, err := classprior.Defaults(n); err != nil {
			return nil, err
		}
		if slices.Contains(names, n) {
			return nil, fmt.Errorf("estimator %s listed twice", n)
		}
		names = append(names, n)
	}
	return names, nil
}
