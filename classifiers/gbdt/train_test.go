package gbdt

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// line returns the 1-D data x = 0, 1, ..., n-1 with y = (x >= cut).
func line(n, cut int) (*mat.Dense, []bool) {
	x := mat.NewDense(n, 1, nil)
	y := make([]bool, n)
	for i := range n {
		x.Set(i, 0, float64(i))
		y[i] = i >= cut
	}
	return x, y
}

// TestSingleSplit is hand-checked: on x = 0..39, y = (x >= 20), the initial
// margin is log(0.5/0.5) = 0, so every row has p = 0.5, gradient p - y =
// +-0.5 and hessian p(1-p) = 0.25. With 20 rows per leaf at least, the only
// split is between 19 and 20 (threshold 19.5, the midpoint of the distinct
// values), and its leaves get -G/(H+lambda) times the learning rate:
// -(20 x 0.5)/(20 x 0.25 + lambda) x 0.1 = -0.2 on the left and +0.2 on
// the right for lambda = 0 (-10/6 x 0.1 for lambda = 1). The gain is
// 10^2/5 + 10^2/5 - 0^2/10 = 40 (not stored, but it exceeds min_gain 0).
// Round 2 starts from margins -+0.2, so p = sigmoid(-0.2) on the left and
// the left leaf is -(20 p)/(20 p(1-p)) x 0.1 = -0.1/(1 - sigmoid(-0.2)).
func TestSingleSplit(t *testing.T) {
	x, y := line(40, 20)
	for _, c := range []struct {
		lambda, left float64
	}{{0, -0.2}, {1, -10.0 / 6 * 0.1}} {
		p := DefaultParams()
		p.Rounds, p.Lambda = 2, c.lambda
		m, err := Train(context.Background(), x, y, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		if m.Init != 0 {
			t.Errorf("init %v, want log(0.5/0.5) = 0", m.Init)
		}
		tr := m.Trees[0]
		if len(tr.Nodes) != 3 || tr.Nodes[0].Feature != 0 || tr.Nodes[0].Threshold != 19.5 {
			t.Fatalf("lambda %v: tree %+v, want one split at 19.5", c.lambda, tr.Nodes)
		}
		l, r := tr.Nodes[tr.Nodes[0].Left], tr.Nodes[tr.Nodes[0].Right]
		if math.Abs(l.Value-c.left) > 1e-15 || math.Abs(r.Value+c.left) > 1e-15 || l.Rows != 20 || r.Rows != 20 {
			t.Errorf("lambda %v: leaves %+v %+v, want values %v, %v on 20 rows each", c.lambda, l, r, c.left, -c.left)
		}
		if c.lambda == 0 {
			want := -0.1 / (1 - Sigmoid(-0.2))
			t2 := m.Trees[1]
			if got := t2.Nodes[t2.Nodes[0].Left].Value; math.Abs(got-want) > 1e-15 {
				t.Errorf("round 2 left leaf %v, want -0.1/(1 - sigmoid(-0.2)) = %v", got, want)
			}
			// Margin of x = 0: 0 + (-0.2) + round 2's left leaf.
			if got := m.Margin([]float64{0}); math.Abs(got-(-0.2+want)) > 1e-15 {
				t.Errorf("margin %v, want %v", got, -0.2+want)
			}
		}
	}
}

// TestBaseRateInit: the initial margin is the log-odds of the training base
// rate, log(10/30) for 10 positives of 40 (by hand).
func TestBaseRateInit(t *testing.T) {
	x, y := line(40, 30)
	p := DefaultParams()
	p.Rounds = 1
	m, err := Train(context.Background(), x, y, nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Log(10.0 / 30); math.Abs(m.Init-want) > 1e-15 {
		t.Errorf("init %v, want %v", m.Init, want)
	}
	// Only 10 positives and 20 rows per leaf: the best split has 20 rows
	// left (all negative) and 20 right.
	if th := m.Trees[0].Nodes[0].Threshold; th != 19.5 {
		t.Errorf("threshold %v, want 19.5 (the only split with 20 rows a side)", th)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	x, y := line(40, 20)
	p := DefaultParams()
	check := func(what string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", what, err, want)
		}
	}
	_, err := Train(ctx, nil, y, nil, p)
	check("nil x", err, "nil feature matrix")
	_, err = Train(ctx, x, y[:3], nil, p)
	check("short y", err, "3 targets for 40 rows")
	_, err = Train(ctx, x, make([]bool, 40), nil, p)
	check("one class", err, "0 of 40")
	if !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v does not wrap ErrOneClass", err)
	}
	_, err = Train(ctx, x, y, []int{0, 40}, p)
	check("row range", err, "row 40 out of range")
	_, err = Train(ctx, x, y, []int{3}, p)
	check("one row", err, "1 training rows")
	xn := mat.DenseCopyOf(x)
	xn.Set(7, 0, math.NaN())
	_, err = Train(ctx, xn, y, nil, p)
	check("NaN", err, "column 0, row 7 is NaN")
	xn.Set(7, 0, math.Inf(-1))
	_, err = Train(ctx, xn, y, nil, p)
	check("Inf", err, "column 0, row 7 is -Inf")
	bad := Params{Leaves: 1, LearningRate: -1, Rounds: 0, MinLeaf: 0, MinHessian: math.NaN(), Bins: 300, Lambda: -1, MinGain: math.Inf(1), MaxDepth: -2, Workers: -1}
	_, err = Train(ctx, x, y, nil, bad)
	for _, w := range []string{"leaves = 1", "learning_rate = -1", "rounds = 0", "min_leaf = 0", "min_hessian = NaN", "bins = 300", "lambda = -1", "min_gain = +Inf", "max_depth = -2", "workers = -1"} {
		check("params", err, w)
	}
	p0 := DefaultParams()
	p0.MinHessian = 0
	check("lambda and min_hessian 0", p0.Validate(), "lambda = 0 and min_hessian = 0")

	cctx, cancel := context.WithCancelCause(ctx)
	cancel(errors.New("stop now"))
	_, err = Train(cctx, x, y, nil, p)
	check("cancelled", err, "stop now")

	m, err := Train(ctx, x, y, nil, p)
	if err != nil {
		t.Fatal(err)
	}
	check("predict dims", m.MarginRows(mat.NewDense(2, 3, nil), []int{0}, []float64{0}), "3 features")
	check("predict rows", m.MarginRows(x, []int{41}, []float64{0}), "row 41 out of range")
}

// TestConstantFeatures: features constant on the training rows are never
// split on; with none left the model is the base rate.
func TestConstantFeatures(t *testing.T) {
	x := mat.NewDense(50, 2, nil)
	y := make([]bool, 50)
	for i := range 50 {
		x.Set(i, 0, 3)
		x.Set(i, 1, float64(i))
		y[i] = i%5 == 0
	}
	m, err := Train(context.Background(), x, y, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	// 11 rows < 2 x 20: no split anywhere.
	for _, tr := range m.Trees {
		if len(tr.Nodes) != 1 {
			t.Fatalf("tree %+v, want a single leaf", tr.Nodes)
		}
	}
}

// synth draws n rows of d features: d/2 continuous (normal, mean shifted by
// the class, varied scales, some heavy-tailed) and d - d/2 binary with
// class-dependent rates; a fraction pos of the rows are positive.
func synth(rng *rand.Rand, n, d int, pos float64) (*mat.Dense, []bool) {
	x := mat.NewDense(n, d, nil)
	y := make([]bool, n)
	for i := range n {
		y[i] = rng.Float64() < pos
		row := x.RawRowView(i)
		for k := range d {
			shift := 0.0
			if y[i] {
				shift = 0.5 / float64(1+k%7)
			}
			if k < d/2 {
				v := rng.NormFloat64() + shift
				if k%3 == 1 {
					v = math.Exp(v)
				}
				row[k] = v * float64(1+k)
			} else if rng.Float64() < 0.3+shift/2 {
				row[k] = 1
			}
		}
	}
	return x, y
}

// TestDeterminism: models and margins are bit-identical for 1, 2, 3 and 8
// workers (the histogram of a feature is summed by one goroutine in row
// order; per-feature bests are reduced in feature order).
func TestDeterminism(t *testing.T) {
	x, y := synth(rand.New(rand.NewPCG(1, 2)), 3000, 20, 0.3)
	var ref *OOFResult
	for _, w := range []int{1, 2, 3, 8} {
		p := DefaultParams()
		p.Rounds, p.Workers = 30, w
		res, err := OOF(context.Background(), x, y, 5, p, rand.New(rand.NewPCG(7, 7)))
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = res
			continue
		}
		for i := range res.Margins {
			if math.Float64bits(res.Margins[i]) != math.Float64bits(ref.Margins[i]) {
				t.Fatalf("workers %d: row %d margin %v, 1 worker %v", w, i, res.Margins[i], ref.Margins[i])
			}
		}
		// Train directly (not through OOF's fold-level parallelism).
		m1, err := Train(context.Background(), x, y, nil, Params{Leaves: 31, LearningRate: 0.1, Rounds: 10, MinLeaf: 20, MinHessian: 1e-3, Bins: 255, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		mw, err := Train(context.Background(), x, y, nil, Params{Leaves: 31, LearningRate: 0.1, Rounds: 10, MinLeaf: 20, MinHessian: 1e-3, Bins: 255, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		for ti := range m1.Trees {
			a, b := m1.Trees[ti].Nodes, mw.Trees[ti].Nodes
			if len(a) != len(b) {
				t.Fatalf("workers %d: tree %d has %d nodes, 1 worker %d", w, ti, len(b), len(a))
			}
			for k := range a {
				if a[k] != b[k] {
					t.Fatalf("workers %d: tree %d node %d %+v, 1 worker %+v", w, ti, k, b[k], a[k])
				}
			}
		}
	}
	// Same seed, same folds; another seed, other folds.
	f1, _ := StratifiedFolds(y, 5, rand.New(rand.NewPCG(7, 7)))
	f2, _ := StratifiedFolds(y, 5, rand.New(rand.NewPCG(8, 7)))
	same, diff := true, false
	for i := range f1 {
		same = same && f1[i] == ref.Fold[i]
		diff = diff || f1[i] != f2[i]
	}
	if !same || !diff {
		t.Errorf("fold assignment: same seed equal %v, other seed different %v", same, diff)
	}
}
