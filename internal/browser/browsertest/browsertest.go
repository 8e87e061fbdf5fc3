// Package browsertest starts the headless browser of package browser for a
// test: it skips the test when no browser is installed, unless
// PUEVAL_TEST_BROWSER=1 (make test-browser, CI) makes that a failure.
package browsertest

import (
	"context"
	"os"
	"testing"

	"github.com/pueval/pueval/internal/browser"
)

// RequireEnv names the environment variable that, set to 1, makes a
// missing browser fail the test rather than skip it.
const RequireEnv = "PUEVAL_TEST_BROWSER"

// Start returns a running browser, stopped when the test ends. Without a
// browser the test is skipped, or fails under PUEVAL_TEST_BROWSER=1.
func Start(tb testing.TB) *browser.Browser {
	tb.Helper()
	exe, err := browser.Find()
	if err != nil {
		if os.Getenv(RequireEnv) == "1" {
			tb.Fatalf("%v (%s=1 requires a browser)", err, RequireEnv)
		}
		tb.Skipf("%v; the browser checks of the reports are skipped (%s=1 makes this a failure)", err, RequireEnv)
	}
	b, err := browser.Start(context.Background(), exe)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(b.Close)
	return b
}
