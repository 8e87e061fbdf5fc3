package recovery

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/metrics"
)

// TestRecoveryStops: NewContext and PrepareROC (the sort of the recovered
// curve: 2 s on 10^7 thresholds) ask their context throughout and stop
// with context.Canceled at any of their checks (interrupt.Countdown); a
// stopped curve is not kept, so the next call computes it; uncancelled,
// they give New's recovery and ROC's curve.
func TestRecoveryStops(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 300_000
	s, y := make([]float64, n), make([]bool, n)
	for i := range s {
		y[i] = r.IntN(4) == 0
		s[i] = r.NormFloat64()
		if y[i] {
			s[i] += 1
		}
	}
	rk, err := metrics.Rank(s, y)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := New(rk, 0.3, 0.9)
	all := interrupt.NewCountdown(1 << 62)
	rc, err := NewContext(all, rk, 0.3, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if err := rc.PrepareROC(all, Drop); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rc.Points(), want.Points()) || !slices.Equal(rc.ROC(Drop), want.ROC(Drop)) {
		t.Error("NewContext and PrepareROC give another recovery or curve than New and ROC")
	}
	total := all.Calls()
	if min := int64(2 * rk.Len() / interrupt.Every); total < min {
		t.Errorf("%d thresholds: the context was asked %d times, want at least %d", rk.Len(), total, min)
	}
	for _, k := range []int64{1, 2, total / 3, total / 2, total} {
		ctx := interrupt.NewCountdown(k)
		rc, err := NewContext(ctx, rk, 0.3, 0.9)
		if err == nil {
			err = rc.PrepareROC(ctx, Drop)
		}
		if !errors.Is(err, context.Canceled) || ctx.Calls() > k+2 {
			t.Errorf("cancelled at check %d of %d: %v after %d checks, want context.Canceled at once", k, total, err, ctx.Calls())
		}
		if rc != nil && !slices.Equal(rc.ROC(Drop), want.ROC(Drop)) {
			t.Errorf("cancelled at check %d: the curve computed afterwards differs (a stopped sort was kept)", k)
		}
	}
	if err := want.PrepareROC(context.Background(), Outside(7)); err == nil {
		t.Error("PrepareROC of an unknown outside mode: no error")
	}
}
