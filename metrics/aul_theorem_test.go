package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAULTheorem1 checks the AUL paper's Theorem 1 by simulation: over
// SCAR splits (n_L of the n_P positives labeled, drawn without replacement,
// U = the rest), AUL^PU is unbiased for AUL and
//
//	Var[AUL^PU] = (n_P - n_L)/(n_P - 1) sigma^2/n_L,
//
// sigma^2 the population variance over the positives of t_i = (1/n)
// sum_j S(s_i, s_j) (S = 1, 1/2, 0; j over every row, i itself included).
// AUL^PU is the mean of t over the labeled positives, a without-replacement
// sample, so the formula is the finite-population variance of a sample
// mean. 10,000 splits: the variance within 5 % (about 3.5 standard errors
// of a variance estimate, sqrt(2/10,000) = 1.4 %), the mean error within 3
// standard errors of 0. t is computed here by brute force over pairs, an
// independent statement of Eq. 2; AUL^PU by Rank and AUL; and
// Ranking.AULSplitVariance must give the brute-force formula's value.
func TestAULTheorem1(t *testing.T) {
	rng := rand.New(rand.NewPCG(2021, 1))
	const n, nP, nL, splits = 600, 240, 60, 10000
	scores := make([]float64, n)
	y := make([]bool, n)
	for i := range n {
		y[i] = i < nP
		mu := 0.0
		if y[i] {
			mu = 1
		}
		// Rounded so that ties occur and S = 1/2 is exercised.
		scores[i] = math.Round((mu+rng.NormFloat64())*20) / 20
	}
	aul := mustRank(t, scores, y).AUL()
	tPos := make([]float64, 0, nP)
	for i := range n {
		if !y[i] {
			continue
		}
		s := 0.0
		for j := range n {
			switch {
			case scores[i] > scores[j]:
				s++
			case scores[i] == scores[j]:
				s += 0.5
			}
		}
		tPos = append(tPos, s/n)
	}
	var meanT, sigma2 float64
	for _, v := range tPos {
		meanT += v
	}
	meanT /= nP
	for _, v := range tPos {
		sigma2 += (v - meanT) * (v - meanT)
	}
	sigma2 /= nP
	if math.Abs(meanT-aul) > 1e-12 {
		t.Fatalf("mean of t over the positives %v, AUL %v: Eq. 2 disagrees", meanT, aul)
	}
	want := float64(nP-nL) / float64(nP-1) * sigma2 / nL
	if got := mustRank(t, scores, y).AULSplitVariance(nL); math.Abs(got-want) > 1e-12*want {
		t.Fatalf("AULSplitVariance(%d) = %v, the brute-force sigma^2 gives %v", nL, got, want)
	}

	pos := make([]int, nP)
	for i := range pos {
		pos[i] = i
	}
	pseudo := make([]bool, n)
	var sum, sumSq float64
	for range splits {
		for i := range nL { // partial Fisher-Yates: the first nL of pos are labeled
			j := i + rng.IntN(nP-i)
			pos[i], pos[j] = pos[j], pos[i]
		}
		clear(pseudo)
		for _, i := range pos[:nL] {
			pseudo[i] = true
		}
		d := mustRank(t, scores, pseudo).AUL() - aul
		sum += d
		sumSq += d * d
	}
	mean := sum / splits
	variance := (sumSq - splits*mean*mean) / (splits - 1)
	if se := math.Sqrt(want / splits); math.Abs(mean) > 3*se {
		t.Errorf("mean of AUL^PU - AUL = %v: more than 3 standard errors (%v) from 0", mean, se)
	}
	if r := variance / want; math.Abs(r-1) > 0.05 {
		t.Errorf("Var[AUL^PU] = %v over %d splits, Theorem 1 gives %v (ratio %.3f)", variance, splits, want, r)
	}
}

// TestAULSplitVarianceByHand: scores 3, 2, 2, 1 with labels P, P, N, P
// (n = 4). The positives' t_i = (1/n) sum_j S(s_i, s_j) are 3.5/4, 2/4 and
// 0.5/4 (each row against itself counts 1/2), mean 0.5 = AUL, sigma^2 =
// (0.375^2 + 0 + 0.375^2)/3 = 0.09375. Labeling one positive, AUL^PU is
// that positive's t: variance sigma^2. Labeling two, the three pairs give
// 0.6875, 0.5, 0.3125: variance 2 (0.1875^2)/3 = 0.0234375 = (1/2)
// sigma^2/2, Theorem 1's finite-population factor. All three: 0.
func TestAULSplitVarianceByHand(t *testing.T) {
	r := mustRank(t, []float64{3, 2, 2, 1}, []bool{true, true, false, true})
	if got := r.AUL(); got != 0.5 {
		t.Fatalf("AUL = %v, want 0.5", got)
	}
	for nL, want := range map[int]float64{1: 0.09375, 2: 0.0234375, 3: 0} {
		if got := r.AULSplitVariance(nL); math.Abs(got-want) > 1e-15 {
			t.Errorf("AULSplitVariance(%d) = %v, want %v", nL, got, want)
		}
	}
	for _, nL := range []int{-1, 0, 4} {
		if got := r.AULSplitVariance(nL); !math.IsNaN(got) {
			t.Errorf("AULSplitVariance(%d) = %v, want NaN (1 <= nL <= |P| = 3)", nL, got)
		}
	}
	if got := mustRank(t, []float64{1, 0}, []bool{true, false}).AULSplitVariance(1); got != 0 {
		t.Errorf("one positive: AULSplitVariance(1) = %v, want 0", got)
	}
}
