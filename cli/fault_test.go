//go:build unix

package cli

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// The fault-injection suite: real pueval processes (the test binary standing
// in for pueval, see TestMain) killed, raced, starved of disk, and fed a
// changed config or a crafted cache, on a generated data set, so it needs no
// UCI mirror.

// faultConfig is 60 cells of generated data, about 2 s on 2 cores. The
// scalar kernel keeps that duration on every CPU (the AVX-512 kernel, which
// "auto" picks where it can, would end the run before most kills land).
const faultConfig = `experiment: fault
seed: 3
repeats: 10
protocol: {name: aaai2017, labeled: 100, max_unlabeled: 1000}
grid: {beta: [1, 0.9, 0.8]}
datasets:
  - name: a
    source: {name: synth-gaussian, n: 1500, d: 4, separation: 2}
  - name: b
    source: {name: synth-gaussian, n: 1200, d: 3, separation: 1.5}
classifier: {bags: 10, kernel: scalar}
metrics: [auc, mcc]
`

const faultCells = 60

// uninterrupted runs the config once, start to end, and returns its records.
func uninterrupted(t *testing.T, cfg string) []byte {
	t.Helper()
	dir := t.TempDir()
	if out, err := pueval(t, t.TempDir(), "run", cfg, "-o", dir, "--no-score-cache").CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	return plugintest.ResultsOnly(t, dir)
}

func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// Two runs into one directory: the second is refused at once, naming the
// first's pid, and the first finishes with every record intact.
func TestFaultConcurrentRuns(t *testing.T) {
	cfg := writeFile(t, "fault.yaml", faultConfig)
	want := uninterrupted(t, cfg)
	dir, data := t.TempDir(), t.TempDir()
	first := pueval(t, data, "run", cfg, "-o", dir, "--no-score-cache")
	var firstOut bytes.Buffer
	first.Stderr = &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitRecords(t, first, dir, 3)
	out, err := pueval(t, data, "run", cfg, "-o", dir, "--datasets", "b", "--no-score-cache").CombinedOutput()
	if exitStatus(err) != exitError || !strings.Contains(string(out), fmt.Sprintf("in use by process %d", first.Process.Pid)) {
		t.Errorf("second run: status %d, output:\n%s", exitStatus(err), out)
	}
	if strings.Contains(string(out), "cells run (") {
		t.Errorf("the refused run summed up cells it never ran:\n%s", out)
	}
	// A report of the directory is not a writer of it: it may run meanwhile.
	if out, err := pueval(t, data, "report", dir).CombinedOutput(); err != nil {
		t.Errorf("report during the run: %v\n%s", err, out)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first run: %v\n%s", err, firstOut.String())
	}
	if got := plugintest.ResultsOnly(t, dir); !bytes.Equal(got, want) {
		t.Errorf("records of the raced run differ from an uninterrupted run's:\n%s\n---\n%s", got, want)
	}
}

// Killed with SIGKILL at 15 random moments, then run to the end, a run gives
// the records of an uninterrupted one (timings and work aside).
func TestFaultKilledFifteenTimes(t *testing.T) {
	cfg := writeFile(t, "fault.yaml", faultConfig)
	want := uninterrupted(t, cfg)
	dir, data := t.TempDir(), t.TempDir()
	rng := rand.New(rand.NewPCG(15, 9))
	midRun := 0
	for i := range 15 {
		cmd := pueval(t, data, "run", cfg, "-o", dir, "--no-score-cache", "-j", strconv.Itoa(1+i%2))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+rng.IntN(250)) * time.Millisecond)
		cmd.Process.Kill()
		if err := cmd.Wait(); exitStatus(err) != 0 {
			midRun++
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, results.RecordsFile))
	t.Logf("%d of 15 kills landed mid-run; %d records afterwards", midRun, bytes.Count(b, []byte("\n")))
	if midRun < 10 {
		t.Errorf("only %d of 15 kills landed mid-run: make the run longer", midRun)
	}
	if out, err := pueval(t, data, "run", cfg, "-o", dir, "--no-score-cache").CombinedOutput(); err != nil {
		t.Fatalf("final run: %v\n%s", err, out)
	}
	if got := plugintest.ResultsOnly(t, dir); !bytes.Equal(got, want) {
		t.Errorf("records after 15 kills differ from an uninterrupted run's (%d vs %d lines)",
			bytes.Count(got, []byte("\n")), bytes.Count(want, []byte("\n")))
	}
}

