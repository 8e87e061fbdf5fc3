package aaai2017

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/classifiers/nnet"
	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// TestSchema1RecordsReproduced reruns aaai2017-smoke.yaml with today's code and
// compares every number of every cell with the records pueval wrote before
// the plug-in layer (testdata/schema1, frozen with both kernels' numerics;
// see its README), read through the schema-1 -> schema-2 key mapping of
// results.UpgradeRecord: identity, seed, sizes, true alpha and beta, the
// estimates, every metric value, status, warnings and kernel must be equal
// bit for bit, and no key may be missing or added. The aucpr measure reads
// the recovered PR curve as those records did (precision eq3, area step;
// today's default reading is another, recovery.DefaultPRCurve).
func TestSchema1RecordsReproduced(t *testing.T) {
	st, names := plugintest.Catalog(t, t.TempDir())
	src, err := Configs.ReadFile("aaai2017-smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const now = "{name: aucpr, outside: [drop, clip], precision: [roc, eq3], area: [trapezoid, step]}"
	const then = "{name: aucpr, outside: [drop, clip], precision: [eq3], area: [step]}"
	if strings.Contains(string(src), "name: aucpr") && !strings.Contains(string(src), now) {
		t.Fatalf("its aucpr line is not %s", now)
	}
	cfg, err := experiments.ParseConfig([]byte(strings.Replace(string(src), now, then, 1)), "aaai2017-smoke.yaml", experiments.LoadOptions{Catalog: names})
	if err != nil {
		t.Fatal(err)
	}
	numerics := "avx512"
	if nnet.KernelNumerics(classifiers.KernelName(cfg.Classifier)) == nnet.NumericsFloat64 {
		numerics = "scalar"
	}
	plugintest.Reproduces(t, cfg, st, filepath.Join("testdata", "schema1", numerics, "aaai2017-smoke"))
}

// A results directory written in schema 1 is continued, not redone: its
// cells count as done, and the finished run rewrites it in schema 2 with
// the same numbers.
func TestContinueSchema1Directory(t *testing.T) {
	st, names := plugintest.Catalog(t, t.TempDir())
	cfg, err := experiments.ReadConfig("aaai2017-smoke", experiments.LoadOptions{Catalog: names})
	if err != nil {
		t.Fatal(err)
	}
	numerics := "avx512"
	if nnet.KernelNumerics(classifiers.KernelName(cfg.Classifier)) == nnet.NumericsFloat64 {
		numerics = "scalar"
	}
	src := filepath.Join("testdata", "schema1", numerics, "aaai2017-smoke")
	dir := t.TempDir()
	for _, f := range []string{results.RecordsFile, results.ManifestFile} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cells, _ := cfg.Cells(experiments.Selection{})
	sum, err := (&experiments.Runner{Config: cfg, Data: st, Workers: 2}).Run(t.Context(), cells, dir)
	if err != nil || sum.Skipped != 18 || sum.Ran != 0 {
		t.Fatalf("continuing a schema-1 directory: %+v %v", sum, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, results.RecordsFile))
	if strings.Count(string(b), `"schema":2,`) != 18 {
		t.Errorf("records not rewritten in schema 2:\n%.300s", b)
	}
	got, _ := results.ReadRecords(dir)
	want, _ := results.ReadRecords(src)
	for i := range want {
		for _, d := range plugintest.RecordDiff(got[i], want[i]) {
			t.Errorf("%s: %s", want[i].Cell, d)
		}
	}
}
