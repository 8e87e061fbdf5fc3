package psb2019

import (
	"fmt"
	"html"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/report"
)

// Name is the report's name, the value of a config's report: field.
const Name = "psb2019"

func init() {
	report.Register(report.Paper{
		Name:           Name,
		Title:          "PSB 2019: accuracy, balanced accuracy, F-measure and MCC in PU learning",
		Schema1Metrics: []string{"acc", "bacc", "f1", "mcc"},
		Write:          Write,
	})
}

// Write writes the PSB-2019 report of in into dir: the analytic Figure 1
// (with fig1.json), the Figure 2 panels, the per-data-set table as Markdown,
// LaTeX and CSV (psb-table.*; the Markdown also has the claims and the data
// sets of the paper the run could not use, Manifest.Unavailable), the
// qualitative claims, and returns the HTML of its sections. CE uses the
// estimator in.Estimator() names.
func Write(dir string, in report.Input) (string, error) {
	est, note := in.Estimator()
	var h strings.Builder
	if est != "" {
		fmt.Fprintf(&h, "<p>CE: the estimates of %s.</p>\n", html.EscapeString(est))
	} else {
		h.WriteString("<p class=\"note\">The records hold no estimate: CE is empty.</p>\n")
	}
	if note != "" {
		fmt.Fprintf(&h, "<p class=\"note\">%s</p>\n", html.EscapeString(note))
	}
	an, err := report.AnalyticSection(dir, "psb2019-fig1")
	if err != nil {
		return "", err
	}
	h.WriteString(an)
	h.WriteString("<h3>PSB-2019 Figure 2: errors of PU, CR and CE by beta</h3>\n")
	for i, bc := range Figure2(in.Records, est) {
		name := fmt.Sprintf("psb-fig2%c", 'a'+i)
		if _, err := bc.Figure(name, 14*vg.Centimeter, 8*vg.Centimeter).Save(dir); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<figure><img src=\"%s.png\" width=\"700\"><figcaption>Figure 2 (%c): %s, error of the maximum over thresholds against the true value at the same threshold. <a href=\"%s.pdf\">PDF</a> <a href=\"%s.svg\">SVG</a></figcaption></figure>\n",
			name, 'a'+i, html.EscapeString(bc.Title), name, name)
	}
	rows := Aggregate(in.Records, est)
	t := Table(rows, "Per data set mean errors (over betas and repeats): the maximum over thresholds minus the true value at the same threshold.")
	checked := Claims(rows)
	in.NoteClaims(checked)
	claims := ClaimLines(checked)
	missing := in.Manifest.Unavailable
	var md strings.Builder
	md.WriteString(t.Markdown())
	md.WriteString("\nQualitative claims of the paper, checked on these records:\n\n")
	for _, c := range claims {
		md.WriteString("- " + c + "\n")
	}
	if len(missing) > 0 {
		md.WriteString("\nData sets of the paper not in this run:\n\n")
		for _, k := range slices.Sorted(maps.Keys(missing)) {
			fmt.Fprintf(&md, "- %s: %s\n", k, missing[k])
		}
	}
	for _, f := range []struct{ name, body string }{{"psb-table.md", md.String()}, {"psb-table.tex", t.LaTeX()}, {"psb-table.csv", t.CSV()}} {
		if err := report.WriteFile(filepath.Join(dir, f.name), []byte(f.body)); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(&h, "<h3>Per data set mean errors</h3>\n%s%s", t.HTML(), report.FilesLine("psb-table", "csv", "md", "tex"))
	h.WriteString("<h3>Qualitative claims of the paper, checked on these records</h3>\n<ul>\n")
	for _, c := range claims {
		fmt.Fprintf(&h, "<li>%s</li>\n", html.EscapeString(c))
	}
	h.WriteString("</ul>\n")
	return h.String(), nil
}
