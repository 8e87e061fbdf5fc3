package reference

import (
	"bytes"
	"hash/fnv"
	"strings"
	"testing"
	"time"

	"github.com/pueval/pueval/experiments/results"
)

// testRecords are three records of a made-up run: two data sets, two
// repeats of one and one of the other.
func testRecords() []results.Record {
	mk := func(ds string, rep int, auc float64) results.Record {
		return results.Record{Schema: results.SchemaVersion, Experiment: "exp", Cell: ds + "/beta=1/repeat=" + string(rune('0'+rep)),
			Dataset: ds, Grid: map[string]string{"beta": "1"}, Repeat: rep, Seed: "42", Sizes: results.Sizes{N: 10, D: 2, NPos: 5, Labeled: 2, Unlabeled: 8},
			Alpha: 0.375, Beta: 1, Estimates: map[string]results.Estimate{"alphamax-n": {Method: "alphamax-n", Alpha: 0.4, Beta: 1}},
			Metrics: map[string]map[string]float64{"auc": {"pu": auc, "truth:same-model": 0.9}, "aucpr": {"pu": 0.7}},
			Status:  results.StatusOK, Timings: map[string]float64{"total": 1.5}, Kernel: "avx512", Work: &results.Work{Models: 3}}
	}
	return []results.Record{mk("pima", 0, 0.61), mk("pima", 1, 0.62), mk("wine", 0, 0.63)}
}

// testManifest is the manifest of the finished run of testRecords.
func testManifest() results.Manifest {
	done := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return results.Manifest{Experiment: "exp", ConfigKey: "key1", ConfigHash: "hash1", CodeVersion: "v1", Kernel: "avx512",
		Machine: results.Machine{OS: "linux", Arch: "amd64"}, Data: map[string]string{"pima": "fp-pima", "wine": "fp-wine"},
		Settings: map[string]string{"grid.beta": "1", "classifier": "nnet-bag bags=10"}, Cells: 3, Finished: &done}
}

// TestDigestIsTheGoldenHash: a record's digest is the FNV-64a hash of its
// JSON line without timings, work and kernel, computed here independently
// (the hash the golden records file holds), and those three leave it
// unchanged.
func TestDigestIsTheGoldenHash(t *testing.T) {
	r := testRecords()[0]
	bare := r
	bare.Timings, bare.Work, bare.Kernel = nil, nil, ""
	b, err := bare.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	h.Write(b)
	c, err := Of(r)
	if err != nil {
		t.Fatal(err)
	}
	if c.Hash != h.Sum64() {
		t.Errorf("digest %016x, the FNV-64a of the record's line %016x", c.Hash, h.Sum64())
	}
	r.Timings, r.Kernel, r.Work = map[string]float64{"total": 99}, "scalar", nil
	if c2, _ := Of(r); c2.Hash != c.Hash || len(c2.Fields) != len(c.Fields) {
		t.Errorf("timings, kernel or work changed the digest: %016x, was %016x", c2.Hash, c.Hash)
	}
	for _, f := range []string{Identity, "seed", "sizes", "alpha", "beta", "status", "estimates.alphamax-n", "metrics.auc", "metrics.aucpr"} {
		if _, ok := c.Fields[f]; !ok {
			t.Errorf("no digest of field group %s (have %v)", f, fieldNames([]Cell{c}))
		}
	}
	for _, f := range []string{"timings", "kernel", "work", "cell", "grid"} {
		if _, ok := c.Fields[f]; ok {
			t.Errorf("field group %s has a digest of its own", f)
		}
	}
}

// TestDigestNamesTheChangedGroup: changing one value of a record changes its
// digest and the digest of that value's field group only.
func TestDigestNamesTheChangedGroup(t *testing.T) {
	r := testRecords()[0]
	before, _ := Of(r)
	r.Metrics = map[string]map[string]float64{"auc": {"pu": 0.61 + 1e-15, "truth:same-model": 0.9}, "aucpr": {"pu": 0.7}}
	after, _ := Of(r)
	if after.Hash == before.Hash {
		t.Fatal("a change in the last bits of a value left the digest as it was")
	}
	if got := differingFields(before, after); len(got) != 1 || got[0] != "metrics.auc" {
		t.Errorf("field groups that differ: %v, want [metrics.auc]", got)
	}
}

