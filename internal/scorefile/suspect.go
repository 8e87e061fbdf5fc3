package scorefile

import (
	"fmt"
	"math"
)

// minSuspectRows is the fewest rows on which a feature column is checked
// for looking like an identifier: on fewer, distinct integers (or three
// in a row) are common in real features.
const minSuspectRows = 20

// SuspectFeatures returns a warning for each feature column that looks
// like an identifier rather than a feature: integers that form an
// arithmetic progression in file order (a row number), or integers that
// differ in every row (an identifier). A model or a kernel reads such a
// column as a feature, and KM1/KM2's estimate can move far on it. hint,
// when not empty, is added to each warning (how to leave the column out).
func (t *Table) SuspectFeatures(hint string) []string {
	d, n := len(t.Columns.Features), t.N()
	if d == 0 || n < minSuspectRows {
		return nil
	}
	var out []string
	for j, name := range t.Columns.Features {
		var what string
		switch {
		case !t.integers(j, d):
			continue
		case t.progression(j, d):
			what = fmt.Sprintf("integers in steps of %v in file order (a row number?)", t.X[d+j]-t.X[j])
		case t.distinct(j, d):
			what = "integers that differ in every row (an identifier?)"
		default:
			continue
		}
		w := fmt.Sprintf("feature column %q holds %s", name, what)
		if hint != "" {
			w += ": " + hint
		}
		out = append(out, w)
	}
	return out
}

// integers reports whether feature j (of d) is an integer in every row.
func (t *Table) integers(j, d int) bool {
	for i := j; i < len(t.X); i += d {
		if x := t.X[i]; x != math.Trunc(x) {
			return false
		}
	}
	return true
}

// progression reports whether feature j (of d) steps by the same non-zero
// amount from row to row.
func (t *Table) progression(j, d int) bool {
	step := t.X[d+j] - t.X[j]
	if step == 0 {
		return false
	}
	for i := j + d; i < len(t.X); i += d {
		if t.X[i]-t.X[i-d] != step {
			return false
		}
	}
	return true
}

// distinct reports whether feature j (of d) differs in every row; it
// stops at the first repeat, so a column with few values costs little.
func (t *Table) distinct(j, d int) bool {
	seen := make(map[float64]struct{})
	for i := j; i < len(t.X); i += d {
		if _, ok := seen[t.X[i]]; ok {
			return false
		}
		seen[t.X[i]] = struct{}{}
	}
	return true
}
