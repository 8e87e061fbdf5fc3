package pulp

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// biasedData is a 2-D data set of 600 positives (a tight cluster at the
// origin, so that the mixture's log-density falls with the distance from
// it) and 3,000 negatives.
func biasedData() *experiments.Data {
	rng := rand.New(rand.NewPCG(5, 5))
	const nPos, nNeg = 600, 3000
	x := mat.NewDense(nPos+nNeg, 2, nil)
	y := make([]bool, nPos+nNeg)
	for i := range nPos + nNeg {
		if i < nPos {
			y[i] = true
			x.Set(i, 0, rng.NormFloat64())
			x.Set(i, 1, rng.NormFloat64())
		} else {
			x.Set(i, 0, 3+rng.NormFloat64())
			x.Set(i, 1, rng.NormFloat64())
		}
	}
	return &experiments.Data{Name: "b", X: x, Y: y, Fingerprint: "b"}
}

func biasedCell(pi float64, labeling, classifier string) *experiments.Cell {
	v := map[string]experiments.AxisValue{
		axisUnlabeledPrior: {Text: strconv.FormatFloat(pi, 'g', -1, 64), Value: pi},
		axisLabeling:       {Text: labeling, Value: labeling},
		"classifier":       {Text: classifier},
	}
	return &experiments.Cell{Dataset: &experiments.DatasetSpec{Name: "b"}, Values: v, ExperimentSeed: 11,
		Seed: experiments.CellSeed(11, "b", v, 0)}
}

// splitInput is what the runner hands the protocol for a cell.
func splitInput(data *experiments.Data, cell *experiments.Cell) experiments.SplitInput {
	s := experiments.CellStreams(cell)
	return experiments.SplitInput{Data: data, Cell: cell, Rand: s.Rand("split"), Streams: s}
}

