package bntrain

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/pueval/pueval/estimators/distcurve"
)

// synth draws n examples whose alpha is a smooth function of the curve
// (known truth a net can learn): curves of width in, alpha = sigmoid of a
// fixed linear form.
func synth(n, in int, seed uint64) []distcurve.Example {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]distcurve.Example, n)
	for i := range out {
		c := make([]float64, in)
		s := 0.0
		for j := range c {
			c[j] = rng.NormFloat64()*0.01 + 0.01
			s += float64(float64(j%3-1) * (c[j] - 0.01) * 100)
		}
		out[i] = distcurve.Example{Curve: c, Alpha: 1 / (1 + math.Exp(-s))}
	}
	return out
}

func tiny(seed uint64) Config {
	c := Published(seed)
	c.Hidden, c.Epochs, c.Batch = []int{24, 12}, 4, 32
	return c
}

// randomBN gives a model's normalisation non-trivial statistics.
func randomBN(m *Model, rng *rand.Rand) {
	for k := range m.Layers[:len(m.Layers)-1] {
		l := &m.Layers[k]
		for o := range l.Out {
			l.Gamma[o] = float32(0.5 + rng.Float64())
			l.Beta[o] = float32(rng.NormFloat64())
			l.RunMean[o] = float32(rng.NormFloat64())
			l.RunVar[o] = float32(0.1 + 3*rng.Float64())
		}
	}
	m.Layers[len(m.Layers)-1].B[0] = 0.3
}

// TestFoldEqualsUnfolded: the folded network's float64 output equals the
// unfolded BN network's (exact identity W' x + b' = s (W x - mean) + beta,
// up to float64 rounding) on random inputs, for the published widths'
// first layer and a deeper stack.
func TestFoldEqualsUnfolded(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	train := synth(50, 100, 1)
	cfg := Published(3)
	cfg.Hidden = []int{64, 32, 16}
	m := newModel(train, cfg)
	randomBN(m, rng)
	n := m.Fold()
	if err := n.Validate(); err != nil {
		t.Fatal(err)
	}
	for trial := range 200 {
		x := make([]float64, 100)
		for i := range x {
			x[i] = train[trial%len(train)].Curve[i] + 0.01*rng.NormFloat64()
		}
		got, want := n.Raw(x), m.RawUnfolded(x)
		if d := math.Abs(got - want); d > 1e-12*(1+math.Abs(want)) {
			t.Fatalf("trial %d: folded %v, unfolded %v (diff %g)", trial, got, want, d)
		}
	}
}

// TestPredictMatchesFold: the float32 batched inference (validation MAE's)
// agrees with the exported float64 network to float32 accuracy.
func TestPredictMatchesFold(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	train := synth(300, 100, 2)
	m := newModel(train, Published(4))
	randomBN(m, rng)
	n := m.Fold()
	curves := make([][]float64, len(train))
	for i := range train {
		curves[i] = train[i].Curve
	}
	for i, p := range Predict(m, curves) {
		want := min(max(n.Raw(curves[i]), 0), 1)
		if math.Abs(p-want) > 1e-3 {
			t.Fatalf("curve %d: float32 %v, float64 %v", i, p, want)
		}
	}
}

var errStop = errors.New("stop")

// TestResumeSameBits: 4 epochs straight give the same model, best epoch,
// moments and log, bit for bit, as 2 epochs, a checkpoint, a stop (as a
// killed run), a load and 2 more epochs. It also checks that the tiny net
// learns: the validation MAE ends below the constant predictor's.
func TestResumeSameBits(t *testing.T) {
	train, valid := synth(400, 20, 3), synth(100, 20, 4)
	cfg := tiny(5)
	straight, err := NewState(train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), straight, train, valid, nil); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "ckpt.gob")
	first, err := NewState(train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	err = Run(context.Background(), first, train, valid, func(s *State) error {
		if err := Save(file, s); err != nil {
			return err
		}
		if s.Epochs == 2 {
			return errStop
		}
		return nil
	})
	if !errors.Is(err, errStop) {
		t.Fatalf("first half: %v", err)
	}
	resumed, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Epochs != 2 {
		t.Fatalf("checkpoint has %d epochs, want 2", resumed.Epochs)
	}
	if err := Run(context.Background(), resumed, train, valid, nil); err != nil {
		t.Fatal(err)
	}
	sameModel(t, "model", straight.Model, resumed.Model)
	sameModel(t, "best", straight.Best, resumed.Best)
	sameSlices(t, "adam m", straight.M, resumed.M)
	sameSlices(t, "adam v", straight.V, resumed.V)
	if straight.Step != resumed.Step || straight.BestEpoch != resumed.BestEpoch || len(straight.Log) != len(resumed.Log) {
		t.Fatalf("step %d/%d, best epoch %d/%d, log %d/%d", straight.Step, resumed.Step, straight.BestEpoch, resumed.BestEpoch, len(straight.Log), len(resumed.Log))
	}
	for i := range straight.Log {
		if straight.Log[i] != resumed.Log[i] {
			t.Fatalf("log %d: %+v vs %+v", i, straight.Log[i], resumed.Log[i])
		}
	}
}

