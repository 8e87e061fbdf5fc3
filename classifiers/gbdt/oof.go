package gbdt

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// DefaultFolds is the number of folds of out-of-fold scoring.
const DefaultFolds = 5

// StratifiedFolds assigns each of the rows to one of k folds, stratified by
// class: the positive rows in a random order (rng's Shuffle), then the
// negative rows in a random order, are dealt to folds 0, 1, ..., k-1, 0, 1,
// ... in turn. Every fold thus holds floor or ceil of 1/k of each class and
// of the rows. It returns an error when k < 2 or a class has fewer than k
// rows (a fold would lack it).
func StratifiedFolds(y []bool, k int, rng *rand.Rand) ([]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("gbdt: folds = %d: want at least 2", k)
	}
	if rng == nil {
		return nil, errors.New("gbdt: stratified folds: nil random stream")
	}
	var pos, neg []int
	for i, v := range y {
		if v {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	if len(pos) < k || len(neg) < k {
		return nil, fmt.Errorf("gbdt: %d positive and %d negative rows: need at least %d of each for %d stratified folds",
			len(pos), len(neg), k, k)
	}
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	rng.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	fold := make([]int, len(y))
	for t, r := range append(pos, neg...) {
		fold[r] = t % k
	}
	return fold, nil
}

// OOFResult is the outcome of out-of-fold scoring.
type OOFResult struct {
	// Margins holds, per row, the margin (log-odds of class 1) given by the
	// model trained on the other folds; Sigmoid turns it into a
	// probability (the AUC is the same).
	Margins []float64
	// Fold is each row's fold.
	Fold []int
	// Models are the fold models, model j trained without fold j.
	Models []*Model
}

// OOF scores every row out of fold: k stratified folds from rng
// (StratifiedFolds), then OOFFolds.
func OOF(ctx context.Context, x *mat.Dense, y []bool, k int, p Params, rng *rand.Rand) (*OOFResult, error) {
	fold, err := StratifiedFolds(y, k, rng)
	if err != nil {
		return nil, err
	}
	return OOFFolds(ctx, x, y, fold, p)
}

// OOFFolds trains one model per fold j = 0..k-1 (k = 1 + the largest fold)
// on the rows outside fold j and scores the rows of fold j with it. Up to
// p.Workers folds train at once (each with its share of the workers); each
// model is independent of the worker count, so the margins are too.
func OOFFolds(ctx context.Context, x *mat.Dense, y []bool, fold []int, p Params) (*OOFResult, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("gbdt: %w", err)
	}
	if x == nil {
		return nil, errors.New("gbdt: nil feature matrix")
	}
	n, _ := x.Dims()
	if len(y) != n || len(fold) != n {
		return nil, fmt.Errorf("gbdt: %d rows, %d targets, %d fold numbers: want equal counts", n, len(y), len(fold))
	}
	k := 0
	for i, f := range fold {
		if f < 0 {
			return nil, fmt.Errorf("gbdt: row %d: fold %d: want >= 0", i, f)
		}
		k = max(k, f+1)
	}
	if k < 2 {
		return nil, fmt.Errorf("gbdt: %d fold(s): want at least 2", k)
	}
	test := make([][]int, k)
	for i, f := range fold {
		test[f] = append(test[f], i)
	}
	for j, t := range test {
		if len(t) == 0 {
			return nil, fmt.Errorf("gbdt: fold %d of %d is empty", j, k)
		}
	}

	workers := p.workers()
	conc := min(workers, k)
	inner := p
	inner.Workers = max(1, workers/conc)

	res := &OOFResult{Margins: make([]float64, n), Fold: append([]int(nil), fold...), Models: make([]*Model, k)}
	errs := make([]error, k)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			train := make([]int, 0, n)
			for j := range jobs {
				train = train[:0]
				for i, f := range fold {
					if f != j {
						train = append(train, i)
					}
				}
				m, err := Train(ctx, x, y, train, inner)
				if err != nil {
					errs[j] = fmt.Errorf("fold %d of %d: %w", j, k, err)
					continue
				}
				res.Models[j] = m
				// Folds write disjoint rows of Margins.
				margins := make([]float64, len(test[j]))
				if err := m.MarginRows(x, test[j], margins); err != nil {
					errs[j] = fmt.Errorf("fold %d of %d: %w", j, k, err)
					continue
				}
				for t, r := range test[j] {
					res.Margins[r] = margins[t]
				}
			}
		})
	}
	for j := range k {
		if ctx.Err() != nil {
			break
		}
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("gbdt: out-of-fold scoring: %w", context.Cause(ctx))
	}
	return res, nil
}
