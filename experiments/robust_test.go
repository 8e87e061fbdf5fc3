package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"

	"github.com/pueval/pueval/experiments/results"
)

// A results directory belongs to one configuration: a config that differs in
// anything that changes results is refused with both configs named; one
// that differs only in its description, its report or the execution
// settings continues the directory.
func TestChangedConfigRefused(t *testing.T) {
	src := strings.Replace(tinyExperiment, "%s", "metrics: [auc]\nreport: summary", 1)
	out := t.TempDir()
	run := func(src string, sel Selection) (Summary, error) {
		cfg, err := ParseConfig([]byte(src), "ablation.yaml", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cells, _ := cfg.Cells(sel)
		return (&Runner{Config: cfg, Workers: 2}).Run(context.Background(), cells, out)
	}
	if _, err := run(src, Selection{Repeats: 1}); err != nil {
		t.Fatal(err)
	}
	// The refusal names the settings that differ, the directory's first.
	for _, edit := range []struct{ old, new, diff string }{
		{"metrics: [auc]", "metrics: [auc]\nestimators: [{name: alphamax-n, knee: published}]", "estimators: (none) -> alphamax-n"},
		{"bags: 4", "bags: 5", "classifier: bags=4 -> bags=5"},
		{"experiment: conformance", "experiment: other", "experiment: conformance -> other"},
		{"seed: 11", "seed: 12", "seed: 11 -> 12"},
		{"beta: [1, 0.9]", "beta: [1, 0.8]", "grid.beta: 1, 0.9 -> 1, 0.8"},
		{"metrics: [auc]", "metrics: [auc, mcc]", "metrics: auc -> auc, mcc"},
		{"metrics: [auc]", "metrics: [{name: auc, outside: [clip]}]", "metrics.auc: outside=drop,clip -> outside=clip"},
		{"labeled: 60", "labeled: 70", "protocol: labeled=60 -> labeled=70"},
		{"n: 600", "n: 700", "datasets.g.source: n=600 -> n=700"},
		{"seed: 11\nrepeats: 1", "seed: 12\nrepeats: 2", "repeats: 1 -> 2; seed: 11 -> 12"},
	} {
		_, err := run(strings.Replace(src, edit.old, edit.new, 1), Selection{})
		want := "differs in settings that change results (the directory's -> this one's: " + edit.diff + "): run it into another directory (-o)"
		if err == nil || !strings.Contains(err.Error(), "holds the results of another configuration") || !strings.Contains(err.Error(), want) {
			t.Errorf("%q -> %q: %v\nwant %q", edit.old, edit.new, err, want)
		}
	}
	// A manifest written before it kept the settings: the keys alone.
	manPath := filepath.Join(out, results.ManifestFile)
	saved, _ := os.ReadFile(manPath)
	m, _ := results.ReadManifest(out)
	m.Settings = nil
	results.WriteManifest(out, m)
	if _, err := run(strings.Replace(src, "seed: 11", "seed: 12", 1), Selection{}); err == nil || !strings.Contains(err.Error(), "config key ") ||
		!strings.Contains(err.Error(), ") differs in a setting that changes results: run it into another directory (-o)") {
		t.Errorf("manifest without settings: %v", err)
	}
	os.WriteFile(manPath, saved, 0o644)
	// Description, report and the selection are not results.
	same := strings.Replace(src, "report: summary", "report: other\ndescription: a note", 1)
	sum, err := run(same, Selection{})
	if err != nil || sum.Skipped != 2 || sum.Ran != 0 {
		t.Errorf("same science: %+v %v", sum, err)
	}
}

// A cell whose true beta is not above its alpha fails right after its split,
// with the recovery's reason, and trains nothing (PSB-2019's setting excludes
// it; the measures would refuse it after the bag had trained).
func TestBetaNotAboveAlphaFailsBeforeTraining(t *testing.T) {
	src := `experiment: crowded
seed: 1
repeats: 1
protocol: {name: case-control, labeled: 200, max_unlabeled: 2000}
grid: {beta: [1, 0.7]}
datasets:
  - name: mostly-positive
    source: {name: synth-gaussian, n: 3000, d: 3, positive_fraction: 0.85}
classifier: {bags: 4}
metrics: [acc]
`
	d, sum, _ := runYAML(t, src, 1, nil)
	// beta = 1 runs (a bag); beta = 0.7 < alpha ~ 0.85 fails untrained.
	if sum.Ran != 2 || sum.Failed != 1 || sum.Trained != 1 {
		t.Fatalf("summary %+v", sum)
	}
	recs, _ := results.ReadRecords(d)
	f := recs[1]
	if f.Status != results.StatusFailed || !strings.Contains(f.Error, "recovery with the true alpha") ||
		!strings.Contains(f.Error, "<= 0") || f.Work != nil || f.Kernel != "" {
		t.Errorf("failed cell %+v", f)
	}
}

func TestConfigLimits(t *testing.T) {
	base := "experiment: x\nprotocol: {name: case-control}\ndatasets: [{name: g, source: synth-gaussian}]\nmetrics: [auc]\n"
	for _, c := range []struct{ add, want string }{
		{"repeats: 0\n", "c.yaml:5: repeats: 0: want a number of repeats in [1, 1000000] (leave it out for 50)"},
		{"seed: 18446744073709551616\n", `c.yaml:5: seed: "18446744073709551616": want an integer in [0, 18446744073709551615]`},
		{"seed: -1\n", `c.yaml:5: seed: "-1"`},
		{"metrics: [aucpr]\n", "c.yaml:5: metrics: given twice (first on line 4); the first is used"},
		{"classifier: {name: rforest}\n", `c.yaml:5: classifier: unknown classifier "rforest" (known: gbdt, nnet-bag, svm)`},
		// One bad value, one error, showing the value as written.
		{"repeats: two\n", "c.yaml:5: repeats: two: want a number of repeats in [1, 1000000] (leave it out for 50)"},
		{"repeats: [3]\n", "c.yaml:5: repeats: [3]: want a number of repeats in [1, 1000000]"},
		{"repeats: 99999999999999999999\n", "c.yaml:5: repeats: 99999999999999999999: want a number of repeats"},
		{"seed: [1]\n", `c.yaml:5: seed: "[1]": want an integer in [0, 18446744073709551615]`},
		{"seed: {a: 1}\n", `c.yaml:5: seed: "{a: 1}": want an integer`},
	} {
		_, err := ParseConfig([]byte(base+c.add), "c.yaml", LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.add, err, c.want)
		}
		// Only that error: a duplicate key does not make the others look missing.
		if err != nil && len(err.(Errors)) != 1 {
			t.Errorf("%q: %d errors:\n%v", c.add, len(err.(Errors)), err)
		}
	}
	cfg, err := ParseConfig([]byte(base+"seed: 18446744073709551615\n"), "c.yaml", LoadOptions{})
	if err != nil || cfg.Seed != 1<<64-1 || cfg.Repeats != 50 {
		t.Errorf("largest seed: %v %v", cfg, err)
	}
	// A config larger than MaxConfigSize is refused before it is parsed.
	huge := filepath.Join(t.TempDir(), "huge.yaml")
	f, _ := os.Create(huge)
	f.WriteString(base + "description: |\n")
	for range MaxConfigSize / 64 {
		f.WriteString("  " + strings.Repeat("x", 62) + "\n")
	}
	f.Close()
	if _, err := ReadConfig(huge, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "a config is at most 1024 KiB") {
		t.Errorf("huge config: %v", err)
	}
	if _, err := ReadConfig("aaai2018", LoadOptions{}); err == nil || !strings.Contains(err.Error(), "built-in: ") ||
		!strings.Contains(err.Error(), "test-builtin") {
		t.Errorf("unknown built-in config: %v", err)
	}
}

