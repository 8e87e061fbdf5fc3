package nnet

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestRPROPStepByHand checks the step rule on a hand-worked sequence with
// delta0 = 0.07, inc = 1.2, dec = 0.5 and delta_max lowered to 0.1 so that
// the cap is reached. Four weights start at 0.
//
//	epoch 1: g = ( 1, -2,  0,  3), previous g = 0, so every product is 0 and
//	         the steps stay 0.07; w -= sign(g)*delta:
//	         w = (-0.07, 0.07, 0, -0.07)
//	epoch 2: g = ( 2,  1,  5,  4); products (2, -2, 0, 12):
//	         delta = (0.07*1.2, 0.07*0.5, 0.07, 0.07*1.2) = (0.084, 0.035, 0.07, 0.084)
//	         w = (-0.154, 0.035, -0.07, -0.154)
//	epoch 3: g = ( 1,  1,  1,  1); products (2, 1, 5, 4), all > 0:
//	         delta = (min(0.1008, 0.1), 0.042, 0.084, min(0.1008, 0.1)) = (0.1, 0.042, 0.084, 0.1)
//	         w = (-0.254, -0.007, -0.154, -0.254)
func TestRPROPStepByHand(t *testing.T) {
	r := RPROP{Delta0: 0.07, Inc: 1.2, Dec: 0.5, DeltaMax: 0.1}
	w := make([]float64, 4)
	gPrev := make([]float64, 4)
	delta := []float64{0.07, 0.07, 0.07, 0.07}
	steps := []struct{ g, delta, w []float64 }{
		{[]float64{1, -2, 0, 3}, []float64{0.07, 0.07, 0.07, 0.07}, []float64{-0.07, 0.07, 0, -0.07}},
		{[]float64{2, 1, 5, 4}, []float64{0.084, 0.035, 0.07, 0.084}, []float64{-0.154, 0.035, -0.07, -0.154}},
		{[]float64{1, 1, 1, 1}, []float64{0.1, 0.042, 0.084, 0.1}, []float64{-0.254, -0.007, -0.154, -0.254}},
	}
	for e, s := range steps {
		rpropStep(w, s.g, gPrev, delta, r)
		for i := range w {
			if !near(delta[i], s.delta[i], 1e-12) || !near(w[i], s.w[i], 1e-12) {
				t.Fatalf("epoch %d weight %d: delta %v w %v, want %v %v", e+1, i, delta[i], w[i], s.delta[i], s.w[i])
			}
			if gPrev[i] != s.g[i] {
				t.Fatalf("epoch %d: previous gradient not stored", e+1)
			}
		}
	}
}

// rpropStepBranches is rpropStep as first written, with the branches of the
// MATLAB code: the oracle of TestRPROPStepBranchFree.
func rpropStepBranches(w, g, gPrev, delta []float64, r RPROP) {
	for i := range w {
		gi := g[i]
		switch s := gi * gPrev[i]; {
		case s > 0:
			delta[i] = min(delta[i]*r.Inc, r.DeltaMax)
		case s < 0:
			delta[i] *= r.Dec
		}
		switch {
		case gi > 0:
			w[i] -= delta[i]
		case gi < 0:
			w[i] += delta[i]
		}
		gPrev[i] = gi
	}
}

// TestRPROPStepBranchFree: rpropStep equals rpropStepBranches bit for bit
// over many epochs of random gradients with zeros, -0, NaN, steps at the
// cap, weights at -0, and parameters with Dec > 1 (the cap applies only to
// growth).
func TestRPROPStepBranchFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, r := range []RPROP{DefaultParams().RPROP, {Delta0: 0.07, Inc: 1.2, Dec: 0.5, DeltaMax: 0.1},
		{Delta0: 1, Inc: 3, Dec: 2, DeltaMax: 1}} {
		const n = 64
		w1, g1, d1 := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range d1 {
			d1[i] = r.Delta0
			w1[i] = []float64{0, math.Copysign(0, -1), rng.NormFloat64()}[rng.IntN(3)]
		}
		w2, g2, d2 := slices.Clone(w1), slices.Clone(g1), slices.Clone(d1)
		g := make([]float64, n)
		for e := range 200 {
			for i := range g {
				g[i] = []float64{0, math.Copysign(0, -1), math.NaN(), 1, -1, rng.NormFloat64()}[rng.IntN(6)]
			}
			rpropStep(w1, g, g1, d1, r)
			rpropStepBranches(w2, g, g2, d2, r)
			for i := range w1 {
				if math.Float64bits(w1[i]) != math.Float64bits(w2[i]) || math.Float64bits(d1[i]) != math.Float64bits(d2[i]) {
					t.Fatalf("%+v epoch %d weight %d: w %v delta %v, with branches %v %v", r, e, i, w1[i], d1[i], w2[i], d2[i])
				}
			}
		}
	}
}

