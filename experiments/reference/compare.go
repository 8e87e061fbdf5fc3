package reference

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// Diff is a cell whose record differs from the reference's, with the field
// groups that differ (sorted; empty when the field digests do not tell
// them apart).
type Diff struct {
	Cell   string
	Fields []string
}

// Result is the comparison of a run with a reference.
type Result struct {
	Reference *Reference
	// Compared counts the cells both hold; Identical of them are the same.
	Compared, Identical int
	Differ              []Diff   // in the reference's order
	Missing             []string // reference cells the run should hold and does not, in the reference's order
	Extra               []string // run cells the reference does not hold, in the run's order
	// NotSelected counts the reference cells outside the run's selection
	// (--repeats, --datasets, --shard); Unavailable the reference cells of
	// each data set the run could not use; RefUnavailable the run's cells
	// of each data set the reference run could not use.
	NotSelected    int
	Unavailable    map[string]int
	RefUnavailable map[string]int
	// Causes are the likely causes of the differences, from the manifests;
	// empty when every cell compared is identical.
	Causes []string
}

// OK reports whether every cell the run holds is identical to the
// reference's and every reference cell it lacks is outside its selection
// or of a data set it could not use.
func (r *Result) OK() bool {
	return len(r.Differ) == 0 && len(r.Missing) == 0 && len(r.Extra) == 0 && r.Compared > 0
}

// Compare sets a run's records (and its manifest, the zero value when it
// has none) against ref.
func Compare(ref *Reference, recs []results.Record, man results.Manifest) (*Result, error) {
	if man.Experiment != "" && man.Experiment != ref.Header.Experiment {
		return nil, fmt.Errorf("the run is of experiment %s, the reference %s of %s", man.Experiment, ref.Source, ref.Header.Experiment)
	}
	got, err := Digests(recs)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]Cell, len(got))
	for _, c := range got {
		byID[c.ID] = c
	}
	res := &Result{Reference: ref, Unavailable: map[string]int{}, RefUnavailable: map[string]int{}}
	inRef := make(map[string]bool, len(ref.Cells))
	for _, want := range ref.Cells {
		inRef[want.ID] = true
		have, ok := byID[want.ID]
		switch {
		case ok:
			res.Compared++
			if have.Hash == want.Hash {
				res.Identical++
			} else {
				res.Differ = append(res.Differ, Diff{Cell: want.ID, Fields: differingFields(want, have)})
			}
		case !selected(want.ID, man):
			res.NotSelected++
		case man.Unavailable[datasetOf(want.ID)] != "":
			res.Unavailable[datasetOf(want.ID)]++
		default:
			res.Missing = append(res.Missing, want.ID)
		}
	}
	for _, c := range got {
		switch {
		case inRef[c.ID]:
		case ref.Header.Unavailable[datasetOf(c.ID)] != "":
			res.RefUnavailable[datasetOf(c.ID)]++
		default:
			res.Extra = append(res.Extra, c.ID)
		}
	}
	if !res.OK() {
		res.Causes = causes(res, ref.Header, man)
	}
	return res, nil
}

// differingFields are the field groups whose digests differ between want
// and have (one present in only one of them included), sorted.
func differingFields(want, have Cell) []string {
	var out []string
	for _, f := range slices.Sorted(maps.Keys(want.Fields)) {
		if v, ok := have.Fields[f]; !ok || v != want.Fields[f] {
			out = append(out, f)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(have.Fields)) {
		if _, ok := want.Fields[f]; !ok {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// selected reports whether a cell the run lacks is in the run's selection
// (the whole grid without one). A finished run of a shard holds every cell
// of its shard, so a cell it lacks is another shard's; an unfinished one's
// are missing.
func selected(id string, man results.Manifest) bool {
	sel := man.Selection
	if sel == nil {
		return true
	}
	if len(sel.Datasets) > 0 && !slices.Contains(sel.Datasets, datasetOf(id)) {
		return false
	}
	if r, ok := repeatOf(id); ok && sel.Repeats > 0 && r >= sel.Repeats {
		return false
	}
	return sel.Shards == 0 || man.Finished == nil
}

// datasetOf is the data set of a cell identity ("DATASET/axis=v/.../repeat=R").
func datasetOf(id string) string {
	ds, _, _ := strings.Cut(id, "/")
	return ds
}

// repeatOf is the repeat of a cell identity.
func repeatOf(id string) (int, bool) {
	i := strings.LastIndex(id, "/repeat=")
	if i < 0 {
		return 0, false
	}
	r, err := strconv.Atoi(id[i+len("/repeat="):])
	return r, err == nil
}
