package report

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pueval/pueval/experiments/results"
)

// TestFactsSection: the head of the page gives the run's facts from the
// manifest (escaped), with the dates in UTC, and from the records what the
// manifest lacks; Write puts it before the paper's sections.
func TestFactsSection(t *testing.T) {
	start := time.Date(2026, 11, 23, 19, 46, 46, 0, time.UTC)
	end := start.Add(15*time.Minute + 12*time.Second)
	recs := []results.Record{
		{Experiment: "e", Cell: "a/1", Dataset: "a", Status: results.StatusOK, Kernel: "avx512"},
		{Experiment: "e", Cell: "a/2", Dataset: "a", Status: results.StatusFailed, Kernel: "avx512"},
	}
	m := results.Manifest{Schema: results.SchemaVersion, Report: "test-paper", Experiment: "e", Config: "configs/e.yaml",
		CodeVersion: "7e42349", GoVersion: "go1.26.8", Kernel: "avx512", Started: start, Finished: &end,
		Machine: results.Machine{Host: "vm", OS: "linux", Arch: "amd64", CPUs: 2}, Cells: 2, Done: 2, Failed: 1,
		Estimators: []string{"alphamax-n"}, Data: map[string]string{"b": "x", "a": "y"},
		Warnings:    []string{"gas: incomplete <2 of 10 files missing>"},
		Unavailable: map[string]string{"hapt": "not in the mirror"}}
	got := factsSection(Input{Records: recs, Manifest: m})
	for _, want := range []string{
		"<tr><th>Experiment</th><td>e (configs/e.yaml)</td></tr>",
		"<tr><th>Code version</th><td>7e42349 (go1.26.8)</td></tr>",
		"<tr><th>Kernel</th><td>avx512</td></tr>",
		"<tr><th>Run</th><td>2026-11-23 19:46 to 20:01 UTC (15m12s)</td></tr>",
		"<tr><th>Machine</th><td>vm, linux/amd64, 2 CPUs</td></tr>",
		"<tr><th>Cells</th><td>2 of 2 done, 1 failed; records: 1 ok, 1 failed (<a href=\"#failed\">which</a>)</td></tr>",
		"<tr><th>Data sets</th><td>2: a, b</td></tr>",
		"<li>gas: incomplete &lt;2 of 10 files missing&gt;</li>",
		"1 data set(s): hapt (<a href=\"#missing\">why</a>)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("facts lack %q:\n%s", want, got)
		}
	}
	// Without a manifest (schema 1 without one): the records' facts only.
	got = factsSection(Input{Records: recs})
	if !strings.Contains(got, "<tr><th>Kernel</th><td>avx512</td></tr>") || !strings.Contains(got, "records: 1 ok, 1 failed (<a") ||
		strings.Contains(got, "Run") || strings.Contains(got, "Code version") {
		t.Errorf("facts without a manifest:\n%s", got)
	}
	index, err := Write(t.TempDir(), Input{Records: recs, Manifest: m})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(index)
	page := string(b)
	if f, s := strings.Index(page, "<table class=\"facts\">"), strings.Index(page, "<h2>test paper section</h2>"); f < 0 || s < 0 || f > s {
		t.Errorf("the facts (at %d) do not precede the paper's section (at %d)", f, s)
	}
}

// TestPluginFacts: with the manifest's settings the head of the page names
// every plug-in with its options, the data sources, the built-in config
// the run derives from with the settings that differ, and every setting
// (here 13) in a fold; without them (older manifests) the plug-ins' IDs.
func TestPluginFacts(t *testing.T) {
	m := results.Manifest{Schema: results.SchemaVersion, Estimators: []string{"alphamax-n"},
		Settings: map[string]string{
			"protocol": "scar-fraction/v1", "classifier": "gbdt/v2 rounds=20", "seed": "2021", "repeats": "2",
			"estimators": "alphamax-n, km1", "estimators.alphamax-n": `alphamax-n/v2 {"knee":"blend"}`, "estimators.km1": "km1/v2 {}",
			"truths": "same-model", "truths.same-model": "same-model on=all",
			"metrics": "auc", "metrics.auc": "auc/v1 outside=clip",
			"datasets": "concrete", "datasets.concrete.source": "uci dataset=concrete-aul",
		},
		Derived: &results.Derivation{Config: "papers/aul/aul.yaml (embedded)", Differences: []string{"repeats: 20 -> 2", "grid.known-positives: 0.1, 0.2, 0.4 -> 0.4"}},
	}
	got := factsSection(Input{Manifest: m})
	for _, want := range []string{
		"<tr><th>Protocol</th><td><ul><li>scar-fraction/v1</li></ul></td></tr>",
		"<tr><th>Classifier</th><td><ul><li>gbdt/v2 rounds=20</li></ul></td></tr>",
		"<tr><th>Estimators</th><td><ul><li>alphamax-n: alphamax-n/v2 {&#34;knee&#34;:&#34;blend&#34;}</li><li>km1: km1/v2 {}</li></ul></td></tr>",
		"<tr><th>Truths</th><td><ul><li>same-model: same-model on=all</li></ul></td></tr>",
		"<tr><th>Metrics</th><td><ul><li>auc: auc/v1 outside=clip</li></ul></td></tr>",
		"<tr><th>Data sources</th><td><ul><li>concrete: uci dataset=concrete-aul</li></ul></td></tr>",
		"<tr><th>Derived from</th><td>papers/aul/aul.yaml (embedded): 2 setting(s) differ, the built-in config&#39;s value first:<ul><li>repeats: 20 -&gt; 2</li><li>grid.known-positives: 0.1, 0.2, 0.4 -&gt; 0.4</li></ul></td></tr>",
		"<summary>the 13 settings that can change a record</summary>",
		"<li>seed: 2021</li>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("facts lack %q:\n%s", want, got)
		}
	}
	m.Derived.Differences = []string{}
	if got := factsSection(Input{Manifest: m}); !strings.Contains(got, "papers/aul/aul.yaml (embedded): no setting differs</td>") {
		t.Errorf("a copy of a built-in config:\n%s", got)
	}
	m.Settings, m.Derived = nil, nil
	if got := factsSection(Input{Manifest: m}); !strings.Contains(got, "<tr><th>Estimators</th><td>alphamax-n</td></tr>") || strings.Contains(got, "All settings") {
		t.Errorf("a manifest without settings:\n%s", got)
	}
}
