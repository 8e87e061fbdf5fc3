package report

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/experiments/results"
)

// ErrorBins are the bins of |error of the estimated beta - alpha| of AAAI-2017
// Figure 2 (b, d): small [0, 0.1), medium [0.1, 0.2), large [0.2, inf).
var ErrorBins = []struct {
	Name   string
	Lo, Hi float64
}{{"small [0, 0.1)", 0, 0.1}, {"medium [0.1, 0.2)", 0.1, 0.2}, {"large [0.2, inf)", 0.2, math.Inf(1)}}

// Figure2 returns the box charts of AAAI-2017 Figure 2 for one metric: signed
// errors (estimate - truth) of each method grouped by the nominal beta
// (panels a, c) and by the |error of beta-hat - alpha-hat| bin (panels b, d).
// Methods without values (DR, DE for AUC-PR) are left out.
func Figure2(recs []results.Record, metric, truthKey string, clip bool) (byBeta, byErr BoxChart) {
	methods := []string{results.PU, results.IR, results.DR, results.IE, results.DE}
	if metric == results.MetricAUCPR {
		methods = []string{results.PU, results.IR, results.IE}
	}
	label := map[string]string{results.MetricAUC: "AUC", results.MetricAUCPR: "AUC-PR"}[metric]
	// Betas in the paper's order: increasing noise.
	var betas []float64
	for _, r := range recs {
		b := nominalBeta(r)
		if !containsFloat(betas, b) {
			betas = append(betas, b)
		}
	}
	sortDesc(betas)
	byB := make([][][]float64, len(methods))
	byE := make([][][]float64, len(methods))
	for i := range methods {
		byB[i] = make([][]float64, len(betas))
		byE[i] = make([][]float64, len(ErrorBins))
	}
	for _, r := range recs {
		m, ok := r.Metrics[metric]
		truth, okT := m[truthKey]
		if r.Status != results.StatusOK || !ok || !okT {
			continue
		}
		bi := indexFloat(betas, nominalBeta(r))
		ei := -1
		if est, ok := r.Estimates[results.EstimateUsed]; ok {
			e := math.Abs((est.Beta - est.Alpha) - (r.Beta - r.Alpha))
			for k, bin := range ErrorBins {
				if e >= bin.Lo && e < bin.Hi {
					ei = k
				}
			}
		}
		for i, meth := range methods {
			key := meth
			if clip && (meth == results.IR || meth == results.IE) {
				key += results.ClipSuffix
			}
			v, ok := m[key]
			if !ok {
				continue
			}
			byB[i][bi] = append(byB[i][bi], v-truth)
			if ei >= 0 {
				byE[i][ei] = append(byE[i][ei], v-truth)
			}
		}
	}
	statsOf := func(x [][][]float64) [][]BoxStats {
		out := make([][]BoxStats, len(x))
		for i := range x {
			for _, v := range x[i] {
				out[i] = append(out[i], Box(v))
			}
		}
		return out
	}
	var groups []string
	for _, b := range betas {
		groups = append(groups, fmt.Sprintf("%.2f", b))
	}
	var bins []string
	for _, b := range ErrorBins {
		bins = append(bins, b.Name)
	}
	ylabel := label + " estimate - truth"
	names := make([]string, len(methods))
	for i, m := range methods {
		names[i] = strings.ToUpper(m) // "pu" -> "PU", as in the paper's legend
	}
	byBeta = BoxChart{Title: label + ": error by beta", XLabel: "beta (true)", YLabel: ylabel,
		Groups: groups, Series: names, Colors: MethodColors(names), Stats: statsOf(byB), ZeroLine: true}
	byErr = BoxChart{Title: label + ": error by |error of estimated beta - alpha|", XLabel: "|error of beta-hat - alpha-hat|",
		YLabel: ylabel, Groups: bins, Series: names, Colors: MethodColors(names), Stats: statsOf(byE), ZeroLine: true}
	return byBeta, byErr
}

func containsFloat(xs []float64, x float64) bool { return indexFloat(xs, x) >= 0 }

func indexFloat(xs []float64, x float64) int {
	for i, v := range xs {
		if math.Abs(v-x) < 1e-9 {
			return i
		}
	}
	return -1
}

