package bounds

import (
	"context"
	"errors"
	"github.com/pueval/pueval/internal/interrupt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The band is a function of the random stream: the same seed gives the same
// band, another seed another one.
func TestBootstrapDeterministic(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(1, 1)), d3, 1000, 4000, 0.2, 0)
	r := mustRank(t, scores, labels, Grouped)
	band := func(seed uint64) Band {
		b, err := r.Bootstrap(rand.New(rand.NewPCG(seed, 9)), 500, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Check(); err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := band(1), band(1), band(2)
	if !slices.Equal(a.Lower, b.Lower) || !slices.Equal(a.Upper, b.Upper) {
		t.Error("same seed, different bands")
	}
	if slices.Equal(a.Lower, c.Lower) && slices.Equal(a.Upper, c.Upper) {
		t.Error("different seeds, same band")
	}
}

// The order statistics equal those of a plain implementation: the same
// draws (the same uniform.fill on the same stream), each resample's ECDF at
// every distinct known rank, each rank's values sorted, the elements at
// floor(B (1 - level)/2) and B minus that (capped at B - 1). Both tie modes
// (grouped: several known positives share a rank), several B and levels.
func TestBootstrapMatchesPlainPercentiles(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(2, 2)), d2, 300, 900, 0.3, 0)
	for i := range scores {
		scores[i] = math.Round(scores[i] * 4)
	}
	for _, ties := range []Ties{Grouped, InputOrder} {
		r := mustRank(t, scores, labels, ties)
		for _, c := range []struct {
			resamples int
			level     float64
			lo, hi    int
		}{{200, 0.95, 5, 195}, {1000, 0.9, 50, 950}, {2000, 0.95, 50, 1950}, {30, 0.99, 0, 29}, {1, 0.5, 0, 0}} {
			got, err := r.Bootstrap(rand.New(rand.NewPCG(5, uint64(c.resamples))), c.resamples, c.level)
			if err != nil {
				t.Fatal(err)
			}
			// The plain way.
			rng := rand.New(rand.NewPCG(5, uint64(c.resamples)))
			distinct := slices.Compact(slices.Clone(r.posRanks))
			of := make([]int32, len(r.posRanks))
			for i, rank := range r.posRanks {
				of[i] = int32(slices.Index(distinct, rank))
			}
			u := newUniform(len(of))
			cols := make([][]float64, len(distinct))
			for range c.resamples {
				hist := make([]int32, len(distinct))
				u.fill(rng, of, hist)
				cum := 0
				for j, h := range hist {
					cum += int(h)
					cols[j] = append(cols[j], float64(cum)/float64(len(of)))
				}
			}
			for j, col := range cols {
				slices.Sort(col)
				if got.Ranks[j] != distinct[j] || got.Lower[j] != col[c.lo] || got.Upper[j] != col[c.hi] {
					t.Fatalf("%v B=%d level %v rank %d: band [%v, %v], plain [%v, %v]", ties, c.resamples, c.level, distinct[j], got.Lower[j], got.Upper[j], col[c.lo], col[c.hi])
				}
			}
		}
	}
}

// uniform.fill draws every index equally often: 700,000 draws over 7
// indices (rejection matters since 2^32 is not a multiple of 7), each count
// within 5 standard deviations of 100,000; and n = 1 always draws 0.
func TestUniformDraws(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	of := []int32{0, 1, 2, 3, 4, 5, 6}
	u := newUniform(7)
	hist := make([]int32, 7)
	for range 100000 {
		u.fill(rng, of, hist)
	}
	sd := math.Sqrt(700000 * (1. / 7) * (6. / 7))
	for i, h := range hist {
		if math.Abs(float64(h)-100000) > 5*sd {
			t.Errorf("index %d drawn %d times of 700,000, want 100,000 +- %.0f", i, h, 5*sd)
		}
	}
	one := make([]int32, 1)
	newUniform(1).fill(rng, []int32{0, 0, 0}, one)
	if one[0] != 3 {
		t.Errorf("n = 1: %d draws of 0, want 3", one[0])
	}
}

