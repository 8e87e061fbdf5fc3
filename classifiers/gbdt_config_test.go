package classifiers

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers/gbdt"
)

func TestGBDTYAML(t *testing.T) {
	cfg, err := decodeStrict(t, GBDTName, `
leaves: 15
learning_rate: 0.05
rounds: 200
min_leaf: 10
lambda: 1
folds: 10
workers: 2
`)
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultGBDT()
	want.Leaves, want.LearningRate, want.Rounds, want.MinLeaf, want.Lambda, want.Folds, want.Workers = 15, 0.05, 200, 10, 1, 10, 2
	if o := cfg.(*GBDT); *o != want {
		t.Errorf("decoded %+v, want %+v (absent fields keep their defaults)", *o, want)
	}
	if _, err := decodeStrict(t, GBDTName, "leafs: 10\n"); err == nil || !strings.Contains(err.Error(), "leafs") {
		t.Errorf("unknown field: %v", err)
	}
	_, err = decodeStrict(t, GBDTName, "leaves: 1\nlearning_rate: 0\nrounds: 0\nmin_leaf: 0\nbins: 1\nlambda: -1\nmin_gain: -1\nmax_depth: -1\nfolds: 1\nworkers: -3\nmin_hessian: -1\n")
	for _, w := range []string{"classifier gbdt", "leaves = 1", "learning_rate = 0", "rounds = 0", "min_leaf = 0", "bins = 1",
		"lambda = -1", "min_gain = -1", "max_depth = -1", "folds = 1", "workers = -3", "min_hessian = -1"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("validation error %v should mention %q", err, w)
		}
	}
}

// TestGBDTDefaultsAndKey: the defaults are LightGBM's (papers-next.md
// section 2.3: 31 leaves, learning rate 0.1, 100 rounds, 20 rows per leaf,
// 255 bins, L2 0) with 5 folds; every option but workers changes Key.
func TestGBDTDefaultsAndKey(t *testing.T) {
	cfg, err := Defaults(GBDTName)
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.(*GBDT)
	if o.Leaves != 31 || o.LearningRate != 0.1 || o.Rounds != 100 || o.MinLeaf != 20 || o.Bins != 255 ||
		o.Lambda != 0 || o.MinGain != 0 || o.MinHessian != 1e-3 || o.MaxDepth != 0 || o.Folds != 5 || o.Workers != 0 {
		t.Errorf("defaults %+v", *o)
	}
	if s, err := cfg.New(); err != nil || s.Name() != GBDTName {
		t.Fatalf("New: %v %v", s, err)
	}
	base := DefaultGBDT()
	w := base
	w.Workers = 7
	if w.Key() != base.Key() {
		t.Errorf("workers changed the key: %q vs %q", w.Key(), base.Key())
	}
	// Change each field in turn (reflection, so that a field added later
	// without a Key entry fails here).
	var fields []string
	v := reflect.ValueOf(&base).Elem()
	p := v.Field(0) // the embedded gbdt.Params
	for _, s := range []reflect.Value{p, v} {
		for i := range s.NumField() {
			f := s.Type().Field(i)
			if f.Anonymous || f.Tag.Get("key") == "-" {
				continue
			}
			fields = append(fields, f.Name)
			c := base
			cv := reflect.ValueOf(&c).Elem()
			fv := cv.FieldByName(f.Name)
			switch fv.Kind() {
			case reflect.Int:
				fv.SetInt(fv.Int() + 1)
			case reflect.Float64:
				fv.SetFloat(fv.Float() + 0.5)
			default:
				t.Fatalf("field %s of kind %s", f.Name, fv.Kind())
			}
			if c.Key() == base.Key() {
				t.Errorf("%s did not change the key %q", f.Name, base.Key())
			}
		}
	}
	if len(fields) != 10 {
		t.Errorf("fields in the key: %v", fields)
	}
	t.Log(base.Key())
}

// TestGBDTScore checks the Scorer contract: probabilities in [0, 1], every
// row out of fold once, bit-identical for 1 and 3 workers, different folds
// (so scores) for another seed, errors on bad data.
func TestGBDTScore(t *testing.T) {
	data := bankLike(rand.New(rand.NewPCG(3, 3)), 1500, 0.2)
	o := DefaultGBDT()
	o.Rounds, o.Workers = 20, 1
	a, err := o.Score(context.Background(), data, 4)
	if err != nil {
		t.Fatal(err)
	}
	o.Workers = 3
	b, err := o.Score(context.Background(), data, 4)
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
		if math.Float64bits(a.Scores[i]) != math.Float64bits(b.Scores[i]) {
			t.Fatalf("row %d: %v with 1 worker, %v with 3", i, a.Scores[i], b.Scores[i])
		}
		differs = differs || a.Scores[i] != c.Scores[i]
	}
	if !differs {
		t.Error("seeds 4 and 5 gave the same scores")
	}
	if len(a.Models) != 5 || a.Models[0].Epochs != 20 || a.Models[0].TrainRows+a.Models[0].OOBRows != 1500 || a.Filled != 0 {
		t.Errorf("models %+v", a.Models)
	}
	// Scores are the sigmoid of the margins of gbdt.OOF on the same folds.
	res, err := gbdt.OOF(context.Background(), data.X, data.Y, 5, o.Params, FoldStream(4))
	if err != nil {
		t.Fatal(err)
	}
	if a.Scores[17] != gbdt.Sigmoid(res.Margins[17]) {
		t.Errorf("score %v, sigmoid of the out-of-fold margin %v", a.Scores[17], gbdt.Sigmoid(res.Margins[17]))
	}

	one := Data{X: data.X, Y: make([]bool, 1500)}
	if _, err := o.Score(context.Background(), one, 1); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v", err)
	}
	few := Data{X: mat.NewDense(8, 1, []float64{1, 2, 3, 4, 5, 6, 7, 8}), Y: []bool{true, true, false, false, false, false, false, false}}
	if _, err := o.Score(context.Background(), few, 1); err == nil || !strings.Contains(err.Error(), "need at least 5 of each") {
		t.Errorf("2 positives for 5 folds: %v", err)
	}
	x := mat.DenseCopyOf(data.X)
	x.Set(3, 2, math.NaN())
	if _, err := o.Score(context.Background(), Data{X: x, Y: data.Y}, 1); err == nil || !strings.Contains(err.Error(), "feature 2 of row 3") {
		t.Errorf("NaN: %v", err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("enough"))
	if _, err := o.Score(ctx, data, 1); err == nil || !strings.Contains(err.Error(), "enough") {
		t.Errorf("cancelled: %v", err)
	}
}
