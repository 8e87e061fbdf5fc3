package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// TestMain lets the test binary stand in for the pueval binary: with
// PUEVAL_TEST_RUN_MAIN=1 it runs Main on its arguments, as cmd/pueval's
// main does, so a test can start, kill and restart a real pueval process
// without building one. envGrace and envStuck change that process for the
// signal tests.
func TestMain(m *testing.M) {
	if os.Getenv("PUEVAL_TEST_RUN_MAIN") == "1" {
		if g, err := time.ParseDuration(os.Getenv(envGrace)); err == nil {
			signalGrace = g
		}
		if os.Getenv(envStuck) == "1" {
			mainCommand = func(_ context.Context, _ []string, _, stderr io.Writer) error {
				fmt.Fprintln(stderr, "working, without looking at the context")
				time.Sleep(time.Hour)
				return nil
			}
		}
		os.Exit(Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// The environment of the test binary standing in for pueval.
const (
	// envGrace sets Main's signalGrace (a time.ParseDuration string).
	envGrace = "PUEVAL_TEST_SIGNAL_GRACE"
	// envStuck, "1", makes the command one that never checks its
	// context: it says so on stderr and sleeps for an hour.
	envStuck = "PUEVAL_TEST_STUCK"
)

func pueval(t *testing.T, dataDir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PUEVAL_TEST_RUN_MAIN=1", "PUEVAL_DATA="+dataDir)
	return cmd
}

// puevalOwnStop is pueval with Main's grace exit ten minutes after a
// signal: a command the test signals then stops by its own check, with its
// own message, or the test's generous limit (waitExit) ends it as a
// failure. No margin of the test depends on how loaded the machine is.
func puevalOwnStop(t *testing.T, dataDir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := pueval(t, dataDir, args...)
	cmd.Env = append(cmd.Env, envGrace+"=10m")
	return cmd
}

// exitStatus is the exit status of a finished command (-1 when it did not
// exit normally).
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

// waitExit waits for a started cmd and returns its exit status; after
// limit (generous: it is there so that a broken build does not hang the
// test) it kills cmd and fails the test.
func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return exitStatus(err)
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v: still running %v after the signal", cmd.Args[1:], limit)
		return -1
	}
}

// biggerSmoke writes the smoke config with 10 repeats (3 x 3 x 10 = 90 cells),
// so that a signal lands mid-run, and returns its path.
func biggerSmoke(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../papers/aaai2017/aaai2017-smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "smoke10.yaml")
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), "repeats: 2", "repeats: 10", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// waitRecords waits until dir/records.jsonl holds at least n lines.
func waitRecords(t *testing.T, cmd *exec.Cmd, dir string, n int) {
	t.Helper()
	recFile := filepath.Join(dir, results.RecordsFile)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if b, _ := os.ReadFile(recFile); bytes.Count(b, []byte("\n")) >= n {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no records after 60 s")
		}
	}
}

