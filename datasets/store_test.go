package datasets

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io/fs"
	"math"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var bg = context.Background()

// TestFingerprintDefinition rebuilds the fingerprint of a 2 x 2 data set
// byte by byte from the definition in the package doc.
func TestFingerprintDefinition(t *testing.T) {
	x := []float64{1.5, -2, 0, 1e300}
	y := []bool{true, false}
	var b []byte
	b = append(b, "pueval-dataset-v1\x00"...)
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x[2*i+j]))
		}
		if y[i] {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	b = binary.LittleEndian.AppendUint64(b, 2)
	b = binary.LittleEndian.AppendUint64(b, 2)
	h := sha256.Sum256(b)
	if got, want := Fingerprint(x, y, 2), hex.EncodeToString(h[:]); got != want {
		t.Errorf("Fingerprint = %s, want %s", got, want)
	}
	// Many rows cross the 64 KB write blocks: compare with a single write.
	n, d := 5000, 3
	x, y = make([]float64, n*d), make([]bool, n)
	b = append(b[:0], "pueval-dataset-v1\x00"...)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x[i*d+j] = float64(i) + float64(j)/10
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x[i*d+j]))
		}
		y[i] = i%3 == 0
		b = append(b, map[bool]byte{true: 1, false: 0}[y[i]])
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(n))
	b = binary.LittleEndian.AppendUint64(b, uint64(d))
	h = sha256.Sum256(b)
	if got, want := Fingerprint(x, y, d), hex.EncodeToString(h[:]); got != want {
		t.Errorf("Fingerprint of %d rows = %s, want %s", n, got, want)
	}
}

func TestLoadToy(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	ds, err := st.Load(bg, "toy")
	if err != nil {
		t.Fatal(err)
	}
	if ds.FromCache || !ds.Complete || len(ds.Warnings) > 0 {
		t.Errorf("first load: FromCache %v Complete %v Warnings %q", ds.FromCache, ds.Complete, ds.Warnings)
	}
	checkData(t, ds, toyX, toyY, 5)
	wantCols := []Column{
		{Name: "x", Kind: Numeric, Source: "x"},
		{Name: "color=red", Kind: OneHot, Source: "color", Value: "red"},
		{Name: "color=green", Kind: OneHot, Source: "color", Value: "green"},
		{Name: "color=blue", Kind: OneHot, Source: "color", Value: "blue"},
		{Name: "flag", Kind: Binary, Source: "flag", Value: "yes"},
	}
	if !slices.Equal(ds.Columns, wantCols) {
		t.Errorf("columns %+v, want %+v", ds.Columns, wantCols)
	}
	if g := ds.OneHotGroups(); !slices.EqualFunc(g, [][]int{{1, 2, 3}}, slices.Equal) {
		t.Errorf("one-hot groups %v, want [[1 2 3]]", g)
	}
	if ds.Fingerprint != Fingerprint(toyX, toyY, 5) {
		t.Errorf("fingerprint %s, want that of the hand-encoded data", ds.Fingerprint)
	}
	f := ds.Files[0]
	if f.Path != "machine-learning-databases/toy/toy.csv" || f.Rows != 4 || f.SHA256 != sha256Hex([]byte(toyCSV)) ||
		f.Local != filepath.Join(st.opts.CacheDir, "uci", "machine-learning-databases", "toy", "toy.csv") {
		t.Errorf("file info %+v", f)
	}
	// The second load comes from the encoded cache, identical.
	again, err := st.Load(bg, "toy")
	if err != nil {
		t.Fatal(err)
	}
	if !again.FromCache {
		t.Error("second load did not use the encoded cache")
	}
	checkData(t, again, toyX, toyY, 5)
	if !slices.Equal(again.Columns, wantCols) || again.Fingerprint != ds.Fingerprint || !slices.Equal(again.Files, ds.Files) {
		t.Errorf("cached load differs: %+v", again)
	}
}

