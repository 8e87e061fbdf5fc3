package psb2019

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Metrics are the paper's metrics in its panel order.
var Metrics = []struct{ Key, Label string }{
	{"acc", "Accuracy"}, {"bacc", "Balanced accuracy"}, {"f1", "F-measure"}, {"mcc", "MCC"},
}

// SameModel is the ID of the truth of these metrics: the evaluated
// classifier's own scores on D = L u U judged with the true labels (the
// record key truth:same-model holds its maximum over thresholds).
const SameModel = "same-model"

// Method is an estimate compared in Figure 2: the record key of its
// maximum over thresholds and the key of the true value at that threshold.
type Method struct {
	Name         string // the paper's: PU, CR, CE
	Key, TruthAt string
}

// Methods returns the estimates of Figure 2: PU (keys pu, truth-at:pu), CR
// with the real alpha and beta (recovered:real, truth-at:real) and CE with
// those of the estimator est (recovered:est, truth-at:est).
func Methods(est string) []Method {
	return []Method{
		{"PU", results.PU, results.TruthAtKey(results.PU)},
		{"CR", results.RecoveryKey(results.Recovered, results.Real), results.TruthAtKey(results.Real)},
		{"CE", results.RecoveryKey(results.Recovered, est), results.TruthAtKey(est)},
	}
}

// colors reuse AAAI-2017 Figure 2's: red for PU, green for the recovery
// with the real alpha and beta, blue for the estimated ones.
var colors = map[string]color.Color{"PU": report.ColorRed, "CR": report.ColorGreen, "CE": report.ColorBlue}

// methodError is the error of one method in one record: its maximum over
// thresholds minus the true metric at that same threshold (Figure 2: "the
// optimal decision threshold was selected first ... and then the resulting
// performance was compared with the true performance at that same
// threshold").
func methodError(m map[string]float64, meth Method) (float64, bool) {
	v, ok := m[meth.Key]
	t, okT := m[meth.TruthAt]
	return v - t, ok && okT
}

// Figure2 returns the four panels of Figure 2: box plots of the error of
// PU, CR and CE (the estimates of est) by nominal beta, for acc, bacc, F
// and MCC.
func Figure2(recs []results.Record, est string) []report.BoxChart {
	methods := Methods(est)
	betas := report.NominalBetas(recs)
	var groups []string
	for _, b := range betas {
		groups = append(groups, fmt.Sprintf("%.1f", b))
	}
	names := make([]string, len(methods))
	for i, meth := range methods {
		names[i] = meth.Name
	}
	var charts []report.BoxChart
	for _, pm := range Metrics {
		vals := make([][][]float64, len(methods))
		for i := range vals {
			vals[i] = make([][]float64, len(betas))
		}
		for _, r := range recs {
			m, ok := r.Metrics[pm.Key]
			if r.Status != results.StatusOK || !ok {
				continue
			}
			bi := report.IndexFloat(betas, report.NominalBeta(r))
			for i, meth := range methods {
				if e, ok := methodError(m, meth); ok {
					vals[i][bi] = append(vals[i][bi], e)
				}
			}
		}
		stats := make([][]report.BoxStats, len(methods))
		for i := range vals {
			for _, v := range vals[i] {
				stats[i] = append(stats[i], report.Box(v))
			}
		}
		charts = append(charts, report.BoxChart{Title: pm.Label, XLabel: "beta (true)", YLabel: "estimate - truth",
			Groups: groups, Series: names, Colors: report.ColorsOf(names, colors), Stats: stats, ZeroLine: true})
	}
	return charts
}

// Row is the mean error of each method for one data set and metric.
type Row struct {
	Dataset string
	Metric  string
	Runs    int
	Truth   float64            // mean true maximum (truth:same-model)
	Mean    map[string]float64 // method name (PU, CR, CE) -> mean signed error
	MAE     map[string]float64 // method name -> mean absolute error
}

// Aggregate returns the per-data-set mean errors (over betas and repeats)
// of PU, CR and CE (the estimates of est), rows by data set then metric.
func Aggregate(recs []results.Record, est string) []Row {
	methods := Methods(est)
	type key struct{ ds, metric string }
	acc := map[key]*Row{}
	cnt := map[key]map[string]int{}
	var order []key
	for _, r := range recs {
		if r.Status != results.StatusOK {
			continue
		}
		for _, pm := range Metrics {
			m, ok := r.Metrics[pm.Key]
			if !ok {
				continue
			}
			k := key{r.Dataset, pm.Key}
			row := acc[k]
			if row == nil {
				row = &Row{Dataset: r.Dataset, Metric: pm.Key, Mean: map[string]float64{}, MAE: map[string]float64{}}
				acc[k], cnt[k] = row, map[string]int{}
				order = append(order, k)
			}
			row.Runs++
			row.Truth += m[results.TruthKey(SameModel)]
			for _, meth := range methods {
				if e, ok := methodError(m, meth); ok {
					row.Mean[meth.Name] += e
					row.MAE[meth.Name] += math.Abs(e)
					cnt[k][meth.Name]++
				}
			}
		}
	}
	var rows []Row
	for _, k := range order {
		row := acc[k]
		row.Truth /= float64(row.Runs)
		for _, meth := range methods {
			if n := cnt[k][meth.Name]; n > 0 {
				row.Mean[meth.Name] /= float64(n)
				row.MAE[meth.Name] /= float64(n)
			} else {
				row.Mean[meth.Name], row.MAE[meth.Name] = math.NaN(), math.NaN()
			}
		}
		rows = append(rows, *row)
	}
	metricIndex := func(m string) int {
		return slices.IndexFunc(Metrics, func(x struct{ Key, Label string }) bool { return x.Key == m })
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(metricIndex(a.Metric), metricIndex(b.Metric)))
	})
	return rows
}

