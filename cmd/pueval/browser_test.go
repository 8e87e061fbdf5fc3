package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pueval/pueval/internal/browser/browsertest"
)

// browserWidths are the window widths the reports are checked at: a
// laptop's, and a narrower one at which the wide tables must still fit.
var browserWidths = []int{1280, 1024}

// maxVectorFigure is the size every SVG and PDF figure of a report stays
// under (issue 19: Figure 3's SVG was 24.7 MB).
const maxVectorFigure = 2 << 20

// TestReportsInBrowser reproduces every paper's smoke config and loads its
// report in headless Chromium, as a reader opens it: the test fails when an
// image does not load, the page scrolls sideways, a table or pre is wider
// than its container, or text runs out of its box (internal/browser's
// checks, whose own test shows each of them catching a broken page). It
// also holds every vector figure under 2 MB. Without a browser it is
// skipped, unless PUEVAL_TEST_BROWSER=1 (make test-browser, CI); the smoke
// runs need the UCI mirror.
func TestReportsInBrowser(t *testing.T) {
	b := browsertest.Start(t)
	if os.Getenv("PUEVAL_UCI_MIRROR") == "" {
		if os.Getenv(browsertest.RequireEnv) == "1" {
			t.Fatal("PUEVAL_UCI_MIRROR is unset: the smoke runs whose reports are checked need it")
		}
		t.Skip("PUEVAL_UCI_MIRROR is unset")
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	for _, paper := range []string{"aaai2017", "psb2019", "claesen2015", "aul", "pulp"} {
		t.Run(paper, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), paper)
			start := time.Now()
			if _, stderr, err := runCLI(t, "reproduce", paper+"-smoke", "-o", out, "-j", "2"); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			ran := time.Since(start)
			report := filepath.Join(out, "report")
			for _, width := range browserWidths {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				ps, err := b.Check(ctx, "file://"+filepath.Join(report, "index.html"), width)
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range ps {
					t.Errorf("at %d px: %s", width, p)
				}
			}
			checkFigureSizes(t, report)
			t.Logf("smoke run and report %v, browser checks %v", ran.Round(time.Millisecond), (time.Since(start) - ran).Round(time.Millisecond))
		})
	}
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