func checkData(t *testing.T, ds *Dataset, x []float64, y []bool, d int) {
	t.Helper()
	n := len(y)
	npos := 0
	for _, v := range y {
		if v {
			npos++
		}
	}
	if ds.N != n || ds.D != d || ds.NPos != npos {
		t.Fatalf("%s: n/n_pos/d = %d/%d/%d, want %d/%d/%d", ds.Name, ds.N, ds.NPos, ds.D, n, npos, d)
	}
	if r, c := ds.X.Dims(); r != n || c != d {
		t.Fatalf("%s: X is %d x %d", ds.Name, r, c)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if got := ds.X.At(i, j); math.Abs(got-x[i*d+j]) > 1e-15 || math.Signbit(got) {
				t.Errorf("%s: X[%d,%d] = %v, want %v", ds.Name, i, j, got, x[i*d+j])
			}
		}
	}
	if !slices.Equal(ds.Y, y) {
		t.Errorf("%s: Y = %v, want %v", ds.Name, ds.Y, y)
	}
}

// TestLoadFormats loads one toy data set per format; the expected matrices
// are worked by hand in fixture_test.go.
func TestLoadFormats(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	r2, r5 := 1/math.Sqrt2, 1/math.Sqrt(5)
	seq := make([]float64, 32)
	for _, k := range []int{0, 5, 10, 15, 16 + 0, 16 + 10, 16 + 12} { // ACGT; A?GA
		seq[k] = 1
	}
	for _, c := range []struct {
		name string
		x    []float64
		y    []bool
		d    int
	}{
		{"toyz", []float64{1, 2, 3, 4, 5, 6}, []bool{false, true, true}, 2},
		{"toyzip", []float64{1, 2, 3}, []bool{false, true, true}, 1},
		{"toyxls", []float64{540, 28, 123.45, 2.5}, []bool{true, false}, 2},
		{"toydocs", []float64{0, r5, 2 * r5, 1, 0, 0, 0, r2, r2}, []bool{true, false, true}, 3},
		{"toyseq", seq, []bool{true, false}, 16},
	} {
		ds, err := st.Load(bg, c.name)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		checkData(t, ds, c.x, c.y, c.d)
		if len(ds.Warnings) > 0 || !ds.Complete {
			t.Errorf("%s: warnings %q complete %v", c.name, ds.Warnings, ds.Complete)
		}
	}
	ds, err := st.Load(bg, "toydocs")
	if err != nil {
		t.Fatal(err)
	}
	if names := []string{ds.Columns[0].Name, ds.Columns[1].Name, ds.Columns[2].Name}; !slices.Equal(names, []string{"doctor", "graphics", "pixels"}) {
		t.Errorf("documents vocabulary %q", names)
	}
	ds, err = st.Load(bg, "toyzip")
	if err != nil {
		t.Fatal(err)
	}
	if ds.Files[0].Rows != 2 || ds.Files[1].Rows != 1 {
		t.Errorf("toyzip rows per file %d, %d; want 2 (x1, x2) and 1 (max_rows cuts single.csv)", ds.Files[0].Rows, ds.Files[1].Rows)
	}
}

// TestPartial: gas-like data with an optional file missing load with a
// warning stating the shortfall, verified against the partial fingerprint;
// once the file is provided, the complete data set is built.
func TestPartial(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	ds, err := st.Load(bg, "toygas")
	if err != nil {
		t.Fatal(err)
	}
	checkData(t, ds, []float64{1.5, 2, 3, 4, 0, 6}, []bool{true, false}, 3)
	if ds.Complete || !slices.Equal(ds.Missing, []string{"machine-learning-databases/toy/gas.zip!Dataset/batch2.dat"}) {
		t.Errorf("complete %v missing %q", ds.Complete, ds.Missing)
	}
	if len(ds.Warnings) != 1 || !strings.Contains(ds.Warnings[0], "incomplete: 1 of 2 files missing (machine-learning-databases/toy/gas.zip!Dataset/batch2.dat); n_pos/n/d = 1/2/3 instead of the complete data set's 2/4/3") {
		t.Errorf("warnings %q", ds.Warnings)
	}
	if ds.Fingerprint != cat.Datasets[3].Partial[0].Fingerprint {
		t.Error("partial fingerprint not the catalogued one")
	}
	cached, err := st.Load(bg, "toygas")
	if err != nil || !cached.FromCache || cached.Complete || len(cached.Warnings) != 1 {
		t.Fatalf("cached partial load: %v %+v", err, cached)
	}
	// Provide batch 2 in the cache: the next load sees it.
	writeMirror(t, filepath.Join(st.opts.CacheDir, "uci"), map[string][]byte{
		"machine-learning-databases/toy/Dataset/batch2.dat": []byte("1;1 1:7\n5;1 2:8\n")})
	ds, err = st.Load(bg, "toygas")
	if err != nil {
		t.Fatal(err)
	}
	if ds.FromCache || !ds.Complete || ds.N != 4 || ds.NPos != 2 {
		t.Errorf("after providing batch 2: FromCache %v complete %v n %d n_pos %d", ds.FromCache, ds.Complete, ds.N, ds.NPos)
	}
	if len(ds.Warnings) != 1 || !strings.Contains(ds.Warnings[0], "no fingerprint for this data set") {
		t.Errorf("complete but unverifiable: warnings %q", ds.Warnings)
	}
}

