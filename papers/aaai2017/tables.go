package aaai2017

import (
	"cmp"
	"embed"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// published holds the appendix's Tables 1 and 2 as CSV, each with a header
// comment naming its source.
//
//go:embed published/*.csv
var published embed.FS

// Row is one row of the appendix's Table 1 (AUC) or Table 2 (AUC-PR): a data
// set at one beta, with the mean absolute errors of each estimate against
// the truth. Table 2 has no DR or DE (NaN).
type Row struct {
	Dataset     string
	Runs        int // repeats aggregated (the paper: 50; 0 for published rows)
	Alpha, Beta float64
	D, N1, N    int
	E           float64 // mean |error| of the estimated beta - alpha
	Truth, PUV  float64 // mean true value and mean PU value
	PU, IR, DR  float64
	IE, DE      float64
}

// Published returns the published Table 1 (table = 1, AUC) or Table 2 (AUC-PR).
func Published(table int) ([]Row, error) {
	metric, ok := tableMetric[table]
	if !ok {
		return nil, fmt.Errorf("AAAI-2017 has tables 1 and 2, not %d", table)
	}
	name := fmt.Sprintf("published/table%d.csv", table)
	recs, err := report.ReadPaperCSV(published, name)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for i, r := range recs[1:] {
		var err error
		f := func(col string) float64 {
			j := slices.Index(recs[0], col)
			if j < 0 {
				return math.NaN() // Table 2 has no dr, de
			}
			v, perr := strconv.ParseFloat(r[j], 64)
			if perr != nil && err == nil {
				err = fmt.Errorf("%s row %d column %s: %w", name, i+2, col, perr)
			}
			return v
		}
		row := Row{Dataset: r[0], Alpha: f("alpha"), Beta: f("beta"),
			D: int(f("d")), N1: int(f("n1")), N: int(f("n")), E: f("e"),
			Truth: f(metric), PUV: f(metric + "_pu"),
			PU: f("pu"), IR: f("ir"), DR: f("dr"), IE: f("ie"), DE: f("de")}
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// tableMetric is the metric of each table.
var tableMetric = map[int]string{1: "auc", 2: "aucpr"}

// metricLabel is how the paper writes a metric.
var metricLabel = map[string]string{"auc": "AUC", "aucpr": "AUC-PR"}

// The paper's two truths, as truth IDs of the records (truth:ID keys).
const (
	// Traditional is the truth of the paper's tables: a bag trained on the
	// whole data set with the true labels, scored out of bag on U.
	Traditional = "traditional"
	// SameModel is the PU classifier's own scores on U judged with the true labels.
	SameModel = "same-model"
)

// Aggregate turns the records of an AAAI-2017 style experiment into the
// rows of the appendix's Table 1 (metric "auc") or Table 2 ("aucpr"): per
// (data set, beta) the mean true alpha, the mean absolute error e of the
// estimated beta - alpha, the mean truth and PU value, and the mean absolute
// error of each estimate against the truth with ID truth (Traditional for
// the paper's tables, SameModel): PU (key pu), IR, DR (indirect:real,
// direct:real), IE, DE (indirect:est, direct:est, with the estimate
// Record.Estimates[est]). With clip, the indirect columns use Algorithm 1
// with outside = clip (indirect-clip:real, indirect-clip:est). Failed
// records and records without the metric or the truth are skipped and
// counted in the returned warnings.
func Aggregate(recs []results.Record, metric, truth, est string, clip bool) ([]Row, []string) {
	type key struct {
		ds   string
		beta float64
	}
	type acc struct {
		row               Row
		n                 int
		alpha, e, tr, puv float64
		errs              map[string]float64
		cnt               map[string]int
	}
	cols := columnKeys(est, clip)
	truthKey := results.TruthKey(truth)
	groups := map[key]*acc{}
	var order []key
	skipped := 0
	for _, r := range recs {
		m, ok := r.Metrics[metric]
		tv, okT := m[truthKey]
		if r.Status != results.StatusOK || !ok || !okT {
			skipped++
			continue
		}
		k := key{r.Dataset, report.NominalBeta(r)}
		a := groups[k]
		if a == nil {
			a = &acc{row: Row{Dataset: r.Dataset, Beta: k.beta, D: r.Sizes.D, N1: r.Sizes.NPos, N: r.Sizes.N},
				errs: map[string]float64{}, cnt: map[string]int{}}
			groups[k] = a
			order = append(order, k)
		}
		a.n++
		a.alpha += r.Alpha
		a.tr += tv
		a.puv += m[results.PU]
		if e, ok := r.Estimates[est]; ok && est != "" {
			a.e += math.Abs((e.Beta - e.Alpha) - (r.Beta - r.Alpha))
			a.cnt["e"]++
		}
		for _, c := range cols {
			if v, ok := m[c.key]; ok {
				a.errs[c.name] += math.Abs(v - tv)
				a.cnt[c.name]++
			}
		}
	}
	mean := func(sum float64, n int) float64 {
		if n == 0 {
			return math.NaN()
		}
		return sum / float64(n)
	}
	var rows []Row
	for _, k := range order {
		a := groups[k]
		r := a.row
		r.Runs = a.n
		r.Alpha, r.Truth, r.PUV = a.alpha/float64(a.n), a.tr/float64(a.n), a.puv/float64(a.n)
		r.E = mean(a.e, a.cnt["e"])
		r.PU = mean(a.errs["PU"], a.cnt["PU"])
		r.IR = mean(a.errs["IR"], a.cnt["IR"])
		r.DR = mean(a.errs["DR"], a.cnt["DR"])
		r.IE = mean(a.errs["IE"], a.cnt["IE"])
		r.DE = mean(a.errs["DE"], a.cnt["DE"])
		rows = append(rows, r)
	}
	sortRows(rows)
	var warns []string
	if skipped > 0 {
		// "auc/truth": the table's caption names which truth.
		warns = append(warns, fmt.Sprintf("%d records skipped for %s/%s (failed or without that metric)", skipped, metric, results.Truth))
	}
	return rows, warns
}

// columnKeys maps the paper's estimate columns to the record keys they
// read, in the order of the paper's legend.
func columnKeys(est string, clip bool) []struct{ name, key string } {
	indirect := results.Indirect
	if clip {
		indirect = results.IndirectClip
	}
	cols := []struct{ name, key string }{
		{"PU", results.PU},
		{"IR", results.RecoveryKey(indirect, results.Real)},
		{"DR", results.RecoveryKey(results.Direct, results.Real)},
	}
	// Without an estimator there are no E columns (NaN), rather than the
	// keys of an empty source.
	if est != "" {
		cols = append(cols, struct{ name, key string }{"IE", results.RecoveryKey(indirect, est)},
			struct{ name, key string }{"DE", results.RecoveryKey(results.Direct, est)})
	}
	return cols
}

// sortRows orders rows as the paper does: data set by name, beta descending.
func sortRows(rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(b.Beta, a.Beta))
	})
}

