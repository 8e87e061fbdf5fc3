package cli

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/evaluate"
)

// puScoreFile writes a score file of Gaussian scores (positives N(2, 1),
// negatives N(0, 1)) with alpha 0.3 and beta 0.9: nL labeled rows, then nU
// unlabeled, label 1 = labeled.
func puScoreFile(t *testing.T, nL, nU int) string {
	t.Helper()
	s, err := synth.PU(rand.New(rand.NewPCG(11, 12)), synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 0.9, nL, nU)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("score,label\n")
	for _, x := range s.Labeled {
		fmt.Fprintf(&b, "%s,1\n", strconv.FormatFloat(x, 'g', -1, 64))
	}
	for _, x := range s.Unlabeled {
		fmt.Fprintf(&b, "%s,0\n", strconv.FormatFloat(x, 'g', -1, 64))
	}
	return writeFile(t, "scores.csv", b.String())
}

// puFeatureFile writes a feature CSV: two Gaussian classes in 3
// dimensions (synth.Gaussian, separation 2.5), a third of the positives
// labeled (SCAR), with an id column and the true class.
func puFeatureFile(t *testing.T, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(13, 14))
	x, y, err := synth.Gaussian(rng, n, n/3, 3, 2.5)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("id,x1,x2,x3,is_labeled,class\n")
	for i := range n {
		lab := y[i] && rng.IntN(3) == 0
		fmt.Fprintf(&b, "r%d,%.6f,%.6f,%.6f,%d,%d\n", i, x[3*i], x[3*i+1], x[3*i+2], b2i(lab), b2i(y[i]))
	}
	return writeFile(t, "features.csv", b.String())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func decodeEvaluate(t *testing.T, out string) evaluate.Result {
	t.Helper()
	var res evaluate.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return res
}

// On a score file with given alpha and beta, pueval evaluate reports the
// numbers of pueval correct (which the recovery package checks against the
// papers), with bootstrap intervals around them, and the same JSON again
// for the same seed.
func TestEvaluateScoreFileMatchesCorrect(t *testing.T) {
	in := puScoreFile(t, 300, 2000)
	args := []string{"evaluate", "--input", in, "--alpha", "0.3", "--beta", "0.9", "--bootstrap", "50", "--bounds-resamples", "100"}
	out, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	res := decodeEvaluate(t, out)
	cout, _, err := runCLI(t, "correct", "--input", in, "--alpha", "0.3", "--beta", "0.9")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		AUC   struct{ PU, Direct, Indirect float64 }
		AUCPR struct{ PU, Indirect float64 }
		F1    struct{ Recovered, Threshold float64 }
		MCC   struct{ Recovered float64 }
	}
	if err := json.Unmarshal([]byte(cout), &c); err != nil {
		t.Fatal(err)
	}
	m := res.Metrics
	for _, p := range []struct {
		name      string
		got, want float64
	}{
		{"auc.pu", float64(m.AUC.PU), c.AUC.PU}, {"auc.recovered", float64(m.AUC.Recovered), c.AUC.Indirect},
		{"auc.direct", float64(*m.AUC.Direct), c.AUC.Direct}, {"aucpr.recovered", float64(m.AUCPR.Recovered), c.AUCPR.Indirect},
		{"f1.recovered", float64(m.F1.Recovered), c.F1.Recovered}, {"f1.threshold", float64(*m.F1.Threshold), c.F1.Threshold},
		{"mcc.recovered", float64(m.MCC.Recovered), c.MCC.Recovered},
	} {
		if p.got != p.want {
			t.Errorf("%s: evaluate %v, correct %v", p.name, p.got, p.want)
		}
	}
	if res.Schema != evaluate.Schema || res.Scores.Source != "given" || res.Priors.Source != "given" || res.NLabeled != 300 || res.NUnlabeled != 2000 {
		t.Errorf("header %+v %+v", res.Scores, res.Priors)
	}
	for name, iv := range map[string]*evaluate.Interval{"auc": m.AUC.Interval, "f1": m.F1.Interval, "mcc": m.MCC.Interval, "aucpr": m.AUCPR.Interval} {
		if iv == nil || iv.Low > iv.High {
			t.Errorf("%s: interval %v", name, iv)
		}
	}
	if res.Bootstrap == nil || res.Bootstrap.Covers != evaluate.CoversGiven || res.Bootstrap.Used != 50 || res.Bounds == nil || res.Curves.ROC.Band == nil {
		t.Errorf("bootstrap %+v, bounds %v", res.Bootstrap, res.Bounds)
	}
	// The score file holds no features: only the score-reading estimators ran.
	for _, e := range res.Estimators {
		if e.Reads != "scores" {
			t.Errorf("estimator %s reads %s", e.Method, e.Reads)
		}
	}
	again, _, _ := runCLI(t, args...)
	if again != out {
		t.Error("a second run with the same seed gives another JSON")
	}
}

