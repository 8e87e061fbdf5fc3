package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseConfig: any input gives a config or errors, never a panic; every
// error names the file; a config that loads has a protocol, data sets and
// measures for each, and expands into cells.
func FuzzParseConfig(f *testing.F) {
	for _, name := range []string{"smoke.yaml", "smoke-threshold.yaml"} {
		b, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(b)
	}
	f.Add([]byte(syntheticAAAI))
	f.Add([]byte("experiment: x\nprotocol: case-control\ngrid: {classifier: [{label: a, bags: 2}], beta: [0.5]}\ndatasets: [{name: r, source: {name: synth-scores}}]\nmetrics: [acc]\n"))
	// Names that would write outside results/, one bad value that once gave
	// two errors, values that once printed as empty.
	for _, head := range []string{`experiment: ".."`, `experiment: "."`, `experiment: [a]`, "experiment: x\nrepeats: two", "experiment: x\nseed: [1]"} {
		f.Add([]byte(head + "\nprotocol: case-control\ndatasets: [{name: g, source: synth-gaussian, repeats: {a: 1}}]\nmetrics: [auc]\n"))
	}
	// A value of nested aliases: shown as written, not expanded.
	f.Add([]byte("experiment: x\na: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nseed: [*c, *c]\nrepeats: *c\n" +
		"protocol: case-control\ndatasets: [{name: g, source: synth-gaussian}]\nmetrics: [auc]\n"))
	// More cells than MaxCells: refused before they are expanded.
	f.Add([]byte(betaGrid(1000, 1001, "g")))
	// An ablation of a built-in config (TestDerivation's): it names the
	// config it derives from and what it changed.
	f.Add([]byte(strings.Replace(deriveFull, "repeats: 20", "repeats: 3", 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(data, "fuzz.yaml", LoadOptions{})
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Errorf("error without the file name: %v", err)
			}
			return
		}
		if cfg.Protocol == nil || len(cfg.Datasets) == 0 || cfg.Classifier == nil {
			t.Fatalf("loaded a config without its parts: %+v", cfg)
		}
		// Measures: the config's, or each data set's own.
		for _, d := range cfg.Datasets {
			if len(d.Metrics) == 0 {
				t.Fatalf("loaded data set %s without measures: %+v", d.Name, cfg)
			}
		}
		if d := cfg.Derivation(); d != nil && (d.Config == "" || d.Differences == nil) {
			t.Errorf("derivation without its config or differences: %+v", d)
		}
		points := len(cfg.Grid.points())
		if points*len(cfg.Datasets) > 10000 {
			return
		}
		if _, err := cfg.Cells(Selection{Repeats: 1}); err != nil {
			t.Errorf("cells: %v", err)
		}
	})
}