// TestStopperByHand runs the early-stopping bookkeeping on a hand-worked
// validation curve with max_fail = 3:
//
//	epoch  vperf  best  fails  note
//	0      1.00   1.00  0      initial weights are the first best
//	1      0.80   0.80  0      improvement resets the count
//	2      0.90   0.80  1      worse: a failure
//	3      0.80   0.80  1      equal: neither a failure nor an improvement
//	4      0.85   0.80  2
//	5      0.70   0.70  0      improvement
//	6      0.75   0.70  1
//	7      0.80   0.70  2
//	8      0.90   0.70  3      3 failures: stop; the kept weights are epoch 5's
func TestStopperByHand(t *testing.T) {
	vperf := []float64{1, 0.8, 0.9, 0.8, 0.85, 0.7, 0.75, 0.8, 0.9, 0.1}
	wantImproved := []bool{true, true, false, false, false, true, false, false, false}
	s := stopper{maxEpochs: 100, maxFail: 3, minGrad: 1e-5, hasVal: true}
	best := -1
	for e, v := range vperf {
		improved, reason, stop := s.observe(e, 1, v, 1)
		if improved != wantImproved[e] {
			t.Fatalf("epoch %d: improved %v, want %v", e, improved, wantImproved[e])
		}
		if improved {
			best = e
		}
		if stop {
			if e != 8 || reason != StopValidation || best != 5 {
				t.Fatalf("stopped at epoch %d (%v) with best %d, want epoch 8 (validation) with best 5", e, reason, best)
			}
			return
		}
	}
	t.Fatal("never stopped")
}

// TestStopperOtherReasons checks the remaining stop rules and MATLAB's
// order of checks: goal, maximum epochs, minimum gradient, validation.
func TestStopperOtherReasons(t *testing.T) {
	s := stopper{maxEpochs: 2, maxFail: 1, minGrad: 1e-5, hasVal: true}
	if _, r, stop := s.observe(0, 0.5, 1, 1e-6); !stop || r != StopMinGrad {
		t.Errorf("gradient 1e-6 < 1e-5: got stop=%v %v, want min-grad", stop, r)
	}
	s = stopper{maxEpochs: 2, maxFail: 1, minGrad: 1e-5, hasVal: true}
	if _, r, stop := s.observe(0, 0, 1, 1e-6); !stop || r != StopGoal {
		t.Errorf("training MSE 0: got stop=%v %v, want goal (checked first)", stop, r)
	}
	s = stopper{maxEpochs: 2, maxFail: 5, minGrad: 1e-5, hasVal: false}
	for e := range 3 {
		improved, r, stop := s.observe(e, 0.5, math.NaN(), 1)
		if improved {
			t.Errorf("without validation rows nothing is an improvement (the caller keeps the last weights)")
		}
		if stop != (e == 2) || (stop && r != StopMaxEpochs) {
			t.Errorf("epoch %d: stop=%v %v, want stop only at epoch 2 (max-epochs)", e, stop, r)
		}
	}
}

// handProblem is the small problem of TestKernelByHand: d = 1, h = 1,
// weights (W, b, v, c) = (0.5, 0.1, -0.4, 0.2), mapped inputs and targets
//
//	row 0: x = -1, t = +1, wt = 2, wv = 0
//	row 1: x = +1, t = -1, wt = 1, wv = 1   (a row drawn into both parts)
//	row 2: x =  0, t = +1, wt = 0, wv = 1   (validation only)
func handProblem() (*problem, []float64) {
	return &problem{
		d: 1, h: 1, n: 3, nTrain: 2,
		x:  []float64{-1, 1, 0},
		t:  []float64{1, -1, 1},
		wt: []float64{2, 1, 0},
		wv: []float64{0, 1, 1},
	}, []float64{0.5, 0.1, -0.4, 0.2}
}

