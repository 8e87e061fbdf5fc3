package benchevaluate

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/pueval/pueval/classifiers"
)

// modelKey is the canonical string of a model's options, for the score
// cache: the registry's Key for gbdt and nnet-bag, LogReg.Key for logreg.
func modelKey(name string) (string, error) {
	switch name {
	case ModelLogReg:
		return DefaultLogReg().Key(), nil
	case ModelGBDT, ModelNNet:
		cfg, err := modelConfig(name)
		if err != nil {
			return "", err
		}
		return cfg.Key(), nil
	}
	return "", fmt.Errorf("model %q: want %s, %s or %s", name, ModelLogReg, ModelGBDT, ModelNNet)
}

// modelConfig is a registry classifier with its defaults, on one
// goroutine (the benchmark runs cases in parallel instead; workers never
// change a score).
func modelConfig(name string) (classifiers.Config, error) {
	switch name {
	case ModelGBDT:
		g := classifiers.DefaultGBDT()
		g.Workers = 1
		return &g, nil
	case ModelNNet:
		b := classifiers.DefaultNNetBag()
		b.Workers = 1
		return &b, nil
	}
	return nil, fmt.Errorf("model %q is not a registry classifier", name)
}

// heldOutScores trains the model labeled against unlabeled on the sample
// and returns every row's held-out score: logreg's stratified 5-fold
// out-of-fold probabilities, gbdt's stratified 5-fold out-of-fold scores,
// nnet-bag's out-of-bag scores (100 nets).
func heldOutScores(ctx context.Context, model string, s Sample, seed uint64) ([]float64, error) {
	if model == ModelLogReg {
		return DefaultLogReg().OutOfFold(ctx, s.X, s.Labeled, stream(seed, "folds", ModelLogReg))
	}
	cfg, err := modelConfig(model)
	if err != nil {
		return nil, err
	}
	sc, err := cfg.New()
	if err != nil {
		return nil, err
	}
	r, err := sc.Score(ctx, classifiers.Data{X: s.X, Y: s.Labeled}, seed)
	if err != nil {
		return nil, err
	}
	return r.Scores, nil
}

// Rescale returns the scores on a scale: raw (a copy), logit (log(p/(1-p))
// for p in (0, 1); a score of 0 or 1, which has no finite logit, goes one
// below the smallest or one above the largest finite logit, so the order
// and the ties are kept exactly), or rank (the mid-rank of each score
// divided by n, ties sharing theirs). Every scale orders and ties the rows
// as raw does.
func Rescale(scores []float64, scale string) ([]float64, error) {
	out := slices.Clone(scores)
	switch scale {
	case ScaleRaw:
		return out, nil
	case ScaleLogit:
		return logits(out)
	case ScaleRank:
		return midRanks(out), nil
	}
	return nil, fmt.Errorf("scale %q: want %s, %s or %s", scale, ScaleRaw, ScaleLogit, ScaleRank)
}

// logits maps probabilities in [0, 1] to logits in place. The distinct
// scores are mapped in increasing order, each to its logit or, where
// rounding would make it tie with or fall below the previous one's, to the
// next float above that, so the order and the ties are exactly raw's.
func logits(p []float64) ([]float64, error) {
	for i, v := range p {
		if !(v >= 0 && v <= 1) {
			return nil, fmt.Errorf("logit scale: score %d is %v, not a probability in [0, 1]", i+1, v)
		}
	}
	distinct := slices.Clone(p)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	to := make([]float64, len(distinct))
	for k, v := range distinct {
		switch {
		case v == 0:
			to[k] = math.Inf(-1) // set below
		case v == 1:
			to[k] = math.Inf(1)
		default:
			to[k] = math.Log(v) - math.Log1p(-v)
		}
	}
	lo, hi := 0.0, 0.0
	if finite := slices.DeleteFunc(slices.Clone(to), func(l float64) bool { return math.IsInf(l, 0) }); len(finite) > 0 {
		lo, hi = finite[0]-1, finite[len(finite)-1]+1
	}
	for k := range to {
		switch {
		case math.IsInf(to[k], -1):
			to[k] = lo
		case math.IsInf(to[k], 1):
			to[k] = hi
		}
		if k > 0 && to[k] <= to[k-1] {
			to[k] = math.Nextafter(to[k-1], math.Inf(1))
		}
	}
	for i, v := range p {
		k, _ := slices.BinarySearch(distinct, v)
		p[i] = to[k]
	}
	return p, nil
}

// midRanks replaces every score by its mid-rank over n (the ranks 1..n of
// a group of ties averaged).
func midRanks(s []float64) []float64 {
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case s[a] < s[b]:
			return -1
		case s[a] > s[b]:
			return 1
		}
		return 0
	})
	out := make([]float64, len(s))
	n := float64(len(s))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && s[idx[j]] == s[idx[i]] {
			j++
		}
		mid := (float64(i+1) + float64(j)) / 2
		for _, k := range idx[i:j] {
			out[k] = mid / n
		}
		i = j
	}
	return out
}