// A full disk mid-run (a file-size limit: writes past it fail with EFBIG,
// which the Go runtime reports rather than dying of SIGXFSZ): the run stops
// at the first failed append with an error naming the records file, the file
// holds whole records only, and a run with room continues to the records of
// an uninterrupted run.
func TestFaultDiskFull(t *testing.T) {
	cfg := writeFile(t, "fault.yaml", faultConfig)
	want := uninterrupted(t, cfg)
	dir, data := t.TempDir(), t.TempDir()
	// 40 blocks of 512 bytes: room for about 15 records.
	cmd := exec.Command("/bin/sh", "-c", `ulimit -f 40 && exec "$0" "$@"`, os.Args[0], "run", cfg, "-o", dir, "--no-score-cache")
	cmd.Env = append(os.Environ(), "PUEVAL_TEST_RUN_MAIN=1", "PUEVAL_DATA="+data)
	out, err := cmd.CombinedOutput()
	if exitStatus(err) != exitError || !strings.Contains(string(out), "writing records: append to "+filepath.Join(dir, results.RecordsFile)) ||
		!strings.Contains(string(out), "file too large") {
		t.Fatalf("run on a full disk: status %d, output:\n%s", exitStatus(err), out)
	}
	recs, err := results.ReadRecords(dir)
	b, _ := os.ReadFile(filepath.Join(dir, results.RecordsFile))
	if err != nil || len(recs) == 0 || len(recs) >= faultCells || bytes.Count(b, []byte("\n")) != len(recs) || !bytes.HasSuffix(b, []byte("}\n")) {
		t.Fatalf("records after the full disk: %d records, %v, file of %d bytes", len(recs), err, len(b))
	}
	t.Logf("stopped after %d whole records", len(recs))
	if out, err := pueval(t, data, "run", cfg, "-o", dir, "--no-score-cache").CombinedOutput(); err != nil {
		t.Fatalf("run with room: %v\n%s", err, out)
	}
	if got := plugintest.ResultsOnly(t, dir); !bytes.Equal(got, want) {
		t.Errorf("records after the full disk differ from an uninterrupted run's")
	}
}

// The same on a real full file system: a 48 KiB tmpfs (root only; skipped
// otherwise), grown to continue.
func TestFaultTmpfsFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	cfg := writeFile(t, "fault.yaml", faultConfig)
	want := uninterrupted(t, cfg)
	dir, data := filepath.Join(mnt, "results"), t.TempDir()
	out, err := pueval(t, data, "run", cfg, "-o", dir, "--no-score-cache").CombinedOutput()
	if exitStatus(err) != exitError || !strings.Contains(string(out), "no space left on device") {
		t.Fatalf("run on a full tmpfs: status %d, output:\n%s", exitStatus(err), out)
	}
	recs, err := results.ReadRecords(dir)
	if err != nil || len(recs) == 0 || len(recs) >= faultCells {
		t.Fatalf("records on the full tmpfs: %d, %v", len(recs), err)
	}
	if out, err := exec.Command("mount", "-o", "remount,size=16m", mnt).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v %s", err, out)
	}
	if out, err := pueval(t, data, "run", cfg, "-o", dir, "--no-score-cache").CombinedOutput(); err != nil {
		t.Fatalf("run with room: %v\n%s", err, out)
	}
	if got := plugintest.ResultsOnly(t, dir); !bytes.Equal(got, want) {
		t.Errorf("records after the full tmpfs differ from an uninterrupted run's")
	}
}

// A changed config re-run into the directory of another is refused (status
// 1), naming both; the records stay the first config's.
func TestFaultChangedConfigRefused(t *testing.T) {
	cfg := writeFile(t, "fault.yaml", faultConfig)
	changed := writeFile(t, "ablation.yaml", strings.Replace(faultConfig, "bags: 10", "bags: 12", 1))
	dir, data := t.TempDir(), t.TempDir()
	if out, err := pueval(t, data, "run", cfg, "-o", dir, "--repeats", "1").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	before := plugintest.ResultsOnly(t, dir)
	out, err := pueval(t, data, "run", changed, "-o", dir, "--repeats", "1").CombinedOutput()
	if exitStatus(err) != exitError || !strings.Contains(string(out), "holds the results of another configuration") ||
		!strings.Contains(string(out), cfg) || !strings.Contains(string(out), changed) {
		t.Errorf("changed config: status %d, output:\n%s", exitStatus(err), out)
	}
	if !bytes.Equal(plugintest.ResultsOnly(t, dir), before) {
		t.Error("the refused run changed the records")
	}
}

