package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// storeConfig is 4 cells of generated data (a fraction of a second), for
// the tests of what runs, merges and reports do with their directories.
const storeConfig = `experiment: store
seed: 5
repeats: 2
protocol: {name: aaai2017, labeled: 40, max_unlabeled: 300}
grid: {beta: [1, 0.9]}
datasets:
  - name: a
    source: {name: synth-gaussian, n: 400, d: 3, separation: 2}
classifier: {bags: 2, kernel: scalar}
metrics: [auc]
`

// mustRun runs pueval in this process and fails the test on an error.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	_, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("pueval %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return stderr
}

// appendConflict appends to dir's records a copy of its line-th record
// (1-based) with another pu AUC, and returns that record's cell.
func appendConflict(t *testing.T, dir string, line int) string {
	t.Helper()
	path := filepath.Join(dir, results.RecordsFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := results.ParseRecord(bytes.SplitAfter(b, []byte("\n"))[line-1])
	if err != nil {
		t.Fatal(err)
	}
	r.Metrics["auc"]["pu"] += 0.01
	again, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, again...), 0o644); err != nil {
		t.Fatal(err)
	}
	return r.Cell
}

// A cell recorded twice with different values is refused by report, by a
// run continuing the directory and by merge (also --partial), each naming
// the cell and both lines; nothing is rewritten.
func TestDuplicateCellRefused(t *testing.T) {
	t.Setenv("PUEVAL_DATA", t.TempDir())
	cfg := writeFile(t, "store.yaml", storeConfig)
	dir := t.TempDir()
	mustRun(t, "run", cfg, "-o", dir, "--no-score-cache")
	cell := appendConflict(t, dir, 2)
	path := filepath.Join(dir, results.RecordsFile)
	before, _ := os.ReadFile(path)
	want := fmt.Sprintf("cell %s is recorded twice with different values, at %s:2 and %s:5", cell, path, path)
	for _, args := range [][]string{{"report", dir}, {"run", cfg, "-o", dir, "--no-score-cache"}} {
		if _, _, err := runCLI(t, args...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("pueval %s: %v\nwant %q", args[0], err, want)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the records file was changed")
	}

	root := t.TempDir()
	s1, s2 := filepath.Join(root, "s1"), filepath.Join(root, "s2")
	mustRun(t, "run", cfg, "-o", s1, "--shard", "1/2", "--no-score-cache")
	mustRun(t, "run", cfg, "-o", s2, "--shard", "2/2", "--no-score-cache")
	cell = appendConflict(t, s2, 1)
	path = filepath.Join(s2, results.RecordsFile)
	want = fmt.Sprintf("cell %s is recorded twice with different values, at %s:1 and %s:3", cell, path, path)
	for _, partial := range [][]string{nil, {"--partial"}} {
		args := append(append([]string{"merge"}, partial...), filepath.Join(root, "merged"), s1, s2)
		if _, _, err := runCLI(t, args...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("pueval %s: %v\nwant %q", strings.Join(args, " "), err, want)
		}
	}
}

// pueval run -o DIR on a records file that pueval did not write refuses it
// by name and changes nothing in it: a JSON-lines file without a manifest
// (whose unterminated last line a run used to cut as torn) and a one-line
// CSV (which it used to cut whole).
func TestRunRefusesForeignRecords(t *testing.T) {
	t.Setenv("PUEVAL_DATA", t.TempDir())
	cfg := writeFile(t, "store.yaml", storeConfig)
	done := t.TempDir()
	mustRun(t, "run", cfg, "-o", done, "--no-score-cache")
	b, _ := os.ReadFile(filepath.Join(done, results.RecordsFile))
	for name, content := range map[string][]byte{
		"records without a manifest": bytes.TrimSuffix(b, []byte("\n")),
		"a one-line csv":             []byte("id,score,label\n"),
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, results.RecordsFile)
		os.WriteFile(path, content, 0o644)
		_, _, err := runCLI(t, "run", cfg, "-o", dir, "--no-score-cache")
		if err == nil || !strings.Contains(err.Error(), path+" was not written by pueval") {
			t.Errorf("%s: %v", name, err)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, content) {
			t.Errorf("%s: the file was changed from %d to %d bytes", name, len(content), len(after))
		}
		if _, err := os.Stat(filepath.Join(dir, results.ManifestFile)); err == nil {
			t.Errorf("%s: the refused run wrote a manifest", name)
		}
	}
}

