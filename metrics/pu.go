package metrics

import (
	"math"

	"github.com/pueval/pueval/internal/portmath"
)

// PUMeasures are the performance measures of the PULP paper computed from
// positive-unlabeled data, reading the labels as labeled (true) versus
// unlabeled (false). All but MAP and AUC are averaged over cut-offs as in the
// paper's Eq. 3 (see the package documentation for ties).
type PUMeasures struct {
	PULP    float64 `json:"pulp"`     // mean of F(k-1 | N, t, b), the hypergeometric lower tail
	LeeLiu  float64 `json:"lee_liu"`  // mean of r^2 / P(f=1)
	PseudoF float64 `json:"pseudo_f"` // mean of 2r / (P(f=1) + t/N)
	F1      float64 `json:"f1"`       // mean of F1 with unlabeled read as negative
	MI      float64 `json:"mi"`       // mean mutual information (bits) of prediction and label
	Pearson float64 `json:"pearson"`  // mean Pearson correlation (phi) of prediction and label
	MAP     float64 `json:"map"`      // average precision of labeled vs unlabeled
	AUC     float64 `json:"auc"`      // AUC of labeled vs unlabeled
}

// PU returns the PULP paper's measures of this ranking, with positives read as
// the labeled examples. The cost is O(n) plus, for PULP, the hypergeometric
// tails: O(min(t, b)) per cut-off at worst.
func (r *Ranking) PU() PUMeasures {
	n, t := r.N(), r.nPos
	pY := float64(t) / float64(n)
	var m PUMeasures
	var wsum float64
	// Cut-off 0 (nothing predicted positive) has weight 1; tie group k has
	// weight equal to its size, so the weights add up to N+1.
	for k := 0; k < r.Len(); k++ {
		w := 1.0
		if k > 0 {
			w = float64(r.tp[k] + r.fp[k] - r.tp[k-1] - r.fp[k-1])
		}
		c := r.Confusion(k)
		b := c.TP + c.FP
		rec := c.TPR()
		pF := float64(b) / float64(n)
		m.PULP += float64(w * hypergeomLowerTail(c.TP-1, n, t, b))
		if b > 0 {
			m.LeeLiu += float64(w * rec * rec / pF)
		}
		m.PseudoF += float64(w * 2 * rec / (pF + pY))
		m.F1 += float64(w * c.F1())
		m.MI += float64(w * c.MutualInformation())
		m.Pearson += float64(w * c.MCC())
		wsum += w
	}
	m.PULP /= wsum
	m.LeeLiu /= wsum
	m.PseudoF /= wsum
	m.F1 /= wsum
	m.MI /= wsum
	m.Pearson /= wsum
	m.MAP = r.AveragePrecision()
	m.AUC = r.AUC()
	return m
}

// hypergeomLowerTail returns P(X <= x) for X ~ Hypergeometric(population n,
// successes k, draws d). The sum starts at its largest term (the side of the
// mode that x lies on) with that term's log-probability from logHypergeomPMF,
// and adds the neighbouring terms by their exact ratios until they drop below
// 1e-17 of the sum, so it neither overflows nor underflows.
func hypergeomLowerTail(x, n, k, d int) float64 {
	lo, hi := max(0, d-(n-k)), min(k, d)
	if x < lo {
		return 0
	}
	if x >= hi {
		return 1
	}
	mode := int((float64(d+1) * float64(k+1)) / float64(n+2))
	if x <= mode {
		// Terms decrease from x down to lo.
		sum, term := 1.0, 1.0
		for j := x; j > lo; j-- {
			// p(j-1)/p(j) = j (n-k-d+j) / ((k-j+1)(d-j+1))
			term = float64(term * (float64(j) * float64(n-k-d+j) / (float64(k-j+1) * float64(d-j+1))))
			sum += term
			if term < 1e-17*sum {
				break
			}
		}
		return math.Min(1, portmath.Exp(logHypergeomPMF(x, n, k, d))*sum)
	}
	// x above the mode: 1 - P(X >= x+1), whose terms decrease from x+1 up to hi.
	sum, term := 1.0, 1.0
	for j := x + 1; j < hi; j++ {
		// p(j+1)/p(j) = (k-j)(d-j) / ((j+1)(n-k-d+j+1))
		term = float64(term * (float64(k-j) * float64(d-j) / (float64(j+1) * float64(n-k-d+j+1))))
		sum += term
		if term < 1e-17*sum {
			break
		}
	}
	return math.Max(0, 1-float64(portmath.Exp(logHypergeomPMF(x+1, n, k, d))*sum))
}

