//go:build unix

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// On a nearly full disk (a file-size limit below the records file's size:
// writes past it fail with EFBIG), a rerun of a finished run succeeds, since
// its records are already in order and are not rewritten; when they are
// not in order, the rewrite fails saying that nothing is lost, the file is
// left whole, and a run with room puts them in order.
func TestFaultRerunOnFullDisk(t *testing.T) {
	cfg := writeFile(t, "store.yaml", storeConfig)
	dir, data := t.TempDir(), t.TempDir()
	if out, err := pueval(t, data, "run", cfg, "-o", dir, "--no-score-cache").CombinedOutput(); err != nil {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	want := plugintest.ResultsOnly(t, dir)
	path := filepath.Join(dir, results.RecordsFile)
	recs, _ := os.ReadFile(path)
	man, _ := os.ReadFile(filepath.Join(dir, results.ManifestFile))
	// ulimit -f counts 512-byte blocks: the limit lies below the records
	// file and above the manifest, the largest other file a rerun writes.
	blocks := (len(recs) - 1) / 512
	if blocks*512 < len(man)+512 {
		t.Fatalf("records of %d bytes, manifest of %d: no file-size limit between them", len(recs), len(man))
	}
	limited := func() *exec.Cmd {
		cmd := exec.Command("/bin/sh", "-c", `ulimit -f `+strconv.Itoa(blocks)+` && exec "$0" "$@"`,
			os.Args[0], "run", cfg, "-o", dir, "--no-score-cache")
		cmd.Env = append(os.Environ(), "PUEVAL_TEST_RUN_MAIN=1", "PUEVAL_DATA="+data)
		return cmd
	}
	if out, err := limited().CombinedOutput(); err != nil {
		t.Errorf("rerun of a finished run on a full disk: status %d, output:\n%s", exitStatus(err), out)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, recs) {
		t.Error("the rerun changed the records file")
	}

	// Records out of grid order (the first two lines swapped).
	lines := bytes.SplitAfter(recs, []byte("\n"))
	lines[0], lines[1] = lines[1], lines[0]
	swapped := bytes.Join(lines, nil)
	if err := os.WriteFile(path, swapped, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := limited().CombinedOutput()
	if exitStatus(err) != exitError || !strings.Contains(string(out), "nothing is lost: "+path+" still holds all 4 records") ||
		!strings.Contains(string(out), "file too large") {
		t.Errorf("rewrite on a full disk: status %d, output:\n%s", exitStatus(err), out)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, swapped) {
		t.Error("the failed rewrite changed the records file")
	}
	if out, err := pueval(t, data, "run", cfg, "-o", dir, "--no-score-cache").CombinedOutput(); err != nil {
		t.Fatalf("run with room: %v\n%s", err, out)
	}
	if got := plugintest.ResultsOnly(t, dir); !bytes.Equal(got, want) {
		t.Errorf("records after the full disk differ from the first run's")
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, recs) {
		t.Error("the run with room did not put the records back in grid order")
	}
}
