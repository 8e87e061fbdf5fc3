package metrics

// Acceptance tests for the PULP paper's measures (Hajizadeh, Li, Dollevoet,
// Tax, "Evaluating Classification Performance with only Positive and
// Unlabeled Samples", S+SSPR 2014, LNCS 8621, pp. 233-242): Eq. 3 against
// exact rational and 700-bit references, the tie rule of the package
// documentation, the worked examples, and the Pseudo-F and Lee & Liu
// identities. mustRank, bools and near are metrics_test.go's.

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// pulpClose reports |got - want| <= tol max(1, |want|): absolute for the
// measures bounded by 1, relative for Pseudo-F and L&L, which reach N/t.
func pulpClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// pulpRanked ranks labels given in ranking order (index 0 is the top) with
// distinct scores N, N-1, ..., 1, so that cut-off i of the paper is Ranking
// threshold i.
func pulpRanked(t *testing.T, labeled []bool) *Ranking {
	t.Helper()
	s := make([]float64, len(labeled))
	for i := range s {
		s[i] = float64(len(s) - i)
	}
	return mustRank(t, s, labeled)
}

// pulpCutoff holds the paper's per-cut-off measures computed straight from
// their definitions with the package's conventions for undefined values: n
// examples, t labeled, b predicted positive, k of them labeled.
type pulpCutoff struct {
	F1, LeeLiu, PseudoF, MI, Pearson float64
}

func pulpCutoffMeasures(n, t, b, k int) pulpCutoff {
	N := float64(n)
	pF, pY := float64(b)/N, float64(t)/N
	r := float64(k) / float64(t) // recall
	var c pulpCutoff
	// F1: harmonic mean of precision k/b and recall; 0 when k = 0 (pu.go:
	// Confusion.F1 "0 when TP = 0"; at b = 0 precision is 1 and recall 0).
	if k > 0 {
		p := float64(k) / float64(b)
		c.F1 = 2 * p * r / (p + r)
	}
	// Lee & Liu r^2/P(f=1); 0/0 at the empty cut-off counts as 0 (pu.go: "if b > 0").
	if b > 0 {
		c.LeeLiu = r * r / pF
	}
	// Pseudo-F 2r/(P(f=1)+P(y=1)), P(y=1) = t/N (paper, Section 3).
	c.PseudoF = 2 * r / (pF + pY)
	// Mutual information in bits of the empirical joint distribution of
	// (prediction, label); cells of probability 0 contribute 0.
	cells := [4][3]float64{
		{float64(k), pF, pY},                     // predicted positive, labeled
		{float64(b - k), pF, 1 - pY},             // predicted positive, unlabeled
		{float64(t - k), 1 - pF, pY},             // predicted negative, labeled
		{float64(n - t - b + k), 1 - pF, 1 - pY}, // predicted negative, unlabeled
	}
	for _, cell := range cells {
		if p := cell[0] / N; p > 0 {
			c.MI += p * math.Log2(p/(cell[1]*cell[2]))
		}
	}
	// Pearson correlation of the two indicator variables; 0 when the
	// prediction is constant (b = 0 or b = N), as Confusion.MCC documents.
	if v := pF * (1 - pF) * pY * (1 - pY); v > 0 {
		c.Pearson = (float64(k)/N - pF*pY) / math.Sqrt(v)
	}
	return c
}

// pulpBinomials caches exact binomial coefficients for the small-N tests.
var pulpBinomials = map[[2]int]*big.Int{}

func pulpBinomial(n, k int) *big.Int {
	if k < 0 || k > n {
		return new(big.Int)
	}
	key := [2]int{n, k}
	if b, ok := pulpBinomials[key]; ok {
		return b
	}
	b := new(big.Int).Binomial(int64(n), int64(k))
	pulpBinomials[key] = b
	return b
}

// pulpExactTail is P(X <= x), X ~ Hypergeometric(population n, successes t,
// draws i), as an exact rational: sum_{j <= x} C(t,j) C(n-t,i-j) / C(n,i)
// (paper, Eq. 1 and 2).
func pulpExactTail(x, n, t, i int) *big.Rat {
	num := new(big.Int)
	for j := 0; j <= x; j++ {
		num.Add(num, new(big.Int).Mul(pulpBinomial(t, j), pulpBinomial(n-t, i-j)))
	}
	return new(big.Rat).SetFrac(num, pulpBinomial(n, i))
}

