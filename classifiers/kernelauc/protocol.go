package kernelauc

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"
)

// PriorFunc returns the class prior of U given to PU_AUC on one outer fold:
// an MPE estimate computed from the fold's labeled rows L and unlabeled rows
// U (raw features), or trueAlphaU (the fraction of positives among U, known
// to the harness) for an oracle run.
type PriorFunc func(fold int, L, U *mat.Dense, trueAlphaU float64) (float64, error)

// CompareConfig configures CompareOnFolds.
type CompareConfig struct {
	// Beta is the labeled fraction of the training positives, n_L =
	// round(Beta n_P^train); 0 means 0.1 (the paper's Figure 3).
	Beta float64
	// Folds is the number of outer train/test folds (0 means 5).
	Folds int
	// Prior is PU_AUC's prior on every fold when PriorFunc is nil.
	Prior float64
	// PriorFunc, when not nil, gives PU_AUC's prior per fold; its run time
	// is reported apart (CompareFold.TimePrior), not in PU_AUC's fit time.
	PriorFunc PriorFunc
	// Options is passed to both learners.
	Options Options
}

// CompareFold is one outer fold of CompareOnFolds.
type CompareFold struct {
	Fold          int
	NTrain, NTest int
	NL, NU        int     // PU training set: labeled positives, unlabeled rows
	TrueAlphaU    float64 // fraction of positives among the NU rows
	Prior         float64 // the prior PU_AUC was given
	AUCPUAUC      float64 // test AUC (true labels) of PU_AUC
	AUCPUAUL      float64 // test AUC (true labels) of PU_AUL
	TimePUAUC     time.Duration
	TimePUAUL     time.Duration
	TimePrior     time.Duration // PriorFunc's run time (0 without one)
	ModelPUAUC    *Model
	ModelPUAUL    *Model
}

// Comparison is the outcome of CompareOnFolds on one data set.
type Comparison struct {
	Folds []CompareFold
	// AUCPUAUC and AUCPUAUL are the means over folds of the test AUCs.
	AUCPUAUC, AUCPUAUL float64
	// TimePUAUC and TimePUAUL are the summed fit times over folds (each a
	// whole cross-validated fit plus refit; PU_AUC's excludes TimePrior).
	TimePUAUC, TimePUAUL time.Duration
	TimePrior            time.Duration
}

// CompareOnFolds compares PU_AUC and PU_AUL by their held-out AUC (the
// protocol of the AUL paper's Figure 3) on one PN data set:
// X (n x d raw features) with true
// labels y. The rows are split into Folds stratified folds; on each, the
// training rows become a SCAR PU set (n_L = round(Beta n_P) training
// positives drawn without replacement are labeled, every other training
// row is unlabeled), PU_AUC (prior from cfg) and PU_AUL are fitted on it,
// and both are scored by AUC against the true labels of the held-out fold.
//
// The rng draws the fold assignment (positives, then negatives, each a
// permutation) and then two 64-bit seeds per fold; a fold's PCG stream
// draws its labeled rows, and a copy of the stream's state after that is
// given to each learner, so PU_AUC and PU_AUL get the same centres and CV
// folds. Results other than the times depend on the seed only.
func CompareOnFolds(X *mat.Dense, y []bool, cfg CompareConfig, rng *rand.Rand) (*Comparison, error) {
	if X == nil || X.IsEmpty() {
		return nil, errors.New("kernelauc: CompareOnFolds: no rows")
	}
	if rng == nil {
		return nil, errors.New("kernelauc: CompareOnFolds: nil rng")
	}
	n, d := X.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("kernelauc: CompareOnFolds: %d labels for %d rows", len(y), n)
	}
	beta := cfg.Beta
	if beta == 0 {
		beta = 0.1
	}
	if !(beta > 0 && beta <= 1) {
		return nil, fmt.Errorf("kernelauc: CompareOnFolds: Beta %v outside (0, 1]", cfg.Beta)
	}
	k := cfg.Folds
	if k == 0 {
		k = 5
	}
	if k < 2 {
		return nil, fmt.Errorf("kernelauc: CompareOnFolds: Folds = %d, want >= 2", cfg.Folds)
	}
	if cfg.PriorFunc == nil && !(cfg.Prior > 0 && cfg.Prior < 1) {
		return nil, fmt.Errorf("kernelauc: CompareOnFolds: Prior %v outside (0, 1) and no PriorFunc", cfg.Prior)
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
		return nil, fmt.Errorf("kernelauc: CompareOnFolds: %d positives and %d negatives, need >= %d of each", len(pos), len(neg), k)
	}
	// Stratified: each class gets its own assignFolds draw, positives first.
	fold := make([]int, n)
	for _, set := range [][]int{pos, neg} {
		for j, f := range assignFolds(len(set), k, rng) {
			fold[set[j]] = f
		}
	}
	seeds := make([][2]uint64, k)
	for f := range seeds {
		seeds[f] = [2]uint64{rng.Uint64(), rng.Uint64()}
	}
	res := &Comparison{Folds: make([]CompareFold, k)}
	for f := range k {
		r, err := compareFold(X, y, fold, f, d, beta, cfg, seeds[f])
		if err != nil {
			return nil, fmt.Errorf("kernelauc: CompareOnFolds fold %d: %w", f, err)
		}
		res.Folds[f] = r
		res.AUCPUAUC += r.AUCPUAUC / float64(k)
		res.AUCPUAUL += r.AUCPUAUL / float64(k)
		res.TimePUAUC += r.TimePUAUC
		res.TimePUAUL += r.TimePUAUL
		res.TimePrior += r.TimePrior
	}
	return res, nil
}

