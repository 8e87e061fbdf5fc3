package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/evaluate"
)

// --threshold T gives accuracy, balanced accuracy, F1 and MCC at T beside
// their best values: the JSON carries evaluate.Run's at_threshold fields
// (the same input read back from the file, the same options), the table a
// row "<measure> at threshold" with the same PU, recovered, interval and,
// with --truth, true values and T in the threshold columns; without
// --threshold neither appears.
func TestEvaluateThreshold(t *testing.T) {
	s, err := synth.PU(rand.New(rand.NewPCG(15, 16)), synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 0.9, 300, 2000)
	if err != nil {
		t.Fatal(err)
	}
	var in evaluate.Input
	var b strings.Builder
	b.WriteString("score,label,class\n")
	add := func(xs []float64, truth []bool, lab bool) {
		for i, x := range xs {
			fmt.Fprintf(&b, "%s,%d,%d\n", strconv.FormatFloat(x, 'g', -1, 64), b2i(lab), b2i(truth[i]))
			in.Scores, in.Labeled, in.Truth = append(in.Scores, x), append(in.Labeled, lab), append(in.Truth, truth[i])
		}
	}
	add(s.Labeled, s.LabeledTruth, true)
	add(s.Unlabeled, s.UnlabeledTruth, false)
	file := writeFile(t, "scores.csv", b.String())
	args := []string{"evaluate", "--input", file, "--truth", "class", "--alpha", "0.3", "--beta", "0.9", "--estimators", "alphamax",
		"--bootstrap", "30", "--bounds-resamples", "0", "--threshold", "1.1"}

	out, _, err := runCLI(t, append(args, "--format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	got := decodeEvaluate(t, out)
	thr := 1.1
	want, err := evaluate.Run(context.Background(), in, evaluate.Options{Priors: &evaluate.GivenPriors{Alpha: 0.3, Beta: 0.9},
		Estimators: []string{"alphamax"}, Bootstrap: 30, Seed: 1, BoundsResamples: -1, Threshold: &thr})
	if err != nil {
		t.Fatal(err)
	}
	for _, me := range recovery.Measures {
		g, w := atOf(&got, me), atOf(want, me)
		if g == nil || w == nil || jsonString(t, g) != jsonString(t, w) {
			t.Errorf("%v: at_threshold %s, want evaluate.Run's %s", me, jsonString(t, g), jsonString(t, w))
		}
	}
	if got.Truth == nil || jsonString(t, got.Truth.AtThreshold) != jsonString(t, want.Truth.AtThreshold) {
		t.Errorf("truth at_threshold %+v, want %+v", got.Truth, want.Truth.AtThreshold)
	}

	table, _, err := runCLI(t, append(args, "--format", "table")...)
	if err != nil {
		t.Fatal(err)
	}
	a, ta := want.Metrics.F1.AtThreshold, want.Truth.AtThreshold
	row := tableRow("f1 at threshold", "L u U", f3(a.PU), f3(a.Recovered), ci(a.Interval), "1.1", "1.1", f3(ta.F1))
	if !strings.Contains(squeeze(table), row) {
		t.Errorf("the table has no row %q:\n%s", row, table)
	}
	for _, name := range []string{"acc at threshold", "bacc at threshold", "mcc at threshold"} {
		if !strings.Contains(table, name) {
			t.Errorf("the table has no %q:\n%s", name, table)
		}
	}

	plain, _, err := runCLI(t, append(args[:len(args)-2], "--format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain, "at_threshold") {
		t.Error("at_threshold in the JSON without --threshold")
	}
}

// A --threshold that is not a finite number is refused, naming the flag.
func TestEvaluateThresholdNotFinite(t *testing.T) {
	scores := puScoreFile(t, 50, 200)
	for _, v := range []string{"NaN", "Inf", "-Inf", "+Inf"} {
		_, _, err := runCLI(t, "evaluate", "--input", scores, "--threshold", v)
		if err == nil || !strings.Contains(err.Error(), "--threshold") || !strings.Contains(err.Error(), "finite") {
			t.Errorf("--threshold %s: error %v, want one naming --threshold and asking for a finite score", v, err)
		}
	}
}

// atOf is a result's AtThreshold of a threshold measure.
func atOf(res *evaluate.Result, me recovery.Measure) *evaluate.AtThreshold {
	m := res.Metrics
	return map[recovery.Measure]*evaluate.AtThreshold{recovery.Accuracy: m.Acc.AtThreshold, recovery.BalancedAccuracy: m.BAcc.AtThreshold,
		recovery.F1: m.F1.AtThreshold, recovery.MCC: m.MCC.AtThreshold}[me]
}

func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tableRow joins a table row's cells as squeeze leaves them.
func tableRow(cells ...string) string { return strings.Join(cells, " ") }

// squeeze collapses every run of spaces of a table into one.
func squeeze(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}