// From features: nnet-bag is trained with out-of-bag scores, km1 and km2 run
// on a subsample, the true numbers come from the truth column, the HTML
// page and the scores are written, and the scores file reads back with
// pueval correct.
func TestEvaluateFeatures(t *testing.T) {
	in := puFeatureFile(t, 1500)
	dir := t.TempDir()
	scores := filepath.Join(dir, "scores.csv")
	html := filepath.Join(dir, "page")
	out, stderr, err := runCLI(t, "evaluate", "--input", in, "--label", "is_labeled", "--truth", "class", "--ignore", "id",
		"--bootstrap", "30", "--km-max-rows", "300", "--bounds-resamples", "100", "--html", html, "--scores-out", scores)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	res := decodeEvaluate(t, out)
	if res.Scores.Source != "trained" || res.Scores.Classifier != "nnet-bag" || !strings.Contains(res.Scores.HeldOut, "out-of-bag") || res.Truth == nil {
		t.Fatalf("scores %+v truth %v", res.Scores, res.Truth)
	}
	var methods []string
	for _, e := range res.Estimators {
		methods = append(methods, e.Method)
	}
	if got := strings.Join(methods, ","); got != strings.Join(evaluate.Applicable(true), ",") {
		t.Errorf("estimators %s, want %v", got, evaluate.Applicable(true))
	}
	for _, f := range []string{"index.html", "roc.png", "roc.svg", "roc.pdf", "pr.png"} {
		if _, err := os.Stat(filepath.Join(html, f)); err != nil {
			t.Error(err)
		}
	}
	page, _ := os.ReadFile(filepath.Join(html, "index.html"))
	for _, want := range []string{"How good is the model?", "alphamax-n", "km2", "What the numbers assume", "roc.png",
		`<th>columns</th><td>label &#34;is_labeled&#34;; truth &#34;class&#34;; features &#34;x1&#34;, &#34;x2&#34;, &#34;x3&#34;; ignored &#34;id&#34;</td>`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page has no %q", want)
		}
	}
	cout, _, err := runCLI(t, "correct", "--input", scores, "--alpha", strconv.FormatFloat(float64(res.Priors.Alpha), 'g', -1, 64),
		"--beta", strconv.FormatFloat(float64(res.Priors.Beta), 'g', -1, 64))
	if err != nil {
		t.Fatalf("correct on --scores-out: %v", err)
	}
	var c struct{ AUC struct{ Indirect float64 } }
	json.Unmarshal([]byte(cout), &c)
	if c.AUC.Indirect != float64(res.Metrics.AUC.Recovered) {
		t.Errorf("correct on the written scores: AUC %v, evaluate %v", c.AUC.Indirect, res.Metrics.AUC.Recovered)
	}
	// The truth column is no feature: the true AUC on U is about the
	// classes' separation (Bayes AUC Phi(2.5/sqrt 2) = 0.96), not 1.
	if tr := float64(res.Truth.AUC); tr > 0.99 || tr < 0.85 {
		t.Errorf("true AUC %v: did the truth column leak into the features?", tr)
	}
}

// The table names every part, and the warnings go to stderr with their
// codes.
func TestEvaluateTable(t *testing.T) {
	n := 200
	var b strings.Builder
	b.WriteString("score,label\n")
	for i := range n {
		fmt.Fprintf(&b, "0.5,%d\n", b2i(i < 50))
	}
	out, stderr, err := runCLI(t, "evaluate", "--input", writeFile(t, "tied.csv", b.String()), "--format", "table", "--bootstrap", "10")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"input", "columns    label \"label\"; score \"score\"\n", "priors", "estimator", "alphamax-n", "max f1", "auc direct"} {
		if !strings.Contains(out, want) {
			t.Errorf("table has no %q:\n%s", want, out)
		}
	}
	for _, code := range []string{evaluate.WarnTiedScores, evaluate.WarnAUCPU, evaluate.WarnEstimatorFailed} {
		if !strings.Contains(stderr, "warning ["+code+"]") {
			t.Errorf("stderr has no %s warning:\n%s", code, stderr)
		}
	}
	if !strings.Contains(out, "unusable") {
		t.Errorf("the table does not say the priors are unusable:\n%s", out)
	}
}