// TestLearns: on known-truth data (alpha a smooth function of the curve)
// the validation MAE falls well below the constant predictor's.
func TestLearns(t *testing.T) {
	train, valid := synth(2000, 20, 3), synth(200, 20, 4)
	cfg := tiny(5)
	cfg.Epochs, cfg.Dropout = 20, 0.1
	s, err := NewState(train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), s, train, valid, nil); err != nil {
		t.Fatal(err)
	}
	base := 0.0
	for _, e := range valid {
		base += math.Abs(e.Alpha - 0.5)
	}
	base /= float64(len(valid))
	if !(s.BestValid < 0.5*base) {
		t.Errorf("best validation MAE %v (epoch %d), constant 0.5 gives %v", s.BestValid, s.BestEpoch, base)
	}
	if got := MAE(s.Best, valid); got != s.BestValid {
		t.Errorf("best model's MAE %v, recorded %v", got, s.BestValid)
	}
}

func sameModel(t *testing.T, what string, a, b *Model) {
	t.Helper()
	pa, pb := a.params(), b.params()
	for k := range a.Layers[:len(a.Layers)-1] {
		pa = append(pa, a.Layers[k].RunMean, a.Layers[k].RunVar)
		pb = append(pb, b.Layers[k].RunMean, b.Layers[k].RunVar)
	}
	sameSlices(t, what, pa, pb)
}

func sameSlices(t *testing.T, what string, a, b [][]float32) {
	t.Helper()
	for i := range a {
		for j := range a[i] {
			if math.Float32bits(a[i][j]) != math.Float32bits(b[i][j]) {
				t.Fatalf("%s: slice %d [%d]: %v vs %v", what, i, j, a[i][j], b[i][j])
			}
		}
	}
}

// TestGradient checks backward against central differences of the batch
// loss in training mode (the same dropout masks each time: the stream is
// re-seeded), on a small net whose targets lie below every output so the
// loss is smooth apart from ReLU kinks.
func TestGradient(t *testing.T) {
	train := synth(16, 6, 6)
	for i := range train {
		train[i].Alpha = -20
	}
	cfg := Published(7)
	cfg.Hidden, cfg.Batch = []int{5, 4}, 16
	m := newModel(train, cfg)
	randomBN(m, rand.New(rand.NewPCG(8, 9)))
	w := newWork(m, cfg.Batch)
	curves, alphas := make([][]float64, 16), make([]float64, 16)
	for i := range train {
		curves[i], alphas[i] = train[i].Curve, train[i].Alpha
	}
	w.input(m, curves, alphas)
	loss := func() float64 {
		saved := m.clone()
		w.forward(m, 16, true, &cfg, rand.New(rand.NewPCG(1, 1)))
		s := 0.0
		for r := range 16 {
			s += float64(w.a[len(m.Layers)-1][r]) // = |out - alpha| - 20 for every output above -20
			if w.a[len(m.Layers)-1][r] <= -20 {
				t.Fatal("an output is below its target")
			}
		}
		for k := range m.Layers[:len(m.Layers)-1] { // undo the running-statistics update
			copy(m.Layers[k].RunMean, saved.Layers[k].RunMean)
			copy(m.Layers[k].RunVar, saved.Layers[k].RunVar)
		}
		return s / 16
	}
	loss()
	w.backward(m, 16)
	grads := make([][]float32, len(w.grads))
	for i := range grads {
		grads[i] = append([]float32(nil), w.grads[i]...)
	}
	const h = 1e-3
	bad := 0
	for pi, p := range m.params() {
		for j := range p {
			orig := p[j]
			p[j] = orig + h
			up := loss()
			p[j] = orig - h
			down := loss()
			p[j] = orig
			num := (up - down) / (2 * h)
			if d := math.Abs(num - float64(grads[pi][j])); d > 2e-3+2e-2*math.Abs(num) {
				bad++
				t.Errorf("param slice %d [%d]: analytic %v, numeric %v", pi, j, grads[pi][j], num)
			}
		}
	}
	if bad > 0 {
		t.Logf("%d mismatches", bad)
	}
}

// TestAdamVectorMatchesGo: the vector Adam step agrees with the Go loop
// to float32 rounding (it fuses multiply-adds), on a length that is not a
// multiple of 16.
func TestAdamVectorMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	n := 1000 + 7
	mk := func() []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	w, g := mk(), mk()
	w2 := append([]float32(nil), w...)
	m, v, m2, v2 := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	cfg := Published(1)
	adam([][]float32{w}, [][]float32{g}, [][]float32{m}, [][]float32{v}, 1, &cfg)
	saved := adamVec
	adamVec = func(w, g, m, v []float32, c *[6]float32) int { return 0 }
	adam([][]float32{w2}, [][]float32{g}, [][]float32{m2}, [][]float32{v2}, 1, &cfg)
	adamVec = saved
	for i := range w {
		if math.Abs(float64(w[i]-w2[i])) > 1e-7 || math.Abs(float64(m[i]-m2[i])) > 1e-6*math.Abs(float64(m[i])) {
			t.Fatalf("[%d]: vector w %v m %v, Go w %v m %v", i, w[i], m[i], w2[i], m2[i])
		}
	}
}
