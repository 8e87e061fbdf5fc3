package datasets

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The fixture: a small mirror, written by the tests, with one tiny data set
// per format, and a catalog for it. Expected values are worked by hand in
// the comments.

const toyCSV = "\"id\";\"x\";\"color\";\"flag\";\"y\"\r\n" +
	"1;1.5;\"red\";no;3\r\n" +
	"2;-0;\"blue\";yes;10\r\n" +
	"3;2.5e1;\"red\";no;5\r\n" +
	"4;7;\"green\";yes;2\r\n"

// toyX and toyY are toy's encoding: id dropped; x numeric; color one-hot
// over [red, green, blue]; flag no/yes -> 0/1; y > mean(3,10,5,2) = 5.
var (
	toyX = []float64{
		1.5, 1, 0, 0, 0,
		0, 0, 0, 1, 1,
		25, 1, 0, 0, 0,
		7, 0, 1, 0, 1,
	}
	toyY = []bool{false, true, false, false}
)

const fixtureCatalog = `version: 1
datasets:
  - name: toy
    papers: [aaai2017]
    rule: paper
    files:
      - path: machine-learning-databases/toy/toy.csv
    format: {kind: delimited, delimiter: semicolon, header: true}
    target: {column: y, greater_than: mean}
    features:
      drop: [id]
      binary: [{column: flag, values: ["no", "yes"]}]
      categorical: [{column: color, values: [red, green, blue]}]
    expect: {n: 4, n_pos: 1, d: 5}
  - name: toyz
    papers: [aul]
    rule: proposal
    files:
      - path: machine-learning-databases/toy/toy.data.Z
    format: {kind: delimited, delimiter: whitespace}
    target: {column: 3, positive: [b]}
    expect: {n: 3, n_pos: 2, d: 2}
  - name: toyzip
    papers: [aul]
    rule: proposal
    files:
      - path: machine-learning-databases/toy/toy.zip!part/x*
      - path: machine-learning-databases/toy/toy.zip!single.csv
    format: {kind: delimited, delimiter: comma}
    max_rows: 3
    target: {column: 2, less_than: "2"}
    expect: {n: 3, n_pos: 2, d: 1}
  - name: toygas
    papers: [aaai2017]
    rule: paper
    files:
      - path: machine-learning-databases/toy/gas.zip!Dataset/batch1.dat
      - path: machine-learning-databases/toy/gas.zip!Dataset/batch2.dat
        optional: true
    format: {kind: gas, width: 3}
    target: {column: class, positive: ["1"], negative: ["5"]}
    features: {drop: [concentration]}
    expect: {n: 4, n_pos: 2, d: 3}
    partial:
      - missing: [machine-learning-databases/toy/gas.zip!Dataset/batch2.dat]
        expect: {n: 2, n_pos: 1, d: 3}
  - name: toyxls
    papers: [aaai2017]
    rule: paper
    files:
      - path: machine-learning-databases/toy/toy.xls
    format: {kind: xls, header: true}
    target: {column: 3, greater_than: mean}
    expect: {n: 2, n_pos: 1, d: 2}
  - name: toydocs
    papers: [pulp]
    rule: proposal
    files:
      - path: other/toy/docs.tar.gz
    format: {kind: documents, max_features: 3}
    target: {positive: [comp.*]}
    expect: {n: 3, n_pos: 2, d: 3}
  - name: toyseq
    papers: [psb2019]
    rule: proposal
    files:
      - path: machine-learning-databases/toy/with space (1).txt
    format: {kind: delimited, delimiter: comma, names: [seq, label]}
    target: {column: label, positive: ["1"]}
    features:
      sequence: [{column: seq, alphabet: ACGT, length: 4, unknown: zero}]
    expect: {n: 2, n_pos: 1, d: 16}
  - name: toyabsent
    papers: [aaai2017]
    rule: paper
    files:
      - path: machine-learning-databases/toy/absent.data
    format: {kind: delimited, delimiter: comma}
    target: {column: 1, positive: ["1"]}
    expect: {n: 2, n_pos: 1, d: 1}
  - name: toyunavailable
    papers: [psb2019]
    rule: proposal
    unavailable: not in the fixture mirror; get it from the toy archive
    files:
      - path: machine-learning-databases/toy/unavailable.data
    format: {kind: delimited, delimiter: comma}
    target: {column: 1, positive: ["1"]}
    expect: {n: 2, n_pos: 1, d: 1}
`