// TestCorruptFile: a changed value gives a fingerprint error naming the data
// set, the file, the expected and the computed fingerprint.
func TestCorruptFile(t *testing.T) {
	mirror, cat := fixture(t)
	writeMirror(t, mirror, map[string][]byte{"machine-learning-databases/toy/toy.csv": []byte(strings.Replace(toyCSV, "1.5", "1.6", 1))})
	st := openFixture(t, mirror, cat)
	_, err := st.Load(bg, "toy")
	var fe *FingerprintError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v, want a *FingerprintError", err)
	}
	want := cat.Datasets[0].Files[0].Fingerprint
	if fe.Dataset != "toy" || fe.File != "machine-learning-databases/toy/toy.csv" || fe.Expected != want || fe.Got == want || len(fe.Got) != 64 {
		t.Errorf("fingerprint error %+v", fe)
	}
	for _, s := range []string{"toy:", "machine-learning-databases/toy/toy.csv", "expected " + want, "got " + fe.Got, "has been removed from the cache, so the next load fetches it again"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
	// Nothing was cached as encoded data.
	if _, err := os.Stat(st.encodedPath("toy")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("encoded cache written for data that failed verification: %v", err)
	}
}

// TestRespelledFileVerifies: line endings and number spelling do not change
// the fingerprint (it is computed on the parsed, encoded data).
func TestRespelledFileVerifies(t *testing.T) {
	mirror, cat := fixture(t)
	lf := strings.NewReplacer("\r\n", "\n", "1.5", "1.50", "2.5e1", "25", "-0", "0", ";no;", "; no ;").Replace(toyCSV)
	writeMirror(t, mirror, map[string][]byte{"machine-learning-databases/toy/toy.csv": []byte(lf)})
	ds, err := openFixture(t, mirror, cat).Load(bg, "toy")
	if err != nil {
		t.Fatal(err)
	}
	checkData(t, ds, toyX, toyY, 5)
}

func TestMissingFile(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	_, err := st.Load(bg, "toyabsent")
	var me *MissingFileError
	if !errors.As(err, &me) || errors.Is(err, ErrUnavailable) {
		t.Fatalf("error %v, want a *MissingFileError that is not ErrUnavailable", err)
	}
	cachePath := filepath.Join(st.opts.CacheDir, "uci", "machine-learning-databases", "toy", "absent.data")
	for _, s := range []string{"toyabsent: file machine-learning-databases/toy/absent.data is missing",
		filepath.Join(mirror, "machine-learning-databases", "toy", "absent.data"),
		"set PUEVAL_UCI_MIRROR", "or put the file at " + cachePath} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
	if _, err := st.Fetch(bg, "toyabsent"); !errors.As(err, &me) {
		t.Errorf("Fetch: %v", err)
	}
	// A mirror directory that does not exist is pointed out.
	st2, _ := Open(cat, Options{CacheDir: t.TempDir(), Mirror: filepath.Join(mirror, "nope")})
	if _, err := st2.Load(bg, "toy"); err == nil || !strings.Contains(err.Error(), "(the mirror directory "+filepath.Join(mirror, "nope")+" does not exist)") {
		t.Errorf("wrong mirror: %v", err)
	}
}

