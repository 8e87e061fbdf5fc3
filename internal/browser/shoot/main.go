// Command shoot takes full-page screenshots of HTML reports in a headless
// Chromium, and checks them as the report test does (internal/browser):
//
//	go run ./internal/browser/shoot [-width 1280] [-scale 1] -o docs/report-aaai2017.png results/aaai2017/report/index.html
//	go run ./internal/browser/shoot -check [-width 1280] results/aaai2017/report/index.html ...
//
// With -o it writes the screenshot of its one page there, as an 8-bit
// paletted PNG (Floyd-Steinberg dithered to Plan 9's palette: a third of
// the full-colour size, small enough to commit, without banding the heat
// maps' gradients); with -check it prints each
// page's problems and exits with status 1 if any page has one. `make
// screenshots` runs it on the full AAAI-2017 and PSB-2019 reports.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color/palette"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"time"

	"github.com/pueval/pueval/internal/browser"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "shoot:", err)
		os.Exit(1)
	}
}

func run() error {
	out := flag.String("o", "", "write the screenshot of the page to `file` (PNG)")
	check := flag.Bool("check", false, "check the pages instead: images load, nothing overflows")
	width := flag.Int("width", 1280, "window width in CSS pixels")
	scale := flag.Float64("scale", 1, "device pixels per CSS pixel of the screenshot")
	flag.Parse()
	pages := flag.Args()
	if *check == (*out != "") || len(pages) == 0 || (*out != "" && len(pages) != 1) {
		return fmt.Errorf("usage: shoot -o FILE.png PAGE | shoot -check PAGE...")
	}
	exe, err := browser.Find()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	b, err := browser.Start(ctx, exe)
	if err != nil {
		return err
	}
	defer b.Close()
	if *check {
		return checkPages(ctx, b, pages, *width)
	}
	url, err := fileURL(pages[0])
	if err != nil {
		return err
	}
	shot, err := b.Screenshot(ctx, url, *width, *scale)
	if err != nil {
		return err
	}
	small, err := paletted(shot)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, small, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d bytes\n", *out, len(small))
	return nil
}

// checkPages prints the problems of each page; an error if any has one.
func checkPages(ctx context.Context, b *browser.Browser, pages []string, width int) error {
	bad := 0
	for _, p := range pages {
		url, err := fileURL(p)
		if err != nil {
			return err
		}
		ps, err := b.Check(ctx, url, width)
		if err != nil {
			return err
		}
		for _, pr := range ps {
			fmt.Printf("%s: %s\n", p, pr)
		}
		if len(ps) == 0 {
			fmt.Printf("%s: ok at %d px\n", p, width)
		}
		bad += len(ps)
	}
	if bad > 0 {
		return fmt.Errorf("%d problem(s)", bad)
	}
	return nil
}

// fileURL is the file URL of a page on disk.
func fileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", err
	}
	return "file://" + abs, nil
}

// paletted re-encodes a PNG in Plan 9's 256 colours, dithered
// (undithered, the heat maps' smooth gradients turn into bands).
func paletted(pngData []byte) ([]byte, error) {
	src, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	dst := image.NewPaletted(src.Bounds(), palette.Plan9)
	draw.FloydSteinberg.Draw(dst, dst.Bounds(), src, src.Bounds().Min)
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, dst); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
