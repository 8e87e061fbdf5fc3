package evaluate

import (
	"context"
	"fmt"
	"sync"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/metrics"
)

// runResamples computes resamples 0..n-1 on workers goroutines, each with
// its own scratch memory.
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
			var sc scratch
			for b := range next {
				r, err := s.resample(ctx, b, &sc)
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

// BootstrapScores resamples the labeled and unlabeled scores n times with
// the scores held fixed and returns the intervals at level (around the
// numbers recovered under the caller's alpha and beta on every row, as
// [SamplingInterval] builds them; alpha's and beta's are percentile ones):
// with method "" alpha and beta are held at the given values, otherwise
// the named score-reading estimator estimates them again in every
// resample, on all its draws (the caller's alpha and beta are an estimate
// on every row; [Run] subsamples both above Options.EstimatorMaxRows).
// seed fixes the draws; workers (0: GOMAXPROCS) never changes a number.
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
	opts := Options{Level: level, Seed: seed, Outside: outside, Workers: workers, EstimatorMaxRows: max(len(scores), 20)}.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("evaluate: %w", err)
	}
	r, err := metrics.RankContext(ctx, scores, labeled)
	if err != nil {
		return nil, fmt.Errorf("evaluate: bootstrap: %w", err)
	}
	s, err := newResampler(ctx, r, in, method, alpha, beta, opts)
	if err != nil {
		return nil, err
	}
	draws, err := s.runResamples(ctx, n, opts.Workers)
	if err != nil {
		return nil, fmt.Errorf("evaluate: bootstrap: %w", err)
	}
	point, err := s.pointEstimate(ctx)
	if err != nil {
		return nil, err
	}
	return intervalsOf(draws, point, level, method != ""), nil
}

// pointEstimate is the recovered numbers of the whole sample under the
// resampler's alpha and beta (the caller's), the points the intervals are
// built around; NaN where the priors are unusable.
func (s *Resampler) pointEstimate(ctx context.Context) (*resampleResult, error) {
	p := &resampleResult{auc: nan64, direct: nan64, aucpr: nan64}
	for i := range p.measures {
		p.measures[i], p.at[i] = nan64, nan64
	}
	if recovery.CheckPriors(s.alpha, s.beta) != nil {
		return p, nil
	}
	var ws recovery.Workspace
	num, err := recoverTally(ctx, &ws, s.base, s.alpha, s.beta, s.opts.Outside)
	if err != nil {
		return nil, err
	}
	p.auc, p.direct, p.aucpr = num.AUC, num.Direct, num.AUCPR
	for i, m := range num.Max {
		p.measures[i] = m.Value
	}
	if s.atK >= 0 {
		if p.at, err = recovery.AtThreshold(s.base, s.atK, s.alpha, s.beta); err != nil {
			return nil, fmt.Errorf("evaluate: bootstrap: %w", err)
		}
	}
	return p, nil
}

// pointOf is res's recovered numbers, the points its intervals are built
// around (NaN where a number is missing).
func pointOf(res *Result) *resampleResult {
	m := &res.Metrics
	p := &resampleResult{auc: float64(m.AUC.Recovered), direct: nan64, aucpr: float64(m.AUCPR.Recovered)}
	if m.AUC.Direct != nil {
		p.direct = float64(*m.AUC.Direct)
	}
	for i, me := range recovery.Measures {
		mt := m.measure(me)
		p.measures[i], p.at[i] = float64(mt.Recovered), nan64
		if mt.AtThreshold != nil {
			p.at[i] = float64(mt.AtThreshold.Recovered)
		}
	}
	return p
}

