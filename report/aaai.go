package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// AAAIAggregate turns the records of an AAAI-2017 style experiment into the
// rows of the appendix's Table 1 (metric "auc") or Table 2 ("aucpr"): per
// (data set, beta) the mean true alpha, the mean absolute error e of the
// estimated beta - alpha, the mean truth and PU value, and the mean absolute
// error of each estimate (PU, IR, DR, IE, DE) against the truth named by
// truthKey (results.Truth for the paper's traditional truth,
// results.TruthSameModel for the same model's). With clip, the indirect
// columns use Algorithm 1 with outside = clip. Failed records and records
// without the metric are skipped and counted in the returned warnings.
func AAAIAggregate(recs []results.Record, metric, truthKey string, clip bool) ([]AAAIRow, []string) {
	type key struct {
		ds   string
		beta float64
	}
	type acc struct {
		row               AAAIRow
		n                 int
		alpha, e, tr, puv float64
		errs              map[string]float64
		cnt               map[string]int
	}
	groups := map[key]*acc{}
	var order []key
	skipped := 0
	for _, r := range recs {
		m, ok := r.Metrics[metric]
		truth, okT := m[truthKey]
		if r.Status != results.StatusOK || !ok || !okT {
			skipped++
			continue
		}
		k := key{r.Dataset, nominalBeta(r)}
		a := groups[k]
		if a == nil {
			a = &acc{row: AAAIRow{Dataset: r.Dataset, Beta: k.beta, D: r.Sizes.D, N1: r.Sizes.NPos, N: r.Sizes.N},
				errs: map[string]float64{}, cnt: map[string]int{}}
			groups[k] = a
			order = append(order, k)
		}
		a.n++
		a.alpha += r.Alpha
		a.tr += truth
		a.puv += m[results.PU]
		if est, ok := r.Estimates[results.EstimateUsed]; ok {
			a.e += math.Abs((est.Beta - est.Alpha) - (r.Beta - r.Alpha))
			a.cnt["e"]++
		}
		for _, col := range []string{results.PU, results.IR, results.DR, results.IE, results.DE} {
			name := col
			if clip && (col == results.IR || col == results.IE) {
				name += results.ClipSuffix
			}
			if v, ok := m[name]; ok {
				a.errs[col] += math.Abs(v - truth)
				a.cnt[col]++
			}
		}
	}
	mean := func(sum float64, n int) float64 {
		if n == 0 {
			return math.NaN()
		}
		return sum / float64(n)
	}
	var rows []AAAIRow
	for _, k := range order {
		a := groups[k]
		r := a.row
		r.Runs = a.n
		r.Alpha, r.Truth, r.PUV = a.alpha/float64(a.n), a.tr/float64(a.n), a.puv/float64(a.n)
		r.E = mean(a.e, a.cnt["e"])
		r.PU = mean(a.errs[results.PU], a.cnt[results.PU])
		r.IR = mean(a.errs[results.IR], a.cnt[results.IR])
		r.DR = mean(a.errs[results.DR], a.cnt[results.DR])
		r.IE = mean(a.errs[results.IE], a.cnt[results.IE])
		r.DE = mean(a.errs[results.DE], a.cnt[results.DE])
		rows = append(rows, r)
	}
	sortRows(rows)
	var warns []string
	if skipped > 0 {
		warns = append(warns, fmt.Sprintf("%d records skipped for %s/%s (failed or without that metric)", skipped, metric, truthKey))
	}
	return rows, warns
}

// nominalBeta is the grid's beta when the record has one, else the true beta.
func nominalBeta(r results.Record) float64 {
	if s, ok := r.Grid["beta"]; ok {
		if b, err := strconv.ParseFloat(s, 64); err == nil {
			return b
		}
	}
	return r.Beta
}

// sortRows orders rows as the paper does: data set by name, beta descending.
func sortRows(rows []AAAIRow) {
	slices.SortStableFunc(rows, func(a, b AAAIRow) int {
		if c := cmp.Compare(a.Dataset, b.Dataset); c != 0 {
			return c
		}
		return cmp.Compare(b.Beta, a.Beta)
	})
}

// aaaiColumns are the columns of Tables 1-2 compared with the paper, with
// their headers; Table 2 has no DR or DE.
func aaaiColumns(table int) []struct {
	head string
	get  func(AAAIRow) float64
} {
	cols := []struct {
		head string
		get  func(AAAIRow) float64
	}{
		{"alpha", func(r AAAIRow) float64 { return r.Alpha }},
		{"e", func(r AAAIRow) float64 { return r.E }},
		{map[int]string{1: "AUC", 2: "AUC-PR"}[table], func(r AAAIRow) float64 { return r.Truth }},
		{map[int]string{1: "AUC_pu", 2: "AUC-PR_pu"}[table], func(r AAAIRow) float64 { return r.PUV }},
		{"PU", func(r AAAIRow) float64 { return r.PU }},
		{"IR", func(r AAAIRow) float64 { return r.IR }},
		{"DR", func(r AAAIRow) float64 { return r.DR }},
		{"IE", func(r AAAIRow) float64 { return r.IE }},
		{"DE", func(r AAAIRow) float64 { return r.DE }},
	}
	if table == 2 {
		cols = slices.DeleteFunc(cols, func(c struct {
			head string
			get  func(AAAIRow) float64
		}) bool {
			return c.head == "DR" || c.head == "DE"
		})
	}
	return cols
}