// A bad value is shown as written, on one line, at most maxValueText bytes;
// aliases inside it stay aliases (expanded, a few lines of anchors would
// print a gigabyte).
func TestValueText(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	for l := 'b'; l <= 'h'; l++ {
		fmt.Fprintf(&b, "%c: &%c [%s]\n", l, l, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*%c, ", l-1), 10), ", "))
	}
	b.WriteString("seed: [*h, *h]\nrepeats: *h\nlong: [" + strings.Repeat("123456789, ", 20) + "0]\n")
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	root := doc.Content[0]
	for key, want := range map[string]string{
		"seed":    "[*h, *h]",
		"repeats": "[*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]",
		"long":    ("[" + strings.Repeat("123456789, ", 8))[:maxValueText] + "...",
	} {
		if got := yamlText(takeKey(root, key)); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}

// An experiment's name names its results directory (results/NAME): a name
// that is empty, ".", "..", a path or anything but letters, digits, '.',
// '_' and '-' is refused with one error saying what a name may hold.
func TestExperimentName(t *testing.T) {
	rest := "protocol: {name: case-control}\ndatasets: [{name: g, source: synth-gaussian}]\nmetrics: [auc]\n"
	for _, bad := range []string{`".."`, `"."`, `""`, "~", `"a/b"`, `"../x"`, `'a\b'`, `" x"`, `"-x"`, `".hidden"`, `"a b"`, `"a:b"`,
		strings.Repeat("x", 129)} {
		_, err := ParseConfig([]byte("experiment: "+bad+"\n"+rest), "c.yaml", LoadOptions{})
		var errs Errors
		if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Line != 1 ||
			!(strings.Contains(err.Error(), "want letters, digits, '.', '_' or '-', starting with a letter or a digit, at most 128 bytes") ||
				strings.Contains(err.Error(), "experiment: a name is required")) {
			t.Errorf("experiment: %s: %v", bad, err)
		}
	}
	for _, bad := range []string{"[a]", "{a: 1}"} {
		_, err := ParseConfig([]byte("experiment: "+bad+"\n"+rest), "c.yaml", LoadOptions{})
		if err == nil || len(err.(Errors)) != 1 || !strings.Contains(err.Error(), "c.yaml:1: experiment: "+bad+": want a name") {
			t.Errorf("experiment: %s: %v", bad, err)
		}
	}
	for _, good := range []string{"aaai2017-smoke", "x.1_a", "expérience", "2017", strings.Repeat("x", 128)} {
		cfg, err := ParseConfig([]byte("experiment: "+good+"\n"+rest), "c.yaml", LoadOptions{})
		if err != nil || cfg.Experiment != good {
			t.Errorf("experiment: %s: %v", good, err)
		}
	}
}

// betaGrid is a config whose grid has k betas (0.001, 0.002, ...) and the
// given repeats, on each named data set.
func betaGrid(k, repeats int, datasets ...string) string {
	betas := make([]string, k)
	for i := range betas {
		betas[i] = strconv.FormatFloat(float64(i+1)/float64(k), 'g', -1, 64)
	}
	var ds []string
	for _, d := range datasets {
		ds = append(ds, "{name: "+d+", source: synth-gaussian}")
	}
	return fmt.Sprintf("experiment: many\nprotocol: {name: case-control}\ngrid: {beta: [%s]}\nrepeats: %d\ndatasets: [%s]\nmetrics: [auc]\n",
		strings.Join(betas, ", "), repeats, strings.Join(ds, ", "))
}

// Settings tell configs apart exactly as Key does: two variants of a
// config have the same settings if and only if they have the same key, and
// DiffSettings is empty exactly then.
func TestSettingsFollowKey(t *testing.T) {
	base := strings.Replace(tinyExperiment, "%s", "metrics: [auc]\nestimators: [alphamax-n]\ntruths: [same-model]\nreport: summary", 1)
	variants := []string{base}
	for _, e := range [][2]string{
		{"report: summary", "report: other"}, {"report: summary", "description: x"},
		{"seed: 11", "seed: 12"}, {"repeats: 1", "repeats: 2"}, {"bags: 4", "bags: 5"}, {"beta: [1, 0.9]", "beta: [0.9, 1]"},
		{"grid: {beta: [1, 0.9]}", "grid: {beta: [1, 0.9], labeled: [10]}"}, {"grid: {beta: [1, 0.9]}", "grid: {labeled: [10], beta: [1, 0.9]}"},
		{"estimators: [alphamax-n]", "estimators: [alphamax-n, alphamax]"}, {"estimators: [alphamax-n]", "estimators: [alphamax, alphamax-n]"},
		{"estimators: [alphamax-n]", "estimators: [{name: alphamax-n, as: b}]"}, {"truths: [same-model]", "truths: [traditional]"},
		{"truths: [same-model]", "truths: [{name: same-model, on: all}]"}, {"metrics: [auc]", "metrics: [auc, aucpr]"},
		{"n: 600", "n: 601"}, {"    source:", "    repeats: 3\n    source:"}, {"    source:", "    grid: {beta: [1]}\n    source:"},
		{"    source:", "    labeled: 20\n    source:"}, {"    source:", "    metrics: [mcc]\n    source:"},
		{"experiment: conformance", "experiment: other"}, {"max_unlabeled: 400", "max_unlabeled: 500"},
		{"metrics: [auc]", "metrics: [auc]\nevaluate: supervised"},
		{"grid: {beta: [1, 0.9]}", "grid: {beta: [1, 0.9], classifier: [{label: a, bags: 2}]}"},
		{"grid: {beta: [1, 0.9]}", "grid: {beta: [1, 0.9], classifier: [{label: a, bags: 3}]}"},
		{"grid: {beta: [1, 0.9]}", "grid: {beta: [1, 0.9], classifier: [{label: b, bags: 2}]}"},
	} {
		v := strings.Replace(base, e[0], e[1], 1)
		if v == base {
			t.Fatalf("edit %q did not apply", e[0])
		}
		variants = append(variants, v)
	}
	cfgs := make([]*Config, len(variants))
	for i, v := range variants {
		var err error
		if cfgs[i], err = ParseConfig([]byte(v), "v.yaml", LoadOptions{}); err != nil {
			t.Fatalf("variant %d: %v\n%s", i, err, v)
		}
	}
	for i, a := range cfgs {
		for j, b := range cfgs {
			sameKey := a.KeyHash() == b.KeyHash()
			diff := DiffSettings(a.Settings(), b.Settings())
			if sameKey != reflect.DeepEqual(a.Settings(), b.Settings()) || sameKey != (diff == "") {
				t.Errorf("variants %d and %d: same key %v, settings differ in %q", i, j, sameKey, diff)
			}
		}
	}
}

// DiffSettings names each setting that differs once: of plug-in keys the
// options that differ (JSON fields by their path), an item of a list that
// differs by its list alone, at most maxDiffs of them.
func TestDiffSettings(t *testing.T) {
	old := map[string]string{"seed": "1", "estimators": "a", "estimators.a": `x/v1 {"k":"blend","g":{"n":7,"m":1}}`,
		"classifier": "nnet/v2 bags=4 numerics=f32", "grid.beta": "1, 0.9"}
	new := map[string]string{"seed": "1", "estimators": "a, b", "estimators.a": `x/v1 {"k":"published","g":{"n":0,"m":1}}`, "estimators.b": "y/v1",
		"classifier": "nnet/v2 bags=5", "grid.beta": "1, 0.8"}
	want := `classifier: bags=4 numerics=f32 -> bags=5 numerics=(none); estimators: a -> a, b; estimators.a: g.n=7 k="blend" -> g.n=0 k="published"; grid.beta: 1, 0.9 -> 1, 0.8`
	if got := DiffSettings(old, new); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := DiffSettings(new, new); got != "" {
		t.Errorf("same settings: %q", got)
	}
	many, other := map[string]string{}, map[string]string{}
	for i := range 10 {
		many[strconv.Itoa(i)], other[strconv.Itoa(i)] = "a", "b"
	}
	if got := DiffSettings(many, other); strings.Count(got, "a -> b") != maxDiffs || !strings.HasSuffix(got, "; and 2 more") {
		t.Errorf("ten differences: %s", got)
	}
}

// The cells of a config are counted before they are expanded and refused
// past MaxCells, naming the limit and the factors; a config at the limit
// loads. Counts by hand: 1,000 betas x 1,001 repeats = 1,001,000 cells;
// 1,000 x 1,000 = 1,000,000; two data sets of 1,000 x 600 = 1,200,000.
func TestCellLimit(t *testing.T) {
	_, err := ParseConfig([]byte(betaGrid(1000, 1001, "g")), "c.yaml", LoadOptions{})
	if err == nil || len(err.(Errors)) != 1 || !strings.Contains(err.Error(),
		"c.yaml:4: more than 1000000 cells (data set g alone: 1000 beta x 1001 repeats): a config has at most 1000000 cells") {
		t.Errorf("1,001,000 cells: %v", err)
	}
	_, err = ParseConfig([]byte(betaGrid(1000, 600, "g", "h")), "c.yaml", LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "more than 1000000 cells (2 data sets; the largest, g: 1000 beta x 600 repeats = 600000)") {
		t.Errorf("1,200,000 cells: %v", err)
	}
	cfg, err := ParseConfig([]byte(betaGrid(1000, 1000, "g")), "c.yaml", LoadOptions{})
	if err != nil || cfg.CellCount() != MaxCells {
		t.Fatalf("1,000,000 cells: %v", err)
	}
	// Cells refuses an oversized config it is handed without expanding it.
	cfg.Datasets[0].Repeats = 1001
	if cells, err := cfg.Cells(Selection{Repeats: 1}); err == nil || cells != nil || !strings.Contains(err.Error(), "more than 1000000 cells") {
		t.Errorf("Cells of 1,001,000 cells: %d cells, %v", len(cells), err)
	}
	// The count saturates instead of overflowing.
	for _, c := range [][3]int{{math.MaxInt, 2, MaxCells + 1}, {1 << 32, 1 << 32, MaxCells + 1}, {1000, 1000, 1000000}, {0, math.MaxInt, 0}} {
		if got := cappedMul(c[0], c[1]); got != c[2] {
			t.Errorf("cappedMul(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}

// A paper registers its configs as built-in configs: ReadConfig finds them
// by name from any directory, records where they come from, and lists them
// when a name is unknown.
func init() {
	RegisterConfigs("testdata/builtin", fstest.MapFS{"test-builtin.yaml": &fstest.MapFile{
		Data: []byte("experiment: test-builtin\nprotocol: {name: case-control}\ndatasets: [{name: g, source: synth-gaussian}]\nmetrics: [auc]\n")}})
}

func TestBuiltinConfigs(t *testing.T) {
	for _, name := range []string{"test-builtin", "test-builtin.yaml"} {
		cfg, err := ReadConfig(name, LoadOptions{})
		if err != nil || cfg.Experiment != "test-builtin" || cfg.Dir != "" || cfg.Source != "testdata/builtin/test-builtin.yaml (embedded)" {
			t.Fatalf("%s: %+v %v", name, cfg, err)
		}
		if got, ok := BuiltinName(cfg.Source); !ok || got != "test-builtin" {
			t.Errorf("BuiltinName(%q) = %q, %v", cfg.Source, got, ok)
		}
	}
	if _, ok := BuiltinName("my/test-builtin.yaml"); ok {
		t.Error("a file's path read as a built-in config")
	}
	defer func() {
		if recover() == nil {
			t.Error("a second registration of test-builtin did not panic")
		}
	}()
	RegisterConfigs("elsewhere", fstest.MapFS{"test-builtin.yaml": &fstest.MapFile{Data: []byte("x")}})
}
