package pulp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pueval/pueval/report"
)

// Caveat is the report's statement of what its numbers can be compared
// with; it heads the report and follows Table 1.
const Caveat = "The protocol is pueval's (the paper does not specify its classifiers, weights, Pr[y=1] grid, labeled fraction or mixture model); " +
	"20 Newsgroups bydate and MNIST stand in for the paper's data (the protein and rail data are not available), so Table 1 is compared qualitatively."

// Table 1's row statistics beyond the paper's: the overall SD of the
// measure on the true labels (no published counterpart).
const statTrueSD = "sd_true"

// Table1Row is one row of Table 1.
type Table1Row struct {
	Stat     string // StatRank, StatMAD, StatSD or "sd_true"
	Labeling string // a labeling for StatRank and StatMAD, "all" for the SDs
	Values   []float64
	NPi      []int // per measure, the Pr[y=1] values averaged (rank and MAD rows)
}

// Table1Rows computes Table 1: for each labeling the mean over the
// Pr[y=1] grid of the rank correlation, then of the MAD, then the overall
// SD of the PU values and, beyond the paper, of the true values.
func Table1Rows(a Analysis) []Table1Row {
	var rows []Table1Row
	for _, stat := range []string{StatRank, StatMAD} {
		for _, l := range a.Labelings {
			r := Table1Row{Stat: stat, Labeling: l}
			for _, m := range Measures {
				v, n := a.GridMean(stat, l, m.Key)
				r.Values, r.NPi = append(r.Values, v), append(r.NPi, n)
			}
			rows = append(rows, r)
		}
	}
	sd, tsd := Table1Row{Stat: StatSD, Labeling: "all"}, Table1Row{Stat: statTrueSD, Labeling: "all"}
	for _, m := range Measures {
		sd.Values, tsd.Values = append(sd.Values, valueOr(a.SD, m.Key)), append(tsd.Values, valueOr(a.TrueSD, m.Key))
	}
	return append(rows, sd, tsd)
}

// valueOr is m[k], NaN (no value) when absent, not the zero value.
func valueOr(m map[string]float64, k string) float64 {
	if v, ok := m[k]; ok {
		return v
	}
	return math.NaN()
}

func statName(stat string) string {
	switch stat {
	case StatRank:
		return "rank corr."
	case StatMAD:
		return "MAD"
	case StatSD:
		return "overall SD"
	case statTrueSD:
		return "overall SD, true labels"
	}
	return stat
}

// Table1 is Table 1 beside the published one.
func Table1(a Analysis, paper PaperTable) report.Table {
	t := table1(a, paper, "Table 1: per labeling scenario, the mean over the Pr[y=1] grid of the rank (Spearman) correlation and of the mean absolute deviation (MAD) "+
		"between each measure on PU labels (labeled = positive, unlabeled = negative) and on the true labels, each the mean over the held-out folds "+
		"(and repeats) of its value over the (problem, classifier) configurations; overall SD: the standard deviation of every PU value of the measure "+
		"(every record and fold). The published values in brackets: ours (paper, ours - paper).")
	t.Notes = append([]string{Caveat}, t.Notes...)
	return t
}

// FoldMeansNote explains Table 1 (fold means) beside Table 1: it heads
// the table's notes and its section of the report.
func FoldMeansNote(a Analysis) string {
	k := 0
	for _, f := range a.Folds {
		if f > 0 {
			k++
		}
	}
	kText := fmt.Sprintf("1/K of the labeled examples (K = %d here)", k)
	if k == 0 {
		kText = "1/K of the labeled examples (these records hold the fold means only, so the two tables coincide)"
	}
	return "Two readings of the paper's \"8-fold CV\". Table 1 follows the specification: Spearman's rho and the MAD between a measure on PU labels and on the true labels " +
		"are computed over the (problem, classifier) configurations on each held-out fold, then averaged over the folds. Table 1 (fold means) first averages each " +
		"configuration's measure over its folds (the records' pu and true) and computes the statistics once over these means. A held-out fold holds " + kText +
		", so a measure's per-fold values carry that small sample's noise, which blurs the ranking of the configurations and lowers the per-fold rank correlations; " +
		"the fold means average most of it out. The paper does not say which it used, so the difference between the two tables shows how much of the gap to the " +
		"published values fold noise can account for. Figure 2 and the claims' verdicts stay on the per-fold view; claims.md gives the fold-mean values of claims 1-5 " +
		"beside them, and fig2-foldmeans.csv Figure 2's numbers over the fold means."
}

