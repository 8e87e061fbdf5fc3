package pusplit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// labels returns n labels with the first n1 positive.
func labels(n, n1 int) []bool {
	y := make([]bool, n)
	for i := range n1 {
		y[i] = true
	}
	return y
}

func disjointSorted(t *testing.T, s Split, n int) {
	t.Helper()
	if !slices.IsSorted(s.Labeled) || !slices.IsSorted(s.Unlabeled) {
		t.Fatal("index sets not sorted")
	}
	seen := make([]bool, n)
	for _, i := range append(slices.Clone(s.Labeled), s.Unlabeled...) {
		if seen[i] {
			t.Fatalf("index %d drawn twice", i)
		}
		seen[i] = true
	}
}

func TestCaseControlCounts(t *testing.T) {
	// Pima: n = 768, n1 = 268 (DESIGN.md table); n_L = 100, beta = 0.75:
	// L has 75 positives and 25 negatives; U is the other 668 (below the cap),
	// with 268-75 = 193 positives: alpha = 193/668.
	y := labels(768, 268)
	s, err := CaseControl(rand.New(rand.NewPCG(1, 2)), y, 100, 0.75, 10000)
	if err != nil {
		t.Fatal(err)
	}
	disjointSorted(t, s, len(y))
	if len(s.Labeled) != 100 || s.Beta(y) != 0.75 || len(s.Unlabeled) != 668 || s.Alpha(y) != 193.0/668 {
		t.Errorf("L %d beta %v U %d alpha %v", len(s.Labeled), s.Beta(y), len(s.Unlabeled), s.Alpha(y))
	}
}

func TestCaseControlCapAndExpectedAlpha(t *testing.T) {
	// Shuttle: n = 58000, n1 = 8903, n_L = 1000, beta = 0.95: U is capped at 10,000 and
	// alpha has expectation (8903 - 950)/(58000 - 1000) = 0.139526 (the paper's Table 1 gives 0.140).
	y := labels(58000, 8903)
	var sum float64
	const reps = 40
	for r := range reps {
		s, err := CaseControl(rand.New(rand.NewPCG(3, uint64(r))), y, 1000, 0.95, 10000)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Unlabeled) != 10000 || s.Beta(y) != 0.95 {
			t.Fatalf("U %d beta %v", len(s.Unlabeled), s.Beta(y))
		}
		sum += s.Alpha(y)
	}
	// The standard deviation of one alpha is about sqrt(.14*.86/10000) = 0.0035 (less, without replacement).
	if m := sum / reps; math.Abs(m-(8903.0-950)/57000) > 3*0.0035/math.Sqrt(reps) {
		t.Errorf("mean alpha %v, want %v", m, (8903.0-950)/57000)
	}
}

func TestStratifiedCounts(t *testing.T) {
	// n = 8124, n1 = 3916 (Mushroom), n_u = 5000, n_l = 500 (the PSB-2019 sizes of Mushroom).
	y := labels(8124, 3916)
	nL, nU := 500, 5000
	// beta = 0.8: L = 400 positives + 100 negatives; remaining 3516 positives of 7624:
	// alpha = 3516/7624 = 0.461175; U = round(0.461175*5000) = 2306 positives + 2694 negatives.
	s, err := Stratified(rand.New(rand.NewPCG(4, 4)), y, nL, nU, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	disjointSorted(t, s, len(y))
	if len(s.Labeled) != 500 || s.Beta(y) != 0.8 || len(s.Unlabeled) != 5000 || s.Alpha(y) != 2306.0/5000 {
		t.Errorf("L %d beta %v U %d alpha %v", len(s.Labeled), s.Beta(y), len(s.Unlabeled), s.Alpha(y))
	}
}

func TestDeterministicAndSeedSensitive(t *testing.T) {
	y := labels(5000, 1200)
	a, _ := CaseControl(rand.New(rand.NewPCG(9, 9)), y, 1000, 0.95, 10000)
	b, _ := CaseControl(rand.New(rand.NewPCG(9, 9)), y, 1000, 0.95, 10000)
	c, _ := CaseControl(rand.New(rand.NewPCG(9, 10)), y, 1000, 0.95, 10000)
	if !slices.Equal(a.Labeled, b.Labeled) || !slices.Equal(a.Unlabeled, b.Unlabeled) {
		t.Error("same seed, different split")
	}
	if slices.Equal(a.Labeled, c.Labeled) {
		t.Error("different seeds, same split")
	}
}

func TestErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	y := labels(500, 100)
	if _, err := CaseControl(rng, y, 1000, 1, 0); err == nil {
		t.Error("n_L 1000 > 100 positives accepted")
	}
	if _, err := CaseControl(rng, y, 100, 0, 0); err == nil {
		t.Error("beta 0 accepted")
	}
	if _, err := CaseControl(rng, y, 500, 0.2, 0); err == nil {
		t.Error("empty unlabeled set accepted")
	}
	if _, err := Stratified(rng, y, 100, 1000, 0.9); err == nil {
		t.Error("n_u 1000 from 400 remaining accepted")
	}
}

