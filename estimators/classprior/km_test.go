package classprior

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/estimators/kmpe"
)

func TestKMRegistry(t *testing.T) {
	for _, name := range []string{KM1Name, KM2Name} {
		c, err := Defaults(name)
		if err != nil || c.Name() != name {
			t.Fatalf("Defaults(%q): %v %v", name, c, err)
		}
		if fr, ok := c.(FeatureReader); !ok || !fr.ReadsFeatures() {
			t.Errorf("%s: not a FeatureReader", name)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s defaults: %v", name, err)
		}
	}
	a, b := &KM{name: KM2Name}, &KM{name: KM2Name, Features: "zscore", Tolerance: 1e-10}
	if a.Key() != b.Key() || a.Key() == (&KM{name: KM1Name}).Key() || a.Key() == (&KM{name: KM2Name, Features: "raw"}).Key() {
		t.Errorf("keys: %s / %s", a.Key(), b.Key())
	}
	if !strings.Contains(a.Key(), `km2/v2 {"features":"zscore","tolerance":1e-10}`) {
		t.Errorf("key %s", a.Key())
	}
	bad := &KM{name: KM1Name, Features: "log", Tolerance: -1}
	err := bad.Validate()
	if err == nil || !strings.Contains(err.Error(), `features "log"`) || !strings.Contains(err.Error(), "tolerance -1") {
		t.Errorf("validate: %v", err)
	}
	if _, err := bad.New(); err == nil {
		t.Error("New with bad options: no error")
	}
}

// km1 and km2 on a 2-D Gaussian PU sample (kappa* = 0.4 by construction):
// Alpha = kmpe's KM1/KM2 on the same rows (the expected values), Beta = 1.
func TestKMEstimate(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	rows := func(n int, mean float64) []float64 {
		out := make([]float64, 0, 2*n)
		for range n {
			out = append(out, r.NormFloat64()+mean, r.NormFloat64()+mean)
		}
		return out
	}
	u := mat.NewDense(300, 2, append(rows(180, 0), rows(120, 2)...))
	l := mat.NewDense(200, 2, rows(200, 2))
	in := Input{UnlabeledFeatures: u, LabeledFeatures: l}
	want, err := kmpe.Estimate(context.Background(), denseRows(u), denseRows(l), kmpe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{KM1Name, KM2Name} {
		c, _ := Defaults(name)
		e, err := c.New()
		if err != nil {
			t.Fatal(err)
		}
		est, err := e.Estimate(context.Background(), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		exp := want.KM2
		if name == KM1Name {
			exp = want.KM1
		}
		if math.Abs(est.Alpha-exp) > 1e-12 || est.Beta != 1 || est.Method != name {
			t.Errorf("%s: %+v, kmpe %v", name, est, exp)
		}
		if math.Abs(est.Alpha-0.4) > 0.1 {
			t.Errorf("%s: alpha %.4f far from 0.4", name, est.Alpha)
		}
		// No features: an error, not a panic.
		if _, err := e.Estimate(context.Background(), Input{Labeled: []float64{1}}, nil); err == nil || !strings.Contains(err.Error(), "feature rows") {
			t.Errorf("%s without features: %v", name, err)
		}
		bad := mat.NewDense(2, 3, nil)
		if _, err := e.Estimate(context.Background(), Input{UnlabeledFeatures: u, LabeledFeatures: bad}, nil); err == nil {
			t.Errorf("%s with a column mismatch: no error", name)
		}
	}
}
