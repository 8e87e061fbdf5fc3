package all

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pueval/pueval/report"
)

var (
	headingRE = regexp.MustCompile(`<h[1-6][^>]*>([^<]*)</h[1-6]>`)
	hrefRE    = regexp.MustCompile(`href="([^"]*)"`)
)

// TestReportSections: every registered report, rendered from no records,
// leaves its title to the page's heading (report.Write puts it there once)
// and links no Markdown file, which a browser would show as plain text: the
// page holds its tables and claims, and names their .md files.
func TestReportSections(t *testing.T) {
	for _, name := range report.Names() {
		p, _ := report.Lookup(name)
		t.Run(name, func(t *testing.T) {
			frag, err := p.Write(t.TempDir(), report.Input{})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range headingRE.FindAllStringSubmatch(frag, -1) {
				if strings.Contains(m[1], p.Title) {
					t.Errorf("a section repeats the page's title %q: %s", p.Title, m[0])
				}
			}
			for _, m := range hrefRE.FindAllStringSubmatch(frag, -1) {
				if strings.HasSuffix(m[1], ".md") {
					t.Errorf("links the Markdown file %s", m[1])
				}
			}
		})
	}
}
