package classifiers

import (
	"context"
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers/gbdt"
	"github.com/pueval/pueval/classifiers/svm"
	"github.com/pueval/pueval/internal/oneclass"
)

// TestOneClassIsOneError: the one-class errors of this package and of its
// trainers are one error for errors.Is (oneclass.Err), each in its own words.
func TestOneClassIsOneError(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{1, 2, 3, 4})
	_, gerr := gbdt.Train(context.Background(), x, make([]bool, 4), nil, gbdt.DefaultParams())
	_, perr := svm.FitPlatt([]float64{1, 2}, []bool{true, true})
	_, _, cerr := Data{X: x, Y: make([]bool, 4)}.check()
	for _, c := range []struct {
		err  error
		text string
	}{
		{gerr, "gbdt: 0 of 4 training targets positive: training targets need at least one row of each class"},
		{perr, "svm: platt: 2 positive and 0 negative values: training instances need at least one of each class"},
		{cerr, "0 of 4 targets positive: targets need at least one row of each class"},
	} {
		if c.err == nil || c.err.Error() != c.text {
			t.Errorf("error %v, want the text %q", c.err, c.text)
			continue
		}
		for _, target := range []error{oneclass.Err, ErrOneClass, gbdt.ErrOneClass, svm.ErrOneClass} {
			if !errors.Is(c.err, target) {
				t.Errorf("errors.Is(%q, %q) = false", c.err, target)
			}
		}
	}
}
