package experiments

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/configs"
	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/experiments/results"
)

var dataCache string // one data cache for the package's tests, so data sets are parsed once

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pueval-experiments-data")
	if err != nil {
		panic(err)
	}
	dataCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needMirror skips a test that needs the UCI mirror when none is configured.
// With the mirror set (as in CI) a missing data file fails the test instead.
func needMirror(t *testing.T) {
	t.Helper()
	if os.Getenv(datasets.EnvMirror) == "" {
		t.Skipf("%s is not set: this test needs the UCI data", datasets.EnvMirror)
	}
}

func openData(t testing.TB) (*datasets.Store, []string) {
	t.Helper()
	cat, err := datasets.ReadCatalogFS(configs.FS, configs.DatasetsFile)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := datasets.DefaultOptions()
	if err != nil {
		t.Fatal(err)
	}
	opts.CacheDir = dataCache
	st, err := datasets.Open(cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	return st, cat.Names()
}

func smokeConfig(t *testing.T, edit func(string) string) *Config {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "smoke.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	if edit != nil {
		src = edit(src)
	}
	_, names := openData(t)
	cfg, err := ParseConfig([]byte(src), "smoke.yaml", LoadOptions{Catalog: names})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// runSmoke runs cfg's cells (sel) into a fresh directory and returns it with the summary.
func runSmoke(t *testing.T, cfg *Config, sel Selection, workers int, cache *results.Cache) (string, Summary) {
	t.Helper()
	st, _ := openData(t)
	cells, err := cfg.Cells(sel)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &Runner{Config: cfg, Data: st, Cache: cache, Workers: workers}
	sum, err := r.Run(context.Background(), cells, dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, sum
}

// The smoke config runs end to end and its records carry the fields of DESIGN.md section 9.
func TestSmokeRecords(t *testing.T) {
	needMirror(t)
	cfg := smokeConfig(t, nil)
	dir, sum := runSmoke(t, cfg, Selection{}, 2, nil)
	// 3 data sets x 3 betas x 2 repeats; a bag per cell plus one traditional bag per data set.
	if sum.Ran != 18 || sum.Failed != 0 || sum.Trained != 21 {
		t.Fatalf("summary %+v", sum)
	}
	recs, err := results.ReadRecords(dir)
	if err != nil || len(recs) != 18 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for i, r := range recs {
		if r.Schema != results.SchemaVersion || r.Experiment != "smoke" || r.Cell == "" || r.Grid["beta"] == "" ||
			r.Seed == "" || r.Sizes.N == 0 || r.Sizes.Labeled != 100 || r.Sizes.Unlabeled == 0 || r.Status != results.StatusOK ||
			r.Timings["total"] <= 0 || r.Alpha <= 0 || r.Beta <= 0 {
			t.Errorf("record %d: %+v", i, r)
		}
		if e, ok := r.Estimates["alphamax-n"]; !ok || e.Method != "alphamax-n" {
			t.Errorf("record %d: estimate %+v", i, r.Estimates)
		}
		for _, k := range []string{"truth:traditional", "truth:same-model", "pu", "indirect:real", "indirect-clip:real", "direct:real",
			"indirect:alphamax-n", "indirect-clip:alphamax-n", "direct:alphamax-n"} {
			if _, ok := r.Metrics["auc"][k]; !ok {
				t.Errorf("record %d: auc/%s missing", i, k)
			}
		}
		for _, k := range []string{"truth:traditional", "truth:same-model", "pu", "indirect:real", "indirect-clip:real",
			"indirect:alphamax-n", "indirect-clip:alphamax-n"} {
			if _, ok := r.Metrics["aucpr"][k]; !ok {
				t.Errorf("record %d: aucpr/%s missing", i, k)
			}
		}
		// Beta is exact under case-control: round(beta*100) of 100 labeled are positive.
		if want := r.Grid["beta"]; strconv.FormatFloat(r.Beta, 'g', -1, 64) != want {
			t.Errorf("record %d: true beta %v for grid beta %s", i, r.Beta, want)
		}
	}
	// Grid order after the run: concrete, housing, pima.
	if recs[0].Cell != "concrete/beta=1/repeat=0" || recs[17].Cell != "pima/beta=0.75/repeat=1" {
		t.Errorf("order: %s ... %s", recs[0].Cell, recs[17].Cell)
	}
	m, err := results.ReadManifest(dir)
	if err != nil || m.Finished == nil || m.Done != 18 || len(m.Data) != 3 || m.ConfigHash != cfg.Hash ||
		m.Report != "summary" || m.Protocol != "case-control" || strings.Join(m.Estimators, ",") != "alphamax-n" ||
		strings.Join(m.Truths, ",") != "traditional,same-model" || strings.Join(m.Metrics, ",") != "auc,aucpr" {
		t.Errorf("manifest %+v %v", m, err)
	}
}

// Records are identical (timings aside) for 1 and 2 workers, and a subset of
// the grid gives the same records as the full grid for its cells.
func TestDeterministicAcrossWorkersAndSubsets(t *testing.T) {
	needMirror(t)
	cfg := smokeConfig(t, nil)
	d1, _ := runSmoke(t, cfg, Selection{}, 1, nil)
	d2, _ := runSmoke(t, cfg, Selection{}, 2, nil)
	a, b := resultsOnly(t, d1), resultsOnly(t, d2)
	if !bytes.Equal(a, b) {
		t.Fatalf("records differ between -j 1 and -j 2:\n%s\n---\n%s", a, b)
	}
	sub, _ := runSmoke(t, cfg, Selection{Repeats: 1, Datasets: []string{"pima"}}, 2, nil)
	part := resultsOnly(t, sub)
	for _, line := range bytes.Split(bytes.TrimSpace(part), []byte("\n")) {
		if !bytes.Contains(a, line) {
			t.Errorf("a record of the subset run is not in the full run:\n%s", line)
		}
	}
	if n := bytes.Count(part, []byte("\n")); n != 3 {
		t.Errorf("subset ran %d cells, want 3 (pima x 3 betas x repeat 0)", n)
	}
}

// Changing only the estimator reuses the cached scores: no classifier is trained.
func TestEstimatorChangeReusesScores(t *testing.T) {
	needMirror(t)
	cache, err := results.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first, sum := runSmoke(t, smokeConfig(t, nil), Selection{}, 2, cache)
	if sum.Trained != 21 || sum.CacheHits != 0 {
		t.Fatalf("first run: %+v", sum)
	}
	knee := func(s string) string {
		return strings.Replace(s, "  - name: alphamax-n\n", "  - name: alphamax-n\n    knee: published\n", 1)
	}
	second, sum := runSmoke(t, smokeConfig(t, knee), Selection{}, 2, cache)
	if sum.Trained != 0 || sum.CacheHits != 21 || sum.Ran != 18 {
		t.Fatalf("second run trained %d classifiers (want 0), %d cache hits (want 21): %+v", sum.Trained, sum.CacheHits, sum)
	}
	// Same scores, so the same PU AUC; the knee rule changed some estimates.
	r1, _ := results.ReadRecords(first)
	r2, _ := results.ReadRecords(second)
	changed := 0
	for i := range r1 {
		if r1[i].Metrics["auc"]["pu"] != r2[i].Metrics["auc"]["pu"] {
			t.Fatalf("cell %s: PU AUC changed with the estimator", r1[i].Cell)
		}
		if r1[i].Estimates["alphamax-n"].Alpha != r2[i].Estimates["alphamax-n"].Alpha {
			changed++
		}
	}
	if changed == 0 {
		t.Error("the published knee changed no estimate: the edit did not take effect")
	}
}

// A config with an unknown field, a wrong type and an unknown data set
// reports all three, each with its line.
func TestConfigErrorsWithLines(t *testing.T) {
	src := `experiment: x
repeats: fifty
datasets:
  - name: pima
  - name: nosuchdata
protocol:
  name: case-control
  labelled: 100
`
	_, err := ParseConfig([]byte(src), "bad.yaml", LoadOptions{Catalog: []string{"pima", "housing"}})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"bad.yaml:2: repeats: fifty: want a number of repeats in [1, 1000000]",
		`bad.yaml:5: datasets[1]: unknown data set "nosuchdata"`,
		`bad.yaml:8: unknown field "labelled"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}

func TestShardsAndSeeds(t *testing.T) {
	cfg := smokeConfig(t, func(s string) string { return strings.Replace(s, "repeats: 2", "repeats: 50", 1) })
	cells, err := cfg.Cells(Selection{})
	if err != nil {
		t.Fatal(err)
	}
	// 3 data sets x 3 betas x 50 repeats.
	if len(cells) != 450 {
		t.Errorf("%d cells", len(cells))
	}
	// Shards partition the grid.
	seen := map[string]int{}
	for k := 1; k <= 3; k++ {
		part, err := cfg.Cells(Selection{Shard: k, Shards: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range part {
			seen[c.ID]++
		}
	}
	if len(seen) != 450 {
		t.Errorf("shards cover %d cells", len(seen))
	}
	// Seeds depend on the identity only, and a beta-only grid hashes what
	// pueval hashed before grids had other axes (the first cell's seed in
	// the schema-1 records: concrete/beta=1/repeat=0 of seed 2017).
	first := map[string]AxisValue{"beta": {Text: "1", Value: 1.0}}
	if cells[0].ID != "concrete/beta=1/repeat=0" || cells[0].Seed != CellSeed(2017, "concrete", first, 0) ||
		cells[0].Seed != hashSeed(2017, "cell", "concrete", "1", "0") {
		t.Errorf("first cell %s, seed %d", cells[0].ID, cells[0].Seed)
	}
	if _, err := cfg.Cells(Selection{Datasets: []string{"nope"}}); err == nil {
		t.Error("unknown data set in the selection accepted")
	}
}
