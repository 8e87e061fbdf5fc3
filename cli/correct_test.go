package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/estimators/classprior"

	"github.com/pueval/pueval/datasets/synth"
)

// The AAAI-2017 Figure 1 data as PU data: label 1 = labeled ({.986, .863,
// .699}, all positive: beta = 1), 0 = unlabeled (one positive in five: alpha =
// 0.2). Every expected number below is computed by hand in
// estimators/recovery.TestAAAIFigure1Hand.
const aaaiFigure1PU = "score,label\n0.986,1\n0.943,0\n0.863,1\n0.789,0\n0.699,1\n0.473,0\n0.211,0\n0.009,0\n"

type correctJSON struct {
	Alpha, Beta, C, Pi float64
	NLabeled           int `json:"n_labeled"`
	NUnlabeled         int `json:"n_unlabeled"`
	Outside            string
	Estimate           *struct {
		Method      string
		Alpha, Beta float64
		Warnings    []string
	}
	AUC                struct{ PU, Direct, Indirect float64 }
	PR                 struct{ PU, Indirect float64 } `json:"aucpr"`
	Acc, BAcc, F1, MCC struct {
		PU, Recovered, Threshold float64
		PUThreshold              float64 `json:"pu_threshold"`
	}
}

func runCorrectJSON(t *testing.T, args ...string) correctJSON {
	t.Helper()
	out, _, err := runCLI(t, append([]string{"correct"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var got correctJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return got
}

// correctNear compares floats that went through JSON and a few operations.
func correctNear(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

func TestCorrectJSON(t *testing.T) {
	in := writeFile(t, "pu.csv", aaaiFigure1PU)
	got := runCorrectJSON(t, "--input", in, "--alpha", "0.2", "--beta", "1")
	if got.Alpha != 0.2 || got.Beta != 1 || got.C != 0.375 || got.Pi != 0.5 || got.NLabeled != 3 || got.NUnlabeled != 5 ||
		got.Outside != "drop" || got.Estimate != nil {
		t.Errorf("header %+v", got)
	}
	// AUC_pu 12/15; Eq. 4 (0.8 - 0.1)/0.8; Algorithm 1 (drop) 65/72. AUC-PR_pu
	// 34/45 (metrics.TestAAAIFigure1); indirect (drop; the PR curve of the
	// recovered ROC curve, trapezoid rule) 11/18 (recovery.TestAAAIFigure1Hand).
	if !correctNear(got.AUC.PU, 0.8) || !correctNear(got.AUC.Direct, 0.875) || !correctNear(got.AUC.Indirect, 65.0/72) ||
		!correctNear(got.PR.PU, 34.0/45) || !correctNear(got.PR.Indirect, 11.0/18) {
		t.Errorf("areas %+v %+v", got.AUC, got.PR)
	}
	for _, c := range []struct {
		name                string
		pu, rec, thr, puThr float64
	}{
		{"acc", 0.75, 7.0 / 8, 0.699, 0.986},
		{"bacc", 0.8, 7.0 / 8, 0.699, 0.699},
		{"f1", 0.75, 8.0 / 9, 0.699, 0.699},
		{"mcc", 0.6, 3 / math.Sqrt(15), 0.699, 0.699},
	} {
		m := map[string]struct {
			PU, Recovered, Threshold float64
			PUThreshold              float64 `json:"pu_threshold"`
		}{"acc": got.Acc, "bacc": got.BAcc, "f1": got.F1, "mcc": got.MCC}[c.name]
		if !correctNear(m.PU, c.pu) || !correctNear(m.Recovered, c.rec) || m.Threshold != c.thr || m.PUThreshold != c.puThr {
			t.Errorf("%s: %+v, want pu %v recovered %v at %v (pu at %v)", c.name, m, c.pu, c.rec, c.thr, c.puThr)
		}
	}
	// Clip: Algorithm 1 keeps .986 as (0, 1/3): AUC 11/12, AUC-PR 7/9.
	clip := runCorrectJSON(t, "--input", in, "--alpha", "0.2", "--beta", "1", "--outside", "clip")
	if clip.Outside != "clip" || !correctNear(clip.AUC.Indirect, 11.0/12) || !correctNear(clip.PR.Indirect, 7.0/9) || clip.AUC.Direct != 0.875 {
		t.Errorf("clip: %+v %+v", clip.AUC, clip.PR)
	}
}

func TestCorrectTable(t *testing.T) {
	out, _, err := runCLI(t, "correct", "--input", writeFile(t, "pu.csv", aaaiFigure1PU), "--alpha", "0.2", "--beta", "1", "--format", "table")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"alpha", "pi", "0.5", "indirect", "0.902778", "max mcc", "0.774597", "0.699", "0.986", "outside      drop"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestCorrectErrors(t *testing.T) {
	in := writeFile(t, "pu.csv", aaaiFigure1PU)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "--input is required"},
		{[]string{"--input", in}, "give --alpha and --beta"},
		{[]string{"--input", in, "--alpha", "0.2"}, "give --alpha and --beta (use --beta 1 for clean labels)"},
		{[]string{"--input", in, "--alpha", "0.2", "--beta", "1", "--estimate", "alphamax-n"}, "not both"},
		{[]string{"--input", in, "--estimate", "alphamax-n"}, "--estimate alphamax-n on " + in + ": only 3 labeled scores: need at least 10"},
		{[]string{"--input", in, "--estimate", "em"}, `--estimate "em": unknown method (want alphamax, alphamax-n, distcurve, stub)`},
		{[]string{"--input", in, "--alpha", "0.2", "--beta", "1", "--outside", "trim"}, `--outside "trim": want drop or clip`},
		{[]string{"--input", in, "--alpha", "0.2", "--beta", "1", "--format", "xml"}, "--format"},
		{[]string{"--input", in, "--alpha", "0.6", "--beta", "0.6"}, "--alpha 0.6 --beta 0.6: recovery: beta - alpha = 0.6 - 0.6 = 0 <= 0"},
		{[]string{"--input", in, "--alpha", "0.2", "--beta", "1.5"}, "beta = 1.5 is not a proportion"},
		{[]string{"--input", "/does/not/exist", "--alpha", "0.2", "--beta", "1"}, "/does/not/exist"},
		{[]string{"--input", writeFile(t, "one.csv", "score,label\n0.5,1\n0.4,1\n"), "--alpha", "0.2", "--beta", "1"}, "one.csv: metrics: 2 positives and 0 negatives"},
	} {
		_, _, err := runCLI(t, append([]string{"correct"}, c.args...)...)
		if err == nil || !strings.HasPrefix(err.Error(), "pueval: correct: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one starting with 'pueval: correct: ' containing %q", c.args, err, c.want)
		}
	}
}

// stubEstimate is what the estimator registered as "stub" returns: a
// stand-in registered in estimators/classprior's registry like any other
// estimator, which shows that runCorrect takes any registered estimator and
// needs no other change.
var stubEstimate func(l, u []float64) (classprior.Estimate, error)

type stubConfig struct{}

func (stubConfig) Name() string                       { return "stub" }
func (stubConfig) Validate() error                    { return nil }
func (stubConfig) Key() string                        { return "stub" }
func (stubConfig) New() (classprior.Estimator, error) { return stubEstimator{}, nil }

type stubEstimator struct{}

func (stubEstimator) Name() string { return "stub" }
func (stubEstimator) Estimate(_ context.Context, in classprior.Input, _ *rand.Rand) (classprior.Estimate, error) {
	if stubEstimate == nil {
		// Outside withEstimator (pueval evaluate and estimate --method all
		// run every registered estimator): an estimator that fails.
		return classprior.Estimate{}, errors.New("stub: no estimate set")
	}
	return stubEstimate(in.Labeled, in.Unlabeled)
}

func init() { classprior.Register("stub", func() classprior.Config { return stubConfig{} }) }

func withEstimator(t *testing.T, fn func(l, u []float64) (classprior.Estimate, error)) {
	t.Helper()
	stubEstimate = fn
	t.Cleanup(func() { stubEstimate = nil })
}

func TestCorrectEstimateHook(t *testing.T) {
	in := writeFile(t, "pu.csv", aaaiFigure1PU)
	var gotL, gotU []float64
	withEstimator(t, func(l, u []float64) (classprior.Estimate, error) {
		gotL, gotU = l, u
		return classprior.Estimate{Alpha: 0.2, Beta: 1, Warnings: []string{"few labeled examples"}}, nil
	})
	out, stderr, err := runCLI(t, "correct", "--input", in, "--estimate", "stub")
	if err != nil {
		t.Fatal(err)
	}
	if len(gotL) != 3 || gotL[0] != 0.986 || len(gotU) != 5 || gotU[0] != 0.943 {
		t.Errorf("estimator got labeled %v, unlabeled %v", gotL, gotU)
	}
	var got correctJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// Same alpha, beta as TestCorrectJSON, so the same numbers.
	if got.Estimate == nil || got.Estimate.Method != "stub" || got.Estimate.Alpha != 0.2 || got.Estimate.Beta != 1 ||
		len(got.Estimate.Warnings) != 1 || got.Alpha != 0.2 || !correctNear(got.AUC.Indirect, 65.0/72) {
		t.Errorf("got %+v, estimate %+v", got, got.Estimate)
	}
	if !strings.Contains(stderr, "warning: stub: few labeled examples") {
		t.Errorf("stderr %q lacks the warning", stderr)
	}
	table, _, err := runCLI(t, "correct", "--input", in, "--estimate", "stub", "--format", "table")
	if err != nil || !strings.Contains(table, "estimate     stub") {
		t.Errorf("table %v:\n%s", err, table)
	}

	// An estimate with beta <= alpha is reported as such, not fixed.
	withEstimator(t, func(l, u []float64) (classprior.Estimate, error) {
		return classprior.Estimate{Alpha: 0.7, Beta: 0.6}, nil
	})
	_, _, err = runCLI(t, "correct", "--input", in, "--estimate", "stub")
	if err == nil || !strings.Contains(err.Error(), "--estimate stub gave alpha 0.7, beta 0.6: recovery: beta - alpha") {
		t.Errorf("error %v", err)
	}
	withEstimator(t, func(l, u []float64) (classprior.Estimate, error) {
		return classprior.Estimate{}, errors.New("constant scores")
	})
	_, _, err = runCLI(t, "correct", "--input", in, "--estimate", "stub")
	if err == nil || !strings.Contains(err.Error(), "--estimate stub on "+in+": constant scores") {
		t.Errorf("error %v", err)
	}
}

// TestCorrectPlot: --plot draws both figures in the three formats, each
// titled with the alpha and beta it recovers with (not a bare
// "Precision-recall").
func TestCorrectPlot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plots")
	in := writeFile(t, "pu.csv", aaaiFigure1PU)
	if _, _, err := runCLI(t, "correct", "--input", in, "--alpha", "0.2", "--beta", "1", "--plot", dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"roc.png", "roc.pdf", "roc.svg", "pr.png", "pr.pdf", "pr.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, f := range []string{"roc.svg", "pr.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !strings.Contains(string(b), "(alpha 0.200, beta 1.000, outside = ") {
			t.Errorf("%s is not titled with alpha and beta (%v)", f, err)
		}
	}
}

// The real AlphaMax-N behind --estimate: scores N(4,1) for positives and N(0,1)
// for negatives, alpha 0.3, beta 1 (synth.PU, exact counts). The estimator's
// study (estimators/classprior doc) gives beta-hat within 0.05 of 1 on such
// well-separated data; the recovered AUC must then be near the population AUC
// Phi(4/sqrt 2) = 0.99766 (synth.GaussianAUC), far above the PU AUC (0.848).
// Near: alpha-hat errs by up to 0.04 on such samples (0.021 on average over
// 20 of them on the rank scale), and at alpha-hat 0.263 (this sample) the
// recovered AUC is 0.975, so within 0.03.
func TestCorrectEstimateAlphaMaxN(t *testing.T) {
	s, err := synth.PU(rand.New(rand.NewPCG(3, 5)), synth.Normal(4, 1), synth.Normal(0, 1), 0.3, 1, 1000, 10000)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("score,label\n")
	for _, x := range s.Labeled {
		fmt.Fprintf(&b, "%.17g,1\n", x)
	}
	for _, x := range s.Unlabeled {
		fmt.Fprintf(&b, "%.17g,0\n", x)
	}
	out, _, err := runCLI(t, "correct", "--input", writeFile(t, "pu.csv", b.String()), "--estimate", "alphamax-n")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Estimate *struct {
			Method      string
			Alpha, Beta float64
		}
		AUC struct{ PU, Indirect float64 }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Estimate == nil || got.Estimate.Method != "alphamax-n" {
		t.Fatalf("no estimate block: %+v", got)
	}
	if math.Abs(got.Estimate.Beta-1) > 0.05 || math.Abs(got.Estimate.Alpha-0.3) > 0.05 {
		t.Errorf("estimate alpha %v beta %v, want near 0.3 and 1", got.Estimate.Alpha, got.Estimate.Beta)
	}
	if want := synth.GaussianAUC(4, 1, 0, 1); math.Abs(got.AUC.Indirect-want) > 0.03 || got.AUC.PU > want-0.1 {
		t.Errorf("AUC pu %v indirect %v, population %v", got.AUC.PU, got.AUC.Indirect, want)
	}
}
