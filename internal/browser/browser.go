// Package browser loads pueval's HTML reports in a headless Chromium,
// driven through the Chrome DevTools Protocol (chromedp), to check them as
// a reader sees them - every image loads, no table or text runs out of its
// box or off the page - and to take their full-page screenshots.
//
// It runs the Chromium found by Find ($PUEVAL_CHROMIUM, else chromium,
// chromium-browser, google-chrome or google-chrome-stable on PATH), headless
// and without its sandbox, which cannot start as root (CI runs as root).
// Nothing but the test of the reports (package cli) and the screenshot
// command (internal/browser/shoot) imports it: pueval itself does not need
// a browser.
package browser

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/chromedp/chromedp"
)

// ChromiumEnv names the environment variable that gives the browser's
// path, before the names Find looks up on PATH.
const ChromiumEnv = "PUEVAL_CHROMIUM"

// names are the executables Find looks for on PATH, in order.
var names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// ErrNoBrowser is Find's error when no browser is installed.
var ErrNoBrowser = errors.New("no Chromium found: set " + ChromiumEnv + " or install one of " + strings.Join(names, ", ") +
	" (Debian: apt-get install chromium)")

// Find returns the path of the browser to run: $PUEVAL_CHROMIUM when set
// (an error if it is not executable), else the first of chromium,
// chromium-browser, google-chrome and google-chrome-stable on PATH.
func Find() (string, error) {
	if p := os.Getenv(ChromiumEnv); p != "" {
		full, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("%s=%s: %w", ChromiumEnv, p, err)
		}
		return full, nil
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", ErrNoBrowser
}

// Browser is a running headless Chromium; its pages are opened one after
// the other in one tab.
type Browser struct {
	ctx    context.Context
	cancel func()
}

// Start runs the browser at exe. Close stops it.
func Start(ctx context.Context, exe string) (*Browser, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // the sandbox refuses to run as root
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("hide-scrollbars", true), // screenshots and widths without a scroll bar
		chromedp.Flag("font-render-hinting", "none"),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelTab := chromedp.NewContext(actx)
	// The first action starts the browser: a failure to start is reported
	// here, not at the first page.
	if err := chromedp.Do(bctx); err != nil {
		cancelTab()
		cancelAlloc()
		return nil, fmt.Errorf("browser: starting %s: %w", exe, err)
	}
	return &Browser{ctx: bctx, cancel: func() { cancelTab(); cancelAlloc() }}, nil
}

// Close stops the browser.
func (b *Browser) Close() { b.cancel() }

// Problem is something wrong with a page as the browser lays it out.
type Problem struct {
	Kind string `json:"kind"` // image, page, overflow, text, colour or link
	What string `json:"what"` // the element and what is wrong with it
}

func (p Problem) String() string { return p.Kind + ": " + p.What }

// checkJS returns the problems of the loaded page (check.js says which).
//
//go:embed check.js
var checkJS string

// open loads url in a window width CSS pixels wide (height tall; a full
// page screenshot extends it) and waits for its load event, which follows
// the loading of every image.
func (b *Browser) open(ctx context.Context, url string, width, height int64, scale float64) error {
	return chromedp.Do(ctx,
		chromedp.EmulateViewport(width, height, chromedp.EmulateScale(scale)),
		chromedp.Navigate(url),
	)
}

// Check loads url in a window width CSS pixels wide and returns its
// problems: an image that does not load, a page that scrolls sideways, a
// table or pre wider than its container, an element whose text runs out
// of its box, red text outside an element of class "problem" (red is for
// what went wrong), a link to a Markdown file (shown as plain text). An
// error is a page that could not be checked at all.
func (b *Browser) Check(ctx context.Context, url string, width int) ([]Problem, error) {
	ctx, cancel := merge(b.ctx, ctx)
	defer cancel()
	if err := b.open(ctx, url, int64(width), 900, 1); err != nil {
		return nil, fmt.Errorf("browser: loading %s: %w", url, err)
	}
	ps, err := chromedp.Run(ctx, chromedp.Evaluate[[]Problem](checkJS))
	if err != nil {
		return nil, fmt.Errorf("browser: checking %s: %w", url, err)
	}
	return ps, nil
}

// Image is an image of a page as the browser lays it out.
type Image struct {
	Src     string  `json:"src"`
	Natural int     `json:"natural"` // the width of the file, in pixels
	Shown   float64 `json:"shown"`   // the width it is drawn at, in CSS pixels
}

// imagesJS lists the page's images with their natural and shown widths.
const imagesJS = `Array.from(document.images).map((i) => ({src: i.getAttribute("src") || "", natural: i.naturalWidth, shown: i.getBoundingClientRect().width}))`

// Images loads url in a window width CSS pixels wide and returns its
// images with the width of each file and the width it is shown at: a
// figure shown much smaller than it was drawn has text too small to read.
func (b *Browser) Images(ctx context.Context, url string, width int) ([]Image, error) {
	ctx, cancel := merge(b.ctx, ctx)
	defer cancel()
	if err := b.open(ctx, url, int64(width), 900, 1); err != nil {
		return nil, fmt.Errorf("browser: loading %s: %w", url, err)
	}
	imgs, err := chromedp.Run(ctx, chromedp.Evaluate[[]Image](imagesJS))
	if err != nil {
		return nil, fmt.Errorf("browser: reading the images of %s: %w", url, err)
	}
	return imgs, nil
}

// Screenshot returns a PNG of the whole page at url, laid out in a window
// width CSS pixels wide and drawn at scale device pixels per CSS pixel.
func (b *Browser) Screenshot(ctx context.Context, url string, width int, scale float64) ([]byte, error) {
	ctx, cancel := merge(b.ctx, ctx)
	defer cancel()
	if err := b.open(ctx, url, int64(width), 900, scale); err != nil {
		return nil, fmt.Errorf("browser: loading %s: %w", url, err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: PNG rather than JPEG
	if err != nil {
		return nil, fmt.Errorf("browser: screenshot of %s: %w", url, err)
	}
	return png, nil
}

// merge returns the browser's context, cancelled also when ctx is done (a
// caller's deadline), without stopping the browser when it is cancelled.
func merge(browser, ctx context.Context) (context.Context, context.CancelFunc) {
	m, cancel := context.WithCancel(browser)
	stop := context.AfterFunc(ctx, cancel)
	return m, func() { stop(); cancel() }
}
