package report

import (
	"embed"
	"encoding/csv"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
)

// papersFS holds the published values, one directory per paper, each CSV
// with a header comment naming its source.
//
//go:embed papers
var papersFS embed.FS

// AAAIRow is one row of the AAAI-2017 appendix's Table 1 (AUC) or Table 2
// (AUC-PR): a data set at one beta, with the mean absolute errors of each
// estimate against the traditional truth. Table 2 has no DR or DE (NaN).
type AAAIRow struct {
	Dataset     string
	Runs        int // repeats aggregated (the paper: 50; 0 for published rows)
	Alpha, Beta float64
	D, N1, N    int
	E           float64 // mean |error| of the estimated beta - alpha
	Truth, PUV  float64 // mean traditional (true) value and mean PU value
	PU, IR, DR  float64
	IE, DE      float64
}

// AAAITable returns the published Table 1 (table = 1, AUC) or Table 2 (AUC-PR).
func AAAITable(table int) ([]AAAIRow, error) {
	if table != 1 && table != 2 {
		return nil, fmt.Errorf("AAAI-2017 has tables 1 and 2, not %d", table)
	}
	name := fmt.Sprintf("papers/aaai2017/table%d.csv", table)
	recs, err := readCSV(papersFS, name)
	if err != nil {
		return nil, err
	}
	var rows []AAAIRow
	for i, r := range recs[1:] {
		f := func(col string) float64 {
			for j, h := range recs[0] {
				if h == col {
					v, perr := strconv.ParseFloat(r[j], 64)
					if perr != nil {
						err = fmt.Errorf("%s row %d column %s: %v", name, i+2, col, perr)
					}
					return v
				}
			}
			return math.NaN()
		}
		metric := map[int]string{1: "auc", 2: "aucpr"}[table]
		row := AAAIRow{Dataset: r[0], Alpha: f("alpha"), Beta: f("beta"),
			D: int(f("d")), N1: int(f("n1")), N: int(f("n")), E: f("e"),
			Truth: f(metric), PUV: f(metric + "_pu"),
			PU: f("pu"), IR: f("ir"), DR: f("dr"), IE: f("ie"), DE: f("de")}
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// readCSV reads an embedded CSV, skipping '#' comment lines.
func readCSV(fsys fs.FS, name string) ([][]string, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(strings.NewReader(string(b)))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%s: no rows", name)
	}
	return recs, nil
}