// pulpExactPULP is the paper's Eq. 3 in exact rationals for labels in ranking
// order: 1/(N+1) sum_{i=0..N} P(X_i <= k_i - 1).
func pulpExactPULP(labeled []bool) *big.Rat {
	n, t := len(labeled), 0
	for _, l := range labeled {
		if l {
			t++
		}
	}
	sum, k := new(big.Rat), 0
	for i := 0; i <= n; i++ {
		if i > 0 && labeled[i-1] {
			k++
		}
		sum.Add(sum, pulpExactTail(k-1, n, t, i))
	}
	return sum.Quo(sum, new(big.Rat).SetInt64(int64(n+1)))
}

// pulpBigPULP evaluates Eq. 3 in big.Float arithmetic of precision prec for
// labels in ranking order, walking the cut-offs with exact term ratios. At
// cut-off i with k labeled in the top i it keeps A = P(X_i <= k-1) and
// v = P(X_i = k) = C(i,k) C(N-i,t-k) / C(N,t). The next item moves them to
//
//	labeled:   A += v (N-t-i+k)/(N-i)            [X_i = k, item i+1 unlabeled]
//	           v *= (i+1)(t-k) / ((k+1)(N-i))
//	unlabeled: A -= v k(N-t-i+k) / ((i-k+1)(N-i)) [X_i = k-1, item i+1 labeled]
//	           v *= (i+1)(N-t-i+k) / ((i+1-k)(N-i))
//
// Every factor is a product of two int64s and every divisor is positive on the
// realised path, so each step costs a few rounding errors of 2^-prec.
func pulpBigPULP(labeled []bool, prec uint) *big.Float {
	n, t := len(labeled), 0
	for _, l := range labeled {
		if l {
			t++
		}
	}
	newF := func() *big.Float { return new(big.Float).SetPrec(prec) }
	a, v, sum, tmp, f := newF(), newF().SetInt64(1), newF(), newF(), newF()
	scale := func(z *big.Float, num, den int64) { // z *= num/den
		z.Mul(z, f.SetInt64(num))
		z.Quo(z, f.SetInt64(den))
	}
	k := 0
	for i := 0; i < n; i++ {
		sum.Add(sum, a)
		I, K, N, T := int64(i), int64(k), int64(n), int64(t)
		if labeled[i] {
			tmp.Set(v)
			scale(tmp, N-T-I+K, N-I)
			a.Add(a, tmp)
			scale(v, (I+1)*(T-K), (K+1)*(N-I))
			k++
		} else {
			if k > 0 {
				tmp.Set(v)
				scale(tmp, K*(N-T-I+K), (I-K+1)*(N-I))
				a.Sub(a, tmp)
			}
			scale(v, (I+1)*(N-T-I+K), (I+1-K)*(N-I))
		}
	}
	sum.Add(sum, a) // cut-off N, where P(X_N <= t-1) = 0
	return sum.Quo(sum, f.SetInt64(int64(n+1)))
}

// pulpBrute averages the per-cut-off measures over the N+1 cut-offs of labels
// in ranking order (paper, Section 3: "averaged over all classifier operating
// point[s] similar to the way we calculate PULP"), with PULP from exact
// rationals.
func pulpBrute(labeled []bool) PUMeasures {
	n, t := len(labeled), 0
	for _, l := range labeled {
		if l {
			t++
		}
	}
	var m PUMeasures
	k := 0
	for i := 0; i <= n; i++ {
		if i > 0 && labeled[i-1] {
			k++
		}
		c := pulpCutoffMeasures(n, t, i, k)
		m.F1 += c.F1
		m.LeeLiu += c.LeeLiu
		m.PseudoF += c.PseudoF
		m.MI += c.MI
		m.Pearson += c.Pearson
	}
	w := float64(n + 1)
	m.PULP, _ = pulpExactPULP(labeled).Float64()
	m.F1 /= w
	m.LeeLiu /= w
	m.PseudoF /= w
	m.MI /= w
	m.Pearson /= w
	return m
}