// TestSCARFractionCounts: the AUL paper's Table 1 split sizes for Abalone
// (n = 4,177, n_P = 2,080): n_L = round(beta n_P) and alpha_U = (n_P -
// n_L)/(n - n_L) = .472, .442, .373 for beta = .1, .2, .4 (the spec's
// alpha_U per row, from the paper's n and alpha).
func TestSCARFractionCounts(t *testing.T) {
	y := labels(4177, 2080)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		beta  float64
		nL    int
		alpha float64
	}{{0.1, 208, 0.472}, {0.2, 416, 0.442}, {0.4, 832, 0.373}} {
		s, err := SCARFraction(rng, y, c.beta)
		if err != nil {
			t.Fatal(err)
		}
		disjointSorted(t, s, len(y))
		if len(s.Labeled) != c.nL || len(s.Labeled)+len(s.Unlabeled) != len(y) || s.Beta(y) != 1 {
			t.Errorf("beta %v: |L| %d |U| %d beta_L %v", c.beta, len(s.Labeled), len(s.Unlabeled), s.Beta(y))
		}
		if a := s.Alpha(y); math.Abs(a-c.alpha) > 5e-4 || a != float64(2080-c.nL)/float64(4177-c.nL) {
			t.Errorf("beta %v: alpha_U %v, want %v", c.beta, a, c.alpha)
		}
	}
	for _, bad := range []float64{0, 1, -0.1, math.NaN(), 0.0001} {
		if _, err := SCARFraction(rng, y, bad); err == nil {
			t.Errorf("fraction %v: no error", bad)
		}
	}
}

// TestStratifiedSubsample: the AUL paper's cap of Pageblock (5,473 rows,
// 4,913 positives) to 4,000 keeps round(4000 x 4913/5473) = 3,591
// positives (alpha .898 as in its Table 1); rows ascending and distinct;
// n >= N keeps every row; a seed gives the same rows.
func TestStratifiedSubsample(t *testing.T) {
	y := labels(5473, 4913)
	rows, err := StratifiedSubsample(rand.New(rand.NewPCG(3, 4)), y, 4000)
	if err != nil {
		t.Fatal(err)
	}
	pos := 0
	for i, r := range rows {
		if i > 0 && r <= rows[i-1] {
			t.Fatal("rows not ascending and distinct")
		}
		if y[r] {
			pos++
		}
	}
	if len(rows) != 4000 || pos != 3591 || math.Abs(float64(pos)/4000-0.898) > 5e-4 {
		t.Errorf("%d rows, %d positives", len(rows), pos)
	}
	again, _ := StratifiedSubsample(rand.New(rand.NewPCG(3, 4)), y, 4000)
	if !slices.Equal(rows, again) {
		t.Error("same seed, other rows")
	}
	all, err := StratifiedSubsample(rand.New(rand.NewPCG(3, 4)), y, 6000)
	if err != nil || len(all) != len(y) || all[0] != 0 || all[len(all)-1] != len(y)-1 {
		t.Errorf("n >= N: %d rows, %v", len(all), err)
	}
	if _, err := StratifiedSubsample(rand.New(rand.NewPCG(3, 4)), y, 0); err == nil {
		t.Error("n = 0: no error")
	}
}