// Table1FoldMeans is Table 1 over the fold means (a.FoldMeans) beside the
// published values: the same rows, each configuration contributing its
// measure averaged over its folds, and the overall SDs over those fold
// means (one PU value per record). Its notes start with FoldMeansNote
// (Table 1's caveat is not repeated). Without a.FoldMeans (an Analysis
// built by hand) its values are NaN.
func Table1FoldMeans(a Analysis, paper PaperTable) report.Table {
	const caption = "Table 1 (fold means): as Table 1, but each (problem, classifier) configuration contributes its measure averaged over its held-out folds, " +
		"on PU labels and on the true labels (the records' pu and true), and the rank (Spearman) correlation and the MAD are computed once over these fold means " +
		"per labeling, Pr[y=1] and repeat, then averaged over the repeats and the Pr[y=1] grid; overall SD: the standard deviation of the fold-mean PU values " +
		"of the measure (one per record). The published values in brackets: ours (paper, ours - paper)."
	fm := Analysis{Labelings: a.Labelings, Pis: a.Pis, Repeats: a.Repeats, FoldMeanView: true}
	if a.FoldMeans != nil {
		fm = *a.FoldMeans
	}
	t := table1(fm, paper, caption)
	t.Notes = append([]string{FoldMeansNote(a)}, t.Notes...)
	return t
}

