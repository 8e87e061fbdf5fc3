package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/reference"
	"github.com/pueval/pueval/experiments/results"
)

// smokeRun reproduces a smoke config into a temporary directory (with a
// data cache of its own) and returns the directory and pueval's stdout.
func smokeRun(t *testing.T, config string) (dir, stdout string) {
	t.Helper()
	if os.Getenv("PUEVAL_UCI_MIRROR") == "" {
		t.Skip("PUEVAL_UCI_MIRROR is unset")
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	dir = filepath.Join(t.TempDir(), config)
	stdout, stderr, err := runCLI(t, "reproduce", config, "-o", dir, "-j", "2")
	if err != nil {
		t.Fatalf("%s: %v\n%s", config, err, stderr)
	}
	return dir, stdout
}

// TestVerifySmokeRun: an untouched run of a smoke config is identical to
// the digests its paper ships; pueval reproduce ends with that verdict and
// the report shows it. Then one value of one record changed makes verify
// name that cell and that field group and fail with status 1, and the
// report shows the difference as a problem.
func TestVerifySmokeRun(t *testing.T) {
	dir, repro := smokeRun(t, "aaai2017-smoke")
	t.Run("untouched", func(t *testing.T) {
		want := "identical to the reference run (18 cells)"
		lines := strings.Split(strings.TrimSpace(repro), "\n")
		if last := lines[len(lines)-1]; last != dir+": "+want {
			t.Errorf("pueval reproduce's last line %q, want %q", last, dir+": "+want)
		}
		out, _, err := runCLI(t, "verify", dir)
		if err != nil || !strings.HasPrefix(out, dir+": "+want+"\n") {
			t.Errorf("verify: err %v, output:\n%s", err, out)
		}
		page, err := os.ReadFile(filepath.Join(dir, "report", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), "<tr><th>Verification</th><td>"+want+"</td></tr>") {
			t.Errorf("the report's facts lack the verification %q", want)
		}
	})
	t.Run("tampered", func(t *testing.T) {
		cell := tamperRecord(t, dir, 5)
		out, _, err := runCLI(t, "verify", dir)
		if err == nil || exitCode(err) != exitError {
			t.Fatalf("verify of a tampered run: err %v (exit %d), want exit %d", err, exitCode(err), exitError)
		}
		for _, want := range []string{"DIFFERS from the reference run: 1 of 18 cells differ", "differs: " + cell + ": metrics.auc\n",
			"likely cause: "} {
			if !strings.Contains(out, want) {
				t.Errorf("verify's output lacks %q:\n%s", want, out)
			}
		}
		if _, stderr, err := runCLI(t, "report", dir); err != nil {
			t.Fatalf("report: %v\n%s", err, stderr)
		}
		page, _ := os.ReadFile(filepath.Join(dir, "report", "index.html"))
		if !strings.Contains(string(page), `<tr><th>Verification</th><td><span class="problem">DIFFERS from the reference run: 1 of 18 cells differ`) {
			t.Error("the report does not show the difference as a problem")
		}
	})
}

// tamperRecord adds 1e-9 to the pu value of the auc measure of the n-th
// record of dir's records file and returns that record's cell.
func tamperRecord(t *testing.T, dir string, n int) string {
	t.Helper()
	path := filepath.Join(dir, results.RecordsFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	var r results.Record
	if err := json.Unmarshal(lines[n], &r); err != nil {
		t.Fatal(err)
	}
	r.Metrics["auc"]["pu"] += 1e-9
	if lines[n], err = r.Marshal(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return r.Cell
}

// TestVerifyWithoutReference: a run of a config that ships no digests says
// so and does not fail; --write-reference writes digests that a later
// verify (--reference) finds identical, and a changed record not.
func TestVerifyWithoutReference(t *testing.T) {
	dir := t.TempDir()
	recs := []results.Record{{Schema: results.SchemaVersion, Experiment: "toy", Cell: "a/repeat=0", Dataset: "a", Status: results.StatusOK, Alpha: 0.5}}
	writeRun(t, dir, recs, true)
	out, _, err := runCLI(t, "verify", dir)
	if err != nil || !strings.Contains(out, "no reference digests for experiment toy") {
		t.Errorf("verify without a reference: err %v, output %q", err, out)
	}
	ref := filepath.Join(t.TempDir(), "toy.digests")
	if out, _, err := runCLI(t, "verify", dir, "--write-reference", ref); err != nil || !strings.Contains(out, "the digests of 1 cells written to "+ref) {
		t.Fatalf("--write-reference: err %v, output %q", err, out)
	}
	if out, _, err := runCLI(t, "verify", dir, "--reference", ref); err != nil || !strings.Contains(out, "identical to the reference run (1 cells)") {
		t.Errorf("--reference: err %v, output %q", err, out)
	}
	recs[0].Alpha = 0.25
	writeRun(t, dir, recs, true)
	if out, _, err := runCLI(t, "verify", dir, "--reference", ref); err == nil || !strings.Contains(out, "differs: a/repeat=0: alpha") {
		t.Errorf("--reference after a change: err %v, output %q", err, out)
	}
	writeRun(t, dir, recs, false)
	if _, _, err := runCLI(t, "verify", dir, "--write-reference", ref); err == nil || !strings.Contains(err.Error(), "not finished") {
		t.Errorf("--write-reference of an unfinished run: %v", err)
	}
}

// writeRun writes recs and a manifest (finished or not) into dir.
func writeRun(t *testing.T, dir string, recs []results.Record, finished bool) {
	t.Helper()
	var b bytes.Buffer
	for _, r := range recs {
		line, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
	}
	if err := os.WriteFile(filepath.Join(dir, results.RecordsFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	man := results.Manifest{Experiment: recs[0].Experiment, ConfigKey: "k", CodeVersion: "test", Cells: len(recs)}
	if finished {
		man.Finished = &man.Started
	}
	if err := results.WriteManifest(dir, man); err != nil {
		t.Fatal(err)
	}
}

// TestNoReferenceNamesTheRun: the message for a built-in config without
// digests names its run and its paper's folder.
func TestNoReferenceNamesTheRun(t *testing.T) {
	for name, want := range map[string]string{
		"aul-fig3":  "no reference digests for the full run of aul-fig3 (papers/aul ships none)",
		"aul-smoke": "no reference digests for the smoke run aul-smoke (papers/aul ships none)",
		"mine":      "no reference digests for experiment mine",
	} {
		if got := noReference(name); !strings.HasPrefix(got, want) {
			t.Errorf("noReference(%s) = %q, want it to start %q", name, got, want)
		}
	}
}

// goldenUnavailable are the data sets of the smoke configs that
// TestGoldenRecords runs without (PUEVAL_CLAESEN_DATA unset there), whose
// cells the shipped digests hold and the golden file does not.
var goldenUnavailable = map[string][]string{"claesen2015-smoke": {"covtype"}}

// TestSmokeDigestsMatchGolden keeps the digests the papers ship for their
// smoke configs in step with the golden hashes of TestGoldenRecords (the
// same hash of the same records): every golden record's hash is its cell's
// digest, and every digest of a cell the golden file lacks is of a repeat
// or data set the golden runs leave out. A deliberate change of the
// records rewrites both (PUEVAL_UPDATE_GOLDEN=1 and make reference-digests).
func TestSmokeDigestsMatchGolden(t *testing.T) {
	golden := readGoldenRecords(t)
	for _, g := range goldenRuns {
		data, src, ok, err := experiments.ReferenceDigests(g.config)
		if err != nil || !ok {
			t.Fatalf("%s: no reference digests (%v)", g.config, err)
		}
		ref, err := reference.Read(bytes.NewReader(data), src)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := experiments.ReadConfig(g.config, experiments.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ref.Cells) != cfg.CellCount() {
			t.Errorf("%s: %d cells in the digests, %d in the config", g.config, len(ref.Cells), cfg.CellCount())
		}
		digests := map[string]uint64{}
		for _, c := range ref.Cells {
			digests[c.ID] = c.Hash
			if _, inGolden := golden[g.config][c.ID]; !inGolden && !leftOutOfGolden(c.ID, g.repeats, goldenUnavailable[g.config]) {
				t.Errorf("%s: cell %s has a digest and no golden hash", g.config, c.ID)
			}
		}
		for cell, h := range golden[g.config] {
			if d, ok := digests[cell]; !ok || d != h {
				t.Errorf("%s: cell %s: golden hash %016x, digest %016x (regenerate the digests: make reference-digests)", g.config, cell, h, d)
			}
		}
	}
}

// leftOutOfGolden reports whether TestGoldenRecords leaves cell out: a
// repeat beyond the ones it runs, or a data set it runs without.
func leftOutOfGolden(cell string, repeats int, unavailable []string) bool {
	ds, _, _ := strings.Cut(cell, "/")
	for _, u := range unavailable {
		if ds == u {
			return true
		}
	}
	i := strings.LastIndex(cell, "/repeat=")
	if i < 0 || repeats == 0 {
		return false
	}
	r, err := strconv.Atoi(cell[i+len("/repeat="):])
	return err == nil && r >= repeats
}

// readGoldenRecords reads the records' lines of the golden file: config ->
// cell -> hash.
func readGoldenRecords(t *testing.T) map[string]map[string]uint64 {
	t.Helper()
	f, err := os.Open(goldenRecordsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]uint64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		config, rest, _ := strings.Cut(line, " ")
		sp := strings.LastIndexByte(rest, ' ')
		if line == "" || sp < 0 || strings.HasPrefix(rest, "report/") {
			continue
		}
		h, err := strconv.ParseUint(rest[sp+1:], 16, 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", goldenRecordsFile, line, err)
		}
		if out[config] == nil {
			out[config] = map[string]uint64{}
		}
		out[config][rest[:sp]] = h
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
