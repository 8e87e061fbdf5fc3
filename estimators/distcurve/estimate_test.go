package distcurve

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// The shipped network on freshly simulated held-out curves: the published
// recipe with seed 1000 (disjoint from the training seeds 1-3), one sample
// per parameter set so that 200 curves cover all 100 distance bins twice.
//
// Issue 16 asks for MAE <= 0.05; on the recipe's distribution that is out
// of reach (doc.go, "Accuracy"): the training command measured 0.1359 on
// 2,000 held-out curves, 0.0251 on those with Yang distance >= 0.8. The
// bounds below are those measurements plus a sampling margin (standard
// error of the MAE on 200 curves about 0.01, on the ~40 far curves about
// 0.005), so a regression of the network or of the curve fails here.
func TestShippedNetworkHeldOutMAE(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 200 curves")
	}
	net, err := DefaultNetwork()
	if err != nil {
		t.Fatal(err)
	}
	if net.Inputs() != Points {
		t.Fatalf("shipped network takes %d inputs", net.Inputs())
	}
	r := DefaultRecipe(200)
	r.SamplesPerSet = 1
	ex, err := r.Generate(context.Background(), 1000, 0)
	if err != nil {
		t.Fatal(err)
	}
	var far []Example
	for _, e := range ex {
		if e.Distance >= 0.8 {
			far = append(far, e)
		}
	}
	all, sep := MAE(net, ex), MAE(net, far)
	t.Logf("held-out MAE on %d curves: %.4f; on the %d with distance >= 0.8: %.4f", len(ex), all, len(far), sep)
	if all > 0.16 {
		t.Errorf("held-out MAE %.4f > 0.16", all)
	}
	if sep > 0.05 {
		t.Errorf("held-out MAE at distance >= 0.8: %.4f > 0.05", sep)
	}
}

func TestEstimate(t *testing.T) {
	// A well separated case: negatives Beta(2, 8), positives Beta(8, 2),
	// alpha = 0.3 (the identifiable case, TV about 0.9).
	rng := rand.New(rand.NewPCG(21, 22))
	s, _ := Recipe{MixtureMin: 4000, MixtureMax: 4000, ComponentMin: 1000, ComponentMax: 1000, AlphaMin: 0.3, AlphaMax: 0.3}.
		Sample(ParamSet{A0: 2, B0: 8, A1: 8, B1: 2, Seed: 5}, 0)
	a, err := Estimate(s.Component, s.Mixture, rng)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("alpha-hat %.4f (true 0.3)", a)
	if math.Abs(a-0.3) > 0.1 {
		t.Errorf("alpha-hat %v, true 0.3", a)
	}
	b, err := Estimate(s.Component, s.Mixture, rand.New(rand.NewPCG(21, 22)))
	if err != nil || b != a {
		t.Errorf("not deterministic for a seed: %v vs %v (%v)", a, b, err)
	}
	for _, bad := range [][2][]float64{
		{nil, {1}},
		{{1}, nil},
		{{math.NaN()}, {1}},
		{{1}, {0, math.Inf(1)}},
	} {
		if _, err := Estimate(bad[0], bad[1], rng); !errors.Is(err, ErrInput) {
			t.Errorf("Estimate(%v, %v): err %v, want ErrInput", bad[0], bad[1], err)
		}
	}
	if _, err := Estimate([]float64{1}, []float64{2}, nil); !errors.Is(err, ErrInput) {
		t.Errorf("nil rng: %v", err)
	}
}
