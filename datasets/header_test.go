package datasets

import (
	"context"
	"strings"
	"testing"
)

// headerCatalog is one delimited data set with a header, its columns
// referred to by name (id dropped, y the target).
const headerCatalog = `version: 1
datasets:
  - name: hdr
    papers: [aaai2017]
    rule: paper
    files:
      - path: machine-learning-databases/hdr/hdr.csv
    format: {kind: delimited, delimiter: comma, header: true}
    target: {column: y, positive: ["1"]}
    features: {drop: [id]}
    expect: {n: 2, n_pos: 1, d: 1}
`

// buildHeader builds the data set hdr from the file content.
func buildHeader(t *testing.T, content string) (*Dataset, error) {
	t.Helper()
	mirror := t.TempDir()
	writeMirror(t, mirror, map[string][]byte{"machine-learning-databases/hdr/hdr.csv": []byte(content)})
	cat, err := ParseCatalog([]byte(headerCatalog), "hdr.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return openFixture(t, mirror, cat).build(context.Background(), cat.Datasets[0], false)
}

// A UTF-8 byte-order mark before the header is not part of the first
// column's name: "id" is found and dropped.
func TestHeaderBOM(t *testing.T) {
	for _, in := range []string{"id,x,y\n1,0.5,1\n2,0.25,0\n", "\ufeffid,x,y\r\n1,0.5,1\r\n2,0.25,0\r\n", "\ufeff\"id\",x,y\n1,0.5,1\n2,0.25,0\n"} {
		ds, err := buildHeader(t, in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if ds.N != 2 || ds.D != 1 || ds.Columns[0].Name != "x" || ds.X.At(0, 0) != 0.5 || !ds.Y[0] || ds.Y[1] {
			t.Errorf("%q: n %d, d %d, columns %+v", in, ds.N, ds.D, ds.Columns)
		}
	}
}

// A header that names a column twice (trimmed, case-insensitively) is
// refused with both positions: a reference by name could read either.
// So are duplicate format.names.
func TestHeaderDuplicateNames(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"id,x,y,X\n1,0.5,1,2\n2,0.25,0,3\n", `:1: columns 2 and 4 of the header are both named "X"`},
		{"\ufeffid,x,ID ,y\n1,0.5,1,2\n2,0.25,0,3\n", `:1: columns 1 and 3 of the header are both named "ID"`},
	} {
		_, err := buildHeader(t, c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
	cat := strings.Replace(headerCatalog, "header: true", "names: [id, x, Y]", 1)
	cat = strings.Replace(cat, "column: y", "column: 3", 1)
	if _, err := ParseCatalog([]byte(cat), "c.yaml"); err != nil {
		t.Fatalf("distinct names: %v", err)
	}
	cat = strings.Replace(cat, "names: [id, x, Y]", "names: [id, y, Y]", 1)
	if _, err := ParseCatalog([]byte(cat), "c.yaml"); err == nil || !strings.Contains(err.Error(), `format.names: 2 and 3 are both "Y"`) {
		t.Errorf("duplicate names: %v", err)
	}
}
