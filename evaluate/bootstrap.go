package evaluate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/metrics"
)

// resampleResult is what one bootstrap resample gives.
type resampleResult struct {
	ok                 bool
	alpha, beta        float64 // the priors it used (re-estimated or fixed)
	estimated          bool    // alpha and beta were estimated (even if unusable)
	auc, direct, aucpr float64
	measures           [len(recovery.Measures)]float64
	roc, pr            []float64 // the recovered curves on the band grid
}

// Resampler draws bootstrap resamples of a PU sample with its scores held
// fixed: L and U are resampled separately with replacement (their sizes
// kept), alpha and beta are estimated again in each resample by the named
// estimator (or held at given values), and every recovered number is
// computed again. Resample b draws only from streams of (seed, b), so the
// results are the same whatever the number or order of the workers.
type Resampler struct {
	lScores, uScores []float64
	lRows, uRows     []int
	features         *mat.Dense
	method           string  // "" with fixed priors
	alpha, beta      float64 // the fixed priors
	opts             Options
}

// drawn is one resample's rows: the scores (labeled first), their labels
// and, for a feature-reading estimator, their rows in the feature matrix.
type drawn struct {
	scores     []float64
	labels     []bool
	lIdx, uIdx []int
}

// draw draws resample b's rows with replacement, L and U separately,
// asking ctx every interrupt.Every draws.
func (s *Resampler) draw(ctx context.Context, b int) (drawn, error) {
	rng := stream(s.opts.Seed, tagResample, uint64(b))
	nL, nU := len(s.lScores), len(s.uScores)
	d := drawn{scores: make([]float64, nL+nU), labels: make([]bool, nL+nU)}
	if s.features != nil {
		d.lIdx, d.uIdx = make([]int, nL), make([]int, nU)
	}
	tick := interrupt.New(ctx)
	for i := range nL {
		k := rng.IntN(nL)
		d.scores[i], d.labels[i] = s.lScores[k], true
		if d.lIdx != nil {
			d.lIdx[i] = s.lRows[k]
		}
		if err := tick.Tick(); err != nil {
			return drawn{}, err
		}
	}
	for i := range nU {
		k := rng.IntN(nU)
		d.scores[nL+i] = s.uScores[k]
		if d.uIdx != nil {
			d.uIdx[i] = s.uRows[k]
		}
		if err := tick.Tick(); err != nil {
			return drawn{}, err
		}
	}
	return d, nil
}

// resample computes resample b. ctx is asked every interrupt.Every draws
// and between the steps (on 10^7 rows a resample takes about 2.5 s: the
// draws, the ranking, the recovery and its curve's sort, which ask ctx
// themselves, and passes over the thresholds of under 0.1 s each).
func (s *Resampler) resample(ctx context.Context, b int) (resampleResult, error) {
	d, err := s.draw(ctx, b)
	if err != nil {
		return resampleResult{}, err
	}
	nL := len(s.lScores)
	scores, labels, lIdx, uIdx := d.scores, d.labels, d.lIdx, d.uIdx
	out := resampleResult{alpha: s.alpha, beta: s.beta}
	if s.method != "" {
		out.estimated = true
		smp := sample{labeled: scores[:nL], unlabeled: scores[nL:], lRows: lIdx, uRows: uIdx}
		e, _, _, err := estimateOn(ctx, s.method, smp, s.features, s.opts,
			stream(s.opts.Seed, tagResampleEstimator, uint64(b)), stream(s.opts.Seed, tagResampleEstimator, uint64(b), 1))
		if err != nil {
			if ctx.Err() != nil {
				return out, context.Cause(ctx)
			}
			out.alpha, out.beta = math.NaN(), math.NaN()
			return out, nil // an estimator that fails on a resample: the resample fails
		}
		out.alpha, out.beta = e.Alpha, e.Beta
	}
	r, err := metrics.RankContext(ctx, scores, labels)
	if err != nil {
		if ctx.Err() != nil {
			return out, context.Cause(ctx)
		}
		return out, err // the scores were checked: a bug
	}
	rc, err := recovery.NewContext(ctx, r, out.alpha, out.beta)
	if ctx.Err() != nil {
		return out, context.Cause(ctx)
	}
	if err != nil {
		return out, nil // beta <= alpha: the resample fails
	}
	o := s.opts.Outside
	if err := rc.PrepareROC(ctx, o); err != nil {
		if ctx.Err() != nil {
			return out, context.Cause(ctx)
		}
		return out, err
	}
	var roc []metrics.ROCPoint
	var pr []metrics.PRPoint
	todo := []func(){
		func() { roc = rc.ROC(o) },
		func() { out.auc = metrics.TrapezoidAUC(roc) }, // rc.IndirectAUC(o), without sorting the curve again
		func() { out.direct = rc.DirectAUC() },
		// The recovered ROC curve is sorted once: the PR curve is read off
		// it (recovery.DefaultPRCurve is PRFromROC; the test checks that
		// the area equals rc.AUCPR's).
		func() { pr = rc.PRFromROC(roc) },
		func() { out.aucpr = recovery.AreaUnder(pr, recovery.DefaultPRArea) },
	}
	for i, m := range recovery.Measures {
		todo = append(todo, func() { out.measures[i] = rc.Max(m).Value })
	}
	todo = append(todo, func() { out.roc = rocXY(roc).grid() }, func() { out.pr = prXY(pr).monotoneX().grid() })
	for _, f := range todo {
		if err := interrupt.Check(ctx); err != nil {
			return out, err
		}
		f()
	}
	out.ok = true
	return out, nil
}

