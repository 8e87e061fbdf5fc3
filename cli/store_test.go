package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
