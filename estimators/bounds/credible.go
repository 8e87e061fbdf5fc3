package bounds

import "fmt"

// Credible says which credible interval of beta to take from its posterior.
type Credible int8

const (
	// EqualTailed leaves (1 - level)/2 of the posterior mass on each side.
	EqualTailed Credible = iota
	// HPD is the highest posterior density interval: the shortest interval
	// holding the given mass.
	HPD
)

func (c Credible) String() string {
	switch c {
	case EqualTailed:
		return "equal-tailed"
	case HPD:
		return "hpd"
	}
	return fmt.Sprintf("Credible(%d)", int8(c))
}

// ParseCredible reads "equal-tailed" or "hpd".
func ParseCredible(s string) (Credible, error) {
	switch s {
	case "equal-tailed":
		return EqualTailed, nil
	case "hpd":
		return HPD, nil
	}
	return 0, fmt.Errorf("bounds: credible interval %q: want equal-tailed or hpd", s)
}

// CredibleInterval returns a credible interval of the given level for beta
// after peeking at the labels of unlabeled instances and finding positives
// positives and negatives negatives among them (the
// published estimate_beta_by_labeling): with a uniform prior the posterior is
// Beta(1 + positives, 1 + negatives). At most a million labels in all.
//
// EqualTailed takes its (1 - level)/2 and (1 + level)/2 quantiles. HPD finds
// the shortest interval [Q(p), Q(p + level)] by bisection on p in [0, 1 -
// level] for the root of f(Q(p)) = f(Q(p + level)) (f the density, Q the
// quantile function; the width's derivative in p is 1/f(Q(p + level)) -
// 1/f(Q(p)), increasing for a unimodal density), to the resolution of
// float64, rather than the published code's steps of 0.001. With no
// positive the density decreases and HPD is [0, Q(level)]; with no negative
// [Q(1 - level), 1]; with neither (uniform) every interval is as short, and
// HPD gives the equal-tailed one.
func CredibleInterval(positives, negatives int, level float64, c Credible) (Interval, error) {
	if positives < 0 || negatives < 0 {
		return Interval{}, fmt.Errorf("bounds: %d positives and %d negatives peeked (want counts >= 0)", positives, negatives)
	}
	if positives > maxPeeks || negatives > maxPeeks-positives {
		return Interval{}, fmt.Errorf("bounds: %d positives and %d negatives peeked: at most %d labels in all", positives, negatives, maxPeeks)
	}
	if err := checkLevel(level); err != nil {
		return Interval{}, err
	}
	post := newBetaPosterior(1+positives, 1+negatives)
	equal := Interval{post.quantile((1 - level) / 2), post.quantile((1 + level) / 2)}
	switch c {
	case EqualTailed:
		return equal, nil
	case HPD:
	default:
		return Interval{}, fmt.Errorf("bounds: unknown credible interval %d", c)
	}
	switch {
	case positives == 0 && negatives == 0:
		return equal, nil
	case positives == 0:
		return Interval{0, post.quantile(level)}, nil
	case negatives == 0:
		return Interval{post.quantile(1 - level), 1}, nil
	}
	// gap(p) < 0 while the left end is on the rising side of the mode far
	// enough that moving right shortens the interval.
	upperOf := func(p float64) float64 { return post.quantile(min(p+level, 1)) }
	gap := func(p float64) float64 { return post.logDensityRatio(post.quantile(p), upperOf(p)) }
	lo, hi := 0.0, 1-level
	for range 200 {
		mid := lo + float64((hi-lo)/2)
		if mid <= lo || mid >= hi {
			break
		}
		if gap(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	p := lo + float64((hi-lo)/2)
	return Interval{post.quantile(p), upperOf(p)}, nil
}
