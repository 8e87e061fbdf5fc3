package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/experiments/results"
)

// PSBMetrics are the PSB-2019 metrics in the paper's panel order.
var PSBMetrics = []struct{ Key, Label string }{
	{results.MetricAcc, "Accuracy"}, {results.MetricBAcc, "Balanced accuracy"},
	{results.MetricF1, "F-measure"}, {results.MetricMCC, "MCC"},
}

// PSBMethods are the estimates compared in PSB-2019 Figure 2.
var PSBMethods = []string{results.PU, results.CR, results.CE}

// psbError is the error of one method in one record: its maximum over
// thresholds minus the true metric at that same threshold (PSB-2019 Figure 2:
// "the optimal decision threshold was selected first ... and then the
// resulting performance was compared with the true performance at that same
// threshold").
func psbError(m map[string]float64, method string) (float64, bool) {
	v, ok := m[method]
	t, okT := m[method+results.TruthAtSuffix]
	return v - t, ok && okT
}

// PSBFigure2 returns the four panels of PSB-2019 Figure 2: box plots of the
// error of PU, CR and CE by true beta, for acc, bacc, F and MCC.
func PSBFigure2(recs []results.Record) []BoxChart {
	var betas []float64
	for _, r := range recs {
		if b := nominalBeta(r); !containsFloat(betas, b) {
			betas = append(betas, b)
		}
	}
	sortDesc(betas)
	var groups []string
	for _, b := range betas {
		groups = append(groups, fmt.Sprintf("%.1f", b))
	}
	names := []string{"PU", "CR", "CE"}
	var charts []BoxChart
	for _, pm := range PSBMetrics {
		vals := make([][][]float64, len(PSBMethods))
		for i := range vals {
			vals[i] = make([][]float64, len(betas))
		}
		for _, r := range recs {
			m, ok := r.Metrics[pm.Key]
			if r.Status != results.StatusOK || !ok {
				continue
			}
			bi := indexFloat(betas, nominalBeta(r))
			for i, meth := range PSBMethods {
				if e, ok := psbError(m, meth); ok {
					vals[i][bi] = append(vals[i][bi], e)
				}
			}
		}
		stats := make([][]BoxStats, len(PSBMethods))
		for i := range vals {
			for _, v := range vals[i] {
				stats[i] = append(stats[i], Box(v))
			}
		}
		charts = append(charts, BoxChart{Title: pm.Label, XLabel: "beta (true)", YLabel: "estimate - truth",
			Groups: groups, Series: names, Colors: MethodColors(names), Stats: stats, ZeroLine: true})
	}
	return charts
}

// PSBRow is the mean error of each method for one data set and metric.
type PSBRow struct {
	Dataset string
	Metric  string
	Runs    int
	Truth   float64            // mean true maximum
	Mean    map[string]float64 // method -> mean signed error
	MAE     map[string]float64 // method -> mean absolute error
}

// PSBTable aggregates the per-data-set mean errors (over betas and repeats).
func PSBTable(recs []results.Record) []PSBRow {
	type key struct{ ds, metric string }
	acc := map[key]*PSBRow{}
	cnt := map[key]map[string]int{}
	var order []key
	for _, r := range recs {
		if r.Status != results.StatusOK {
			continue
		}
		for _, pm := range PSBMetrics {
			m, ok := r.Metrics[pm.Key]
			if !ok {
				continue
			}
			k := key{r.Dataset, pm.Key}
			row := acc[k]
			if row == nil {
				row = &PSBRow{Dataset: r.Dataset, Metric: pm.Key, Mean: map[string]float64{}, MAE: map[string]float64{}}
				acc[k], cnt[k] = row, map[string]int{}
				order = append(order, k)
			}
			row.Runs++
			row.Truth += m[results.Truth]
			for _, meth := range PSBMethods {
				if e, ok := psbError(m, meth); ok {
					row.Mean[meth] += e
					row.MAE[meth] += math.Abs(e)
					cnt[k][meth]++
				}
			}
		}
	}
	var rows []PSBRow
	for _, k := range order {
		row := acc[k]
		row.Truth /= float64(row.Runs)
		for _, meth := range PSBMethods {
			if n := cnt[k][meth]; n > 0 {
				row.Mean[meth] /= float64(n)
				row.MAE[meth] /= float64(n)
			} else {
				row.Mean[meth], row.MAE[meth] = math.NaN(), math.NaN()
			}
		}
		rows = append(rows, *row)
	}
	metricIndex := func(m string) int {
		return slices.IndexFunc(PSBMetrics, func(x struct{ Key, Label string }) bool { return x.Key == m })
	}
	slices.SortStableFunc(rows, func(a, b PSBRow) int {
		if c := cmp.Compare(a.Dataset, b.Dataset); c != 0 {
			return c
		}
		return cmp.Compare(metricIndex(a.Metric), metricIndex(b.Metric))
	})
	return rows
}