// pulpCompare checks the averaged measures of got against want to tol.
func pulpCompare(t *testing.T, what string, got, want PUMeasures, tol float64) {
	t.Helper()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"PULP", got.PULP, want.PULP}, {"F1", got.F1, want.F1},
		{"L&L", got.LeeLiu, want.LeeLiu}, {"Pseudo-F", got.PseudoF, want.PseudoF},
		{"MI", got.MI, want.MI}, {"Pearson", got.Pearson, want.Pearson},
	} {
		if !pulpClose(c.got, c.want, tol) {
			t.Fatalf("%s: %s = %.17g, reference %.17g", what, c.name, c.got, c.want)
		}
	}
}

// Acceptance 1: every label vector with 1 <= t <= N-1 for 2 <= N <= 12
// (exhaustive, 8166 rankings), no ties. Reference: Eq. 3 with the hypergeometric
// CDF in exact big.Rat arithmetic (exact binomials), rounded once; the other
// averaged measures from their per-cut-off definitions in float64.
func TestPULPExactSmallN(t *testing.T) {
	for n := 2; n <= 12; n++ {
		labeled := make([]bool, n)
		for mask := 1; mask < 1<<n-1; mask++ {
			for i := range labeled {
				labeled[i] = mask>>i&1 == 1
			}
			got := pulpRanked(t, labeled).PU()
			pulpCompare(t, "exhaustive", got, pulpBrute(labeled), 1e-12)
		}
	}
}

// pulpTiedSample draws n scores from a few values (heavy ties, both zeros,
// which tie) with labels of both kinds.
func pulpTiedSample(rng *rand.Rand, n int) ([]float64, []bool) {
	vals := []float64{-3, -1, math.Copysign(0, -1), 0, 0.5, 2, 7}
	k := 1 + rng.IntN(len(vals))
	s, y := make([]float64, n), make([]bool, n)
	for i := range s {
		s[i] = vals[rng.IntN(k)]
		y[i] = rng.IntN(3) == 0
	}
	y[0], y[n-1] = true, false
	return s, y
}

// Acceptance 2: the tie rule of the package documentation ("a cut-off inside a
// tie group ... we evaluate it at the end of its group, so each tie group is
// one cut-off with weight equal to its size, plus the empty cut-off with weight
// 1"), brute-forced as: sort by descending score, and evaluate each of the N+1
// positions i at the end of the tie group of item i (position 0 is the empty
// cut-off). PULP from exact rationals, the others from their definitions.
func TestPUTiesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(2014, 8621))
	for trial := range 300 {
		n := 2 + rng.IntN(40)
		s, y := pulpTiedSample(rng, n)
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			switch {
			case s[a] > s[b]:
				return -1
			case s[a] < s[b]:
				return 1
			}
			return 0
		})
		nl := 0
		for _, l := range y {
			if l {
				nl++
			}
		}
		var want PUMeasures
		pulp := new(big.Rat)
		for i := 0; i <= n; i++ {
			b := i
			for b > 0 && b < n && s[idx[b]] == s[idx[i-1]] {
				b++ // extend to the end of item i's tie group
			}
			k := 0
			for _, j := range idx[:b] {
				if y[j] {
					k++
				}
			}
			pulp.Add(pulp, pulpExactTail(k-1, n, nl, b))
			c := pulpCutoffMeasures(n, nl, b, k)
			want.F1 += c.F1
			want.LeeLiu += c.LeeLiu
			want.PseudoF += c.PseudoF
			want.MI += c.MI
			want.Pearson += c.Pearson
		}
		w := float64(n + 1)
		want.PULP, _ = pulp.Quo(pulp, new(big.Rat).SetInt64(int64(n+1))).Float64()
		want.F1 /= w
		want.LeeLiu /= w
		want.PseudoF /= w
		want.MI /= w
		want.Pearson /= w
		pulpCompare(t, fmt.Sprintf("ties trial %d", trial), mustRank(t, s, y).PU(), want, 1e-12)
	}
}

