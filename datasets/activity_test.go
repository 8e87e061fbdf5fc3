package datasets

import (
	"fmt"
	"slices"
	"testing"
)

// TestMirrorPSBActivityEpileptic: on the mirror, the default Activity
// entries and their -lying variants hold the same rows and features and
// differ only in the labels, which are those of label 1 and label 3; the
// class counts are SOURCES-more.md A2's. Epileptic has 178 features X1..X178
// and 2300 rows of each of its 5 classes.
func TestMirrorPSBActivityEpileptic(t *testing.T) {
	st := mirrorStore(t)
	for _, c := range []struct {
		setup  string
		counts map[string]int // label -> rows
	}{
		{"activity-s1", map[string]int{"1": 15162, "2": 4381, "3": 30983, "4": 1956}},
		{"activity-s2", map[string]int{"1": 1244, "2": 530, "3": 20537, "4": 335}},
	} {
		def, err := st.Load(bg, c.setup)
		if err != nil {
			t.Fatal(err)
		}
		lying, err := st.Load(bg, c.setup+"-lying")
		if err != nil {
			t.Fatal(err)
		}
		if !matEqual(def, lying) {
			t.Errorf("%s and %s-lying: the feature matrices differ", c.setup, c.setup)
		}
		counts := map[string]int{}
		for i, k := range def.ClassIndex {
			label := def.Classes[k]
			counts[label]++
			if def.Y[i] != (label == "1") || lying.Y[i] != (label == "3") {
				t.Fatalf("%s row %d: label %s, positive %v (lying rule %v)", c.setup, i, label, def.Y[i], lying.Y[i])
			}
		}
		if fmt.Sprint(counts) != fmt.Sprint(c.counts) {
			t.Errorf("%s: label counts %v, want %v", c.setup, counts, c.counts)
		}
	}
	ep, err := st.Load(bg, "epileptic")
	if err != nil {
		t.Fatal(err)
	}
	if ep.N != 11500 || ep.NPos != 2300 || ep.D != 178 || !ep.Complete || len(ep.Warnings) > 0 {
		t.Errorf("epileptic: n %d n_pos %d d %d complete %v warnings %q", ep.N, ep.NPos, ep.D, ep.Complete, ep.Warnings)
	}
	for j, col := range ep.Columns {
		if want := fmt.Sprintf("X%d", j+1); col.Name != want || col.Kind != Numeric {
			t.Fatalf("epileptic column %d: %+v, want numeric %s", j, col, want)
		}
	}
	if !slices.Equal(ep.Classes, []string{"1", "2", "3", "4", "5"}) {
		t.Errorf("epileptic classes %q", ep.Classes)
	}
	per := make([]int, len(ep.Classes))
	for _, k := range ep.ClassIndex {
		per[k]++
	}
	if !slices.Equal(per, []int{2300, 2300, 2300, 2300, 2300}) {
		t.Errorf("epileptic rows per class %v", per)
	}
}

// matEqual reports whether two data sets have the same feature matrix.
func matEqual(a, b *Dataset) bool {
	if a.N != b.N || a.D != b.D {
		return false
	}
	for i := range a.N {
		if !slices.Equal(a.X.RawRowView(i), b.X.RawRowView(i)) {
			return false
		}
	}
	return true
}
