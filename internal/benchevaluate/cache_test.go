package benchevaluate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCacheRoundTrip(t *testing.T) {
	c := Cache{Dir: t.TempDir()}
	s := Scored{Scores: []float64{0.1, -3, 1e300}, Labeled: []bool{true, false, false}, Truth: []bool{true, true, false}}
	if _, ok, err := c.Get("r1"); ok || err != nil {
		t.Fatalf("empty cache: ok %v, err %v", ok, err)
	}
	if err := c.Put("r1", s); err != nil {
		t.Fatal(err)
	}
	got, ok, err := c.Get("r1")
	if !ok || err != nil || !slices.Equal(got.Scores, s.Scores) || !slices.Equal(got.Labeled, s.Labeled) || !slices.Equal(got.Truth, s.Truth) {
		t.Fatalf("read back %+v, %v, %v", got, ok, err)
	}
	if _, ok, _ := c.Get("r2"); ok {
		t.Error("another recipe served")
	}
	// A damaged file is an error naming it, never served.
	p := c.path("r1")
	b, _ := os.ReadFile(p)
	b[len(b)/2] ^= 1
	os.WriteFile(p, b, 0o644)
	if _, ok, err := c.Get("r1"); ok || err == nil || !strings.Contains(err.Error(), filepath.Base(p)) {
		t.Errorf("damaged file: ok %v, err %v", ok, err)
	}
	os.WriteFile(p, b[:10], 0o644)
	if _, ok, err := c.Get("r1"); ok || err == nil {
		t.Errorf("truncated file: ok %v, err %v", ok, err)
	}
	// A file holding another recipe under this one's name (a hash
	// collision, or a file copied by hand) is refused.
	os.WriteFile(p, encodeScored("r9", s), 0o644)
	if _, ok, err := c.Get("r1"); ok || err == nil || !strings.Contains(err.Error(), "r9") {
		t.Errorf("wrong recipe: ok %v, err %v", ok, err)
	}
}