// PSBClaims checks the paper's qualitative claims on the records: PU
// underestimates bacc, F and MCC and overestimates acc; CR errors are near
// zero. It returns one line per claim with the measured mean errors.
func PSBClaims(rows []PSBRow) []string {
	mean := map[string]map[string]float64{}
	n := map[string]int{}
	for _, r := range rows {
		if mean[r.Metric] == nil {
			mean[r.Metric] = map[string]float64{}
		}
		for _, meth := range PSBMethods {
			if !math.IsNaN(r.Mean[meth]) {
				mean[r.Metric][meth] += r.Mean[meth]
			}
		}
		n[r.Metric]++
	}
	var out []string
	for _, pm := range PSBMetrics {
		if n[pm.Key] == 0 {
			continue
		}
		pu := mean[pm.Key][results.PU] / float64(n[pm.Key])
		cr := mean[pm.Key][results.CR] / float64(n[pm.Key])
		want := "underestimates"
		holds := pu < 0
		if pm.Key == results.MetricAcc {
			want, holds = "overestimates", pu > 0
		}
		verdict := "holds"
		if !holds {
			verdict = "does NOT hold"
		}
		crv := "near zero (|mean| < 0.02): holds"
		if math.Abs(cr) >= 0.02 {
			crv = "near zero (|mean| < 0.02): does NOT hold"
		}
		out = append(out, fmt.Sprintf("%s: PU %s (mean error %+.3f): %s; CR mean error %+.3f, %s",
			pm.Label, want, pu, verdict, cr, crv))
	}
	return out
}

// PSBReport writes the PSB-2019 report of recs into dir (Figure 2 panels,
// the per-data-set table as Markdown and CSV, the qualitative claims) and
// returns the HTML fragment for the index. missing lists catalogued data
// sets the run could not use, with the reason.
func PSBReport(dir string, recs []results.Record, missing map[string]string) (string, error) {
	var h strings.Builder
	h.WriteString("<h2>PSB 2019: accuracy, balanced accuracy, F-measure and MCC in PU learning</h2>\n")
	charts := PSBFigure2(recs)
	for i, bc := range charts {
		name := fmt.Sprintf("psb-fig2%c", 'a'+i)
		if _, err := bc.Figure(name, 14*vg.Centimeter, 8*vg.Centimeter).Save(dir); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<figure><img src=\"%s.png\" width=\"700\"><figcaption>Figure 2 (%c): %s, error of the maximum over thresholds against the true value at the same threshold. <a href=\"%s.pdf\">PDF</a> <a href=\"%s.svg\">SVG</a></figcaption></figure>\n",
			name, 'a'+i, html.EscapeString(bc.Title), name, name)
	}
	rows := PSBTable(recs)
	var md strings.Builder
	md.WriteString("| Data | metric | runs | truth | PU mean err | CR mean err | CE mean err | PU MAE | CR MAE | CE MAE |\n|---|---|---|---|---|---|---|---|---|---|\n")
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"dataset", "metric", "runs", "truth", "pu_mean", "cr_mean", "ce_mean", "pu_mae", "cr_mae", "ce_mae"})
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, r := range rows {
		fmt.Fprintf(&md, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", r.Dataset, r.Metric, r.Runs, f3(r.Truth),
			signed3(r.Mean[results.PU]), signed3(r.Mean[results.CR]), signed3(r.Mean[results.CE]),
			f3(r.MAE[results.PU]), f3(r.MAE[results.CR]), f3(r.MAE[results.CE]))
		w.Write([]string{r.Dataset, r.Metric, strconv.Itoa(r.Runs), num(r.Truth),
			num(r.Mean[results.PU]), num(r.Mean[results.CR]), num(r.Mean[results.CE]),
			num(r.MAE[results.PU]), num(r.MAE[results.CR]), num(r.MAE[results.CE])})
	}
	w.Flush()
	claims := PSBClaims(rows)
	md.WriteString("\nQualitative claims of the paper, checked on these records:\n\n")
	for _, c := range claims {
		md.WriteString("- " + c + "\n")
	}
	if len(missing) > 0 {
		md.WriteString("\nData sets of the paper not in this run:\n\n")
		keys := make([]string, 0, len(missing))
		for k := range missing {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&md, "- %s: %s\n", k, missing[k])
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "psb-table.md"), []byte(md.String()), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "psb-table.csv"), buf.Bytes(), 0o644); err != nil {
		return "", err
	}
	fmt.Fprintf(&h, "<h3>Per data set mean errors</h3>\n<pre>%s</pre>\n", html.EscapeString(md.String()))
	return h.String(), nil
}
