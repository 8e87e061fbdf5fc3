package goldenbits

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"
)

// The hash of no values is FNV-64a's offset basis; of one value, FNV-64a
// of its 8 little-endian bytes (computed here with hash/fnv directly);
// -0 and +0, and two NaNs with other payloads, hash apart; order matters.
func TestHash(t *testing.T) {
	if got := New().String(); got != "cbf29ce484222325" {
		t.Errorf("empty: %s, want FNV-64a's offset basis cbf29ce484222325", got)
	}
	h := New()
	h.Add(1.5)
	f := fnv.New64a()
	f.Write([]byte{0, 0, 0, 0, 0, 0, 0xf8, 0x3f}) // 1.5 = 0x3ff8000000000000
	if want := fmt.Sprintf("%016x", f.Sum64()); h.String() != want || h.Len() != 1 {
		t.Errorf("1.5: %s (%d values), want %s", h.String(), h.Len(), want)
	}
	pair := func(a, b float64) string { g := New(); g.Add(a, b); return g.String() }
	if pair(0, 1) == pair(math.Copysign(0, -1), 1) || pair(1, 2) == pair(2, 1) ||
		pair(math.NaN(), 0) == pair(math.Float64frombits(0x7ff8000000000002), 0) {
		t.Error("-0/+0, order or NaN payloads hash alike")
	}
}