// The biased-labeling protocol: sizes (|L| = labeled, U = the other
// positives of P and round(200 (1 - pi)/pi) negatives, so U's prior is pi to
// rounding); P and the random L shared by every cell of a data set, the
// negatives nested across pi, the folds shared by the classifiers of a
// (pi, scenario); scenario 1 labels exactly the most representative half
// of P (1 - 1 = the least representative left unlabeled), scenario 2 the
// least; folds stratified by (L, unlabeled positive, negative) to within
// one row.
func TestBiasedLabelingProtocol(t *testing.T) {
	data := biasedData()
	p := DefaultProtocol()
	split := func(pi float64, labeling, classifier string) experiments.Split {
		t.Helper()
		s, err := p.Split(context.Background(), splitInput(data, biasedCell(pi, labeling, classifier)))
		if err != nil {
			t.Fatalf("pi %v %s: %v", pi, labeling, err)
		}
		return s
	}
	rep, err := p.representativeness(context.Background(), data, p.settings())
	if err != nil {
		t.Fatal(err)
	}
	positivesOf := func(s experiments.Split) []int {
		var out []int
		for _, r := range append(slices.Clone(s.Labeled), s.Unlabeled...) {
			if data.Y[r] {
				out = append(out, r)
			}
		}
		return slices.Sorted(slices.Values(out))
	}
	var firstP []int
	var prevNeg map[int]bool
	for _, pi := range []float64{0.9, 0.5, 0.1} { // growing U: nested negatives
		wantNeg := int(math.Round(200 * (1 - pi) / pi))
		negs := map[int]bool{}
		for _, lab := range []string{LabelingRandom, LabelingScenario1, LabelingScenario2} {
			s := split(pi, lab, "a")
			if len(s.Labeled) != 200 || len(s.Unlabeled) != 200+wantNeg || len(s.Folds) != 400+wantNeg {
				t.Fatalf("pi %v %s: |L| %d, |U| %d, folds %d", pi, lab, len(s.Labeled), len(s.Unlabeled), len(s.Folds))
			}
			if other := split(pi, lab, "b"); !slices.Equal(other.Labeled, s.Labeled) || !slices.Equal(other.Unlabeled, s.Unlabeled) || !slices.Equal(other.Folds, s.Folds) {
				t.Errorf("pi %v %s: two classifiers got different splits", pi, lab)
			}
			P := positivesOf(s)
			if firstP == nil {
				firstP = P
			} else if !slices.Equal(P, firstP) {
				t.Errorf("pi %v %s: P differs from the first cell's", pi, lab)
			}
			for _, r := range s.Labeled {
				if !data.Y[r] {
					t.Fatalf("pi %v %s: a negative in L", pi, lab)
				}
			}
			for _, r := range s.Unlabeled {
				if !data.Y[r] {
					negs[r] = true
				}
			}
			// Representativeness: scenario 1 labels the top half of P.
			minL, maxL := math.Inf(1), math.Inf(-1)
			for _, r := range s.Labeled {
				minL, maxL = min(minL, rep[r]), max(maxL, rep[r])
			}
			minU, maxU := math.Inf(1), math.Inf(-1)
			for _, r := range s.Unlabeled {
				if data.Y[r] {
					minU, maxU = min(minU, rep[r]), max(maxU, rep[r])
				}
			}
			switch lab {
			case LabelingScenario1:
				if minL < maxU {
					t.Errorf("pi %v scenario1: an unlabeled positive (%v) is more representative than a labeled one (%v)", pi, maxU, minL)
				}
			case LabelingScenario2:
				if maxL > minU {
					t.Errorf("pi %v scenario2: a labeled positive (%v) is more representative than an unlabeled one (%v)", pi, maxL, minU)
				}
			}
			// Stratified folds: each group spread over the 8 folds to within one row.
			nL, nUP := len(s.Labeled), 0
			for _, r := range s.Unlabeled {
				if data.Y[r] {
					nUP++
				}
			}
			for g, rng := range [][2]int{{0, nL}, {nL, nL + nUP}, {nL + nUP, len(s.Folds)}} {
				count := make([]int, 8)
				for _, f := range s.Folds[rng[0]:rng[1]] {
					count[f]++
				}
				if slices.Max(count)-slices.Min(count) > 1 {
					t.Errorf("pi %v %s: group %d fold sizes %v", pi, lab, g, count)
				}
			}
		}
		if len(negs) != wantNeg {
			t.Errorf("pi %v: the scenarios drew %d distinct negatives, want the same %d", pi, len(negs), wantNeg)
		}
		for r := range prevNeg {
			if !negs[r] {
				t.Errorf("pi %v: negative %d of a larger pi is not drawn", pi, r)
				break
			}
		}
		prevNeg = negs
	}
	// The random L is the same at every pi; the scenarios differ from it.
	r1, r2 := split(0.1, LabelingRandom, "a"), split(0.9, LabelingRandom, "a")
	if !slices.Equal(r1.Labeled, r2.Labeled) {
		t.Errorf("random L differs across pi")
	}
	if s1 := split(0.1, LabelingScenario1, "a"); slices.Equal(s1.Labeled, r1.Labeled) {
		t.Errorf("scenario1 L equals the random L")
	}

	// Errors name what is missing.
	small := &Protocol{Positives: 700, Labeled: 200, Folds: 8, Components: 3, PCA: 0}
	if _, err := small.Split(context.Background(), splitInput(data, biasedCell(0.5, LabelingRandom, "a"))); err == nil || !strings.Contains(err.Error(), "600 positives") {
		t.Errorf("too few positives: %v", err)
	}
	if _, err := p.Split(context.Background(), splitInput(data, biasedCell(0.05, LabelingRandom, "a"))); err == nil || !strings.Contains(err.Error(), "negatives") {
		t.Errorf("too few negatives: %v", err)
	}
	bad := &Protocol{Positives: 10, Labeled: 10, Folds: 1, Components: 0, PCA: -1}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "labeled 10") || !strings.Contains(err.Error(), "folds 1") ||
		!strings.Contains(err.Error(), "components 0") || !strings.Contains(err.Error(), "pca -1") {
		t.Errorf("Validate: %v", err)
	}
}

// The PULP pipeline end to end on generated data (no mirror): the
// biased-labeling protocol, two svm classifiers scoring the protocol's
// folds, and pu-measures. Every cell has per-fold values for the eight
// measures with both label sets; the PU AUC of a fold is that of L vs U and
// the true AUC that of the true labels, both in (0.5, 1] for these
// well-separated classes under random labeling; the two classifiers of a (pi, scenario) saw the
// same rows (equal sizes and alpha). A classifier that cannot score given
// folds (nnet-bag) fails its cells with a message that says so.
func TestBiasedLabelingPipeline(t *testing.T) {
	src := `experiment: pulp-synth
seed: 5
repeats: 1
protocol: {name: biased-labeling, positives: 120, labeled: 60, folds: 4, components: 2, pca: 3}
grid:
  unlabeled-prior: [0.3, 0.7]
  labeling: [random, scenario2]
  classifier:
    - {label: lin, name: svm, kernel: linear}
    - {label: rbf, name: svm, kernel: rbf, unlabeled_weight: 0.1}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 1500, d: 5, positive_fraction: 0.3, separation: 2}
evaluate: pu
metrics: [pu-measures]
`
	d, sum, cfg := plugintest.Run(t, src, plugintest.RunOptions{Workers: 2})
	if sum.Failed != 0 || sum.Ran != 8 {
		t.Fatalf("summary %+v", sum)
	}
	if k := cfg.KernelName(); k != "" {
		t.Errorf("SVMs have no compute kernel, the config says %q (the default nnet-bag's?)", k)
	}
	recs, err := results.ReadRecords(d)
	if err != nil {
		t.Fatal(err)
	}
	alpha := map[string]float64{}
	for _, r := range recs {
		for _, m := range results.PUMeasures {
			for f := 1; f <= 4; f++ {
				for _, set := range []string{results.PU, results.TrueLabels} {
					if _, ok := r.Metrics[m][results.FoldKey(set, f)]; !ok {
						t.Errorf("%s: %s/%s missing", r.Cell, m, results.FoldKey(set, f))
					}
				}
			}
		}
		// (Under scenario 2 the true AUC may well fall below 0.5: L holds the
		// atypical positives, and that is the paper's point.)
		if a := r.Metrics["auc"]; r.Grid["labeling"] == "random" && !(a["pu"] > 0.5 && a["true"] > 0.5 && a["true"] <= 1) {
			t.Errorf("%s: AUC pu %v, true %v", r.Cell, a["pu"], a["true"])
		}
		key := r.Grid["unlabeled-prior"] + "/" + r.Grid["labeling"]
		if prev, ok := alpha[key]; ok && prev != r.Alpha {
			t.Errorf("%s: alpha %v, the other classifier's %v", r.Cell, r.Alpha, prev)
		}
		alpha[key] = r.Alpha
		if want := 60.0 / (60 + math.Round(60*0.7/0.3)); r.Grid["unlabeled-prior"] == "0.3" && math.Abs(r.Alpha-want) > 1e-12 {
			t.Errorf("%s: alpha %v, want %v", r.Cell, r.Alpha, want)
		}
	}

	nnet := strings.Replace(src, "    - {label: lin, name: svm, kernel: linear}\n    - {label: rbf, name: svm, kernel: rbf, unlabeled_weight: 0.1}\n",
		"    - {label: nets, name: nnet-bag, bags: 2}\n", 1)
	d, sum, cfg = plugintest.Run(t, nnet, plugintest.RunOptions{Workers: 1})
	if k := cfg.KernelName(); k == "" {
		t.Errorf("a classifier axis of nnet-bag names no kernel")
	}
	recs, _ = results.ReadRecords(d)
	if sum.Failed != 4 || len(recs) == 0 || !strings.Contains(recs[0].Error, "nnet-bag cannot train on the protocol's cross-validation folds") {
		t.Errorf("nnet-bag with folds: %+v, %v", sum, recs)
	}
}
