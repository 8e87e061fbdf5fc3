package aaai2017

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
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
		t.Fatalf("%v (run go test ./report/aaai2017 -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; got:\n%s", name, got)
	}
}

// fixture reads testdata/records.jsonl: schema-1 records, upgraded on
// reading (truth -> truth:traditional, IE -> indirect:alphamax-n, ...).
func fixture(t *testing.T) []results.Record {
	t.Helper()
	recs, err := results.ReadRecords("testdata/records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// The estimator of the fixture's schema-1 estimate E.
const fixtureEst = "alphamax-n"

// testdata/records.jsonl, landsat beta = 1, two repeats, by hand:
//
//	alpha = (.09 + .10)/2 = .095
//	e  = mean |(beta^ - alpha^) - (beta - alpha)| = (|.88 - .91| + |.91 - .90|)/2 = .02
//	AUC = (.980 + .982)/2 = .981; AUC_pu = (.930 + .934)/2 = .932
//	PU = (.050 + .048)/2 = .049; IR = (.005 + .004)/2 = .0045; DR = (.010 + .004)/2 = .007
//	IE = (.005 + .012)/2 = .0085; DE = (.020 + .008)/2 = .014
func TestAggregateByHand(t *testing.T) {
	rows, warns := Aggregate(fixture(t), "auc", Traditional, fixtureEst, false)
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
	// outside = clip uses indirect-clip:real: (|.976-.98| + |.987-.982|)/2 = .0045 as well, different cells.
	clip, _ := Aggregate(fixture(t), "auc", Traditional, fixtureEst, true)
	if math.Abs(clip[0].IR-0.0045) > 1e-12 {
		t.Errorf("clip IR %v", clip[0].IR)
	}
	// Same-model truth, landsat beta = 1: AUC = (.970 + .972)/2 = .971;
	// IR = (|.975-.97| + |.986-.972|)/2 = .0095.
	same, _ := Aggregate(fixture(t), "auc", SameModel, fixtureEst, false)
	if math.Abs(same[0].Truth-.971) > 1e-12 || math.Abs(same[0].IR-.0095) > 1e-12 {
		t.Errorf("same-model row %+v", same[0])
	}
	// An estimator the records do not hold leaves e, IE and DE empty, the R columns as they are.
	other, _ := Aggregate(fixture(t), "auc", Traditional, "other", false)
	if !math.IsNaN(other[0].E) || !math.IsNaN(other[0].IE) || !math.IsNaN(other[0].DE) || math.Abs(other[0].IR-.0045) > 1e-12 {
		t.Errorf("unknown estimator: %+v", other[0])
	}
}

func TestTablesGolden(t *testing.T) {
	recs := fixture(t)
	for _, tc := range []struct {
		table  int
		metric string
	}{{1, "auc"}, {2, "aucpr"}} {
		ours, warns := Aggregate(recs, tc.metric, Traditional, fixtureEst, false)
		paper, err := Published(tc.table)
		if err != nil {
			t.Fatal(err)
		}
		ct := CompareTable(tc.table, "fixture", ours, paper, warns)
		name := "table" + string(rune('0'+tc.table))
		golden(t, name+".md", ct.Markdown())
		golden(t, name+".tex", ct.LaTeX())
		golden(t, name+".csv", ct.CSV())
	}
}

// A schema-1 results directory (its manifest names no report) whose records
// hold auc gets this report through report.Write: every table, figure and
// section, the data sets not in the run and the failed cells. (One test, as
// drawing the figures takes seconds.)
func TestWriteThroughSchema1Manifest(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("PUEVAL_FIGURE_DIR") // for looking at the figures
	if dir == "" {
		dir = t.TempDir()
	}
	in := report.Input{Records: fixture(t), Manifest: results.Manifest{Schema: 1, Experiment: "fixture",
		Unavailable: map[string]string{"gas": "not in the mirror"}}}
	index, err := report.Write(dir, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"table1.md", "table1.tex", "table1.csv", "table2.md", "table1-same-model.md",
		"table2-same-model.csv", "fig2a.png", "fig2b.pdf", "fig2c.svg", "fig2d.png", "signtest.md",
		"aaai2017-fig3.png", "aaai2017-fig4.svg", "index.html"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{"<h1>AAAI 2017: Recovering true classifier performance in PU learning: fixture</h1>",
		"E columns (e, IE, DE): the estimates of alphamax-n.",
		"Table 1 (AUC), mean absolute errors against the traditional truth", "Table 2 (AUC-PR), mean absolute errors against the same-model truth",
		"0.095 <span class=\"paper\">(0.093, +0.002)</span>", "Two truths.", "fig2a.png", "fig2d.png",
		"Sign test: indirect vs direct AUC recovery", "aaai2017-fig3-auc0.65.png", "aaai2017-fig3-auc0.95.png", "aaai2017-fig4.png", "gas: not in the mirror",
		// testdata/records.jsonl has one failed cell: landsat beta .75 repeat 1, error "boom".
		"landsat, 1 cell(s), e.g. landsat/beta=0.75/repeat=1: boom",
		// Tables as HTML, not Markdown in <pre>: the sign test, and the rows comparing every column with the paper.
		"<td>DR vs IR (real alpha, beta)</td>", "<th colspan=\"6\">ours vs paper: mean over the rows with both</th>",
		"<th colspan=\"6\">mean |ours - paper|</th>"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if strings.Contains(page, "<pre>") {
		t.Error("index.html has preformatted text (the sign test was Markdown in <pre>)")
	}
	if strings.Contains(page, "Summary of the records") {
		t.Error("a schema-1 AAAI directory got the summary too")
	}
	// The same records under a schema-2 manifest that names no report get the summary.
	in.Manifest.Schema = results.SchemaVersion
	index, err = report.Write(t.TempDir(), in)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(index); !strings.Contains(string(b), "Summary of the records") || strings.Contains(string(b), "<h2>AAAI") {
		t.Error("a schema-2 manifest without report: should get the summary")
	}
}

func TestRegistered(t *testing.T) {
	p, ok := report.Lookup(Name)
	if !ok || p.Title == "" || len(p.Schema1Metrics) != 2 {
		t.Fatalf("%+v %v", p, ok)
	}
}
