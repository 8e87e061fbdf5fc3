package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
)

// An ablation of a paper's config: the AAAI-2017 smoke config on generated
// data, with its own repeats and classifier. pueval config check, the
// manifest and the report's head name the paper's config it derives from
// and every setting it changed (the smoke config's value first), and the
// head lists every plug-in with its options.
func TestDerivedConfig(t *testing.T) {
	t.Setenv("PUEVAL_DATA", t.TempDir())
	cfg := writeFile(t, "ablation.yaml", `experiment: aaai2017-smoke
seed: 2017
repeats: 1
protocol: {name: aaai2017, labeled: 100, max_unlabeled: 10000}
grid: {beta: [1, 0.95, 0.75]}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 600, d: 3}
classifier: {name: nnet-bag, bags: 3, hidden: 5, max_epochs: 500, max_fail: 25}
estimators: [alphamax-n]
truths: [traditional, same-model]
metrics:
  - {name: auc, outside: [drop, clip]}
  - {name: aucpr, outside: [drop, clip], precision: [roc, eq3], area: [trapezoid, step]}
report: aaai2017
`)
	wantDiffs := []string{"classifier: bags=10 -> bags=3", "datasets: concrete, housing, pima -> g", "repeats: 2 -> 1"}
	out, _, err := runCLI(t, "config", "check", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := "derived from: papers/aaai2017/aaai2017-smoke.yaml (embedded), differing in (its value -> this one's):\n  " +
		strings.Join(wantDiffs, "\n  ") + "\nok\n"; !strings.HasSuffix(out, want) {
		t.Errorf("config check ends\n%s\nwant\n%s", out, want)
	}
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCLI(t, "run", cfg, "-o", dir, "-j", "2"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	man, err := results.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := man.Derived; d == nil || d.Config != "papers/aaai2017/aaai2017-smoke.yaml (embedded)" || !slices.Equal(d.Differences, wantDiffs) {
		t.Errorf("manifest's derivation %+v, want the smoke config and %q", d, wantDiffs)
	}
	if _, stderr, err := runCLI(t, "report", dir); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<tr><th>Derived from</th><td>papers/aaai2017/aaai2017-smoke.yaml (embedded): 3 setting(s) differ",
		"<li>repeats: 2 -&gt; 1</li>", "<tr><th>Protocol</th><td><ul><li>aaai2017/v1 labeled=100 max_unlabeled=10000</li></ul>",
		"<li>alphamax-n: alphamax-n/v2 {", "<li>g: synth-gaussian"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the report's head lacks %q", want)
		}
	}
}