// table1 renders Table1Rows(a) with its notes (Table1Notes).
func table1(a Analysis, paper PaperTable, caption string) report.Table {
	t := report.Table{
		Caption:  caption,
		Labels:   []report.Column{{Name: "statistic"}, {Name: "labeling"}, {Name: "Pr[y=1] values", CSV: "n_pi", NoLaTeX: true}},
		Compared: true,
	}
	for _, m := range Measures {
		t.Values = append(t.Values, report.Column{Name: m.Label, CSV: m.Key, LaTeX: report.LaTeXEscape(m.Label)})
	}
	rows := Table1Rows(a)
	for _, r := range rows {
		npi := "-"
		if r.NPi != nil {
			lo, hi := r.NPi[0], r.NPi[0]
			for _, n := range r.NPi {
				lo, hi = min(lo, n), max(hi, n)
			}
			npi = strconv.Itoa(lo)
			if hi != lo {
				npi = fmt.Sprintf("%d-%d", lo, hi)
			}
		}
		lab := LabelingName(r.Labeling)
		row := report.Row{Labels: []report.Label{{Text: statName(r.Stat), CSV: r.Stat}, {Text: lab, CSV: r.Labeling}, {Text: npi}}, Values: r.Values}
		if pv, ok := paperRow(paper, r.Stat, r.Labeling); ok {
			row.Paper = pv
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = Table1Notes(a, rows, paper)
	return t
}

// paperRow returns the published values of a row, in Measures' order.
func paperRow(paper PaperTable, stat, labeling string) ([]float64, bool) {
	if _, ok := paper[stat][labeling]; !ok {
		return nil, false
	}
	var out []float64
	for _, m := range Measures {
		v, ok := paper.Value(stat, labeling, m.Key)
		if !ok {
			v = math.NaN()
		}
		out = append(out, v)
	}
	return out, true
}

// best returns the labels of the best values of a row (the highest rank
// correlation, the lowest MAD), every measure equal to the best at the
// table's three decimals, joined by "="; "" for other rows or without
// values.
func best(stat string, values []float64) string {
	if stat != StatRank && stat != StatMAD {
		return ""
	}
	bi := -1
	for i, v := range values {
		if math.IsNaN(v) {
			continue
		}
		if bi < 0 || (stat == StatRank && v > values[bi]) || (stat == StatMAD && v < values[bi]) {
			bi = i
		}
	}
	if bi < 0 {
		return ""
	}
	var names []string
	for i, v := range values {
		if !math.IsNaN(v) && math.Round(1000*v) == math.Round(1000*values[bi]) {
			names = append(names, Measures[i].Label)
		}
	}
	return strings.Join(names, "=")
}

// Table1Notes explain Table 1: the best measure of each row here and in
// the paper (its bold), and how the values were averaged.
func Table1Notes(a Analysis, rows []Table1Row, paper PaperTable) []string {
	var parts []string
	for _, r := range rows {
		if r.Stat != StatRank && r.Stat != StatMAD {
			continue
		}
		ours := best(r.Stat, r.Values)
		if ours == "" {
			continue
		}
		s := fmt.Sprintf("%s %s: %s", statName(r.Stat), LabelingName(r.Labeling), ours)
		if pv, ok := paperRow(paper, r.Stat, r.Labeling); ok {
			s += fmt.Sprintf(" (paper: %s)", best(r.Stat, pv))
		}
		parts = append(parts, s)
	}
	var notes []string
	if len(parts) > 0 {
		notes = append(notes, "Best per row (highest rank correlation, lowest MAD; the paper sets its best in bold): "+strings.Join(parts, "; ")+".")
	}
	und, folds := a.UndefinedRho()
	if a.FoldMeanView {
		notes = append(notes, fmt.Sprintf("Averaging: each record contributes, per measure, its fold means (pu, true); per (labeling, Pr[y=1]) and repeat, Spearman's rho and the MAD are computed over the configurations' fold means, then averaged over the %d repeat(s) and the Pr[y=1] grid (%s). The SD rows use the n - 1 denominator over %s fold-mean values per measure. The paper prints PEAR's Scenario-2 MAD as 0.0814 (shown at three decimals).",
			len(a.Repeats), floats(a.Pis), sdCounts(a)))
		if und > 0 {
			notes = append(notes, fmt.Sprintf("Spearman's rho is undefined (fewer than 2 configurations, or constant PU or true values) in %d of %d (labeling, Pr[y=1], measure, repeat) cases; those are left out of the means (the MADs keep them).", und, folds))
		}
		if a.MeansComputed > 0 {
			notes = append(notes, fmt.Sprintf("%d record(s) lack the keys pu and true for a measure: their fold means are computed as the means of their pu@f and true@f.", a.MeansComputed))
		}
		return notes
	}
	notes = append(notes, fmt.Sprintf("Averaging: per (labeling, Pr[y=1]) and repeat, Spearman's rho and the MAD are computed on each held-out fold over the configurations, then averaged over the folds, then over the %d repeat(s); Table 1 averages them over the Pr[y=1] grid (%s). The SD rows use the n - 1 denominator over %s values per measure. The paper prints PEAR's Scenario-2 MAD as 0.0814 (shown at three decimals).",
		len(a.Repeats), floats(a.Pis), sdCounts(a)))
	if und > 0 {
		notes = append(notes, fmt.Sprintf("Spearman's rho is undefined (fewer than 2 configurations, or constant PU or true values) on %d of %d folds; those folds are left out of the means (the MADs keep them).", und, folds))
	}
	if a.MeanOnly > 0 {
		notes = append(notes, fmt.Sprintf("%d record(s) have no per-fold values (pu@f, true@f): their fold means (pu, true) count as one fold.", a.MeanOnly))
	}
	return notes
}

func sdCounts(a Analysis) string {
	lo, hi := -1, -1
	for _, m := range Measures {
		n := a.SDCount[m.Key]
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// floats lists numbers as the grid writes them.
func floats(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.FormatFloat(x, 'g', -1, 64))
	}
	return strings.Join(s, ", ")
}
