package classifiers

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers/gbdt"
	"github.com/pueval/pueval/classifiers/svm"
)

// svmPU draws a PU training set: n rows of d Gaussian features, positives
// (a third) shifted by sep/sqrt(d) per feature, half of the positives
// labeled (Y = true), everything else unlabeled.
func svmPU(rng *rand.Rand, n, d int, sep float64) Data {
	x := mat.NewDense(n, d, nil)
	y := make([]bool, n)
	for i := range n {
		pos := rng.IntN(3) == 0
		y[i] = pos && rng.IntN(2) == 0
		for k := range d {
			v := rng.NormFloat64()
			if pos {
				v += sep / math.Sqrt(float64(d))
			}
			x.Set(i, k, v)
		}
	}
	return Data{X: x, Y: y}
}

func TestSVMYAML(t *testing.T) {
	cfg, err := decodeStrict(t, SVMName, `
kernel: rbf
c: 10
gamma: 0.5
weighting: elkan-noto
unlabeled_weight: 0.1
platt_folds: 5
tolerance: 0.0001
cache_mb: 50
folds: 4
`)
	if err != nil {
		t.Fatal(err)
	}
	want := SVM{Kernel: "rbf", C: 10, Gamma: 0.5, Weighting: WeightingElkanNoto, UnlabeledWeight: 0.1, PlattFolds: 5, Tolerance: 1e-4, CacheMB: 50, Folds: 4}
	if o := cfg.(*SVM); *o != want {
		t.Errorf("decoded %+v, want %+v", *o, want)
	}
	if _, err := decodeStrict(t, SVMName, "kernal: rbf\n"); err == nil || !strings.Contains(err.Error(), "kernal") {
		t.Errorf("unknown field: %v", err)
	}
	_, err = decodeStrict(t, SVMName, "kernel: poly\nc: 0\ngamma: -1\nweighting: spy\nunlabeled_weight: 0\nplatt_folds: 1\ntolerance: 0\ncache_mb: 0\nfolds: 1\n")
	for _, w := range []string{"classifier svm", `kernel = "poly"`, "c = 0", "gamma = -1", `weighting = "spy"`, "unlabeled_weight = 0",
		"platt_folds = 1", "tolerance = 0", "cache_mb = 0", "folds = 1"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("validation error %v should mention %q", err, w)
		}
	}
	if _, err := decodeStrict(t, SVMName, "c: .nan\n"); err == nil || !strings.Contains(err.Error(), "c = NaN") {
		t.Errorf("c = NaN: %v", err)
	}
}

// TestSVMDefaultsAndKey: the defaults are the PULP configuration 1 (linear,
// C = 1, biased, w_u = 1), LIBSVM's tolerance and cache, 3 Platt folds,
// 8 folds; every option but cache_mb changes Key.
func TestSVMDefaultsAndKey(t *testing.T) {
	cfg, err := Defaults(SVMName)
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.(*SVM)
	want := SVM{Kernel: "linear", C: 1, Weighting: "biased", UnlabeledWeight: 1, PlattFolds: 3, Tolerance: 1e-3, CacheMB: 200, Folds: 8}
	if *o != want {
		t.Errorf("defaults %+v, want %+v", *o, want)
	}
	s, err := cfg.New()
	if err != nil || s.Name() != SVMName {
		t.Fatalf("New: %v %v", s, err)
	}
	if _, ok := s.(FoldScorer); !ok {
		t.Error("the svm Scorer is not a FoldScorer")
	}
	base := DefaultSVM()
	c := base
	c.CacheMB = 1
	if c.Key() != base.Key() {
		t.Errorf("cache_mb changed the key: %q vs %q", c.Key(), base.Key())
	}
	v := reflect.ValueOf(&base).Elem()
	n := 0
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Tag.Get("key") == "-" {
			continue
		}
		n++
		c := base
		fv := reflect.ValueOf(&c).Elem().Field(i)
		switch fv.Kind() {
		case reflect.Int:
			fv.SetInt(fv.Int() + 1)
		case reflect.Float64:
			fv.SetFloat(fv.Float() + 0.5)
		case reflect.String:
			fv.SetString(fv.String() + "x")
		default:
			t.Fatalf("field %s of kind %s", f.Name, fv.Kind())
		}
		if c.Key() == base.Key() {
			t.Errorf("%s did not change the key %q", f.Name, base.Key())
		}
	}
	if n != 8 {
		t.Errorf("%d fields in the key, want 8", n)
	}
	t.Log(base.Key())
}

