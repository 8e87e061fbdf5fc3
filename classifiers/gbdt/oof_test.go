package gbdt

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestStratifiedFolds: every fold holds floor or ceil of 1/k of each class
// (the rows are dealt in turn, positives first), every row has one fold.
func TestStratifiedFolds(t *testing.T) {
	y := make([]bool, 103)
	for i := range y {
		y[i] = i%4 == 0 // 26 positives, 77 negatives
	}
	fold, err := StratifiedFolds(y, 5, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	var pos, neg [5]int
	for i, f := range fold {
		if y[i] {
			pos[f]++
		} else {
			neg[f]++
		}
	}
	// 26 = 5+5+5+5+6 positives: fold 0 gets the 26th; the negatives
	// continue the turn at fold 1: 77 = 16+16+15+15+15 from fold 1 on.
	if pos != [5]int{6, 5, 5, 5, 5} || neg != [5]int{15, 16, 16, 15, 15} {
		t.Errorf("positives per fold %v, negatives %v", pos, neg)
	}
	for _, c := range []struct {
		y    []bool
		k    int
		rng  *rand.Rand
		want string
	}{
		{y, 1, rand.New(rand.NewPCG(1, 1)), "folds = 1"},
		{y[:12], 5, rand.New(rand.NewPCG(1, 1)), "3 positive and 9 negative rows: need at least 5 of each"},
		{y, 5, nil, "nil random stream"},
	} {
		if _, err := StratifiedFolds(c.y, c.k, c.rng); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one mentioning %q", err, c.want)
		}
	}
}

// TestOOF: each row's margin is, bit for bit, that of a model trained
// directly (Train) on the rows of the other folds.
func TestOOF(t *testing.T) {
	x, y := synth(rand.New(rand.NewPCG(5, 6)), 600, 6, 0.4)
	p := DefaultParams()
	p.Rounds = 15
	res, err := OOF(context.Background(), x, y, 3, p, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	for j := range 3 {
		var train []int
		for i, f := range res.Fold {
			if f != j {
				train = append(train, i)
			}
		}
		m, err := Train(context.Background(), x, y, train, p)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range res.Fold {
			if f == j && math.Float64bits(m.Margin(x.RawRowView(i))) != math.Float64bits(res.Margins[i]) {
				t.Fatalf("fold %d row %d: margin %v, direct model %v", j, i, res.Margins[i], m.Margin(x.RawRowView(i)))
			}
		}
	}
	// Bad fold numbers are errors.
	for _, c := range []struct {
		fold []int
		want string
	}{
		{make([]int, 600), "1 fold(s)"},
		{append(make([]int, 599), 2), "fold 1 of 3 is empty"},
		{append(make([]int, 599), -1), "fold -1"},
		{make([]int, 3), "600 rows, 600 targets, 3 fold numbers"},
	} {
		if _, err := OOFFolds(context.Background(), x, y, c.fold, p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one mentioning %q", err, c.want)
		}
	}
	// A fold whose complement holds one class: an error naming the fold.
	fold := make([]int, 600)
	for i := range fold {
		if !y[i] {
			fold[i] = 1
		}
	}
	if _, err := OOFFolds(context.Background(), x, y, fold, p); err == nil || !strings.Contains(err.Error(), "fold 0 of 2") {
		t.Errorf("one-class training fold: %v", err)
	}
}
