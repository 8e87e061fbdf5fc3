package kernelauc

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gaussPN draws a PN data set: nP rows of N((1.5, 1.5), I) (y true) and nN
// of N(0, I), interleaved.
func gaussPN(seed uint64, nP, nN int) (*mat.Dense, []bool) {
	rng := rand.New(rand.NewPCG(seed, 3))
	X := mat.NewDense(nP+nN, 2, nil)
	y := make([]bool, nP+nN)
	for i := range nP + nN {
		pos := i%2 == 0 && i/2 < nP || i >= 2*nN
		y[i] = pos
		mu := 0.0
		if pos {
			mu = 1.5
		}
		X.Set(i, 0, mu+rng.NormFloat64())
		X.Set(i, 1, mu+rng.NormFloat64())
	}
	return X, y
}

// TestCompareOnFoldsSynthetic: the Figure 3 protocol on 2-D Gaussian PN data
// (1,000 + 1,000 rows, beta = 0.25, b = 100 centres to keep the test
// short, PU_AUC given the true alpha_U of each fold): folds partition the
// rows, n_L = round(0.25 n_P^train), PU_AUC sees the true alpha_U, both
// mean test AUCs are within 0.03 of the Bayes AUC Phi(1.5) = 0.9332, and the
// run repeats exactly for a seed. (At beta = 0.1 with 500 + 500 rows, 40
// labeled rows per fold, the inner CV sees 8 labeled rows per held-out fold
// and is noisy enough to pick sigma = 0.1 x the median width on some folds:
// test AUC 0.75 on one; see the notes.)
func TestCompareOnFoldsSynthetic(t *testing.T) {
	X, y := gaussPN(21, 1000, 1000)
	var priorsSeen []float64
	cfg := CompareConfig{
		Beta:    0.25,
		Options: Options{Centres: 100},
		PriorFunc: func(fold int, L, U *mat.Dense, trueAlphaU float64) (float64, error) {
			priorsSeen = append(priorsSeen, trueAlphaU)
			return trueAlphaU, nil
		},
	}
	res, err := CompareOnFolds(X, y, cfg, rand.New(rand.NewPCG(8, 8)))
	if err != nil {
		t.Fatal(err)
	}
	bayes := 0.5 * math.Erfc(-1.5/math.Sqrt2)
	nTest := 0
	for _, f := range res.Folds {
		nTest += f.NTest
		trainPos := f.NL + int(math.Round(f.TrueAlphaU*float64(f.NU)))
		if want := int(math.Round(0.25 * float64(trainPos))); f.NL != want || trainPos != 800 {
			t.Errorf("fold %d: n_L %d of %d training positives, want round(0.25 x 800) = %d", f.Fold, f.NL, trainPos, want)
		}
		if f.NTrain != f.NL+f.NU || f.NTrain+f.NTest != 2000 {
			t.Errorf("fold %d: sizes %+v", f.Fold, f)
		}
		if f.Prior != f.TrueAlphaU {
			t.Errorf("fold %d: prior %v, true alpha_U %v", f.Fold, f.Prior, f.TrueAlphaU)
		}
		t.Logf("fold %d: n_L %d n_U %d alpha_U %.3f; AUC PU_AUC %.4f (%v) PU_AUL %.4f (%v)",
			f.Fold, f.NL, f.NU, f.TrueAlphaU, f.AUCPUAUC, f.TimePUAUC, f.AUCPUAUL, f.TimePUAUL)
	}
	if nTest != 2000 || len(priorsSeen) != 5 {
		t.Errorf("test rows %d, prior calls %d", nTest, len(priorsSeen))
	}
	t.Logf("mean test AUC: PU_AUC %.4f, PU_AUL %.4f (Bayes %.4f); fit time %v / %v",
		res.AUCPUAUC, res.AUCPUAUL, bayes, res.TimePUAUC, res.TimePUAUL)
	for name, a := range map[string]float64{"PU_AUC": res.AUCPUAUC, "PU_AUL": res.AUCPUAUL} {
		if math.Abs(a-bayes) > 0.03 {
			t.Errorf("%s mean test AUC %.4f, Bayes %.4f", name, a, bayes)
		}
	}
	again, err := CompareOnFolds(X, y, cfg, rand.New(rand.NewPCG(8, 8)))
	if err != nil {
		t.Fatal(err)
	}
	for f := range res.Folds {
		a, b := res.Folds[f], again.Folds[f]
		if a.AUCPUAUC != b.AUCPUAUC || a.AUCPUAUL != b.AUCPUAUL || !sameBits(a.ModelPUAUC.W, b.ModelPUAUC.W) {
			t.Errorf("fold %d differs between runs with the same seed", f)
		}
		// Both learners of a fold draw the same centres.
		if !mat.Equal(a.ModelPUAUC.Centres, a.ModelPUAUL.Centres) {
			t.Errorf("fold %d: the learners drew different centres", f)
		}
	}
}

func TestCompareOnFoldsErrors(t *testing.T) {
	X, y := gaussPN(1, 60, 60)
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }
	allNeg := make([]bool, len(y))
	cases := []struct {
		name string
		X    *mat.Dense
		y    []bool
		cfg  CompareConfig
		rng  *rand.Rand
		want string
	}{
		{"nil X", nil, y, CompareConfig{Prior: 0.4}, rng(), "no rows"},
		{"label count", X, y[:10], CompareConfig{Prior: 0.4}, rng(), "labels"},
		{"no positives", X, allNeg, CompareConfig{Prior: 0.4}, rng(), "positives"},
		{"beta > 1", X, y, CompareConfig{Prior: 0.4, Beta: 1.5}, rng(), "Beta"},
		{"no prior", X, y, CompareConfig{}, rng(), "Prior"},
		{"NaN prior", X, y, CompareConfig{Prior: math.NaN()}, rng(), "Prior"},
		{"one fold", X, y, CompareConfig{Prior: 0.4, Folds: 1}, rng(), "Folds"},
		{"nil rng", X, y, CompareConfig{Prior: 0.4}, nil, "rng"},
		// 48 training positives, n_L = 5 < 10 needed by the inner CV.
		{"too few labeled", X, y, CompareConfig{Prior: 0.4}, rng(), "labeled rows"},
		{"prior func error", X, y, CompareConfig{Beta: 0.5, PriorFunc: func(int, *mat.Dense, *mat.Dense, float64) (float64, error) {
			return 0, errTest
		}}, rng(), "test error"},
		{"prior func out of range", X, y, CompareConfig{Beta: 0.5, PriorFunc: func(int, *mat.Dense, *mat.Dense, float64) (float64, error) {
			return 1.2, nil
		}}, rng(), "prior"},
	}
	for _, c := range cases {
		_, err := CompareOnFolds(c.X, c.y, c.cfg, c.rng)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

type testError struct{}

func (testError) Error() string { return "test error" }

var errTest error = testError{}
