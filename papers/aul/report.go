package aul

import (
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/report"
)

// Name is the report's name, the value of a config's report: field.
const Name = "aul"

// Title is the heading of the report.
const Title = "AUL is a better optimization metric in PU learning"

func init() {
	report.Register(report.Paper{Name: Name, Title: Title, Write: Write})
}

// Write writes Table 1 (table1.md, .tex, .csv), Figure 2 (fig2.png, .pdf,
// .svg), the estimator timing table (when the records hold timings),
// Figure 3 (fig3.png, .pdf, .svg and fig3.md, .tex, .csv; when records hold
// the pu-learning measure) and the claims (claims.md) into dir and returns
// the HTML of its sections.
func Write(dir string, in report.Input) (string, error) {
	var h strings.Builder
	h.WriteString("<p>beta is the paper's: the labeled fraction of the positives (grid axis known-positives). AUC^est = (AUC^PU - a/2)/(1 - a), clipped to [0, 1], with each estimator's class prior a of U; AUL^PU needs no prior. The evaluated classifier and the estimators' inputs are pueval's, not the paper's (unpublished), so the per-row estimator errors are not expected to match the published ones.</p>\n")
	paper, err := Published()
	if err != nil {
		return "", err
	}
	rows := Rows(in.Records)
	fig3 := Fig3Rows(in.Records)
	if len(rows) == 0 && len(fig3) == 0 {
		h.WriteString("<p class=\"note\">No records hold the auc and aul measures with the true AUC and AUL (truth same-model): nothing to tabulate.</p>\n")
	} else if len(rows) > 0 {
		t := Table1(rows, paper)
		if err := t.WriteFiles(dir, "table1"); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<h3>Table 1</h3>\n%s%s", t.HTML(), report.FilesLine("table1", "csv", "md", "tex"))
		f := Figure2(rows).Figure("fig2", 30*vg.Centimeter, 11*vg.Centimeter)
		if _, err := f.Save(dir); err != nil {
			return "", err
		}
		h.WriteString("<figure><img src=\"fig2.png\" width=\"1100\"><figcaption>Figure 2: errors of AUC^est per estimator and of AUL^PU, per data set over every split; whiskers at the minimum and maximum (as the paper), diamond: the mean. <a href=\"fig2.pdf\">PDF</a> <a href=\"fig2.svg\">SVG</a></figcaption></figure>\n")
		if tt, ok := TimingTable(rows); ok {
			if err := tt.WriteFiles(dir, "timing"); err != nil {
				return "", err
			}
			fmt.Fprintf(&h, "<h3>Estimator time</h3>\n%s%s", tt.HTML(), report.FilesLine("timing", "csv", "md"))
		}
	}
	if len(fig3) > 0 {
		t := Figure3Table(fig3)
		if err := t.WriteFiles(dir, "fig3"); err != nil {
			return "", err
		}
		f, err := Figure3Chart(fig3).Figure("fig3", 24*vg.Centimeter, 10*vg.Centimeter)
		if err != nil {
			return "", err
		}
		if _, err := f.Save(dir); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<h3>Figure 3</h3>\n<figure><img src=\"fig3.png\" width=\"900\"><figcaption>Figure 3: test AUC of PU_AUC (prior from the source in the table) and PU_AUL on held-out rows. <a href=\"fig3.pdf\">PDF</a> <a href=\"fig3.svg\">SVG</a></figcaption></figure>\n%s%s", t.HTML(), report.FilesLine("fig3", "csv", "md", "tex"))
	}
	var claims []report.Claim
	if len(rows) > 0 || len(fig3) == 0 {
		claims = append(Claims(rows), TheoremClaims(rows, paper)...)
	}
	claims = append(claims, Figure3Claims(fig3)...)
	in.NoteClaims(claims)
	md := report.ClaimsMarkdown("Claims of the AUL paper, checked on these records", "", claims, claimLine, in.Manifest.Unavailable)
	if err := report.WriteFile(filepath.Join(dir, "claims.md"), []byte(md)); err != nil {
		return "", err
	}
	h.WriteString("<h3>Claims</h3>\n" + report.ClaimsHTML(claims, claimLine) + report.FilesLine("claims", "md"))
	return h.String(), nil
}