// bootstrap fills res's intervals; r ranks the input's scores. The
// resamples hold the priors at res.Priors (their sampling); with estimated
// priors each interval is then widened over the region of priors (see
// priors.go).
func bootstrap(ctx context.Context, res *Result, r *metrics.Ranking, in Input, opts Options) error {
	res.Bootstrap = &Bootstrap{Resamples: opts.Bootstrap, Level: Float(opts.Level), Seed: opts.Seed, Method: BootstrapMethod, Covers: CoversGiven}
	if !res.Priors.Valid {
		res.Bootstrap.Failed = opts.Bootstrap // no priors to recover under
		return nil
	}
	s, err := newResampler(ctx, r, in, "", float64(res.Priors.Alpha), float64(res.Priors.Beta), opts)
	if err != nil {
		return err
	}
	draws, err := s.runResamples(ctx, opts.Bootstrap, opts.Workers)
	if err != nil {
		return fmt.Errorf("evaluate: bootstrap: %w", err)
	}
	iv := intervalsOf(draws, pointOf(res), opts.Level, false)
	res.Bootstrap.Used, res.Bootstrap.Failed = iv.Used, iv.Resamples-iv.Used
	res.Metrics.AUC.Interval, res.Metrics.AUC.DirectInterval = iv.AUC, iv.Direct
	res.Metrics.AUCPR.Interval = iv.AUCPR
	for i, m := range recovery.Measures {
		mt := res.Metrics.measure(m)
		mt.Interval = iv.Measures[i]
		if mt.AtThreshold != nil {
			mt.AtThreshold.Interval = iv.AtThreshold[i]
		}
	}
	res.Curves.ROC.Band, res.Curves.PR.Band = iv.ROC, iv.PR
	if res.Priors.Region == nil {
		return nil
	}
	res.Bootstrap.Covers = CoversEstimated
	return res.widenOverRegion(ctx, s.base, s.atK, opts)
}

// widenOverRegion widens every interval and band of res over the region of
// priors; t is the input's tally, atK the threshold of Options.Threshold
// in it (-1 without one).
func (res *Result) widenOverRegion(ctx context.Context, t recovery.Tally, atK int, opts Options) error {
	nums, err := res.regionNumbers(ctx, t, opts)
	if err != nil {
		return err
	}
	if atK >= 0 {
		if err := res.widenAtThreshold(t, atK, nums); err != nil {
			return err
		}
	}
	m := &res.Metrics
	values := func(get func(*recovery.Numbers) float64) []float64 {
		v := make([]float64, len(nums))
		for i := range nums {
			v[i] = get(&nums[i])
		}
		return v
	}
	m.AUC.Interval = widen(m.AUC.Interval, float64(m.AUC.Recovered), values(func(n *recovery.Numbers) float64 { return n.AUC }), 0, 1)
	if m.AUC.Direct != nil {
		m.AUC.DirectInterval = widen(m.AUC.DirectInterval, float64(*m.AUC.Direct), values(func(n *recovery.Numbers) float64 { return n.Direct }), 0, 1)
	}
	m.AUCPR.Interval = widen(m.AUCPR.Interval, float64(m.AUCPR.Recovered), values(func(n *recovery.Numbers) float64 { return n.AUCPR }), 0, 1)
	for i, me := range recovery.Measures {
		mt := m.measure(me)
		lo, hi := me.Range()
		mt.Interval = widen(mt.Interval, float64(mt.Recovered), values(func(n *recovery.Numbers) float64 { return n.Max[i].Value }), lo, hi)
	}
	var ws recovery.Workspace
	center, err := recoverTally(ctx, &ws, t, float64(res.Priors.Alpha), float64(res.Priors.Beta), opts.Outside)
	if err != nil {
		return err
	}
	var rocs, prs [][]float64
	for i := range nums {
		rocs, prs = append(rocs, rocCurve(&nums[i]).grid()), append(prs, prCurve(&nums[i]).grid())
	}
	res.Curves.ROC.Band = widenBand(res.Curves.ROC.Band, rocCurve(&center).grid(), rocs)
	res.Curves.PR.Band = widenBand(res.Curves.PR.Band, prCurve(&center).grid(), prs)
	return stopped(ctx)
}

// widenBand widens a pointwise band (around the curve center, on the same
// grid) to cover the curves, each with the band's offsets there, as widen
// does for a number, within [0, 1].
func widenBand(b *Band, center []float64, curves [][]float64) *Band {
	if b == nil {
		return nil
	}
	for j := range b.X {
		if !b.Lower[j].Ok() || !b.Upper[j].Ok() {
			continue
		}
		iv := &Interval{b.Lower[j], b.Upper[j]}
		vals := make([]float64, len(curves))
		for i, c := range curves {
			vals[i] = c[j]
		}
		if w := widen(iv, center[j], vals, 0, 1); w != nil {
			b.Lower[j], b.Upper[j] = w.Low, w.High
		}
	}
	return b
}
