package bounds

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pueval/pueval/internal/interrupt"
)

// MaxBootstrapCells bounds the memory of [Ranking.Bootstrap]: resamples
// times distinct known ranks, each count taking 2 or 4 bytes (at most 1 GiB).
// 2,000 resamples of 100,000 distinct ranks fit.
const MaxBootstrapCells = 1 << 28

// Bootstrap returns the percentile bootstrap band of the given confidence
// level on the rank CDF of the known positives (paper Sec. 4.2 and Fig. 5):
// draw `resamples` resamples of the known positive ranks
// with replacement, each of size |P_L|; evaluate the ECDF of each at every
// distinct known positive rank (#{resampled ranks <= rho} / |P_L|); at each
// rank sort the resampled values and take the elements at 0-based indices
// k = floor(resamples (1 - level)/2) and resamples - k (50 and 1,950 of
// 2,000 at level 0.95, as the published code does; the upper index is capped
// at resamples - 1 when k = 0). The floor is taken with a 1e-9 guard, so that
// a level whose binary value is a hair off (1 - 0.9 = 0.0999...98) gives the
// intended index.
//
// The band is deterministic for a given state of rng and is exactly
// reproducible from a seed. The values stay in float64 (use [Band.Float32]
// for the published code's single-precision quirk). Cost: O(resamples
// (|P_L| + distinct ranks)) time, and 2 or 4 bytes per resample and distinct
// rank of memory (8 MB for 2,000 x 2,000); an error beyond
// [MaxBootstrapCells]. It is BootstrapContext with a context that is never
// done.
func (r *Ranking) Bootstrap(rng *rand.Rand, resamples int, level float64) (Band, error) {
	return r.BootstrapContext(context.Background(), rng, resamples, level)
}

// BootstrapContext is [Ranking.Bootstrap] that stops, with an error wrapping
// ctx's cause, when ctx is done (checked every 64 resamples and every few
// thousand ranks of the quantiles); a band it finishes is Bootstrap's.
func (r *Ranking) BootstrapContext(ctx context.Context, rng *rand.Rand, resamples int, level float64) (Band, error) {
	if rng == nil {
		return Band{}, errors.New("bounds: bootstrap needs a random source")
	}
	if resamples < 1 {
		return Band{}, fmt.Errorf("bounds: %d bootstrap resamples (want at least 1)", resamples)
	}
	if err := checkLevel(level); err != nil {
		return Band{}, err
	}
	// distinct[j] is the j-th distinct known positive rank; of[i] the index
	// in distinct of known positive i.
	var distinct []int
	of := make([]int32, len(r.posRanks))
	for i, rank := range r.posRanks {
		if i == 0 || rank != r.posRanks[i-1] {
			distinct = append(distinct, rank)
		}
		of[i] = int32(len(distinct) - 1)
	}
	if cells := len(distinct) * resamples; cells > MaxBootstrapCells {
		return Band{}, fmt.Errorf("bounds: a bootstrap of %d resamples at %d distinct known ranks keeps %d counts, more than %d (%d MiB): use fewer resamples or the DKW band",
			resamples, len(distinct), cells, MaxBootstrapCells, MaxBootstrapCells*4>>20)
	}
	k := int(math.Floor(float64(float64(resamples)*(1-level)/2) + 1e-9))
	lo, hi := k, min(resamples-k, resamples-1)
	b := Band{Ranks: distinct, Lower: make([]float64, len(distinct)), Upper: make([]float64, len(distinct))}
	var err error
	if len(r.posRanks) <= math.MaxUint16 {
		err = bootstrapQuantiles[uint16](ctx, rng, of, resamples, lo, hi, b)
	} else {
		err = bootstrapQuantiles[uint32](ctx, rng, of, resamples, lo, hi, b)
	}
	if err != nil {
		return Band{}, fmt.Errorf("bounds: bootstrap of %d resamples: %w", resamples, err)
	}
	return b, nil
}

