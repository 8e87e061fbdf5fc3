package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
)

// The test papers record what Write gave them.
var (
	testPaperGot   Input
	testSchema1Got bool
)

func init() {
	Register(Paper{Name: "test-paper", Title: "Test paper", Write: func(dir string, in Input) (string, error) {
		testPaperGot = in
		return "<h2>test paper section</h2>\n", os.WriteFile(filepath.Join(dir, "test.txt"), []byte("x"), 0o644)
	}})
	Register(Paper{Name: "test-schema1", Title: "Old paper", Schema1Metrics: []string{"oldmetric"},
		Write: func(string, Input) (string, error) { testSchema1Got = true; return "<h2>old paper section</h2>\n", nil }})
	RegisterFigure(AnalyticFigure{Name: "test-fig", About: "Test figure <1>", Draw: func(dir string) ([]string, []string, error) {
		p := filepath.Join(dir, "test-fig.png")
		return []string{p}, []string{"a note"}, os.WriteFile(p, []byte("png"), 0o644)
	}})
}

func panics(f func()) (did bool) {
	defer func() { did = recover() != nil }()
	f()
	return false
}

func TestRegistry(t *testing.T) {
	if p, ok := Lookup("test-paper"); !ok || p.Title != "Test paper" {
		t.Errorf("Lookup: %+v %v", p, ok)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup of an unregistered name")
	}
	names := Names()
	if !slices.IsSorted(names) || !slices.Contains(names, SummaryName) || !slices.Contains(names, "test-paper") {
		t.Errorf("Names %v", names)
	}
	write := func(string, Input) (string, error) { return "", nil }
	for name, p := range map[string]Paper{
		"duplicate":  {Name: "test-paper", Write: write},
		"empty name": {Write: write},
		"nil Write":  {Name: "test-nil-write"},
	} {
		if !panics(func() { Register(p) }) {
			t.Errorf("Register with %s did not panic", name)
		}
	}
	draw := func(string) ([]string, []string, error) { return nil, nil, nil }
	if !panics(func() { RegisterFigure(AnalyticFigure{Name: "test-fig", Draw: draw}) }) {
		t.Error("duplicate figure did not panic")
	}
	if !panics(func() { RegisterFigure(AnalyticFigure{Draw: draw}) }) {
		t.Error("figure without a name did not panic")
	}
	figs := Figures()
	if !slices.IsSortedFunc(figs, func(a, b AnalyticFigure) int { return strings.Compare(a.Name, b.Name) }) ||
		!slices.ContainsFunc(figs, func(f AnalyticFigure) bool { return f.Name == "test-fig" }) {
		t.Errorf("Figures %v", figs)
	}
}

func TestWritePicksReportFromManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report") // Write creates it
	recs := []results.Record{
		{Experiment: "exp", Cell: "a/1", Dataset: "a", Status: results.StatusOK, Metrics: map[string]map[string]float64{"oldmetric": {"pu": 1}}},
		{Experiment: "exp", Cell: "b/1", Dataset: "b", Status: results.StatusFailed, Error: "boom <x>"},
		{Experiment: "exp", Cell: "b/2", Dataset: "b", Status: results.StatusFailed, Error: "boom <x>"},
	}
	m := results.Manifest{Schema: results.SchemaVersion, Report: "test-paper", Experiment: "the run",
		Unavailable: map[string]string{"z": "gone", "y": "not in the mirror"}}
	index, err := Write(dir, Input{Records: recs, Manifest: m})
	if err != nil {
		t.Fatal(err)
	}
	if index != filepath.Join(dir, "index.html") || len(testPaperGot.Records) != 3 || testPaperGot.Manifest.Experiment != "the run" {
		t.Errorf("index %s, the paper got %+v", index, testPaperGot)
	}
	b, _ := os.ReadFile(index)
	page := string(b)
	for _, want := range []string{"<title>Test paper: the run</title>", "<h1>Test paper: the run</h1>", "<h2>test paper section</h2>",
		// Sorted, whatever the map's order.
		"<h3 id=\"missing\">Data sets not in this run</h3>\n<ul>\n<li>y: not in the mirror</li>\n<li>z: gone</li>\n</ul>\n",
		"<li class=\"problem\">b, 2 cell(s), e.g. b/1: boom &lt;x&gt;</li>"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q:\n%s", want, page)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "test.txt")); err != nil {
		t.Error(err)
	}

	// An unknown report is an error naming the registered ones.
	m.Report = "nope"
	_, err = Write(t.TempDir(), Input{Records: recs, Manifest: m})
	if err == nil || !strings.Contains(err.Error(), `unknown report "nope"`) || !strings.Contains(err.Error(), "summary, test-paper") {
		t.Errorf("unknown report: %v", err)
	}

	// Schema 2 without a report: the summary, even though a schema-1 report knows the metric.
	m.Report = ""
	testSchema1Got = false
	index, err = Write(t.TempDir(), Input{Records: recs, Manifest: m})
	if err != nil || testSchema1Got {
		t.Fatalf("%v, schema-1 paper called %v", err, testSchema1Got)
	}
	if b, _ := os.ReadFile(index); !strings.Contains(string(b), "<h1>pueval summary: the run</h1>") {
		t.Errorf("schema 2 without report:\n%s", b)
	}

	// Schema 1 (and no manifest at all): by the metrics of the ok records.
	for _, schema := range []int{1, 0} {
		m.Schema = schema
		testSchema1Got = false
		index, err = Write(t.TempDir(), Input{Records: recs, Manifest: m})
		if err != nil || !testSchema1Got {
			t.Fatalf("schema %d: %v, schema-1 paper called %v", schema, err, testSchema1Got)
		}
		if b, _ := os.ReadFile(index); !strings.Contains(string(b), "<h1>Old paper: the run</h1>") {
			t.Errorf("schema %d:\n%s", schema, b)
		}
	}
	// A schema-1 directory whose metrics no report claims gets the summary; failed records do not count.
	recs[0].Status = results.StatusFailed
	testSchema1Got = false
	if _, err := Write(t.TempDir(), Input{Records: recs, Manifest: m}); err != nil || testSchema1Got {
		t.Errorf("%v, schema-1 paper called %v", err, testSchema1Got)
	}
}

