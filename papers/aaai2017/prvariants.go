package aaai2017

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// PRVariants is Table 2's IR column (AUC-PR recovered on U with the true
// alpha and beta, Algorithm 1 dropping the points outside the unit square,
// mean absolute error against the traditional truth) under every reading of
// the recovered precision-recall curve the records carry: "IR" is the one
// the config lists first (keys indirect:real), and each other one its
// variant key (indirect+PRECISION-AREA:real, e.g. eq3-step; the aucpr
// measure's precision and area options). The last column is the paper's IR.
// The table is what the choice of reading rests on (docs/aucpr.md); ok is
// false when the records hold no variant. The rows of the data sets in
// notComparable are marked and left out of the mean row.
func PRVariants(recs []results.Record, paper []Row, notComparable map[string]string) (report.Table, bool) {
	truthKey := results.TruthKey(Traditional)
	prefix := results.Indirect + "+"
	var variants []string // the kinds after "indirect+", sorted
	type key struct {
		ds   string
		beta float64
	}
	type acc struct {
		sum map[string]float64
		n   map[string]int
	}
	groups := map[key]*acc{}
	for _, r := range recs {
		m, ok := r.Metrics["aucpr"]
		tv, okT := m[truthKey]
		if r.Status != results.StatusOK || !ok || !okT {
			continue
		}
		k := key{r.Dataset, report.NominalBeta(r)}
		a := groups[k]
		if a == nil {
			a = &acc{sum: map[string]float64{}, n: map[string]int{}}
			groups[k] = a
		}
		for name, v := range m {
			kind, src := results.SplitKey(name)
			if src != results.Real {
				continue
			}
			variant := ""
			switch {
			case kind == results.Indirect:
			case strings.HasPrefix(kind, prefix):
				variant = strings.TrimPrefix(kind, prefix)
				if !slices.Contains(variants, variant) {
					variants = append(variants, variant)
				}
			default:
				continue
			}
			a.sum[variant] += math.Abs(v - tv)
			a.n[variant]++
		}
	}
	if len(variants) == 0 {
		return report.Table{}, false
	}
	slices.Sort(variants)
	cols := append([]string{""}, variants...)
	t := report.Table{
		Caption: "Table 2's IR (AUC-PR recovered with the true alpha, beta; traditional truth) under each reading of the recovered PR curve. " +
			"IR: the reading the config lists first; the others by precision (eq3: alpha gamma / eta_pu at each threshold; roc: from Algorithm 1's recovered ROC curve) and area (step: average precision; trapezoid).",
		Labels: []report.Column{{Name: "Data"}, {Name: "beta"}},
	}
	for _, c := range cols {
		name := "IR"
		if c != "" {
			name = "IR " + c
		}
		t.Values = append(t.Values, report.Column{Name: name, CSV: strings.ReplaceAll(name, " ", "_")})
	}
	t.Values = append(t.Values, report.Column{Name: "paper IR", CSV: "paper_ir"})
	keys := make([]key, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.ds, b.ds), cmp.Compare(b.beta, a.beta)) })
	sums := make([]float64, len(cols)+1)
	counts := make([]int, len(cols)+1)
	for _, k := range keys {
		a := groups[k]
		row := report.Row{Labels: []report.Label{{Text: k.ds}, {Text: fmt.Sprintf("%.2f", k.beta)}}}
		for _, c := range cols {
			v := math.NaN()
			if a.n[c] > 0 {
				v = a.sum[c] / float64(a.n[c])
			}
			row.Values = append(row.Values, v)
		}
		pv := math.NaN()
		if p, ok := paperRow(paper, Row{Dataset: k.ds, Beta: k.beta}); ok {
			pv = p.IR
		}
		row.Values = append(row.Values, pv)
		// The mean row is over the rows the paper has, so that the
		// columns compare on the same rows.
		if !math.IsNaN(pv) && notComparable[k.ds] == "" {
			for i, v := range row.Values {
				if !math.IsNaN(v) {
					sums[i] += v
					counts[i]++
				}
			}
		}
		t.Rows = append(t.Rows, row)
	}
	markNotComparable(&t, notComparable)
	mean := report.Row{Labels: []report.Label{{Text: "mean over the paper's comparable rows"}, {Text: ""}}}
	for i := range sums {
		v := math.NaN()
		if counts[i] > 0 {
			v = sums[i] / float64(counts[i])
		}
		mean.Values = append(mean.Values, v)
	}
	t.Rows = append(t.Rows, mean)
	return t, true
}

// notComparable lists the data sets whose rows do not compare with the
// paper's, with the reason: those the run's manifest warns are incomplete
// (the mirror's Gas has 8 of its 10 batches, so its alpha and sizes are not
// the paper's).
func notComparable(m results.Manifest) map[string]string {
	out := map[string]string{}
	for _, w := range m.Warnings {
		name, why, ok := strings.Cut(w, ": ")
		if ok && strings.HasPrefix(why, "incomplete") {
			out[name] = why
		}
	}
	return out
}

// markNotComparable marks the rows of the data sets in why (the first label
// is the data set) with a dagger, sets their NotComparable, so the summary
// rows leave them out, and says why in a note under the table.
func markNotComparable(t *report.Table, why map[string]string) {
	marked := map[string]bool{}
	for i := range t.Rows {
		r := &t.Rows[i]
		if len(r.Labels) == 0 {
			continue
		}
		name := r.Labels[0].Text
		reason, ok := why[name]
		if !ok {
			continue
		}
		r.NotComparable = reason
		l := &r.Labels[0]
		if l.CSV == "" {
			l.CSV = name
		}
		if l.LaTeX == "" {
			l.LaTeX = report.LaTeXEscape(name)
		}
		l.Text += " †"
		l.LaTeX += `$^\dagger$`
		marked[name] = true
	}
	for _, name := range slices.Sorted(maps.Keys(marked)) {
		t.Notes = append(t.Notes, fmt.Sprintf("† %s: not comparable with the paper's rows (%s); left out of the summary rows.", name, why[name]))
	}
}
