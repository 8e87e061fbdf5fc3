package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// copyDir copies the files of src into a new temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// `pueval report` reads a results directory written before schema 2 (the
// frozen smoke records of papers/PAPER/testdata/schema1): its records
// upgrade on reading and its manifest, which names no report, gets the
// report of the metrics its records hold.
func TestReportSchema1Directory(t *testing.T) {
	for _, c := range []struct{ paper, dir, file, heading string }{
		{"aaai2017", "aaai2017-smoke", "table1.md", "AAAI 2017"},
		{"psb2019", "psb2019-smoke", "psb-table.md", "PSB 2019"},
	} {
		dir := copyDir(t, filepath.Join("..", "papers", c.paper, "testdata", "schema1", "scalar", c.dir))
		if m, err := results.ReadManifest(dir); err != nil || m.Schema != 1 {
			t.Fatalf("%s: not a schema-1 manifest: %+v %v", c.dir, m, err)
		}
		stdout, _, err := runCLI(t, "report", dir)
		if err != nil {
			t.Fatalf("%s: %v", c.dir, err)
		}
		index, err := os.ReadFile(strings.TrimSpace(stdout))
		if err != nil || !strings.Contains(string(index), c.heading) {
			t.Errorf("%s: index %v lacks %q", c.dir, err, c.heading)
		}
		if _, err := os.Stat(filepath.Join(dir, "report", c.file)); err != nil {
			t.Error(err)
		}
	}
}

// `pueval config check` prints the resolved plan: every plug-in with all
// its options, the grid, the report, the number of cells.
func TestConfigCheck(t *testing.T) {
	out, _, err := runCLI(t, "config", "check", "aaai2017-smoke")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"config: papers/aaai2017/aaai2017-smoke.yaml (embedded) (sha256 ",
		"protocol: aaai2017 {labeled: 100, max_unlabeled: 10000}", "grid: beta=1,0.95,0.75",
		"  pima: source uci {", "classifier: nnet-bag {bags: 10, hidden: 5,", "estimators:\n  alphamax-n {knee: ",
		"truths:\n  traditional {\"on\": auto}\n  same-model {\"on\": auto}", "  aucpr {outside: [drop, clip], precision: [roc, eq3], area: [trapezoid, step]}",
		"report: aaai2017", "cells: 18", "\nok\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("config check lacks %q:\n%s", want, out)
		}
	}
	bad := writeFile(t, "bad.yaml", "experiment: x\nprotocol: {name: aaai2017}\ndatasets: [pima]\nmetrics: [auc]\nreport: nope\n")
	if _, _, err := runCLI(t, "config", "check", bad); err == nil || !strings.Contains(err.Error(), `bad.yaml:5: report: unknown report "nope" (known: aaai2017, `) {
		t.Errorf("unknown report: %v", err)
	}
}

// A config of more than a million cells (1,000 betas x 1,001 repeats) is
// refused by config check, run and slurm alike, before a cell is made.
func TestTooManyCells(t *testing.T) {
	betas := make([]string, 1000)
	for i := range betas {
		betas[i] = strconv.FormatFloat(float64(i+1)/1000, 'g', -1, 64)
	}
	cfg := writeFile(t, "big.yaml", "experiment: big\nrepeats: 1001\nprotocol: {name: aaai2017}\ngrid: {beta: ["+strings.Join(betas, ", ")+
		"]}\ndatasets: [{name: g, source: synth-gaussian}]\nmetrics: [auc]\n")
	out := filepath.Join(t.TempDir(), "big")
	for _, args := range [][]string{{"config", "check", cfg}, {"run", cfg, "-o", out}, {"slurm", cfg, "--array", "2", "-o", out}} {
		_, _, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), "big.yaml:2: more than 1000000 cells (data set g alone: 1000 beta x 1001 repeats): a config has at most 1000000 cells") {
			t.Errorf("%s: %v", args[0], err)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was made: %v", out, err)
	}
}

// `pueval run` on a config whose data are generated needs no UCI data.
func TestRunSyntheticConfig(t *testing.T) {
	t.Setenv("PUEVAL_DATA", t.TempDir())
	cfg := writeFile(t, "syn.yaml", `experiment: syn
seed: 1
repeats: 1
protocol: {name: aaai2017, labeled: 100, max_unlabeled: 800}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 1200, d: 3}
classifier: {bags: 4}
metrics: [auc, mcc]
`)
	out := filepath.Join(t.TempDir(), "syn")
	if _, stderr, err := runCLI(t, "run", cfg, "-o", out); err != nil || !strings.Contains(stderr, "3 cells run (0 failed)") {
		t.Fatalf("%v\n%s", err, stderr)
	}
	stdout, _, err := runCLI(t, "report", out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "report", "summary-mcc.md")); err != nil || !strings.Contains(stdout, "index.html") {
		t.Errorf("summary report: %v %q", err, stdout)
	}
}

