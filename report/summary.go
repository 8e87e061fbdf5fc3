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
// the section of the index.
func writeSummary(dir string, in Input) (string, error) {
	var h strings.Builder
	h.WriteString("<h2>Summary of the records</h2>\n<p>Per metric, data set and grid point: the number of ok runs, " +
		"the mean of every recorded value over the ok runs that have it, and for every value that is not a truth its " +
		"mean absolute error against each truth (over the runs that have both).</p>\n")
	metrics, tables := summaryTables(in.Records)
	if len(metrics) == 0 {
		h.WriteString("<p class=\"note\">No ok record holds a metric.</p>\n")
	}
	for i, m := range metrics {
		base := "summary-" + fileSafe(m)
		if err := writeFile(dir, base+".md", tables[i].Markdown()); err != nil {
			return "", err
		}
		if err := writeFile(dir, base+".csv", tables[i].CSV()); err != nil {
			return "", err
		}
		fmt.Fprintf(&h, "<h3>%s</h3>\n%s%s", html.EscapeString(tables[i].Caption), tables[i].HTML(), FilesLine(base, "csv", "md"))
	}
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
