package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runCLI runs pueval with args and returns stdout, stderr and the error.
func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands {
		out, _, err := runCLI(t, c.name, "-h")
		if err != nil || !strings.Contains(out, "Usage: pueval "+c.name) {
			t.Errorf("%s -h: err %v, output %q", c.name, err, out)
		}
	}
	if out, _, err := runCLI(t, "help"); err != nil || !strings.Contains(out, "metrics") {
		t.Errorf("help: %v %q", err, out)
	}
}

func TestErrorsStartWithPueval(t *testing.T) {
	for _, args := range [][]string{
		{}, {"nope"}, {"metrics"}, {"metrics", "--bogus"}, {"metrics", "--input", "/does/not/exist"},
		{"metrics", "--input", "x", "--format", "xml"}, {"version", "extra"},
	} {
		_, _, err := runCLI(t, args...)
		if err == nil || !strings.HasPrefix(err.Error(), "pueval:") {
			t.Errorf("%v: error %v, want one starting with pueval:", args, err)
		}
	}
}

// The AAAI-2017 Figure 1 data with true labels: AUC 15/16 and AP 0.95 by hand
// (see metrics.TestAAAIFigure1); AUL = 4/(2*8) + (4/8)*(15/16) = 0.71875.
const aaaiFigure1 = "score,label\n0.986,1\n0.943,1\n0.863,1\n0.789,0\n0.699,1\n0.473,0\n0.211,0\n0.009,0\n"

func TestMetricsJSON(t *testing.T) {
	out, _, err := runCLI(t, "metrics", "--input", writeFile(t, "s.csv", aaaiFigure1))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		N               int
		NPos            int `json:"n_pos"`
		AUC, AUCPR, AUL float64
		Max             map[string]struct{ Value, Threshold float64 }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.AUC != 0.9375 || got.AUCPR != 0.95 || got.AUL != 0.71875 || got.NPos != 4 || got.N != 8 {
		t.Errorf("got %+v", got)
	}
	if f1 := got.Max["f1"]; f1.Threshold != 0.699 || f1.Value != 8.0/9 {
		t.Errorf("max f1 %+v, want 8/9 at 0.699", f1)
	}
	for _, k := range []string{"acc", "bacc", "mcc"} {
		if _, ok := got.Max[k]; !ok {
			t.Errorf("max.%s missing", k)
		}
	}
}

func TestMetricsInfiniteThreshold(t *testing.T) {
	// One positive ranked last among 9 negatives: predicting nothing positive
	// maximises accuracy, at threshold +Inf, which JSON carries as "+Inf".
	in := "score,label\n0,1\n1,0\n2,0\n3,0\n4,0\n5,0\n6,0\n7,0\n8,0\n9,0\n"
	out, _, err := runCLI(t, "metrics", "--input", writeFile(t, "s.csv", in))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"threshold": "+Inf"`) {
		t.Errorf("want +Inf threshold in\n%s", out)
	}
}

func TestMetricsBadRows(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"score,label\n0.5,1\n0.1,x\n", `s.csv:3: column "label": label "x" is not 0 or 1`},
		{"score,label\n0.5,1\nNaN,0\n", `s.csv:3: column "score": "NaN" is not a finite number`},
		{"score,label\n0.5,1\n0.4,1\n", "positives and 0 negatives"},
	} {
		_, _, err := runCLI(t, "metrics", "--input", writeFile(t, "s.csv", c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "pueval: metrics:") {
			t.Errorf("error %v, want it to contain %q", err, c.want)
		}
	}
}

func TestMetricsTable(t *testing.T) {
	out, _, err := runCLI(t, "metrics", "--input", writeFile(t, "s.csv", aaaiFigure1), "--format", "table", "--pu")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"auc", "0.9375", "max f1", "at score >= 0.699", "pu pulp"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestFigureCommand(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCLI(t, "figure", "aaai2017-fig4", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "aaai2017-fig4.png") || !strings.Contains(out, "note: AAAI-2017 Figure 4") {
		t.Errorf("output:\n%s", out)
	}
	if _, _, err := runCLI(t, "figure", "--out", dir, "psb2019-fig1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "fig1.json")); err != nil {
		t.Error(err)
	}
	if _, _, err := runCLI(t, "figure", "nope", "--out", dir); err == nil || !strings.Contains(err.Error(), "unknown figure") {
		t.Errorf("unknown figure: %v", err)
	}
}

// Main returns the exit status of the command, and the process goes on
// after it: the grace exit after a signal (exitAfterSignal) does not fire
// when the command returned, so a program may call Main and do more.
func TestMainReturnsStatus(t *testing.T) {
	if got := Main([]string{"version"}); got != 0 {
		t.Errorf("version: status %d, want 0", got)
	}
	if got := Main([]string{"nope"}); got != exitError {
		t.Errorf("unknown command: status %d, want %d", got, exitError)
	}
	time.Sleep(signalGrace + 200*time.Millisecond) // the test binary must still be running
}

// pueval reproduce and run list the built-in configs they accept: those the
// imported papers registered (here all five, papers_test.go).
func TestReproduceListsBuiltinConfigs(t *testing.T) {
	out, _, err := runCLI(t, "reproduce", "-h")
	if err != nil || !strings.Contains(out, "aaai2017-smoke") || !strings.Contains(out, "pulp-smoke") {
		t.Errorf("reproduce -h: %v\n%s", err, out)
	}
	_, _, err = runCLI(t, "reproduce")
	if err == nil || !strings.Contains(err.Error(), "psb2019-smoke") || !strings.HasPrefix(err.Error(), "pueval: reproduce: name the paper") {
		t.Errorf("reproduce without a paper: %v", err)
	}
	if out, _, err := runCLI(t, "run", "-h"); err != nil || !strings.Contains(out, "claesen2015-smoke") {
		t.Errorf("run -h: %v\n%s", err, out)
	}
}
