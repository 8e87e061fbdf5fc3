package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// `pueval estimate --method km2` on the shared Gaussian input (mixture 240
// rows N(0, I) + 160 rows N((2,2), I), kappa* = 0.4): 0.4202, the value
// estimators/kmpe's tests hold against the numpy reference
// (testdata/shared_golden.json there); KM1 0.3912.
func TestEstimateKMSharedGaussian(t *testing.T) {
	dir := os.Getenv("PUEVAL_AUL_DATA")
	if dir == "" {
		t.Skip("PUEVAL_AUL_DATA is unset")
	}
	var b strings.Builder
	b.WriteString("x1,x2,is_labeled\n")
	for _, f := range []struct{ name, label string }{{"gauss_mixture.csv", "0"}, {"gauss_component.csv", "1"}} {
		raw, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			b.WriteString(strings.TrimSpace(line) + "," + f.label + "\n")
		}
	}
	in := writeFile(t, "gauss.csv", b.String())
	for _, c := range []struct {
		method string
		want   float64
	}{{"km2", 0.4202}, {"km1", 0.3912}} {
		out, _, err := runCLI(t, "estimate", "--method", c.method, "--input", in, "--label", "is_labeled")
		if err != nil {
			t.Fatal(err)
		}
		var rep estimateReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if math.Abs(float64(rep.Alpha)-c.want) > 5e-5 || rep.NLabeled != 400 || rep.NUnlabeled != 400 || rep.Beta != 1 {
			t.Errorf("%s: %+v, want alpha %v", c.method, rep, c.want)
		}
	}
}

// Feature files refused by name: no label column, a bad value with its
// line and column, no labeled rows, an unknown scaling.
func TestEstimateKMErrors(t *testing.T) {
	for _, c := range []struct {
		body string
		args []string
		want string
	}{
		{"a,b\n1,2\n", nil, `no column "label" in the header (columns: a, b)`},
		{"a,label\n1,1\nx,0\n", nil, `:3: column "a": "x" is not a finite number`},
		{"a,label\n1,1\nNaN,0\n", nil, `:3: column "a": "NaN" is not a finite number`},
		{"a,label\n1,2\n", nil, `:2: column "label": label "2": want 1 (labeled) or 0 (unlabeled)`},
		{"a,label\n1,0\n2,0\n", nil, "0 labeled and 2 unlabeled rows"},
		{"a,label\n1,1\n2,0\n", []string{"--features", "log"}, `--features "log"`},
	} {
		in := writeFile(t, "f.csv", c.body)
		_, _, err := runCLI(t, append([]string{"estimate", "--method", "km1", "--input", in}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %v: error %v, want %q", c.body, c.args, err, c.want)
		}
	}
}

// `pueval estimate --method distcurve` on a score file: the same estimate
// for the same seed, in [0, 1].
func TestEstimateDistCurve(t *testing.T) {
	var b strings.Builder
	b.WriteString("score,label\n")
	for i := range 600 {
		l := "0"
		s := float64(i%97) / 97
		if i%3 == 0 {
			l, s = "1", 0.5+float64(i%89)/178
		}
		b.WriteString(strconv.FormatFloat(s, 'g', -1, 64) + "," + l + "\n")
	}
	in := writeFile(t, "s.csv", b.String())
	a, _, err := runCLI(t, "estimate", "--method", "distcurve", "--input", in, "--seed", "3")
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := runCLI(t, "estimate", "--method", "distcurve", "--input", in, "--seed", "3")
	var rep estimateReport
	if err := json.Unmarshal([]byte(a), &rep); err != nil || a != again || rep.Alpha < 0 || rep.Alpha > 1 || rep.Method != "distcurve" {
		t.Errorf("%v %q vs %q", err, a, again)
	}
}
