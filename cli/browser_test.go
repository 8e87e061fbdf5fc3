package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pueval/pueval/internal/browser"
	"github.com/pueval/pueval/internal/browser/browsertest"
)

// browserWidths are the window widths the reports are checked at: a
// laptop's, and a narrower one at which the wide tables must still fit.
var browserWidths = []int{1280, 1024}

// maxVectorFigure is the size every SVG and PDF figure of a report stays
// under (issue 19: Figure 3's SVG was 24.7 MB).
const maxVectorFigure = 2 << 20

// TestReportsInBrowser reproduces every paper's smoke config and loads its
// report in headless Chromium, as a reader opens it, and likewise the page
// of pueval evaluate --html: the test fails when an
// image does not load, the page scrolls sideways, a table or pre is wider
// than its container, or text runs out of its box (internal/browser's
// checks, whose own test shows each of them catching a broken page). It
// also holds every vector figure under 2 MB. Without a browser it is
// skipped, unless PUEVAL_TEST_BROWSER=1 (make test-browser, CI); the smoke
// runs need the UCI mirror (the evaluate page does not).
func TestReportsInBrowser(t *testing.T) {
	b := browsertest.Start(t)
	// The page of pueval evaluate (issue 21) needs no data: it evaluates a
	// model trained on a generated feature CSV, with every estimator, the
	// bounds, the bootstrap band and the true numbers.
	t.Run("evaluate", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "evaluate")
		in := puFeatureFile(t, 1500)
		start := time.Now()
		if _, stderr, err := runCLI(t, "evaluate", "--input", in, "--label", "is_labeled", "--truth", "class", "--ignore", "id",
			"--bootstrap", "50", "--km-max-rows", "300", "--html", out); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		checkPage(t, b, out, time.Since(start))
	})
	if os.Getenv("PUEVAL_UCI_MIRROR") == "" {
		if os.Getenv(browsertest.RequireEnv) == "1" {
			t.Fatal("PUEVAL_UCI_MIRROR is unset: the smoke runs whose reports are checked need it")
		}
		t.Skip("PUEVAL_UCI_MIRROR is unset")
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	root := t.TempDir()
	for _, paper := range []string{"aaai2017", "psb2019", "claesen2015", "aul", "pulp"} {
		t.Run(paper, func(t *testing.T) {
			out := filepath.Join(root, paper+"-smoke")
			start := time.Now()
			if _, stderr, err := runCLI(t, "reproduce", paper+"-smoke", "-o", out, "-j", "2"); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			checkPage(t, b, filepath.Join(out, "report"), time.Since(start))
		})
	}
	// The landing page of pueval reproduce-all --smoke over the same runs
	// (finished: it writes their reports again and the page): its links
	// resolve, the five reports among them, and it passes the page checks.
	t.Run("landing", func(t *testing.T) {
		start := time.Now()
		if _, stderr, err := runCLI(t, "reproduce-all", "--smoke", "-o", root, "-j", "2"); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		checkLanding(t, root)
		checkPageOnly(t, b, root, time.Since(start))
	})
}

// checkPage loads dir/index.html at every width of browserWidths and fails
// for every problem the browser finds, for vector figures over 2 MB and for
// figures shown too small to read (checkFigureScale).
func checkPage(t *testing.T, b *browser.Browser, dir string, ran time.Duration) {
	t.Helper()
	checkPageOnly(t, b, dir, ran)
	checkFigureSizes(t, dir)
	checkFigureScale(t, b, dir)
}

// checkPageOnly loads dir/index.html at every width of browserWidths and
// fails for every problem the browser finds.
func checkPageOnly(t *testing.T, b *browser.Browser, dir string, ran time.Duration) {
	t.Helper()
	start := time.Now()
	for _, width := range browserWidths {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		ps, err := b.Check(ctx, "file://"+filepath.Join(dir, "index.html"), width)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			t.Errorf("at %d px: %s", width, p)
		}
	}
	t.Logf("run and page %v, browser checks %v", ran.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// checkFigureSizes fails for an SVG or PDF in dir over maxVectorFigure.
func checkFigureSizes(t *testing.T, dir string) {
	t.Helper()
	var figs []string
	for _, ext := range []string{"svg", "pdf"} {
		m, err := filepath.Glob(filepath.Join(dir, "*."+ext))
		if err != nil {
			t.Fatal(err)
		}
		figs = append(figs, m...)
	}
	if len(figs) == 0 {
		t.Errorf("%s: no SVG or PDF figure", dir)
	}
	for _, f := range figs {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > maxVectorFigure {
			t.Errorf("%s: %s, over the %s of a vector figure", filepath.Base(f), mb(fi.Size()), mb(maxVectorFigure))
		}
	}
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }
