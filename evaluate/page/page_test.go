package page

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/evaluate"
)

// The page holds every part, with text from the input escaped, and its
// figures exist in the three formats; a result without recovered numbers
// (tied scores) draws too.
func TestWrite(t *testing.T) {
	s, err := synth.PU(rand.New(rand.NewPCG(1, 1)), synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 0.9, 300, 2000)
	if err != nil {
		t.Fatal(err)
	}
	scores := append(append([]float64{}, s.Labeled...), s.Unlabeled...)
	labeled := make([]bool, len(scores))
	for i := range s.Labeled {
		labeled[i] = true
	}
	tied := make([]float64, len(scores))
	for _, c := range []struct {
		name   string
		scores []float64
		wants  []string
	}{
		{"scores", scores, []string{"How good the model is", "Estimators of alpha and beta", "alphamax-n", "Bounds", "What the numbers assume", "bootstrap band", "&lt;b&gt;"}},
		{"tied", tied, []string{"tied-scores", "unusable"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := evaluate.Run(context.Background(), evaluate.Input{Scores: c.scores, Labeled: labeled}, evaluate.Options{Bootstrap: 20, BoundsResamples: 100})
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "page")
			if err := Write(dir, res, Meta{Input: "<b>scores.csv", Command: "pueval evaluate"}); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			for _, w := range c.wants {
				if !strings.Contains(page, w) {
					t.Errorf("the page has no %q", w)
				}
			}
			if strings.Contains(page, "<b>scores.csv") {
				t.Error("the input's name is not escaped")
			}
			for _, f := range []string{"roc.png", "roc.pdf", "roc.svg", "pr.png", "pr.pdf", "pr.svg"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// Given the true classes, the page shows the true alpha and beta, the true
// numbers and the true curves on U, and every curve says which rows it is
// about: the bounds are on L u U, not on the unlabeled set the recovered
// curve is about.
func TestWriteWithTruth(t *testing.T) {
	s, err := synth.PU(rand.New(rand.NewPCG(2, 2)), synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 0.9, 300, 2000)
	if err != nil {
		t.Fatal(err)
	}
	scores := append(append([]float64{}, s.Labeled...), s.Unlabeled...)
	truth := append(append([]bool{}, s.LabeledTruth...), s.UnlabeledTruth...)
	labeled := make([]bool, len(scores))
	for i := range s.Labeled {
		labeled[i] = true
	}
	res, err := evaluate.Run(context.Background(), evaluate.Input{Scores: scores, Labeled: labeled, Truth: truth}, evaluate.Options{BoundsResamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Curves.ROC.Truth) < 2 || len(res.Curves.PR.Truth) < 2 {
		t.Fatalf("no true curves: %d and %d points", len(res.Curves.ROC.Truth), len(res.Curves.PR.Truth))
	}
	dir := filepath.Join(t.TempDir(), "page")
	if err := Write(dir, res, Meta{Input: "scores.csv", Command: "pueval evaluate"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "roc.svg"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, w := range []string{"from the true classes given with the input: alpha", "<th>truth</th>", "the true curve on the unlabeled set"} {
		if !strings.Contains(page, w) {
			t.Errorf("the page has no %q", w)
		}
	}
	for _, w := range []string{"true, on U", "recovered, on U", "on L and U", "PU: L against U"} {
		if !strings.Contains(string(svg), w) {
			t.Errorf("the ROC figure has no %q", w)
		}
	}
	if strings.Contains(string(svg), "ROC on the unlabeled set") {
		t.Error("the ROC figure is titled as if every curve were on the unlabeled set")
	}
}

// With a threshold of the caller's, the table of numbers has a row for
// each threshold measure at it: the PU and recovered values, the interval,
// the threshold and, given the true classes, the true value, as the result
// holds them.
func TestWriteAtThreshold(t *testing.T) {
	s, err := synth.PU(rand.New(rand.NewPCG(3, 3)), synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 0.9, 300, 2000)
	if err != nil {
		t.Fatal(err)
	}
	scores := append(append([]float64{}, s.Labeled...), s.Unlabeled...)
	truth := append(append([]bool{}, s.LabeledTruth...), s.UnlabeledTruth...)
	labeled := make([]bool, len(scores))
	for i := range s.Labeled {
		labeled[i] = true
	}
	thr := 1.25
	res, err := evaluate.Run(context.Background(), evaluate.Input{Scores: scores, Labeled: labeled, Truth: truth},
		evaluate.Options{Priors: &evaluate.GivenPriors{Alpha: 0.3, Beta: 0.9}, Threshold: &thr, Bootstrap: 20, Estimators: []string{"alphamax"}, BoundsResamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "page")
	if err := Write(dir, res, Meta{Input: "scores.csv", Command: "pueval evaluate --threshold 1.25"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	a, ta := res.Metrics.F1.AtThreshold, res.Truth.AtThreshold
	want := "<tr><td>F1 at your threshold</td><td>L &cup; U (all)</td><td>" + f3(a.PU) + "</td><td><b>" + f3(a.Recovered) + "</b></td><td>" +
		ci(a.Interval) + "</td><td>1.25</td><td>1.25</td><td>" + f3(ta.F1) + "</td></tr>"
	if !strings.Contains(page, want) {
		t.Errorf("the page has no row %q", want)
	}
	for _, w := range []string{"accuracy at your threshold", "balanced accuracy at your threshold", "MCC at your threshold"} {
		if !strings.Contains(page, w) {
			t.Errorf("the page has no %q", w)
		}
	}
}
