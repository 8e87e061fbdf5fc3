package report

import (
	"fmt"
	"html"
	"path/filepath"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// Write renders the report of an experiment's records into dir and returns
// the path of its index.html. Which paper's tables and figures it draws
// follows from the metrics in the records: auc/aucpr give the AAAI-2017
// report (with the analytic Figures 3 and 4), acc/bacc/f1/mcc the PSB-2019
// one (with the analytic Figure 1). missing lists data sets the run could
// not use, with the reason.
func Write(dir string, recs []results.Record, missing map[string]string) (string, error) {
	var sections []string
	title := "pueval report"
	if len(recs) > 0 {
		title = "pueval report: " + recs[0].Experiment
	}
	if has(recs, results.MetricAUC, results.MetricAUCPR) {
		frag, err := AAAIReport(dir, recs)
		if err != nil {
			return "", err
		}
		sections = append(sections, frag, missingSection(missing))
		an, err := analyticSection(dir, "aaai2017-fig3", "aaai2017-fig4")
		if err != nil {
			return "", err
		}
		sections = append(sections, an)
	}
	if has(recs, results.MetricAcc, results.MetricBAcc, results.MetricF1, results.MetricMCC) {
		frag, err := PSBReport(dir, recs, missing)
		if err != nil {
			return "", err
		}
		an, err := analyticSection(dir, "psb2019-fig1")
		if err != nil {
			return "", err
		}
		sections = append(sections, an, frag)
	}
	sections = append(sections, failedSection(recs))
	if len(sections) == 1 {
		return "", fmt.Errorf("the records hold none of the metrics a report knows (auc, aucpr, acc, bacc, f1, mcc)")
	}
	if err := WriteIndex(dir, title, sections...); err != nil {
		return "", err
	}
	return filepath.Join(dir, "index.html"), nil
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
	b.WriteString("<h3>Failed cells (left out of the tables and figures)</h3>\n<ul>\n")
	for _, k := range order {
		cells := count[k]
		fmt.Fprintf(&b, "<li>%s, %d cell(s), e.g. %s: %s</li>\n", html.EscapeString(k.ds), len(cells),
			html.EscapeString(cells[0]), html.EscapeString(k.err))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

func has(recs []results.Record, metrics ...string) bool {
	for _, r := range recs {
		for _, m := range metrics {
			if _, ok := r.Metrics[m]; ok {
				return true
			}
		}
	}
	return false
}

func missingSection(missing map[string]string) string {
	if len(missing) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<h3>Data sets not in this run</h3>\n<ul>\n")
	for k, v := range missing {
		fmt.Fprintf(&b, "<li>%s: %s</li>\n", html.EscapeString(k), html.EscapeString(v))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

// analyticSection draws analytic figures into dir and returns their HTML.
func analyticSection(dir string, names ...string) (string, error) {
	var b strings.Builder
	for _, name := range names {
		_, notes, err := WriteAnalyticFigure(name, dir)
		if err != nil {
			return "", err
		}
		about := name
		for _, f := range AnalyticFigures {
			if f.Name == name {
				about = f.About
			}
		}
		fmt.Fprintf(&b, "<h3>%s</h3>\n<figure><img src=\"%s.png\" width=\"1100\"><figcaption>From the paper's equations alone. <a href=\"%s.pdf\">PDF</a> <a href=\"%s.svg\">SVG</a></figcaption></figure>\n",
			html.EscapeString(about), name, name, name)
		for _, n := range notes {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(n))
		}
	}
	return b.String(), nil
}
