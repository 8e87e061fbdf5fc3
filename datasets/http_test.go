package datasets

import (
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTTPMirror serves the fixture mirror (and, when PUEVAL_UCI_MIRROR is
// set, the project's mirror) over HTTP: every data set downloads, verifies
// and lands in the cache whole, with its URL in the manifest.
func TestHTTPMirror(t *testing.T) {
	mirror, cat := fixture(t)
	var requests []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests = append(requests, r.URL.Path)
		http.FileServer(http.Dir(mirror)).ServeHTTP(w, r)
	}))
	defer srv.Close()
	st, err := Open(cat, Options{CacheDir: t.TempDir(), Mirror: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"toy", "toyz", "toyzip", "toygas", "toyxls", "toydocs", "toyseq"} {
		if _, err := st.Load(bg, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A path with a space and parentheses was escaped; gas's zip was tried
	// (404) before its extracted member.
	for _, want := range []string{"/machine-learning-databases/toy/with space (1).txt", "/machine-learning-databases/toy/gas.zip", "/machine-learning-databases/toy/Dataset/batch1.dat"} {
		found := false
		for _, r := range requests {
			found = found || r == want
		}
		if !found {
			t.Errorf("no request for %s in %q", want, requests)
		}
	}
	e := st.opts.readManifest()["machine-learning-databases/toy/toy.csv"]
	if e.Source != srv.URL+"/machine-learning-databases/toy/toy.csv" || e.SHA256 != sha256Hex([]byte(toyCSV)) {
		t.Errorf("manifest entry %+v", e)
	}
	// Cached now: loading again makes no request.
	n := len(requests)
	for _, name := range []string{"toy", "toygas"} {
		if _, err := st.Verify(bg, name); err != nil {
			t.Fatal(err)
		}
	}
	if len(requests) != n+3 { // only the still-missing optional gas batch is asked for again, at its 3 candidate paths
		t.Errorf("re-verifying from the cache made %d requests: %q", len(requests)-n, requests[n:])
	}
	noPartialFiles(t, st.opts.CacheDir)

	if real := os.Getenv(EnvMirror); real != "" {
		rs := httptest.NewServer(http.FileServer(http.Dir(real)))
		defer rs.Close()
		pc := projectCatalog(t)
		st, err := Open(pc, Options{CacheDir: t.TempDir(), Mirror: rs.URL})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"housing", "bank", "pageblock", "anuran"} { // plain, zip, .Z, escaped zip
			ds, err := st.Load(bg, name)
			if err != nil {
				t.Errorf("%s over HTTP: %v", name, err)
				continue
			}
			if sp, _ := pc.Lookup(name); ds.Fingerprint != sp.Fingerprint {
				t.Errorf("%s over HTTP: fingerprint %s", name, ds.Fingerprint)
			}
		}
	}
}

// TestHTTPFailures: a truncated download, a server error and a missing file
// give clear errors and leave nothing in the cache.
func TestHTTPFailures(t *testing.T) {
	_, cat := fixture(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/toy.csv"):
			// Announce the whole file, send a third of it, then drop the
			// connection.
			w.Header().Set("Content-Length", "1000")
			w.Write([]byte(toyCSV[:len(toyCSV)/3]))
			if hj, ok := w.(http.Hijacker); ok {
				c, _, _ := hj.Hijack()
				c.Close()
			}
		case strings.HasSuffix(r.URL.Path, "/toy.data.Z"):
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cache := t.TempDir()
	st, err := Open(cat, Options{CacheDir: cache, Mirror: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Load(bg, "toy")
	if err == nil || !strings.Contains(err.Error(), "toy: fetching "+srv.URL+"/machine-learning-databases/toy/toy.csv") {
		t.Errorf("truncated download: %v", err)
	}
	_, err = st.Load(bg, "toyz")
	if err == nil || !strings.Contains(err.Error(), "HTTP 503 Service Unavailable") {
		t.Errorf("server error: %v", err)
	}
	_, err = st.Load(bg, "toyxls")
	var me *MissingFileError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), srv.URL+"/machine-learning-databases/toy/toy.xls") {
		t.Errorf("404: %v", err)
	}
	// Nothing but empty directories in the cache.
	filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("file left in the cache: %s", p)
		}
		return nil
	})
}