// TestKernelByHand checks one epoch of the scalar kernel against a hand
// calculation with the exact tanh (values to 9 digits; the approximation's
// error, 3.2e-8 per unit, bounds the difference):
//
//	row 0: a = 0.1 + 0.5(-1) = -0.4, z = tanh(-0.4) = -0.379948962,
//	       o = 0.2 - 0.4 z = 0.351979585, y = tanh(o) = 0.338129972, e = y - 1 = -0.661870028
//	       delta = wt e (1 - y^2) = -1.172394370, delta_h = delta v (1 - z^2) = 0.401258438
//	row 1: a = 0.6, z = 0.537049567, o = -0.014819827, y = -0.014818742, e = 0.985181258
//	       delta = 0.984964917, delta_h = -0.280351653
//	row 2: a = 0.1, z = 0.099667995, o = 0.160132802, y = 0.158777961, e = -0.841222039
//	       (validation only: no gradient)
//	sseT = 2 e0^2 + e1^2 = 1.846725980        sseV = e1^2 + e2^2 = 1.678236630
//	g_W = sum delta_h x = -0.401258438 - 0.280351653 = -0.681610091
//	g_b = sum delta_h = 0.120906786
//	g_v = sum delta z = 0.974425007           g_c = sum delta = -0.187429453
func TestKernelByHand(t *testing.T) {
	p, w := handProblem()
	k := new(referenceKernel)
	k.load(p)
	g := make([]float64, 4)
	sseT, sseV := k.epoch(w, g)
	const tol = 1e-7
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"sseT", sseT, 1.846725980}, {"sseV", sseV, 1.678236630},
		{"g_W", g[0], -0.681610091}, {"g_b", g[1], 0.120906786},
		{"g_v", g[2], 0.974425007}, {"g_c", g[3], -0.187429453},
	} {
		if !near(c.got, c.want, tol) {
			t.Errorf("%s = %.9f, want %.9f (hand calculation)", c.name, c.got, c.want)
		}
	}
}

// TestGradientCheck compares the kernel's gradient with central finite
// differences of the training MSE, E(w) = sseT(w) / (4 sum wt), whose
// gradient is g/(2 sum wt), on a random weighted problem (d = 4, h = 3).
// The kernel differentiates tanh as 1 - y^2, the exact tanh's derivative,
// while the finite differences see the approximation's own slope; the two
// differ by at most 1e-7 (measured below: 4.4e-8), far inside the tolerance.
func TestGradientCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const d, h, n = 4, 3, 40
	p := &problem{d: d, h: h, n: n, nTrain: 30}
	for i := range n {
		for range d {
			p.x = append(p.x, 2*rng.Float64()-1)
		}
		p.t = append(p.t, float64(2*rng.IntN(2)-1))
		wt := float64(rng.IntN(3) + 1)
		if i >= p.nTrain {
			wt = 0
		}
		p.wt = append(p.wt, wt)
		p.wv = append(p.wv, float64(rng.IntN(2)))
		p.sumTrain += wt
	}
	nw := h*d + 2*h + 1
	w := make([]float64, nw)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	k := new(referenceKernel)
	k.load(p)
	g := make([]float64, nw)
	k.epoch(w, g)
	scratch := make([]float64, nw)
	loss := func(w []float64) float64 {
		sseT, _ := k.epoch(w, scratch)
		return sseT / (4 * p.sumTrain)
	}
	const step = 1e-5
	worst := 0.0
	for i := range w {
		wp := append([]float64(nil), w...)
		wm := append([]float64(nil), w...)
		wp[i] += step
		wm[i] -= step
		fd := (loss(wp) - loss(wm)) / (2 * step)
		an := g[i] / (2 * p.sumTrain)
		err := math.Abs(fd-an) / math.Max(1e-3, math.Abs(fd))
		worst = math.Max(worst, err)
		if err > 1e-6 {
			t.Errorf("weight %d: analytic %.10g, finite difference %.10g (rel. error %.2g)", i, an, fd, err)
		}
	}
	t.Logf("worst relative gradient error %.2g", worst)

	// The derivative mismatch itself: slope of the approximation vs 1 - y^2.
	dworst := 0.0
	for x := -9.0; x <= 9; x += 1e-3 {
		slope := (tanh(x+1e-6) - tanh(x-1e-6)) / 2e-6
		y := tanh(x)
		dworst = math.Max(dworst, math.Abs(slope-(1-y*y)))
	}
	t.Logf("max |d tanh/dx - (1 - tanh^2)| on [-9, 9] = %.2g (finite differences, step 1e-6)", dworst)
	if dworst > 1e-7 {
		t.Errorf("derivative mismatch %.2g exceeds the 1e-7 stated in tanh.go", dworst)
	}
}

