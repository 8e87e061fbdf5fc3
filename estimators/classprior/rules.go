package classprior

// earlyAlpha ends the "early" part of the curve that the concave-start test
// compares with the rest (the published grid's knee can
// only land at 0.10 or later, the region that test protects).
const earlyAlpha = 0.1

// choice is what a knee rule makes of one likelihood curve.
type choice struct {
	value   float64 // the run's estimate
	knee    int     // grid index picked by the knee part of the rule
	drop    float64 // the likelihood-drop estimate (blend only; 0 otherwise)
	warning string
}

// pick applies the rule of o to the corrected log-likelihood curve ll on the
// ascending grid; n and n1 are the sizes of the mixture and component samples.
func pick(grid, ll []float64, n, n1 int, o Options) choice {
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
		if o.Knee == KneeBlend {
			c.drop = grid[last]
		}
		return c
	}
	var k int
	switch o.Knee {
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
