package results

import (
	"bytes"
	"encoding/binary"
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
	// A finished cell recorded again: with another value (refused), the
	// same but for its timing (collapsed); a failed cell and its retry.
	other := bytes.Replace(good, []byte(`"pu":0.5`), []byte(`"pu":0.6`), 1)
	f.Add(append(append([]byte{}, good...), other...))
	timed := bytes.Replace(good, []byte(`"status":"ok"`), []byte(`"status":"ok","timings":{"total":2}`), 1)
	f.Add(append(append([]byte{}, good...), timed...))
	failed := bytes.Replace(good, []byte(`"status":"ok"`), []byte(`"status":"failed","error":"x"`), 1)
	f.Add(append(append([]byte{}, failed...), good...))
	// Files pueval did not write: a CSV line, another program's JSON, unterminated.
	f.Add([]byte("id,score\n"))
	f.Add([]byte(`{"id":1,"score":0.5}`))
	f.Add([]byte(`{"schema":2,"experiment":"e","cell":"c","sta`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newStore()
		off, err := s.load(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		if off < 0 || off > int64(len(data)) {
			t.Fatalf("offset %d of %d bytes", off, len(data))
		}
		seen := map[string]bool{}
		for _, r := range s.Records() {
			if seen[r.Cell] {
				t.Fatalf("cell %s read twice", r.Cell)
			}
			seen[r.Cell] = true
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
// give an entry or an error wrapping ErrCorrupt or ErrOtherKey (or a miss,
// for a valid entry of the first layout), never a panic, a huge allocation
// or a hit of another key; an entry that decodes encodes back to the same
// bytes.
func FuzzScoreCache(f *testing.F) {
	k, _ := Key("fuzz")
	other, _ := Key("another")
	scores := Scores{Scores: []float64{0.25, math.SmallestNonzeroFloat64, 1}, Labels: []bool{true, false, true}}
	f.Add(encodeScores(k, scores), false)
	f.Add(encodeScores(other, scores), false) // swapped: another key's entry
	f.Add(craftedEntry(), false)
	f.Add(scoresV1(scores), false)
	js := []byte(`{"method":"alphamax-n","alpha":0.3,"beta":0.9}`)
	f.Add(encodeEstimate(k, js), true)
	f.Add(encodeEstimate(other, js), true)
	f.Add([]byte(estimateMagicV1+string(js)+"\n"+"00\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, estimate bool) {
		if !estimate {
			key, s, err := decodeScores(data)
			if err != nil {
				return
			}
			if len(s.Scores) != len(s.Labels) || !bytes.Equal(encodeScores(key, s), data) {
				t.Fatalf("decoded %d scores, %d labels; re-encoding differs", len(s.Scores), len(s.Labels))
			}
			return
		}
		c := &Cache{dir: t.TempDir()}
		p, _ := c.estimatePath(k)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
		_, ok, err := c.GetEstimate(k)
		if err != nil && !bytes.Contains([]byte(err.Error()), []byte(p)) {
			t.Fatalf("an error that does not name the entry: %v", err)
		}
		if key, _, derr := decodeEstimate(data); ok && (derr != nil || key != k) {
			t.Fatalf("a hit for an entry of key %q (%v)", key, derr)
		}
	})
}

// scoresV1 is an entry of the first layout (no key): magic, n, scores,
// labels, sha256.
func scoresV1(s Scores) []byte {
	b := []byte(cacheMagicV1)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(s.Scores)))
	for _, x := range s.Scores {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	for _, l := range s.Labels {
		if l {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return appendSum(b)
}

// craftedEntry claims n = 10/9 mod 2^64 rows over a 10-byte body, with a
// valid checksum: 9n overflows to 10 (in the first layout, which is still
// decoded to tell a valid old entry from a corrupt one).
func craftedEntry() []byte {
	var inv9 uint64 = 1
	for range 64 {
		inv9 *= 2 - 9*inv9
	}
	n := 10 * inv9
	b := []byte(cacheMagicV1)
	for i := range 8 {
		b = append(b, byte(n>>(8*i)))
	}
	b = append(b, make([]byte, 10)...)
	return appendSum(b)
}
