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
// the scores held fixed and returns the percentile intervals at level:
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
	return intervalsOf(draws, level, method != ""), nil
}

// bootstrap fills res's intervals; r ranks the input's scores.
func bootstrap(ctx context.Context, res *Result, r *metrics.Ranking, in Input, opts Options) error {
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
	s, err := newResampler(ctx, r, in, method, alpha, beta, opts)
	if err != nil {
		return err
	}
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
