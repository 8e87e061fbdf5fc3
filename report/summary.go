package report

import (
	"cmp"
	"fmt"
	"html"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// SummaryName is the name of the generic report, which needs no published
// paper: the report of configs without report:, and of schema-2 results
// directories whose manifest names none.
const SummaryName = "summary"

func init() {
	Register(Paper{Name: SummaryName, Title: "pueval summary", Write: writeSummary})
}

// writeSummary writes, per metric, summary-METRIC.md and .csv and returns
// the section of the index. The page and the Markdown have the long form
// (summaryLong: a row per value), which fits a window whatever the number
// of estimators and truths; the CSV keeps the wide form (a row per data set
// and grid point, a column per value), one line per group for a program.
func writeSummary(dir string, in Input) (string, error) {
	var h strings.Builder
	h.WriteString("<h2>Summary of the records</h2>\n<p>Per metric, data set and grid point: the number of ok runs, " +
		"the mean of every recorded value over the ok runs that have it, and for every value that is not a truth its " +
		"mean absolute error against each truth (over the runs that have both). The CSV files hold the same numbers " +
		"with a row per data set and grid point and a column per value.</p>\n")
	metrics, tables := summaryTables(in.Records)
	if len(metrics) == 0 {
		h.WriteString("<p class=\"note\">No ok record holds a metric.</p>\n")
	}
	var keys []string
	for i, m := range metrics {
		base := "summary-" + fileSafe(m)
		long := summaryLong(tables[i], m)
		if err := writeFile(dir, base+".md", long.Markdown()); err != nil {
			return "", err
		}
		if err := writeFile(dir, base+".csv", tables[i].CSV()); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<h3>%s</h3>\n%s%s", html.EscapeString(long.Caption), long.HTML(), FilesLine(base, "csv", "md"))
		for _, r := range long.Rows {
			keys = append(keys, r.Labels[3].Text)
		}
	}
	h.WriteString(keysLegend(keys))
	return h.String(), nil
}

// fileSafe keeps a metric name from leaving the report directory.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' {
			return '_'
		}
		return r
	}, s)
}

// summaryTables returns the metrics the ok records hold, sorted, and the
// summary table of each.
func summaryTables(recs []results.Record) ([]string, []Table) {
	seen := map[string]bool{}
	for _, r := range recs {
		if r.Status == results.StatusOK {
			for m := range r.Metrics {
				seen[m] = true
			}
		}
	}
	metrics := slices.Sorted(maps.Keys(seen))
	tables := make([]Table, len(metrics))
	for i, m := range metrics {
		tables[i] = summaryTable(recs, m)
	}
	return metrics, tables
}

func isTruth(key string) bool {
	kind, _ := results.SplitKey(key)
	return kind == results.Truth
}

// keyRank orders a summary's columns: truths, then the PU value, then the
// rest (recoveries and the truths at their thresholds) by name.
func keyRank(key string) int {
	switch {
	case isTruth(key):
		return 0
	case key == results.PU:
		return 1
	}
	return 2
}

