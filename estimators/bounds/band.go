package bounds

import (
	"fmt"
	"math"
	"sort"

	"github.com/pueval/pueval/internal/portmath"
)

// Band is a confidence band on the rank CDF T of the known positives:
// Lower(r) <= T(r) <= Upper(r) at every rank r (the paper's T_lb and T_ub,
// Eq. 14). It is a right-continuous step function of the rank: at rank r its
// value is the one listed for the last rank <= r, and before the first
// listed rank the first one. The ranks are 0-based
// positions in the ranking, strictly ascending; Lower and Upper are
// non-decreasing proportions with Lower <= Upper.
type Band struct {
	Ranks        []int
	Lower, Upper []float64
}

// Len is the number of steps.
func (b Band) Len() int { return len(b.Ranks) }

// At returns the band at rank r. O(log Len). An empty or malformed band
// ([Band.Check]) is [0, 1].
func (b Band) At(r int) (lower, upper float64) {
	if len(b.Ranks) == 0 || len(b.Lower) != len(b.Ranks) || len(b.Upper) != len(b.Ranks) {
		return 0, 1
	}
	i := sort.SearchInts(b.Ranks, r+1) - 1 // last listed rank <= r
	if i < 0 {
		i = 0
	}
	return b.Lower[i], b.Upper[i]
}

// Float32 returns the band with its values rounded to IEEE single precision,
// which is what the published code's step-function routine does to a
// bootstrap band: floor/ceil(float32(T) P_U) then differs
// from the float64 value at some ranks (0.003 x 19,000 is 57 in float64 but
// just above 57 with float32(0.003), so ceil gives 58). Use it with a stored
// band and [InputOrder] to reproduce the published numbers.
func (b Band) Float32() Band {
	c := Band{Ranks: b.Ranks, Lower: make([]float64, len(b.Lower)), Upper: make([]float64, len(b.Upper))}
	for i, v := range b.Lower {
		c.Lower[i] = float64(float32(v))
	}
	for i, v := range b.Upper {
		c.Upper[i] = float64(float32(v))
	}
	return c
}

// Check returns an error unless the band is well formed: at least one step,
// equal lengths, ranks strictly ascending and >= 0, values in [0, 1],
// non-decreasing, with Lower <= Upper.
func (b Band) Check() error {
	if len(b.Ranks) == 0 {
		return fmt.Errorf("bounds: empty band")
	}
	if len(b.Lower) != len(b.Ranks) || len(b.Upper) != len(b.Ranks) {
		return fmt.Errorf("bounds: band has %d ranks, %d lower and %d upper values", len(b.Ranks), len(b.Lower), len(b.Upper))
	}
	for i, r := range b.Ranks {
		lo, hi := b.Lower[i], b.Upper[i]
		switch {
		case r < 0:
			return fmt.Errorf("bounds: band step %d: rank %d < 0", i, r)
		case i > 0 && r <= b.Ranks[i-1]:
			return fmt.Errorf("bounds: band step %d: rank %d after %d (want strictly ascending ranks)", i, r, b.Ranks[i-1])
		case !(lo >= 0 && lo <= hi && hi <= 1):
			return fmt.Errorf("bounds: band at rank %d: lower %v, upper %v (want 0 <= lower <= upper <= 1)", r, lo, hi)
		case i > 0 && (lo < b.Lower[i-1] || hi < b.Upper[i-1]):
			return fmt.Errorf("bounds: band at rank %d decreases (a CDF band is non-decreasing)", r)
		}
	}
	return nil
}

// checkLevel refuses a confidence level outside (0, 1).
func checkLevel(level float64) error {
	if !(level > 0 && level < 1) {
		return fmt.Errorf("bounds: level %v: want a confidence level in (0, 1)", level)
	}
	return nil
}

// ECDF returns the empirical rank CDF of the known positives as a band of
// zero width (the point estimate): at each distinct known
// positive rank rho, T(rho) = #{known positives with rank <= rho} / |P_L|,
// with the point (0, 0) first when the first known positive is not at rank 0
// (as the published code prepends it), so T = 0 above the first known
// positive. Paper Eq. 6 (Figure 1 draws it).
func (r *Ranking) ECDF() Band {
	var b Band
	if r.posRanks[0] > 0 {
		b.Ranks, b.Lower = append(b.Ranks, 0), append(b.Lower, 0)
	}
	n := float64(len(r.posRanks))
	for i, rank := range r.posRanks {
		if i+1 < len(r.posRanks) && r.posRanks[i+1] == rank {
			continue // several known positives end one tie group
		}
		b.Ranks = append(b.Ranks, rank)
		b.Lower = append(b.Lower, float64(i+1)/n)
	}
	b.Upper = b.Lower
	return b
}

// DKW returns the Dvoretzky-Kiefer-Wolfowitz band of the given confidence
// level around the ECDF: eps = sqrt(ln(2/(1 - level)) / (2 |P_L|)), ECDF -/+
// eps clipped to [0, 1]. Its values stay in float64, as
// the published DKW path keeps them.
func (r *Ranking) DKW(level float64) (Band, error) {
	if err := checkLevel(level); err != nil {
		return Band{}, err
	}
	e := r.ECDF()
	eps := math.Sqrt(portmath.Log(2/(1-level)) / (2 * float64(len(r.posRanks))))
	b := Band{Ranks: e.Ranks, Lower: make([]float64, e.Len()), Upper: make([]float64, e.Len())}
	for i, v := range e.Lower {
		b.Lower[i] = max(v-eps, 0)
		b.Upper[i] = min(v+eps, 1)
	}
	return b, nil
}

// along evaluates the band at every cut-off of r, in O(cut-offs + Len) by a
// merge (both are ascending).
func (b Band) along(r *Ranking) (lower, upper []float64) {
	lower = make([]float64, len(r.cut))
	upper = make([]float64, len(r.cut))
	i := 0
	for c, rank := range r.cut {
		for i+1 < len(b.Ranks) && b.Ranks[i+1] <= rank {
			i++
		}
		lower[c], upper[c] = b.Lower[i], b.Upper[i]
	}
	return lower, upper
}
