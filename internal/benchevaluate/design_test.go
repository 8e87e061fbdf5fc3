package benchevaluate

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Split.Counts by hand: |L| = round(C N), round(beta |L|) of them
// positive, round(alpha |U|) of U positive (half away from zero).
func TestSplitCounts(t *testing.T) {
	for _, tc := range []struct {
		s    Split
		want Counts
	}{
		// |L| = 15, 13.5 -> 14 positives; |U| = 135, 13.5 -> 14 positives.
		{Split{N: 150, C: 0.1, Alpha: 0.1, Beta: 0.9}, Counts{PosL: 14, NegL: 1, PosU: 14, NegU: 121}},
		// |L| = 1500, all positive; |U| = 3500, 1750 positives.
		{Split{N: 5000, C: 0.3, Alpha: 0.5, Beta: 1}, Counts{PosL: 1500, NegL: 0, PosU: 1750, NegU: 1750}},
		// |L| = 100,000, 90,000 positives; |U| = 900,000, 270,000 positives.
		{Split{N: 1_000_000, C: 0.1, Alpha: 0.3, Beta: 0.9}, Counts{PosL: 90_000, NegL: 10_000, PosU: 270_000, NegU: 630_000}},
	} {
		got := tc.s.Counts()
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.s.ID(), got, tc.want)
		}
		if got.NL()+got.NU() != tc.s.N {
			t.Errorf("%s: |L| + |U| = %d", tc.s.ID(), got.NL()+got.NU())
		}
	}
	c := Split{N: 150, C: 0.1, Alpha: 0.1, Beta: 0.9}.Counts()
	if c.Alpha() != 14.0/135 || c.Beta() != 14.0/15 {
		t.Errorf("realised alpha %v, beta %v; want 14/135, 14/15", c.Alpha(), c.Beta())
	}
}