// fixtureFiles are the mirror's files (archive path -> content).
func fixtureFiles(t testing.TB) map[string][]byte {
	return map[string][]byte{
		"machine-learning-databases/toy/toy.csv": []byte(toyCSV),
		// toyz: class b positive in rows 2 and 3.
		"machine-learning-databases/toy/toy.data.Z": compressZ([]byte("1 2 a\n3 4 b\n5  6 b\n"), 16),
		// toyzip: members in name order x1 (1,5), x2 (2,1), then single.csv
		// (3,0) (4,9); max_rows 3 keeps the first three rows; column 2 < 2
		// holds for (2,1) and (3,0).
		"machine-learning-databases/toy/toy.zip": makeZip(t, []string{"part/x2", "part/x1", "single.csv", "other.txt"},
			map[string]string{"part/x1": "1,5\n", "part/x2": "2,1\n", "single.csv": "3,0\n4,9\n", "other.txt": "ignored"}),
		// toygas: stored extracted, as the project's mirror stores gas; Ethylene
		// (2) is dropped, Ethanol (1) positive vs Acetone (5).
		"machine-learning-databases/toy/Dataset/batch1.dat": []byte("1;10.0 1:1.5 2:2 3:3\n2;20.0 1:9 2:9 3:9\n5;30.0 1:4 3:6\n"),
		// toyxls: strengths 79.98611076 and 12.345, mean 46.16...: row 1 positive.
		"machine-learning-databases/toy/toy.xls": makeXLS(t, "Sheet1", toyCells, false),
		// toydocs: terms by count: pixels 3, graphics 2, then ties at 1 broken
		// alphabetically (doctor); the columns sorted: doctor, graphics, pixels.
		"other/toy/docs.tar.gz": makeTarGz(t, []string{"train/comp.graphics/1", "train/sci.med/2", "test/comp.windows/3"},
			map[string]string{"train/comp.graphics/1": "Pixels pixels graphics", "train/sci.med/2": "Doctor", "test/comp.windows/3": "graphics pixels a"}),
		// toyseq: a path with a space and parentheses; X is an unknown letter.
		"machine-learning-databases/toy/with space (1).txt": []byte("ACGT,1\nAXGA,0\n"),
	}
}

// writeMirror writes files under dir.
func writeMirror(t testing.TB, dir string, files map[string][]byte) {
	for rel, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fixture returns a mirror directory and the fixture catalog with its
// fingerprints frozen (computed once by build without verification, as
// TestFreezeFingerprints does for the real catalog).
func fixture(t testing.TB) (string, *Catalog) {
	t.Helper()
	mirror := t.TempDir()
	writeMirror(t, mirror, fixtureFiles(t))
	cat, err := ParseCatalog([]byte(fixtureCatalog), "fixture.yaml")
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(cat, Options{CacheDir: t.TempDir(), Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range cat.Datasets {
		if sp.Name == "toyabsent" || sp.Unavailable != "" {
			continue
		}
		ds, err := st.build(context.Background(), sp, false)
		if err != nil {
			t.Fatalf("fixture %s: %v", sp.Name, err)
		}
		if ds.Complete {
			sp.Fingerprint = ds.Fingerprint
		} else {
			sp.Partial[0].Fingerprint = ds.Fingerprint
		}
		for i, f := range ds.Files {
			sp.Files[i].Fingerprint = f.Fingerprint
		}
	}
	return mirror, cat
}

func openFixture(t testing.TB, mirror string, cat *Catalog) *Store {
	t.Helper()
	st, err := Open(cat, Options{CacheDir: t.TempDir(), Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	return st
}
