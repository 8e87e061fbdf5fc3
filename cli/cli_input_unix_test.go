//go:build unix

package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifo makes a named pipe and, unless rows is negative, a writer that opens
// it (which waits until the reader does), writes a header, then rows rows,
// one every 5 ms, then keeps it open without writing. It never closes the
// pipe while the test runs. opened is closed when the writer's open returned,
// that is when a reader has the pipe open.
func fifo(t *testing.T, rows int) (path string, opened <-chan struct{}) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "scores.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	op := make(chan struct{})
	t.Cleanup(func() {
		close(done)
		// Release a reader (or the writer goroutine) still blocked in open.
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		if f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	if rows < 0 {
		return path, op
	}
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		close(op)
		defer func() { <-done; f.Close() }()
		if _, err := f.WriteString("score,label\n"); err != nil {
			return
		}
		for i := 0; i < rows; i++ {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if _, err := f.WriteString([]string{"0.75,1\n", "0.25,0\n"}[i%2]); err != nil {
				return // the reader is gone
			}
		}
	}()
	return path, op
}

// commandsOnInput are the commands that read an --input file, with the
// flags they need besides it: every practitioner command, each way it
// reads (scores, features to train on, features for KM, both).
var commandsOnInput = [][]string{
	{"metrics"}, {"correct", "--alpha", "0.2", "--beta", "1"}, {"estimate"}, {"estimate", "--method", "all"},
	{"estimate", "--method", "km1", "--feature-columns", "score"}, {"bounds", "--alpha", "0.3"}, {"evaluate"},
}

// /dev/zero (no line breaks, no end) is refused by every command that
// reads an input, with bounded memory: the line limit of the shared reader
// (before, evaluate and estimate --method all read it without one, growing
// by hundreds of MB a second).
func TestDevZeroRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	for _, args := range commandsOnInput {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _, err := runCLI(t, append(args, "--input", "/dev/zero")...)
		runtime.ReadMemStats(&after)
		if want := "pueval: " + args[0] + ": /dev/zero:1: line longer than 1 MiB"; err == nil || err.Error() != want {
			t.Errorf("%v: error %v, want %q", args, err, want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
			t.Errorf("%v: allocated %d MiB reading /dev/zero, want under 32", args, alloc>>20)
		}
	}
}

// In-process: each command stops when its context is cancelled, 100 ms
// after it began to read, with an error that wraps context.Canceled and
// says where the read stopped (so the reader's own check stopped it): while
// the input yields rows slowly, while it stalls (a writer that writes
// nothing more), and while no writer has opened it yet. The 10-second
// limit only keeps a broken build from hanging.
func TestCommandsStopOnCancel(t *testing.T) {
	for _, feed := range []struct {
		name string
		rows int
		want string
	}{
		{"slow", 1 << 30, ": stopped after "},
		{"stalled", 0, ": stopped after 0 data rows: context canceled"},
		{"no writer", -1, ": stopped while opening: context canceled"},
	} {
		for _, args := range commandsOnInput {
			t.Run(feed.name+"/"+strings.Join(args, " "), func(t *testing.T) {
				path, opened := fifo(t, feed.rows)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var out, stderr bytes.Buffer
				done := make(chan error, 1)
				go func() { done <- Run(ctx, append(args, "--input", path), &out, &stderr) }()
				if feed.rows >= 0 {
					// Cancel only once the command has opened the input (the
					// writer's open returns with the reader's), whatever the
					// load: the promise is about stopping mid-read.
					select {
					case <-opened:
					case <-time.After(10 * time.Second):
						t.Fatal("the command did not open its input within 10 s")
					}
				}
				time.AfterFunc(100*time.Millisecond, cancel)
				var err error
				select {
				case err = <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("still reading 10 s after the cancellation")
				}
				if !errors.Is(err, context.Canceled) {
					t.Errorf("error %v, want one wrapping context.Canceled", err)
				}
				if prefix := "pueval: " + args[0] + ": " + path + feed.want; err == nil || !strings.HasPrefix(err.Error(), prefix) {
					t.Errorf("error %v, want one starting with %q", err, prefix)
				}
				if out.Len() > 0 {
					t.Errorf("printed %q", out.String())
				}
			})
		}
	}
}

// pipeFile makes a named pipe and a writer that writes content into it and
// closes it: input that can be read once.
func pipeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "input.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.WriteString(content)
	}()
	t.Cleanup(func() {
		// Release the writer if no reader came.
		if f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	return path
}

// Every command reads its input once, in one pass, so a pipe gives the
// output a file gives. Before, evaluate and estimate --method all opened
// the input a second time, and the pipe, already drained by the header's
// read, failed with a misleading header error.
func TestInputFromPipe(t *testing.T) {
	scores := puScoreFile(t, 120, 600)
	b, err := os.ReadFile(scores)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"metrics"}, {"correct", "--alpha", "0.3", "--beta", "0.9"}, {"estimate"}, {"estimate", "--method", "all"},
		{"bounds", "--alpha", "0.3", "--band", "dkw"},
		{"evaluate", "--bootstrap", "0", "--bounds-resamples", "0", "--estimators", "alphamax-n"},
	} {
		want, _, err := runCLI(t, append(args, "--input", scores)...)
		if err != nil {
			t.Fatalf("%v on the file: %v", args, err)
		}
		got, _, err := runCLI(t, append(args, "--input", pipeFile(t, string(b)))...)
		if err != nil || got != want {
			t.Errorf("%v on a pipe: %v\n%s\nwant\n%s", args, err, got, want)
		}
	}
}

// With a real process: `pueval metrics --input FIFO` (fed slowly, never
// closed) exits on SIGINT, and `pueval estimate`, `pueval correct` and
// `pueval evaluate` on SIGTERM, non-zero, with the message of the reader
// that noticed the signal's cancellation.
func TestSignalStopsReading(t *testing.T) {
	for _, c := range []struct {
		args []string
		sig  syscall.Signal
		rows int
		want string
	}{
		{[]string{"metrics"}, syscall.SIGINT, 1 << 30, "interrupt signal received"},
		{[]string{"estimate"}, syscall.SIGTERM, 1 << 30, "terminated signal received"},
		{[]string{"correct", "--alpha", "0.2", "--beta", "1"}, syscall.SIGTERM, 5, "terminated signal received"},
		{[]string{"evaluate"}, syscall.SIGTERM, 1 << 30, "terminated signal received"},
	} {
		t.Run(c.args[0]+"/"+c.sig.String(), func(t *testing.T) {
			path, opened := fifo(t, c.rows)
			cmd := pueval(t, t.TempDir(), append(c.args, "--input", path)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case <-opened: // pueval opened the FIFO: Main has installed its signal handler
			case err := <-exited:
				t.Fatalf("pueval exited before it opened the FIFO: %v\n%s", err, stderr.String())
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("pueval did not open the FIFO within 30 s")
			}
			time.Sleep(100 * time.Millisecond) // let it read a few rows
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-exited:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-exited
				t.Fatalf("pueval still ran 10 s after %v", c.sig)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() <= 0 {
				t.Errorf("exit %v, want a non-zero exit status", err)
			}
			msg := strings.TrimSpace(stderr.String())
			if prefix := "pueval: " + c.args[0] + ": " + path + ": stopped after "; !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, c.want) {
				t.Errorf("stderr %q, want %q ... %q", msg, prefix, c.want)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout %q", stdout.String())
			}
		})
	}
}
