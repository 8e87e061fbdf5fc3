package kernelauc

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// golden is testdata/golden.json, written by testdata/gen_golden.py (an
// independent numpy implementation of papers-next.md section 2.4, whose
// closed forms it checks against the explicit pairwise normal equations).
type golden struct {
	Generator string `json:"generator"`
	Closed    struct {
		P, U, Centres [][]float64
		Cases         []struct {
			Sigma  float64   `json:"sigma"`
			Lambda float64   `json:"lambda"`
			Prior  float64   `json:"prior"`
			WAUC   []float64 `json:"w_pu_auc"`
			WAUL   []float64 `json:"w_pu_aul"`
		} `json:"cases"`
	} `json:"closed"`
	CV struct {
		XL, XU   [][]float64
		Centres  []int     `json:"centres"`
		FoldL    []int     `json:"foldL"`
		FoldU    []int     `json:"foldU"`
		Folds    int       `json:"folds"`
		MedianD2 float64   `json:"median_d2"`
		Sigmas   []float64 `json:"sigmas"`
		Lambdas  []float64 `json:"lambdas"`
		Xtest    [][]float64
		Methods  map[string]struct {
			Prior       float64     `json:"prior"`
			Table       [][]float64 `json:"table"`
			SigmaIndex  int         `json:"sigma_index"`
			LambdaIndex int         `json:"lambda_index"`
			W           []float64   `json:"w"`
			TestScores  []float64   `json:"test_scores"`
		} `json:"methods"`
	} `json:"cv"`
}

func loadGolden(t *testing.T) golden {
	t.Helper()
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

func dense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// closeRel reports |a - b| <= tol max(1, |b|).
func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// TestClosedFormsNumpy: w = (H + lambda I)^-1 h for both methods at fixed
// centres, sigma, lambda, prior, against numpy (testdata/gen_golden.py),
// to 1e-9.
func TestClosedFormsNumpy(t *testing.T) {
	g := loadGolden(t)
	P, U, C := g.Closed.P, g.Closed.U, g.Closed.Centres
	b := len(C)
	rows := append(append([][]float64{}, P...), U...)
	D := make([]float64, len(rows)*b)
	for i, x := range rows {
		for l, c := range C {
			var s float64
			for k := range x {
				s += (x[k] - c[k]) * (x[k] - c[k])
			}
			D[i*b+l] = s
		}
	}
	for _, c := range g.Closed.Cases {
		for _, tc := range []struct {
			method string
			prior  float64
			want   []float64
		}{{MethodPUAUC, c.Prior, c.WAUC}, {MethodPUAUL, 0, c.WAUL}} {
			e := &engine{method: tc.method, prior: tc.prior, D: D, n: len(rows), nL: len(P), nU: len(U), b: b}
			w, err := e.weights(c.Sigma, c.Lambda)
			if err != nil {
				t.Fatal(err)
			}
			for l := range w {
				if !closeRel(w[l], tc.want[l], 1e-9) {
					t.Errorf("%s sigma %g lambda %g: w[%d] = %.15g, numpy %.15g", tc.method, c.Sigma, c.Lambda, l, w[l], tc.want[l])
				}
			}
		}
	}
}

// TestCVFitNumpy: a whole fit with the centres and folds fixed to the
// numpy reference's: median squared distance, width grid, CV table of the
// held-out criteria (brute-force pair sums in numpy), the selected pair,
// the refit weights and the scores of raw test rows, to 1e-9.
func TestCVFitNumpy(t *testing.T) {
	g := loadGolden(t)
	cv := g.CV
	L, U := dense(cv.XL), dense(cv.XU)
	Xt := dense(cv.Xtest)
	for name, ref := range cv.Methods {
		var m *Model
		var err error
		fx := &draws{centres: cv.Centres, foldL: cv.FoldL, foldU: cv.FoldU}
		opts := Options{Folds: cv.Folds}
		if name == MethodPUAUC {
			m, err = fit(MethodPUAUC, L, U, ref.Prior, opts, nil, fx)
		} else {
			m, err = fit(MethodPUAUL, L, U, 0, opts, nil, fx)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !closeRel(m.MedianD2, cv.MedianD2, 1e-12) {
			t.Errorf("%s: median d2 %.15g, numpy %.15g", name, m.MedianD2, cv.MedianD2)
		}
		for l := range cv.Lambdas {
			if !closeRel(m.Lambdas[l], cv.Lambdas[l], 1e-15) {
				t.Errorf("%s: lambda[%d] %.17g, numpy %.17g", name, l, m.Lambdas[l], cv.Lambdas[l])
			}
		}
		for s := range cv.Sigmas {
			if !closeRel(m.Sigmas[s], cv.Sigmas[s], 1e-12) {
				t.Errorf("%s: sigma[%d] %.15g, numpy %.15g", name, s, m.Sigmas[s], cv.Sigmas[s])
			}
			for l := range cv.Lambdas {
				if !closeRel(m.CV[s][l], ref.Table[s][l], 1e-9) {
					t.Errorf("%s: CV[%d][%d] = %.15g, numpy %.15g", name, s, l, m.CV[s][l], ref.Table[s][l])
				}
			}
		}
		if m.SigmaIndex != ref.SigmaIndex || m.LambdaIndex != ref.LambdaIndex {
			t.Fatalf("%s: selected (%d, %d), numpy (%d, %d)", name, m.SigmaIndex, m.LambdaIndex, ref.SigmaIndex, ref.LambdaIndex)
		}
		for l := range m.W {
			if !closeRel(m.W[l], ref.W[l], 1e-9) {
				t.Errorf("%s: w[%d] = %.15g, numpy %.15g", name, l, m.W[l], ref.W[l])
			}
		}
		s, err := m.ScoreAll(Xt)
		if err != nil {
			t.Fatal(err)
		}
		for i := range s {
			if !closeRel(s[i], ref.TestScores[i], 1e-9) {
				t.Errorf("%s: score[%d] = %.15g, numpy %.15g", name, i, s[i], ref.TestScores[i])
			}
		}
	}
}
