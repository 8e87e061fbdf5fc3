package gmm

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// oracle is testdata/oracle.json, written once by testdata/oracle.py (numpy's
// SVD for the PCA, scikit-learn's GaussianMixture for the mixture) and frozen.
type oracle struct {
	Generator string
	PCA       []struct {
		Name       string
		X          [][]float64
		Rows       []int
		K          int
		Mean       []float64
		Components [][]float64
		Variances  []float64
		Scores     [][]float64
	}
	GMMX [][]float64 `json:"gmm_x"`
	GMM  []struct {
		Name         string
		MaxIter      int         `json:"max_iter"`
		Tol          float64     `json:"tol"`
		InitWeights  []float64   `json:"init_weights"`
		InitMeans    [][]float64 `json:"init_means"`
		InitVars     [][]float64 `json:"init_vars"`
		NIter        int         `json:"n_iter"`
		Converged    bool        `json:"converged"`
		Weights      []float64
		Means        [][]float64
		Vars         [][]float64
		Score        float64
		ScoreSamples []float64 `json:"score_samples"`
	}
}

func loadOracle(t *testing.T) *oracle {
	t.Helper()
	b, err := os.ReadFile("testdata/oracle.json")
	if err != nil {
		t.Fatal(err)
	}
	var o oracle
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	return &o
}

func dense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.15g, want %.15g (|diff| %.3g > %g)", what, got, want, math.Abs(got-want), tol)
	}
}

// TestPCAOracle compares FitPCA and Transform with numpy's SVD of the centred
// rows (testdata/oracle.py): the mean, the axes under the same sign
// convention, the explained variances S^2/(n-1) and the projected
// coordinates, to 1e-9. "wide" (n <= d) takes the n×n Gram path, "tall" the
// d×d one; both keep all min(n-1, d) components.
func TestPCAOracle(t *testing.T) {
	o := loadOracle(t)
	for _, c := range o.PCA {
		t.Run(c.Name, func(t *testing.T) {
			x := dense(c.X)
			p, err := FitPCA(x, c.Rows, 50)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Variances) != c.K {
				t.Fatalf("%d components, numpy keeps %d", len(p.Variances), c.K)
			}
			for j, v := range c.Mean {
				near(t, "mean", p.Mean[j], v, 1e-12)
			}
			for j, v := range c.Variances {
				near(t, "variance", p.Variances[j], v, 1e-9*max(1, v))
			}
			for j, row := range c.Components {
				for f, v := range row {
					near(t, "component", p.Components.At(j, f), v, 1e-9)
				}
			}
			z, err := p.Transform(x, c.Rows)
			if err != nil {
				t.Fatal(err)
			}
			for i, row := range c.Scores {
				for j, v := range row {
					near(t, "score", z.At(i, j), v, 1e-9)
				}
			}
		})
	}
}

// TestGMMOracle runs EM from the initial parameters given to scikit-learn's
// GaussianMixture(covariance_type='diag', reg_covar=1e-6) in
// testdata/oracle.py and compares the fitted weights, means, variances, the
// mean log-likelihood (score) and the per-row log-density (score_samples) to
// 1e-6. "five" stops both after exactly five EM iterations, so it checks the
// trajectory and not only the fixed point; "converged" runs both to a
// tolerance of 1e-13 (scikit-learn's test lags one iteration behind ours,
// which is immaterial at that tolerance).
func TestGMMOracle(t *testing.T) {
	o := loadOracle(t)
	x := dense(o.GMMX)
	for _, c := range o.GMM {
		t.Run(c.Name, func(t *testing.T) {
			init := Params{Weights: c.InitWeights, Means: dense(c.InitMeans), Vars: dense(c.InitVars)}
			opt := Options{MaxIter: c.MaxIter, Tol: c.Tol, RegCovar: 1e-6}
			g, err := FitFrom(context.Background(), x, init, opt)
			if err != nil {
				t.Fatal(err)
			}
			if c.Name == "five" && g.Iterations() != 5 {
				t.Errorf("%d iterations, want 5", g.Iterations())
			}
			if !c.Converged && g.Converged() {
				t.Errorf("converged, scikit-learn did not")
			}
			if c.Converged && !g.Converged() {
				t.Errorf("did not converge in %d iterations, scikit-learn did in %d", g.Iterations(), c.NIter)
			}
			t.Logf("%d iterations (scikit-learn %d)", g.Iterations(), c.NIter)
			w, m, v := g.Weights(), g.Means(), g.Vars()
			for j := range c.Weights {
				near(t, "weight", w[j], c.Weights[j], 1e-6)
				for f := range c.Means[j] {
					near(t, "mean", m.At(j, f), c.Means[j][f], 1e-6)
					near(t, "variance", v.At(j, f), c.Vars[j][f], 1e-6)
				}
			}
			near(t, "log-likelihood", g.LogLikelihood(), c.Score, 1e-6)
			dens, err := g.LogDensity(x)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range c.ScoreSamples {
				near(t, "log-density", dens[i], want, 1e-6)
			}
		})
	}
}
