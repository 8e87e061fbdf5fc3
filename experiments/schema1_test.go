package experiments

import (
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/classifiers/nnet"
	"github.com/pueval/pueval/configs"
	"github.com/pueval/pueval/experiments/results"
)

// TestSchema1RecordsReproduced reruns configs/aaai2017-smoke.yaml and
// configs/psb2019-smoke.yaml with today's code and compares every number of
// every cell with the records pueval wrote before the plug-in layer
// (testdata/schema1, frozen from commit a253ee2 with both kernels' numerics;
// see its README), read through the schema-1 -> schema-2 key mapping of
// results.UpgradeRecord: identity, seed, sizes, true alpha and beta, the
// estimates, every metric value, status, warnings and kernel must be equal
// bit for bit, and no key may be missing or added. The aucpr measure reads
// the recovered PR curve as those records did (precision eq3, area step;
// today's default reading is another, recovery.DefaultPRCurve).
func TestSchema1RecordsReproduced(t *testing.T) {
	needMirror(t)
	st, names := openData(t)
	for _, name := range []string{"aaai2017-smoke", "psb2019-smoke"} {
		t.Run(name, func(t *testing.T) {
			src, err := fs.ReadFile(configs.FS, name+".yaml")
			if err != nil {
				t.Fatal(err)
			}
			const now = "{name: aucpr, outside: [drop, clip], precision: [roc, eq3], area: [trapezoid, step]}"
			const then = "{name: aucpr, outside: [drop, clip], precision: [eq3], area: [step]}"
			if strings.Contains(string(src), "name: aucpr") && !strings.Contains(string(src), now) {
				t.Fatalf("%s: its aucpr line is not %s", name, now)
			}
			cfg, err := ParseConfig([]byte(strings.Replace(string(src), now, then, 1)), name+".yaml", LoadOptions{Catalog: names})
			if err != nil {
				t.Fatal(err)
			}
			cells, _ := cfg.Cells(Selection{})
			dir := t.TempDir()
			if _, err := (&Runner{Config: cfg, Data: st, Workers: 2}).Run(t.Context(), cells, dir); err != nil {
				t.Fatal(err)
			}
			got, err := results.ReadRecords(dir)
			if err != nil {
				t.Fatal(err)
			}
			numerics := "avx512"
			if nnet.KernelNumerics(got[0].Kernel) == nnet.NumericsFloat64 {
				numerics = "scalar"
			}
			want, err := results.ReadRecords(filepath.Join("testdata", "schema1", numerics, name))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d records, frozen %d", len(got), len(want))
			}
			for i := range want {
				for _, d := range recordDiff(got[i], want[i]) {
					t.Errorf("%s (kernel %s): %s", want[i].Cell, got[i].Kernel, d)
				}
			}
			// The comparison can fail: one value moved by one ulp is a difference.
			moved := want[0]
			moved.Metrics = map[string]map[string]float64{}
			for m, byKey := range want[0].Metrics {
				moved.Metrics[m] = maps.Clone(byKey)
			}
			for m, byKey := range moved.Metrics {
				byKey[results.PU] = math.Nextafter(byKey[results.PU], 2)
				if len(recordDiff(got[0], moved)) != 1 {
					t.Errorf("a PU value of %s moved by one ulp gives %d differences, want 1", m, len(recordDiff(got[0], moved)))
				}
				break
			}
		})
	}
}

// recordDiff lists the differences between two records, timings and work
// aside (they describe the execution, not the result).
func recordDiff(got, want results.Record) []string {
	var out []string
	diff := func(what string, g, w any) {
		if !reflect.DeepEqual(g, w) {
			out = append(out, fmt.Sprintf("%s: got %v, want %v", what, g, w))
		}
	}
	diff("schema", got.Schema, want.Schema)
	diff("cell", got.Cell, want.Cell)
	diff("dataset", got.Dataset, want.Dataset)
	diff("grid", got.Grid, want.Grid)
	diff("repeat", got.Repeat, want.Repeat)
	diff("seed", got.Seed, want.Seed)
	diff("sizes", got.Sizes, want.Sizes)
	diff("alpha", got.Alpha, want.Alpha)
	diff("beta", got.Beta, want.Beta)
	diff("estimates", got.Estimates, want.Estimates)
	diff("status", got.Status, want.Status)
	diff("error", got.Error, want.Error)
	diff("warnings", got.Warnings, want.Warnings)
	diff("kernel", got.Kernel, want.Kernel)
	diff("metrics", slices.Sorted(maps.Keys(got.Metrics)), slices.Sorted(maps.Keys(want.Metrics)))
	for m, w := range want.Metrics {
		g := got.Metrics[m]
		diff("keys of "+m, slices.Sorted(maps.Keys(g)), slices.Sorted(maps.Keys(w)))
		for k, wv := range w {
			if gv, ok := g[k]; ok && gv != wv {
				out = append(out, fmt.Sprintf("%s/%s: got %v, want %v", m, k, gv, wv))
			}
		}
	}
	return out
}

// A results directory written in schema 1 is continued, not redone: its
// cells count as done, and the finished run rewrites it in schema 2 with
// the same numbers.
func TestContinueSchema1Directory(t *testing.T) {
	needMirror(t)
	st, names := openData(t)
	cfg, err := ReadConfig("aaai2017-smoke", LoadOptions{Catalog: names})
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
	cells, _ := cfg.Cells(Selection{})
	sum, err := (&Runner{Config: cfg, Data: st, Workers: 2}).Run(t.Context(), cells, dir)
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
		for _, d := range recordDiff(got[i], want[i]) {
			t.Errorf("%s: %s", want[i].Cell, d)
		}
	}
}
