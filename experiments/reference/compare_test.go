package reference

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
)

// testReference is the reference of testRecords' finished run, read back
// from its file.
func testReference(t *testing.T) *Reference {
	t.Helper()
	ref, err := FromRun(testRecords(), testManifest())
	if err != nil {
		t.Fatal(err)
	}
	b, err := ref.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(b), "exp.digests")
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func compare(t *testing.T, recs []results.Record, man results.Manifest) *Result {
	t.Helper()
	res, err := Compare(testReference(t), recs, man)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestCompareIdentical: the same records, with other timings, kernel and
// work, in another order, are identical.
func TestCompareIdentical(t *testing.T) {
	recs := testRecords()
	recs[0], recs[2] = recs[2], recs[0]
	recs[1].Timings, recs[1].Kernel, recs[1].Work = map[string]float64{"total": 7}, "neon", nil
	res := compare(t, recs, testManifest())
	if !res.OK() || res.Identical != 3 || len(res.Causes) > 0 {
		t.Fatalf("result %+v", res)
	}
	if got, want := res.Line(), "identical to the reference run (3 cells)"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
}

// TestCompareTampered: one value of one record changed names that cell and
// its field group, and, nothing else differing, says no manifest explains it.
func TestCompareTampered(t *testing.T) {
	recs := testRecords()
	recs[1].Metrics["aucpr"]["pu"] = 0.7000000000000001
	res := compare(t, recs, testManifest())
	if res.OK() || len(res.Differ) != 1 || res.Identical != 2 {
		t.Fatalf("result %+v", res)
	}
	d := res.Differ[0]
	if d.Cell != "pima/beta=1/repeat=1" || len(d.Fields) != 1 || d.Fields[0] != "metrics.aucpr" {
		t.Errorf("differs: %+v, want pima/beta=1/repeat=1 [metrics.aucpr]", d)
	}
	text := res.Text(20)
	for _, want := range []string{"DIFFERS from the reference run: 1 of 3 cells differ", "differs: pima/beta=1/repeat=1: metrics.aucpr",
		"field groups that differ (cells): metrics.aucpr (1)", "likely cause: none that the manifests show"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// TestCompareSelection: reference cells outside the run's selection, or of
// a data set it could not use, are not held against it; a cell it should
// hold and lacks is missing, and an unfinished run says so.
func TestCompareSelection(t *testing.T) {
	recs := testRecords()
	man := testManifest()
	man.Selection = &results.Selection{Repeats: 1}
	res := compare(t, []results.Record{recs[0], recs[2]}, man)
	if !res.OK() || res.NotSelected != 1 {
		t.Fatalf("--repeats 1: result %+v", res)
	}
	if got := res.Line(); !strings.Contains(got, "identical to the reference run on the 2 cells both hold (the reference's other cells: 1 more outside its selection)") {
		t.Errorf("line %q", got)
	}
	man = testManifest()
	man.Unavailable = map[string]string{"wine": "not available"}
	res = compare(t, recs[:2], man)
	if !res.OK() || res.Unavailable["wine"] != 1 || !strings.Contains(res.Line(), "1 of data set wine, which it could not use") {
		t.Fatalf("wine unavailable: result %+v, line %q", res, res.Line())
	}
	man = testManifest()
	man.Finished = nil
	res = compare(t, recs[:2], man)
	if res.OK() || len(res.Missing) != 1 || res.Missing[0] != "wine/beta=1/repeat=0" {
		t.Fatalf("interrupted: result %+v", res)
	}
	if !strings.Contains(res.Line(), "1 missing (likely cause: the run has not finished") {
		t.Errorf("line %q", res.Line())
	}
	man = testManifest()
	man.Selection = &results.Selection{Shard: 2, Shards: 2}
	res = compare(t, recs[1:2], man)
	if !res.OK() || res.NotSelected != 2 {
		t.Errorf("a finished shard: result %+v", res)
	}
	man.Finished = nil
	if res = compare(t, recs[1:2], man); res.OK() || len(res.Missing) != 2 {
		t.Errorf("an unfinished shard: result %+v", res)
	}
}

// TestCompareReferenceUnavailable: a run's cells of a data set the
// reference run could not use are not compared, and not held against it.
func TestCompareReferenceUnavailable(t *testing.T) {
	recs := testRecords()
	man := testManifest()
	man.Unavailable = map[string]string{"wine": "not in the mirror"}
	ref, err := FromRun(recs[:2], man)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Header.Unavailable["wine"] != "not in the mirror" {
		t.Errorf("header's unavailable data sets %v", ref.Header.Unavailable)
	}
	res, err := Compare(ref, recs, testManifest())
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || res.RefUnavailable["wine"] != 1 || !strings.Contains(res.Line(), "not compared: 1 of data set wine, which the reference run could not use") {
		t.Errorf("result %+v, line %q", res, res.Line())
	}
}

// TestCompareCauses: the likely causes name the settings, the data sets and
// the code versions that differ from the reference's.
func TestCompareCauses(t *testing.T) {
	recs := testRecords()
	recs[2].Alpha = 0.25
	extra := recs[0]
	extra.Cell = "pima/beta=0.5/repeat=0"
	recs = append(recs, extra)
	man := testManifest()
	man.ConfigKey = "key2"
	man.Settings = map[string]string{"grid.beta": "1, 0.5", "classifier": "nnet-bag bags=10"}
	man.Data = map[string]string{"pima": "fp-pima", "wine": "fp-wine-2"}
	man.CodeVersion = "v2"
	res := compare(t, recs, man)
	if len(res.Extra) != 1 || res.Extra[0] != "pima/beta=0.5/repeat=0" {
		t.Errorf("extra %v", res.Extra)
	}
	causes := strings.Join(res.Causes, "\n")
	for _, want := range []string{"another config: settings that differ: grid.beta (here 1, 0.5, the reference 1)",
		"other data: wine (fingerprint fp-wine-2 here, fp-wine in the reference)", "another code version: v2 here, v1 in the reference"} {
		if !strings.Contains(causes, want) {
			t.Errorf("causes lack %q:\n%s", want, causes)
		}
	}
	if strings.Contains(causes, "classifier") || strings.Contains(causes, "pima (") {
		t.Errorf("causes name a setting or data set that is the same:\n%s", causes)
	}
}

// TestCompareOtherExperiment: a reference of another experiment is refused.
func TestCompareOtherExperiment(t *testing.T) {
	man := testManifest()
	man.Experiment = "other"
	if _, err := Compare(testReference(t), testRecords(), man); err == nil || !strings.Contains(err.Error(), "experiment other") {
		t.Errorf("error %v", err)
	}
}
