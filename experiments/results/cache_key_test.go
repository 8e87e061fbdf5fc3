package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two valid cache entries swapped on disk are not hits: each names the key
// it holds, under its checksum.
func TestCacheEntryBoundToKey(t *testing.T) {
	c, _ := OpenCache(t.TempDir())
	k1, _ := Key("one")
	k2, _ := Key("two")
	c.PutScores(k1, Scores{Scores: []float64{0.1, 0.2}, Labels: []bool{true, false}})
	c.PutScores(k2, Scores{Scores: []float64{0.9, 0.8}, Labels: []bool{false, true}})
	c.PutEstimate(k1, Estimate{Method: "m", Alpha: 0.1, Beta: 0.5})
	c.PutEstimate(k2, Estimate{Method: "m", Alpha: 0.9, Beta: 0.5})
	swap := func(a, b string) {
		t.Helper()
		tmp := a + ".swap"
		if os.Rename(a, tmp) != nil || os.Rename(b, a) != nil || os.Rename(tmp, b) != nil {
			t.Fatal("swap failed")
		}
	}
	p1, _ := c.path(k1)
	p2, _ := c.path(k2)
	swap(p1, p2)
	s, ok, err := c.GetScores(k1)
	if ok || !errors.Is(err, ErrOtherKey) || !strings.Contains(err.Error(), p1) || !strings.Contains(err.Error(), "holds the entry of key "+k2[:16]) {
		t.Errorf("swapped scores: ok %v, %v, %v", ok, s, err)
	}
	e1, _ := c.estimatePath(k1)
	e2, _ := c.estimatePath(k2)
	swap(e1, e2)
	e, ok, err := c.GetEstimate(k2)
	if ok || !errors.Is(err, ErrOtherKey) || !strings.Contains(err.Error(), e2) {
		t.Errorf("swapped estimates: ok %v, %v, %v", ok, e, err)
	}
	// Recomputed and put again, the entry is a hit.
	c.PutScores(k1, Scores{Scores: []float64{0.1, 0.2}, Labels: []bool{true, false}})
	if s, ok, err := c.GetScores(k1); !ok || err != nil || s.Scores[0] != 0.1 {
		t.Errorf("after the put: %v %v %v", s, ok, err)
	}
}

// Valid entries of the first layout (not bound to their key) are misses,
// not errors; the put that follows replaces them.
func TestCacheOldEntriesAreMisses(t *testing.T) {
	c, _ := OpenCache(t.TempDir())
	k, _ := Key("old")
	p, _ := c.path(k)
	os.MkdirAll(filepath.Dir(p), 0o755)
	old := Scores{Scores: []float64{0.5}, Labels: []bool{true}}
	os.WriteFile(p, scoresV1(old), 0o644)
	if _, ok, err := c.GetScores(k); ok || err != nil {
		t.Errorf("old scores entry: ok %v, %v", ok, err)
	}
	c.PutScores(k, old)
	if _, ok, err := c.GetScores(k); !ok || err != nil {
		t.Errorf("rewritten entry: ok %v, %v", ok, err)
	}
	js, _ := json.Marshal(Estimate{Method: "m", Alpha: 0.3, Beta: 0.9})
	sum := sha256.Sum256(js)
	e, _ := c.estimatePath(k)
	os.WriteFile(e, []byte(estimateMagicV1+string(js)+"\n"+hex.EncodeToString(sum[:])+"\n"), 0o644)
	if _, ok, err := c.GetEstimate(k); ok || err != nil {
		t.Errorf("old estimate entry: ok %v, %v", ok, err)
	}
	// An old entry that fails its own checksum is corrupt, as it always was.
	os.WriteFile(e, []byte(estimateMagicV1+string(js)+"\n"+"00\n"), 0o644)
	if _, _, err := c.GetEstimate(k); !errors.Is(err, ErrCorrupt) {
		t.Errorf("corrupt old estimate entry: %v", err)
	}
}