// rowsAll selects every row of an n-row matrix with the given weights.
func rowsAll(wt, wv []float64) Rows {
	idx := make([]int, len(wt))
	for i := range idx {
		idx[i] = i
	}
	return Rows{Index: idx, Train: wt, Val: wv}
}

// twoBlobs is a small separable-ish problem: class 1 around (1, 1), class 0
// around (-1, -1), plus a constant third column.
func twoBlobs(rng *rand.Rand, n int) (*mat.Dense, []bool) {
	x := mat.NewDense(n, 3, nil)
	y := make([]bool, n)
	for i := range n {
		y[i] = i%2 == 0
		m := -1.0
		if y[i] {
			m = 1
		}
		x.Set(i, 0, m+1.5*rng.NormFloat64())
		x.Set(i, 1, 10*(m+1.5*rng.NormFloat64()))
		x.Set(i, 2, 42)
	}
	return x, y
}

// TestTrainEarlyStopping trains a net with a validation set and checks, from
// the recorded validation curve, that training stopped exactly where the
// rule says (MaxFail consecutive failures after the best epoch, equal
// values aside) and that the returned net is the best epoch's: its
// validation MSE, recomputed with Net.Predict, equals the recorded minimum
// (exactly for the float64 kernel; within 1e-6 relative for the float32
// kernels, whose training forward pass Predict does not repeat bit for bit).
// It runs for every kernel available here.
func TestTrainEarlyStopping(t *testing.T) {
	for _, k := range Kernels() {
		t.Run(k, func(t *testing.T) { testTrainEarlyStopping(t, k) })
	}
}

func testTrainEarlyStopping(t *testing.T, kernel string) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, y := twoBlobs(rng, 300)
	wt, wv := make([]float64, 300), make([]float64, 300)
	for i := range wt {
		if i%5 == 0 {
			wv[i] = 1
		} else {
			wt[i] = float64(1 + i%3)
		}
	}
	par := DefaultParams()
	par.MaxFail = 5
	par.Kernel = kernel
	tr, err := NewTrainer(par)
	if err != nil {
		t.Fatal(err)
	}
	var curve []float64
	tr.trace = func(epoch int, perf, vperf float64) { curve = append(curve, vperf) }
	net, st, err := tr.Train(context.Background(), x, y, rowsAll(wt, wv), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if st.Stop != StopValidation {
		t.Fatalf("stopped by %v after %d epochs; want a validation stop", st.Stop, st.Epochs)
	}
	best, fails := 0, 0
	for e := 1; e < len(curve); e++ {
		switch {
		case curve[e] < curve[best]:
			best, fails = e, 0
		case curve[e] > curve[best]:
			fails++
		}
		if fails == par.MaxFail {
			if e != st.Epochs {
				t.Fatalf("curve reaches %d failures at epoch %d but training stopped at %d", fails, e, st.Epochs)
			}
			break
		}
	}
	if best != st.BestEpoch || curve[best] != st.ValMSE {
		t.Fatalf("best epoch %d (vperf %v), stats say %d (%v)", best, curve[best], st.BestEpoch, st.ValMSE)
	}
	var sse, sw float64
	for i := range 300 {
		if wv[i] == 0 {
			continue
		}
		s, err := net.Predict(x.RawRowView(i))
		if err != nil {
			t.Fatal(err)
		}
		tt := 0.0
		if y[i] {
			tt = 1
		}
		sse += wv[i] * (s - tt) * (s - tt)
		sw += wv[i]
	}
	tol := 1e-12
	if KernelNumerics(kernel) != NumericsFloat64 {
		tol = 1e-6 * st.ValMSE
	}
	if !near(sse/sw, st.ValMSE, tol) {
		t.Errorf("returned net's validation MSE %v, want the best epoch's %v", sse/sw, st.ValMSE)
	}
	if got := net.ActiveColumns(); len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("active columns %v, want [0 1] (column 2 is constant)", got)
	}
	t.Logf("stopped at epoch %d, best %d, val MSE %.4f, train MSE %.4f", st.Epochs, st.BestEpoch, st.ValMSE, st.TrainMSE)
}