// summaryTable is the table of one metric: a row per (data set, grid
// point), sorted by data set then grid text.
func summaryTable(recs []results.Record, metric string) Table {
	type pair struct{ key, truth string }
	type group struct {
		ds, grid string
		runs     int
		sum      map[string]float64
		n        map[string]int
		abs      map[pair]float64
		nAbs     map[pair]int
	}
	groups := map[[2]string]*group{}
	keySet := map[string]bool{}
	for _, r := range recs {
		m, ok := r.Metrics[metric]
		if r.Status != results.StatusOK || !ok {
			continue
		}
		gk := [2]string{r.Dataset, GridText(r)}
		g := groups[gk]
		if g == nil {
			g = &group{ds: gk[0], grid: gk[1], sum: map[string]float64{}, n: map[string]int{},
				abs: map[pair]float64{}, nAbs: map[pair]int{}}
			groups[gk] = g
		}
		g.runs++
		for k, v := range m {
			keySet[k] = true
			g.sum[k] += v
			g.n[k]++
			if isTruth(k) {
				continue
			}
			for t, tv := range m {
				if isTruth(t) {
					g.abs[pair{k, t}] += math.Abs(v - tv)
					g.nAbs[pair{k, t}]++
				}
			}
		}
	}
	keys := slices.SortedFunc(maps.Keys(keySet), func(a, b string) int {
		return cmp.Or(cmp.Compare(keyRank(a), keyRank(b)), cmp.Compare(a, b))
	})
	var truths []string
	for _, k := range keys {
		if isTruth(k) {
			truths = append(truths, k)
		}
	}
	t := Table{
		Caption: fmt.Sprintf("%s: mean over the ok runs; \"MAE x vs t\": mean |x - t|", metric),
		Labels:  []Column{{Name: "Data", CSV: "dataset"}, {Name: "grid"}, {Name: "runs", NoLaTeX: true}},
	}
	var pairs []pair
	for _, k := range keys {
		t.Values = append(t.Values, Column{Name: k})
	}
	for _, k := range keys {
		if isTruth(k) {
			continue
		}
		for _, tr := range truths {
			pairs = append(pairs, pair{k, tr})
			t.Values = append(t.Values, Column{Name: "MAE " + k + " vs " + tr})
		}
	}
	mean := func(sum float64, n int) float64 {
		if n == 0 {
			return math.NaN()
		}
		return sum / float64(n)
	}
	ordered := slices.SortedFunc(maps.Values(groups), func(a, b *group) int {
		return cmp.Or(cmp.Compare(a.ds, b.ds), cmp.Compare(a.grid, b.grid))
	})
	for _, g := range ordered {
		row := Row{Labels: []Label{{Text: g.ds}, {Text: g.grid}, {Text: strconv.Itoa(g.runs)}}}
		for _, k := range keys {
			row.Values = append(row.Values, mean(g.sum[k], g.n[k]))
		}
		for _, p := range pairs {
			row.Values = append(row.Values, mean(g.abs[p], g.nAbs[p]))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// summaryLong is the long form of a summary table (summaryTable): a row
// per data set, grid point and recorded value (in the wide table's order of
// values), with the value's mean and its mean absolute error against each
// truth; values a group lacks are left out.
func summaryLong(wide Table, metric string) Table {
	col := map[string]int{}
	var keys, truths []string
	for i, c := range wide.Values {
		col[c.Name] = i
		if !strings.HasPrefix(c.Name, "MAE ") {
			keys = append(keys, c.Name)
			if isTruth(c.Name) {
				truths = append(truths, c.Name)
			}
		}
	}
	t := Table{
		Caption: fmt.Sprintf("%s: mean over the ok runs, and the mean absolute error of each value against each truth", metric),
		Labels:  []Column{{Name: "Data", CSV: "dataset"}, {Name: "grid"}, {Name: "runs", NoLaTeX: true}, {Name: "value"}},
		Values:  []Column{{Name: "mean"}},
	}
	for _, tr := range truths {
		t.Values = append(t.Values, Column{Name: "mean |value - " + tr + "|"})
	}
	for _, r := range wide.Rows {
		for _, k := range keys {
			mean := r.Values[col[k]]
			if math.IsNaN(mean) {
				continue
			}
			row := Row{Labels: append(slices.Clone(r.Labels[:3]), Label{Text: k}), Values: []float64{mean}}
			for _, tr := range truths {
				v := math.NaN()
				if i, ok := col["MAE "+k+" vs "+tr]; ok {
					v = r.Values[i]
				}
				row.Values = append(row.Values, v)
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// keyMeanings says what each kind of record key is (the part before the
// colon; results' key constants), for the legend under the summary.
var keyMeanings = []struct{ kind, meaning string }{
	{results.Truth, "truth:ID is the value the truth named ID gives (the config's truths:)"},
	{results.PU, "pu is the PU value: labeled read as positive, unlabeled as negative, uncorrected"},
	{results.TrueLabels, "true is the evaluated scores judged with the true labels"},
	{results.Direct, "direct:SOURCE is the direct recovery with the alpha and beta of SOURCE"},
	{results.Indirect, "indirect:SOURCE is the indirect recovery (recovered curve, points outside [0, 1] dropped) with the alpha and beta of SOURCE"},
	{results.IndirectClip, "indirect-clip:SOURCE is the indirect recovery with points outside [0, 1] clipped"},
	{results.Recovered, "recovered:SOURCE is a threshold measure's maximum over the thresholds of the recovered curve"},
	{results.TruthAt, "truth-at:SOURCE is the true value at the threshold where pu or recovered:SOURCE is largest"},
	{results.SD, "sd:pu is the standard deviation of pu over random labelings of as many positives"},
}

// keysLegend is the paragraph that says what the summary's record keys
// mean, for the kinds among keys; SOURCE is "real" (the split's true alpha
// and beta) or an estimator's ID. A key on a held-out fold (KEY@F) is its
// kind's.
func keysLegend(keys []string) string {
	kinds := map[string]bool{}
	for _, k := range keys {
		kind, _ := results.SplitKey(strings.Split(k, "@")[0])
		kinds[strings.SplitN(kind, "+", 2)[0]] = true
	}
	var parts []string
	for _, m := range keyMeanings {
		if kinds[m.kind] {
			parts = append(parts, m.meaning)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "<p>Values: " + html.EscapeString(strings.Join(parts, "; ")) +
		". SOURCE is real (the split's true alpha and beta) or the ID of an estimator of the config; KEY@F is KEY on the held-out fold F.</p>\n"
}
