package metrics

import "math"

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
		m.PULP += w * hypergeomLowerTail(c.TP-1, n, t, b)
		if b > 0 {
			m.LeeLiu += w * rec * rec / pF
		}
		m.PseudoF += w * 2 * rec / (pF + pY)
		m.F1 += w * c.F1()
		m.MI += w * c.MutualInformation()
		m.Pearson += w * c.MCC()
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
// mode that x lies on) with that term's log-probability from log-gamma, and
// adds the neighbouring terms by their exact ratios until they drop below
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
			term *= float64(j) * float64(n-k-d+j) / (float64(k-j+1) * float64(d-j+1))
			sum += term
			if term < 1e-17*sum {
				break
			}
		}
		return math.Min(1, math.Exp(logHypergeomPMF(x, n, k, d))*sum)
	}
	// x above the mode: 1 - P(X >= x+1), whose terms decrease from x+1 up to hi.
	sum, term := 1.0, 1.0
	for j := x + 1; j < hi; j++ {
		// p(j+1)/p(j) = (k-j)(d-j) / ((j+1)(n-k-d+j+1))
		term *= float64(k-j) * float64(d-j) / (float64(j+1) * float64(n-k-d+j+1))
		sum += term
		if term < 1e-17*sum {
			break
		}
	}
	return math.Max(0, 1-math.Exp(logHypergeomPMF(x+1, n, k, d))*sum)
}

// logHypergeomPMF is log P(X = x) = log C(k,x) + log C(n-k,d-x) - log C(n,d).
func logHypergeomPMF(x, n, k, d int) float64 {
	return logChoose(k, x) + logChoose(n-k, d-x) - logChoose(n, d)
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