// TestNguyenWidrow checks the initialisation's stated properties: every
// hidden unit's weight vector has length 0.7 h^(1/d), the output's 0.7, and
// biases lie in [-beta, beta].
func TestNguyenWidrow(t *testing.T) {
	const h, d = 5, 13
	w := make([]float64, h*d+2*h+1)
	initNguyenWidrow(w, h, d, rand.New(rand.NewPCG(1, 2)))
	beta := 0.7 * math.Pow(h, 1.0/d)
	for j := range h {
		norm := 0.0
		for _, v := range w[j*d : j*d+d] {
			norm += v * v
		}
		if !near(math.Sqrt(norm), beta, 1e-12) {
			t.Errorf("hidden unit %d: |w| = %v, want %v", j, math.Sqrt(norm), beta)
		}
		if b := w[h*d+j]; math.Abs(b) > beta {
			t.Errorf("hidden bias %d = %v outside [-%v, %v]", j, b, beta, beta)
		}
	}
	norm := 0.0
	for _, v := range w[h*d+h : h*d+2*h] {
		norm += v * v
	}
	if !near(math.Sqrt(norm), 0.7, 1e-12) || math.Abs(w[h*d+2*h]) > 0.7 {
		t.Errorf("output unit: |v| = %v (want 0.7), bias %v", math.Sqrt(norm), w[h*d+2*h])
	}
}

// TestTrainErrors: bad input is an error naming what is wrong, never a panic.
func TestTrainErrors(t *testing.T) {
	x, y := twoBlobs(rand.New(rand.NewPCG(1, 1)), 10)
	ones := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = 1
		}
		return s
	}
	tr, err := NewTrainer(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	ctx := context.Background()
	nan := mat.DenseCopyOf(x)
	nan.Set(3, 1, math.NaN())
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	cases := []struct {
		name string
		run  func() error
	}{
		{"NaN feature", func() error { _, _, err := tr.Train(ctx, nan, y, rowsAll(ones(10), ones(10)), rng); return err }},
		{"no training rows", func() error {
			_, _, err := tr.Train(ctx, x, y, rowsAll(make([]float64, 10), ones(10)), rng)
			if !errors.Is(err, ErrNoTrainingRows) {
				t.Errorf("want ErrNoTrainingRows, got %v", err)
			}
			return err
		}},
		{"index out of range", func() error {
			_, _, err := tr.Train(ctx, x, y, Rows{Index: []int{10}, Train: ones(1), Val: ones(1)}, rng)
			return err
		}},
		{"negative weight", func() error {
			wt := ones(10)
			wt[2] = -1
			_, _, err := tr.Train(ctx, x, y, rowsAll(wt, ones(10)), rng)
			return err
		}},
		{"length mismatch", func() error { _, _, err := tr.Train(ctx, x, y[:9], rowsAll(ones(10), ones(10)), rng); return err }},
		{"cancelled", func() error {
			_, _, err := tr.Train(cancelled, x, y, rowsAll(ones(10), ones(10)), rng)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("want context.Canceled, got %v", err)
			}
			return err
		}},
	}
	for _, c := range cases {
		if err := c.run(); err == nil {
			t.Errorf("%s: no error", c.name)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
	bad := DefaultParams()
	bad.Hidden, bad.RPROP.Dec = 0, 2
	if _, err := NewTrainer(bad); err == nil {
		t.Error("invalid parameters accepted")
	} else {
		t.Log(err)
	}
}

// TestNoAllocationPerEpoch: once a Trainer's buffers have grown, a training
// run allocates the same (only the returned Net) whether it runs 5 or 200
// epochs, with every kernel available here.
func TestNoAllocationPerEpoch(t *testing.T) {
	for _, k := range Kernels() {
		t.Run(k, func(t *testing.T) { testNoAllocationPerEpoch(t, k) })
	}
}

func testNoAllocationPerEpoch(t *testing.T, kernel string) {
	x, y := twoBlobs(rand.New(rand.NewPCG(1, 1)), 200)
	wt := make([]float64, 200)
	for i := range wt {
		wt[i] = 1
	}
	allocs := func(epochs int) float64 {
		par := DefaultParams()
		par.Kernel = kernel
		par.MaxEpochs = epochs
		par.RPROP.MinGrad = 0
		tr, err := NewTrainer(par)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		rows := rowsAll(wt, make([]float64, 200))
		var st Stats
		a := testing.AllocsPerRun(3, func() {
			_, st, err = tr.Train(context.Background(), x, y, rows, rng)
			if err != nil {
				t.Fatal(err)
			}
		})
		if st.Epochs != epochs {
			t.Fatalf("ran %d epochs, want %d", st.Epochs, epochs)
		}
		return a
	}
	if a5, a200 := allocs(5), allocs(200); a5 != a200 {
		t.Errorf("allocations per run: %v with 5 epochs, %v with 200: the epoch loop allocates", a5, a200)
	}
}

// TestKernelsAgree: the scalar kernel Train uses computes bit for bit what
// the reference kernel computes, for several shapes (h with and without a
// multiple of four, odd row counts, rows with only validation weight).
func TestKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, s := range []struct{ d, h, n, nTrain int }{
		{13, 5, 101, 77}, {1, 1, 3, 2}, {7, 4, 10, 10}, {3, 7, 20, 5}, {57, 8, 33, 33}, {2, 3, 9, 1},
	} {
		p := &problem{d: s.d, h: s.h, n: s.n, nTrain: s.nTrain}
		for i := range s.n {
			for range s.d {
				p.x = append(p.x, 2*rng.Float64()-1)
			}
			p.t = append(p.t, float64(2*rng.IntN(2)-1))
			wt, wv := float64(1+rng.IntN(3)), float64(rng.IntN(2))
			if i >= s.nTrain {
				wt, wv = 0, 1
			}
			p.wt, p.wv = append(p.wt, wt), append(p.wv, wv)
		}
		nw := s.h*s.d + 2*s.h + 1
		w := make([]float64, nw)
		for i := range w {
			w[i] = rng.NormFloat64()
		}
		ref, fast := new(referenceKernel), new(scalarKernel)
		ref.load(p)
		fast.load(p)
		gr, gf := make([]float64, nw), make([]float64, nw)
		for range 2 { // twice: buffers reused between epochs
			tr, vr := ref.epoch(w, gr)
			tf, vf := fast.epoch(w, gf)
			if tr != tf || vr != vf {
				t.Fatalf("%+v: losses (%v, %v), reference (%v, %v)", s, tf, vf, tr, vr)
			}
			for i := range gr {
				if gr[i] != gf[i] {
					t.Fatalf("%+v: gradient %d = %v, reference %v", s, i, gf[i], gr[i])
				}
			}
		}
	}
}

