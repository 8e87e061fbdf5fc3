package evaluate

import (
	"fmt"
	"sort"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/metrics"
)

// The threshold measures at the caller's own threshold T (Options.Threshold):
// predicting positive when score >= T is predicting positive at the last
// threshold of the ranking at or above T, so every number at T is the one
// at that threshold k: the PU value from the PU confusion matrix there, the
// recovered one from the tally's counts through k (recovery.AtThreshold),
// in every bootstrap resample from the resample's tally at the same k, and
// over the region of priors from the input's counts through k under each
// grid point's priors.

// thresholdIndex returns the index k of the last threshold of r at or
// above t (0, +Inf, when t lies above every score): predicting positive at
// score >= t is predicting positive at threshold k. t is finite.
func thresholdIndex(r *metrics.Ranking, t float64) int {
	// The thresholds descend, +Inf first: the first one below t ends them.
	return sort.Search(r.Len(), func(i int) bool { return r.Threshold(i) < t }) - 1
}

// atThreshold sets every threshold measure's AtThreshold at threshold t:
// its PU value and, under valid res.Priors, its recovered value from the
// tally tl of r.
func (res *Result) atThreshold(r *metrics.Ranking, tl recovery.Tally, t float64) error {
	k := thresholdIndex(r, t)
	rec := [len(recovery.Measures)]float64{nan64, nan64, nan64, nan64}
	if p := res.Priors; p.Valid {
		var err error
		if rec, err = recovery.AtThreshold(tl, k, float64(p.Alpha), float64(p.Beta)); err != nil {
			return fmt.Errorf("evaluate: at threshold %v: %w", t, err)
		}
	}
	c := r.Confusion(k)
	for i, me := range recovery.Measures {
		res.Metrics.measure(me).AtThreshold = &AtThreshold{Threshold: Float(t), PU: Float(me.Metric()(c)), Recovered: Float(rec[i])}
	}
	return nil
}

// widenAtThreshold widens the intervals of the threshold measures at
// threshold k of the input's tally tl over the region of priors, as
// widenOverRegion widens the best values: nums are the recoveries at the
// region's grid points, whose priors they carry.
func (res *Result) widenAtThreshold(tl recovery.Tally, k int, nums []recovery.Numbers) error {
	l, u, err := tl.Predicted(k)
	if err != nil {
		return fmt.Errorf("evaluate: %w", err)
	}
	vals := make([][len(recovery.Measures)]float64, len(nums))
	for j := range nums {
		if vals[j], err = recovery.AtCounts(l, u, tl.NL, tl.NU, nums[j].Alpha, nums[j].Beta); err != nil {
			return fmt.Errorf("evaluate: the region of priors: %w", err)
		}
	}
	for i, me := range recovery.Measures {
		a := res.Metrics.measure(me).AtThreshold
		if a == nil {
			continue
		}
		col := make([]float64, len(vals))
		for j := range vals {
			col[j] = vals[j][i]
		}
		lo, hi := me.Range()
		a.Interval = widen(a.Interval, float64(a.Recovered), col, lo, hi)
	}
	return nil
}

// truthAtThreshold is the true threshold measures of c, the true confusion
// matrix of L u U at threshold t.
func truthAtThreshold(c metrics.Confusion, t float64) *TruthAtThreshold {
	return &TruthAtThreshold{Threshold: Float(t), Acc: Float(c.Accuracy()), BAcc: Float(c.BalancedAccuracy()), F1: Float(c.F1()), MCC: Float(c.MCC())}
}
