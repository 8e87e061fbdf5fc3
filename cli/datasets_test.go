package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestDatasetsHelp(t *testing.T) {
	out, _, err := runCLI(t, "datasets", "-h")
	if err != nil || !strings.Contains(out, "Usage: pueval datasets") || !strings.Contains(out, "describe") {
		t.Errorf("datasets -h: %v %q", err, out)
	}
	for _, sub := range []string{"list", "describe", "verify", "fetch"} {
		out, _, err := runCLI(t, "datasets", sub, "-h")
		if err != nil || !strings.Contains(out, "Usage: pueval datasets "+sub) || !strings.Contains(out, "-catalog") {
			t.Errorf("datasets %s -h: %v %q", sub, err, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"datasets"}, "pueval: datasets: no sub-command given"},
		{[]string{"datasets", "nope"}, `pueval: datasets: unknown sub-command "nope"`},
		{[]string{"datasets", "list", "--bogus"}, "pueval: datasets: list: flag provided but not defined: -bogus"},
		{[]string{"datasets", "list", "extra"}, `unexpected argument "extra"`},
		{[]string{"datasets", "describe", "--catalog", "/does/not/exist"}, "pueval: datasets: describe: catalog: open /does/not/exist"},
		{[]string{"datasets", "describe", "--cache", "/tmp/x", "nosuch"}, `unknown data set "nosuch"`},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
}

// listJSON is what the tests read of `list --json`.
type listJSON struct {
	Name         string
	Available    bool
	Expected     struct{ N, NPos, D int } `json:"expected"`
	Availability string                   `json:"availability"`
	InMirror     string                   `json:"in_mirror"`
	FilesFound   int                      `json:"files_found"`
	FilesTotal   int                      `json:"files_total"`
	MissingFiles []string                 `json:"missing_files"`
}

func listRows(t *testing.T, args ...string) map[string]listJSON {
	t.Helper()
	out, _, err := runCLI(t, append([]string{"datasets", "list", "--json"}, args...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rows []listJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	m := map[string]listJSON{}
	for _, r := range rows {
		m[r.Name] = r
	}
	return m
}

// TestDatasetsList lists the built-in catalog against the UCI mirror when
// PUEVAL_UCI_MIRROR is set (else an empty one: the test never goes to the
// internet): availability comes from the files, not the catalog.
func TestDatasetsList(t *testing.T) {
	mirror := os.Getenv("PUEVAL_UCI_MIRROR")
	if mirror == "" {
		mirror = t.TempDir()
	}
	flags := []string{"--mirror", mirror, "--cache", t.TempDir()}
	rows := listRows(t, flags...)
	// DESIGN.md section 3: Mushroom 126 / 3916 / 8124; Covertype not in the mirror.
	if r, ok := rows["mushroom"]; !ok || r.Expected.D != 126 {
		t.Errorf("mushroom: %+v", r)
	}
	if r, ok := rows["covertype"]; !ok || r.Available || r.Availability != "missing" || r.InMirror != "missing" ||
		len(r.MissingFiles) != 1 || r.MissingFiles[0] != "machine-learning-databases/covtype/covtype.data.gz" {
		t.Errorf("covertype should be listed as missing: %+v", r)
	}
	if os.Getenv("PUEVAL_UCI_MIRROR") != "" {
		if r := rows["mushroom"]; !r.Available || r.InMirror != "yes" || r.FilesFound != 1 || r.FilesTotal != 1 {
			t.Errorf("mushroom: %+v", r)
		}
		// Issue 14: gas was listed as in the mirror though batches 7 and 10 are not.
		want := []string{"machine-learning-databases/00270/driftdataset.zip!Dataset/batch7.dat", "machine-learning-databases/00270/driftdataset.zip!Dataset/batch10.dat"}
		if r := rows["gas"]; !r.Available || r.Availability != "partial" || r.InMirror != "partial: 8 of 10 files" ||
			r.FilesFound != 8 || r.FilesTotal != 10 || !slices.Equal(r.MissingFiles, want) {
			t.Errorf("gas: %+v", r)
		}
	} else if r := rows["mushroom"]; r.Available || r.InMirror != "missing" {
		t.Errorf("mushroom with an empty mirror: %+v", r)
	}
	out, _, err := runCLI(t, append([]string{"datasets", "list"}, flags...)...)
	if err != nil || !strings.Contains(out, "bank ") || !strings.Contains(out, "in mirror") {
		t.Errorf("table: %v\n%s", err, out)
	}
}

// A catalog whose data sets are complete, partial (an optional file
// missing) and missing (a required file missing) in the test mirror.
const cliPartialCatalog = `version: 1
datasets:
  - name: full
    papers: [aaai2017]
    rule: paper
    files: [{path: machine-learning-databases/tiny/tiny.data}]
    format: {kind: delimited, delimiter: comma}
    target: {column: 3, greater_than: mean}
    expect: {n: 3, n_pos: 1, d: 2}
  - name: part
    papers: [aaai2017]
    rule: paper
    files:
      - {path: machine-learning-databases/tiny/tiny.data}
      - {path: machine-learning-databases/tiny/more.data, optional: true}
      - {path: machine-learning-databases/tiny/absent1.data, optional: true}
    format: {kind: delimited, delimiter: comma}
    target: {column: 3, greater_than: mean}
    expect: {n: 5, n_pos: 2, d: 2}
  - name: broken
    papers: [aaai2017]
    rule: paper
    files:
      - {path: machine-learning-databases/tiny/tiny.data}
      - {path: machine-learning-databases/tiny/absent2.data}
      - {path: machine-learning-databases/tiny/absent3.data, optional: true}
    format: {kind: delimited, delimiter: comma}
    target: {column: 3, greater_than: mean}
    expect: {n: 5, n_pos: 2, d: 2}
`

func TestDatasetsListPartial(t *testing.T) {
	catalog, mirror, cache := cliFixture(t, "1,2,1\n3,4,2\n5,6,6\n")
	if err := os.WriteFile(catalog, []byte(cliPartialCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mirror, "machine-learning-databases", "tiny", "more.data"), []byte("7,8,9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--catalog", catalog, "--mirror", mirror, "--cache", cache}
	rows := listRows(t, flags...)
	for name, want := range map[string]listJSON{
		"full": {Available: true, Availability: "complete", InMirror: "yes", FilesFound: 1, FilesTotal: 1},
		"part": {Available: true, Availability: "partial", InMirror: "partial: 2 of 3 files", FilesFound: 2, FilesTotal: 3,
			MissingFiles: []string{"machine-learning-databases/tiny/absent1.data"}},
		"broken": {Availability: "missing", InMirror: "missing: 1 of 3 files", FilesFound: 1, FilesTotal: 3,
			MissingFiles: []string{"machine-learning-databases/tiny/absent2.data", "machine-learning-databases/tiny/absent3.data"}},
	} {
		r := rows[name]
		want.Name, want.Expected = name, r.Expected
		if !reflect.DeepEqual(r, want) {
			t.Errorf("%s: %+v, want %+v", name, r, want)
		}
	}
	out, _, err := runCLI(t, append([]string{"datasets", "list"}, flags...)...)
	for _, want := range []string{"part    aaai2017  paper  2      5  2  partial: 2 of 3 files", "broken  aaai2017  paper  2      5  2  missing: 1 of 3 files"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("table lacks %q: %v\n%s", want, err, out)
		}
	}

	// describe lists what is missing: for the partial data set the optional
	// file it loaded without, for the broken one every file not found.
	out, _, err = runCLI(t, append([]string{"datasets", "describe", "--json"}, flags...)...)
	if err == nil {
		t.Error("describe: broken loaded")
	}
	var drows []struct {
		Name, Status string
		Complete     bool
		Missing      []string
	}
	if err := json.Unmarshal([]byte(out), &drows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d := drows[1]; d.Name != "part" || d.Status != "ok" || d.Complete || !slices.Equal(d.Missing, []string{"machine-learning-databases/tiny/absent1.data"}) {
		t.Errorf("describe part: %+v", d)
	}
	if d := drows[2]; d.Name != "broken" || d.Status != "error" || !slices.Equal(d.Missing, []string{"machine-learning-databases/tiny/absent2.data", "machine-learning-databases/tiny/absent3.data"}) {
		t.Errorf("describe broken: %+v", d)
	}
	out, _, _ = runCLI(t, append([]string{"datasets", "describe"}, append(flags, "broken")...)...)
	if !strings.Contains(out, "; missing: machine-learning-databases/tiny/absent2.data, machine-learning-databases/tiny/absent3.data") {
		t.Errorf("describe table:\n%s", out)
	}
}

// A tiny catalog and mirror for the commands, independent of the UCI mirror.
const cliCatalog = `version: 1
datasets:
  - name: tiny
    papers: [aaai2017]
    rule: paper
    files: [{path: machine-learning-databases/tiny/tiny.data}]
    format: {kind: delimited, delimiter: comma}
    target: {column: 3, greater_than: mean}
    expect: {n: 3, n_pos: 1, d: 2}
  - name: gone
    papers: [psb2019]
    rule: proposal
    unavailable: not in the test mirror
    files: [{path: machine-learning-databases/tiny/gone.data}]
    format: {kind: delimited, delimiter: comma}
    target: {column: 1, positive: ["1"]}
    expect: {n: 3, n_pos: 1, d: 1}
`

func cliFixture(t *testing.T, data string) (catalog, mirror, cache string) {
	dir := t.TempDir()
	catalog = filepath.Join(dir, "datasets.yaml")
	mirror = filepath.Join(dir, "mirror")
	cache = filepath.Join(dir, "cache")
	if err := os.WriteFile(catalog, []byte(cliCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(mirror, "machine-learning-databases", "tiny", "tiny.data")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return catalog, mirror, cache
}

func TestDatasetsDescribeFetchVerify(t *testing.T) {
	// Target 1, 2, 6: mean 3, so only the last row is positive.
	catalog, mirror, cache := cliFixture(t, "1,2,1\n3,4,2\n5,6,6\n")
	flags := []string{"--catalog", catalog, "--mirror", mirror, "--cache", cache}
	out, _, err := runCLI(t, append(append([]string{"datasets", "fetch"}, flags...), "tiny")...)
	if err != nil || !strings.Contains(out, filepath.Join(cache, "uci", "machine-learning-databases", "tiny", "tiny.data")) {
		t.Fatalf("fetch: %v\n%s", err, out)
	}
	out, _, err = runCLI(t, append([]string{"datasets", "describe", "--json"}, flags...)...)
	if err != nil {
		t.Fatalf("describe: %v\n%s", err, out)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	tiny, gone := rows[0], rows[1]
	for k, want := range map[string]any{"name": "tiny", "n": 3.0, "n_pos": 1.0, "d": 2.0, "complete": true, "status": "ok"} {
		if tiny[k] != want {
			t.Errorf("tiny.%s = %v, want %v", k, tiny[k], want)
		}
	}
	if fp, _ := tiny["fingerprint"].(string); len(fp) != 64 {
		t.Errorf("fingerprint %q", fp)
	}
	if _, ok := tiny["notes"]; !ok {
		t.Error("no notes field")
	}
	if gone["status"] != "unavailable" || !strings.Contains(gone["error"].(string), "not in the test mirror") || gone["complete"] != false {
		t.Errorf("gone: %v", gone)
	}
	out, _, err = runCLI(t, append(append([]string{"datasets", "verify"}, flags...), "tiny", "gone")...)
	if err != nil || !strings.Contains(out, "tiny  ok") || !strings.Contains(out, "gone  SKIP") {
		t.Errorf("verify: %v\n%s", err, out)
	}
}

func TestDatasetsVerifyFails(t *testing.T) {
	catalog, mirror, cache := cliFixture(t, "1,2,1\n3,4,2\n5,6,x\n")
	_, _, err := runCLI(t, "datasets", "verify", "--catalog", catalog, "--mirror", mirror, "--cache", cache, "tiny")
	if err == nil || !strings.Contains(err.Error(), "pueval: datasets: verify: 1 of 1 data sets did not verify") {
		t.Errorf("verify: %v", err)
	}
	out, _, err := runCLI(t, "datasets", "describe", "--catalog", catalog, "--mirror", mirror, "--cache", cache, "tiny")
	if err == nil || !strings.Contains(out, `tiny.data:3: target column col3: "x" is not a number`) {
		t.Errorf("describe: %v\n%s", err, out)
	}
}

// TestDatasetsDescribeAAAI: with the UCI mirror, describe gives DESIGN.md's
// n_pos / n / d for the AAAI-2017 twelve (gas from eight batches, flagged
// incomplete). Runs when PUEVAL_UCI_MIRROR is set, and then fails if a file
// is missing.
func TestDatasetsDescribeAAAI(t *testing.T) {
	mirror := os.Getenv("PUEVAL_UCI_MIRROR")
	if mirror == "" {
		t.Skip("PUEVAL_UCI_MIRROR is not set")
	}
	want := map[string][4]int{ // d, n_pos, n, complete
		"bank": {13, 5188, 45000, 1}, "concrete": {8, 490, 1030, 1}, "gas": {128, 1316, 3095, 0},
		"housing": {13, 209, 506, 1}, "landsat": {36, 1508, 6435, 1}, "mushroom": {126, 3916, 8124, 1},
		"pageblock": {10, 560, 5473, 1}, "pendigit": {16, 3430, 10992, 1}, "pima": {8, 268, 768, 1},
		"shuttle": {9, 8903, 58000, 1}, "spambase": {57, 1813, 4601, 1}, "wine": {11, 4113, 6497, 1},
	}
	args := []string{"datasets", "describe", "--json", "--mirror", mirror, "--cache", t.TempDir()}
	for _, n := range []string{"bank", "concrete", "gas", "housing", "landsat", "mushroom", "pageblock", "pendigit", "pima", "shuttle", "spambase", "wine"} {
		args = append(args, n)
	}
	out, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rows []struct {
		Name        string
		N, D        int
		NPos        int `json:"n_pos"`
		Complete    bool
		Status      string
		Warnings    []string
		Fingerprint string
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		w := want[r.Name]
		if r.Status != "ok" || r.D != w[0] || r.NPos != w[1] || r.N != w[2] || r.Complete != (w[3] == 1) {
			t.Errorf("%s: %+v, want d/n_pos/n %v", r.Name, r, w)
		}
		if r.Name == "gas" && (len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "2 of 10 files missing")) {
			t.Errorf("gas: warnings %q", r.Warnings)
		}
	}
	if len(rows) != 12 {
		t.Errorf("%d rows, want 12", len(rows))
	}
}