// TestSVMScore checks the Scorer contract and that the scores are the
// documented ones: UnitScore of the decision value of the model trained
// (package svm, the same options) on the other folds of
// gbdt.StratifiedFolds drawn from FoldStream(seed).
func TestSVMScore(t *testing.T) {
	data := svmPU(rand.New(rand.NewPCG(1, 1)), 400, 4, 2)
	o := DefaultSVM()
	o.UnlabeledWeight = 0.5
	a, err := o.Score(context.Background(), data, 4)
	if err != nil {
		t.Fatal(err)
	}
	c, err := o.Score(context.Background(), data, 5)
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for i := range a.Scores {
		if !(a.Scores[i] >= 0 && a.Scores[i] <= 1) || a.OOBCount[i] != 1 {
			t.Fatalf("row %d: score %v, count %d", i, a.Scores[i], a.OOBCount[i])
		}
		differs = differs || a.Scores[i] != c.Scores[i]
	}
	if !differs {
		t.Error("seeds 4 and 5 gave the same scores")
	}
	if len(a.Models) != 8 || a.Filled != 0 {
		t.Fatalf("%d models, %d filled", len(a.Models), a.Filled)
	}
	for j, m := range a.Models {
		if m.Epochs < 1 || m.BestEpoch != m.Epochs || m.Stop != svm.StopConverged || m.TrainRows+m.OOBRows != 400 ||
			m.Inputs != 4 || !(m.Flops > 0) || !(m.TrainMSE >= 0 && m.TrainMSE < 0.5) || !math.IsNaN(m.ValMSE) {
			t.Errorf("model %d: %+v", j, m)
		}
	}
	// The scores of fold 3, by hand.
	folds, err := gbdt.StratifiedFolds(data.Y, 8, FoldStream(4))
	if err != nil {
		t.Fatal(err)
	}
	var train, test []int
	var lab []bool
	var w []float64
	for i, f := range folds {
		if f == 3 {
			test = append(test, i)
			continue
		}
		train, lab = append(train, i), append(lab, data.Y[i])
		if data.Y[i] {
			w = append(w, 1)
		} else {
			w = append(w, 0.5)
		}
	}
	m, err := svm.Train(context.Background(), svm.Problem{X: data.X, Rows: train, Y: lab, W: w}, svm.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	dec := make([]float64, len(test))
	if err := m.Decision(data.X, test, dec); err != nil {
		t.Fatal(err)
	}
	for q, i := range test {
		if a.Scores[i] != svm.UnitScore(dec[q]) {
			t.Fatalf("row %d: score %v, UnitScore of the fold model's decision %v", i, a.Scores[i], svm.UnitScore(dec[q]))
		}
	}
	if a.Models[3].Epochs != m.Iter {
		t.Errorf("fold 3: %d epochs, the model took %d iterations", a.Models[3].Epochs, m.Iter)
	}
}

// TestSVMElkanNoto: the elkan-noto pipeline of one fold, by hand from the
// package's parts: inner stratified folds from PCG(NetSeed(seed, j+1)),
// PlattCV of a linear SVM (C = c), ElkanNotoProblem, the final SVM.
func TestSVMElkanNoto(t *testing.T) {
	data := svmPU(rand.New(rand.NewPCG(2, 2)), 240, 3, 2.5)
	folds := make([]int, 240)
	for i := range folds {
		folds[i] = i % 4
	}
	for _, kern := range []string{"linear", "rbf"} {
		o := DefaultSVM()
		o.Weighting, o.Kernel, o.C = WeightingElkanNoto, kern, 2
		res, err := o.ScoreFolds(context.Background(), data, folds, 9)
		if err != nil {
			t.Fatal(err)
		}
		const j = 2
		var train, test []int
		var lab []bool
		for i, f := range folds {
			if f == j {
				test = append(test, i)
			} else {
				train, lab = append(train, i), append(lab, data.Y[i])
			}
		}
		inner, err := gbdt.StratifiedFolds(lab, 3, rand.New(rand.NewPCG(NetSeed(9, j+1))))
		if err != nil {
			t.Fatal(err)
		}
		p := svm.DefaultParams()
		p.C = 2
		g, cv, err := svm.PlattCV(context.Background(), data.X, train, lab, inner, p)
		if err != nil {
			t.Fatal(err)
		}
		prob, chat, err := svm.ElkanNotoProblem(train, lab, g)
		if err != nil {
			t.Fatal(err)
		}
		if !(chat > 0.2 && chat < 0.9) || len(prob.Rows) <= len(train) {
			t.Errorf("%s: c = %v, %d instances from %d rows", kern, chat, len(prob.Rows), len(train))
		}
		prob.X = data.X
		p.Kernel, _ = svm.ParseKernel(kern)
		m, err := svm.Train(context.Background(), prob, p)
		if err != nil {
			t.Fatal(err)
		}
		dec := make([]float64, len(test))
		if err := m.Decision(data.X, test, dec); err != nil {
			t.Fatal(err)
		}
		for q, i := range test {
			if res.Scores[i] != svm.UnitScore(dec[q]) {
				t.Fatalf("%s: row %d: score %v, by hand %v", kern, i, res.Scores[i], svm.UnitScore(dec[q]))
			}
		}
		if st := res.Models[j]; st.Epochs != cv.Iter+m.Iter || st.BestEpoch != m.Iter {
			t.Errorf("%s: epochs %d / %d, want %d / %d", kern, st.Epochs, st.BestEpoch, cv.Iter+m.Iter, m.Iter)
		}
		if a := auc(t, res.Scores, data.Y); a < 0.7 {
			t.Errorf("%s: labeled-vs-unlabeled AUC %v", kern, a)
		}
	}
}

// TestSVMGOMAXPROCS: the scores are bit-identical for GOMAXPROCS 1 and 2.
func TestSVMGOMAXPROCS(t *testing.T) {
	data := svmPU(rand.New(rand.NewPCG(3, 3)), 300, 5, 2)
	o := DefaultSVM()
	o.Kernel, o.Weighting = "rbf", WeightingElkanNoto
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var prev []float64
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		res, err := o.Score(context.Background(), data, 7)
		if err != nil {
			t.Fatal(err)
		}
		for i := range prev {
			if math.Float64bits(prev[i]) != math.Float64bits(res.Scores[i]) {
				t.Fatalf("row %d: %v with GOMAXPROCS 1, %v with 2", i, prev[i], res.Scores[i])
			}
		}
		prev = res.Scores
	}
}

