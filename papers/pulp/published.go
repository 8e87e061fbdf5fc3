package pulp

import (
	"embed"
	"fmt"
	"strconv"

	"github.com/pueval/pueval/report"
)

// published/table1.csv is the paper's Table 1, transcribed with its source
// in the header comment: Hajizadeh, Li, Dollevoet and Tax, "Evaluating
// Classification Performance with only Positive and Unlabeled Samples",
// S+SSPR 2014, LNCS 8621, pp. 233-242, Table 1.
//
//go:embed published/table1.csv
var publishedFS embed.FS

// Statistics of Table 1's rows.
const (
	StatRank = "rank" // mean over the Pr[y=1] grid of the Spearman correlation (per fold, averaged over the folds; or over the fold means)
	StatMAD  = "mad"  // mean over the grid of the mean absolute deviation (likewise)
	StatSD   = "sd"   // overall standard deviation of the PU values (per fold, or the fold means)
)

// PaperTable is the paper's Table 1: values by statistic, then labeling
// ("random", "scenario1", "scenario2"; "all" for the SD row), then measure
// key ("auc", ..., "pseudo-f").
type PaperTable map[string]map[string]map[string]float64

// Value returns a published value and whether the paper has it.
func (p PaperTable) Value(stat, labeling, measure string) (float64, bool) {
	v, ok := p[stat][labeling][measure]
	return v, ok
}

// Published returns the paper's Table 1.
func Published() (PaperTable, error) {
	recs, err := report.ReadPaperCSV(publishedFS, "published/table1.csv")
	if err != nil {
		return nil, err
	}
	head := recs[0]
	if len(head) != 2+len(Measures) {
		return nil, fmt.Errorf("published/table1.csv: %d columns, want %d", len(head), 2+len(Measures))
	}
	for i, m := range Measures {
		if head[2+i] != m.Key {
			return nil, fmt.Errorf("published/table1.csv: column %d is %q, want %q", 3+i, head[2+i], m.Key)
		}
	}
	out := PaperTable{}
	for i, r := range recs[1:] {
		if len(r) != len(head) {
			return nil, fmt.Errorf("published/table1.csv row %d: %d fields, want %d", i+2, len(r), len(head))
		}
		if out[r[0]] == nil {
			out[r[0]] = map[string]map[string]float64{}
		}
		row := map[string]float64{}
		for j, m := range Measures {
			v, err := strconv.ParseFloat(r[2+j], 64)
			if err != nil {
				return nil, fmt.Errorf("published/table1.csv row %d: %w", i+2, err)
			}
			row[m.Key] = v
		}
		out[r[0]][r[1]] = row
	}
	return out, nil
}