// Spec §1.6 "own bootstrap": on covtype 5 % and 10 %, the bounds with our
// own 2,000-resample band are within 0.01 of those with the published code's
// stored band (rounded to float32), at the parity grid's betas (the true
// beta, 0.88 and 1.25 times it; beta = 0 needs no band), ties in input
// order. The tolerance is the band's resampling noise at 1,000 known
// positives.
func TestOwnBootstrapNearStoredBand(t *testing.T) {
	dir := claesenDir(t)
	for _, name := range []string{"covtype_pu5_seed1", "covtype_pu10_seed1"} {
		s := readShared(t, dir, name)
		r := mustRank(t, s.scores, s.labels, InputOrder)
		ours, err := r.Bootstrap(rand.New(rand.NewPCG(2015, 1)), 2000, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		stored := readSharedBand(t, dir, name).Float32()
		beta := s.trueBeta()
		worst := 0.0
		for _, bi := range []Interval{PointInterval(beta), PointInterval(0.88 * beta), PointInterval(1.25 * beta), {0.88 * beta, 1.25 * beta}} {
			a, err1 := r.Bounds(ours, bi)
			b, err2 := r.Bounds(stored, bi)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			for _, d := range [][2]float64{{a.AUC.Low, b.AUC.Low}, {a.AUC.High, b.AUC.High}, {a.AUPR.Low, b.AUPR.Low}, {a.AUPR.High, b.AUPR.High}} {
				worst = max(worst, math.Abs(d[0]-d[1]))
				if math.Abs(d[0]-d[1]) > 0.01 {
					t.Errorf("%s beta %v: our bound %.4f, stored band's %.4f", name, bi, d[0], d[1])
				}
			}
		}
		t.Logf("%s: largest difference %.4f", name, worst)
	}
}

// Spec §1.6 / paper Fig. 5: on covtype 5 %, the rank CDF of the latent
// positives (true label 1, not known) lies inside our own 95 % bootstrap
// band (2,000 resamples) at >= 99 % of the 40,000 positions (ties in input
// order, so positions are ranks).
func TestFigure5BandClaim(t *testing.T) {
	s := readShared(t, claesenDir(t), "covtype_pu5_seed1")
	r := mustRank(t, s.scores, s.labels, InputOrder)
	band, err := r.Bootstrap(rand.New(rand.NewPCG(2015, 5)), 2000, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	inside := bandContainsLatent(r, band, s.truth, s.labels)
	if inside < 0.99 {
		t.Errorf("latent positives' rank CDF inside the band at %.2f %% of positions, want >= 99 %%", 100*inside)
	}
	t.Logf("inside at %.2f %% of %d positions", 100*inside, r.N())
}

// bandContainsLatent is the fraction of cut-offs at which the band holds the
// rank CDF of the latent positives.
func bandContainsLatent(r *Ranking, band Band, truth []bool, labels []Label) float64 {
	latent := 0
	for i, y := range truth {
		if y && labels[i] == Unlabeled {
			latent++
		}
	}
	lo, hi := band.along(r)
	in, seen, c := 0, 0, 0
	for k, i := range r.order {
		if truth[i] && labels[i] == Unlabeled {
			seen++
		}
		if k != r.cut[c] {
			continue
		}
		cdf := float64(seen) / float64(latent)
		if lo[c] <= cdf && cdf <= hi[c] {
			in++
		}
		c++
	}
	return float64(in) / float64(r.Cutoffs())
}

// BootstrapContext gives Bootstrap's band when never cancelled and stops with
// context.Canceled at any of its checks (a countdown context: no clock).
func TestBootstrapContextStops(t *testing.T) {
	scores, _, labels := simulate(t, rand.New(rand.NewPCG(5, 5)), d1, 20000, 20000, 0.5, 0)
	r := mustRank(t, scores, labels, InputOrder)
	all := interrupt.NewCountdown(1 << 62)
	got, err := r.BootstrapContext(all, rand.New(rand.NewPCG(1, 1)), 300, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	want, err := r.Bootstrap(rand.New(rand.NewPCG(1, 1)), 300, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Lower, want.Lower) || !slices.Equal(got.Upper, want.Upper) {
		t.Error("BootstrapContext's band differs from Bootstrap's")
	}
	total := all.Calls()
	if total < 300/64 {
		t.Errorf("300 resamples asked the context %d times, want one every 64 at least", total)
	}
	for _, k := range []int64{1, total / 2, total} {
		ctx := interrupt.NewCountdown(k)
		if _, err := r.BootstrapContext(ctx, rand.New(rand.NewPCG(1, 1)), 300, 0.95); !errors.Is(err, context.Canceled) || ctx.Calls() > k+1 {
			t.Errorf("cancelled at check %d of %d: %v after %d checks", k, total, err, ctx.Calls())
		}
	}
}
