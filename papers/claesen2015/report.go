package claesen2015

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pueval/pueval/report"
)

// Name is the report's name, the value of a config's report: field.
const Name = "claesen2015"

// Title is the heading of the report's section and index page.
const Title = "Claesen et al. 2015: ROC and PR bounds from positive and unlabeled rankings"

func init() {
	report.Register(report.Paper{Name: Name, Title: Title, Write: Write})
}

// Write writes the report of in into dir: the analytic Figure 1, Figures
// 2-5 and the appendix tables (each figure as PNG, PDF and SVG, each table
// as Markdown, LaTeX and CSV), claims.md with every claim checked on the
// records, and returns the HTML of its sections. Items whose data sets the
// run lacks get a note and unchecked claims.
func Write(dir string, in report.Input) (string, error) {
	var h strings.Builder
	h.WriteString("<p>The paper's beta is the fraction of positives among the unlabeled examples (the AAAI paper's alpha). " +
		"Bounds are computed from a 95 % confidence band on the rank CDF of the known positives; \"real*F\" in the files means " +
		"beta-hat = F times the true beta, \"real\" beta-hat = beta.</p>\n")
	an, err := report.AnalyticSection(dir, Figure1Name)
	if err != nil {
		return "", err
	}
	h.WriteString(an)
	s := &section{dir: dir}
	for _, item := range []func(*section, report.Input) error{writeFigure2, writeFigure3, writeFigure4, writeFigure5, writeAppendix} {
		if err := item(s, in); err != nil {
			return "", err
		}
	}
	h.WriteString(s.h.String())
	in.NoteClaims(s.claims)
	if err := report.WriteFile(filepath.Join(dir, "claims.md"), []byte(claimsMarkdown(s.claims, in.Manifest.Unavailable))); err != nil {
		return "", err
	}
	fmt.Fprintf(&h, "<h3>All claims</h3>\n<p>%s</p>\n%s%s",
		report.ClaimsSummary(s.claims), report.ClaimsHTML(s.claims, report.Claim.String), report.FilesLine("claims", "md"))
	return h.String(), nil
}
