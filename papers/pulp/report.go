package pulp

import (
	"fmt"
	"html"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Name is the report's name, the value of a config's report: field.
const Name = "pulp"

// Title is the heading of the report.
const Title = "Evaluating classification performance with only positive and unlabeled samples (PULP)"

func init() {
	report.Register(report.Paper{Name: Name, Title: Title, Write: Write})
}

// Write writes Table 1 (table1.md, .tex, .csv), Table 1 over the fold
// means (table1-foldmeans.md, .tex, .csv), Figure 2 (fig2.png, .pdf, .svg;
// its numbers in fig2.csv and fig2.md, and over the fold means in
// fig2-foldmeans.csv), the claims (claims.md) and index.md (the whole
// report in Markdown) into dir, and returns the HTML of its sections.
func Write(dir string, in report.Input) (string, error) {
	paper, err := Published()
	if err != nil {
		return "", err
	}
	recs := in.Records
	var sens []SensOption
	if hasVariants(recs) {
		// A sensitivity run: Table 1, Figure 2 and the claims are its base
		// protocol's; the study has its own section.
		sens = Sensitivity(recs)
		recs = baseRecords(recs)
	}
	a := Analyze(recs)
	var h, md strings.Builder
	fmt.Fprintf(&h, "<p>%s</p>\n", html.EscapeString(Caveat))
	fmt.Fprintf(&md, "# %s\n\n%s\n\n", Title, Caveat)

	inv := Inventory(a, in.Manifest)
	h.WriteString("<h3>Records</h3>\n<ul>\n")
	md.WriteString("## Records\n\n")
	for _, line := range inv {
		fmt.Fprintf(&h, "<li>%s</li>\n", html.EscapeString(line))
		md.WriteString("- " + line + "\n")
	}
	h.WriteString("</ul>\n")
	if len(a.Failed) > 0 {
		md.WriteString("\nFailed records (no metrics; left out):\n\n")
		for _, r := range a.Failed {
			fmt.Fprintf(&md, "- %s: %s\n", r.Cell, oneLine(r.Error))
		}
	}
	if len(a.Unusable) > 0 {
		shown := a.Unusable[:min(len(a.Unusable), 10)]
		more := ""
		if len(a.Unusable) > len(shown) {
			more = fmt.Sprintf("; and %d more (index.md lists them all)", len(a.Unusable)-len(shown))
		}
		fmt.Fprintf(&h, "<p class=\"note\">%d ok record(s) left out: %s%s</p>\n", len(a.Unusable), html.EscapeString(strings.Join(shown, "; ")), more)
		md.WriteString("\nOk records left out:\n\n")
		for _, u := range a.Unusable {
			md.WriteString("- " + u + "\n")
		}
	}
	md.WriteString("\n")

	if len(a.Points) == 0 {
		h.WriteString("<p class=\"note\">No ok record holds the grid values labeling and unlabeled-prior and a measure with pu and true values: nothing to tabulate.</p>\n")
		md.WriteString("No ok record holds the grid values labeling and unlabeled-prior and a measure with pu and true values: nothing to tabulate.\n\n")
	} else {
		t := Table1(a, paper)
		if err := t.WriteFiles(dir, "table1"); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<h3>Table 1</h3>\n<p>%s</p>\n%s%s",
			html.EscapeString(t.Caption), t.HTML(), report.FilesLine("table1", "csv", "md", "tex"))
		md.WriteString("## Table 1\n\n" + t.Markdown() + "\n")

		// Table 1 over the fold means, right after Table 1 so that the two
		// readings are read together; its first note, the explanation,
		// heads the section in the index instead.
		ft := Table1FoldMeans(a, paper)
		if err := ft.WriteFiles(dir, "table1-foldmeans"); err != nil {
			return "", err
		}
		note := ft.Notes[0]
		ft.Notes = ft.Notes[1:]
		fmt.Fprintf(&h, "<h3>Table 1 (fold means)</h3>\n<p>%s</p>\n<p>%s</p>\n%s%s",
			html.EscapeString(note), html.EscapeString(ft.Caption), ft.HTML(), report.FilesLine("table1-foldmeans", "csv", "md", "tex"))
		md.WriteString("## Table 1 (fold means)\n\n" + note + "\n\n" + ft.Markdown() + "\n")

		f := Figure2(a, "fig2", 40*vg.Centimeter, 20*vg.Centimeter)
		if _, err := f.Save(dir); err != nil {
			return "", err
		}
		if err := report.WriteFile(filepath.Join(dir, "fig2.csv"), []byte(Figure2CSV(a))); err != nil {
			return "", err
		}
		if a.FoldMeans != nil {
			if err := report.WriteFile(filepath.Join(dir, "fig2-foldmeans.csv"), []byte(Figure2CSV(*a.FoldMeans))); err != nil {
				return "", err
			}
		}
		rho, mad := Figure2Tables(a)
		if err := report.WriteFile(filepath.Join(dir, "fig2.md"), []byte(rho.Markdown()+"\n"+mad.Markdown())); err != nil {
			return "", err
		}
		const caption = "Figure 2: the rank (Spearman) correlation (top row) and the mean absolute deviation (bottom row) between each measure on PU labels and on the true labels, " +
			"against Pr[y=1] in the unlabeled set, for random labeling, Scenario 1 (the least representative positives left unlabeled) and Scenario 2 (the most representative left unlabeled); " +
			"each point the mean over the held-out folds (and repeats) of the statistic over the (problem, classifier) configurations. " +
			"The same statistics over the configurations' fold means (as Table 1 (fold means)) are in fig2-foldmeans.csv."
		fmt.Fprintf(&h, "<h3>Figure 2</h3>\n<figure><img src=\"fig2.png\" width=\"1300\"><figcaption>%s <a href=\"fig2.pdf\">PDF</a> <a href=\"fig2.svg\">SVG</a>; numbers: <a href=\"fig2.csv\">fig2.csv</a>, <code>fig2.md</code>; over the fold means: <a href=\"fig2-foldmeans.csv\">fig2-foldmeans.csv</a>.</figcaption></figure>\n",
			html.EscapeString(caption))
		md.WriteString("## Figure 2\n\n![Figure 2](fig2.png)\n\n" + caption + " Files: fig2.png, fig2.pdf, fig2.svg; numbers: fig2.csv, fig2.md; over the fold means: fig2-foldmeans.csv.\n\n")
	}

	if len(sens) > 0 {
		if err := writeSensitivity(dir, sens, paper, &h, &md); err != nil {
			return "", err
		}
	}
	if err := writeClaims(dir, a, in, &h, &md); err != nil {
		return "", err
	}
	if err := report.WriteFile(filepath.Join(dir, "index.md"), []byte(md.String())); err != nil {
		return "", err
	}
	return h.String(), nil
}