func TestEvaluateErrors(t *testing.T) {
	scores := puScoreFile(t, 50, 200)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "--input is required"},
		{[]string{"--input", scores, "--alpha", "0.3"}, "give both --alpha and --beta"},
		{[]string{"--input", scores, "--alpha", "0.5", "--beta", "0.4"}, "--alpha 0.5 --beta 0.4"},
		{[]string{"--input", scores, "--estimators", "alphamax,nope"}, `unknown class-prior estimator "nope"`},
		{[]string{"--input", scores, "--estimators", "km1"}, "km1 reads the examples' features"},
		{[]string{"--input", scores, "--classifier", "svm"}, `--classifier "svm"`},
		{[]string{"--input", scores, "--level", "2"}, "--level 2"},
		{[]string{"--input", scores, "--bootstrap", "-1"}, "--bootstrap -1"},
		{[]string{"--input", scores, "--outside", "keep"}, `--outside "keep"`},
		{[]string{"--input", scores, "--format", "xml"}, `--format "xml"`},
		{[]string{"--input", scores, "--label", "lab"}, `no label column "lab" in the header (columns: "score", "label"); name it with --label`},
		{[]string{"--input", writeFile(t, "a.csv", "x,y,label\n1,1,1\nNaN,1,0\n")}, `a.csv:3: column "x": "NaN" is not a finite number (if the column is not a feature, name it in --ignore)`},
		{[]string{"--input", writeFile(t, "b.csv", "x,y,label\n1,1,1\n2,1,2\n")}, `b.csv:3: column "label": label "2" is not 0 or 1`},
		{[]string{"--input", writeFile(t, "c.csv", "x,y,label\n1,1,0\n2,1,0\n")}, "0 labeled and 2 unlabeled rows"},
		{[]string{"--input", writeFile(t, "d.csv", "score,label\n1,1\nx,0\n")}, `d.csv:3: column "score": "x"`},
		{[]string{"--input", writeFile(t, "e.csv", "")}, "empty file"},
		{[]string{"--input", writeFile(t, "f.csv", "x,y,label,class\n1,1,1,1\n2,1,0,7\n"), "--truth", "class"}, `f.csv:3: column "class": "7" is not 1 (positive) or 0 (negative)`},
		{[]string{"--input", scores, "extra"}, `unexpected argument "extra"`},
	} {
		_, _, err := runCLI(t, append([]string{"evaluate"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "pueval: evaluate:") {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}

// The help says what the scores must be, which set each number is about
// and what alpha and beta are.
func TestEvaluateHelp(t *testing.T) {
	for cmd, wants := range map[string][]string{
		"evaluate": {"held-out", "higher must mean more positive", "fraction of positives among the unlabeled", "about U", "L and U", "SCAR", "--bootstrap"},
		"correct":  {"held out", "higher must mean more positive", "about U", "--bootstrap"},
		"estimate": {"fraction of positives among the unlabeled", "--method all"},
	} {
		out, _, err := runCLI(t, cmd, "-h")
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("%s -h has no %q", cmd, w)
			}
		}
	}
}

// pueval correct --bootstrap: intervals around the recovered numbers,
// the same for the same seed; with --estimate alpha and beta get intervals
// too.
func TestCorrectBootstrap(t *testing.T) {
	in := puScoreFile(t, 300, 2000)
	args := []string{"correct", "--input", in, "--alpha", "0.3", "--beta", "0.9", "--bootstrap", "40"}
	out, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		AUC       struct{ Direct, Indirect float64 }
		F1        struct{ Recovered float64 }
		Bootstrap *correctBootstrap
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	bs := rep.Bootstrap
	if bs == nil || bs.Used != 40 || bs.ReEstimated || bs.Alpha != nil {
		t.Fatalf("bootstrap %+v", bs)
	}
	holds := func(iv *evaluate.Interval, x float64) bool {
		return iv != nil && float64(iv.Low) <= x && x <= float64(iv.High)
	}
	if !holds(bs.AUC.Indirect, rep.AUC.Indirect) || !holds(bs.F1, rep.F1.Recovered) || !holds(bs.AUC.Direct, rep.AUC.Direct) {
		t.Errorf("intervals %+v %+v around auc %v f1 %v", bs.AUC, bs.F1, rep.AUC, rep.F1)
	}
	if again, _, _ := runCLI(t, args...); again != out {
		t.Error("another output for the same seed")
	}
	out, _, err = runCLI(t, "correct", "--input", in, "--estimate", "alphamax-n", "--bootstrap", "20", "--format", "table")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"estimated again in every resample", "95 % interval", "alpha  ", "max mcc"} {
		if !strings.Contains(out, want) {
			t.Errorf("table has no %q:\n%s", want, out)
		}
	}
	if _, _, err := runCLI(t, "correct", "--input", in, "--alpha", "0.3", "--beta", "0.9", "--bootstrap", "-2"); err == nil || !strings.Contains(err.Error(), "--bootstrap -2") {
		t.Errorf("--bootstrap -2: %v", err)
	}
}

