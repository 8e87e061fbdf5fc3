package datasets

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Regression tests of issue 14, item 1: an http(s) mirror that accepts a
// connection and never answers, or stalls mid-body, used to hang a load for
// the 10 minutes of the client's overall timeout.

// silentListener accepts connections and never writes to them; it closes
// them when the test ends.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return "http://" + ln.Addr().String() + "/"
}

// envStore opens the fixture catalog with the mirror taken from
// PUEVAL_UCI_MIRROR, as a user would set it, and the given timeouts.
func envStore(t *testing.T, cat *Catalog, mirror string, connect, header, stall time.Duration) *Store {
	t.Helper()
	t.Setenv(EnvMirror, mirror)
	t.Setenv(EnvData, t.TempDir())
	o, err := DefaultOptions()
	if err != nil {
		t.Fatal(err)
	}
	o.ConnectTimeout, o.HeaderTimeout, o.StallTimeout = connect, header, stall
	st, err := Open(cat, o)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// nothingCached fails if the cache holds any file (a half download, or a
// manifest entry for one).
func nothingCached(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("file left in the cache: %s", p)
		}
		return nil
	})
}

func TestHTTPMirrorNeverAnswers(t *testing.T) {
	_, cat := fixture(t)
	url := silentListener(t)
	st := envStore(t, cat, url, 0, 200*time.Millisecond, 0)
	start := time.Now()
	_, err := st.Load(bg, "toy")
	took := time.Since(start)
	if took > 3*time.Second {
		t.Errorf("took %v with a 200ms header timeout", took)
	}
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != "headers" || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want a *TimeoutError for the headers", err)
	}
	want := "toy: fetching " + url + "machine-learning-databases/toy/toy.csv: timed out: the server accepted the connection but sent no response headers within 200ms (HeaderTimeout)" +
		withoutMirrorHint(st.opts.CacheDir, "machine-learning-databases/toy/toy.csv")
	if err.Error() != want {
		t.Errorf("error\n%q, want\n%q", err, want)
	}
	nothingCached(t, st.opts.CacheDir)
}

// stallServer serves files from the fixture; toy.csv is announced whole,
// half of it sent, and then nothing until the test ends.
func stallServer(t *testing.T, mirror string) *httptest.Server {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/toy.csv") {
			http.FileServer(http.Dir(mirror)).ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(toyCSV)))
		w.Write([]byte(toyCSV[:len(toyCSV)/2]))
		w.(http.Flusher).Flush()
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv
}

func TestHTTPMirrorStallsMidBody(t *testing.T) {
	mirror, cat := fixture(t)
	srv := stallServer(t, mirror)
	st := envStore(t, cat, srv.URL, 0, 0, 200*time.Millisecond)
	start := time.Now()
	_, err := st.Load(bg, "toy")
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %v with a 200ms stall timeout", took)
	}
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != "body" {
		t.Fatalf("error %v, want a *TimeoutError for the body", err)
	}
	want := "toy: fetching " + srv.URL + "/machine-learning-databases/toy/toy.csv: after " + strconv.Itoa(len(toyCSV)/2) +
		" bytes: timed out: the download stalled, no bytes for 200ms (StallTimeout)" +
		withoutMirrorHint(st.opts.CacheDir, "machine-learning-databases/toy/toy.csv")
	if err.Error() != want {
		t.Errorf("error\n%q, want\n%q", err, want)
	}
	nothingCached(t, st.opts.CacheDir)
}

// TestHTTPMirrorSlowButProgressing: a download that takes several stall
// timeouts in all, but never pauses that long, succeeds.
func TestHTTPMirrorSlowButProgressing(t *testing.T) {
	mirror, cat := fixture(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/toy.csv") {
			http.FileServer(http.Dir(mirror)).ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(toyCSV)))
		for i := 0; i < len(toyCSV); i += 5 {
			time.Sleep(40 * time.Millisecond)
			w.Write([]byte(toyCSV[i:min(i+5, len(toyCSV))]))
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	st := envStore(t, cat, srv.URL, 0, 250*time.Millisecond, 250*time.Millisecond)
	start := time.Now()
	ds, err := st.Load(bg, "toy")
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 3*250*time.Millisecond {
		t.Errorf("the download took %v: not slow enough to show that only stalls count", took)
	}
	checkData(t, ds, toyX, toyY, 5)
}

// TestHTTPMirrorCancel: a cancelled context stops a request at once, before
// any timeout, while waiting for headers and while reading the body.
func TestHTTPMirrorCancel(t *testing.T) {
	mirror, cat := fixture(t)
	for _, c := range []struct {
		name, url string
	}{
		{"no answer", silentListener(t)},
		{"stalled body", stallServer(t, mirror).URL},
	} {
		st := envStore(t, cat, c.url, 0, 0, 0) // the defaults: a minute
		ctx, cancel := context.WithCancel(bg)
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, err := st.Load(ctx, "toy")
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%s: took %v after cancelling at 100ms", c.name, took)
		}
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "toy: fetching "+strings.TrimSuffix(c.url, "/")+"/machine-learning-databases/toy/toy.csv") {
			t.Errorf("%s: error %v, want context.Canceled naming the URL", c.name, err)
		}
		nothingCached(t, st.opts.CacheDir)
	}
}

// TestHTTPMirrorConnectTimeout: a connection that cannot be had (here a
// dialer that never completes) fails after ConnectTimeout, also with a
// client of the caller's.
func TestHTTPMirrorConnectTimeout(t *testing.T) {
	_, cat := fixture(t)
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	defer tr.CloseIdleConnections()
	st, err := Open(cat, Options{CacheDir: t.TempDir(), Mirror: "http://192.0.2.1:8080/", Client: &http.Client{Transport: tr},
		ConnectTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = st.Load(bg, "toy")
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %v with a 200ms connect timeout", took)
	}
	want := "toy: fetching http://192.0.2.1:8080/machine-learning-databases/toy/toy.csv: timed out: no connection to 192.0.2.1:8080 within 200ms (ConnectTimeout)" +
		withoutMirrorHint(st.opts.CacheDir, "machine-learning-databases/toy/toy.csv")
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != "connect" || err.Error() != want {
		t.Errorf("error\n%v, want\n%s", err, want)
	}
}

// TestTimeoutDefaults: zero Options get the documented defaults.
func TestTimeoutDefaults(t *testing.T) {
	_, cat := fixture(t)
	st, err := Open(cat, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	o := st.Options()
	if o.ConnectTimeout != 30*time.Second || o.HeaderTimeout != time.Minute || o.StallTimeout != time.Minute {
		t.Errorf("defaults %v %v %v", o.ConnectTimeout, o.HeaderTimeout, o.StallTimeout)
	}
}

// withoutMirrorHint is the end of the error of a mirror that failed: how to
// provide the file without it, naming PUEVAL_UCI_MIRROR and the file's path
// in the data cache.
func withoutMirrorHint(cacheDir, rel string) string {
	return "; to provide the file without it, set PUEVAL_UCI_MIRROR to a directory or http(s) URL laid out like " +
		"https://archive.ics.uci.edu/ml/ that has it, or put the file at " + filepath.Join(cacheDir, "uci", filepath.FromSlash(rel)) +
		" (in the data cache " + cacheDir + ", set by PUEVAL_DATA)"
}