// A run stores its config's absolute path, so pueval merge finds the config
// from any directory; a manifest of an older pueval with a relative path is
// resolved from the shard directory's parents (by the config's sha256), and
// refused clearly when no file matches.
func TestMergeFromAnotherDirectory(t *testing.T) {
	t.Setenv("PUEVAL_DATA", t.TempDir())
	work, elsewhere := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "store.yaml"), []byte(storeConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	mustRun(t, "run", "store.yaml", "-o", "shards/1", "--shard", "1/2", "--no-score-cache")
	mustRun(t, "run", "store.yaml", "-o", "shards/2", "--shard", "2/2", "--no-score-cache")
	shards := []string{filepath.Join(work, "shards", "1"), filepath.Join(work, "shards", "2")}
	if m, err := results.ReadManifest(shards[0]); err != nil || m.Config != filepath.Join(work, "store.yaml") {
		t.Errorf("the manifest's config: %q, %v", m.Config, err)
	}
	t.Chdir(elsewhere)
	mustRun(t, "merge", "m1", shards[0], shards[1])

	// An older manifest: the path relative to where the run started.
	for _, s := range shards {
		editManifestConfig(t, s, "store.yaml")
	}
	mustRun(t, "merge", "m2", shards[0], shards[1])
	editManifestConfig(t, shards[0], "nope.yaml")
	_, _, err := runCLI(t, "merge", "m3", shards[0], shards[1])
	if err == nil || !strings.Contains(err.Error(), "manifest names its config by the relative path nope.yaml") || !strings.Contains(err.Error(), "--config") {
		t.Errorf("an unresolvable relative config: %v", err)
	}
	// The file of that name was edited since: not taken for the config.
	editManifestConfig(t, shards[0], "store.yaml")
	os.WriteFile(filepath.Join(work, "store.yaml"), []byte(storeConfig+"# edited\n"), 0o644)
	_, _, err = runCLI(t, "merge", "m4", shards[0], shards[1])
	if err == nil || !strings.Contains(err.Error(), filepath.Join(work, "store.yaml")+" differ") {
		t.Errorf("an edited relative config: %v", err)
	}
}

// editManifestConfig sets the config field of dir's manifest.
func editManifestConfig(t *testing.T, dir, config string) {
	t.Helper()
	m, err := results.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.Config = config
	if err := results.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
}

// A run continuing into the output of a --partial merge runs the missing
// cells and keeps the merge's shards in the manifest, with itself added as
// a run; a merge over it, which would drop its cells, is refused.
func TestRunContinuesPartialMerge(t *testing.T) {
	t.Setenv("PUEVAL_DATA", t.TempDir())
	cfg := writeFile(t, "store.yaml", storeConfig)
	local := t.TempDir()
	mustRun(t, "run", cfg, "-o", local, "--no-score-cache")
	root := t.TempDir()
	s1, out := filepath.Join(root, "s1"), filepath.Join(root, "merged")
	mustRun(t, "run", cfg, "-o", s1, "--shard", "1/2", "--no-score-cache")
	mustRun(t, "merge", "--partial", out, s1)
	mustRun(t, "run", cfg, "-o", out, "--no-score-cache")
	m, err := results.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Shards) != 1 || m.Shards[0].Shard != "1/2" || m.Shards[0].Records != 2 {
		t.Errorf("the merge's shards after the run: %+v", m.Shards)
	}
	if len(m.Runs) != 1 || m.Runs[0].Ran != 2 || m.Runs[0].Finished == nil || m.Runs[0].Machine.Host == "" || m.Finished == nil || m.Done != 4 {
		t.Errorf("the run's provenance: %+v (manifest %+v)", m.Runs, m)
	}
	if !bytes.Equal(plugintest.ResultsOnly(t, out), plugintest.ResultsOnly(t, local)) {
		t.Error("the continued merge's records differ from one run's")
	}
	_, _, err = runCLI(t, "merge", "--partial", out, s1)
	if err == nil || !strings.Contains(err.Error(), "holds a merge that 1 later run(s) continued") {
		t.Errorf("a merge over the continued merge: %v", err)
	}
}
