package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
)

// puFile writes a score file of a synthetic PU sample: clean labels,
// N(4,1) positives vs N(0,1) negatives (well separated), alpha 0.3,
// 300 labeled and 3000 unlabeled scores.
func puFile(t *testing.T) (string, synth.Sample) {
	t.Helper()
	s, err := synth.PU(rand.New(rand.NewPCG(21, 1)), synth.Normal(4, 1), synth.Normal(0, 1), 0.3, 1, 300, 3000)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("score,label\n")
	for _, v := range s.Labeled {
		fmt.Fprintf(&b, "%v,1\n", v)
	}
	for _, v := range s.Unlabeled {
		fmt.Fprintf(&b, "%v,0\n", v)
	}
	return writeFile(t, "pu.csv", b.String()), s
}

func TestEstimateJSON(t *testing.T) {
	in, s := puFile(t)
	curve := filepath.Join(t.TempDir(), "curve.csv")
	out, _, err := runCLI(t, "estimate", "--input", in, "--curve", curve)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Method, Scale, Knee string
		Alpha, Beta         float64
		NLabeled            int `json:"n_labeled"`
		NUnlabeled          int `json:"n_unlabeled"`
		Runs                []struct {
			Curve    string
			Estimate float64
			Drop     *float64
		}
		Warnings []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// Defaults: AlphaMax-N on the rank scale with the drop rule; on
	// well-separated clean data beta-hat is near 1 and alpha-hat near the
	// truth (classprior's study).
	if got.Method != "alphamax-n" || got.Scale != "rank" || got.Knee != "drop" || got.NLabeled != 300 || got.NUnlabeled != 3000 {
		t.Errorf("header fields %+v", got)
	}
	if math.Abs(got.Beta-1) > 0.05 || math.Abs(got.Alpha-s.Alpha) > 0.05 {
		t.Errorf("alpha %v (true %v), beta %v (true 1)", got.Alpha, s.Alpha, got.Beta)
	}
	if len(got.Runs) != 2 || got.Runs[0].Curve != "unlabeled" || got.Runs[1].Curve != "labeled" || got.Runs[0].Drop == nil {
		t.Errorf("runs %+v", got.Runs)
	}
	if got.Warnings == nil || !strings.Contains(out, `"warnings": [`) {
		t.Errorf("warnings must be a list:\n%s", out)
	}
	// The curve file: header, then one row per grid point (106 by default)
	// and run, log-likelihood non-increasing in alpha within a run.
	f, err := os.Open(curve)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "alpha,loglik,run" || len(rows) != 1+2*106 {
		t.Fatalf("curve file: header %v, %d rows", rows[0], len(rows))
	}
	prev := map[string]float64{}
	for _, r := range rows[1:] {
		ll, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := prev[r[2]]; ok && ll > p {
			t.Errorf("run %s: loglik rises to %v at alpha %s", r[2], ll, r[0])
		}
		prev[r[2]] = ll
	}
}

func TestEstimateTableAndKnees(t *testing.T) {
	in, _ := puFile(t)
	out, _, err := runCLI(t, "estimate", "--input", in, "--method", "alphamax", "--knee", "published", "--format", "table")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"method", "alphamax", "knee", "published", "alpha", "beta", "1", "run unlabeled"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "run labeled") {
		t.Errorf("clean AlphaMax has one run:\n%s", out)
	}
	curve := filepath.Join(t.TempDir(), "c.csv")
	if _, _, err := runCLI(t, "estimate", "--input", in, "--method", "alphamax", "--knee", "fixed", "--curve", curve); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(curve)
	if n := strings.Count(string(b), "\n"); n != 1+99 { // published grid 0.01..0.99, one run
		t.Errorf("fixed-knee alphamax curve has %d lines, want 100", n)
	}
}

func TestEstimateErrors(t *testing.T) {
	in, _ := puFile(t)
	few := writeFile(t, "few.csv", "score,label\n0.9,1\n0.8,1\n0.1,0\n0.2,0\n0.3,0\n0.4,0\n0.5,0\n0.6,0\n0.7,0\n0.75,0\n0.85,0\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"estimate"}, "--input is required"},
		{[]string{"estimate", "--input", in, "--method", "kde"}, `--method "kde"`},
		{[]string{"estimate", "--input", in, "--knee", "elbow"}, `--knee "elbow"`},
		{[]string{"estimate", "--input", in, "--scale", "log"}, `--scale "log": want one of raw, rank`},
		{[]string{"estimate", "--input", in, "--method", "distcurve", "--scale", "raw"}, "--scale: --method distcurve does not read it"},
		{[]string{"estimate", "--input", in, "--format", "xml"}, `--format "xml"`},
		{[]string{"estimate", "--input", few}, "only 2 labeled scores: need at least 10"},
		{[]string{"estimate", "--input", in, "--curve", filepath.Join(t.TempDir(), "no", "such", "dir.csv")}, "--curve"},
		{[]string{"estimate", "--input", in, "extra"}, `unexpected argument "extra"`},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !strings.HasPrefix(err.Error(), "pueval: estimate:") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}

// TestEstimateScale: by default the same scores given as probabilities and
// as logits give the same estimate, to the bit (the rank scale); with
// --scale raw they do not, and the knee rule is then blend. The
// probabilities are Beta(5,2) positives against Beta(2,5) negatives,
// alpha 0.3, beta 0.9 (synth.PU), written with 17 digits so that the
// logits keep their order.
func TestEstimateScale(t *testing.T) {
	s, err := synth.PU(rand.New(rand.NewPCG(8, 1)), synth.Beta(5, 2), synth.Beta(2, 5), 0.3, 0.9, 500, 5000)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, f func(float64) float64) string {
		var b strings.Builder
		b.WriteString("score,label\n")
		for _, v := range s.Labeled {
			fmt.Fprintf(&b, "%.17g,1\n", f(v))
		}
		for _, v := range s.Unlabeled {
			fmt.Fprintf(&b, "%.17g,0\n", f(v))
		}
		return writeFile(t, name, b.String())
	}
	prob := write("prob.csv", func(p float64) float64 { return p })
	logit := write("logit.csv", func(p float64) float64 { return math.Log(p) - math.Log1p(-p) })
	type report struct {
		Scale, Knee string
		Alpha, Beta float64
	}
	run := func(args ...string) report {
		out, _, err := runCLI(t, append([]string{"estimate"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	p, l := run("--input", prob), run("--input", logit)
	if p != l || p.Scale != "rank" || p.Knee != "drop" {
		t.Errorf("rank scale: probabilities %+v, logits %+v; want equal, scale rank, knee drop", p, l)
	}
	pr, lr := run("--input", prob, "--scale", "raw"), run("--input", logit, "--scale", "raw")
	if pr == lr || pr.Knee != "blend" {
		t.Errorf("raw scale: probabilities %+v, logits %+v; want different estimates, knee blend", pr, lr)
	}
	if math.Abs(p.Alpha-s.Alpha) > 0.05 || math.Abs(p.Beta-s.Beta) > 0.05 {
		t.Errorf("rank scale estimate (%v, %v), truth (%v, %v)", p.Alpha, p.Beta, s.Alpha, s.Beta)
	}
}
