package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// Estimator returns the ID of the estimator whose estimates the papers'
// "E" columns use: the config's first estimator when the manifest lists
// them; otherwise (a schema-1 directory, or none) the estimate ID found in
// the ok records, the sorted first if several occur, with a note saying so
// (empty when there is nothing to say). No estimate at all gives "".
func (in Input) Estimator() (id, note string) {
	if len(in.Manifest.Estimators) > 0 {
		return in.Manifest.Estimators[0], ""
	}
	seen := map[string]bool{}
	for _, r := range in.Records {
		if r.Status != results.StatusOK {
			continue
		}
		for id := range r.Estimates {
			seen[id] = true
		}
	}
	ids := slices.Sorted(maps.Keys(seen))
	switch len(ids) {
	case 0:
		return "", ""
	case 1:
		return ids[0], ""
	}
	return ids[0], fmt.Sprintf("The records hold estimates of %s and no manifest says which estimator "+
		"the config listed first: E (the estimated alpha and beta) is %s, the first by name.", strings.Join(ids, ", "), ids[0])
}

// NominalBeta is the grid's beta of a record when it has one (the value the
// papers group by), else its true beta.
func NominalBeta(r results.Record) float64 {
	if s, ok := r.Grid["beta"]; ok {
		if b, err := strconv.ParseFloat(s, 64); err == nil {
			return b
		}
	}
	return r.Beta
}

// NominalBetas returns the distinct nominal betas of the records in
// decreasing order (the papers list beta from 1 down: increasing noise).
func NominalBetas(recs []results.Record) []float64 {
	var betas []float64
	for _, r := range recs {
		if b := NominalBeta(r); IndexFloat(betas, b) < 0 {
			betas = append(betas, b)
		}
	}
	slices.SortFunc(betas, func(a, b float64) int { return cmp.Compare(b, a) })
	return betas
}

// IndexFloat returns the index of x in xs (to within 1e-9, grid values
// being parsed from text), or -1.
func IndexFloat(xs []float64, x float64) int {
	for i, v := range xs {
		if math.Abs(v-x) < 1e-9 {
			return i
		}
	}
	return -1
}

// GridText is a record's grid values as canonical text, "k=v" sorted by key
// and joined by "/" as in cell IDs ("beta=0.95/labeled=100"); "" without a grid.
func GridText(r results.Record) string {
	parts := make([]string, 0, len(r.Grid))
	for _, k := range slices.Sorted(maps.Keys(r.Grid)) {
		parts = append(parts, k+"="+r.Grid[k])
	}
	return strings.Join(parts, "/")
}