// A run killed with SIGKILL part-way and then re-run gives the same records
// (timings aside) as an uninterrupted run.
func TestKilledRunResumes(t *testing.T) {
	if os.Getenv(datasets.EnvMirror) == "" {
		t.Skipf("%s is not set: this test needs the UCI data", datasets.EnvMirror)
	}
	data, cfg := t.TempDir(), biggerSmoke(t)
	args := func(out string) []string { return []string{"run", cfg, "-o", out, "-j", "2", "--no-score-cache"} }

	killed := t.TempDir()
	cmd := pueval(t, data, args(killed)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitRecords(t, cmd, killed, 5)
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait()
	partial, _ := os.ReadFile(filepath.Join(killed, results.RecordsFile))
	n := bytes.Count(partial, []byte("\n"))
	if n >= 90 {
		t.Fatalf("the run finished (%d records) before it was killed: make the grid bigger", n)
	}
	t.Logf("killed after %d of 90 records", n)

	if out, err := pueval(t, data, args(killed)...).CombinedOutput(); err != nil {
		t.Fatalf("re-run: %v\n%s", err, out)
	} else if !strings.Contains(string(out), "from earlier runs") {
		t.Errorf("re-run did not report the cells of the killed run:\n%s", out)
	}
	whole := t.TempDir()
	if out, err := pueval(t, data, args(whole)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	a, b2 := plugintest.ResultsOnly(t, killed), plugintest.ResultsOnly(t, whole)
	if !bytes.Equal(a, b2) || bytes.Count(a, []byte("\n")) != 90 {
		t.Errorf("killed-and-resumed records differ from the uninterrupted run (%d vs %d lines)",
			bytes.Count(a, []byte("\n")), bytes.Count(b2, []byte("\n")))
	}
}

// `pueval run` then `pueval report` on the built-in smoke config: the report's
// index and its tables and figures appear.
func TestRunAndReportSmoke(t *testing.T) {
	if os.Getenv(datasets.EnvMirror) == "" {
		t.Skipf("%s is not set: this test needs the UCI data", datasets.EnvMirror)
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	out := filepath.Join(t.TempDir(), "smoke")
	if _, stderr, err := runCLI(t, "run", "aaai2017-smoke", "-o", out, "-j", "2"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	stdout, _, err := runCLI(t, "report", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, filepath.Join(out, "report", "index.html")) {
		t.Errorf("report printed %q", stdout)
	}
	for _, f := range []string{"index.html", "table1.md", "table2.tex", "table1-same-model.csv", "fig2a.png", "fig2d.svg", "signtest.md", "aaai2017-fig4.png"} {
		if _, err := os.Stat(filepath.Join(out, "report", f)); err != nil {
			t.Error(err)
		}
	}
	// A second run finds everything done.
	_, stderr, err := runCLI(t, "run", "aaai2017-smoke", "-o", out)
	if err != nil || !strings.Contains(stderr, "0 cells run (0 failed), 18 from earlier runs") {
		t.Errorf("re-run: %v\n%s", err, stderr)
	}
}

// Ctrl-C (SIGINT) stops a run cleanly: it exits, through its own check of
// the context (Main's grace exit is ten minutes away), with an error that
// says how to continue, keeps the finished cells, and a re-run completes
// the grid.
func TestInterruptedRunKeepsFinishedCells(t *testing.T) {
	if os.Getenv(datasets.EnvMirror) == "" {
		t.Skipf("%s is not set: this test needs the UCI data", datasets.EnvMirror)
	}
	data, cfg, out := t.TempDir(), biggerSmoke(t), t.TempDir()
	cmd := puevalOwnStop(t, data, "run", cfg, "-o", out, "-j", "2", "--no-score-cache")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitRecords(t, cmd, out, 3)
	cmd.Process.Signal(os.Interrupt)
	status := waitExit(t, cmd, 5*time.Minute)
	done, _ := os.ReadFile(filepath.Join(out, results.RecordsFile))
	n := bytes.Count(done, []byte("\n"))
	if n == 90 {
		t.Skip("the run finished before the interrupt arrived")
	}
	if status != exitError || !strings.Contains(stderr.String(), "interrupted after") || !strings.Contains(stderr.String(), "run the same command again") {
		t.Fatalf("exit status %d, stderr:\n%s", status, stderr.String())
	}
	m, err := results.ReadManifest(out)
	if err != nil || m.Finished != nil || m.Done != n {
		t.Errorf("manifest after interrupt: finished %v, done %d, records %d, %v", m.Finished, m.Done, n, err)
	}
	if outb, err := pueval(t, data, "run", cfg, "-o", out, "-j", "2", "--no-score-cache").CombinedOutput(); err != nil {
		t.Fatalf("re-run: %v\n%s", err, outb)
	}
	if recs, _ := results.ReadRecords(out); len(recs) != 90 {
		t.Errorf("%d records after the re-run, want 90", len(recs))
	}
}
