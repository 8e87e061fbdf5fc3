package reference

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// Cell is the digest of one record: its cell, the hash of the whole record
// and the hashes of its field groups by name.
type Cell struct {
	ID     string
	Hash   uint64
	Fields map[string]uint32
}

// Identity is the field group of a record's identity: its schema,
// experiment, cell, data set, grid values and repeat, hashed together.
const Identity = "identity"

// identityKeys are the JSON keys of a record that make its Identity group.
var identityKeys = []string{"schema", "experiment", "cell", "dataset", "grid", "repeat"}

// notResults are the JSON keys of a record left out of its digest: how long
// and on what the cell ran, not what it found.
var notResults = []string{"timings", "work", "kernel"}

// groupedKeys are the JSON keys of a record whose value is an object with
// one field group per key (estimates.ID, metrics.NAME, curves.NAME).
var groupedKeys = []string{"estimates", "metrics", "curves"}

// Of is the digest of r: the FNV-64a hash of r's JSON line without its
// timings, work and kernel, and of each of its field groups.
func Of(r results.Record) (Cell, error) {
	r.Timings, r.Work, r.Kernel = nil, nil, ""
	if strings.ContainsAny(r.Cell, "\r\n") {
		return Cell{}, fmt.Errorf("cell %q: a cell identity with a line break has no digest line", r.Cell)
	}
	b, err := r.Marshal()
	if err != nil {
		return Cell{}, err
	}
	c := Cell{ID: r.Cell, Hash: fnv64a(b), Fields: map[string]uint32{}}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return Cell{}, fmt.Errorf("cell %s: %w", r.Cell, err)
	}
	id := fnv.New64a()
	for _, k := range identityKeys {
		if v, ok := top[k]; ok {
			fmt.Fprintf(id, "%s\x00%s\x00", k, v)
		}
		delete(top, k)
	}
	c.Fields[Identity] = fold(id.Sum64())
	for _, k := range notResults {
		delete(top, k)
	}
	for _, k := range groupedKeys {
		v, ok := top[k]
		if !ok {
			continue
		}
		delete(top, k)
		var sub map[string]json.RawMessage
		if err := json.Unmarshal(v, &sub); err != nil {
			return Cell{}, fmt.Errorf("cell %s: %s: %w", r.Cell, k, err)
		}
		for name, raw := range sub {
			c.Fields[k+"."+name] = fieldHash(k+"."+name, raw)
		}
	}
	for k, v := range top {
		c.Fields[k] = fieldHash(k, v)
	}
	return c, nil
}

// Digests are the digests of recs, in their order.
func Digests(recs []results.Record) ([]Cell, error) {
	cells := make([]Cell, 0, len(recs))
	for _, r := range recs {
		c, err := Of(r)
		if err != nil {
			return nil, err
		}
		cells = append(cells, c)
	}
	return cells, nil
}

// fieldNames are the field groups any of cells has, sorted.
func fieldNames(cells []Cell) []string {
	seen := map[string]bool{}
	for _, c := range cells {
		for k := range c.Fields {
			seen[k] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// fnv64a is the FNV-64a hash of b.
func fnv64a(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// fieldHash is the 32-bit digest of a field group: its name and JSON.
func fieldHash(name string, raw []byte) uint32 {
	h := fnv.New64a()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(raw)
	return fold(h.Sum64())
}

// fold folds a 64-bit hash to 32 bits.
func fold(h uint64) uint32 { return uint32(h ^ h>>32) }

// hex16 is h in 16 hex digits.
func hex16(h uint64) string { return fmt.Sprintf("%016x", h) }

// hex8 is h in 8 hex digits.
func hex8(h uint32) string { return fmt.Sprintf("%08x", h) }

// parseHex parses a hash of exactly digits hex digits.
func parseHex(s string, digits int) (uint64, error) {
	if len(s) != digits {
		return 0, fmt.Errorf("%q is not %d hex digits", s, digits)
	}
	return strconv.ParseUint(s, 16, 64)
}