// Score-cache entries crafted with a valid checksum and an impossible row
// count are refused by name and recomputed: the run's records are those of a
// run without the cache.
func TestFaultCraftedScoreCache(t *testing.T) {
	cfg := writeFile(t, "fault.yaml", faultConfig)
	cache, data := t.TempDir(), t.TempDir()
	first := t.TempDir()
	if out, err := pueval(t, data, "run", cfg, "-o", first, "--repeats", "1", "--score-cache", cache).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var crafted []string
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".scores") {
			// n = 10/9 mod 2^64: 9n overflows to the body's 10 bytes.
			var inv9 uint64 = 1
			for range 64 {
				inv9 *= 2 - 9*inv9
			}
			os.WriteFile(p, craftedScores(10*inv9, 10), 0o644)
			crafted = append(crafted, p)
		}
		return nil
	})
	if len(crafted) != 6 {
		t.Fatalf("%d score-cache entries, want 6", len(crafted))
	}
	second := t.TempDir()
	out, err := pueval(t, data, "run", cfg, "-o", second, "--repeats", "1", "--score-cache", cache).CombinedOutput()
	if err != nil || !strings.Contains(string(out), crafted[0]+": corrupt score cache entry") || !strings.Contains(string(out), "6 classifiers trained") {
		t.Fatalf("run over crafted entries: %v\n%s", err, out)
	}
	if !bytes.Equal(plugintest.ResultsOnly(t, first), plugintest.ResultsOnly(t, second)) {
		t.Error("records over the crafted cache differ")
	}
}

// craftedScores is a score-cache entry with a valid checksum that claims n
// rows over a body of size bytes.
func craftedScores(n uint64, size int) []byte {
	b := append([]byte("pueval-scores-v1\n"), byte(n), byte(n>>8), byte(n>>16), byte(n>>24), byte(n>>32), byte(n>>40), byte(n>>48), byte(n>>56))
	b = append(b, make([]byte, size)...)
	return append(b, sha256sum(b)...)
}

// A run whose cells fail (beta at or below alpha) finishes, writes its
// records and exits with status 3, not 0 or 1.
func TestFaultFailedCellsExitStatus(t *testing.T) {
	cfg := writeFile(t, "crowded.yaml", `experiment: crowded
seed: 1
repeats: 1
protocol: {name: psb2019}
grid: {beta: [1, 0.7]}
datasets:
  - name: mostly-positive
    source: {name: synth-gaussian, n: 3000, d: 3, positive_fraction: 0.85}
classifier: {bags: 3}
metrics: [acc]
`)
	dir := t.TempDir()
	out, err := pueval(t, t.TempDir(), "run", cfg, "-o", dir).CombinedOutput()
	if exitStatus(err) != exitCellsFailed || !strings.Contains(string(out), "1 of the 2 cells run failed") {
		t.Errorf("status %d, output:\n%s", exitStatus(err), out)
	}
	if recs, err := results.ReadRecords(dir); err != nil || len(recs) != 2 {
		t.Errorf("records: %d %v", len(recs), err)
	}
	// A signal is not a failed cell: SIGTERM mid-run exits 1.
	long := writeFile(t, "fault.yaml", faultConfig)
	cmd := pueval(t, t.TempDir(), "run", long, "-o", t.TempDir())
	cmd.Start()
	time.Sleep(300 * time.Millisecond)
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); exitStatus(err) != exitError || time.Since(sent) > time.Second {
		t.Errorf("SIGTERM: status %d after %v", exitStatus(err), time.Since(sent))
	}
}

func sha256sum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// Every command stops within a second of SIGINT or SIGTERM, also one busy
// in work that does not check for it (drawing the AAAI-2017 report's
// figures, about a second), with the error status: either Main's grace exit
// cuts the drawing off, or the report finishes first and writeReport then
// sees the signal. (The test once assumed the drawing outlasts the grace;
// on a faster day the report finished first and exited 0.)
func TestFaultSignalStopsReport(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := copyDir(t, filepath.Join("..", "papers", "aaai2017", "testdata", "schema1", "scalar", "aaai2017-smoke"))
		cmd := pueval(t, t.TempDir(), "report", dir)
		var out bytes.Buffer
		cmd.Stderr = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		sent := time.Now()
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if took := time.Since(sent); took > time.Second || exitStatus(err) != exitError {
			t.Errorf("%v: exited after %v with status %d: %s", sig, took, exitStatus(err), out.String())
		}
	}
}