func TestUnavailable(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	_, err := st.Load(bg, "toyunavailable")
	var ue *UnavailableError
	if !errors.Is(err, ErrUnavailable) || !errors.As(err, &ue) || ue.Reason != "not in the fixture mirror; get it from the toy archive" {
		t.Fatalf("error %v, want an *UnavailableError", err)
	}
	var me *MissingFileError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "toyunavailable: not available: not in the fixture mirror") {
		t.Errorf("error %q should wrap the missing file and give the reason", err)
	}
	// Once the file is there, it loads like any other (unverified: no
	// fingerprint in the catalog).
	writeMirror(t, mirror, map[string][]byte{"machine-learning-databases/toy/unavailable.data": []byte("1,5\n0,6\n")})
	ds, err := st.Load(bg, "toyunavailable")
	if err != nil {
		t.Fatal(err)
	}
	if ds.N != 2 || ds.NPos != 1 || len(ds.Warnings) != 1 || !strings.Contains(ds.Warnings[0], "unverified") {
		t.Errorf("n %d n_pos %d warnings %q", ds.N, ds.NPos, ds.Warnings)
	}
}

// TestCachedLoadRechecks: warnings and verification of a cached load follow
// the catalog as it is now, not as it was when the cache was written.
func TestCachedLoadRechecks(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	frozen := cat.Datasets[0].Fingerprint
	cat.Datasets[0].Fingerprint = ""
	ds, err := st.Load(bg, "toy")
	if err != nil || len(ds.Warnings) != 1 || !strings.Contains(ds.Warnings[0], "unverified") {
		t.Fatalf("unfrozen: %v %q", err, ds.Warnings)
	}
	cat.Datasets[0].Fingerprint = frozen
	ds, err = st.Load(bg, "toy")
	if err != nil || !ds.FromCache || len(ds.Warnings) != 0 {
		t.Fatalf("frozen since: err %v FromCache %v warnings %q", err, ds.FromCache, ds.Warnings)
	}
	cat.Datasets[0].Fingerprint = strings.Repeat("0", 64) // a catalog that disagrees: rebuild, then fail
	var fe *FingerprintError
	if _, err := st.Load(bg, "toy"); !errors.As(err, &fe) || fe.File != "" {
		t.Fatalf("catalog changed to a wrong fingerprint: %v", err)
	}
}

func TestUnknownDataset(t *testing.T) {
	mirror, cat := fixture(t)
	_, err := openFixture(t, mirror, cat).Load(bg, "nope")
	if err == nil || !strings.Contains(err.Error(), `unknown data set "nope" (catalogued: toy, toyz,`) {
		t.Errorf("error %v", err)
	}
}

// TestEncodedCacheDamaged: a damaged encoded file is rebuilt from the raw
// files; so is one made by a different spec.
func TestEncodedCacheDamaged(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	if _, err := st.Load(bg, "toy"); err != nil {
		t.Fatal(err)
	}
	p := st.encodedPath("toy")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-6] ^= 0x40 // a feature value of the last row
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := st.Load(bg, "toy")
	if err != nil || ds.FromCache {
		t.Fatalf("damaged cache: err %v, FromCache %v", err, ds != nil && ds.FromCache)
	}
	checkData(t, ds, toyX, toyY, 5)
	if ds, err = st.Load(bg, "toy"); err != nil || !ds.FromCache {
		t.Fatalf("rewritten cache not used: %v", err)
	}
	cat.Datasets[0].Target.GreaterThan = "median" // median(3,10,5,2) = 4: rows 2 and 3
	cat.Datasets[0].Fingerprint = ""
	ds, err = st.Load(bg, "toy")
	if err != nil || ds.FromCache || !slices.Equal(ds.Y, []bool{false, true, true, false}) {
		t.Fatalf("changed spec: err %v, %+v", err, ds)
	}
}

// TestFetchAndManifest: Fetch copies the raw files into the cache and
// records their sha256 in the manifest; nothing half-written remains.
func TestFetchAndManifest(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	files, err := st.Fetch(bg, "toygas")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Used != "machine-learning-databases/toy/Dataset/batch1.dat" || !files[1].Missing {
		t.Fatalf("fetched %+v", files)
	}
	m := st.opts.readManifest()
	e, ok := m["machine-learning-databases/toy/Dataset/batch1.dat"]
	b, _ := os.ReadFile(files[0].Local)
	if !ok || e.SHA256 != sha256Hex(b) || e.Bytes != int64(len(b)) || e.Source != filepath.Join(mirror, "machine-learning-databases", "toy", "Dataset", "batch1.dat") {
		t.Errorf("manifest entry %+v", e)
	}
	for _, name := range cat.Names() {
		st.Load(bg, name)
	}
	noPartialFiles(t, st.opts.CacheDir)
}

