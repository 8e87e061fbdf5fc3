package claesen2015

import (
	"fmt"
	"html"
	"strings"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// absence says why a data set has no records: the manifest's reason when the
// run could not use it, else that no ok record holds it.
func absence(in report.Input, ds string) string {
	if why, ok := in.Manifest.Unavailable[ds]; ok {
		return fmt.Sprintf("data set %s is not in this run: %s", ds, why)
	}
	return fmt.Sprintf("no ok records of data set %s in this run", ds)
}

// claimsMarkdown is claims.md: one line per claim.
func claimsMarkdown(claims []report.Claim, missing map[string]string) string {
	return report.ClaimsMarkdown("Claims of Claesen et al. 2015, checked on these records", "", claims, report.Claim.String, missing)
}

// section collects one item's HTML, files and claims.
type section struct {
	dir    string
	h      strings.Builder
	claims []report.Claim
}

// heading starts the item.
func (s *section) heading(title string) { fmt.Fprintf(&s.h, "<h3>%s</h3>\n", html.EscapeString(title)) }

// para adds a paragraph of text (escaped); note marks it as a note.
func (s *section) para(text string, note bool) {
	cls := ""
	if note {
		cls = ` class="note"`
	}
	fmt.Fprintf(&s.h, "<p%s>%s</p>\n", cls, html.EscapeString(text))
}

// table writes t as dir/base.{md,tex,csv} and adds its HTML with the caption
// as heading and links to the files.
func (s *section) table(t report.Table, base string) error {
	if err := t.WriteFiles(s.dir, base); err != nil {
		return err
	}
	fmt.Fprintf(&s.h, "<h4>%s</h4>\n%s%s", html.EscapeString(t.Caption), t.HTML(), report.FilesLine(base, "csv", "md", "tex"))
	return nil
}

// figure saves f as PNG, PDF and SVG and adds it with its caption.
func (s *section) figure(f report.Figure, caption string) error {
	if _, err := f.Save(s.dir); err != nil {
		return err
	}
	fmt.Fprintf(&s.h, "<figure><img src=\"%s.png\" width=\"1100\"><figcaption>%s <a href=\"%s.pdf\">PDF</a> <a href=\"%s.svg\">SVG</a></figcaption></figure>\n",
		f.Name, html.EscapeString(caption), f.Name, f.Name)
	return nil
}

// claimList adds the item's claims, as a list, to its HTML and to the report's.
func (s *section) claimList(cs ...report.Claim) {
	s.claims = append(s.claims, cs...)
	s.h.WriteString("<p>Claims checked:</p>\n" + report.ClaimsHTML(cs, report.Claim.String))
}

// noRecords is a record-less item: a note and its claims unchecked.
func (s *section) noRecords(why string, cs ...report.Claim) {
	s.para(why+": this item is not drawn.", true)
	for i := range cs {
		cs[i].Verdict, cs[i].Detail = report.NotChecked, why
	}
	s.claimList(cs...)
}

// recordsOf groups the ok records of the data sets.
func recordsOf(recs []results.Record, ds ...string) map[string][]results.Record {
	out := map[string][]results.Record{}
	for _, d := range ds {
		out[d] = okRecords(recs, d)
	}
	return out
}
