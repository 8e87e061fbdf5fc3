package metrics

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/internal/oneclass"
)

func mustRank(t *testing.T, s []float64, y []bool) *Ranking {
	t.Helper()
	r, err := Rank(s, y)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func bools(v ...int) []bool {
	b := make([]bool, len(v))
	for i, x := range v {
		b[i] = x == 1
	}
	return b
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// The AUL paper's Figure 1a: 20 examples with scores, true labels y and observed PU labels s.
// The paper reports AUC 0.740, AUC_PU 0.653, AUL 0.620, AUL_PU 0.615. Worked exactly with
// fractions (Python's fractions.Fraction over the O(n^2) definitions): AUC = 37/50,
// AUC_PU = 49/75, AUL = 31/50, AUL_PU = 123/200.
func TestAULPaperFigure1a(t *testing.T) {
	s := []float64{0.92, 0.82, 0.73, 0.66, 0.6, 0.58, 0.54, 0.5, 0.45, 0.43,
		0.41, 0.39, 0.38, 0.36, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1}
	y := bools(1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 0, 0)
	l := bools(1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0)
	truth, pu := mustRank(t, s, y), mustRank(t, s, l)
	for _, c := range []struct {
		name      string
		got, want float64
		paper     float64
	}{
		{"AUC", truth.AUC(), 37.0 / 50, 0.740},
		{"AUC_PU", pu.AUC(), 49.0 / 75, 0.653},
		{"AUL", truth.AUL(), 31.0 / 50, 0.620},
		{"AUL_PU", pu.AUL(), 123.0 / 200, 0.615},
	} {
		if !near(c.got, c.want, 1e-15) || !near(c.got, c.paper, 5e-4) {
			t.Errorf("%s = %.6f, want %.6f (paper %.3f)", c.name, c.got, c.want, c.paper)
		}
	}
}

// The AAAI-2017 paper's Figure 1 table: 8 examples, three labeled positive, one
// unlabeled positive (0.943). By hand:
//
//	PU AUC: labeled {.986,.863,.699} vs unlabeled {.943,.789,.473,.211,.009}:
//	  .986 beats 5, .863 beats 4, .699 beats 3 -> 12/15 = 0.8
//	true AUC: positives {.986,.943,.863,.699} vs negatives {.789,.473,.211,.009}:
//	  4+4+4+3 = 15/16 = 0.9375
//	true AP: positives at ranks 1,2,3,5 -> (1/1 + 2/2 + 3/3 + 4/5)/4 = 0.95
//	PU AP: labeled at ranks 1,3,5 -> (1/1 + 2/3 + 3/5)/3 = 34/45
func TestAAAIFigure1(t *testing.T) {
	s := []float64{0.986, 0.943, 0.863, 0.789, 0.699, 0.473, 0.211, 0.009}
	labeled := bools(1, 0, 1, 0, 1, 0, 0, 0)
	truth := bools(1, 1, 1, 0, 1, 0, 0, 0)
	pu, tr := mustRank(t, s, labeled), mustRank(t, s, truth)
	if got := pu.AUC(); got != 0.8 {
		t.Errorf("PU AUC = %v, want 0.8", got)
	}
	if got := tr.AUC(); got != 0.9375 {
		t.Errorf("true AUC = %v, want 0.9375", got)
	}
	if got := tr.AveragePrecision(); !near(got, 0.95, 1e-15) {
		t.Errorf("true AP = %v, want 0.95", got)
	}
	if got := pu.AveragePrecision(); !near(got, 34.0/45, 1e-15) {
		t.Errorf("PU AP = %v, want 34/45", got)
	}
	// Maxima by hand (true labels). Accuracy 7/8 at .863 (TP3 FP0) and at .699 (TP4 FP1):
	// the tie goes to the higher threshold. F1: 6/7 at .863, 8/9 at .699. MCC:
	// 12/sqrt(240) at both, tie -> .863. Balanced accuracy 0.875 at both -> .863.
	for _, c := range []struct {
		name string
		m    Metric
		want Optimum
	}{
		{"acc", Confusion.Accuracy, Optimum{7.0 / 8, 0.863}},
		{"f1", Confusion.F1, Optimum{8.0 / 9, 0.699}},
		{"mcc", Confusion.MCC, Optimum{12 / math.Sqrt(240), 0.863}},
		{"bacc", Confusion.BalancedAccuracy, Optimum{0.875, 0.863}},
	} {
		got := tr.Max(c.m)
		if !near(got.Value, c.want.Value, 1e-15) || got.Threshold != c.want.Threshold {
			t.Errorf("max %s = %+v, want %+v", c.name, got, c.want)
		}
	}
}

// Brute-force O(n^2) definitions, written straight from DESIGN.md section 4.
func bruteAUC(s []float64, y []bool) float64 {
	var sum float64
	var np, nn int
	for i := range s {
		if !y[i] {
			continue
		}
		np++
		for j := range s {
			if y[j] {
				continue
			}
			switch {
			case s[i] > s[j]:
				sum++
			case s[i] == s[j]:
				sum += 0.5
			}
		}
	}
	for _, v := range y {
		if !v {
			nn++
		}
	}
	return sum / float64(np*nn)
}

func bruteAUL(s []float64, y []bool) float64 {
	var sum float64
	np := 0
	for i := range s {
		if !y[i] {
			continue
		}
		np++
		for j := range s {
			switch {
			case s[i] > s[j]:
				sum++
			case s[i] == s[j]:
				sum += 0.5
			}
		}
	}
	return sum / float64(np*len(s))
}

func bruteConfusion(s []float64, y []bool, thr float64) Confusion {
	var c Confusion
	for i := range s {
		switch p := s[i] >= thr; {
		case p && y[i]:
			c.TP++
		case p && !y[i]:
			c.FP++
		case !p && y[i]:
			c.FN++
		default:
			c.TN++
		}
	}
	return c
}

func descendingThresholds(s []float64) []float64 {
	u := slices.Clone(s)
	slices.Sort(u)
	u = slices.Compact(u)
	slices.Reverse(u)
	return append([]float64{math.Inf(1)}, u...)
}

func bruteAP(s []float64, y []bool) float64 {
	var ap, prevR float64
	for _, thr := range descendingThresholds(s)[1:] {
		c := bruteConfusion(s, y, thr)
		r := c.TPR()
		ap += (r - prevR) * float64(c.TP) / float64(c.TP+c.FP)
		prevR = r
	}
	return ap
}

func bruteMax(s []float64, y []bool, m Metric) Optimum {
	best := Optimum{Value: math.Inf(-1)}
	for _, thr := range descendingThresholds(s) {
		if v := m(bruteConfusion(s, y, thr)); v > best.Value {
			best = Optimum{v, thr}
		}
	}
	return best
}

// randomTied draws n scores from a handful of values (heavy ties), including
// negative scores and both zeros, with random labels containing both classes.
func randomTied(rng *rand.Rand, n int) ([]float64, []bool) {
	vals := []float64{-2.5, -1, math.Copysign(0, -1), 0, 0.25, 0.5, 0.5000000001, 3}
	k := 1 + rng.IntN(len(vals))
	s, y := make([]float64, n), make([]bool, n)
	for i := range s {
		s[i] = vals[rng.IntN(k)]
		y[i] = rng.IntN(3) == 0
	}
	y[0], y[n-1] = true, false
	return s, y
}

func TestBruteForceAgreement(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	metricsUnderTest := map[string]Metric{
		"acc": Confusion.Accuracy, "bacc": Confusion.BalancedAccuracy, "f1": Confusion.F1,
		"mcc": Confusion.MCC, "tpr": Confusion.TPR, "precision": Confusion.Precision,
	}
	for trial := range 400 {
		n := 2 + rng.IntN(60)
		if trial%50 == 0 {
			n = 3000 // exercise the radix sort path
		}
		var s []float64
		var y []bool
		if trial%2 == 0 {
			s, y = randomTied(rng, n)
		} else {
			s, y = make([]float64, n), make([]bool, n)
			for i := range s {
				s[i] = rng.NormFloat64()
				y[i] = rng.IntN(2) == 0
			}
			y[0], y[n-1] = true, false
		}
		r := mustRank(t, s, y)
		if got, want := r.AUC(), bruteAUC(s, y); !near(got, want, 1e-12) {
			t.Fatalf("trial %d: AUC %v, brute %v", trial, got, want)
		}
		if got, want := r.AUL(), bruteAUL(s, y); !near(got, want, 1e-12) {
			t.Fatalf("trial %d: AUL %v, brute %v", trial, got, want)
		}
		if got, want := r.AveragePrecision(), bruteAP(s, y); !near(got, want, 1e-12) {
			t.Fatalf("trial %d: AP %v, brute %v", trial, got, want)
		}
		// AUC equals the trapezoid under ROC(); AUL the trapezoid under Lift().
		if got, want := TrapezoidAUC(r.ROC()), r.AUC(); !near(got, want, 1e-12) {
			t.Fatalf("trial %d: ROC trapezoid %v, AUC %v", trial, got, want)
		}
		pi := float64(r.Positives()) / float64(r.N())
		if got, want := r.AUL(), pi/2+(1-pi)*r.AUC(); !near(got, want, 1e-12) {
			t.Fatalf("trial %d: AUL %v, pi/2+(1-pi)AUC %v", trial, got, want)
		}
		for name, m := range metricsUnderTest {
			got, want := r.Max(m), bruteMax(s, y, m)
			if !near(got.Value, want.Value, 1e-12) || got.Threshold != want.Threshold {
				t.Fatalf("trial %d: max %s = %+v, brute %+v", trial, name, got, want)
			}
		}
		thresholds := descendingThresholds(s)
		if r.Len() != len(thresholds) {
			t.Fatalf("trial %d: %d thresholds, want %d", trial, r.Len(), len(thresholds))
		}
		for k, thr := range thresholds {
			if r.Threshold(k) != thr || r.Confusion(k) != bruteConfusion(s, y, thr) ||
				r.ConfusionAt(thr) != r.Confusion(k) {
				t.Fatalf("trial %d: threshold %d (%v) mismatch", trial, k, thr)
			}
		}
	}
}

func TestConfusionAtBetweenThresholds(t *testing.T) {
	r := mustRank(t, []float64{3, 2, 1}, bools(1, 0, 1))
	for _, c := range []struct {
		thr  float64
		want Confusion
	}{
		{10, Confusion{TP: 0, FP: 0, TN: 1, FN: 2}},
		{2.5, Confusion{TP: 1, FP: 0, TN: 1, FN: 1}},
		{2, Confusion{TP: 1, FP: 1, TN: 0, FN: 1}},
		{-5, Confusion{TP: 2, FP: 1, TN: 0, FN: 0}},
	} {
		if got := r.ConfusionAt(c.thr); got != c.want {
			t.Errorf("ConfusionAt(%v) = %+v, want %+v", c.thr, got, c.want)
		}
	}
}

func TestRankErrors(t *testing.T) {
	for name, c := range map[string]struct {
		s []float64
		y []bool
	}{
		"length": {[]float64{1, 2}, bools(1)},
		"nan":    {[]float64{1, math.NaN()}, bools(1, 0)},
		"inf":    {[]float64{1, math.Inf(-1)}, bools(1, 0)},
		"no neg": {[]float64{1, 2}, bools(1, 1)},
		"no pos": {[]float64{1, 2}, bools(0, 0)},
		"empty":  {nil, nil},
	} {
		if _, err := Rank(c.s, c.y); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// A single class is the one-class error shared with the classifiers,
	// in this package's words.
	_, err := Rank([]float64{1, 2}, bools(1, 1))
	if !errors.Is(err, ErrOneClass) || !errors.Is(err, oneclass.Err) ||
		err.Error() != "metrics: 2 positives and 0 negatives: sample needs at least one positive and one negative" {
		t.Errorf("one class: %v", err)
	}
}

func TestSortKeysRadix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{radixMin, 5000, 100000} {
		a := make([]uint64, n)
		for i := range a {
			switch i % 3 {
			case 0:
				a[i] = sortKey(rng.NormFloat64() * 1e6)
			case 1:
				a[i] = sortKey(rng.Float64())
			default:
				a[i] = rng.Uint64()
			}
		}
		want := slices.Clone(a)
		slices.Sort(want)
		sortKeys(context.Background(), a)
		if !slices.Equal(a, want) {
			t.Fatalf("n=%d: radix sort differs from slices.Sort", n)
		}
	}
	// sortKey is monotone and round-trips.
	xs := []float64{-math.MaxFloat64, -1, -math.SmallestNonzeroFloat64, 0, math.SmallestNonzeroFloat64, 0.5, 1, math.MaxFloat64}
	for i, x := range xs {
		if keyFloat(sortKey(x)) != x {
			t.Errorf("round trip of %v", x)
		}
		if i > 0 && sortKey(xs[i-1]) >= sortKey(x) {
			t.Errorf("sortKey not increasing at %v", x)
		}
	}
	if sortKey(math.Copysign(0, -1)) != sortKey(0) {
		t.Error("-0 and +0 must tie")
	}
}

// exactLowerTail computes P(X <= x) for the hypergeometric distribution exactly in rationals.
func exactLowerTail(x, n, k, d int) float64 {
	num := new(big.Int)
	for j := 0; j <= x; j++ {
		if j > k || d-j > n-k || d-j < 0 {
			continue
		}
		t := new(big.Int).Binomial(int64(k), int64(j))
		num.Add(num, t.Mul(t, new(big.Int).Binomial(int64(n-k), int64(d-j))))
	}
	f, _ := new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(n), int64(d))).Float64()
	return f
}

func TestHypergeomLowerTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		n := 1 + rng.IntN(300)
		k, d := rng.IntN(n+1), rng.IntN(n+1)
		x := rng.IntN(min(k, d)+3) - 1
		got, want := hypergeomLowerTail(x, n, k, d), exactLowerTail(x, n, k, d)
		if !near(got, want, 1e-11) {
			t.Fatalf("P(X<=%d | N=%d K=%d n=%d) = %v, exact %v", x, n, k, d, got, want)
		}
	}
	// gonum's combin.LogGeneralizedBinomial gave 0.215085 for this case (notes/go-libraries.md);
	// the exact rational value agrees.
	if got, want := hypergeomLowerTail(2, 50, 10, 12), exactLowerTail(2, 50, 10, 12); !near(got, want, 1e-13) {
		t.Errorf("got %v want %v", got, want)
	}
	// Large N: no overflow, and the tails add up to one.
	if lo, hi := hypergeomLowerTail(4999, 1e6, 1e5, 5e4), hypergeomLowerTail(5000, 1e6, 1e5, 5e4); !(lo > 0.4 && lo < 0.6 && hi > lo && hi < 1) {
		t.Errorf("large-N tails %v %v", lo, hi)
	}
}

// brutePU evaluates the PULP paper's measures by their definitions, walking the N+1
// cut-offs of the list sorted by descending score (no ties), with exact hypergeometric tails.
func brutePU(s []float64, y []bool) PUMeasures {
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return -cmpF(s[a], s[b]) })
	n, t := len(s), 0
	for _, v := range y {
		if v {
			t++
		}
	}
	var m PUMeasures
	hits := 0
	for i := 0; i <= n; i++ {
		if i > 0 && y[idx[i-1]] {
			hits++
		}
		c := Confusion{TP: hits, FP: i - hits, FN: t - hits, TN: n - t - (i - hits)}
		m.PULP += exactLowerTail(hits-1, n, t, i)
		r := float64(hits) / float64(t)
		pf := float64(i) / float64(n)
		if i > 0 {
			m.LeeLiu += r * r / pf
		}
		m.PseudoF += 2 * r / (pf + float64(t)/float64(n))
		m.F1 += c.F1()
		m.MI += c.MutualInformation()
		m.Pearson += c.MCC()
	}
	k := float64(n + 1)
	return PUMeasures{PULP: m.PULP / k, LeeLiu: m.LeeLiu / k, PseudoF: m.PseudoF / k, F1: m.F1 / k,
		MI: m.MI / k, Pearson: m.Pearson / k}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestPUMeasuresBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 100 {
		n := 2 + rng.IntN(80)
		s, y := make([]float64, n), make([]bool, n)
		for i := range s {
			s[i] = rng.Float64() // distinct almost surely: the paper's setting
			y[i] = rng.IntN(3) == 0
		}
		y[0], y[1] = true, false
		got, want := mustRank(t, s, y).PU(), brutePU(s, y)
		for _, c := range [][3]any{
			{"PULP", got.PULP, want.PULP}, {"L&L", got.LeeLiu, want.LeeLiu},
			{"PseudoF", got.PseudoF, want.PseudoF}, {"F1", got.F1, want.F1},
			{"MI", got.MI, want.MI}, {"Pearson", got.Pearson, want.Pearson},
		} {
			if !near(c[1].(float64), c[2].(float64), 1e-11) {
				t.Fatalf("trial %d: %s = %v, brute %v", trial, c[0], c[1], c[2])
			}
		}
	}
}

