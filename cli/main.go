// Command pueval reproduces the experiments of the papers on measuring
// classifiers from positive-unlabeled data and recovers the true performance
// of a practitioner's classifier. Run `pueval help` for the subcommands.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go exitAfterSignal(ctx, signalGrace)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(exitCode(err))
	}
}

// signalGrace is how long a command has, after SIGINT or SIGTERM, to stop on
// its own (commands check their context: a run cancels its cells and says how
// to continue) before exitAfterSignal ends the process.
const signalGrace = 800 * time.Millisecond

// exitAfterSignal ends the process when a signal has cancelled ctx and the
// command has not returned within grace: every command stops within a
// second, even in the middle of work that does not check its context
// (rendering a figure). What such an exit can interrupt is safe: records are
// appended whole (a torn last line is cut off when the directory is opened
// again), and every other file is written to a temporary name and renamed.
// When run returns first, main exits before grace is over.
func exitAfterSignal(ctx context.Context, grace time.Duration) {
	<-ctx.Done()
	time.Sleep(grace)
	fmt.Fprintf(os.Stderr, "pueval: stopped by %v (what was finished is kept)\n", context.Cause(ctx))
	os.Exit(exitError)
}