// Every registered report (this binary registers them all) renders the
// records of a run that holds every built-in measure: its index carries its
// title, and an unknown report name is refused by name.
func TestConformanceReports(t *testing.T) {
	t.Setenv("PUEVAL_DATA", t.TempDir())
	cfg := writeFile(t, "all.yaml", `experiment: all-measures
seed: 2
repeats: 2
protocol: {name: aaai2017, labeled: 100, max_unlabeled: 700}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 1000, d: 3}
classifier: {bags: 4}
truths: [traditional, same-model]
metrics: [auc, aucpr, acc, bacc, f1, mcc]
`)
	dir := filepath.Join(t.TempDir(), "all")
	if _, stderr, err := runCLI(t, "run", cfg, "-o", dir); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	recs, err := results.ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	man, err := results.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range report.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, _ := report.Lookup(name)
			m := man
			m.Report = name
			index, err := report.Write(t.TempDir(), report.Input{Records: recs, Manifest: m})
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(index)
			if err != nil || !strings.Contains(string(b), p.Title) {
				t.Errorf("index %v lacks the title %q", err, p.Title)
			}
		})
	}
	man.Report = "nope"
	if _, err := report.Write(t.TempDir(), report.Input{Records: recs, Manifest: man}); err == nil || !strings.Contains(err.Error(), `unknown report "nope"`) {
		t.Errorf("unknown report: %v", err)
	}
}

// Bad execution settings are refused by name: -j below 1, and a score cache
// that cannot be made, with the flags that avoid it.
func TestRunSettingErrors(t *testing.T) {
	cfg := writeFile(t, "syn.yaml", "experiment: syn\nrepeats: 1\nprotocol: {name: aaai2017, labeled: 50, max_unlabeled: 300}\n"+
		"datasets: [{name: g, source: {name: synth-gaussian, n: 500, d: 2}}]\nclassifier: {bags: 2}\nmetrics: [auc]\n")
	for _, j := range []string{"0", "-3"} {
		if _, _, err := runCLI(t, "run", cfg, "-o", t.TempDir(), "-j", j); err == nil || !strings.Contains(err.Error(), "-j "+j+": want at least 1") {
			t.Errorf("-j %s: %v", j, err)
		}
	}
	// The data cache holds a file where the score cache's directory goes (a
	// read-only cache fails the same way for non-root users).
	data := t.TempDir()
	os.WriteFile(filepath.Join(data, "scores"), []byte("not a directory"), 0o644)
	t.Setenv("PUEVAL_DATA", data)
	_, _, err := runCLI(t, "run", cfg, "-o", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "score cache:") || !strings.Contains(err.Error(), "--no-score-cache runs without it") {
		t.Errorf("unusable score cache: %v", err)
	}
	if _, stderr, err := runCLI(t, "run", cfg, "-o", t.TempDir(), "--no-score-cache"); err != nil {
		t.Errorf("--no-score-cache: %v\n%s", err, stderr)
	}
}

