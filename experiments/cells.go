package experiments

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// Cell is one point of an experiment's grid: a data set, one value of each
// grid axis and a repeat.
type Cell struct {
	Index   int // position in the full grid (grid order)
	Dataset *DatasetSpec
	// Values holds the cell's value of every grid axis, by axis name.
	Values map[string]AxisValue
	Repeat int
	ID     string // canonical identity, e.g. "pima/beta=0.95/repeat=3"
	Seed   uint64 // hashed from the experiment seed and the identity

	// ExperimentSeed is the experiment's seed, for SharedSeed.
	ExperimentSeed uint64
}

// SharedSeed is a seed that the cells of one data set and repeat share
// whenever their values of the named axes agree, whatever their other axes
// say: a protocol draws from it what must not change along the other axes
// (the PULP protocol draws the same rows for every classifier and labeling
// scenario, so that they are compared on the same data). It hashes
// "shared", the data set, "axis=value" for each named axis the cell has, in
// name order, and the repeat.
func (c Cell) SharedSeed(axes ...string) uint64 {
	name := ""
	if c.Dataset != nil {
		name = c.Dataset.Name
	}
	labels := []string{"shared", name}
	for _, k := range slices.Sorted(slices.Values(axes)) {
		if v, ok := c.Values[k]; ok {
			labels = append(labels, k+"="+v.Text)
		}
	}
	labels = append(labels, fmt.Sprint(c.Repeat))
	return hashSeed(c.ExperimentSeed, labels...)
}

// Value returns the cell's value of an axis.
func (c Cell) Value(axis string) (AxisValue, bool) {
	v, ok := c.Values[axis]
	return v, ok
}

// Float returns the cell's value of a float-valued axis (beta, ...).
func (c Cell) Float(axis string) (float64, bool) {
	f, ok := c.Values[axis].Value.(float64)
	return f, ok
}

// Int returns the cell's value of an int-valued axis (labeled, ...).
func (c Cell) Int(axis string) (int, bool) {
	k, ok := c.Values[axis].Value.(int)
	return k, ok
}