// Acceptance 3: the worked examples of the specification, N = 4, t = 2.
// [1,1,0,0]: PULP = (0 + 1/2 + 5/6 + 1/2 + 0)/5 = 11/30 exactly (hypergeometric
// tails by hand); L&L = (0 + 1 + 2 + 4/3 + 1)/5 = 16/15; F1 = (0 + 2/3 + 1 +
// 4/5 + 2/3)/5 = 47/75; Pseudo-F = (N/t) F1 = 94/75; MI 0.324511 bits and
// Pearson 0.430940 as transcribed in the specification (and recomputed with
// Python's math module from the cell probabilities: 0.3245112497836532 and
// 0.4309401076758503); MAP 1, AUC 1 (a perfect ranking).
// [0,0,1,1]: PULP 0 (k_i - 1 is below the support at every cut-off), AUC 0.
// [1,0,1,0]: PULP = (0 + 1/2 + 1/6 + 1/2 + 0)/5 = 7/30, AUC 3/4 (three of four
// labeled-unlabeled pairs in order), MAP (1/1 + 2/3)/2 = 5/6.
func TestPULPWorkedExamples(t *testing.T) {
	for _, c := range []struct {
		labels                  []bool
		pulp                    float64 // exact, to 1e-15
		ll, f1, pf, mi, pearson float64 // as transcribed, to 1e-6; NaN = not given
		mapv, auc               float64
	}{
		{bools(1, 1, 0, 0), 11.0 / 30, 1.066667, 0.626667, 1.253333, 0.324511, 0.430940, 1, 1},
		{bools(0, 0, 1, 1), 0, math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), 0},
		{bools(1, 0, 1, 0), 7.0 / 30, math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), 0.833333, 0.75},
	} {
		m := pulpRanked(t, c.labels).PU()
		if !near(m.PULP, c.pulp, 1e-15) {
			t.Errorf("%v: PULP = %.17g, want %.17g", c.labels, m.PULP, c.pulp)
		}
		for _, v := range []struct {
			name      string
			got, want float64
		}{
			{"L&L", m.LeeLiu, c.ll}, {"F1", m.F1, c.f1}, {"Pseudo-F", m.PseudoF, c.pf},
			{"MI", m.MI, c.mi}, {"Pearson", m.Pearson, c.pearson},
			{"MAP", m.MAP, c.mapv}, {"AUC", m.AUC, c.auc},
		} {
			if !math.IsNaN(v.want) && !near(v.got, v.want, 1e-6) {
				t.Errorf("%v: %s = %.9g, want %.6f", c.labels, v.name, v.got, v.want)
			}
		}
	}
	// The same values as exact fractions, to 1e-15 (by hand above).
	m := pulpRanked(t, bools(1, 1, 0, 0)).PU()
	for _, v := range [][2]float64{{m.LeeLiu, 16.0 / 15}, {m.F1, 47.0 / 75}, {m.PseudoF, 94.0 / 75}} {
		if !near(v[0], v[1], 1e-15) {
			t.Errorf("[1,1,0,0]: %.17g, want %.17g", v[0], v[1])
		}
	}
}

// pulpLargeRankings returns two rankings of n items with t labeled, in ranking
// order: a uniformly random one (a random t-subset of positions) and a
// near-perfect one (the top t positions labeled except that 1% of them, drawn
// at random, swap places with random lower positions).
func pulpLargeRankings(n, t int, seed uint64) (random, nearPerfect []bool) {
	rng := rand.New(rand.NewPCG(seed, 242))
	random = make([]bool, n)
	for _, p := range rng.Perm(n)[:t] {
		random[p] = true
	}
	nearPerfect = make([]bool, n)
	for i := range t {
		nearPerfect[i] = true
	}
	for _, p := range rng.Perm(t)[:max(1, t/100)] {
		for {
			if q := t + rng.IntN(n-t); !nearPerfect[q] {
				nearPerfect[p], nearPerfect[q] = false, true
				break
			}
		}
	}
	return random, nearPerfect
}

