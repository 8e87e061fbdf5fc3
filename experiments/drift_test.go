package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/experiments/results"
)

// mutableShift is added to every score of the test-mutable source: a
// registered source whose data change without any change to its options.
var mutableShift atomic.Int64

type mutableSource struct{}

func (mutableSource) Name() string         { return "test-mutable" }
func (mutableSource) Validate() error      { return nil }
func (mutableSource) Key() string          { return "test-mutable" }
func (mutableSource) Kind() string         { return KindScores }
func (mutableSource) New() (Source, error) { return mutableSource{}, nil }
func (mutableSource) Load(_ context.Context, env SourceEnv) (*Data, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	scores, y := make([]float64, 400), make([]bool, 400)
	for i := range scores {
		y[i] = i%3 == 0
		scores[i] = rng.NormFloat64() + float64(mutableShift.Load())
		if y[i] {
			scores[i]++
		}
	}
	return &Data{Name: env.Name, Scores: scores, Y: y, Fingerprint: datasets.Fingerprint(scores, y, 1)}, nil
}

func init() {
	Sources.Register("test-mutable", "test: scores shifted by a variable", func() SourceConfig { return mutableSource{} })
}

// writeScores writes a score,label file of 400 binormal rows drawn from seed.
func writeScores(t *testing.T, path string, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0))
	var b strings.Builder
	b.WriteString("score,label\n")
	for i := range 400 {
		y := i%5 < 2
		s := rng.NormFloat64()
		if y {
			s++
		}
		fmt.Fprintf(&b, "%.6f,%d\n", s, map[bool]int{true: 1}[y])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// driftConfig is a config of rankings from three kinds of source: a score
// file, a generator and a registered test source.
const driftConfig = `experiment: drift
seed: 3
repeats: 2
protocol: {name: case-control, labeled: 30, max_unlabeled: 200}
grid: {beta: [1]}
datasets:
  - name: file
    source: {name: scores-file, file: scores.csv}
  - name: synth
    source: {name: synth-scores, n: 400}
  - name: gen
    source: test-mutable
metrics: [auc]
`

// A run continued into its directory refuses a data set whose data differ
// from those its records were computed on (the manifest's fingerprint),
// whatever the source: a score file rewritten, a registered source whose
// data changed, a generator whose output changed (the manifest's
// fingerprint edited stands for it). It names the data set, both
// fingerprints and what to do, and writes nothing. A run of some data sets
// keeps the fingerprints of the others, so a later change is still caught.
func TestDataChangedRefused(t *testing.T) {
	dir := t.TempDir()
	writeScores(t, filepath.Join(dir, "scores.csv"), 1)
	cfg, err := ParseConfig([]byte(driftConfig), filepath.Join(dir, "drift.yaml"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dir = dir
	out := filepath.Join(dir, "out")
	run := func(sel Selection) (Summary, error) {
		cells, err := cfg.Cells(sel)
		if err != nil {
			t.Fatal(err)
		}
		return (&Runner{Config: cfg}).Run(context.Background(), cells, out)
	}
	if _, err := run(Selection{Repeats: 1}); err != nil {
		t.Fatal(err)
	}
	man, _ := results.ReadManifest(out)
	first := man.Data
	if len(first) != 3 {
		t.Fatalf("fingerprints %v", first)
	}
	// A run of one data set keeps the others' fingerprints.
	if sum, err := run(Selection{Datasets: []string{"synth"}}); err != nil || sum.Ran != 1 {
		t.Fatalf("synth only: %+v %v", sum, err)
	}
	if man, _ = results.ReadManifest(out); len(man.Data) != 3 || man.Data["file"] != first["file"] || man.Data["gen"] != first["gen"] {
		t.Fatalf("fingerprints after a run of synth alone: %v, want %v", man.Data, first)
	}

	refused := func(what, dataset string, change, undo func()) {
		t.Helper()
		change()
		defer undo()
		records, _ := os.ReadFile(filepath.Join(out, results.RecordsFile))
		manifest, _ := os.ReadFile(filepath.Join(out, results.ManifestFile))
		_, err := run(Selection{})
		if err == nil {
			t.Errorf("%s: continued", what)
			return
		}
		want := fmt.Sprintf("data set %s: its data changed since the records in %s were computed (fingerprint %s in its manifest, ", dataset, out, first[dataset])
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "run into a new directory (-o)") {
			t.Errorf("%s: %v\nwant %q", what, err, want)
		}
		now, _ := os.ReadFile(filepath.Join(out, results.RecordsFile))
		if !bytes.Equal(now, records) {
			t.Errorf("%s: the records changed", what)
		}
		if m, _ := os.ReadFile(filepath.Join(out, results.ManifestFile)); !bytes.Equal(m, manifest) {
			t.Errorf("%s: the manifest changed", what)
		}
	}
	refused("score file rewritten", "file",
		func() { writeScores(t, filepath.Join(dir, "scores.csv"), 2) },
		func() { writeScores(t, filepath.Join(dir, "scores.csv"), 1) })
	refused("registered source's data changed", "gen",
		func() { mutableShift.Store(1) },
		func() { mutableShift.Store(0) })
	manifest, _ := os.ReadFile(filepath.Join(out, results.ManifestFile))
	refused("generator's data changed (manifest edited)", "synth",
		func() {
			var m map[string]any
			json.Unmarshal(manifest, &m)
			m["data"].(map[string]any)["synth"] = strings.Repeat("0", 64)
			first["synth"] = strings.Repeat("0", 64)
			b, _ := json.Marshal(m)
			os.WriteFile(filepath.Join(out, results.ManifestFile), b, 0o644)
		},
		func() { os.WriteFile(filepath.Join(out, results.ManifestFile), manifest, 0o644) })

	// Unchanged data (and a data set unavailable now) continue the run.
	os.Rename(filepath.Join(dir, "scores.csv"), filepath.Join(dir, "gone.csv"))
	if sum, err := run(Selection{}); err != nil || sum.Unavailable["file"] == "" || sum.Ran != 1 {
		t.Errorf("continued without the file: %+v %v", sum, err)
	}
	if man, _ = results.ReadManifest(out); man.Data["file"] != first["file"] {
		t.Errorf("the unavailable data set's fingerprint was dropped: %v", man.Data)
	}
}

// Runner.Check makes the run's checks without running: a catalog data set
// whose data differ from the manifest's fingerprint is refused by name; a
// directory that does not exist passes and is not made.
func TestCheckCatalogData(t *testing.T) {
	needMirror(t)
	store, _ := openData(t)
	cfg, err := ParseConfig([]byte("experiment: uci\nrepeats: 1\nprotocol: {name: case-control, labeled: 50}\n"+
		"datasets: [pima]\nmetrics: [auc]\n"), "uci.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cells, _ := cfg.Cells(Selection{})
	r := &Runner{Config: cfg, Data: store}
	missing := filepath.Join(t.TempDir(), "none")
	if err := r.Check(context.Background(), cells, missing); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("Check made %s: %v", missing, err)
	}
	dir := t.TempDir()
	bad := strings.Repeat("ab", 32)
	man := results.Manifest{Experiment: "uci", ConfigKey: cfg.KeyHash(), Data: map[string]string{"pima": bad}}
	if err := results.WriteManifest(dir, man); err != nil {
		t.Fatal(err)
	}
	err = r.Check(context.Background(), cells, dir)
	if err == nil || !strings.Contains(err.Error(), "data set pima: its data changed since the records in "+dir+" were computed (fingerprint "+bad+" in its manifest, ") {
		t.Errorf("changed catalog data: %v", err)
	}
	d, err := r.load(context.Background(), cells[0].Dataset)
	if err != nil {
		t.Fatal(err)
	}
	man.Data["pima"] = d.Fingerprint
	results.WriteManifest(dir, man)
	if err := r.Check(context.Background(), cells, dir); err != nil {
		t.Errorf("same catalog data: %v", err)
	}
	// A directory someone writes to is refused too (here this test holds the
	// lock, which the refusal names as this process).
	lock, err := results.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	if err := r.Check(context.Background(), cells, dir); !errors.Is(err, results.ErrLocked) {
		t.Errorf("locked directory: %v", err)
	}
}