// RealSample draws exactly the split's counts, without replacement (every
// source row at most once), with each row's features, labeled flag and
// true class from its source row.
func TestRealSample(t *testing.T) {
	const n, nPos = 400, 150
	x := mat.NewDense(n, 2, nil)
	y := make([]bool, n)
	for i := range n {
		x.Set(i, 0, float64(i)) // the row's identity
		x.Set(i, 1, float64(i%7))
		y[i] = i < nPos
	}
	s := Split{Source: "toy", N: 300, C: 0.3, Alpha: 0.3, Beta: 0.9}
	want := s.Counts() // L: 90 (81 + 9), U: 210 (63 + 147)
	got, err := RealSample(x, y, s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var c Counts
	seen := map[int]bool{}
	for i := range s.N {
		src := int(got.X.At(i, 0))
		if seen[src] {
			t.Fatalf("source row %d drawn twice", src)
		}
		seen[src] = true
		if got.Truth[i] != y[src] || got.X.At(i, 1) != float64(src%7) {
			t.Fatalf("row %d does not carry source row %d's class and features", i, src)
		}
		switch {
		case got.Labeled[i] && got.Truth[i]:
			c.PosL++
		case got.Labeled[i]:
			c.NegL++
		case got.Truth[i]:
			c.PosU++
		default:
			c.NegU++
		}
	}
	if c != want || want != (Counts{PosL: 81, NegL: 9, PosU: 63, NegU: 147}) {
		t.Errorf("drew %+v, split wants %+v (by hand: 81, 9, 63, 147)", c, want)
	}
	if _, err := RealSample(x, y, Split{Source: "toy", N: 400, C: 0.3, Alpha: 0.5, Beta: 1}, rand.New(rand.NewPCG(1, 2))); err == nil {
		t.Error("a split wanting 260 positives of 150 was drawn")
	}
}

// SynthSample: exact counts, and the labeled rows are a random sample of
// each class (their positives' mean near the unlabeled positives').
func TestSynthSample(t *testing.T) {
	s := Split{Source: synthHard.Name(), N: 20000, C: 0.3, Alpha: 0.1, Beta: 0.9}
	got, err := SynthSample(synthHard, s, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	var c Counts
	var sumL, sumU float64
	for i := range s.N {
		switch {
		case got.Labeled[i] && got.Truth[i]:
			c.PosL++
			sumL += got.X.At(i, 0)
		case got.Labeled[i]:
			c.NegL++
		case got.Truth[i]:
			c.PosU++
			sumU += got.X.At(i, 0)
		default:
			c.NegU++
		}
	}
	if c != s.Counts() {
		t.Errorf("drew %+v, split wants %+v", c, s.Counts())
	}
	// Each positive's first coordinate is N(1.5/sqrt 10, 1): the two means
	// of 5,400 and 1,400 draws differ by sd sqrt(1/5400 + 1/1400) = 0.030.
	if d := math.Abs(sumL/float64(c.PosL) - sumU/float64(c.PosU)); d > 0.15 {
		t.Errorf("labeled and unlabeled positives' means differ by %.3f (5 sd: 0.15)", d)
	}
}

func TestParseSynth(t *testing.T) {
	for _, s := range []SynthSource{synthHard, synthEasy, {D: 3, Separation: 0.25}} {
		got, ok := parseSynth(s.Name())
		if !ok || got != s {
			t.Errorf("%s read back as %+v, %v", s.Name(), got, ok)
		}
	}
	for _, name := range []string{"spambase", "gauss-d0-s1", "gauss-d10-s0", "gauss-dx-s1", "gauss-d10"} {
		if _, ok := parseSynth(name); ok {
			t.Errorf("%q read as a synthetic source", name)
		}
	}
}

// testCounts are class counts for every real data set of both designs:
// the mirror's (datasets.Store.Load: n - n_pos negatives).
var testCounts = map[string]ClassCounts{
	"bank": {5188, 39812}, "shuttle": {8903, 49097}, "activity-s1": {15162, 37320}, "pendigit": {3430, 7562},
	"epileptic": {2300, 9200}, "mushroom": {3916, 4208}, "landsat": {1508, 4927}, "wine": {4113, 2384},
	"thyroid": {534, 6666}, "pageblock": {560, 4913}, "parkinsons": {2934, 2941}, "waveform": {1647, 3353},
	"abalone": {2081, 2096}, "hiv": {1360, 5230}, "gas": {1316, 1779}, "splice": {1535, 1655},
	"concrete": {490, 540}, "housing": {209, 297}, "airfoil": {726, 777}, "casp": {20038, 25692},
	"anuran": {4420, 2775}, "spambase": {1813, 2788}, "wilt": {261, 4578}, "pima": {268, 500},
}

// The designs' cases: every real split fits its data set, sizes span 10^2
// to 10^6 (the full design), every (alpha, beta) and both labeled
// fractions occur, the validation set is exactly the validation data sets
// and the synthetic replicate 1, and no ID repeats.
func TestDesignCases(t *testing.T) {
	for _, d := range []Design{Quick(), Full()} {
		cases, err := d.Cases(testCounts)
		if err != nil {
			t.Fatal(err)
		}
		bands := map[string]bool{}
		combos := map[[2]float64]int{}
		for _, c := range cases {
			bands[Band(c.N)] = true
			combos[[2]float64{c.Split.Alpha, c.Split.Beta}]++
			_, synthetic := parseSynth(c.Source)
			if cc, ok := testCounts[c.Source]; ok && !c.fits(cc.Pos, cc.Neg) {
				t.Errorf("%s: %s: the data set cannot supply it", d.Name, c.ID())
			}
			wantVal := slices.Contains(ValidationSources, c.Source) || (synthetic && c.Rep == SynthValidationRep)
			if c.Validation != wantVal {
				t.Errorf("%s: %s: validation %v", d.Name, c.ID(), c.Validation)
			}
			if c.Model == ModelNNet && c.N > d.NNetMaxRows {
				t.Errorf("%s: %s: nnet-bag above %d rows", d.Name, c.ID(), d.NNetMaxRows)
			}
		}
		if len(combos) != len(priorCombos) {
			t.Errorf("%s: (alpha, beta) combinations %v", d.Name, combos)
		}
		want := []string{"10^2", "10^3", "10^4", "10^5"}
		if d.Name == "full" {
			want = append(want, "10^6")
		}
		for _, b := range want {
			if !bands[b] {
				t.Errorf("%s: no case in band %s", d.Name, b)
			}
		}
		t.Logf("%s: %d cases", d.Name, len(cases))
	}
	if _, err := Quick().Cases(map[string]ClassCounts{}); err == nil {
		t.Error("a design expanded without its data sets' counts")
	}
}

// realSplits walks the ladder as its doc says, checked by hand for pima
// (268 positives, 500 negatives) at alpha 0.1, beta 1 (k = 0), replicate
// 0, C = 0.1, data set index 2: a split of N rows wants 0.1 N + 0.09 N
// positives, so the ladder's 150, 500 and 1500 would want 29, 95 and 285;
// 1500 also wants more negatives (1215) than 500. F = {150, 500}, size
// F[(2 + 0) mod 2] = 150.
func TestRealSplitsByHand(t *testing.T) {
	d := Design{Ladder: []int{150, 500, 1500, 5000}, Cs: []float64{0.1, 0.3}, Reps: 2}
	splits := d.realSplits(2, "pima", testCounts["pima"])
	if len(splits) != 12 {
		t.Fatalf("%d splits, want 6 (alpha, beta) x 2 replicates", len(splits))
	}
	if s := splits[0]; s.N != 150 || s.C != 0.1 || s.Alpha != 0.1 || s.Beta != 1 || s.Rep != 0 {
		t.Errorf("first split %s, want pima/n150/c0.1/a0.1/b1/r0", s.ID())
	}
	// Replicate 1 of the same (alpha, beta): C = Cs[1] = 0.3, which wants
	// 0.3 N + 0.07 N positives: 56 at 150, 185 at 500 (and 0.63 N <= 500
	// negatives): F = {150, 500}; index (2 + 0 + 1) mod 2 = 1: 500.
	if s := splits[6]; s.N != 500 || s.C != 0.3 || s.Rep != 1 {
		t.Errorf("replicate 1's first split %s, want pima/n500/c0.3/a0.1/b1/r1", s.ID())
	}
}