// noPartialFiles fails if a temporary download file is left in dir.
func noPartialFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".part") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

func TestEncodeErrors(t *testing.T) {
	for _, c := range []struct {
		name, csv, want string
		edit            func(*Spec)
	}{
		{"missing number", "\"id\";\"x\";\"color\";\"flag\";\"y\"\n1;?;red;no;3\n", `toy.csv:2: column x: missing value "?" in a numeric column`, nil},
		{"not a number", "\"id\";\"x\";\"color\";\"flag\";\"y\"\n1;1,5;red;no;3\n", `toy.csv:2: column x: "1,5" is not a number`, nil},
		{"NaN", "\"id\";\"x\";\"color\";\"flag\";\"y\"\n1;NaN;red;no;3\n", `"NaN" is not a finite number`, nil},
		{"unlisted category", "\"id\";\"x\";\"color\";\"flag\";\"y\"\n1;1;pink;no;3\n", `toy.csv:2: column color: value "pink" is not one of the listed values ["red" "green" "blue"]`, nil},
		{"binary", "\"id\";\"x\";\"color\";\"flag\";\"y\"\n1;1;red;maybe;3\n", `value "maybe" is neither "no" nor "yes"`, nil},
		{"width", "\"id\";\"x\";\"color\";\"flag\";\"y\"\n1;1;red;no\n", "toy.csv:2: 4 fields, want 5", nil},
		{"target", "\"id\";\"x\";\"color\";\"flag\";\"y\"\n1;1;red;no;high\n", `toy.csv:2: target column y: "high" is not a number`, nil},
		{"no column", toyCSV, `features.drop: no column named "nope"`, func(s *Spec) { s.Features.Drop = []string{"nope"} }},
		{"index range", toyCSV, "target: column 9: the data have columns 1..5", func(s *Spec) { s.Target.Column = "9" }},
		{"twice", toyCSV, `features.binary: column "color" is encoded twice`, func(s *Spec) { s.Features.Binary[0].Column = "color" }},
		{"empty", "\"id\";\"x\";\"color\";\"flag\";\"y\"\n", "no data rows", nil},
	} {
		mirror, cat := fixture(t)
		writeMirror(t, mirror, map[string][]byte{"machine-learning-databases/toy/toy.csv": []byte(c.csv)})
		if c.edit != nil {
			c.edit(cat.Datasets[0])
		}
		_, err := openFixture(t, mirror, cat).Load(bg, "toy")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "toy: ") {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestMissingDataNamesMirrorAndCache: every way of not getting a raw file
// (absent from the cache and a directory mirror; an http mirror that cannot
// be reached, as the UCI archive is without a network) names
// PUEVAL_UCI_MIRROR and the data cache directory, so that a reader knows
// both ways of providing it.
func TestMissingDataNamesMirrorAndCache(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	_, err := st.Load(bg, "toyabsent")
	wantHint(t, "directory mirror without the file", err, st.opts.CacheDir)

	// A server that refuses connections: a listener closed at once.
	ln, lerr := net.Listen("tcp", "127.0.0.1:0")
	if lerr != nil {
		t.Fatal(lerr)
	}
	url := "http://" + ln.Addr().String() + "/"
	ln.Close()
	cache := t.TempDir()
	st2, oerr := Open(cat, Options{CacheDir: cache, Mirror: url})
	if oerr != nil {
		t.Fatal(oerr)
	}
	_, err = st2.Load(bg, "toy")
	wantHint(t, "unreachable http mirror", err, cache)
	if !strings.Contains(err.Error(), "toy: fetching "+url+"machine-learning-databases/toy/toy.csv: ") {
		t.Errorf("unreachable http mirror: %v does not name the URL", err)
	}
}

func wantHint(t *testing.T, what string, err error, cacheDir string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", what)
	}
	for _, s := range []string{"set PUEVAL_UCI_MIRROR to a directory or http(s) URL", "(in the data cache " + cacheDir + ", set by PUEVAL_DATA)"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: error %q lacks %q", what, err, s)
		}
	}
}
