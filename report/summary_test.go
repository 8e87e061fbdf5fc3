package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
)

func summaryRecords() []results.Record {
	rec := func(ds, beta, status string, m map[string]map[string]float64) results.Record {
		return results.Record{Schema: results.SchemaVersion, Experiment: "sum", Cell: ds + "/beta=" + beta, Dataset: ds,
			Grid: map[string]string{"beta": beta}, Status: status, Metrics: m}
	}
	return []results.Record{
		rec("a", "1", results.StatusOK, map[string]map[string]float64{
			"auc": {"truth:traditional": .9, "pu": .7, "indirect:real": .85},
			"acc": {"truth:same-model": .95, "pu": .9}}),
		rec("a", "1", results.StatusOK, map[string]map[string]float64{
			"auc": {"truth:traditional": .8, "pu": .6, "indirect:real": .9}}),
		rec("a", "0.5", results.StatusOK, map[string]map[string]float64{
			"auc": {"truth:traditional": .7, "pu": .5}}),
		// Failed records count nowhere, even with metrics.
		rec("b", "1", results.StatusFailed, map[string]map[string]float64{"auc": {"pu": 1}}),
	}
}

// By hand, auc: rows sorted by data set then grid text (beta=0.5 < beta=1);
// columns truth, pu, indirect:real, then the errors of pu and indirect:real
// against the truth.
//
//	a beta=0.5: 1 run; truth .7, pu .5, indirect -; |pu - truth| .2
//	a beta=1:   2 runs; truth (.9+.8)/2 = .85, pu (.7+.6)/2 = .65, indirect (.85+.9)/2 = .875;
//	            |pu - truth| (.2+.2)/2 = .2, |indirect - truth| (.05+.1)/2 = .075
//
// acc: a beta=1, 1 run: truth .95, pu .9, |pu - truth| .05.
func TestSummaryByHand(t *testing.T) {
	metrics, tables := summaryTables(summaryRecords())
	if strings.Join(metrics, ",") != "acc,auc" || len(tables) != 2 {
		t.Fatalf("metrics %v", metrics)
	}
	auc := tables[1]
	var names []string
	for _, c := range auc.Values {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "truth:traditional,pu,indirect:real,MAE pu vs truth:traditional,MAE indirect:real vs truth:traditional" {
		t.Fatalf("columns %s", got)
	}
	nan := math.NaN()
	want := []struct {
		grid, runs string
		vals       []float64
	}{{"beta=0.5", "1", []float64{.7, .5, nan, .2, nan}}, {"beta=1", "2", []float64{.85, .65, .875, .2, .075}}}
	if len(auc.Rows) != len(want) {
		t.Fatalf("%d rows", len(auc.Rows))
	}
	for i, w := range want {
		r := auc.Rows[i]
		if r.Labels[0].Text != "a" || r.Labels[1].Text != w.grid || r.Labels[2].Text != w.runs {
			t.Errorf("row %d labels %+v", i, r.Labels)
		}
		for j, v := range w.vals {
			if got := r.Values[j]; math.IsNaN(v) != math.IsNaN(got) || (!math.IsNaN(v) && math.Abs(got-v) > 1e-12) {
				t.Errorf("row %d %s = %v, want %v", i, names[j], got, v)
			}
		}
	}
	if md := auc.Markdown(); !strings.Contains(md, "| a | beta=1 | 2 | 0.850 | 0.650 | 0.875 | 0.200 | 0.075 |\n") {
		t.Errorf("markdown:\n%s", md)
	}
	acc := tables[0]
	if len(acc.Rows) != 1 || len(acc.Values) != 3 || math.Abs(acc.Rows[0].Values[2]-.05) > 1e-12 {
		t.Errorf("acc %+v", acc)
	}
}

func TestSummaryWrite(t *testing.T) {
	dir := t.TempDir()
	index, err := Write(dir, Input{Records: summaryRecords(), Manifest: results.Manifest{Schema: results.SchemaVersion, Experiment: "sum"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"summary-auc.md", "summary-auc.csv", "summary-acc.md", "summary-acc.csv"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	b, _ := os.ReadFile(index)
	for _, want := range []string{"<h1>pueval summary: sum</h1>", "<td>beta=0.5</td>", "summary-auc.csv",
		"b, 1 cell(s), e.g. b/beta=1"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "summary-acc.csv"))
	if string(csv) != "dataset,grid,runs,truth:same-model,pu,MAE pu vs truth:same-model\na,beta=1,1,0.95,0.9,0.05\n" {
		t.Errorf("summary-acc.csv:\n%s", csv)
	}
}

// TestSummaryLong: the page's and the Markdown's form of the summary has a
// row per data set, grid point and value, with the numbers of the wide
// table (TestSummaryByHand's, by hand) and a column of mean absolute error
// per truth, so its width does not grow with the number of values: for
// auc, 5 rows (indirect:real is missing at beta=0.5) and 2 value columns.
func TestSummaryLong(t *testing.T) {
	_, tables := summaryTables(summaryRecords())
	long := summaryLong(tables[1], "auc")
	var names []string
	for _, c := range long.Values {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "mean,mean |value - truth:traditional|" {
		t.Fatalf("value columns %s", got)
	}
	nan := math.NaN()
	want := []struct {
		grid, key string
		mean, mae float64
	}{{"beta=0.5", "truth:traditional", .7, nan}, {"beta=0.5", "pu", .5, .2},
		{"beta=1", "truth:traditional", .85, nan}, {"beta=1", "pu", .65, .2}, {"beta=1", "indirect:real", .875, .075}}
	if len(long.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(long.Rows), len(want))
	}
	for i, w := range want {
		r := long.Rows[i]
		same := func(a, b float64) bool {
			return math.IsNaN(a) == math.IsNaN(b) && (math.IsNaN(a) || math.Abs(a-b) < 1e-12)
		}
		if r.Labels[0].Text != "a" || r.Labels[1].Text != w.grid || r.Labels[3].Text != w.key || !same(r.Values[0], w.mean) || !same(r.Values[1], w.mae) {
			t.Errorf("row %d: %+v %v, want %s %s %v %v", i, r.Labels, r.Values, w.grid, w.key, w.mean, w.mae)
		}
	}
	if legend := keysLegend([]string{"pu", "indirect:real", "pu@2", "indirect-clip+eq3-step:km1"}); !strings.Contains(legend, "pu is the PU value") ||
		!strings.Contains(legend, "indirect-clip:SOURCE") || strings.Contains(legend, "direct:SOURCE is the direct") {
		t.Errorf("legend %s", legend)
	}
}
