package aaai2017

import (
	"fmt"
	"html"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/report"
)

// Name is the paper's name: its report (a config's report: value), its
// protocol and its folder.
const Name = "aaai2017"

func init() {
	report.Register(report.Paper{
		Name:           Name,
		Title:          "AAAI 2017: Recovering true classifier performance in PU learning",
		Schema1Metrics: []string{"auc", "aucpr"},
		Write:          Write,
	})
}

// truths are the two truths the tables are computed against, with the
// suffix of their files and how the captions describe them.
var truths = []struct{ id, suffix, what string }{
	{Traditional, "", "traditional truth (a bag trained on all data with the true labels, as in the paper)"},
	{SameModel, "-same-model", "same-model truth (the PU classifier's own scores judged with the true labels)"},
}

// Write writes the AAAI-2017 report of in into dir: Tables 1 and 2 against
// the traditional truth (as the paper) and against the same-model truth,
// each as Markdown, LaTeX and CSV; Figure 2 (a)-(d) as PNG, PDF and SVG; the
// sign tests; the analytic Figures 3 and 4; and returns the HTML of its
// sections. The E columns use the estimator in.Estimator() names.
func Write(dir string, in report.Input) (string, error) {
	recs := in.Records
	est, note := in.Estimator()
	var h strings.Builder
	if est != "" {
		fmt.Fprintf(&h, "<p>E columns (e, IE, DE): the estimates of %s.</p>\n", html.EscapeString(est))
	} else {
		h.WriteString("<p class=\"note\">The records hold no estimate: the E columns are empty.</p>\n")
	}
	if note != "" {
		fmt.Fprintf(&h, "<p class=\"note\">%s</p>\n", html.EscapeString(note))
	}
	var paper [3][]Row
	for _, t := range []int{1, 2} {
		p, err := Published(t)
		if err != nil {
			return "", err
		}
		paper[t] = p
	}
	// Data sets whose data differ from the paper's (the mirror's Gas): their
	// rows are marked where they are and left out of the comparisons.
	incomparable := notComparable(in.Manifest)
	var tradRows []Row
	for _, truth := range truths {
		for _, t := range []int{1, 2} {
			metric := tableMetric[t]
			ours, warns := Aggregate(recs, metric, truth.id, est, false)
			if len(ours) == 0 {
				continue
			}
			if t == 1 && truth.id == Traditional {
				tradRows = ours
			}
			ct := CompareTable(t, fmt.Sprintf("Table %d (%s), mean absolute errors against the %s. Each cell: ours (paper, ours - paper).",
				t, metricLabel[metric], truth.what), ours, paper[t], warns)
			markNotComparable(&ct, incomparable)
			base := fmt.Sprintf("table%d%s", t, truth.suffix)
			if err := ct.WriteFiles(dir, base); err != nil {
				return "", err
			}
			fmt.Fprintf(&h, "<h3>%s</h3>\n%s%s", html.EscapeString(ct.Caption), ct.HTML(), report.FilesLine(base, "csv", "md", "tex"))
		}
	}
	if pv, ok := PRVariants(recs, paper[2], incomparable); ok {
		if err := pv.WriteFiles(dir, "table2-pr-readings"); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<h3>%s</h3>\n%s%s", html.EscapeString(pv.Caption), pv.HTML(), report.FilesLine("table2-pr-readings", "csv", "md"))
	}
	h.WriteString(`<p>Two truths. The paper's tables measure errors against a separately trained
supervised model (the <em>traditional</em> truth), while the recovery formulas estimate the performance
of the PU classifier itself (the <em>same-model</em> truth). Against the same-model truth, IR and DR
errors measure only the recovery (finite samples, and alpha and beta when estimated); against the
traditional truth they also include the gap between the PU classifier and the supervised one, which
is why the paper's IR/DR columns are larger than the recovery alone would give.</p>
`)
	h.WriteString("<h3>Figure 2: signed errors (estimate - truth), traditional truth</h3>\n")
	for i, metric := range []string{"auc", "aucpr"} {
		byBeta, byErr := Figure2(recs, metric, Traditional, est, false)
		for j, bc := range []report.BoxChart{byBeta, byErr} {
			letter := 'a' + rune(2*i+j) // (a) AUC by beta, (b) AUC by error bin, (c), (d) the same for AUC-PR
			name := fmt.Sprintf("fig2%c", letter)
			if _, err := bc.Figure(name, 16*vg.Centimeter, 9*vg.Centimeter).Save(dir); err != nil {
				return "", err
			}
			fmt.Fprintf(&h, "<figure><img src=\"%s.png\" width=\"800\"><figcaption>(%c) %s. <a href=\"%s.pdf\">PDF</a> <a href=\"%s.svg\">SVG</a></figcaption></figure>\n",
				name, letter, html.EscapeString(bc.Title), name, name)
		}
	}
	if len(tradRows) > 0 {
		st, err := signTestTable(tradRows)
		if err != nil {
			return "", err
		}
		if err := report.WriteFile(filepath.Join(dir, "signtest.md"), []byte(st.Markdown()+"\n"+signTestNote+"\n")); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<h3>Sign test: indirect vs direct AUC recovery</h3>\n%s<p>%s</p>\n%s",
			st.HTML(), html.EscapeString(signTestNote), report.FilesLine("signtest", "md"))
	}
	an, err := report.AnalyticSection(dir, "aaai2017-fig3", "aaai2017-fig4")
	if err != nil {
		return "", err
	}
	h.WriteString(an)
	return h.String(), nil
}

// signTestNote follows the sign-test table: how the wins are counted, and
// where the paper's text and its own table disagree.
const signTestNote = "Mean absolute errors are compared at three decimals, as in the paper's table; ties are split alternately, the first to the direct method. " +
	"Note: the paper's own Table 1 at three decimals gives 8 direct wins and 3 ties for DE vs IE, not the 9 and 2 its text states (k = 26 and P are the same)."

// signTestTable is the sign tests of Table 1's rows beside the paper's, as
// a table of text cells: one rendering for signtest.md and index.html.
func signTestTable(rows []Row) (report.Table, error) {
	withTrue, estimated, err := SignTests(rows)
	if err != nil {
		return report.Table{}, err
	}
	var t report.Table
	for _, name := range []string{"comparison", "experiments", "direct wins", "indirect wins", "ties", "k", "one-sided P", "paper"} {
		t.Labels = append(t.Labels, report.Column{Name: name})
	}
	for _, c := range []struct {
		name  string
		st    report.SignTest
		paper string
	}{
		{"DR vs IR (real alpha, beta)", withTrue, "1 / 28 / 7, k = 31, P = 6.5e-6"},
		{"DE vs IE (estimated)", estimated, "9 / 25 / 2, k = 26, P = 5.7e-3"},
	} {
		var cells []report.Label
		for _, text := range []string{c.name, strconv.Itoa(c.st.N), strconv.Itoa(c.st.FirstWins), strconv.Itoa(c.st.SecondWins),
			strconv.Itoa(c.st.Ties), strconv.Itoa(c.st.K), fmt.Sprintf("%.2g", c.st.P), c.paper} {
			cells = append(cells, report.Label{Text: text})
		}
		t.Rows = append(t.Rows, report.Row{Labels: cells})
	}
	return t, nil
}
