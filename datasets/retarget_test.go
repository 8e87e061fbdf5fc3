package datasets

import (
	"archive/tar"
	"compress/gzip"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRetarget: one-vs-rest labels over toydocs' classes (comp.graphics,
// comp.windows, sci.med), sharing the features.
func TestRetarget(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	ds, err := st.Load(bg, "toydocs")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Classes, []string{"comp.graphics", "comp.windows", "sci.med"}) || !slices.Equal(ds.ClassIndex, []int32{0, 2, 1}) {
		t.Fatalf("classes %q, index %v", ds.Classes, ds.ClassIndex)
	}
	med, err := ds.Retarget([]string{"sci.med"})
	if err != nil {
		t.Fatal(err)
	}
	if med.X != ds.X || !slices.Equal(med.Y, []bool{false, true, false}) || med.NPos != 1 || med.N != 3 {
		t.Errorf("sci.med: shares X %v, y %v, n_pos %d", med.X == ds.X, med.Y, med.NPos)
	}
	if !slices.Equal(ds.Y, []bool{true, false, true}) || ds.NPos != 2 {
		t.Errorf("the original changed: %v", ds.Y)
	}
	win, err := ds.Retarget([]string{"comp.w*"})
	if err != nil {
		t.Fatal(err)
	}
	// Fingerprints: the content's. Other labels, another fingerprint; the
	// catalog's labels (comp.* written out), the catalog's fingerprint.
	same, err := ds.Retarget([]string{"comp.windows", "comp.graphics"})
	if err != nil {
		t.Fatal(err)
	}
	fps := []string{ds.Fingerprint, med.Fingerprint, win.Fingerprint}
	if slices.Contains(fps[1:], ds.Fingerprint) || med.Fingerprint == win.Fingerprint || same.Fingerprint != ds.Fingerprint {
		t.Errorf("fingerprints %q, catalog's labels %s", fps, same.Fingerprint)
	}
	if want := retargetFingerprint(ds.Fingerprint, []bool{false, true, false}); med.Fingerprint != want || len(want) != 64 {
		t.Errorf("sci.med fingerprint %s, want %s", med.Fingerprint, want)
	}

	for _, c := range []struct {
		positive []string
		want     string
	}{
		{[]string{"sci.space"}, `toydocs: positive ["sci.space"] matches none of its 3 classes (comp.graphics, comp.windows, sci.med)`},
		{[]string{"*"}, `toydocs: positive ["*"] matches every one of its 3 classes (comp.graphics, comp.windows, sci.med), which leaves no negatives`},
		{[]string{"comp.*", "sci.med"}, "matches every one of its 3 classes"},
		{[]string{"[a"}, `toydocs: bad pattern "[a" in positive`},
		{nil, "toydocs: no positive class given"},
	} {
		if _, err := ds.Retarget(c.positive); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.positive, err, c.want)
		}
	}
	// A numeric target has no classes.
	toy, err := st.Load(bg, "toy")
	if err != nil {
		t.Fatal(err)
	}
	if toy.Classes != nil || toy.ClassIndex != nil {
		t.Errorf("toy: classes %q", toy.Classes)
	}
	if _, err := toy.Retarget([]string{"1"}); err == nil || !strings.Contains(err.Error(), "toy: its target is a number (a greater_than or less_than rule)") {
		t.Errorf("numeric target: %v", err)
	}
	// Gas keeps Ethanol (1) vs Acetone (5): its classes are those kept.
	gas, err := st.Load(bg, "toygas")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gas.Classes, []string{"1", "5"}) {
		t.Errorf("toygas classes %q", gas.Classes)
	}
}

// TestLoadShared: every caller gets the one *Dataset, concurrent callers
// included, and a retarget of it costs no load.
func TestLoadShared(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	var wg sync.WaitGroup
	got := make([]*Dataset, 8)
	for i := range got {
		wg.Go(func() {
			ds, err := st.LoadShared(bg, "toydocs")
			if err != nil {
				t.Error(err)
			}
			got[i] = ds
		})
	}
	wg.Wait()
	for _, ds := range got {
		if ds != got[0] || ds == nil {
			t.Fatal("LoadShared returned different data sets")
		}
	}
	if again, _ := st.Load(bg, "toydocs"); again == got[0] || !again.FromCache {
		t.Error("Load should still give a fresh copy (from the encoded cache)")
	}
	if _, err := st.LoadShared(bg, "nosuch"); err == nil {
		t.Error("unknown data set: no error")
	}
}

// countTarGroup counts the regular files of a documents .tar.gz whose class
// directory is group, independently of parseDocuments.
func countTarGroup(t *testing.T, file, group string) int {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	n := 0
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		if h.Typeflag == tar.TypeReg && path.Base(path.Dir(h.Name)) == group {
			n++
		}
	}
	return n
}

// TestMirrorRetarget20News: alt.atheism vs the rest of 20 Newsgroups has
// as many positives as the tar has alt.atheism documents (799 in bydate:
// 480 train + 319 test, SOURCES-more.md C1); two retargets share X, and the
// second costs nothing.
func TestMirrorRetarget20News(t *testing.T) {
	m := mirrorDir(t)
	st := mirrorStore(t)
	t0 := time.Now()
	ds, err := st.LoadShared(bg, "20news")
	if err != nil {
		t.Fatal(err)
	}
	first := time.Since(t0)
	if len(ds.Classes) != 20 {
		t.Fatalf("%d classes: %q", len(ds.Classes), ds.Classes)
	}
	ath, err := ds.Retarget([]string{"alt.atheism"})
	if err != nil {
		t.Fatal(err)
	}
	want := countTarGroup(t, filepath.Join(m, "other/20news-bydate/20news-bydate.repacked.tar.gz"), "alt.atheism")
	if ath.NPos != want || want != 799 || ath.N != 18846 {
		t.Errorf("alt.atheism: n_pos %d of %d, the tar has %d documents (want 799)", ath.NPos, ath.N, want)
	}
	t1 := time.Now()
	again, err := st.LoadShared(bg, "20news")
	if err != nil {
		t.Fatal(err)
	}
	med, err := again.Retarget([]string{"sci.med"})
	second := time.Since(t1)
	if err != nil {
		t.Fatal(err)
	}
	if med.X != ath.X || med.X != ds.X || med.NPos != 990 {
		t.Errorf("sci.med: shares X %v, n_pos %d (want 990)", med.X == ath.X, med.NPos)
	}
	if ath.Fingerprint == med.Fingerprint || ath.Fingerprint == ds.Fingerprint {
		t.Error("retargets share a fingerprint")
	}
	if second > 50*time.Millisecond {
		t.Errorf("second retarget took %v (first load %v)", second, first)
	}
	t.Logf("first load %v, second load + retarget %v", first, second)
}
