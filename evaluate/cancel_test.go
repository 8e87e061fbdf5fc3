package evaluate

import (
	"context"
	"errors"
	"testing"

	"github.com/pueval/pueval/internal/interrupt"
)

// TestRunStopsWhenCancelled: Run asks its context throughout its passes
// over the rows and thresholds (the ranking, the split, the estimator's
// binning, the recovery and its curve's sort, each measure, the truth, the
// bootstrap's draws), at least once per interrupt.Every rows of every
// pass, and a context cancelled at any of those checks (the first, the
// second, and twenty spread over all of them: interrupt.Countdown, no
// clock) ends Run at that check, with context.Canceled and no result, at
// most a few checks later (the ones of the way out). Before, Run asked
// only between its stages and resamples: 8 checks for this input, with
// up to 2.5 s of work between two of them on 10^7 rows.
func TestRunStopsWhenCancelled(t *testing.T) {
	scores, labeled, truth := puScores(t, 11, 2, 0.3, 0.9, 20_000, 80_000)
	in := Input{Scores: scores, Labeled: labeled, Truth: truth}
	opts := Options{Estimators: []string{"alphamax-n"}, Bootstrap: 2, BoundsResamples: 50, Workers: 1}
	all := interrupt.NewCountdown(1 << 62)
	if _, err := Run(all, in, opts); err != nil {
		t.Fatal(err)
	}
	total := all.Calls()
	// The ranking's, the recovery's and the truth's passes each ask at
	// least once per interrupt.Every rows.
	if min := int64(10 * len(scores) / interrupt.Every); total < min {
		t.Errorf("Run on %d rows asked its context %d times, want at least %d", len(scores), total, min)
	}
	ks := []int64{1, 2}
	for i := range int64(20) {
		ks = append(ks, 3+i*(total-3)/19)
	}
	for _, k := range ks {
		ctx := interrupt.NewCountdown(k)
		res, err := Run(ctx, in, opts)
		if !errors.Is(err, context.Canceled) || res != nil {
			t.Errorf("cancelled at check %d of %d: result %v, error %v, want context.Canceled and no result", k, total, res != nil, err)
		}
		if after := ctx.Calls() - k; after > 8 {
			t.Errorf("cancelled at check %d of %d: asked %d more times before returning, want it to stop at once", k, total, after)
		}
	}
}
