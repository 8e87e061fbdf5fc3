package bounds

import (
	"cmp"
	"context"
	"errors"
	"github.com/pueval/pueval/internal/interrupt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The radix sort orders like a stable comparison sort on the scores,
// descending: ties (many, and -0 with +0) in input order, negative and
// positive scores, subnormals and extremes.
func TestDescendingOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 0.5, -0.5}
	for _, n := range []int{1, 2, 17, 1000, 5000} {
		scores := make([]float64, n)
		for i := range scores {
			switch rng.IntN(3) {
			case 0:
				scores[i] = specials[rng.IntN(len(specials))]
			case 1:
				scores[i] = math.Round(rng.NormFloat64() * 3)
			default:
				scores[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			}
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		slices.SortStableFunc(want, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
		if got, _ := descendingOrder(context.Background(), scores); !slices.Equal(got, want) {
			t.Errorf("n = %d: radix order differs from the stable comparison sort", n)
		}
	}
}

// Rank returns errors, never panics, on bad input.
func TestRankErrors(t *testing.T) {
	P, U, N := Positive, Unlabeled, Negative
	for _, c := range []struct {
		scores []float64
		labels []Label
		ties   Ties
		want   string
	}{
		{nil, nil, Grouped, "empty"},
		{[]float64{1, 2}, []Label{P}, Grouped, "2 scores but 1 labels"},
		{[]float64{1, math.NaN()}, []Label{P, U}, Grouped, "score 1 is NaN"},
		{[]float64{math.Inf(1), 0}, []Label{P, U}, Grouped, "score 0 is +Inf"},
		{[]float64{1, 2}, []Label{U, N}, Grouped, "no known positive"},
		{[]float64{1, 2}, []Label{P, P}, InputOrder, "every instance is a known positive"},
		{[]float64{1, 2}, []Label{P, Label(9)}, Grouped, "label 1 is Label(9)"},
		{[]float64{1, 2}, []Label{P, U}, Ties(5), "unknown ties"},
	} {
		_, err := Rank(c.scores, c.labels, c.ties)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Rank(%v, %v): error %v, want %q", c.scores, c.labels, err, c.want)
		}
	}
	if _, err := Rank(nil, nil, Grouped); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v does not wrap ErrEmpty", err)
	}
}

// Bad beta, bands and levels are errors.
func TestBoundsErrors(t *testing.T) {
	r := mustRank(t, []float64{3, 2, 1, 0}, []Label{Positive, Unlabeled, Negative, Unlabeled}, Grouped)
	e := r.ECDF()
	for _, beta := range []Interval{{-0.1, 0.2}, {0.2, 1}, {0.5, 0.2}, {math.NaN(), 0.2}, {0, math.Inf(1)}} {
		if _, err := r.Bounds(e, beta); !errors.Is(err, ErrBeta) {
			t.Errorf("Bounds(beta %v): %v, want ErrBeta", beta, err)
		}
		if _, err := r.NegativeBounds(r.Flip().ECDF(), beta); !errors.Is(err, ErrBeta) {
			t.Errorf("NegativeBounds(beta %v): %v, want ErrBeta", beta, err)
		}
	}
	if _, _, err := r.Tables(e, 1, Rounded); !errors.Is(err, ErrBeta) {
		t.Errorf("Tables(beta 1): %v", err)
	}
	for _, c := range []struct {
		band Band
		want string
	}{
		{Band{}, "empty band"},
		{Band{Ranks: []int{0, 1}, Lower: []float64{0}, Upper: []float64{0, 1}}, "2 ranks, 1 lower"},
		{Band{Ranks: []int{1, 1}, Lower: []float64{0, 0}, Upper: []float64{0, 1}}, "strictly ascending"},
		{Band{Ranks: []int{-1}, Lower: []float64{0}, Upper: []float64{1}}, "< 0"},
		{Band{Ranks: []int{0}, Lower: []float64{0.5}, Upper: []float64{0.4}}, "lower <= upper"},
		{Band{Ranks: []int{0}, Lower: []float64{math.NaN()}, Upper: []float64{1}}, "lower <= upper"},
		{Band{Ranks: []int{0, 1}, Lower: []float64{0.5, 0.4}, Upper: []float64{1, 1}}, "decreases"},
		{Band{Ranks: []int{0, 4}, Lower: []float64{0, 1}, Upper: []float64{1, 1}}, "beyond the last rank 3"},
	} {
		if _, err := r.Bounds(c.band, PointInterval(0.3)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("band %+v: error %v, want %q", c.band, err, c.want)
		}
	}
	noNeg := mustRank(t, []float64{1, 0}, []Label{Positive, Unlabeled}, Grouped)
	if _, err := noNeg.NegativeBounds(e, PointInterval(0.3)); !errors.Is(err, ErrNoKnownNegative) {
		t.Errorf("NegativeBounds without known negatives: %v", err)
	}
	for _, level := range []float64{0, 1, -1, math.NaN()} {
		if _, err := r.DKW(level); err == nil {
			t.Errorf("DKW(%v): no error", level)
		}
		if _, err := r.Bootstrap(rand.New(rand.NewPCG(1, 1)), 10, level); err == nil {
			t.Errorf("Bootstrap(level %v): no error", level)
		}
	}
	if _, err := r.Bootstrap(rand.New(rand.NewPCG(1, 1)), 0, 0.95); err == nil {
		t.Error("Bootstrap(0 resamples): no error")
	}
	if _, err := r.Bootstrap(nil, 10, 0.95); err == nil {
		t.Error("Bootstrap(nil rng): no error")
	}
	for _, s := range []string{"grouped", "input-order"} {
		if ti, err := ParseTies(s); err != nil || ti.String() != s {
			t.Errorf("ParseTies(%q) = %v, %v", s, ti, err)
		}
	}
	if _, err := ParseTies("random"); err == nil {
		t.Error("ParseTies(random): no error")
	}
}

