package classprior

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/estimators/kmpe"
)

// km1 and km2 on one split share a single KM run (kmResults): the second
// adds no memo entry, and both equal kmpe.Estimate's KM1 and KM2 on the
// same rows.
func TestKMMemoShared(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	mix, comp := mat.NewDense(120, 2, nil), mat.NewDense(80, 2, nil)
	for i := range 120 {
		m := 0.0
		if i < 48 {
			m = 2
		}
		mix.Set(i, 0, m+rng.NormFloat64())
		mix.Set(i, 1, m+rng.NormFloat64())
	}
	for i := range 80 {
		comp.Set(i, 0, 2+rng.NormFloat64())
		comp.Set(i, 1, 2+rng.NormFloat64())
	}
	in := Input{UnlabeledFeatures: mix, LabeledFeatures: comp}
	kmResults.mu.Lock()
	before := len(kmResults.entries)
	kmResults.mu.Unlock()
	var got [2]float64
	for i, name := range []string{KM1Name, KM2Name} {
		c, _ := Defaults(name)
		e, err := c.New()
		if err != nil {
			t.Fatal(err)
		}
		est, err := e.Estimate(context.Background(), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		got[i] = est.Alpha
	}
	kmResults.mu.Lock()
	after := len(kmResults.entries)
	kmResults.mu.Unlock()
	if after-before > 1 {
		t.Errorf("km1 and km2 made %d memo entries, want 1", after-before)
	}
	want, err := kmpe.Estimate(context.Background(), denseRows(mix), denseRows(comp), kmpe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != want.KM1 || got[1] != want.KM2 {
		t.Errorf("km1, km2 = %v, want %v, %v", got, want.KM1, want.KM2)
	}
}
