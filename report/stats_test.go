package report

import (
	"math"
	"math/big"
	"testing"
)

// numpy 1.24 np.quantile([7,1,3,3,10,2,8,-4,5,6.5], [.25,.5,.75]) = [2.25, 4.0, 6.875].
// By hand (type 7, sorted -4 1 2 3 3 5 6.5 7 8 10): h = 2.25 -> 2 + .25(3-2);
// h = 4.5 -> 3 + .5(5-3); h = 6.75 -> 6.5 + .75(7-6.5). (metrics'
// TestQuantile7 checks the quantile itself.)
func TestBoxNumpy(t *testing.T) {
	b := Box([]float64{7, 1, 3, 3, 10, 2, 8, -4, 5, 6.5})
	if b.Q1 != 2.25 || b.Median != 4 || b.Q3 != 6.875 || b.Min != -4 || b.Max != 10 || b.N != 10 {
		t.Errorf("%+v", b)
	}
	// IQR 4.625: fences -4.6875 and 13.8125 contain everything: no outliers.
	if len(b.Outliers) != 0 || b.WhiskerLo != -4 || b.WhiskerHi != 10 {
		t.Errorf("whiskers %v %v outliers %v", b.WhiskerLo, b.WhiskerHi, b.Outliers)
	}
	// numpy: np.quantile([1,2,3,4,100], [.25,.5,.75]) = [2., 3., 4.]; IQR 2, upper fence 7:
	// 100 is an outlier and the upper whisker stops at 4.
	b = Box([]float64{1, 2, 3, 4, 100})
	if b.Q1 != 2 || b.Median != 3 || b.Q3 != 4 || b.WhiskerHi != 4 || len(b.Outliers) != 1 || b.Mean != 22 {
		t.Errorf("%+v", b)
	}
	if !math.IsNaN(Box(nil).Median) {
		t.Error("empty sample should give NaN")
	}
}

// By hand: errors (first, second) = (.1, .2) first wins, (.2, .1) and (.5, .4)
// second wins, (.3, .3) twice tie. Ties alternate starting with the first
// method: k = 2 + 1 = 3 of n = 5; P(X >= 3) = (C(5,3) + C(5,4) + C(5,5)) / 32 = 16/32.
// At 0 decimals only (.5, .4) -> (1, 0) differs: 4 ties, k = 1 + 4/2 = 3 again.
func TestCompareErrorsByHand(t *testing.T) {
	first, second := []float64{.1, .2, .3, .3, .5}, []float64{.2, .1, .3, .3, .4}
	s, err := CompareErrors(first, second, 3)
	if err != nil || s.N != 5 || s.FirstWins != 1 || s.SecondWins != 2 || s.Ties != 2 || s.K != 3 || math.Abs(s.P-0.5) > 1e-15 {
		t.Errorf("%+v %v", s, err)
	}
	s, _ = CompareErrors(first, second, 0)
	if s.Ties != 4 || s.SecondWins != 1 || s.K != 3 || math.Abs(s.P-0.5) > 1e-15 {
		t.Errorf("0 decimals: %+v", s)
	}
	if _, err := CompareErrors(first, second[:2], 3); err == nil {
		t.Error("lengths differ")
	}
	if _, err := CompareErrors([]float64{math.NaN()}, []float64{1}, 3); err == nil {
		t.Error("NaN accepted")
	}
}

// The sign test's P-value is the float64 nearest sum_{i>=k} C(n,i)/2^n,
// worked here by brute force over exact rationals (Pascal's triangle), for
// every k of n up to 70 and some k of a few large n (a sum of
// exp(lgamma(...)) terms, the earlier code, missed the nearest float64 in
// 2,445 of these 2,594 cases).
func TestBinomialUpperTailExact(t *testing.T) {
	for _, n := range append(seq(0, 70), 200, 999, 2000) {
		row := []*big.Int{big.NewInt(1)} // C(n, 0..n) by Pascal's rule
		for m := 1; m <= n; m++ {
			next := make([]*big.Int, m+1)
			next[0], next[m] = big.NewInt(1), big.NewInt(1)
			for i := 1; i < m; i++ {
				next[i] = new(big.Int).Add(row[i-1], row[i])
			}
			row = next
		}
		total := new(big.Int).Lsh(big.NewInt(1), uint(n))
		tail := new(big.Int)
		for k := n; k >= 0; k-- {
			tail.Add(tail, row[k])
			if n > 70 && k%97 != 0 && k != n/2+1 {
				continue
			}
			want, _ := new(big.Rat).SetFrac(tail, total).Float64()
			if k == 0 {
				want = 1
			}
			if got := BinomialUpperTail(k, n); got != want {
				t.Fatalf("P(X >= %d), n = %d: %v, want %v", k, n, got, want)
			}
		}
	}
	if p := BinomialUpperTail(3, 2); p != 0 {
		t.Errorf("k > n: %v", p)
	}
	if p := BinomialUpperTail(-1, 5); p != 1 {
		t.Errorf("k < 0: %v", p)
	}
}

func seq(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}
