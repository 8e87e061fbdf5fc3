package aaai2017

import (
	"math"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
)

// TestPRVariants: the table's means worked by hand. Two Bank cells at beta 1
// (truth 0.5 and 0.7; IR 0.6 and 0.6: errors 0.1 and 0.1; eq3-step 0.3 and
// 0.9: errors 0.2 and 0.2), a failed cell that must be left out, and a data
// set the paper does not have (its row shows, but stays out of the mean
// row, which is over the paper's rows: IR 0.1, eq3-step 0.2, paper 0.029).
// Keys of other sources and of clip are not readings of Table 2's IR.
func TestPRVariants(t *testing.T) {
	rec := func(ds string, truth, ir, eq3 float64, status string) results.Record {
		return results.Record{Dataset: ds, Grid: map[string]string{"beta": "1"}, Beta: 1, Status: status,
			Metrics: map[string]map[string]float64{"aucpr": {
				"truth:traditional":            truth,
				"indirect:real":                ir,
				"indirect+eq3-step:real":       eq3,
				"indirect-clip+eq3-step:real":  0,
				"indirect+eq3-step:alphamax-n": 0,
				"indirect+roc-step:alphamax-n": 0,
				"truth:same-model":             0,
			}}}
	}
	recs := []results.Record{
		rec("bank", 0.5, 0.6, 0.3, results.StatusOK),
		rec("bank", 0.7, 0.6, 0.9, results.StatusOK),
		rec("bank", 0.7, 0.0, 0.0, results.StatusFailed),
		rec("toy", 0.5, 0.5, 0.5, results.StatusOK),
	}
	paper, err := Published(2)
	if err != nil {
		t.Fatal(err)
	}
	tab, ok := PRVariants(recs, paper, nil)
	if !ok {
		t.Fatal("no table")
	}
	if len(tab.Values) != 3 || tab.Values[0].Name != "IR" || tab.Values[1].Name != "IR eq3-step" || tab.Values[2].Name != "paper IR" {
		t.Fatalf("columns %+v", tab.Values)
	}
	want := [][]float64{{0.1, 0.2, 0.029}, {0, 0, math.NaN()}, {0.1, 0.2, 0.029}}
	if len(tab.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), len(want))
	}
	for i, w := range want {
		for j, v := range w {
			got := tab.Rows[i].Values[j]
			if math.IsNaN(v) != math.IsNaN(got) || (!math.IsNaN(v) && math.Abs(got-v) > 1e-12) {
				t.Errorf("row %d (%v), column %s: %v, want %v", i, tab.Rows[i].Labels, tab.Values[j].Name, got, v)
			}
		}
	}
	if _, ok := PRVariants(recs[3:3], paper, nil); ok {
		t.Error("a table from no records")
	}
}

// TestNotComparable: a manifest warning that a data set is incomplete marks
// its rows with a dagger and a note, keeps its published values in the row,
// and leaves it out of the summary rows; the CSV keeps the plain name.
func TestNotComparable(t *testing.T) {
	m := results.Manifest{Warnings: []string{
		"gas: incomplete: 2 of 10 files missing (batch7.dat, batch10.dat)",
		"bank: fingerprint not verified",
	}}
	why := notComparable(m)
	if len(why) != 1 || why["gas"] != "incomplete: 2 of 10 files missing (batch7.dat, batch10.dat)" {
		t.Fatalf("notComparable = %v", why)
	}
	paper, err := Published(1)
	if err != nil {
		t.Fatal(err)
	}
	ours := []Row{{Dataset: "bank", Beta: 1, IR: 0.01}, {Dataset: "gas", Beta: 1, IR: 0.5}}
	for i := range ours {
		for _, f := range []*float64{&ours[i].PU, &ours[i].DR, &ours[i].IE, &ours[i].DE, &ours[i].E} {
			*f = math.NaN()
		}
	}
	ct := CompareTable(1, "t", ours, paper, nil)
	markNotComparable(&ct, why)
	if ct.Rows[1].Labels[0].Text != "gas †" || ct.Rows[1].Labels[0].CSV != "gas" || ct.Rows[1].NotComparable == "" || ct.Rows[1].Paper == nil {
		t.Errorf("gas row %+v", ct.Rows[1])
	}
	if ct.Rows[0].NotComparable != "" || ct.Rows[0].Labels[0].Text != "bank" {
		t.Errorf("bank row %+v", ct.Rows[0])
	}
	if len(ct.Notes) != 1 || !strings.Contains(ct.Notes[0], "gas: not comparable") {
		t.Errorf("notes %q", ct.Notes)
	}
	// The IR summary is Bank's row alone: ours 0.01, the paper's 0.007 (Table 1, Bank, beta 1).
	for i, c := range ct.Values {
		if c.Name == "IR" {
			s := ct.Summary()[i]
			if s.N != 1 || math.Abs(s.Ours-0.01) > 1e-12 || math.Abs(s.Paper-0.007) > 1e-12 {
				t.Errorf("IR summary %+v, want Bank's row only", s)
			}
		}
	}
}