// runResamples computes resamples 0..n-1 on workers goroutines.
func (s *Resampler) runResamples(ctx context.Context, n, workers int) ([]resampleResult, error) {
	out := make([]resampleResult, n)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range min(workers, n) {
		wg.Go(func() {
			for b := range next {
				r, err := s.resample(ctx, b)
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					cancel()
					continue
				}
				out[b] = r
			}
		})
	}
feed:
	for b := range n {
		select {
		case next <- b:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	return out, nil
}

// PercentileInterval is the percentile bootstrap interval at level of
// values: their (1-level)/2 and (1+level)/2 type-7 quantiles. NaN values
// are left out; with fewer than 2 values left it is nil.
func PercentileInterval(values []float64, level float64) *Interval {
	v := make([]float64, 0, len(values))
	for _, x := range values {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	if len(v) < 2 {
		return nil
	}
	slices.Sort(v)
	return &Interval{Float(metrics.Quantile7(v, (1-level)/2)), Float(metrics.Quantile7(v, (1+level)/2))}
}

// Intervals are the bootstrap intervals of the recovered numbers, for
// callers that resample a ranking themselves (pueval correct --bootstrap).
type Intervals struct {
	Resamples, Used int
	Alpha, Beta     *Interval // estimated priors only
	AUC, Direct     *Interval
	AUCPR           *Interval
	Measures        [len(recovery.Measures)]*Interval // in the order of recovery.Measures
	// ROC and PR are the pointwise bands of the recovered curves.
	ROC, PR *Band
}

// Bootstrap resamples the labeled and unlabeled scores (nL labeled, in the
// order of labeled) n times with the scores held fixed and returns the
// percentile intervals at level: with method "" alpha and beta are held at
// the given values, otherwise the named score-reading estimator estimates
// them again in every resample. seed fixes the draws; workers (0:
// GOMAXPROCS) never changes a number.
func BootstrapScores(ctx context.Context, scores []float64, labeled []bool, method string, alpha, beta float64,
	n int, level float64, outside recovery.Outside, seed uint64, workers int) (*Intervals, error) {
	if method != "" && ReadsFeatures(method) {
		return nil, fmt.Errorf("evaluate: bootstrap: %s reads features, not scores", method)
	}
	in := Input{Scores: scores, Labeled: labeled}
	if _, _, err := in.check(); err != nil {
		return nil, err
	}
	if n < 1 || n > MaxBootstrap {
		return nil, fmt.Errorf("evaluate: bootstrap %d: want 1 to %d resamples", n, MaxBootstrap)
	}
	opts := Options{Level: level, Seed: seed, Outside: outside, Workers: workers}.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("evaluate: %w", err)
	}
	s := newResampler(in, scores, method, alpha, beta, opts)
	draws, err := s.runResamples(ctx, n, opts.Workers)
	if err != nil {
		return nil, fmt.Errorf("evaluate: bootstrap: %w", err)
	}
	return intervalsOf(draws, level, method != ""), nil
}

func newResampler(in Input, scores []float64, method string, alpha, beta float64, opts Options) *Resampler {
	l, u := split(scores, in.Labeled)
	s := &Resampler{lScores: l, uScores: u, method: method, alpha: alpha, beta: beta, opts: opts}
	if method != "" && ReadsFeatures(method) {
		s.features = in.Features
		s.lRows, s.uRows = rowsOf(in.Labeled)
	}
	return s
}

// intervalsOf turns the resamples into percentile intervals.
func intervalsOf(draws []resampleResult, level float64, estimated bool) *Intervals {
	iv := &Intervals{Resamples: len(draws)}
	var alpha, beta, auc, direct, aucpr []float64
	var meas [len(recovery.Measures)][]float64
	var roc, pr [][]float64
	for _, d := range draws {
		if d.estimated {
			alpha, beta = append(alpha, d.alpha), append(beta, d.beta)
		}
		if !d.ok {
			continue
		}
		iv.Used++
		auc, direct, aucpr = append(auc, d.auc), append(direct, d.direct), append(aucpr, d.aucpr)
		for i := range meas {
			meas[i] = append(meas[i], d.measures[i])
		}
		roc, pr = append(roc, d.roc), append(pr, d.pr)
	}
	if estimated {
		iv.Alpha, iv.Beta = PercentileInterval(alpha, level), PercentileInterval(beta, level)
	}
	iv.AUC, iv.Direct, iv.AUCPR = PercentileInterval(auc, level), PercentileInterval(direct, level), PercentileInterval(aucpr, level)
	for i := range meas {
		iv.Measures[i] = PercentileInterval(meas[i], level)
	}
	iv.ROC, iv.PR = bandOf(roc, level), bandOf(pr, level)
	return iv
}

// bandOf is the pointwise percentile band of curves read on the grid.
func bandOf(curves [][]float64, level float64) *Band {
	if len(curves) < 2 {
		return nil
	}
	x := gridX()
	b := &Band{X: make([]Float, len(x)), Lower: make([]Float, len(x)), Upper: make([]Float, len(x))}
	col := make([]float64, len(curves))
	for j := range x {
		for i, c := range curves {
			col[i] = c[j]
		}
		iv := PercentileInterval(col, level)
		b.X[j] = Float(x[j])
		if iv == nil {
			b.Lower[j], b.Upper[j] = nan, nan
			continue
		}
		b.Lower[j], b.Upper[j] = iv.Low, iv.High
	}
	return b
}

// bootstrap fills res's intervals.
func bootstrap(ctx context.Context, res *Result, in Input, scores []float64, opts Options) error {
	method := ""
	alpha, beta := float64(res.Priors.Alpha), float64(res.Priors.Beta)
	if res.Priors.Source == "estimated" {
		method = res.Priors.Method
	}
	res.Bootstrap = &Bootstrap{Resamples: opts.Bootstrap, Level: Float(opts.Level), Seed: opts.Seed,
		ReEstimated: method != "", Method: "percentile", Covers: Covers}
	if method == "" && res.Priors.Source == "estimated" {
		// No estimator ran: nothing to resample.
		res.Bootstrap.Failed = opts.Bootstrap
		return nil
	}
	s := newResampler(in, scores, method, alpha, beta, opts)
	draws, err := s.runResamples(ctx, opts.Bootstrap, opts.Workers)
	if err != nil {
		return fmt.Errorf("evaluate: bootstrap: %w", err)
	}
	iv := intervalsOf(draws, opts.Level, method != "")
	res.Bootstrap.Used, res.Bootstrap.Failed = iv.Used, iv.Resamples-iv.Used
	res.Priors.AlphaInterval, res.Priors.BetaInterval = iv.Alpha, iv.Beta
	if !res.Priors.Valid {
		return nil
	}
	res.Metrics.AUC.Interval, res.Metrics.AUC.DirectInterval = iv.AUC, iv.Direct
	res.Metrics.AUCPR.Interval = iv.AUCPR
	for i, m := range recovery.Measures {
		res.Metrics.measure(m).Interval = iv.Measures[i]
	}
	res.Curves.ROC.Band, res.Curves.PR.Band = iv.ROC, iv.PR
	return nil
}
