package report

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; got:\n%s", name, got)
	}
}

func fixture(t *testing.T) []results.Record {
	t.Helper()
	recs, err := results.ReadRecords("testdata/records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// testdata/records.jsonl, landsat beta = 1, two repeats, by hand:
//
//	alpha = (.09 + .10)/2 = .095
//	e  = mean |(beta^ - alpha^) - (beta - alpha)| = (|.88 - .91| + |.91 - .90|)/2 = .02
//	AUC = (.980 + .982)/2 = .981; AUC_pu = (.930 + .934)/2 = .932
//	PU = (.050 + .048)/2 = .049; IR = (.005 + .004)/2 = .0045; DR = (.010 + .004)/2 = .007
//	IE = (.005 + .012)/2 = .0085; DE = (.020 + .008)/2 = .014
func TestAAAIAggregateByHand(t *testing.T) {
	rows, warns := AAAIAggregate(fixture(t), results.MetricAUC, results.Truth, false)
	if len(rows) != 3 || len(warns) != 1 {
		t.Fatalf("%d rows, warnings %v", len(rows), warns)
	}
	r := rows[0]
	if r.Dataset != "landsat" || r.Beta != 1 || r.Runs != 2 || r.D != 36 || r.N1 != 1508 || r.N != 6435 {
		t.Fatalf("row 0 %+v", r)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"alpha", r.Alpha, .095}, {"e", r.E, .02}, {"AUC", r.Truth, .981}, {"AUC_pu", r.PUV, .932},
		{"PU", r.PU, .049}, {"IR", r.IR, .0045}, {"DR", r.DR, .007}, {"IE", r.IE, .0085}, {"DE", r.DE, .014}} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if rows[1].Beta != 0.75 || rows[1].Runs != 1 {
		t.Errorf("landsat beta .75: %+v (the failed repeat must be skipped)", rows[1])
	}
	// outside = clip uses IR_clip: (|.976-.98| + |.987-.982|)/2 = .0045 as well, different cells.
	clip, _ := AAAIAggregate(fixture(t), results.MetricAUC, results.Truth, true)
	if math.Abs(clip[0].IR-0.0045) > 1e-12 {
		t.Errorf("clip IR %v", clip[0].IR)
	}
}

func TestAAAITablesGolden(t *testing.T) {
	recs := fixture(t)
	for _, tc := range []struct {
		table  int
		metric string
	}{{1, results.MetricAUC}, {2, results.MetricAUCPR}} {
		ours, warns := AAAIAggregate(recs, tc.metric, results.Truth, false)
		paper, err := AAAITable(tc.table)
		if err != nil {
			t.Fatal(err)
		}
		ct := ComparedTable{Table: tc.table, Caption: "fixture", Ours: ours, Paper: paper, Warnings: warns}
		name := "table" + string(rune('0'+tc.table))
		golden(t, name+".md", ct.Markdown())
		golden(t, name+".tex", ct.LaTeX())
		golden(t, name+".csv", ct.CSV())
	}
}

func TestAAAIReportWritesEverything(t *testing.T) {
	dir := t.TempDir()
	frag, err := AAAIReport(dir, fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteIndex(dir, "fixture", frag); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"table1.md", "table1.tex", "table1.csv", "table2.md", "table1-same-model.md",
		"table2-same-model.csv", "fig2a.png", "fig2b.pdf", "fig2c.svg", "fig2d.png", "signtest.md", "index.html"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	if d := os.Getenv("PUEVAL_FIGURE_DIR"); d != "" {
		AAAIReport(d, fixture(t))
	}
}

func TestFailedCellsListed(t *testing.T) {
	// testdata/records.jsonl has one failed cell: landsat beta .75 repeat 1, error "boom".
	got := failedSection(fixture(t))
	if !strings.Contains(got, "landsat, 1 cell(s), e.g. landsat/beta=0.75/repeat=1: boom") {
		t.Errorf("failed section: %q", got)
	}
	if failedSection(nil) != "" {
		t.Error("no failures should give no section")
	}
}