// TestWriteReadRoundTrip writes a reference and reads it back, a cell
// identity with blanks included.
func TestWriteReadRoundTrip(t *testing.T) {
	recs := testRecords()
	recs[2].Cell = "wine/label=a b/repeat=0"
	ref, err := FromRun(recs, testManifest())
	if err != nil {
		t.Fatal(err)
	}
	b, err := ref.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), Magic+"\n{") {
		t.Errorf("file starts %q", string(b[:40]))
	}
	got, err := Read(bytes.NewReader(b), "test.digests")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Cells) != 3 || got.Header.ConfigKey != "key1" || got.Header.Data["wine"] != "fp-wine" {
		t.Fatalf("read back %d cells, header %+v", len(got.Cells), got.Header)
	}
	for i, c := range got.Cells {
		want := ref.Cells[i]
		if c.ID != want.ID || c.Hash != want.Hash || len(differingFields(want, c)) > 0 {
			t.Errorf("cell %d: read %+v, wrote %+v", i, c, want)
		}
	}
}

// TestGzipped: a compressed digest file reads as the plain one, and the
// same reference compresses to the same bytes.
func TestGzipped(t *testing.T) {
	ref, err := FromRun(testRecords(), testManifest())
	if err != nil {
		t.Fatal(err)
	}
	z, err := ref.Gzipped()
	if err != nil {
		t.Fatal(err)
	}
	if z2, _ := ref.Gzipped(); !bytes.Equal(z, z2) {
		t.Error("two compressions of one reference differ")
	}
	got, err := Read(bytes.NewReader(z), "test.digests.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Cells) != 3 || got.Cells[2].Hash != ref.Cells[2].Hash {
		t.Errorf("read back %+v", got.Cells)
	}
	if _, err := Read(bytes.NewReader(z[:len(z)/2]), "cut.digests.gz"); err == nil {
		t.Error("a truncated compressed file was read")
	}
}

// TestReadRefuses: every malformed file is refused, naming the line.
func TestReadRefuses(t *testing.T) {
	ref, _ := FromRun(testRecords(), testManifest())
	good, _ := ref.Bytes()
	lines := strings.Split(strings.TrimSuffix(string(good), "\n"), "\n")
	join := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	cases := []struct{ name, text, want string }{
		{"empty", "", "no header"},
		{"magic", "pueval reference digests 2\n{}\n", "test.digests:1: not a pueval digest file"},
		{"header json", join(lines[0], "{"), "test.digests:2: header"},
		{"header field", join(lines[0], `{"experiment":"e","cells":0,"fields":[],"extra":1}`), `unknown field "extra"`},
		{"no experiment", join(lines[0], `{"cells":0,"fields":[]}`), "no experiment"},
		{"truncated", join(lines[:4]...), "2 cell lines, the header says 3"},
		{"bad hash", join(lines[0], lines[1], "xyz"+lines[2][3:], lines[3], lines[4]), "test.digests:3: record digest"},
		{"short field", join(lines[0], lines[1], strings.Replace(lines[2], " ", " 1", 2), lines[3], lines[4]), "test.digests:3: field"},
		{"no cell", join(lines[0], lines[1], lines[2][:strings.LastIndex(lines[2], " ")], lines[3], lines[4]), "test.digests:3:"},
		{"duplicate", join(lines[0], lines[1], lines[2], lines[2], lines[4]), "test.digests:4: cell pima/beta=1/repeat=0 is also on line 3"},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.text), "test.digests")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestFromRunRefusesPartialRuns: a reference holds every cell of a finished
// run of the whole grid.
func TestFromRunRefusesPartialRuns(t *testing.T) {
	recs := testRecords()
	for _, c := range []struct {
		name string
		edit func(*results.Manifest)
		want string
	}{
		{"unfinished", func(m *results.Manifest) { m.Finished = nil }, "not finished"},
		{"selection", func(m *results.Manifest) { m.Selection = &results.Selection{Repeats: 1} }, "part of the grid"},
		{"no key", func(m *results.Manifest) { m.ConfigKey = "" }, "no experiment or config key"},
		{"other experiment", func(m *results.Manifest) { m.Experiment = "other" }, "a record of experiment exp in a run of other"},
	} {
		m := testManifest()
		c.edit(&m)
		if _, err := FromRun(recs, m); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