// writeClaims writes claims.md and adds the claims, with the count of
// their verdicts, to the HTML and to index.md.
func writeClaims(dir string, a Analysis, in report.Input, h, md *strings.Builder) error {
	claims := Claims(a)
	in.NoteClaims(claims)
	if err := report.WriteFile(filepath.Join(dir, "claims.md"), []byte(ClaimsMarkdown(claims, len(a.Points) > 0, in.Manifest.Unavailable))); err != nil {
		return err
	}
	summary := report.ClaimsSummary(claims)
	if len(a.Points) > 0 {
		summary += " " + FoldMeansClaimsNote
	}
	fmt.Fprintf(h, "<h3>Claims</h3>\n<p>%s</p>\n%s%s", html.EscapeString(summary), report.ClaimsHTML(claims, report.Claim.String), report.FilesLine("claims", "md"))
	md.WriteString("## Claims\n\n" + summary + "\n\n" + report.ClaimsList(claims, report.Claim.String))
	return nil
}

// Inventory describes the records: counts, the problems, classifiers and
// grid found, the repeats and folds.
func Inventory(a Analysis, man results.Manifest) []string {
	labs := make([]string, len(a.Labelings))
	for i, l := range a.Labelings {
		labs[i] = l
		if n := LabelingName(l); n != l {
			labs[i] = fmt.Sprintf("%s (%s)", l, n)
		}
	}
	folds := "none"
	if len(a.Folds) > 0 {
		var fs []string
		for _, f := range a.Folds {
			if f == 0 {
				fs = append(fs, "fold means only")
			} else {
				fs = append(fs, strconv.Itoa(f))
			}
		}
		folds = fmt.Sprintf("%d: %s", len(a.Folds), strings.Join(fs, ", "))
	}
	var reps []string
	for _, r := range a.Repeats {
		reps = append(reps, strconv.Itoa(r))
	}
	lines := []string{
		fmt.Sprintf("%d record(s): %d ok and used, %d failed (no metrics; left out), %d ok but left out.", a.Total, a.OK, len(a.Failed), len(a.Unusable)),
		fmt.Sprintf("Problems (%d): %s.", len(a.Problems), orNone(a.Problems)),
		fmt.Sprintf("Classifiers (%d, grid axis %s): %s.", len(a.Classifiers), ClassifierAxis, orNone(a.Classifiers)),
		fmt.Sprintf("Pr[y=1] in the unlabeled set (grid axis %s, %d values): %s.", PriorAxis, len(a.Pis), orNone(strings.Split(floats(a.Pis), ", "))),
		fmt.Sprintf("Labelings (grid axis %s): %s.", LabelingAxis, orNone(labs)),
		fmt.Sprintf("Repeats (%d): %s; folds %s. Per repeat, the folds' statistics are averaged, then the repeats'.", len(a.Repeats), orNone(reps), folds),
	}
	if missing := man.Unavailable; len(missing) > 0 {
		var ms []string
		for _, k := range slices.Sorted(maps.Keys(missing)) {
			ms = append(ms, k+" ("+missing[k]+")")
		}
		lines = append(lines, "Data sets of the config not in this run: "+strings.Join(ms, "; ")+".")
	}
	return lines
}