// bootstrapQuantiles fills b.Lower and b.Upper with the lo-th and hi-th
// smallest resampled ECDF values at each distinct rank. The resampled counts
// are kept column by column (one column per distinct rank), in T, which
// must hold |P_L|.
func bootstrapQuantiles[T uint16 | uint32](ctx context.Context, rng *rand.Rand, of []int32, resamples, lo, hi int, b Band) error {
	n, m := len(of), len(b.Ranks)
	counts := make([]T, m*resamples) // counts[j*resamples+s]: #{resample s <= rank j}
	colMin, colMax := make([]T, m), make([]T, m)
	for j := range colMin {
		colMin[j] = ^T(0)
	}
	// A block of resamples is counted row by row, then copied into counts
	// in tiles of columns, so that reads and writes stay in cache.
	const block, tile = 64, 32
	rows := make([]T, block*m)
	hist := make([]int32, m)
	u := newUniform(n)
	for s0 := 0; s0 < resamples; s0 += block {
		if err := interrupt.Check(ctx); err != nil {
			return err
		}
		nb := min(block, resamples-s0)
		for s := range nb {
			clear(hist)
			u.fill(rng, of, hist)
			var c int32
			row := rows[s*m : (s+1)*m]
			for j, h := range hist {
				c += h
				row[j] = T(c)
			}
		}
		for j0 := 0; j0 < m; j0 += tile {
			for s := range nb {
				row := rows[s*m : (s+1)*m]
				for j := j0; j < min(j0+tile, m); j++ {
					v := row[j]
					counts[j*resamples+s0+s] = v
					colMin[j], colMax[j] = min(colMin[j], v), max(colMax[j], v)
				}
			}
		}
	}
	// Select the two order statistics of each column by counting: the
	// values are integers in [0, n], and within a column they span a window
	// of a few binomial standard deviations, so this is O(resamples +
	// window) per column rather than a sort.
	freq := make([]int32, n+1)
	tick := interrupt.New(ctx)
	for j := range m {
		if err := tick.Tick(); err != nil {
			return err
		}
		col := counts[j*resamples : (j+1)*resamples]
		vmin := colMin[j]
		window := freq[:int(colMax[j]-vmin)+1]
		clear(window)
		for _, v := range col {
			window[v-vmin]++
		}
		b.Lower[j] = float64(int(vmin)+orderStat(window, lo)) / float64(n)
		b.Upper[j] = float64(int(vmin)+orderStat(window, hi)) / float64(n)
	}
	return nil
}

// orderStat returns the offset of the k-th smallest (0-based) value of a
// histogram of offsets.
func orderStat(window []int32, k int) int {
	seen := 0
	for v, f := range window {
		seen += int(f)
		if seen > k {
			return v
		}
	}
	return len(window) - 1
}

// uniform draws integers uniformly from [0, n), n < 2^32, two from each
// 64-bit output of the source: Lemire's multiply-shift on each 32-bit half,
// with his rejection step, so that the draws are exactly uniform. Half the
// source outputs of rand.IntN, which spends one on each draw.
type uniform struct {
	n         uint64
	threshold uint32 // 2^32 mod n: a half whose low product word is below it is rejected
}

func newUniform(n int) uniform {
	return uniform{n: uint64(n), threshold: -uint32(n) % uint32(n)}
}

// fill adds one resample of len(of) draws to hist: hist[of[i]]++ for each
// drawn i.
func (u uniform) fill(rng *rand.Rand, of []int32, hist []int32) {
	for k := 0; k < len(of); {
		x := rng.Uint64()
		if p := uint64(uint32(x)) * u.n; uint32(p) >= u.threshold {
			hist[of[p>>32]]++
			k++
		}
		if k == len(of) {
			break
		}
		if p := (x >> 32) * u.n; uint32(p) >= u.threshold {
			hist[of[p>>32]]++
			k++
		}
	}
}
