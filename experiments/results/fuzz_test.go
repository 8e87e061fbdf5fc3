package results

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadRecords: any bytes as a records file give records or an error,
// never a panic; every record read validates and reads back the same after
// a round trip through Marshal.
func FuzzReadRecords(f *testing.F) {
	for _, p := range []string{"../testdata/schema1/scalar/aaai2017-smoke/records.jsonl", "../testdata/schema1/scalar/psb2019-smoke/records.jsonl"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b[:min(len(b), 6000)])
		}
	}
	good, _ := (&Record{Schema: SchemaVersion, Experiment: "e", Cell: "c", Status: StatusOK,
		Metrics: map[string]map[string]float64{"auc": {"pu": 0.5, "direct:real": 0.7}}}).Marshal()
	f.Add(good)
	f.Add(append(append([]byte{}, good...), `{"schema":1,"experiment":"e","cell":"d","status":"ok","metrics":{"auc":{"IE":1}}}`+"\n"...))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Store{last: map[string]Record{}}
		off, err := s.load(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		if off < 0 || off > int64(len(data)) {
			t.Fatalf("offset %d of %d bytes", off, len(data))
		}
		for _, r := range s.Records() {
			if err := r.Validate(); err != nil {
				t.Fatalf("a record read that does not validate: %v", err)
			}
			b, err := r.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseRecord(b)
			if err != nil {
				t.Fatalf("a record read does not read back: %v\n%s", err, b)
			}
			b2, _ := back.Marshal()
			if !bytes.Equal(b, b2) {
				t.Fatalf("round trip changed the record:\n%s\n%s", b, b2)
			}
		}
	})
}

// FuzzScoreCache: any bytes as a score-cache entry or an estimate entry
// give an entry or an error wrapping ErrCorrupt, never a panic or a huge
// allocation; an entry that decodes encodes back to the same bytes.
func FuzzScoreCache(f *testing.F) {
	f.Add(encodeScores(Scores{Scores: []float64{0.25, math.SmallestNonzeroFloat64, 1}, Labels: []bool{true, false, true}}), false)
	f.Add(craftedEntry(), false)
	f.Add([]byte(estimateMagic+`{"method":"alphamax-n","alpha":0.3,"beta":0.9}`+"\n"+"00\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, estimate bool) {
		if !estimate {
			s, err := decodeScores(data)
			if err != nil {
				return
			}
			if len(s.Scores) != len(s.Labels) || !bytes.Equal(encodeScores(s), data) {
				t.Fatalf("decoded %d scores, %d labels; re-encoding differs", len(s.Scores), len(s.Labels))
			}
			return
		}
		c := &Cache{dir: t.TempDir()}
		k, _ := Key("fuzz")
		p, _ := c.estimatePath(k)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
		if _, _, err := c.GetEstimate(k); err != nil && !bytes.Contains([]byte(err.Error()), []byte(p)) {
			t.Fatalf("an error that does not name the entry: %v", err)
		}
	})
}

// craftedEntry claims n = 10/9 mod 2^64 rows over a 10-byte body, with a
// valid checksum: 9n overflows to 10.
func craftedEntry() []byte {
	var inv9 uint64 = 1
	for range 64 {
		inv9 *= 2 - 9*inv9
	}
	n := 10 * inv9
	b := []byte(cacheMagic)
	for i := range 8 {
		b = append(b, byte(n>>(8*i)))
	}
	b = append(b, make([]byte, 10)...)
	return appendSum(b)
}
