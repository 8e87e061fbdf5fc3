package classprior

import (
	"context"
	"math"

	"github.com/pueval/pueval/internal/interrupt"
)

// earlyAlpha ends the "early" part of the curve that the concave-start test
// compares with the rest (the published grid's knee can
// only land at 0.10 or later, the region that test protects).
const earlyAlpha = 0.1

// choice is what a knee rule makes of one likelihood curve.
type choice struct {
	value   float64 // the run's estimate
	knee    int     // grid index picked by the knee part of the rule
	drop    float64 // the likelihood-drop estimate (blend and drop; 0 otherwise)
	warning string
}

// pick applies the rule of o to the corrected log-likelihood curve ll on the
// ascending grid; n and n1 are the sizes of the mixture and component
// samples, bins the number of histogram bins that hold a score.
func pick(grid, ll []float64, n, n1, bins int, o Options) choice {
	neg := make([]float64, len(ll))
	for i, v := range ll {
		neg[i] = -v
	}
	f, flat := normalise(smooth(grid, neg, o.Neighbours))
	if flat {
		if o.Knee == KneePublished {
			// 0/0 in the published normalisation: every score is NaN, and
			// MATLAB's max then returns the first index.
			return choice{value: grid[0], warning: "the log-likelihood curve is flat; the published rule returns the first grid value"}
		}
		// Nothing distinguishes any alpha: the mixture looks like a sample of
		// the component, so it is (at least) all component.
		last := len(grid) - 1
		c := choice{value: grid[last], knee: last, warning: "the log-likelihood curve is flat: the mixture looks like a sample of the component; returning the last grid value"}
		if o.Knee == KneeBlend || o.Knee == KneeDrop {
			c.drop = grid[last]
		}
		return c
	}
	var k int
	switch o.Knee {
	case KneeDrop:
		// The grid point only: the caller places it between grid points
		// (refineDrop).
		k = dropIndex(ll, dropTolerance(o.DropTau, n, n1, bins))
		return choice{value: grid[k], knee: k, drop: grid[k]}
	case KneePublished:
		k = argmax(kneeScores(grid, f, o.Window, true))
	case KneeFixed:
		k = argmax(kneeScores(grid, f, o.Window, false))
	default: // KneeConcaveStart, KneeBlend
		k = concaveStart(grid, f, argmax(kneeScores(grid, f, o.Window, false)))
	}
	c := choice{value: grid[k], knee: k}
	if o.Knee == KneeBlend {
		c.drop = grid[dropIndex(ll, o.DropTau*(1/float64(n)+1/float64(n1)))]
		c.value = (grid[k] + c.drop) / 2
	}
	return c
}

// concaveStart returns 0 (the lowest grid value) instead of the knee k when
// the normalised -loglik curve f is concave from its start: its average
// slope from the first grid point to earlyAlpha exceeds its average slope
// from earlyAlpha to the knee. Such a curve (typical of the second
// AlphaMax-N run with clean labels, where kappa = 0) rises fastest right at
// the start; the line fits, which must stay below the whole curve, cannot
// follow that rise and the knee lands on a late bend instead.
func concaveStart(x, f []float64, k int) int {
	a := 0
	for a < len(x)-1 && x[a] < earlyAlpha {
		a++
	}
	if k <= a || a == 0 {
		return k
	}
	early := (f[a] - f[0]) / (x[a] - x[0])
	rest := (f[k] - f[a]) / (x[k] - x[a])
	if early > rest {
		return 0
	}
	return k
}

// dropIndex returns the last grid index at which the corrected (non-increasing)
// log-likelihood ll is within tau of its value at the first grid point: the
// largest alpha that the data cannot tell apart from the smallest.
func dropIndex(ll []float64, tau float64) int {
	last := 0
	for i, v := range ll {
		if ll[0]-v <= tau {
			last = i
		}
	}
	return last
}

// dropBins is the number of bins up to which the drop rule's tolerance is
// DropTau alone: the bins of 100 component scores on the rank scale.
const dropBins = 5

// dropTolerance is the drop rule's tolerance on the log-likelihood
// (1/n1 sum over the component + 1/n sum over the mixture, so 1/n + 1/n1 is
// one score's worth): (tau + ln(bins/dropBins)) (1/n + 1/n1), the logarithm
// counting only above dropBins bins. The bins whose component share
// exceeds their mixture share by chance bind first as alpha rises; of many
// bins with the same true share (well-separated scores, where every bin in
// the component's range has the share alpha), the largest such chance
// excess is about sqrt(2 ln bins) standard errors, and the log-likelihood
// it costs about ln bins. A fixed tolerance would then stop ever earlier
// below the truth as the bins multiply with n; with ln bins added, the
// rule stops where the excess is more than chance. The blend rule keeps
// its fixed tolerance tau (1/n + 1/n1).
func dropTolerance(tau float64, n, n1, bins int) float64 {
	return (tau + math.Max(0, math.Log(float64(bins)/dropBins))) * (1/float64(n) + 1/float64(n1))
}

// dropSteps is the number of bisection steps with which refineDrop places
// the drop between two grid points: to 2^-10 of the grid step.
const dropSteps = 10

// refineDrop returns the alpha between grid[i] and grid[i+1] at which the
// corrected log-likelihood falls tol below its value at the first grid
// point, i being the last grid index within that tolerance (dropIndex) and
// ll the corrected curve. Between the two grid points the
// corrected curve is max(raw(alpha), ll[i+1]), raw(alpha) the per-alpha
// maximum solved afresh; the bisection keeps an alpha within the tolerance
// as its lower end, and returns it. The grid alone would round every
// estimate to a multiple of its step (0.01), more than the rule's error at
// 10^6 scores.
func refineDrop(ctx context.Context, h *histogram, grid, ll []float64, i int, tol float64) (float64, error) {
	if i == len(grid)-1 {
		return grid[i], nil
	}
	pr := newProblem(h)
	lo, hi := grid[i], grid[i+1]
	for range dropSteps {
		if err := interrupt.Check(ctx); err != nil {
			return 0, err
		}
		mid := lo + float64((hi-lo)/2)
		sol, err := pr.solveAt(mid, nil)
		if err != nil {
			return 0, err
		}
		if v := math.Max(h.logLik(pr.fullBeta(sol.beta)), ll[i+1]); ll[0]-v <= tol {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}
