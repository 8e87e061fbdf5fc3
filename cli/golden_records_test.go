package cli

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
)

// goldenRecordsFile holds one line per record of the smoke runs below:
// config, cell and the FNV-64a hash of the record's JSON without its
// timings, work and kernel name (how long and on what it ran, not what it
// found). Go writes a float64 in JSON as the shortest text that reads back
// to the same bits, so the hash sees every bit of every number. It also
// holds one line per table of each run's report: config, "report/" and the
// file name, and the hash of the file.
const goldenRecordsFile = "testdata/golden_records.txt"

// goldenRuns are the smoke configs whose records TestGoldenRecords pins,
// each with the repeats it runs (0: all), enough to take every paper's
// pipeline end to end: bagged nets, AlphaMax-N, the recovery formulas and
// metrics, Claesen's bounds, the GBDT, KM1/KM2, DistCurve, the PULP
// measures with the SVMs and the GMM labelling.
var goldenRuns = []struct {
	config  string
	repeats int
}{
	{"aaai2017-smoke", 0},
	{"psb2019-smoke", 1},
	{"claesen2015-smoke", 0},
	{"aul-smoke", 0},
	{"pulp-smoke", 0},
}

// fnv64a is the FNV-64a hash of b.
func fnv64a(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// reportTables reads the text tables of a report directory (Markdown, CSV
// and LaTeX), by file name, leaving out the timing tables (how long the
// run took, not what it found). Figures are not pinned: the plotting
// libraries round differently on other architectures.
func reportTables(dir string) (map[string][]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	tables := map[string][]byte{}
	for _, e := range entries {
		name := e.Name()
		switch filepath.Ext(name) {
		case ".md", ".csv", ".tex":
		default:
			continue
		}
		if strings.HasPrefix(name, "timing") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		tables[name] = b
	}
	return tables, nil
}

// TestGoldenRecords runs the smoke configs and checks that every record has
// the bits it had where the golden file was written (an AVX-512 amd64):
// pueval's promise that a config gives the same records on every CPU and
// architecture. `make test-cross` runs this test's arm64 binary under
// qemu-aarch64, so a multiply-add the arm64 compiler fuses, or a math
// function that rounds differently there, in any package on a record's path
// shows up here as the cells it changes. The reports' tables are checked
// the same way (their own arithmetic: quantiles, rank correlations, the
// claims' sums). PUEVAL_UPDATE_GOLDEN=1 rewrites
// the file (only on amd64: it is the reference).
func TestGoldenRecords(t *testing.T) {
	if os.Getenv("PUEVAL_UCI_MIRROR") == "" {
		t.Skip("PUEVAL_UCI_MIRROR is unset")
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	t.Setenv("PUEVAL_CLAESEN_DATA", "") // the covtype scores are optional: the golden file is written without them
	var got []string
	for _, g := range goldenRuns {
		out := filepath.Join(t.TempDir(), g.config)
		args := []string{"run", g.config, "-o", out, "-j", "2", "--no-score-cache"}
		if g.repeats > 0 {
			args = append(args, "--repeats", fmt.Sprint(g.repeats))
		}
		if _, stderr, err := runCLI(t, args...); err != nil {
			t.Fatalf("%s: %v\n%s", g.config, err, stderr)
		}
		recs, err := results.ReadRecords(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			r.Timings, r.Work, r.Kernel = nil, nil, ""
			b, err := r.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s %s %016x", g.config, r.Cell, fnv64a(b)))
		}
		if _, stderr, err := runCLI(t, "report", out); err != nil {
			t.Fatalf("%s: report: %v\n%s", g.config, err, stderr)
		}
		tables, err := reportTables(filepath.Join(out, "report"))
		if err != nil {
			t.Fatal(err)
		}
		if len(tables) == 0 {
			t.Fatalf("%s: the report has no tables", g.config)
		}
		for name, b := range tables {
			got = append(got, fmt.Sprintf("%s report/%s %016x", g.config, name, fnv64a(b)))
		}
	}
	sort.Strings(got)
	if os.Getenv("PUEVAL_UPDATE_GOLDEN") == "1" {
		if runtime.GOARCH != "amd64" {
			t.Fatal("PUEVAL_UPDATE_GOLDEN: the golden records are written on amd64")
		}
		if err := os.WriteFile(goldenRecordsFile, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d records' and tables' hashes to %s", len(got), goldenRecordsFile)
		return
	}
	b, err := os.ReadFile(goldenRecordsFile)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			want[line] = true
		}
	}
	// cell drops a line's hash: "config cell".
	cell := func(line string) string { return line[:strings.LastIndexByte(line, ' ')] }
	gotCells := map[string]bool{}
	differ := 0
	for _, line := range got {
		gotCells[cell(line)] = true
		if !want[line] {
			differ++
			if differ <= 20 {
				t.Errorf("record or table differs from the golden file's (or is new): %s", line)
			}
		}
	}
	for line := range want {
		if !gotCells[cell(line)] {
			t.Errorf("record or table missing: %s", cell(line))
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d records and tables differ from %s (written on an AVX-512 amd64; PUEVAL_UPDATE_GOLDEN=1 rewrites it after a deliberate change)", differ, len(got), goldenRecordsFile)
	}
	t.Logf("%d records and tables, %d differ", len(got), differ)
}