// `pueval reproduce claesen2015-smoke` end to end: every item of the report
// is drawn or says why not, and claims.md has a line per claim. Without
// PUEVAL_CLAESEN_DATA the covtype data set is skipped and the report names
// the reason; with it, Figure 5's panels are drawn.
func TestReproduceClaesenSmoke(t *testing.T) {
	data := os.Getenv("PUEVAL_CLAESEN_DATA")
	for _, withData := range []bool{false, true} {
		if withData && data == "" {
			t.Log("PUEVAL_CLAESEN_DATA is unset: only the run without covtype")
			continue
		}
		if !withData {
			t.Setenv("PUEVAL_CLAESEN_DATA", "")
		} else {
			t.Setenv("PUEVAL_CLAESEN_DATA", data)
		}
		out := filepath.Join(t.TempDir(), "claesen")
		if _, stderr, err := runCLI(t, "reproduce", "claesen2015-smoke", "-o", out, "-j", "2"); err != nil {
			t.Fatalf("with data %v: %v\n%s", withData, err, stderr)
		}
		claims, err := os.ReadFile(filepath.Join(out, "report", "claims.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range []string{"- Fig. 2:", "- Fig. 3 (Lemma 4):", "- Fig. 4:", "- Fig. 5:", "- App. (a):", "- App. (b):", "- App. (c):", "- App. (d):"} {
			if !strings.Contains(string(claims), item) {
				t.Errorf("with data %v: claims.md lacks %q", withData, item)
			}
		}
		for _, f := range []string{"claesen2015-fig1.png", "fig2.png", "fig3.png", "fig4.png", "fig4-inset.md", "app-table1.csv", "app-table2.tex"} {
			if _, err := os.Stat(filepath.Join(out, "report", f)); err != nil {
				t.Errorf("with data %v: %v", withData, err)
			}
		}
		_, err = os.Stat(filepath.Join(out, "report", "fig5-kp0.05.png"))
		if withData && err != nil {
			t.Error(err)
		}
		if !withData && (err == nil || !strings.Contains(string(claims), "covtype: ")) {
			t.Errorf("without data: Figure 5 drawn (%v) or claims.md does not say why covtype is missing:\n%s", err, claims)
		}
	}
}

// `pueval reproduce aul-smoke` end to end (needs the UCI mirror): Table 1,
// Figure 2, the timing table and the claims, with the exact per-split
// identity holding in every split.
func TestReproduceAULSmoke(t *testing.T) {
	if os.Getenv("PUEVAL_UCI_MIRROR") == "" {
		t.Skip("PUEVAL_UCI_MIRROR is unset")
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	out := filepath.Join(t.TempDir(), "aul")
	if _, stderr, err := runCLI(t, "reproduce", "aul-smoke", "-o", out, "-j", "2", "--no-score-cache"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, f := range []string{"table1.md", "table1.csv", "fig2.png", "timing.md", "claims.md"} {
		if _, err := os.Stat(filepath.Join(out, "report", f)); err != nil {
			t.Error(err)
		}
	}
	claims, _ := os.ReadFile(filepath.Join(out, "report", "claims.md"))
	if !strings.Contains(string(claims), "to 1e-9 in 4 of 4 splits") {
		t.Errorf("claims.md:\n%s", claims)
	}
	table, _ := os.ReadFile(filepath.Join(out, "report", "table1.md"))
	for _, col := range []string{"MAE km1", "MAE km2", "MAE distcurve", "MAE alphamax-n", "MAE AUL^PU"} {
		if !strings.Contains(string(table), col) {
			t.Errorf("table1.md lacks %q", col)
		}
	}
}

// `pueval reproduce pulp-smoke` end to end (needs the UCI mirror: 20
// Newsgroups and MNIST retargeted one-vs-rest): every cell runs, the report
// writes Table 1 beside the published values, Figure 2 and the claims, and
// the F1 and Pseudo-F rank correlations coincide (exact here: every
// problem's folds have the same N and t, and Pseudo-F = (N/t) F1 per fold).
func TestReproducePULPSmoke(t *testing.T) {
	if os.Getenv("PUEVAL_UCI_MIRROR") == "" {
		t.Skip("PUEVAL_UCI_MIRROR is unset")
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	out := filepath.Join(t.TempDir(), "pulp")
	_, stderr, err := runCLI(t, "reproduce", "pulp-smoke", "-o", out, "-j", "2", "--no-score-cache")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "24 cells run (0 failed)") {
		t.Errorf("stderr:\n%s", stderr)
	}
	for _, f := range []string{"table1.md", "table1.csv", "fig2.png", "fig2.csv", "claims.md", "index.html"} {
		if _, err := os.Stat(filepath.Join(out, "report", f)); err != nil {
			t.Error(err)
		}
	}
	table, _ := os.ReadFile(filepath.Join(out, "report", "table1.md"))
	if !strings.Contains(string(table), "(0.918, ") || !strings.Contains(string(table), "qualitatively") {
		t.Errorf("table1.md lacks the published values or the protocol note:\n%s", table)
	}
	claims, _ := os.ReadFile(filepath.Join(out, "report", "claims.md"))
	if !strings.Contains(string(claims), "largest difference 0.0000") {
		t.Errorf("claims.md: F1 and Pseudo-F do not coincide:\n%s", claims)
	}
}

// `pueval reproduce pulp-sensitivity-smoke` end to end (needs the UCI
// mirror): every cell runs (2 problems x 3 variants + 1 problem x base, x
// 2 classifiers x 2 priors x 3 labelings = 84), and the report writes the
// sensitivity section (figure, table, numbers and a conclusion) beside
// Table 1, which is the base variant's.
func TestReproducePULPSensitivitySmoke(t *testing.T) {
	if os.Getenv("PUEVAL_UCI_MIRROR") == "" {
		t.Skip("PUEVAL_UCI_MIRROR is unset")
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	out := filepath.Join(t.TempDir(), "pulp-sensitivity")
	_, stderr, err := runCLI(t, "reproduce", "pulp-sensitivity-smoke", "-o", out, "-j", "2", "--no-score-cache")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "84 cells run (0 failed)") {
		t.Errorf("stderr:\n%s", stderr)
	}
	for _, f := range []string{"sensitivity.png", "sensitivity.csv", "sensitivity.md", "table1.md", "claims.md", "index.html"} {
		if _, err := os.Stat(filepath.Join(out, "report", f)); err != nil {
			t.Error(err)
		}
	}
	idx, _ := os.ReadFile(filepath.Join(out, "report", "index.md"))
	for _, want := range []string{"## Sensitivity study", "| labeled rows per fold | labeled-30 |", "| mixture model | representativeness-posterior |", "**Conclusion.**"} {
		if !strings.Contains(string(idx), want) {
			t.Errorf("index.md lacks %q", want)
		}
	}
	// Table 1 reads only the base variant: 3 problems x 2 classifiers.
	if !strings.Contains(string(idx), "Problems (3): 20news-med, 20news-space, mnist-3.") {
		t.Errorf("index.md's records are not the base variant's three problems")
	}
}
