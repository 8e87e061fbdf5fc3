package metrics

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/internal/interrupt"
)

// TestRankContextStops: RankContext asks its context throughout its
// passes over the scores (at least once per interrupt.Every scores of the
// check and the split) and stops with context.Canceled at any of its
// checks (interrupt.Countdown: no clock); uncancelled, it is Rank. Before,
// ranking 10^7 scores (0.6 s) could not be stopped.
func TestRankContextStops(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 300_000
	s, y := make([]float64, n), make([]bool, n)
	for i := range s {
		s[i], y[i] = r.NormFloat64(), r.IntN(3) == 0
	}
	all := interrupt.NewCountdown(1 << 62)
	got, err := RankContext(all, s, y)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Rank(s, y)
	if !slices.Equal(got.thresholds, want.thresholds) || !slices.Equal(got.tp, want.tp) || !slices.Equal(got.fp, want.fp) {
		t.Error("RankContext's ranking differs from Rank's")
	}
	total := all.Calls()
	if min := int64(2 * n / interrupt.Every); total < min {
		t.Errorf("ranking %d scores asked the context %d times, want at least %d", n, total, min)
	}
	for _, k := range []int64{1, 2, total / 3, total / 2, total} {
		ctx := interrupt.NewCountdown(k)
		if _, err := RankContext(ctx, s, y); !errors.Is(err, context.Canceled) || ctx.Calls() > k+2 {
			t.Errorf("cancelled at check %d of %d: %v after %d checks, want context.Canceled at once", k, total, err, ctx.Calls())
		}
	}
}