// logHypergeomPMF is log P(X = x) for X ~ Hypergeometric(population n,
// successes k, draws d), 0 < d < n, by Loader's saddle-point method ("Fast and
// Accurate Computation of Binomial Probabilities", 2000; R's dhyper): with
// p = d/n, P(X = x) = b(x; k, p) b(d-x; n-k, p) / b(d; n, p) for the binomial
// pmf b. Each binomial log-pmf is a sum of small terms (Stirling remainders and
// deviances), so the result keeps a relative error near 1e-15 where the
// log-gamma form log C(k,x) + log C(n-k,d-x) - log C(n,d) cancels terms of
// size n log n and loses six digits at n = 10^6.
func logHypergeomPMF(x, n, k, d int) float64 {
	p := float64(d) / float64(n)
	q := float64(n-d) / float64(n)
	return logBinomPMF(x, k, p, q) + logBinomPMF(d-x, n-k, p, q) - logBinomPMF(d, n, p, q)
}

// logBinomPMF is log P(Y = x) for Y ~ Binomial(n, p), 0 <= x <= n, q = 1-p,
// 0 < p < 1 (Loader's dbinom_raw).
func logBinomPMF(x, n int, p, q float64) float64 {
	fn, fx := float64(n), float64(x)
	switch {
	case n == 0:
		return 0
	case x == 0:
		if p < 0.1 {
			return -bd0(fn, fn*q) - float64(fn*p)
		}
		return float64(fn * portmath.Log(q))
	case x == n:
		if q < 0.1 {
			return -bd0(fn, fn*p) - float64(fn*q)
		}
		return float64(fn * portmath.Log(p))
	}
	lc := stirlerr(n) - stirlerr(x) - stirlerr(n-x) - bd0(fx, float64(fn*p)) - bd0(fn-fx, float64(fn*q))
	// log(2 pi x (n-x)/n), with (n-x)/n rounded once: R's log1p(-x/n) loses
	// digits when x is close to n.
	return lc - float64(0.5*portmath.Log(2*math.Pi*fx*((fn-fx)/fn)))
}

// bd0 is the deviance term x log(x/m) + m - x, by its series in (x-m)/(x+m)
// when x is near m, where the closed form cancels.
func bd0(x, m float64) float64 {
	if math.Abs(x-m) < 0.1*(x+m) {
		v := (x - m) / (x + m)
		s := (x - m) * v
		ej := 2 * x * v
		v *= v
		for j := 1; j < 1000; j++ {
			ej *= v
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
	}
	return float64(x*portmath.Log(x/m)) + m - x
}

// stirlerrSmall[n] = log(n!) - log(sqrt(2 pi n) (n/e)^n) for n <= 15, from
// mpmath at 40 digits (they agree with R's sferr_halves table).
var stirlerrSmall = [16]float64{
	0,
	0.08106146679532725821967,
	0.04134069595540929409382,
	0.02767792568499833914879,
	0.02079067210376509311152,
	0.01664469118982119216319,
	0.01387612882307074799875,
	0.01189670994589177009506,
	0.01041126526197209649748,
	0.009255462182712732917729,
	0.008330563433362871256469,
	0.007573675487951840794972,
	0.006942840107209529865664,
	0.00640899418800420706844,
	0.005951370112758847735624,
	0.005554733551962801371039,
}

// stirlerr is the Stirling remainder log(n!) - log(sqrt(2 pi n) (n/e)^n), from
// its asymptotic series above n = 15 (R's stirlerr).
func stirlerr(n int) float64 {
	if n <= 15 {
		return stirlerrSmall[n]
	}
	const s0, s1, s2, s3, s4 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188
	x := float64(n)
	nn := x * x
	switch {
	case n > 500:
		return (s0 - s1/nn) / x
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / x
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / x
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / x
}