// ComparedTable is a reproduced AAAI table beside the published one.
type ComparedTable struct {
	Table    int // 1 (AUC) or 2 (AUC-PR)
	Caption  string
	Ours     []AAAIRow
	Paper    []AAAIRow
	Warnings []string
}

func (t ComparedTable) paperRow(r AAAIRow) (AAAIRow, bool) {
	for _, p := range t.Paper {
		if p.Dataset == r.Dataset && math.Abs(p.Beta-r.Beta) < 1e-9 {
			return p, true
		}
	}
	return AAAIRow{}, false
}

func f3(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

func signed3(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	if x >= 0 {
		return "+" + strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// Markdown renders the table: each cell "ours (paper, ours - paper)".
func (t ComparedTable) Markdown() string {
	var b strings.Builder
	cols := aaaiColumns(t.Table)
	fmt.Fprintf(&b, "%s\n\n| Data | beta | d | n1 | n | runs |", t.Caption)
	for _, c := range cols {
		fmt.Fprintf(&b, " %s |", c.head)
	}
	b.WriteString("\n|---|---|---|---|---|---|" + strings.Repeat("---|", len(cols)) + "\n")
	for _, r := range t.Ours {
		p, ok := t.paperRow(r)
		fmt.Fprintf(&b, "| %s | %.2f | %d | %d | %d | %d |", r.Dataset, r.Beta, r.D, r.N1, r.N, r.Runs)
		for _, c := range cols {
			if ok {
				fmt.Fprintf(&b, " %s (%s, %s) |", f3(c.get(r)), f3(c.get(p)), signed3(c.get(r)-c.get(p)))
			} else {
				fmt.Fprintf(&b, " %s |", f3(c.get(r)))
			}
		}
		b.WriteString("\n")
	}
	for _, w := range t.Warnings {
		fmt.Fprintf(&b, "\nNote: %s\n", w)
	}
	return b.String()
}

// LaTeX renders the table as a tabular: each cell "ours (paper)".
func (t ComparedTable) LaTeX() string {
	var b strings.Builder
	cols := aaaiColumns(t.Table)
	fmt.Fprintf(&b, "%% %s\n\\begin{tabular}{lrrrr%s}\n\\hline\nData & $\\beta$ & $d$ & $n_1$ & $n$", t.Caption, strings.Repeat("r", len(cols)))
	for _, c := range cols {
		fmt.Fprintf(&b, " & %s", latexHead(c.head))
	}
	b.WriteString(" \\\\\n\\hline\n")
	for _, r := range t.Ours {
		p, ok := t.paperRow(r)
		fmt.Fprintf(&b, "%s & %.2f & %d & %d & %d", strings.ToUpper(r.Dataset[:1])+r.Dataset[1:], r.Beta, r.D, r.N1, r.N)
		for _, c := range cols {
			if ok {
				fmt.Fprintf(&b, " & %s (%s)", f3(c.get(r)), f3(c.get(p)))
			} else {
				fmt.Fprintf(&b, " & %s", f3(c.get(r)))
			}
		}
		b.WriteString(" \\\\\n")
	}
	b.WriteString("\\hline\n\\end{tabular}\n")
	return b.String()
}

func latexHead(h string) string {
	switch h {
	case "alpha":
		return "$\\alpha$"
	case "AUC_pu":
		return "AUC$^{pu}$"
	case "AUC-PR_pu":
		return "AUC-PR$^{pu}$"
	}
	return h
}

// CSV renders the table with, for each column X, the columns X, X_paper and X_diff.
func (t ComparedTable) CSV() string {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	cols := aaaiColumns(t.Table)
	head := []string{"dataset", "beta", "d", "n1", "n", "runs"}
	for _, c := range cols {
		head = append(head, c.head, c.head+"_paper", c.head+"_diff")
	}
	w.Write(head)
	num := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', 6, 64)
	}
	for _, r := range t.Ours {
		p, ok := t.paperRow(r)
		rec := []string{r.Dataset, num(r.Beta), strconv.Itoa(r.D), strconv.Itoa(r.N1), strconv.Itoa(r.N), strconv.Itoa(r.Runs)}
		for _, c := range cols {
			pv := math.NaN()
			if ok {
				pv = c.get(p)
			}
			rec = append(rec, num(c.get(r)), num(pv), num(c.get(r)-pv))
		}
		w.Write(rec)
	}
	w.Flush()
	return buf.String()
}