// column is a value column of Tables 1-2 with the row field it shows.
type column struct {
	report.Column
	get func(Row) float64
}

// columns are the columns of Tables 1-2 compared with the paper; Table 2
// has no DR or DE.
func columns(table int) []column {
	label := metricLabel[tableMetric[table]]
	cols := []column{
		{report.Column{Name: "alpha", LaTeX: `$\alpha$`}, func(r Row) float64 { return r.Alpha }},
		{report.Column{Name: "e"}, func(r Row) float64 { return r.E }},
		{report.Column{Name: label}, func(r Row) float64 { return r.Truth }},
		{report.Column{Name: label + "_pu", LaTeX: label + "$^{pu}$"}, func(r Row) float64 { return r.PUV }},
		{report.Column{Name: "PU"}, func(r Row) float64 { return r.PU }},
		{report.Column{Name: "IR"}, func(r Row) float64 { return r.IR }},
		{report.Column{Name: "DR"}, func(r Row) float64 { return r.DR }},
		{report.Column{Name: "IE"}, func(r Row) float64 { return r.IE }},
		{report.Column{Name: "DE"}, func(r Row) float64 { return r.DE }},
	}
	if table == 2 {
		cols = slices.DeleteFunc(cols, func(c column) bool { return c.Name == "DR" || c.Name == "DE" })
	}
	return cols
}

// CompareTable is a reproduced Table 1 or 2 beside the published one: rows
// of ours, each with the published row of the same data set and beta when
// the paper has one.
func CompareTable(table int, caption string, ours, paper []Row, notes []string) report.Table {
	cols := columns(table)
	t := report.Table{Caption: caption, Compared: true, Notes: notes,
		Labels: []report.Column{{Name: "Data", CSV: "dataset"}, {Name: "beta", LaTeX: `$\beta$`},
			{Name: "d", LaTeX: "$d$"}, {Name: "n1", LaTeX: "$n_1$"}, {Name: "n", LaTeX: "$n$"},
			{Name: "runs", NoLaTeX: true}}}
	for _, c := range cols {
		t.Values = append(t.Values, c.Column)
	}
	for _, r := range ours {
		row := report.Row{Labels: []report.Label{
			{Text: r.Dataset, LaTeX: report.LaTeXEscape(upperFirst(r.Dataset))},
			{Text: fmt.Sprintf("%.2f", r.Beta), CSV: strconv.FormatFloat(r.Beta, 'g', 6, 64)},
			{Text: strconv.Itoa(r.D)}, {Text: strconv.Itoa(r.N1)}, {Text: strconv.Itoa(r.N)}, {Text: strconv.Itoa(r.Runs)}}}
		p, ok := paperRow(paper, r)
		for _, c := range cols {
			row.Values = append(row.Values, c.get(r))
			if ok {
				row.Paper = append(row.Paper, c.get(p))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// paperRow finds the published row of r's data set and beta.
func paperRow(paper []Row, r Row) (Row, bool) {
	for _, p := range paper {
		if p.Dataset == r.Dataset && math.Abs(p.Beta-r.Beta) < 1e-9 {
			return p, true
		}
	}
	return Row{}, false
}

// upperFirst capitalises a data set's name as the paper's tables print it.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