func TestEstimator(t *testing.T) {
	rec := func(status string, ids ...string) results.Record {
		r := results.Record{Status: status, Estimates: map[string]results.Estimate{}}
		for _, id := range ids {
			r.Estimates[id] = results.Estimate{Method: id}
		}
		return r
	}
	for _, c := range []struct {
		in         Input
		id         string
		noteSaysIt bool
	}{
		{Input{Manifest: results.Manifest{Estimators: []string{"second", "first"}}, Records: []results.Record{rec(results.StatusOK, "x")}}, "second", false},
		{Input{Records: []results.Record{rec(results.StatusOK, "b"), rec(results.StatusOK, "a", "b"), rec(results.StatusFailed, "0")}}, "a", true},
		{Input{Records: []results.Record{rec(results.StatusOK, "b"), rec(results.StatusFailed, "0")}}, "b", false},
		{Input{}, "", false},
	} {
		id, note := c.in.Estimator()
		if id != c.id || (note != "") != c.noteSaysIt || (c.noteSaysIt && !strings.Contains(note, "a, b")) {
			t.Errorf("%+v: %q %q", c.in, id, note)
		}
	}
}

func TestAnalyticFigures(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "figs")
	files, notes, err := WriteAnalyticFigure("test-fig", dir)
	if err != nil || len(files) != 1 || len(notes) != 1 {
		t.Fatal(files, notes, err)
	}
	html, err := AnalyticSection(dir, "test-fig")
	if err != nil || !strings.Contains(html, "<h3>Test figure &lt;1&gt;</h3>") || !strings.Contains(html, `<img src="test-fig.png"`) ||
		!strings.Contains(html, `<p class="note">a note</p>`) {
		t.Errorf("%v\n%s", err, html)
	}
	if _, _, err := WriteAnalyticFigure("nope", dir); err == nil || !strings.Contains(err.Error(), `unknown figure "nope" (known: `) ||
		!strings.Contains(err.Error(), "test-fig") {
		t.Errorf("unknown figure: %v", err)
	}
	if _, err := AnalyticSection(dir, "nope"); err == nil {
		t.Error("AnalyticSection of an unknown figure")
	}
}

func TestFailedSection(t *testing.T) {
	recs := []results.Record{
		{Cell: "a/1", Dataset: "a", Status: results.StatusFailed, Error: "boom"},
		{Cell: "a/2", Dataset: "a", Status: results.StatusOK},
		{Cell: "a/3", Dataset: "a", Status: results.StatusFailed, Error: "boom"},
		{Cell: "b/1", Dataset: "b", Status: results.StatusFailed, Error: "other"},
	}
	got := failedSection(recs)
	want := "<h3 id=\"failed\">Failed cells (left out of the tables and figures)</h3>\n<ul>\n" +
		"<li class=\"problem\">a, 2 cell(s), e.g. a/1: boom</li>\n<li class=\"problem\">b, 1 cell(s), e.g. b/1: other</li>\n</ul>\n"
	if got != want {
		t.Errorf("got %q", got)
	}
	if failedSection(recs[1:2]) != "" || failedSection(nil) != "" {
		t.Error("no failures should give no section")
	}
}
