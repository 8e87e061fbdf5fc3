//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
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
	// The first run is stopped (SIGSTOP) while the second tries: it holds
	// its lock mid-run however long the second takes to start.
	if err := first.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
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
	if err := first.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
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
	// A signal is not a failed cell: SIGTERM mid-run stops the run through
	// its own check (Main's grace exit is ten minutes away) with status 1
	// and its message, keeping every finished cell whole. 6,000 cells take
	// minutes: the signal lands mid-run however slowly this test runs.
	long := writeFile(t, "fault.yaml", strings.Replace(faultConfig, "repeats: 10", "repeats: 1000", 1))
	runDir := t.TempDir()
	cmd := puevalOwnStop(t, t.TempDir(), "run", long, "-o", runDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitRecords(t, cmd, runDir, 1)
	cmd.Process.Signal(syscall.SIGTERM)
	if status := waitExit(t, cmd, 5*time.Minute); status != exitError || !strings.Contains(stderr.String(), "interrupted after") ||
		!strings.Contains(stderr.String(), "of 6000 cells") || strings.Contains(stderr.String(), "stopped by") {
		t.Errorf("SIGTERM: status %d, stderr:\n%s", status, stderr.String())
	}
	recs, err := results.ReadRecords(runDir)
	b, _ := os.ReadFile(filepath.Join(runDir, results.RecordsFile))
	m, merr := results.ReadManifest(runDir)
	if err != nil || merr != nil || len(recs) == 0 || bytes.Count(b, []byte("\n")) != len(recs) || m.Done != len(recs) || m.Finished != nil {
		t.Errorf("after SIGTERM: %d records (%v), %d lines, manifest done %d, finished %v (%v)",
			len(recs), err, bytes.Count(b, []byte("\n")), m.Done, m.Finished, merr)
	}
}

func sha256sum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// A signal reaches pueval report while it draws the figures (work that does
// not check the context): the report finishes, sees the signal at its own
// check after the drawing, and says so with status 1; the report is whole,
// every file the one an uninterrupted report writes, no temporary file
// left, the records untouched. The signal lands at a known point, not
// after a sleep: the results directory's manifest is a named pipe, which
// the report opens after its first check of the context and before it
// draws; the test signals once the report has opened it, then writes the
// manifest into it. Main's grace exit is ten minutes away, so only the
// report's own check can stop it.
func TestFaultSignalStopsReport(t *testing.T) {
	src := filepath.Join("..", "papers", "aaai2017", "testdata", "schema1", "scalar", "aaai2017-smoke")
	whole := copyDir(t, src)
	if _, stderr, err := runCLI(t, "report", whole); err != nil {
		t.Fatalf("uninterrupted report: %v\n%s", err, stderr)
	}
	want := dirFiles(t, filepath.Join(whole, "report"))
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := copyDir(t, src)
		manifest := filepath.Join(dir, results.ManifestFile)
		body, err := os.ReadFile(manifest)
		if err != nil {
			t.Fatal(err)
		}
		records, _ := os.ReadFile(filepath.Join(dir, results.RecordsFile))
		if err := os.Remove(manifest); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(manifest, 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
		cmd := puevalOwnStop(t, t.TempDir(), "report", dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pipe := openWhenRead(t, cmd, manifest, &stderr)
		cmd.Process.Signal(sig)
		if _, err := pipe.Write(body); err != nil {
			t.Fatal(err)
		}
		pipe.Close()
		status := waitExit(t, cmd, 5*time.Minute)
		msg := stderr.String()
		cause := map[syscall.Signal]string{syscall.SIGINT: "interrupt", syscall.SIGTERM: "terminated"}[sig]
		if status != exitError || !strings.Contains(msg, "stopped, after writing the report into "+filepath.Join(dir, "report")+" in full") ||
			!strings.Contains(msg, cause) || strings.Contains(msg, "stopped by") {
			t.Errorf("%v: status %d, stderr:\n%s", sig, status, msg)
		}
		if got := dirFiles(t, filepath.Join(dir, "report")); !sameTables(got, want) {
			t.Errorf("%v: the report holds %d files, want the %d of an uninterrupted report with the same tables", sig, len(got), len(want))
		}
		if after, _ := os.ReadFile(filepath.Join(dir, results.RecordsFile)); !bytes.Equal(after, records) {
			t.Errorf("%v: the records changed", sig)
		}
	}
}

// openWhenRead opens the named pipe for writing, which returns once cmd has
// opened it for reading, and fails the test if cmd exits first or does not
// open it within a minute (a broken build).
func openWhenRead(t *testing.T, cmd *exec.Cmd, pipe string, stderr *bytes.Buffer) *os.File {
	t.Helper()
	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
		}
		opened <- f
	}()
	select {
	case f := <-opened:
		if f == nil {
			t.FailNow()
		}
		return f
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		cmd.Wait()
		// Open the pipe for reading, so that the writer above returns.
		if r, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
		t.Fatalf("%v did not read its manifest within a minute:\n%s", cmd.Args[1:], stderr.String())
		return nil
	}
}

// dirFiles maps the names of the files in dir to their contents.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// sameTables reports whether two reports hold the same files (no
// temporary one), with the same tables (Markdown, CSV, LaTeX; the figures'
// bytes are not compared, nor the timing tables).
func sameTables(got, want map[string][]byte) bool {
	if len(got) != len(want) {
		return false
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			return false
		}
		switch filepath.Ext(name) {
		case ".md", ".csv", ".tex":
			if !strings.HasPrefix(name, "timing") && !bytes.Equal(g, w) {
				return false
			}
		}
	}
	return true
}

// A command that never checks its context (a stand-in: envStuck) is ended
// by Main's grace exit after SIGINT or SIGTERM, with status 1 and a message
// that says what stopped it; the test waits for the exit, however long the
// grace takes on a loaded machine, and checks only that it happens and
// what it says.
func TestFaultGraceExitEndsStuckCommand(t *testing.T) {
	for _, c := range []struct {
		sig   syscall.Signal
		cause string
	}{{syscall.SIGINT, "interrupt"}, {syscall.SIGTERM, "terminated"}} {
		cmd := pueval(t, t.TempDir(), "version")
		cmd.Env = append(cmd.Env, envStuck+"=1")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The command runs (so Main listens for signals) once it says so.
		rd := bufio.NewReader(stderr)
		if line, err := rd.ReadString('\n'); err != nil || !strings.HasPrefix(line, "working") {
			cmd.Process.Kill()
			t.Fatalf("stand-in command: %q, %v", line, err)
		}
		cmd.Process.Signal(c.sig)
		rest, _ := io.ReadAll(rd)
		status := waitExit(t, cmd, 5*time.Minute)
		want := "pueval: stopped by " + c.cause + " signal received (what was finished is kept)"
		if status != exitError || !strings.Contains(string(rest), want) {
			t.Errorf("%v: status %d, stderr %q, want %d and %q", c.sig, status, rest, exitError, want)
		}
	}
}