func TestSVMErrors(t *testing.T) {
	data := svmPU(rand.New(rand.NewPCG(4, 4)), 120, 3, 2)
	o := DefaultSVM()
	ctx := context.Background()
	// A fold whose training rows (the other folds) hold no labeled row.
	folds := make([]int, 120)
	for i, l := range data.Y {
		if l {
			folds[i] = 1
		}
	}
	if _, err := o.ScoreFolds(ctx, data, folds, 1); !errors.Is(err, ErrOneClass) || !strings.Contains(err.Error(), "fold 0 of 2") {
		t.Errorf("fold without labeled training rows: %v", err)
	}
	if _, err := o.ScoreFolds(ctx, data, folds[:10], 1); err == nil || !strings.Contains(err.Error(), "10 fold numbers") {
		t.Errorf("short folds: %v", err)
	}
	bad := folds2(120)
	bad[5] = 3 // fold 2 empty
	if _, err := o.ScoreFolds(ctx, data, bad, 1); err == nil || !strings.Contains(err.Error(), "fold 2 of 4 is empty") {
		t.Errorf("empty fold: %v", err)
	}
	one := Data{X: data.X, Y: make([]bool, 120)}
	if _, err := o.Score(ctx, one, 1); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v", err)
	}
	x := mat.DenseCopyOf(data.X)
	x.Set(3, 2, math.NaN())
	if _, err := o.Score(ctx, Data{X: x, Y: data.Y}, 1); err == nil || !strings.Contains(err.Error(), "feature 2 of row 3") {
		t.Errorf("NaN: %v", err)
	}
	if _, err := o.Score(ctx, Data{X: data.X, Y: data.Y[:50]}, 1); err == nil {
		t.Error("mismatched lengths accepted")
	}
	few := Data{X: mat.NewDense(10, 1, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), Y: []bool{true, true, false, false, false, false, false, false, false, false}}
	if _, err := o.Score(ctx, few, 1); err == nil || !strings.Contains(err.Error(), "need at least 8 of each") {
		t.Errorf("2 labeled rows for 8 folds: %v", err)
	}
	en := DefaultSVM()
	en.Weighting, en.PlattFolds = WeightingElkanNoto, 30
	if _, err := en.ScoreFolds(ctx, data, folds2(120), 1); err == nil || !strings.Contains(err.Error(), "inner Platt folds") {
		t.Errorf("30 Platt folds: %v", err)
	}
	huge := mat.DenseCopyOf(data.X)
	huge.Set(0, 0, 1e200)
	if _, err := o.Score(ctx, Data{X: huge, Y: data.Y}, 1); err == nil || !strings.Contains(err.Error(), "rescale") {
		t.Errorf("huge feature: %v", err)
	}
	for _, w := range []string{"elkan-noto", "biased"} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cause := errors.New("enough")
		cancel(cause)
		o.Weighting = w
		if _, err := o.Score(ctx, data, 1); !errors.Is(err, cause) {
			t.Errorf("%s cancelled: %v", w, err)
		}
	}
}

// folds2 alternates two folds.
func folds2(n int) []int {
	f := make([]int, n)
	for i := range f {
		f[i] = i % 2
	}
	return f
}