// Without ties the two modes give the same tables; with ties grouped mode
// has one cut-off per distinct score and tables equal to input-order mode's
// at each tie group's end (input-order mode's band being evaluated there).
func TestTiesModes(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(8, 8)), d1, 300, 1200, 0.2, 0.3)
	check := func(scores []float64, tied bool) {
		g, i := mustRank(t, scores, labels, Grouped), mustRank(t, scores, labels, InputOrder)
		bg, err := g.DKW(0.9)
		if err != nil {
			t.Fatal(err)
		}
		lg, ug, err := g.Tables(bg, 0.3, Rounded)
		if err != nil {
			t.Fatal(err)
		}
		li, ui, err := i.Tables(bg, 0.3, Rounded) // the grouped band, evaluated per position
		if err != nil {
			t.Fatal(err)
		}
		if !tied && (g.Cutoffs() != i.Cutoffs() || !slices.Equal(lg.Tables, li.Tables) || !slices.Equal(ug.Tables, ui.Tables)) {
			t.Error("no ties: grouped and input-order tables differ")
		}
		for c := range g.Cutoffs() {
			k := g.CutoffRank(c)
			if lg.Tables[c] != li.Tables[k] || ug.Tables[c] != ui.Tables[k] {
				t.Fatalf("tie group ending at rank %d: grouped %v/%v, input-order %v/%v", k, lg.Tables[c], ug.Tables[c], li.Tables[k], ui.Tables[k])
			}
		}
	}
	check(scores, false)
	rounded := slices.Clone(scores)
	for i := range rounded {
		rounded[i] = math.Round(rounded[i] * 5)
	}
	check(rounded, true)
}

// ReadBand reads the shared layout and names file and line in its errors.
func TestReadBand(t *testing.T) {
	b, err := ReadBand(strings.NewReader("rank0,lower,upper\n27,0.0,0.0\n40,0.0,0.003\n# note\n61,0.001,0.005\n"), "b.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.Ranks, []int{27, 40, 61}) || b.Upper[1] != 0.003 || b.Lower[2] != 0.001 {
		t.Errorf("read %+v", b)
	}
	if f := b.Float32(); f.Upper[1] != float64(float32(0.003)) || f.Upper[1] == 0.003 {
		t.Errorf("Float32: %v", f.Upper[1])
	}
	for _, c := range []struct{ in, want string }{
		{"", "b.csv: empty file"},
		{"rank,low,upper\n", "b.csv:1: header"},
		{"rank0,lower,upper\n", "b.csv: bounds: empty band"},
		{"rank0,lower,upper\n1.5,0,0\n", "b.csv:2: rank \"1.5\""},
		{"upper,lower,rank0\n0,0,1\n0.1,x,2\n", "b.csv:3: lower \"x\""},
		{"rank0,lower,upper\n1,0,0.5\n0,0,1\n", "strictly ascending"},
		{"rank0,lower,upper\n1,0\n", "b.csv: record on line 2: wrong number of fields"},
	} {
		if _, err := ReadBand(strings.NewReader(c.in), "b.csv"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadBand(%q): error %v, want %q", c.in, err, c.want)
		}
	}
}

// RankContext asks its context every few thousand instances and before
// each pass of the sort, gives Rank's ranking when never cancelled, and
// stops with context.Canceled at once when cancelled at any of its checks
// (a countdown context: no clock).
func TestRankContextStops(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(3, 4)), d1, 100_000, 200_000, 0.2, 0.1)
	all := interrupt.NewCountdown(1 << 62)
	got, err := RankContext(all, scores, labels, Grouped)
	if err != nil {
		t.Fatal(err)
	}
	want := mustRank(t, scores, labels, Grouped)
	if !slices.Equal(got.order, want.order) || !slices.Equal(got.cut, want.cut) || !slices.Equal(got.pos, want.pos) {
		t.Error("RankContext's ranking differs from Rank's")
	}
	total := all.Calls()
	if min := int64(2 * len(scores) / interrupt.Every); total < min {
		t.Errorf("ranking %d scores asked the context %d times, want at least %d", len(scores), total, min)
	}
	for _, k := range []int64{1, 2, total / 3, total / 2, total} {
		ctx := interrupt.NewCountdown(k)
		if _, err := RankContext(ctx, scores, labels, Grouped); !errors.Is(err, context.Canceled) || ctx.Calls() > k+2 {
			t.Errorf("cancelled at check %d of %d: %v after %d checks, want context.Canceled at once", k, total, err, ctx.Calls())
		}
	}
}