// Table renders the rows as a report table: the mean true maximum, then
// each method's mean signed error and its mean absolute error.
func Table(rows []Row, caption string) report.Table {
	names := []string{"PU", "CR", "CE"}
	t := report.Table{Caption: caption,
		Labels: []report.Column{{Name: "Data", CSV: "dataset"}, {Name: "metric"}, {Name: "runs", NoLaTeX: true}},
		Values: []report.Column{{Name: "truth"}}}
	for _, n := range names {
		t.Values = append(t.Values, report.Column{Name: n + " mean err", CSV: strings.ToLower(n) + "_mean", Signed: true})
	}
	for _, n := range names {
		t.Values = append(t.Values, report.Column{Name: n + " MAE", CSV: strings.ToLower(n) + "_mae"})
	}
	for _, r := range rows {
		row := report.Row{Labels: []report.Label{{Text: r.Dataset}, {Text: r.Metric}, {Text: strconv.Itoa(r.Runs)}},
			Values: []float64{r.Truth}}
		for _, n := range names {
			row.Values = append(row.Values, valueOr(r.Mean, n))
		}
		for _, n := range names {
			row.Values = append(row.Values, valueOr(r.MAE, n))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// valueOr is m[k], NaN when absent (a hand-built Row may lack a method).
func valueOr(m map[string]float64, k string) float64 {
	if v, ok := m[k]; ok {
		return v
	}
	return math.NaN()
}

// Claims checks the paper's qualitative claims on the rows: PU
// underestimates bacc, F and MCC and overestimates acc; CR errors are near
// zero. Per metric it returns two claims, PU's then CR's, each on the mean
// over data sets of the per-data-set mean errors (the data sets where the
// method has one: a missing error is not a zero error); a method with no
// mean error leaves its claim unchecked.
func Claims(rows []Row) []report.Claim {
	sum := map[string]map[string]float64{}
	n := map[string]map[string]int{}
	for _, r := range rows {
		if sum[r.Metric] == nil {
			sum[r.Metric], n[r.Metric] = map[string]float64{}, map[string]int{}
		}
		for meth, v := range r.Mean {
			if !math.IsNaN(v) {
				sum[r.Metric][meth] += v
				n[r.Metric][meth]++
			}
		}
	}
	var out []report.Claim
	for _, pm := range Metrics {
		if sum[pm.Key] == nil {
			continue
		}
		want, over := "underestimates", false
		if pm.Key == "acc" {
			want, over = "overestimates", true
		}
		pu := report.Claim{Item: pm.Label, Test: "PU " + want, Detail: "no PU mean error"}
		if k := n[pm.Key]["PU"]; k > 0 {
			m := sum[pm.Key]["PU"] / float64(k)
			pu.Verdict, pu.Detail = report.VerdictOf((over && m > 0) || (!over && m < 0)), fmt.Sprintf("mean error %+.3f", m)
		}
		cr := report.Claim{Item: pm.Label, Test: "near zero (|mean| < 0.02)", Detail: "no CR mean error"}
		if k := n[pm.Key]["CR"]; k > 0 {
			m := sum[pm.Key]["CR"] / float64(k)
			cr.Verdict, cr.Detail = report.VerdictOf(math.Abs(m) < 0.02), fmt.Sprintf("CR mean error %+.3f", m)
		}
		out = append(out, pu, cr)
	}
	return out
}

// ClaimLines lays out the claims as the table's Markdown has always listed
// them: one line per metric holding its PU and its CR claim,
// "Accuracy: PU overestimates (mean error +0.270): holds; CR mean error
// +0.024, near zero (|mean| < 0.02): does NOT hold".
func ClaimLines(claims []report.Claim) []string {
	var out []string
	for i := 0; i+1 < len(claims); i += 2 {
		pu, cr := claims[i], claims[i+1]
		out = append(out, fmt.Sprintf("%s: %s (%s): %s; %s, %s: %s", pu.Item, pu.Test, pu.Detail, pu.Verdict, cr.Detail, cr.Test, cr.Verdict))
	}
	return out
}