// A perfect ranking of t labeled among N makes every cut-off's hit count the
// largest possible; a reversed ranking the smallest. PULP must order them.
func TestPULPOrdersRankings(t *testing.T) {
	n := 200
	s, good, bad := make([]float64, n), make([]bool, n), make([]bool, n)
	for i := range s {
		s[i] = float64(n - i)
		good[i] = i < 40
		bad[i] = i >= n-40
	}
	g, b := mustRank(t, s, good).PU(), mustRank(t, s, bad).PU()
	if !(g.PULP > 0.8 && b.PULP < 0.01) {
		t.Errorf("PULP perfect %v, reversed %v", g.PULP, b.PULP)
	}
}

func TestMutualInformation(t *testing.T) {
	// Perfect prediction of a balanced label carries 1 bit; independence carries 0.
	if got := (Confusion{TP: 5, TN: 5}).MutualInformation(); !near(got, 1, 1e-15) {
		t.Errorf("perfect MI = %v, want 1", got)
	}
	if got := (Confusion{TP: 2, FP: 2, FN: 3, TN: 3}).MutualInformation(); !near(got, 0, 1e-15) {
		t.Errorf("independent MI = %v, want 0", got)
	}
}

// An independent oracle for the tie-grouped definitions: scikit-learn 1.2.1
// (Debian python3-sklearn) average_precision_score and roc_auc_score on this
// tied sample give 0.5653968253968253 and 0.62. By hand, tie groups
// {3: 1+,1-} {2: 2+,1-} {1: 1+,1-} {0.5: 1+,1-} {0: 1-}:
// AP = (1/5)(1/2) + (2/5)(3/5) + (1/5)(4/7) + (1/5)(5/9).
func TestScikitLearnOracle(t *testing.T) {
	s := []float64{3, 3, 2, 2, 2, 1, 1, 0.5, 0.5, 0}
	y := bools(1, 0, 1, 1, 0, 0, 1, 0, 1, 0)
	r := mustRank(t, s, y)
	if got := r.AveragePrecision(); !near(got, 0.5653968253968253, 1e-15) {
		t.Errorf("AP = %v", got)
	}
	if got := r.AUC(); !near(got, 0.62, 1e-15) {
		t.Errorf("AUC = %v", got)
	}
}