// pulpTail700 is P(X <= x), X ~ Hypergeometric(n, t, i), exactly in integers by
// the symmetric form sum_{j <= x} C(i,j) C(n-i,t-j) / C(n,t), whose terms are
// stepped by exact integer ratios (C(i,j+1) = C(i,j)(i-j)/(j+1), C(n-i,t-j-1)
// = C(n-i,t-j)(t-j)/(n-i-t+j+1)), then rounded to a 700-bit (211-digit)
// big.Float.
func pulpTail700(x, n, t, i int) *big.Float {
	lo := max(0, t-(n-i))
	num := new(big.Int)
	if x >= lo {
		a := new(big.Int).Binomial(int64(i), int64(lo))
		c := new(big.Int).Binomial(int64(n-i), int64(t-lo))
		for j := lo; j <= min(x, t, i); j++ {
			num.Add(num, new(big.Int).Mul(a, c))
			a.Mul(a, big.NewInt(int64(i-j)))
			a.Quo(a, big.NewInt(int64(j+1)))
			if j < t {
				c.Mul(c, big.NewInt(int64(t-j)))
				c.Quo(c, big.NewInt(int64(n-i-t+j+1)))
			}
		}
	}
	q := new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(n), int64(t)))
	return new(big.Float).SetPrec(700).SetRat(q)
}

// pulpRelErr is |got - want|/want, or |got| when want = 0.
func pulpRelErr(got float64, want *big.Float) float64 {
	if want.Sign() == 0 {
		return math.Abs(got)
	}
	d := new(big.Float).SetPrec(700).SetFloat64(got)
	d.Sub(d, want)
	d.Quo(d, want)
	e, _ := d.Float64()
	return math.Abs(e)
}

// Acceptance 4: log-space stability at N = 10^6, t = 10^3. PULP of a random
// and of a near-perfect ranking is finite and in [0,1]; the float64 tail at 10
// cut-offs (both extremes, cut-offs in between where k_i is near its mean
// i t/N for the random ranking) and at far tails down to 1e-38 matches the
// exact integer evaluation rounded to 700 bits to 1e-10 relative (measured:
// 3e-15; the log-gamma pmf that pu.go used before was off by up to 1.5e-9).
// The 700-bit values were cross-checked at development time against mpmath
// 1.2.1 at 60 digits (binomial sums), e.g. P(X_500000 <= 472) =
// 0.040892941520301878300979082468 and P(X <= 300) = 8.15231274486872299602650485327e-38
// at i = 5 10^5, agreeing to all 30 digits printed. The full PULP of the random
// ranking matches Eq. 3 summed in 700-bit arithmetic (pulpBigPULP) to 1e-10
// relative (measured: 2e-14).
func TestPULPLogSpaceStability(t *testing.T) {
	const n, nl = 1_000_000, 1_000
	random, nearPerfect := pulpLargeRankings(n, nl, 1)
	cutoffs := []int{0, 1, 1_000, 10_000, 123_457, 250_000, 500_000, 750_000, 999_999, n}
	for name, labels := range map[string][]bool{"random": random, "near-perfect": nearPerfect} {
		m := pulpRanked(t, labels).PU()
		if math.IsNaN(m.PULP) || math.IsInf(m.PULP, 0) || m.PULP < 0 || m.PULP > 1 {
			t.Fatalf("%s: PULP = %v", name, m.PULP)
		}
		if name == "random" {
			want := pulpBigPULP(labels, 700)
			if e := pulpRelErr(m.PULP, want); e > 1e-10 {
				t.Errorf("%s: PULP %.17g, 700-bit %s, rel err %.2g", name, m.PULP, want.Text('g', 20), e)
			}
		}
		hits := make([]int, n+1) // k_i
		for i, l := range labels {
			hits[i+1] = hits[i]
			if l {
				hits[i+1]++
			}
		}
		for _, i := range cutoffs {
			got := hypergeomLowerTail(hits[i]-1, n, nl, i)
			want := pulpTail700(hits[i]-1, n, nl, i)
			if e := pulpRelErr(got, want); e > 1e-10 {
				t.Errorf("%s: cut-off %d (k=%d): tail %.17g, 700-bit %s, rel err %.2g",
					name, i, hits[i], got, want.Text('g', 20), e)
			}
		}
	}
	// Far tails of X ~ Hypergeometric(10^6, 10^3, 5 10^5) (mean 500, sd 15.8):
	// from 8e-38 (x = 300) through 1 - 1e-4; reference as above.
	for _, x := range []int{300, 400, 450, 480, 499, 500, 520, 550, 600} {
		got, want := hypergeomLowerTail(x, n, nl, n/2), pulpTail700(x, n, nl, n/2)
		if e := pulpRelErr(got, want); e > 1e-10 {
			t.Errorf("P(X <= %d): %.17g, 700-bit %s, rel err %.2g", x, got, want.Text('g', 20), e)
		}
	}
}

// The 700-bit recurrence pulpBigPULP agrees with Eq. 3 in exact rationals on
// small random rankings (validating the reference used below).
func TestPULPBigFloatReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(233, 242))
	for range 50 {
		n := 2 + rng.IntN(60)
		labels := make([]bool, n)
		for i := range labels {
			labels[i] = rng.IntN(3) == 0
		}
		labels[rng.IntN(n)] = true
		want := new(big.Float).SetPrec(700).SetRat(pulpExactPULP(labels))
		got := pulpBigPULP(labels, 700)
		d := new(big.Float).Sub(got, want)
		if d.Abs(d).Cmp(big.NewFloat(1e-150)) > 0 {
			t.Fatalf("n=%d: recurrence %s, exact %s", n, got.Text('g', 30), want.Text('g', 30))
		}
	}
}

// Acceptance 4 (continued): the full PULP of N = 20000, t = 200 rankings
// (random and near-perfect) against Eq. 3 summed over all 20001 cut-offs in
// 700-bit big.Float arithmetic (pulpBigPULP), to 1e-10 relative (measured:
// 5e-15 and 2e-15).
func TestPULPFullSum700Bit(t *testing.T) {
	const n, nl = 20_000, 200
	random, nearPerfect := pulpLargeRankings(n, nl, 2)
	for name, labels := range map[string][]bool{"random": random, "near-perfect": nearPerfect} {
		got := pulpRanked(t, labels).PU().PULP
		want := pulpBigPULP(labels, 700)
		if e := pulpRelErr(got, want); e > 1e-10 {
			t.Errorf("%s: PULP %.17g, 700-bit %s, rel err %.2g", name, got, want.Text('g', 20), e)
		}
	}
}

// Acceptance 5: Pseudo-F = (N/t) F1 at every cut-off and on average, since
// with P(y=1) = t/N, 2(k/t)/((b+t)/N) = (N/t) 2k/(b+t) (specification); and on
// fully labelled data r^2/P(f=1) = p r / pi at every cut-off (Lee & Liu, as
// quoted in the paper, Section 1), with pi the fraction of positives. Random
// rankings with and without ties.
func TestPseudoFAndLeeLiuIdentities(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 233))
	for trial := range 200 {
		n := 2 + rng.IntN(500)
		var s []float64
		var y []bool
		if trial%2 == 0 {
			s, y = pulpTiedSample(rng, n)
		} else {
			s, y = make([]float64, n), make([]bool, n)
			for i := range s {
				s[i] = rng.Float64()
				y[i] = rng.IntN(4) == 0
			}
			y[0], y[n-1] = true, false
		}
		r := mustRank(t, s, y)
		N, T := float64(r.N()), float64(r.Positives())
		pi := T / N
		for k := 0; k < r.Len(); k++ {
			c := r.Confusion(k)
			rec, pF := c.TPR(), float64(c.TP+c.FP)/N
			if pf := 2 * rec / (pF + pi); !pulpClose(pf, N/T*c.F1(), 1e-12) {
				t.Fatalf("trial %d cut-off %d: Pseudo-F %v, (N/t) F1 %v", trial, k, pf, N/T*c.F1())
			}
			var ll float64
			if pF > 0 {
				ll = rec * rec / pF
			}
			if pr := c.Precision() * rec / pi; !pulpClose(ll, pr, 1e-12) {
				t.Fatalf("trial %d cut-off %d: r^2/P(f=1) %v, p r/pi %v", trial, k, ll, pr)
			}
		}
		m := r.PU()
		if !pulpClose(m.PseudoF, N/T*m.F1, 1e-12) {
			t.Fatalf("trial %d: Pseudo-F %v, (N/t) F1 %v", trial, m.PseudoF, N/T*m.F1)
		}
	}
}
