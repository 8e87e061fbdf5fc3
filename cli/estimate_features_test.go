package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
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
		if rep.KM == nil || rep.KM.Features != "zscore" {
			t.Fatalf("%s: no km trace of the z-scored run: %+v", c.method, rep.KM)
		}
	}

	// The trace of the published code's run with --features raw, against
	// the independent numpy oracle of estimators/kmpe
	// (testdata/shared_golden.json, case gauss_raw: the chosen width, the
	// RKHS distance and nu2 to 1e-9, nu1 to 1e-4 as there, both lambda*
	// and their bisection midpoints exactly), and the trace's own
	// arithmetic: kappa = (lambda* - 1)/lambda*, the threshold nu delta at
	// every step, above = slope > threshold, 8 steps from [1, 8] to width
	// 7/256 < 0.04.
	raw, err := os.ReadFile(filepath.Join("..", "estimators", "kmpe", "testdata", "shared_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases map[string]struct {
			SigmaIndex       int     `json:"sigma_index"`
			MedianD2         float64 `json:"median_d2"`
			Delta            float64 `json:"delta"`
			Nu1, Nu2         float64
			Lambda1, Lambda2 float64
			Path1, Path2     []struct{ Mid float64 }
		}
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	g := golden.Cases["gauss_raw"]
	out, _, err := runCLI(t, "estimate", "--method", "km1", "--input", in, "--label", "is_labeled", "--features", "raw")
	if err != nil {
		t.Fatal(err)
	}
	var rep estimateReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	km := rep.KM
	if km == nil {
		t.Fatal("no km trace")
	}
	rel := func(a number, b float64) float64 { return math.Abs(float64(a)-b) / math.Abs(b) }
	if km.Features != "raw" || km.NMixture != 400 || km.NComponent != 400 || km.SigmaIndex != g.SigmaIndex ||
		rel(km.MedianD2, g.MedianD2) > 1e-12 || rel(km.Delta, g.Delta) > 1e-9 || rel(km.Nu2, g.Nu2) > 1e-9 ||
		math.Abs(float64(km.Nu1)-g.Nu1) > 1e-4 || float64(km.Lambda1) != g.Lambda1 || float64(km.Lambda2) != g.Lambda2 {
		t.Errorf("km trace %+v, numpy oracle %+v", *km, g)
	}
	if km.Sigma != km.Sigmas[km.SigmaIndex] || km.Delta != km.Deltas[km.SigmaIndex] || km.Delta != slices.Max(km.Deltas) ||
		float64(km.KM1) != (float64(km.Lambda1)-1)/float64(km.Lambda1) || float64(km.KM2) != (float64(km.Lambda2)-1)/float64(km.Lambda2) ||
		rep.Alpha != km.KM1 {
		t.Errorf("km trace inconsistent: %+v (alpha %v)", *km, rep.Alpha)
	}
	for i, c := range []struct {
		path   []kmStep
		want   []struct{ Mid float64 }
		nu     number
		lambda number
	}{{km.Path1, g.Path1, km.Nu2, km.Lambda1}, {km.Path2, g.Path2, km.Nu1, km.Lambda2}} {
		if len(c.path) != 8 || len(c.want) != 8 {
			t.Fatalf("path %d: %d steps, the oracle %d, want 8", i+1, len(c.path), len(c.want))
		}
		lo, hi := 1.0, 8.0
		for k, st := range c.path {
			if float64(st.Mid) != c.want[k].Mid || float64(st.Lo) != lo || float64(st.Hi) != hi ||
				st.Threshold != c.nu*km.Delta || st.Above != (st.Slope > st.Threshold) {
				t.Errorf("path %d step %d: %+v (oracle mid %v, lo %v, hi %v)", i+1, k, st, c.want[k].Mid, lo, hi)
			}
			if st.Above {
				hi = float64(st.Mid)
			} else {
				lo = float64(st.Mid)
			}
		}
		if float64(c.lambda) != (lo+hi)/2 {
			t.Errorf("path %d ends at [%v, %v], lambda* %v", i+1, lo, hi, c.lambda)
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
		{"a,b\n1,2\n", nil, `f.csv:1: no label column "label" in the header (columns: "a", "b"); name it with --label`},
		{"a,label\n1,1\nx,0\n", nil, `:3: column "a": "x" is not a finite number`},
		{"a,label\n1,1\nNaN,0\n", nil, `:3: column "a": "NaN" is not a finite number`},
		{"a,label\n1,2\n", nil, `:2: column "label": label "2" is not 0 or 1 (1: labeled; 0 or empty: unlabeled`},
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

// KM refuses, before allocating, rows whose n x n matrices do not fit in the
// memory available, and the CLI names the flag that lowers them: with a Go
// memory limit 400 MiB above what this test process holds, 6,000 rows
// (about 1.1 GiB by kmpe's count, 33 n^2 bytes) are refused by km1 with the
// --km-max-rows hint, and by --method all in each estimator's error.
func TestKMTooLargeNamesFlag(t *testing.T) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	old := debug.SetMemoryLimit(int64(ms.Sys) + 400<<20)
	defer debug.SetMemoryLimit(old)
	var b strings.Builder
	b.WriteString("x1,x2,label\n")
	for i := range 6000 {
		fmt.Fprintf(&b, "%d.5,%d.25,%d\n", i%97, i%89, i%3/2)
	}
	in := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "estimate", "--method", "km1", "--input", in)
	if err == nil || !strings.Contains(err.Error(), "too many rows for the memory available") || !strings.Contains(err.Error(), "read a random subsample with --km-max-rows ") {
		t.Errorf("km1 on 6,000 rows: %v", err)
	}
	out, _, err := runCLI(t, "estimate", "--method", "all", "--input", in, "--km-max-rows", "6000")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Methods []struct {
			Method, Error string
			MaxRows       *int `json:"max_rows"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, m := range rep.Methods {
		if !strings.Contains(m.Error, "lower --km-max-rows to ") || m.MaxRows == nil || !(*m.MaxRows >= 20 && *m.MaxRows < 6000) {
			t.Errorf("%s: error %q, max_rows %v", m.Method, m.Error, m.MaxRows)
		}
	}
	// Where not even the fewest rows the flag takes fit, the hint says so
	// rather than suggest a value the flag refuses.
	if h := fewerKMRows(5, "lower --km-max-rows to %d"); !strings.Contains(h, "not even 20 rows") {
		t.Errorf("hint for 5 rows: %q", h)
	}
}
