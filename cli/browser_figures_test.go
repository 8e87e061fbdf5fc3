package cli

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/pueval/pueval/internal/browser"
	"github.com/pueval/pueval/internal/browser/browsertest"
	"github.com/pueval/pueval/report"
)

// figureWindow is the window width the figures' scale is checked at: a
// laptop's. A narrower window shrinks every figure with the column.
const figureWindow = 1280

// minFigureScale is the smallest share of its drawn size a figure may be
// shown at in a figureWindow-wide window. A figure is drawn at report.PNGDPI
// pixels per inch and a page has 96 CSS pixels per inch, so shown at
// natural * 96/PNGDPI CSS pixels its text has the size it was set in (the
// legends' 9 pt, the heat maps' 7 pt ticks); at 0.8 of that a 9 pt legend
// is 9.6 CSS pixels. AAAI Figure 3 (27 heat maps in 3,465 px, shown at
// 1,100) was at 0.66.
const minFigureScale = 0.8

// checkFigureScale fails for every image of dir/index.html shown, in a
// figureWindow-wide window, at less than minFigureScale of its drawn size.
func checkFigureScale(t *testing.T, b *browser.Browser, dir string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	imgs, err := b.Images(ctx, "file://"+filepath.Join(dir, "index.html"), figureWindow)
	if err != nil {
		t.Fatal(err)
	}
	for _, img := range imgs {
		drawn := float64(img.Natural) * 96 / report.PNGDPI
		if img.Shown < minFigureScale*drawn {
			t.Errorf("%s: %d px drawn (%.0f CSS px at its size) shown at %.0f CSS px in a %d px window: %.2f of its size, under %.2f",
				img.Src, img.Natural, drawn, img.Shown, figureWindow, img.Shown/drawn, minFigureScale)
		}
	}
}

// TestReportsInBrowserSummary: the report a user's own config gets (the
// summary: no report: in the config), with two estimators, two truths and
// three metrics, loads in the browser as the papers' reports do (checkPage:
// no table wider than the window at 1,280 or 1,024 px; the wide form was
// 3,418 px wide at 1,280). It needs no data (the data are generated).
func TestReportsInBrowserSummary(t *testing.T) {
	b := browsertest.Start(t)
	t.Setenv("PUEVAL_DATA", t.TempDir())
	cfg := writeFile(t, "user.yaml", `experiment: my-model
seed: 7
repeats: 2
protocol: {name: aaai2017, labeled: 100, max_unlabeled: 600}
grid: {beta: [1, 0.9]}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 900, d: 3}
classifier: {bags: 3}
estimators: [alphamax-n, km2]
truths: [traditional, same-model]
metrics: [auc, aucpr, mcc]
`)
	out := filepath.Join(t.TempDir(), "run")
	start := time.Now()
	if _, stderr, err := runCLI(t, "run", cfg, "-o", out, "-j", "2"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if _, stderr, err := runCLI(t, "report", out); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	dir := filepath.Join(out, "report")
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
	t.Logf("run, report and browser checks %v", time.Since(start).Round(time.Millisecond))
}
