package svm

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// oracle is testdata/sklearn_oracle.json, written by
// testdata/sklearn_oracle.py (scikit-learn 1.2.1's SVC, i.e. libsvm, and
// scipy 1.10.1).
type oracle struct {
	Sklearn  string
	Tol      float64
	Problems []struct {
		Name         string
		Kernel       string
		C, Gamma     float64
		GammaScale   bool `json:"gamma_scale"`
		X, Xt        [][]float64
		Y            []bool
		W            []float64
		Decision     []float64
		DecisionTest []float64 `json:"decision_test"`
		NSV          int       `json:"n_sv"`
		Intercept    float64
	}
	Platt []struct {
		Dec       []float64
		Y         []bool
		A, B      float64
		Objective float64
	}
}

func loadOracle(t *testing.T) *oracle {
	t.Helper()
	b, err := os.ReadFile("testdata/sklearn_oracle.json")
	if err != nil {
		t.Fatal(err)
	}
	var o oracle
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Problems) == 0 || len(o.Platt) == 0 {
		t.Fatal("empty oracle file")
	}
	return &o
}

func denseOf(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// TestSVMSklearnOracle fits every problem of the oracle file with the same C,
// kernel, gamma, weights and a tolerance of 1e-8 (scikit-learn's was 1e-8
// too, shrinking off) and compares the decision values on the training rows
// and on held-out rows with scikit-learn's decision_function to 1e-4 (the
// acceptance criterion), in each storage, and with shrinking; dense and
// sparse storage must agree to 1e-12 (they are in fact bit-identical, see
// points).
func TestSVMSklearnOracle(t *testing.T) {
	o := loadOracle(t)
	for _, pr := range o.Problems {
		t.Run(pr.Name, func(t *testing.T) {
			x, xt := denseOf(pr.X), denseOf(pr.Xt)
			k, err := ParseKernel(pr.Kernel)
			if err != nil {
				t.Fatal(err)
			}
			p := DefaultParams()
			p.Kernel, p.C, p.Gamma, p.Tol = k, pr.C, pr.Gamma, 1e-8
			if pr.GammaScale {
				p.Gamma = 0
				if g := ScaleGamma(x, nil); math.Abs(g-pr.Gamma) > 1e-12*pr.Gamma {
					t.Errorf("ScaleGamma %v, scikit-learn's gamma='scale' %v", g, pr.Gamma)
				}
			}
			var prev [2][]float64
			for si, st := range []Storage{StorageDense, StorageSparse, StorageDense} {
				// The first two without shrinking (scikit-learn's setting
				// here), the third with.
				p.Storage, p.Shrinking = st, si == 2
				m, err := Train(context.Background(), Problem{X: x, Y: pr.Y, W: pr.W}, p)
				if err != nil {
					t.Fatal(err)
				}
				if m.Stop != StopConverged {
					t.Errorf("storage %d: stop %s after %d iterations", st, m.Stop, m.Iter)
				}
				dec := make([]float64, len(pr.Y))
				dect := make([]float64, len(pr.Xt))
				if err := m.Decision(x, nil, dec); err != nil {
					t.Fatal(err)
				}
				if err := m.Decision(xt, nil, dect); err != nil {
					t.Fatal(err)
				}
				worst := 0.0
				for i := range dec {
					worst = max(worst, math.Abs(dec[i]-pr.Decision[i]))
				}
				for i := range dect {
					worst = max(worst, math.Abs(dect[i]-pr.DecisionTest[i]))
				}
				if worst > 1e-4 {
					t.Errorf("storage %d: decision values differ from scikit-learn's by up to %.3g (want <= 1e-4); b %v vs %v",
						st, worst, m.B, pr.Intercept)
				}
				t.Logf("storage %d (sparse %v) shrinking %v: %d iterations, %d support rows (scikit-learn: %d), max |diff| %.2g",
					st, m.Sparse, p.Shrinking, m.Iter, m.SupportVectors, pr.NSV, worst)
				if si == 1 {
					for i := range dec {
						if math.Abs(dec[i]-prev[0][i]) > 1e-12 {
							t.Fatalf("training row %d: dense %v, sparse %v", i, prev[0][i], dec[i])
						}
					}
					for i := range dect {
						if math.Abs(dect[i]-prev[1][i]) > 1e-12 {
							t.Fatalf("held-out row %d: dense %v, sparse %v", i, prev[1][i], dect[i])
						}
					}
				}
				prev = [2][]float64{dec, dect}
			}
		})
	}
}

// TestSVMPlattOracle: FitPlatt's (A, B) against scipy's BFGS minimum of the
// same objective (Platt's smoothed targets) in the oracle file.
func TestSVMPlattOracle(t *testing.T) {
	o := loadOracle(t)
	for i, c := range o.Platt {
		p, err := FitPlatt(c.Dec, c.Y)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Converged || math.Abs(p.A-c.A) > 1e-6*(1+math.Abs(c.A)) || math.Abs(p.B-c.B) > 1e-6*(1+math.Abs(c.B)) {
			t.Errorf("case %d: A, B = %v, %v (converged %v, %d iterations); scipy %v, %v", i, p.A, p.B, p.Converged, p.Iter, c.A, c.B)
		}
	}
}