func orNone(xs []string) string {
	if len(xs) == 0 || (len(xs) == 1 && xs[0] == "") {
		return "none"
	}
	return strings.Join(xs, ", ")
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(no error message)"
	}
	return s
}

// ClaimsMarkdown is claims.md: the caveat, what the brackets of claims 1-5
// are (foldMeans: the claims were checked on records with points, so they
// have them), and one line per claim.
func ClaimsMarkdown(claims []report.Claim, foldMeans bool, missing map[string]string) string {
	intro := Caveat + "\n\n"
	if foldMeans {
		intro += FoldMeansClaimsNote + "\n\n"
	}
	return report.ClaimsMarkdown("Claims of the PULP paper, checked on these records", intro, claims, report.Claim.String, missing)
}

// SensitivityAbout says what the study's section shows.
const SensitivityAbout = "Each choice the paper leaves open, varied alone from today's protocol (the base variant on the problems every variant ran): " +
	"the unit of the rank correlation, the labeled rows per held-out fold, the mixture model of the scenarios, the classifier families and weights, " +
	"the Pr[y=1] grid and the problems pooled. Each row is Table 1's rank correlation (the mean over the Pr[y=1] grid) of the eight measures under that option; " +
	"PULP's bar is one bootstrap SE over the problems, the dashed line the paper's PULP value."

// sensitivityCaption is the figure's caption.
const sensitivityCaption = "The sensitivity study: each measure's Table-1 rank correlation under each option, a panel per labeling; PULP's bar one bootstrap SE, the dashed line the paper's PULP value."

// writeSensitivity writes the study's figure (sensitivity.png, .pdf,
// .svg), its numbers (sensitivity.csv), its table (sensitivity.md, .tex,
// .csv is the long form) and the conclusion into the report.
func writeSensitivity(dir string, sens []SensOption, paper PaperTable, h, md *strings.Builder) error {
	f := SensitivityFigure(sens, paper, "sensitivity", 30*vg.Centimeter, vg.Length(6+float64(1.8*float64(len(sens))))*vg.Centimeter)
	if _, err := f.Save(dir); err != nil {
		return err
	}
	if err := report.WriteFile(filepath.Join(dir, "sensitivity.csv"), []byte(SensitivityCSV(sens))); err != nil {
		return err
	}
	t := SensitivityTable(sens)
	if err := report.WriteFile(filepath.Join(dir, "sensitivity.md"), []byte(t.Markdown())); err != nil {
		return err
	}
	concl := SensitivityConclusion(sens)
	fmt.Fprintf(h, "<h3>Sensitivity study</h3>\n<p>%s</p>\n<figure><img src=\"sensitivity.png\" width=\"1000\"><figcaption>%s <a href=\"sensitivity.pdf\">PDF</a> <a href=\"sensitivity.svg\">SVG</a>; numbers: <a href=\"sensitivity.csv\">sensitivity.csv</a>.</figcaption></figure>\n%s<p><b>Conclusion.</b> %s</p>\n",
		html.EscapeString(SensitivityAbout), html.EscapeString(sensitivityCaption), t.HTML(), html.EscapeString(concl))
	md.WriteString("## Sensitivity study\n\n" + SensitivityAbout + "\n\n![Sensitivity study](sensitivity.png)\n\n" + t.Markdown() + "\n**Conclusion.** " + concl + "\n\n")
	return nil
}
