package datasets

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// Regression tests of issue 14, item 4: `pueval datasets list` said a data
// set was in the mirror from the catalog alone, though 2 of its 10 files
// were missing.

func availByName(t *testing.T, st *Store, names ...string) map[string]*Availability {
	t.Helper()
	as, err := st.Availability(bg, names...)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]*Availability{}
	for _, a := range as {
		m[a.Dataset] = a
	}
	return m
}

func TestAvailability(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	m := availByName(t, st)
	for _, c := range []struct {
		name, state, summary string
		missing              []string
	}{
		{"toy", AvailComplete, "yes", nil},
		{"toyzip", AvailComplete, "yes", nil},
		{"toygas", AvailPartial, "partial: 1 of 2 files", []string{"machine-learning-databases/toy/gas.zip!Dataset/batch2.dat"}},
		{"toyabsent", AvailMissing, "missing", []string{"machine-learning-databases/toy/absent.data"}},
		{"toyunavailable", AvailMissing, "missing", []string{"machine-learning-databases/toy/unavailable.data"}},
	} {
		a := m[c.name]
		if a == nil || a.State != c.state || a.Summary() != c.summary || !slices.Equal(a.Missing(), c.missing) {
			t.Errorf("%s: %+v (%q), want %s %q missing %q", c.name, a, a.Summary(), c.state, c.summary, c.missing)
		}
	}
	if f := m["toygas"].Files[0]; f.Where != filepath.Join(mirror, "machine-learning-databases", "toy", "Dataset", "batch1.dat") || f.Cached {
		t.Errorf("toygas batch1 found at %+v, want the extracted member in the mirror", f)
	}
	if len(m) != len(cat.Datasets) {
		t.Errorf("%d data sets, want all %d", len(m), len(cat.Datasets))
	}

	// Nothing was fetched; once files are in the cache they are found there.
	if _, err := st.Load(bg, "toy"); err != nil {
		t.Fatal(err)
	}
	writeMirror(t, filepath.Join(st.opts.CacheDir, "uci"), map[string][]byte{"machine-learning-databases/toy/Dataset/batch2.dat": []byte("1;1 1:7\n")})
	m = availByName(t, st, "toy", "toygas")
	if f := m["toy"].Files[0]; !f.Cached || m["toygas"].State != AvailComplete {
		t.Errorf("after caching: toy %+v, toygas %+v", f, m["toygas"])
	}

	// A zip that lacks the member is no source of it.
	writeMirror(t, mirror, map[string][]byte{"machine-learning-databases/toy/toy.zip": makeZip(t, []string{"single.csv"}, map[string]string{"single.csv": "3,0\n"})})
	if a := availByName(t, openFixture(t, mirror, cat), "toyzip")["toyzip"]; a.State != AvailMissing || a.Summary() != "missing: 1 of 2 files" {
		t.Errorf("zip without the member: %+v %q", a, a.Summary())
	}
	if _, err := st.Availability(bg, "nope"); err == nil || !strings.Contains(err.Error(), `unknown data set "nope"`) {
		t.Errorf("unknown name: %v", err)
	}
}

// TestAvailabilityHTTP asks an http mirror with HEAD requests (GET where
// HEAD is refused), downloads nothing, and reports a mirror that does not
// answer as unknown after asking it once.
func TestAvailabilityHTTP(t *testing.T) {
	mirror, cat := fixture(t)
	var gets, heads atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		} else {
			heads.Add(1)
		}
		switch {
		case strings.HasSuffix(r.URL.Path, "/toy.xls"):
			if r.Method == http.MethodHead {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
		case strings.HasSuffix(r.URL.Path, "/toy.data.Z"):
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		http.FileServer(http.Dir(mirror)).ServeHTTP(w, r)
	}))
	defer srv.Close()
	st, _ := Open(cat, Options{CacheDir: t.TempDir(), Mirror: srv.URL + "/"})
	m := availByName(t, st)
	for name, want := range map[string]string{"toy": "yes", "toygas": "partial: 1 of 2 files", "toyxls": "yes", "toyabsent": "missing",
		"toyz": "unknown: HTTP 503 Service Unavailable"} {
		if got := m[name].Summary(); got != want {
			t.Errorf("%s: %q, want %q (%+v)", name, got, want, m[name])
		}
	}
	if gets.Load() != 1 {
		t.Errorf("%d GET requests, want 1 (toy.xls, whose server refuses HEAD)", gets.Load())
	}
	nothingCached(t, st.opts.CacheDir)

	// A dead mirror: every file is unknown, and once a request has failed
	// no more are sent (at most one per worker is in flight by then).
	srv.Close()
	var tries atomic.Int32
	st, _ = Open(cat, Options{CacheDir: t.TempDir(), Mirror: srv.URL + "/", Client: &http.Client{Transport: countingTransport{&tries}}})
	m = availByName(t, st)
	for _, a := range m {
		if a.State != AvailUnknown {
			t.Errorf("%s: %+v with the mirror down", a.Dataset, a)
		}
	}
	if s := m["toy"].Summary(); s != "unknown: the mirror did not answer" {
		t.Errorf("summary %q", s)
	}
	if n := tries.Load(); n > 8 {
		t.Errorf("%d requests to a dead mirror, want at most 8", n)
	}
}

type countingTransport struct{ n *atomic.Int32 }

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMirrorGasAvailability: in the project's mirror gas has 8 of its 10
// batches (7 and 10 are absent).
func TestMirrorGasAvailability(t *testing.T) {
	m := mirrorDir(t)
	st, err := Open(projectCatalog(t), Options{CacheDir: t.TempDir(), Mirror: m})
	if err != nil {
		t.Fatal(err)
	}
	a := availByName(t, st, "gas", "covertype", "mushroom")
	want := []string{"machine-learning-databases/00270/driftdataset.zip!Dataset/batch7.dat", "machine-learning-databases/00270/driftdataset.zip!Dataset/batch10.dat"}
	if g := a["gas"]; g.State != AvailPartial || g.Summary() != "partial: 8 of 10 files" || !slices.Equal(g.Missing(), want) {
		t.Errorf("gas: %+v %q", g, g.Summary())
	}
	if a["covertype"].State != AvailMissing || a["mushroom"].State != AvailComplete {
		t.Errorf("covertype %+v, mushroom %+v", a["covertype"], a["mushroom"])
	}
}
