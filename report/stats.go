package report

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/pueval/pueval/metrics"
)

// BoxStats are the statistics a box plot draws: quartiles by type 7
// (metrics.Quantile7), Tukey whiskers at the most extreme data within 1.5 IQR of the
// box (the default of MATLAB's boxplot and matplotlib, which drew the papers'
// figures), the points beyond them, and the mean.
type BoxStats struct {
	N                    int
	Min, Q1, Median, Q3  float64
	Max                  float64
	WhiskerLo, WhiskerHi float64
	Mean                 float64
	Outliers             []float64
}

// MinMax returns b with its whiskers at the minimum and the maximum and no
// outliers: the style of figures that draw every point within the whiskers
// (the AUL paper's Figure 2).
func (b BoxStats) MinMax() BoxStats {
	b.WhiskerLo, b.WhiskerHi, b.Outliers = b.Min, b.Max, nil
	return b
}

// Box computes BoxStats of x (not modified). An empty sample gives N = 0 and NaNs.
func Box(x []float64) BoxStats {
	if len(x) == 0 {
		nan := math.NaN()
		return BoxStats{Min: nan, Q1: nan, Median: nan, Q3: nan, Max: nan, WhiskerLo: nan, WhiskerHi: nan, Mean: nan}
	}
	s := slices.Clone(x)
	slices.Sort(s)
	b := BoxStats{N: len(s), Min: s[0], Max: s[len(s)-1],
		Q1: metrics.Quantile7(s, 0.25), Median: metrics.Quantile7(s, 0.5), Q3: metrics.Quantile7(s, 0.75)}
	iqr := b.Q3 - b.Q1
	lo, hi := b.Q1-float64(1.5*iqr), b.Q3+float64(1.5*iqr)
	b.WhiskerLo, b.WhiskerHi = b.Q1, b.Q3
	var sum float64
	for _, v := range s {
		sum += v
		switch {
		case v < lo || v > hi:
			b.Outliers = append(b.Outliers, v)
		default:
			b.WhiskerLo = math.Min(b.WhiskerLo, v)
			b.WhiskerHi = math.Max(b.WhiskerHi, v)
		}
	}
	b.Mean = sum / float64(len(s))
	return b
}

// BinomialUpperTail returns P(X >= k) for X ~ Binomial(n, 1/2): the one-sided
// P-value of the AAAI-2017 appendix's sign test, P = sum_{i=k}^{n} C(n,i) / 2^n.
// The sum is taken in integers and rounded once, so P is the float64
// nearest the exact value on every machine (a sum of exp(lgamma(...))
// terms would carry the libm's last bits, which differ between
// architectures).
func BinomialUpperTail(k, n int) float64 {
	if k <= 0 {
		return 1
	}
	if k > n {
		return 0
	}
	sum := new(big.Int)
	c := new(big.Int).Binomial(int64(n), int64(k))
	for i := k; ; i++ {
		sum.Add(sum, c)
		if i == n {
			break
		}
		c.Mul(c, big.NewInt(int64(n-i)))
		c.Quo(c, big.NewInt(int64(i+1))) // exact: C(n, i+1) = C(n, i) (n-i)/(i+1)
	}
	p, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(sum), -n).Float64()
	return p
}

// SignTest is the AAAI-2017 appendix's comparison of two methods over
// experiments: wins of each (lower error wins), ties, and the one-sided
// binomial P-value that the second method ("indirect") is better.
type SignTest struct {
	N          int     `json:"n"`
	FirstWins  int     `json:"first_wins"`  // e.g. direct
	SecondWins int     `json:"second_wins"` // e.g. indirect
	Ties       int     `json:"ties"`
	K          int     `json:"k"` // second's wins after splitting ties
	P          float64 `json:"p"`
}

// CompareErrors counts, experiment by experiment, which of two methods has
// the smaller error. Errors are compared after rounding to `decimals` places,
// because the paper counted ties in its tables' three-decimal numbers (with
// full precision ties essentially never happen); decimals < 0 compares
// exactly. Ties are handed out alternately, the first to the first method
// ("starting with the direct method"), and k = second's wins plus its share
// of the ties.
func CompareErrors(first, second []float64, decimals int) (SignTest, error) {
	if len(first) != len(second) {
		return SignTest{}, fmt.Errorf("sign test: %d errors against %d", len(first), len(second))
	}
	round := func(x float64) float64 {
		if decimals < 0 {
			return x
		}
		m := math.Pow(10, float64(decimals))
		return math.Round(x*m) / m
	}
	t := SignTest{N: len(first)}
	for i := range first {
		a, b := round(first[i]), round(second[i])
		switch {
		case math.IsNaN(a) || math.IsNaN(b):
			return SignTest{}, fmt.Errorf("sign test: experiment %d has a NaN error", i)
		case a < b:
			t.FirstWins++
		case b < a:
			t.SecondWins++
		default:
			t.Ties++
		}
	}
	t.K = t.SecondWins + t.Ties/2 // alternate, first tie to the first method
	t.P = BinomialUpperTail(t.K, t.N)
	return t, nil
}
