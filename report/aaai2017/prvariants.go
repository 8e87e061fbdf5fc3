package aaai2017

import (
	"cmp"
	"fmt"
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
// The table is what the choice of reading rests on (README, "AUC-PR
// recovery"); ok is false when the records hold no variant.
func PRVariants(recs []results.Record, paper []Row) (report.Table, bool) {
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
		if !math.IsNaN(pv) {
			for i, v := range row.Values {
				if !math.IsNaN(v) {
					sums[i] += v
					counts[i]++
				}
			}
		}
		t.Rows = append(t.Rows, row)
	}
	mean := report.Row{Labels: []report.Label{{Text: "mean over the paper's rows"}, {Text: ""}}}
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
