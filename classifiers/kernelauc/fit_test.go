package kernelauc

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestDeterminism: the same seed gives bit-identical weights and CV tables
// for both learners, whatever Workers; another seed gives other centres.
func TestDeterminism(t *testing.T) {
	g := makeGaussPU(3, 200, 60, 200, 10)
	type fitFn func(Options, *rand.Rand) (*Model, error)
	for name, fn := range map[string]fitFn{
		"PU_AUC": func(o Options, r *rand.Rand) (*Model, error) { return FitPUAUC(g.L, g.U, g.alphaU, o, r) },
		"PU_AUL": func(o Options, r *rand.Rand) (*Model, error) { return FitPUAUL(g.L, g.U, o, r) },
	} {
		var ref *Model
		for _, w := range []int{1, 2, 3, 1} {
			m, err := fn(Options{Centres: 50, Workers: w}, rand.New(rand.NewPCG(5, 6)))
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = m
				continue
			}
			if !sameBits(m.W, ref.W) {
				t.Errorf("%s workers %d: weights differ", name, w)
			}
			for s := range m.CV {
				if !sameBits(m.CV[s], ref.CV[s]) {
					t.Errorf("%s workers %d: CV row %d differs", name, w, s)
				}
			}
		}
		o, err := fn(Options{Centres: 50}, rand.New(rand.NewPCG(5, 7)))
		if err != nil {
			t.Fatal(err)
		}
		if mat.Equal(o.Centres, ref.Centres) {
			t.Errorf("%s: another seed drew the same centres", name)
		}
	}
}

// TestErrors: bad data and options give errors, never panics.
func TestErrors(t *testing.T) {
	g := makeGaussPU(3, 100, 30, 100, 10)
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }
	nanL := mat.DenseCopyOf(g.L)
	nanL.Set(3, 1, math.NaN())
	infU := mat.DenseCopyOf(g.U)
	infU.Set(0, 0, math.Inf(1))
	wide := mat.NewDense(5, 3, nil)
	few := mat.DenseCopyOf(g.L.Slice(0, 9, 0, 2))
	same := mat.NewDense(40, 2, nil)
	cases := []struct {
		name  string
		L, U  *mat.Dense
		prior float64
		opts  Options
		rng   *rand.Rand
		want  string
	}{
		{"nil L", nil, g.U, 0.4, Options{}, rng(), "nil matrix"},
		{"empty L", &mat.Dense{}, g.U, 0.4, Options{}, rng(), "no labeled rows"},
		{"empty U", g.L, &mat.Dense{}, 0.4, Options{}, rng(), "no unlabeled rows"},
		{"NaN feature", nanL, g.U, 0.4, Options{}, rng(), "NaN"},
		{"Inf feature", g.L, infU, 0.4, Options{}, rng(), "Inf"},
		{"width mismatch", g.L, wide, 0.4, Options{}, rng(), "features"},
		{"too few labeled for CV", few, g.U, 0.4, Options{}, rng(), "need >= 10"},
		{"identical rows", same.Slice(0, 20, 0, 2).(*mat.Dense), same.Slice(20, 40, 0, 2).(*mat.Dense), 0.4, Options{}, rng(), "median squared distance"},
		{"nil rng", g.L, g.U, 0.4, Options{}, nil, "nil rng"},
		{"negative centres", g.L, g.U, 0.4, Options{Centres: -1}, rng(), "Centres"},
		{"one fold", g.L, g.U, 0.4, Options{Folds: 1}, rng(), "Folds"},
		{"zero lambda", g.L, g.U, 0.4, Options{Lambdas: []float64{0}}, rng(), "Lambdas"},
		{"NaN sigma", g.L, g.U, 0.4, Options{Sigmas: []float64{1, math.NaN()}}, rng(), "Sigmas"},
		{"empty lambdas", g.L, g.U, 0.4, Options{Lambdas: []float64{}}, rng(), "Lambdas is empty"},
		{"sigmas and factors", g.L, g.U, 0.4, Options{Sigmas: []float64{1}, SigmaFactors: []float64{1}}, rng(), "not both"},
		{"negative workers", g.L, g.U, 0.4, Options{Workers: -2}, rng(), "Workers"},
	}
	for _, c := range cases {
		for _, method := range []string{MethodPUAUC, MethodPUAUL} {
			var err error
			if method == MethodPUAUC {
				_, err = FitPUAUC(c.L, c.U, c.prior, c.opts, c.rng)
			} else {
				_, err = FitPUAUL(c.L, c.U, c.opts, c.rng)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %s: error %v, want one containing %q", method, c.name, err, c.want)
			}
		}
	}
	for _, p := range []float64{0, 1, -0.1, 1.5, math.NaN(), math.Inf(1)} {
		if _, err := FitPUAUC(g.L, g.U, p, Options{}, rng()); err == nil || !strings.Contains(err.Error(), "prior") {
			t.Errorf("prior %v: error %v", p, err)
		}
	}
	// Scoring: wrong width, non-finite features, unfitted model.
	m, err := FitPUAUL(g.L, g.U, Options{Centres: 20, Lambdas: []float64{0.1}, Sigmas: []float64{1}}, rng())
	if err != nil {
		t.Fatal(err)
	}
	if m.CV != nil {
		t.Error("a one-pair grid ran cross-validation")
	}
	if _, err := m.Score([]float64{1}); err == nil {
		t.Error("Score accepted a row of the wrong width")
	}
	if _, err := m.Score([]float64{1, math.NaN()}); err == nil {
		t.Error("Score accepted NaN")
	}
	if _, err := m.ScoreAll(wide); err == nil {
		t.Error("ScoreAll accepted the wrong width")
	}
	if _, err := m.ScoreAll(nil); err == nil {
		t.Error("ScoreAll accepted nil")
	}
	var empty Model
	if _, err := empty.Score([]float64{1, 2}); err == nil {
		t.Error("unfitted Score gave no error")
	}
	// Single-pair grid: no CV, so few labeled rows are fine.
	if _, err := FitPUAUC(few, g.U, 0.4, Options{Sigmas: []float64{1}, Lambdas: []float64{0.1}}, rng()); err != nil {
		t.Errorf("single pair with 9 labeled rows: %v", err)
	}
}

