package datasets

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Tests on the real data run when PUEVAL_UCI_MIRROR is set (CI sets it) and
// then fail, not skip, when a catalogued file is missing.

func mirrorDir(t testing.TB) string {
	m := os.Getenv(EnvMirror)
	if m == "" {
		t.Skipf("%s is not set", EnvMirror)
	}
	return m
}

func projectCatalog(t testing.TB) *Catalog {
	cat, err := ReadCatalogFile("../configs/datasets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// The mirror tests share one cache, filled on first use, so each data set is
// parsed once per test binary.
var (
	sharedOnce  sync.Once
	sharedCache string
	sharedErr   error
)

func mirrorStore(t testing.TB) *Store {
	m := mirrorDir(t)
	sharedOnce.Do(func() { sharedCache, sharedErr = os.MkdirTemp("", "pueval-datasets-test-") })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	st, err := Open(projectCatalog(t), Options{CacheDir: sharedCache, Mirror: m})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedCache != "" {
		os.RemoveAll(sharedCache)
	}
	os.Exit(code)
}

// TestMirrorAAAITable: the AAAI twelve have DESIGN.md's n_pos / n / d
// (section 3 table; gas from the mirror's eight batches, flagged incomplete).
func TestMirrorAAAITable(t *testing.T) {
	st := mirrorStore(t)
	for _, c := range []struct {
		name       string
		d, npos, n int
		incomplete bool
	}{
		{"bank", 13, 5188, 45000, false},
		{"concrete", 8, 490, 1030, false},
		{"gas", 128, 1316, 3095, true},
		{"housing", 13, 209, 506, false},
		{"landsat", 36, 1508, 6435, false},
		{"mushroom", 126, 3916, 8124, false},
		{"pageblock", 10, 560, 5473, false},
		{"pendigit", 16, 3430, 10992, false},
		{"pima", 8, 268, 768, false},
		{"shuttle", 9, 8903, 58000, false},
		{"spambase", 57, 1813, 4601, false},
		{"wine", 11, 4113, 6497, false},
	} {
		ds, err := st.Load(bg, c.name)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if ds.D != c.d || ds.NPos != c.npos || ds.N != c.n || ds.Complete == c.incomplete {
			t.Errorf("%s: d/n_pos/n = %d/%d/%d complete %v, want %d/%d/%d complete %v", c.name, ds.D, ds.NPos, ds.N, ds.Complete, c.d, c.npos, c.n, !c.incomplete)
		}
		if c.incomplete && (len(ds.Warnings) != 1 || !strings.Contains(ds.Warnings[0], "2 of 10 files missing") || !strings.Contains(ds.Warnings[0], "instead of the complete data set's 2565/5574/128")) {
			t.Errorf("%s: warnings %q", c.name, ds.Warnings)
		}
		if !c.incomplete && len(ds.Warnings) > 0 {
			t.Errorf("%s: warnings %q", c.name, ds.Warnings)
		}
	}
}

// TestMirrorCatalogVerifies re-parses every available catalogued data set
// from the mirror and checks every frozen fingerprint and count (the counts
// are those of SOURCES.md and SOURCES-more.md).
func TestMirrorCatalogVerifies(t *testing.T) {
	st := mirrorStore(t)
	for _, sp := range st.Catalog().Datasets {
		if sp.Unavailable != "" {
			continue
		}
		ds, err := st.Verify(bg, sp.Name)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		want := sp.Expect
		if !ds.Complete {
			want = sp.Partial[0].Expect
		}
		if got := (Counts{ds.N, ds.NPos, ds.D}); got != want {
			t.Errorf("%s: counts %+v, want %+v", sp.Name, got, want)
		}
	}
	noPartialFiles(t, st.opts.CacheDir)
}

// TestMirrorZFiles: the .Z reader reproduces the mirror's decompressed
// twins (made with uncompress) byte for byte.
func TestMirrorZFiles(t *testing.T) {
	m := mirrorDir(t)
	for _, p := range []string{"page-blocks/page-blocks.data", "statlog/shuttle/shuttle.trn"} {
		z, err := os.ReadFile(filepath.Join(m, "machine-learning-databases", p+".Z"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(m, "machine-learning-databases", p))
		if err != nil {
			t.Fatal(err)
		}
		got, err := decompressZ(z)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s.Z: err %v, %d bytes, want the %d of the twin", p, err, len(got), len(want))
		}
	}
}

// TestMirrorConcreteXLS: the .xls reader gives the cells of the mirror's
// CSV conversion (written by xlrd with repr(float), so exact; SOURCES.md).
func TestMirrorConcreteXLS(t *testing.T) {
	m := mirrorDir(t)
	b, err := os.ReadFile(filepath.Join(m, "machine-learning-databases/concrete/compressive/Concrete_Data.xls"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readXLS(b, "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := os.ReadFile(filepath.Join(m, "derived/concrete/Concrete_Data.csv"))
	if err != nil {
		t.Fatal(err)
	}
	csvRows, err := parseDelimited(c, ',')
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1031 || len(csvRows.rows) != 1031 {
		t.Fatalf("%d spreadsheet rows and %d CSV rows, want 1031 (header + 1030)", len(rows), len(csvRows.rows))
	}
	for i := 1; i < len(rows); i++ {
		for j, cell := range csvRows.rows[i] {
			want, _ := strconv.ParseFloat(cell, 64)
			got, err := strconv.ParseFloat(rows[i][j], 64)
			if err != nil || got != want {
				t.Fatalf("row %d col %d: %q, want %v", i, j, rows[i][j], want)
			}
		}
	}
}

// TestMirrorNamesValues: the categorical values in the catalog are those
// listed in the data sets' .names files, in order.
func TestMirrorNamesValues(t *testing.T) {
	m := mirrorDir(t)
	cat := projectCatalog(t)
	b, err := os.ReadFile(filepath.Join(m, "machine-learning-databases/mushroom/agaricus-lepiota.names"))
	if err != nil {
		t.Fatal(err)
	}
	// Section 7: "N. attribute: name=v,name=v,..." continued on indented lines.
	sec := string(b)
	sec = sec[strings.Index(sec, "7. Attribute Information"):strings.Index(sec, "8. Missing Attribute Values")]
	attrRE := regexp.MustCompile(`(?m)^\s+\d+\. ([a-z?-]+):\s+`)
	locs := attrRE.FindAllStringSubmatchIndex(sec, -1)
	mush, _ := cat.Lookup("mushroom")
	if len(locs) != 22 || len(mush.Features.Categorical) != 22 {
		t.Fatalf("%d attributes in the .names file, %d in the catalog; want 22", len(locs), len(mush.Features.Categorical))
	}
	for k, loc := range locs {
		end := len(sec)
		if k+1 < len(locs) {
			end = locs[k+1][0]
		}
		var values []string
		for _, kv := range strings.Split(strings.Join(strings.Fields(sec[loc[1]:end]), ""), ",") {
			_, v, _ := strings.Cut(kv, "=")
			values = append(values, v)
		}
		if got := mush.Features.Categorical[k].Values; !slices.Equal(got, values) {
			t.Errorf("attribute %d (%s): catalog %q, .names %q", k+1, sec[loc[2]:loc[3]], got, values)
		}
	}
	// bank-names.txt: contact (categorical: "unknown","telephone","cellular").
	b, err = os.ReadFile(filepath.Join(m, "machine-learning-databases/00222/bank/bank-names.txt"))
	if err != nil {
		t.Fatal(err)
	}
	bank, _ := cat.Lookup("bank")
	if !strings.Contains(string(b), `contact: contact communication type (categorical: "unknown","telephone","cellular")`) ||
		!slices.Equal(bank.Features.Categorical[0].Values, []string{"unknown", "telephone", "cellular"}) {
		t.Error("bank: contact values differ from bank-names.txt")
	}
}

// TestMirrorCorruptedCopy: a copy of a mirror file with one value changed
// fails with a fingerprint error naming data set, file, expected and got.
func TestMirrorCorruptedCopy(t *testing.T) {
	m := mirrorDir(t)
	b, err := os.ReadFile(filepath.Join(m, "machine-learning-databases/housing/housing.data"))
	if err != nil {
		t.Fatal(err)
	}
	bad := t.TempDir()
	writeMirror(t, bad, map[string][]byte{"machine-learning-databases/housing/housing.data": bytes.Replace(b, []byte("24.00"), []byte("24.01"), 1)})
	cat := projectCatalog(t)
	st, err := Open(cat, Options{CacheDir: t.TempDir(), Mirror: bad})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Load(bg, "housing")
	sp, _ := cat.Lookup("housing")
	for _, want := range []string{"housing: fingerprint mismatch in file machine-learning-databases/housing/housing.data", "expected " + sp.Files[0].Fingerprint, "got "} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}