func compareFold(X *mat.Dense, y []bool, fold []int, f, d int, beta float64, cfg CompareConfig, seed [2]uint64) (CompareFold, error) {
	out := CompareFold{Fold: f}
	var trPos, trNeg, tePos, teNeg []int
	for i, v := range y {
		switch {
		case fold[i] == f && v:
			tePos = append(tePos, i)
		case fold[i] == f:
			teNeg = append(teNeg, i)
		case v:
			trPos = append(trPos, i)
		default:
			trNeg = append(trNeg, i)
		}
	}
	out.NTrain = len(trPos) + len(trNeg)
	out.NTest = len(tePos) + len(teNeg)
	pcg := rand.NewPCG(seed[0], seed[1])
	rng := rand.New(pcg)
	nL := int(math.Round(beta * float64(len(trPos))))
	if nL < 1 {
		return out, fmt.Errorf("round(%g x %d training positives) = 0 labeled rows", beta, len(trPos))
	}
	lab := drawCentres(len(trPos), nL, rng) // nL distinct positions in trPos
	isLab := make([]bool, len(trPos))
	for _, p := range lab {
		isLab[p] = true
	}
	var lRows, uRows []int
	uPos := 0
	for p, i := range trPos {
		if isLab[p] {
			lRows = append(lRows, i)
		} else {
			uRows = append(uRows, i)
			uPos++
		}
	}
	uRows = append(uRows, trNeg...)
	out.NL, out.NU = len(lRows), len(uRows)
	out.TrueAlphaU = float64(uPos) / float64(len(uRows))
	L := gather(X, lRows, d)
	U := gather(X, uRows, d)

	out.Prior = cfg.Prior
	if cfg.PriorFunc != nil {
		t0 := time.Now()
		p, err := cfg.PriorFunc(f, L, U, out.TrueAlphaU)
		out.TimePrior = time.Since(t0)
		if err != nil {
			return out, fmt.Errorf("prior: %w", err)
		}
		out.Prior = p
	}
	state, err := pcg.MarshalBinary()
	if err != nil {
		return out, fmt.Errorf("rng state: %w", err)
	}
	learnerRNG := func() (*rand.Rand, error) {
		var p rand.PCG
		if err := p.UnmarshalBinary(state); err != nil {
			return nil, fmt.Errorf("rng state: %w", err)
		}
		return rand.New(&p), nil
	}
	Xte := gather(X, append(append([]int{}, tePos...), teNeg...), d)

	r1, err := learnerRNG()
	if err != nil {
		return out, err
	}
	t0 := time.Now()
	mAUC, err := FitPUAUC(L, U, out.Prior, cfg.Options, r1)
	out.TimePUAUC = time.Since(t0)
	if err != nil {
		return out, err
	}
	r2, err := learnerRNG()
	if err != nil {
		return out, err
	}
	t0 = time.Now()
	mAUL, err := FitPUAUL(L, U, cfg.Options, r2)
	out.TimePUAUL = time.Since(t0)
	if err != nil {
		return out, err
	}
	out.ModelPUAUC, out.ModelPUAUL = mAUC, mAUL
	for _, c := range []struct {
		m   *Model
		dst *float64
	}{{mAUC, &out.AUCPUAUC}, {mAUL, &out.AUCPUAUL}} {
		s, err := c.m.ScoreAll(Xte)
		if err != nil {
			return out, err
		}
		*c.dst = AUC(s[:len(tePos)], s[len(tePos):])
	}
	return out, nil
}

// gather copies the rows of X listed in rows.
func gather(X *mat.Dense, rows []int, d int) *mat.Dense {
	if len(rows) == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(len(rows), d, nil)
	for r, i := range rows {
		out.SetRow(r, X.RawRowView(i))
	}
	return out
}