// GridTexts returns the canonical texts of the cell's axis values, by axis
// name: Record.Grid.
func (c Cell) GridTexts() map[string]string {
	out := make(map[string]string, len(c.Values))
	for k, v := range c.Values {
		out[k] = v.Text
	}
	return out
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

// record is the selection as a manifest records it.
func (s Selection) record() results.Selection {
	return results.Selection{Repeats: s.Repeats, Datasets: slices.Clone(s.Datasets), Shard: s.Shard, Shards: s.Shards}
}

// Cells expands the grid in order: data sets as listed, then the axes of the
// data set's grid (the config's, or its own) in order (the first varies
// slowest), repeats ascending. Every
// cell's seed is hashed from (experiment seed, data set, axis values,
// repeat), so it is the same whichever subset, worker count or order runs
// it.
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
	if err := c.checkCellCount(); err != nil {
		return nil, err
	}
	var cells []Cell
	idx := 0
	for i := range c.Datasets {
		d := &c.Datasets[i]
		for _, p := range d.Grid.points() {
			for r := range d.Repeats {
				cell := Cell{Index: idx, Dataset: d, Values: p, Repeat: r,
					ID: CellID(d.Name, p, r), Seed: CellSeed(c.Seed, d.Name, p, r), ExperimentSeed: c.Seed}
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

// MaxCells bounds the cells of a config (data sets x grid points x
// repeats, over every data set): the papers' grids have a few thousand, and
// a typo (a thousand betas, a million repeats) must be an error, not
// gigabytes of cells before the first one runs.
const MaxCells = 1_000_000

// CellCount returns the number of cells of the config's whole grid,
// counted without expanding it; a count over MaxCells is returned as
// MaxCells+1 (so it never overflows).
func (c *Config) CellCount() int {
	n, _ := c.cellCount()
	return n
}

// cellCount is CellCount and the data set with the most cells.
func (c *Config) cellCount() (n int, largest *DatasetSpec) {
	most := -1
	for i := range c.Datasets {
		d := &c.Datasets[i]
		k := cappedMul(d.Grid.size(), max(d.Repeats, 0))
		if k > most {
			most, largest = k, d
		}
		n = min(n+k, MaxCells+1)
	}
	return n, largest
}

// checkCellCount refuses a config with more than MaxCells cells, naming
// the data set with the most and how its count comes about.
func (c *Config) checkCellCount() error {
	n, d := c.cellCount()
	if n <= MaxCells {
		return nil
	}
	var factors []string
	for _, a := range d.Grid.Axes {
		factors = append(factors, fmt.Sprintf("%d %s", len(a.Values), a.Name))
	}
	factors = append(factors, fmt.Sprintf("%d repeats", d.Repeats))
	what := strings.Join(factors, " x ")
	if k := cappedMul(d.Grid.size(), max(d.Repeats, 0)); k <= MaxCells {
		what = fmt.Sprintf("%d data sets; the largest, %s: %s = %d", len(c.Datasets), d.Name, what, k)
	} else {
		what = fmt.Sprintf("data set %s alone: %s", d.Name, what)
	}
	return fmt.Errorf("more than %d cells (%s): a config has at most %d cells; "+
		"list fewer grid values, data sets or repeats, or split the experiment into several configs", MaxCells, what, MaxCells)
}

// size is the number of points of the grid (the product of its axes'
// sizes), capped at MaxCells+1.
func (g Grid) size() int {
	n := 1
	for _, a := range g.Axes {
		n = cappedMul(n, len(a.Values))
	}
	return n
}

// cappedMul is a*b for a, b >= 0, or MaxCells+1 when that is more.
func cappedMul(a, b int) int {
	const limit = MaxCells + 1
	if a == 0 || b == 0 {
		return 0
	}
	if a > limit/b {
		return limit
	}
	return min(a*b, limit)
}

// points returns every combination of the grid's values, the first axis
// varying slowest; a grid without axes has one point.
func (g Grid) points() []map[string]AxisValue {
	points := []map[string]AxisValue{{}}
	for _, a := range g.Axes {
		var next []map[string]AxisValue
		for _, p := range points {
			for _, v := range a.Values {
				q := make(map[string]AxisValue, len(p)+1)
				for k, x := range p {
					q[k] = x
				}
				q[a.Name] = v
				next = append(next, q)
			}
		}
		points = next
	}
	return points
}

// sortedAxes returns the axis names of a grid point, sorted: IDs and seeds
// do not depend on the order in which a config lists its axes.
func sortedAxes(values map[string]AxisValue) []string {
	names := make([]string, 0, len(values))
	for k := range values {
		names = append(names, k)
	}
	slices.SortFunc(names, cmp.Compare)
	return names
}

// CellID is the canonical identity of a cell: the data set, "axis=value"
// for each axis in name order, and the repeat, joined by "/" (e.g.
// "pima/beta=0.95/repeat=3").
func CellID(dataset string, values map[string]AxisValue, repeat int) string {
	var b strings.Builder
	b.WriteString(dataset)
	for _, k := range sortedAxes(values) {
		fmt.Fprintf(&b, "/%s=%s", k, values[k].Text)
	}
	fmt.Fprintf(&b, "/repeat=%d", repeat)
	return b.String()
}

// CellSeed hashes a cell's identity with the experiment seed (hashSeed of
// "cell", the data set, each axis value's text in axis-name order, and the
// repeat). A grid whose only axis is beta hashes exactly what pueval hashed
// before grids could have other axes, so old records and score caches stay
// valid.
func CellSeed(seed uint64, dataset string, values map[string]AxisValue, repeat int) uint64 {
	labels := []string{"cell", dataset}
	for _, k := range sortedAxes(values) {
		labels = append(labels, values[k].Text)
	}
	labels = append(labels, fmt.Sprint(repeat))
	return hashSeed(seed, labels...)
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
