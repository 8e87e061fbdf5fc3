package report

import (
	"fmt"
	"html"
	"image/png"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// Write renders the report named by in.Manifest.Report into dir (created
// if needed): index.html with the report's title, the run's facts (code
// version, kernel, dates, data notes: factsSection), the report's sections,
// the data sets the run could not use (Manifest.Unavailable) and the failed
// cells; and overview.json (Overview: the claims the sections noted, the
// verification, the run's size and times). It returns index.html's path. A schema-1 manifest names no report:
// the reports whose Schema1Metrics occur in the ok records are rendered (the
// summary when none does); a schema-2 manifest without one gets the
// summary. An unknown report name is an error listing the registered ones.
func Write(dir string, in Input) (string, error) {
	chosen, err := choose(in)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	sections := []string{factsSection(in)}
	sink := &claimSink{}
	in.claims = sink
	var titles []string
	for _, p := range chosen {
		frag, err := p.Write(dir, in)
		if err != nil {
			return "", fmt.Errorf("report %s: %w", p.Name, err)
		}
		sections = append(sections, frag)
		titles = append(titles, p.Title)
	}
	sections = append(sections, missingSection(in.Manifest.Unavailable), failedSection(in.Records))
	reportTitle := strings.Join(titles, " + ")
	title := reportTitle
	if exp := experimentOf(in); exp != "" {
		title += ": " + exp
	}
	if err := WriteIndex(dir, title, sections...); err != nil {
		return "", err
	}
	if err := writeOverview(dir, overviewOf(reportTitle, in, sink)); err != nil {
		return "", err
	}
	return filepath.Join(dir, "index.html"), nil
}

// experimentOf names the experiment: the manifest's, else the records'.
func experimentOf(in Input) string {
	if in.Manifest.Experiment != "" {
		return in.Manifest.Experiment
	}
	if len(in.Records) > 0 {
		return in.Records[0].Experiment
	}
	return ""
}

// WriteIndex writes dir/index.html around the given sections. Its style
// sheet keeps red for problems (class "problem": a claim that does not
// hold, a failed cell); notes (class "note") explain and are set off by a
// rule at their left, in the text's colour.
func WriteIndex(dir, title string, sections ...string) error {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title>
<style>
body { font-family: sans-serif; max-width: 1400px; margin: 1em auto; padding: 0 1em; line-height: 1.35; }
table { border-collapse: collapse; font-size: 85%%; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; vertical-align: top; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
td .paper { display: block; font-size: 90%%; }
tfoot th, tfoot td { background: #f6f6ee; border-top: 2px solid #999; }
table.facts { font-size: 90%%; } table.facts td { text-align: left; } table.facts th { white-space: nowrap; }
table.facts ul { margin: 0; padding-left: 1.2em; }
.paper { color: #777; } .note { border-left: 3px solid #ccc; padding-left: 0.5em; } .problem { color: #a33; }
p, li, figcaption, table.facts td { overflow-wrap: anywhere; }
figure { margin: 1em 0; } img { max-width: 100%%; height: auto; }
pre { background: #f6f6f6; padding: 0.5em; white-space: pre-wrap; overflow-wrap: anywhere; }
</style></head><body>
<h1>%s</h1>
`, html.EscapeString(title), html.EscapeString(title))
	for _, s := range sections {
		b.WriteString(s)
	}
	b.WriteString("</body></html>\n")
	return writeFile(dir, "index.html", b.String())
}

// FilesLine is the paragraph under a table that names its files in the
// report directory, base plus each of exts ("csv", "md", "tex"): the CSV is
// linked (a spreadsheet opens it), the Markdown and LaTeX files are named
// but not linked, since a browser shows them as plain text, or downloads
// them, rather than as the page they describe (the page holds the same
// table).
func FilesLine(base string, exts ...string) string {
	var links, named []string
	for _, ext := range exts {
		name := html.EscapeString(base + "." + ext)
		switch ext {
		case "csv":
			links = append(links, fmt.Sprintf("<a href=\"%s\">%s</a>", name, name))
		case "md":
			named = append(named, "<code>"+name+"</code> (Markdown)")
		case "tex":
			named = append(named, "<code>"+name+"</code> (LaTeX)")
		default:
			named = append(named, "<code>"+name+"</code>")
		}
	}
	return "<p>Files: " + strings.Join(append(links, named...), ", ") + ".</p>\n"
}

// writeFile writes dir/name atomically (WriteFile).
func writeFile(dir, name, body string) error {
	return WriteFile(filepath.Join(dir, name), []byte(body))
}

// WriteFile writes a report file atomically: to a temporary file in the same
// directory, renamed over path, so a killed report leaves the old file or
// the new one, never a truncated one. Every file of a report goes through it.
func WriteFile(path string, data []byte) error {
	return results.WriteFileAtomic(path, data)
}

// failedSection lists the failed cells, grouped by data set and error, so a
// reader sees what the tables leave out and why.
func failedSection(recs []results.Record) string {
	type key struct{ ds, err string }
	count := map[key][]string{}
	var order []key
	for _, r := range recs {
		if r.Status != results.StatusFailed {
			continue
		}
		k := key{r.Dataset, r.Error}
		if _, ok := count[k]; !ok {
			order = append(order, k)
		}
		count[k] = append(count[k], r.Cell)
	}
	if len(order) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<h3 id=\"failed\">Failed cells (left out of the tables and figures)</h3>\n<ul>\n")
	for _, k := range order {
		cells := count[k]
		fmt.Fprintf(&b, "<li class=\"problem\">%s, %d cell(s), e.g. %s: %s</li>\n", html.EscapeString(k.ds), len(cells),
			html.EscapeString(cells[0]), html.EscapeString(k.err))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

// missingSection lists the data sets the run could not use, with the
// reason, sorted so that the page does not change from run to run.
func missingSection(missing map[string]string) string {
	if len(missing) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<h3 id=\"missing\">Data sets not in this run</h3>\n<ul>\n")
	for _, k := range slices.Sorted(maps.Keys(missing)) {
		fmt.Fprintf(&b, "<li>%s: %s</li>\n", html.EscapeString(k), html.EscapeString(missing[k]))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

// WriteAnalyticFigure draws the named analytic figure into dir (created if
// needed) and returns the files written and notes on where the paper
// disagrees with its equations.
func WriteAnalyticFigure(name, dir string) (files, notes []string, err error) {
	f, ok := lookupFigure(name)
	if !ok {
		var names []string
		for _, f := range Figures() {
			names = append(names, f.Name)
		}
		return nil, nil, fmt.Errorf("unknown figure %q (known: %s)", name, strings.Join(names, ", "))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("figure %s: %w", name, err)
	}
	files, notes, err = f.Draw(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("figure %s: %w", name, err)
	}
	return files, notes, nil
}

// AnalyticSection draws the named analytic figures into dir and returns
// their HTML for a report's section: each with its About as heading, the
// image (or each of its Parts, with its caption) and links to the PDF and
// SVG, and its notes.
func AnalyticSection(dir string, names ...string) (string, error) {
	var b strings.Builder
	for _, name := range names {
		_, notes, err := WriteAnalyticFigure(name, dir)
		if err != nil {
			return "", err
		}
		f, _ := lookupFigure(name)
		about := name
		if f.About != "" {
			about = f.About
		}
		fmt.Fprintf(&b, "<h3>%s</h3>\n", html.EscapeString(about))
		if len(f.Parts) == 0 {
			fmt.Fprintf(&b, "<figure>%s<figcaption>From the paper's equations alone. %s</figcaption></figure>\n",
				imgTag(dir, name), vectorLinks(name))
		} else {
			fmt.Fprintf(&b, "<p>From the paper's equations alone, in %d parts. The whole figure as the paper lays it out: %s <a href=\"%s.png\">PNG</a>.</p>\n",
				len(f.Parts), vectorLinks(name), name)
		}
		for _, part := range f.Parts {
			fmt.Fprintf(&b, "<figure>%s<figcaption>%s %s</figcaption></figure>\n",
				imgTag(dir, part.Name), html.EscapeString(part.Caption), vectorLinks(part.Name))
		}
		for _, n := range notes {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(n))
		}
	}
	return b.String(), nil
}

// vectorLinks links a figure's PDF and SVG.
func vectorLinks(name string) string {
	return fmt.Sprintf("<a href=\"%s.pdf\">PDF</a> <a href=\"%s.svg\">SVG</a>", name, name)
}

// maxShownWidth is the widest a figure is shown, in CSS pixels: about the
// text's column on a laptop's window.
const maxShownWidth = 1100

// imgTag is the <img> of dir/name.png, shown as wide as the drawing is
// (PNGDPI pixels per inch, 96 CSS pixels per inch; at most maxShownWidth),
// so that its text shows at the size it was set in; maxShownWidth when the
// PNG cannot be read.
func imgTag(dir, name string) string {
	w := maxShownWidth
	if f, err := os.Open(filepath.Join(dir, name+".png")); err == nil {
		if cfg, err := png.DecodeConfig(f); err == nil {
			w = min(w, int(math.Round(float64(cfg.Width)*96/PNGDPI)))
		}
		f.Close()
	}
	return fmt.Sprintf("<img src=\"%s.png\" width=\"%d\">", name, w)
}