// pueval estimate --method all: the score-reading estimators on a score
// file, km1 and km2 on a feature file, side by side with their agreement.
func TestEstimateAll(t *testing.T) {
	out, _, err := runCLI(t, "estimate", "--method", "all", "--input", puScoreFile(t, 300, 2000))
	if err != nil {
		t.Fatal(err)
	}
	var rep estimateAllReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Methods) != len(evaluate.Applicable(false)) || rep.Agreement == nil || rep.NLabeled != 300 {
		t.Errorf("%d methods, agreement %v", len(rep.Methods), rep.Agreement)
	}
	for _, m := range rep.Methods {
		if m.Method == "stub" {
			continue // correct_test.go's stand-in, which fails outside its test
		}
		if m.Error != "" || !(m.Alpha >= 0 && m.Alpha <= 1) {
			t.Errorf("%s: alpha %v error %q", m.Method, m.Alpha, m.Error)
		}
	}
	out, _, err = runCLI(t, "estimate", "--method", "all", "--input", puFeatureFile(t, 600), "--label", "is_labeled",
		"--ignore", "id,class", "--km-max-rows", "200", "--format", "table")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"km1", "km2", "features", "agreement"} {
		if !strings.Contains(out, want) {
			t.Errorf("table has no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "alphamax") {
		t.Errorf("a score estimator on a file without scores:\n%s", out)
	}
}

// pueval datasets export writes a data set of the catalog as a PU feature
// CSV: Spambase (4,601 rows, 57 features, 1,813 spam) with 30 % of the
// positives labeled is 544 labeled rows (round(0.3 x 1813)), all of them
// spam, and reads back as pueval evaluate's input.
func TestDatasetsExport(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "-o", "x.csv"}, "name one data set"},
		{[]string{"export", "spambase"}, "-o FILE is required"},
		{[]string{"export", "spambase", "-o", "x.csv", "--labeled-fraction", "1"}, "--labeled-fraction 1"},
	} {
		if _, _, err := runCLI(t, append([]string{"datasets"}, c.args...)...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
	if os.Getenv("PUEVAL_UCI_MIRROR") == "" {
		t.Skip("PUEVAL_UCI_MIRROR is unset")
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	out := filepath.Join(t.TempDir(), "spam.csv")
	_, stderr, err := runCLI(t, "datasets", "export", "spambase", "-o", out, "--truth", "class", "--seed", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	head := strings.Split(lines[0], ",")
	if len(lines) != 4602 || len(head) != 59 || head[57] != "label" || head[58] != "class" {
		t.Fatalf("%d lines, header %v", len(lines), head)
	}
	var labeled, spam int
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[57] == "1" {
			labeled++
			if f[58] != "1" {
				t.Fatalf("a labeled row that is not spam: %s", l)
			}
		}
		if f[58] == "1" {
			spam++
		}
	}
	if labeled != 544 || spam != 1813 || !strings.Contains(stderr, "true alpha 0.3128") {
		t.Errorf("%d labeled, %d spam; stderr %s", labeled, spam, stderr)
	}
}
