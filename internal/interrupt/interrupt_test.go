package interrupt

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestTicker(t *testing.T) {
	ctx := NewCountdown(3)
	tk := New(ctx)
	iters := 0
	for ; iters < 100*Every; iters++ {
		if err := tk.Tick(); err != nil {
			if !errors.Is(err, context.Canceled) {
				t.Fatal(err)
			}
			break
		}
	}
	// Checks at iterations Every, 2 Every and 3 Every: the third says stop.
	if iters != 3*Every-1 {
		t.Errorf("stopped after %d iterations, want %d (the third check)", iters+1, 3*Every)
	}
}

// TestSortFunc: a finished sort is slices.SortFunc's, bit for bit; a
// cancelled one stops within Every comparisons of the cancellation, with
// the elements permuted, none lost.
func TestSortFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 200_000)
	for i := range x {
		x[i] = math.Round(r.NormFloat64()*100) / 100 // ties
	}
	x[5], x[6] = math.Copysign(0, -1), 0
	want, got := slices.Clone(x), slices.Clone(x)
	slices.SortFunc(want, cmp.Compare[float64])
	if err := SortFunc(context.Background(), got, cmp.Compare[float64]); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
			t.Fatalf("position %d: %v, slices.SortFunc %v", i, got[i], want[i])
		}
	}
	ctx := NewCountdown(4)
	got = slices.Clone(x)
	var compared int
	err := SortFunc(ctx, got, func(a, b float64) int { compared++; return cmp.Compare(a, b) })
	if !errors.Is(err, context.Canceled) || compared >= 4*Every {
		t.Errorf("cancelled at the 4th check: %v after %d comparisons, want context.Canceled before %d", err, compared, 4*Every)
	}
	slices.Sort(got)
	sorted := slices.Clone(x)
	slices.Sort(sorted)
	if !slices.Equal(sorted, got) {
		t.Error("a cancelled sort lost or changed elements")
	}
	if err := Sort(NewCountdown(1), got); !errors.Is(err, context.Canceled) {
		t.Errorf("Sort with a done context: %v", err)
	}
	// A panic of the comparison itself is not swallowed.
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the comparison's own panic", r)
		}
	}()
	SortFunc(context.Background(), got, func(a, b float64) int { panic("boom") })
}
