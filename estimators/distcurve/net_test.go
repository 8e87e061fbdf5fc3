package distcurve

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// handNet is a 2 -> 2 -> 1 network with dyadic weights, worked by hand in
// TestNetworkForwardByHand.
func handNet() *Network {
	return &Network{
		Mean:  []float64{0, 1},
		Scale: []float64{1, 2},
		Layers: []Layer{
			{In: 2, Out: 2, W: []float64{1, -1, 2, 0.5}, B: []float64{0.5, -1}},
			{In: 2, Out: 1, W: []float64{0.25, 0.125}, B: []float64{0.0625}},
		},
	}
}

// Expected values worked by hand: z = ((x1 - 0)/1, (x2 - 1)/2),
// h = relu(W1 z + b1), out = 0.25 h1 + 0.125 h2 + 0.0625.
//
//	x = (1, 3):  z = (1, 1),   h = (0.5, 1.5),  out = 0.125 + 0.1875 + 0.0625 = 0.375
//	x = (2, 1):  z = (2, 0),   h = (2.5, 3),    out = 0.625 + 0.375 + 0.0625 = 1.0625 -> clipped 1
//	x = (0, -1): z = (0, -1),  h = (1.5, 0),    out = 0.375 + 0 + 0.0625 = 0.4375 (h2 = relu(-1.5))
//	x = (-3, 5): z = (-3, 2),  h = (0, 0),      out = 0.0625
func TestNetworkForwardByHand(t *testing.T) {
	n := handNet()
	if err := n.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ x, raw, pred []float64 }{
		{[]float64{1, 3}, []float64{0.375}, []float64{0.375}},
		{[]float64{2, 1}, []float64{1.0625}, []float64{1}},
		{[]float64{0, -1}, []float64{0.4375}, []float64{0.4375}},
		{[]float64{-3, 5}, []float64{0.0625}, []float64{0.0625}},
	}
	for _, tc := range cases {
		if got := n.Raw(tc.x); got != tc.raw[0] {
			t.Errorf("Raw(%v) = %v, want %v", tc.x, got, tc.raw[0])
		}
		got, err := n.Predict(tc.x)
		if err != nil || got != tc.pred[0] {
			t.Errorf("Predict(%v) = %v, %v, want %v", tc.x, got, err, tc.pred[0])
		}
	}
	// A negative raw output clips to 0: x = (0, 1) with the output bias -1.
	m := handNet()
	m.Layers[1].B[0] = -1
	if got, _ := m.Predict([]float64{0, 1}); got != 0 {
		t.Errorf("clip at 0: %v", got)
	}
	if _, err := n.Predict([]float64{1}); err == nil {
		t.Error("wrong width accepted")
	}
	if _, err := n.Predict([]float64{1, math.NaN()}); err == nil {
		t.Error("NaN accepted")
	}
}

// All hand-network parameters are dyadic, hence exact in float32: the
// weight file round-trips them exactly.
func TestNetworkBinaryRoundTrip(t *testing.T) {
	n := handNet()
	data, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var m Network
	if err := m.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Mean, n.Mean) || !slices.Equal(m.Scale, n.Scale) || len(m.Layers) != 2 ||
		!slices.Equal(m.Layers[0].W, n.Layers[0].W) || !slices.Equal(m.Layers[1].B, n.Layers[1].B) {
		t.Fatalf("round trip: %+v", m)
	}
	for _, bad := range [][]byte{nil, data[:len(data)-1], append(slices.Clone(data), 0), []byte("PUDCNET2xxxxxxxx")} {
		if err := new(Network).UnmarshalBinary(bad); err == nil {
			t.Errorf("bad file of %d bytes accepted", len(bad))
		}
	}
}

// Training is deterministic for a seed and learns a learnable toy target
// (alpha = mean of the first 10 inputs, scaled), well below the MAE of the
// constant 0.5 predictor.
func TestTrainDeterministicAndLearns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	ex := make([]Example, 600)
	for i := range ex {
		c := make([]float64, 20)
		s := 0.0
		for j := range c {
			c[j] = rng.Float64()
			if j < 10 {
				s += c[j]
			}
		}
		ex[i] = Example{Curve: c, Alpha: s / 10}
	}
	cfg := TrainConfig{Hidden: []int{16, 8}, Epochs: 30, Batch: 32, LR: 3e-3, Seed: 9}
	a, ra, err := Train(context.Background(), ex[:500], ex[500:], cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Train(context.Background(), ex[:500], ex[500:], cfg)
	if err != nil {
		t.Fatal(err)
	}
	for k := range a.Layers {
		if !slices.Equal(a.Layers[k].W, b.Layers[k].W) {
			t.Fatal("same seed, different weights")
		}
	}
	base := 0.0
	for _, e := range ex[500:] {
		base += math.Abs(e.Alpha - 0.5)
	}
	base /= 100
	if ra.ValidMAE > base/3 {
		t.Fatalf("validation MAE %v, constant predictor %v", ra.ValidMAE, base)
	}
}