// sortDesc sorts xs in decreasing order (the papers list beta from 1 down).
func sortDesc(xs []float64) { slices.SortFunc(xs, func(a, b float64) int { return cmp.Compare(b, a) }) }

// AAAISignTests runs the appendix's sign test of indirect against direct AUC
// recovery on the per-(data set, beta) mean absolute errors: with real
// (alpha, beta) (DR vs IR) and with estimated ones (DE vs IE).
func AAAISignTests(rows []AAAIRow) (real, est SignTest, err error) {
	var dr, ir, de, ie []float64
	for _, r := range rows {
		if math.IsNaN(r.DR) || math.IsNaN(r.IR) || math.IsNaN(r.DE) || math.IsNaN(r.IE) {
			continue
		}
		dr, ir, de, ie = append(dr, r.DR), append(ir, r.IR), append(de, r.DE), append(ie, r.IE)
	}
	if real, err = CompareErrors(dr, ir, 3); err != nil {
		return
	}
	est, err = CompareErrors(de, ie, 3)
	return
}

// AAAIReport writes the AAAI-2017 report of recs into dir: Tables 1 and 2
// (traditional truth, as the paper) and the same tables against the
// same-model truth, each as Markdown, LaTeX and CSV; Figure 2 (a)-(d) as
// PNG, PDF and SVG; the sign tests; and returns the HTML fragment for the index.
func AAAIReport(dir string, recs []results.Record) (string, error) {
	var h strings.Builder
	h.WriteString("<h2>AAAI 2017: Recovering true classifier performance in PU learning</h2>\n")
	var paperRows [3][]AAAIRow
	for _, t := range []int{1, 2} {
		p, err := AAAITable(t)
		if err != nil {
			return "", err
		}
		paperRows[t] = p
	}
	var tradRows []AAAIRow
	for _, truth := range []struct{ key, suffix, what string }{
		{results.Truth, "", "traditional truth (a bag trained on all data with the true labels, as in the paper)"},
		{results.TruthSameModel, "-same-model", "same-model truth (the PU classifier's own scores judged with the true labels)"},
	} {
		for _, t := range []int{1, 2} {
			metric := map[int]string{1: results.MetricAUC, 2: results.MetricAUCPR}[t]
			ours, warns := AAAIAggregate(recs, metric, truth.key, false)
			if len(ours) == 0 {
				continue
			}
			if t == 1 && truth.key == results.Truth {
				tradRows = ours
			}
			ct := ComparedTable{Table: t, Ours: ours, Paper: paperRows[t], Warnings: warns,
				Caption: fmt.Sprintf("Table %d (%s), mean absolute errors against the %s. Each cell: ours (paper, ours - paper).",
					t, map[int]string{1: "AUC", 2: "AUC-PR"}[t], truth.what)}
			base := fmt.Sprintf("table%d%s", t, truth.suffix)
			for ext, body := range map[string]string{".md": ct.Markdown(), ".tex": ct.LaTeX(), ".csv": ct.CSV()} {
				if err := os.WriteFile(filepath.Join(dir, base+ext), []byte(body), 0o644); err != nil {
					return "", err
				}
			}
			fmt.Fprintf(&h, "<h3>%s</h3>\n%s<p>Files: <a href=\"%s.md\">Markdown</a>, <a href=\"%s.tex\">LaTeX</a>, <a href=\"%s.csv\">CSV</a>.</p>\n",
				html.EscapeString(ct.Caption), ct.HTML(), base, base, base)
		}
	}
	h.WriteString(`<p>Two truths. The paper's tables measure errors against a separately trained
supervised model (the <em>traditional</em> truth), while the recovery formulas estimate the performance
of the PU classifier itself (the <em>same-model</em> truth). Against the same-model truth, IR and DR
errors measure only the recovery (finite samples, and alpha and beta when estimated); against the
traditional truth they also include the gap between the PU classifier and the supervised one, which
is why the paper's IR/DR columns are larger than the recovery alone would give.</p>
`)
	// Figure 2.
	h.WriteString("<h3>Figure 2: signed errors (estimate - truth), traditional truth</h3>\n")
	for i, metric := range []string{results.MetricAUC, results.MetricAUCPR} {
		byBeta, byErr := Figure2(recs, metric, results.Truth, false)
		for j, bc := range []BoxChart{byBeta, byErr} {
			letter := 'a' + rune(2*i+j) // (a) AUC by beta, (b) AUC by error bin, (c), (d) the same for AUC-PR
			name := fmt.Sprintf("fig2%c", letter)
			if _, err := bc.Figure(name, 16*vg.Centimeter, 9*vg.Centimeter).Save(dir); err != nil {
				return "", err
			}
			fmt.Fprintf(&h, "<figure><img src=\"%s.png\" width=\"800\"><figcaption>(%c) %s. <a href=\"%s.pdf\">PDF</a> <a href=\"%s.svg\">SVG</a></figcaption></figure>\n",
				name, letter, html.EscapeString(bc.Title), name, name)
		}
	}
	// Sign tests.
	if len(tradRows) > 0 {
		real, est, err := AAAISignTests(tradRows)
		if err != nil {
			return "", err
		}
		var st strings.Builder
		st.WriteString("| comparison | experiments | direct wins | indirect wins | ties | k | one-sided P | paper |\n|---|---|---|---|---|---|---|---|\n")
		fmt.Fprintf(&st, "| DR vs IR (real alpha, beta) | %d | %d | %d | %d | %d | %.2g | 1 / 28 / 7, k = 31, P = 6.5e-6 |\n",
			real.N, real.FirstWins, real.SecondWins, real.Ties, real.K, real.P)
		fmt.Fprintf(&st, "| DE vs IE (estimated) | %d | %d | %d | %d | %d | %.2g | 9 / 25 / 2, k = 26, P = 5.7e-3 |\n",
			est.N, est.FirstWins, est.SecondWins, est.Ties, est.K, est.P)
		st.WriteString("\nMean absolute errors are compared at three decimals, as in the paper's table; ties are split alternately, the first to the direct method. " +
			"Note: the paper's own Table 1 at three decimals gives 8 direct wins and 3 ties for DE vs IE, not the 9 and 2 its text states (k = 26 and P are the same).\n")
		if err := os.WriteFile(filepath.Join(dir, "signtest.md"), []byte(st.String()), 0o644); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<h3>Sign test: indirect vs direct AUC recovery</h3>\n<pre>%s</pre>\n", html.EscapeString(st.String()))
	}
	return h.String(), nil
}