// TestPredictRows: the trainer's out-of-bag prediction equals Net.Predict
// bit for bit with the scalar kernel and within 1e-6 with the float32
// kernels (whose prediction is their own float32 forward pass), for every
// kernel available, on rows inside and outside the training range.
func TestPredictRows(t *testing.T) {
	x, y := twoBlobs(rand.New(rand.NewPCG(7, 7)), 300)
	for i := range 20 { // far outside the training rows' range
		x.Set(280+i, 0, 50*float64(i-10))
	}
	wt, wv := make([]float64, 300), make([]float64, 300)
	for i := range 280 {
		wt[i] = float64(1 + i%2)
		wv[i] = float64(i % 3 / 2)
	}
	idx := make([]int, 300)
	for i := range idx {
		idx[i] = i
	}
	for _, k := range Kernels() {
		par := DefaultParams()
		par.Kernel = k
		tr, err := NewTrainer(par)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.PredictRows(x, idx, make([]float64, 300)); err == nil {
			t.Errorf("%s: PredictRows before Train: no error", k)
		}
		net, _, err := tr.Train(context.Background(), x, y, rowsAll(wt, wv), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, 300)
		if err := tr.PredictRows(x, idx, got); err != nil {
			t.Fatal(err)
		}
		tol := 0.0
		if KernelNumerics(k) != NumericsFloat64 {
			tol = 1e-6
		}
		worst := 0.0
		for i := range idx {
			want, err := net.Predict(x.RawRowView(i))
			if err != nil {
				t.Fatal(err)
			}
			worst = max(worst, math.Abs(got[i]-want))
			if !near(got[i], want, tol) {
				t.Fatalf("%s: row %d: PredictRows %v, Net.Predict %v", k, i, got[i], want)
			}
		}
		t.Logf("%s: max |PredictRows - Net.Predict| = %.2g", k, worst)
	}
}
