package browser_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pueval/pueval/internal/browser"
	"github.com/pueval/pueval/internal/browser/browsertest"
)

// page writes an HTML page (and a small PNG, ok.png, beside it) into a
// temporary directory and returns its file URL.
func page(t *testing.T, dir, name, body string) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	img.Set(0, 0, color.Black)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	html := "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>body { max-width: 900px; margin: 1em auto; font-family: sans-serif; }</style></head><body>" +
		body + "</body></html>"
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + p
}

var long = strings.Repeat("unbreakable", 60)

// TestCheckFindsBrokenPages: each broken page is caught with the problem
// it has, and a sound page (an image, a table, wrapped text) has none. The
// checks are what the report test relies on; a check that could not fail
// would pass every report.
func TestCheckFindsBrokenPages(t *testing.T) {
	b := browsertest.Start(t)
	dir := t.TempDir()
	good := `<h1>Report</h1><p>Some text that wraps as it should, at spaces, in its box.</p>
<figure><img src="ok.png" width="400"><figcaption>A figure.</figcaption></figure>
<table><tr><th>a</th><th>b</th></tr><tr><td>0.5</td><td>0.25</td></tr></table>
<pre style="white-space: pre-wrap">a short preformatted line</pre>
<ul><li class="problem" style="color: #a33">a claim that does NOT hold, in red</li></ul>
<p><a href="table.csv">table.csv</a>, <code>table.md</code></p>`
	cases := []struct {
		name, body, kind, what string
	}{
		{"good", good, "", ""},
		{"missing-image", good + `<img src="missing.png">`, "image", "missing.png"},
		{"broken-image", good + `<img src="data:image/png;base64,AAAA">`, "image", "data:image/png"},
		{"wide-table", good + `<table><tr><td style="white-space: nowrap">` + long + `</td></tr></table>`, "overflow", "table"},
		{"fixed-table", good + `<table style="width: 2000px"><tr><td>x</td></tr></table>`, "overflow", "table"},
		{"long-pre", good + `<pre>` + long + `</pre>`, "overflow", "pre"},
		{"long-word", good + `<p style="width: 300px">` + long + `</p>`, "text", "p"},
		{"clipped", good + `<div style="height: 1.2em; overflow: hidden">` + strings.Repeat("a line of text<br>", 5) + `</div>`, "text", "cut off"},
		{"wide-page", good + `<div style="position: relative; left: 1500px; width: 10px">x</div>`, "page", "px wide"},
		{"red-note", good + `<p class="note" style="color: #a33">an explanation, in red</p>`, "colour", "an explanation"},
		{"red-span", good + `<p>fine <span style="color: rgb(214, 58, 58)">red words</span></p>`, "colour", "red words"},
		{"md-link", good + `<p><a href="claims.md">claims.md</a></p>`, "link", "claims.md"},
	}
	for _, c := range cases {
		url := page(t, dir, c.name+".html", c.body)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		ps, err := b.Check(ctx, url, 1280)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%s: %v", c.name, ps)
		if c.kind == "" {
			if len(ps) > 0 {
				t.Errorf("%s: problems on a sound page: %v", c.name, ps)
			}
			continue
		}
		found := false
		for _, p := range ps {
			found = found || (p.Kind == c.kind && strings.Contains(p.What, c.what))
		}
		if !found {
			t.Errorf("%s: no %s problem naming %q among %v", c.name, c.kind, c.what, ps)
		}
	}
}

// TestImages: an image's natural width is its file's, its shown width the
// width it is laid out at (the 40 px test image shown at 400, then in a
// 300 px box with max-width 100 %).
func TestImages(t *testing.T) {
	b := browsertest.Start(t)
	url := page(t, t.TempDir(), "imgs.html", `<img src="ok.png" width="400"><div style="width: 300px"><img src="ok.png" width="400" style="max-width: 100%; height: auto"></div>`)
	imgs, err := b.Images(context.Background(), url, 1280)
	if err != nil {
		t.Fatal(err)
	}
	if len(imgs) != 2 || imgs[0].Src != "ok.png" || imgs[0].Natural != 40 || imgs[0].Shown != 400 || imgs[1].Shown != 300 {
		t.Errorf("images %+v: want ok.png, 40 px, shown at 400 and 300", imgs)
	}
}

// TestScreenshot: a full-page screenshot is a PNG as wide as the window
// times the scale and as tall as the whole page, beyond the window.
func TestScreenshot(t *testing.T) {
	b := browsertest.Start(t)
	url := page(t, t.TempDir(), "tall.html", `<div style="height: 3000px">tall</div>`)
	shot, err := b.Screenshot(context.Background(), url, 800, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 400 || cfg.Height < 1500 {
		t.Errorf("screenshot %d x %d, want 400 wide and at least 1500 tall", cfg.Width, cfg.Height)
	}
}

// Find honours PUEVAL_CHROMIUM, and names it when it is not executable.
func TestFindEnv(t *testing.T) {
	t.Setenv(browser.ChromiumEnv, filepath.Join(t.TempDir(), "no-such-browser"))
	if _, err := browser.Find(); err == nil || !strings.Contains(err.Error(), browser.ChromiumEnv+"=") {
		t.Errorf("Find with a missing %s: %v", browser.ChromiumEnv, err)
	}
}