// HTML renders the table for the index page.
func (t ComparedTable) HTML() string {
	var b strings.Builder
	cols := aaaiColumns(t.Table)
	b.WriteString("<table>\n<tr><th>Data</th><th>beta</th><th>d</th><th>n1</th><th>n</th><th>runs</th>")
	for _, c := range cols {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(c.head))
	}
	b.WriteString("</tr>\n")
	for _, r := range t.Ours {
		p, ok := t.paperRow(r)
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%.2f</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>", html.EscapeString(r.Dataset), r.Beta, r.D, r.N1, r.N, r.Runs)
		for _, c := range cols {
			if ok {
				fmt.Fprintf(&b, "<td>%s <span class=\"paper\">(%s, %s)</span></td>", f3(c.get(r)), f3(c.get(p)), signed3(c.get(r)-c.get(p)))
			} else {
				fmt.Fprintf(&b, "<td>%s</td>", f3(c.get(r)))
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	for _, w := range t.Warnings {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(w))
	}
	return b.String()
}

// WriteIndex writes dir/index.html around the given sections.
func WriteIndex(dir, title string, sections ...string) error {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title>
<style>
body { font-family: sans-serif; max-width: 1400px; margin: 1em auto; padding: 0 1em; }
table { border-collapse: collapse; font-size: 85%%; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #f0f0f0; } td:first-child { text-align: left; }
.paper { color: #777; } .note { color: #a33; }
figure { margin: 1em 0; } pre { background: #f6f6f6; padding: 0.5em; }
</style></head><body>
<h1>%s</h1>
`, html.EscapeString(title), html.EscapeString(title))
	for _, s := range sections {
		b.WriteString(s)
	}
	b.WriteString("</body></html>\n")
	return os.WriteFile(filepath.Join(dir, "index.html"), []byte(b.String()), 0o644)
}