// TestStandardisation: a fit is invariant to a positive affine map of each
// column (the z-score absorbs it), bit for bit up to rounding: the scores
// of mapped test rows agree to 1e-9 and the selection is the same.
func TestStandardisation(t *testing.T) {
	g := makeGaussPU(11, 200, 60, 200, 50)
	affine := func(X *mat.Dense) *mat.Dense {
		r, c := X.Dims()
		out := mat.NewDense(r, c, nil)
		for i := range r {
			for k := range c {
				out.Set(i, k, X.At(i, k)*[]float64{1000, 0.01}[k]+[]float64{-5, 300}[k])
			}
		}
		return out
	}
	opts := Options{Centres: 40}
	a, err := FitPUAUL(g.L, g.U, opts, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitPUAUL(affine(g.L), affine(g.U), opts, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if a.SigmaIndex != b.SigmaIndex || a.LambdaIndex != b.LambdaIndex {
		t.Fatalf("selection (%d,%d) vs (%d,%d)", a.SigmaIndex, a.LambdaIndex, b.SigmaIndex, b.LambdaIndex)
	}
	sa, _ := a.ScoreAll(g.Tpos)
	sb, _ := b.ScoreAll(affine(g.Tpos))
	for i := range sa {
		if !closeRel(sa[i], sb[i], 1e-9) {
			t.Fatalf("score %d: %v vs %v", i, sa[i], sb[i])
		}
	}
	// Raw: the same data unscaled is a different problem (the first column
	// dominates the distances): it must still fit.
	if _, err := FitPUAUL(affine(g.L), affine(g.U), Options{Centres: 40, Raw: true}, rand.New(rand.NewPCG(2, 2))); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Lambdas, DefaultLambdas()) || len(a.Sigmas) != 11 {
		t.Errorf("default grids: %v, %d widths", a.Lambdas, len(a.Sigmas))
	}
}
