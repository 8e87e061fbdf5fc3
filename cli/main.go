// Package cli is the pueval command line as a library: its subcommands (run,
// reproduce, report, evaluate, correct, ...) with their flags, help and exit
// statuses. It knows the papers only through the registries of experiments
// and report, so a binary is the plug-in packages it imports plus a main
// that calls Main:
//
//	import (
//		"os"
//
//		"github.com/pueval/pueval/cli"
//		_ "github.com/pueval/pueval/papers/all" // or a paper of one's own
//	)
//
//	func main() { os.Exit(cli.Main(os.Args[1:])) }
//
// cmd/pueval is that binary with the five papers; examples/toypaper/cmd/toypaper
// is one with only the toy paper.
package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Main runs pueval with args (without the program name) on the process's
// standard streams and returns the exit status: 0 done, 1 error (printed to
// stderr), 3 a run or reproduction finished but some of its cells failed.
// SIGINT and SIGTERM cancel the command; one that has not returned within a
// moment after the signal ends the process (status 1), see exitAfterSignal.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	returned := make(chan struct{})
	go exitAfterSignal(ctx, returned, signalGrace)
	err := mainCommand(ctx, args, os.Stdout, os.Stderr)
	close(returned) // before stop, which cancels ctx too
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return exitCode(err)
	}
	return 0
}

// signalGrace is how long a command has, after SIGINT or SIGTERM, to stop on
// its own (commands check their context: a run cancels its cells and says how
// to continue) before exitAfterSignal ends the process. A variable so that the
// tests' pueval processes can lengthen it: a command that stops must do so by
// its own check there, not by this exit.
var signalGrace = 800 * time.Millisecond

// mainCommand is what Main runs: Run, or, in the tests' pueval processes, a
// stand-in for a command that never checks its context.
var mainCommand = Run

// exitAfterSignal ends the process when a signal has cancelled ctx and the
// command has not returned (closed returned) within grace: every command
// stops within a second, even in the middle of work that does not check its
// context (rendering a figure). What such an exit can interrupt is safe: records are
// appended whole (a torn last line is cut off when the directory is opened
// again), and every other file is written to a temporary name and renamed.
// When Run returns first, Main returns its status and the process goes on
// (a program that calls Main and then does more is not ended).
func exitAfterSignal(ctx context.Context, returned <-chan struct{}, grace time.Duration) {
	select {
	case <-ctx.Done():
	case <-returned:
		return
	}
	select {
	case <-time.After(grace):
	case <-returned:
		return
	}
	fmt.Fprintf(os.Stderr, "pueval: stopped by %v (what was finished is kept)\n", context.Cause(ctx))
	os.Exit(exitError)
}
