package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// Cell is one point of an experiment's grid: a data set, a beta and a repeat.
type Cell struct {
	Index   int // position in the full grid (grid order)
	Dataset DatasetSpec
	Beta    float64
	Repeat  int
	ID      string // canonical identity, e.g. "pima/beta=0.95/repeat=3"
	Seed    uint64 // hashed from the experiment seed and the identity
}

// Selection picks a subset of the grid for a quick look or a shard. The
// cells it keeps are the same cells, with the same seeds, as in the full
// grid: a cell's result never depends on which subset ran it.
type Selection struct {
	Repeats  int      // keep repeats 0..Repeats-1 (0 = all)
	Datasets []string // keep these data sets (nil = all)
	Shard    int      // with Shards > 0: keep the cells whose grid index = Shard-1 mod Shards
	Shards   int
}

// Cells expands the grid in order: data sets as listed, betas as listed,
// repeats ascending. Every cell's seed is hashed from (experiment seed, data
// set, beta, repeat), so it is the same whichever subset, worker count or
// order runs it.
func (c *Config) Cells(sel Selection) ([]Cell, error) {
	for _, name := range sel.Datasets {
		if !slices.ContainsFunc(c.Datasets, func(d DatasetSpec) bool { return d.Name == name }) {
			var names []string
			for _, d := range c.Datasets {
				names = append(names, d.Name)
			}
			return nil, fmt.Errorf("data set %q is not in experiment %s (it has %s)", name, c.Experiment, strings.Join(names, ", "))
		}
	}
	if sel.Shards < 0 || (sel.Shards > 0 && (sel.Shard < 1 || sel.Shard > sel.Shards)) {
		return nil, fmt.Errorf("shard %d/%d: want k/n with 1 <= k <= n", sel.Shard, sel.Shards)
	}
	var cells []Cell
	idx := 0
	for _, d := range c.Datasets {
		for _, b := range c.Betas {
			for r := range c.Repeats {
				cell := Cell{Index: idx, Dataset: d, Beta: b, Repeat: r,
					ID: CellID(d.Name, b, r), Seed: CellSeed(c.Seed, d.Name, b, r)}
				idx++
				if sel.Repeats > 0 && r >= sel.Repeats {
					continue
				}
				if len(sel.Datasets) > 0 && !slices.Contains(sel.Datasets, d.Name) {
					continue
				}
				if sel.Shards > 0 && cell.Index%sel.Shards != sel.Shard-1 {
					continue
				}
				cells = append(cells, cell)
			}
		}
	}
	return cells, nil
}

// CellID is the canonical identity of a cell.
func CellID(dataset string, beta float64, repeat int) string {
	return fmt.Sprintf("%s/beta=%s/repeat=%d", dataset, formatBeta(beta), repeat)
}

// CellSeed hashes a cell's identity with the experiment seed (SHA-256, first 8 bytes).
func CellSeed(seed uint64, dataset string, beta float64, repeat int) uint64 {
	return hashSeed(seed, "cell", dataset, formatBeta(beta), fmt.Sprint(repeat))
}

// hashSeed derives a 64-bit seed from a seed and labels. Labels are
// length-prefixed so that ("ab", "c") and ("a", "bc") differ.
func hashSeed(seed uint64, labels ...string) uint64 {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write([]byte("pueval-seed-v1"))
	h.Write(b[:])
	for _, l := range labels {
		binary.LittleEndian.PutUint64(b[:], uint64(len(l)))
		h.Write(b[:])
		h.Write([]byte(l))
	}
	return binary.LittleEndian.Uint64(h.Sum(nil))
}
