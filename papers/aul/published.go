package aul

import (
	"embed"
	"fmt"
	"strconv"

	"github.com/pueval/pueval/report"
)

//go:embed published/table1.csv
var publishedFS embed.FS

// PaperRow is a row of the paper's Table 1.
type PaperRow struct {
	Dataset  string
	N        int
	Alpha    float64 // n_P/n
	Beta     float64 // the labeled fraction of the positives
	AUC, AUL float64 // the evaluated classifier's
	// MAE by column: "km1", "km2", "distcurve", "aulpu".
	MAE map[string]float64
}

// PaperEstimators are the estimator columns of Table 1, in its order.
var PaperEstimators = []string{"km1", "km2", "distcurve"}

// Published returns the paper's Table 1.
func Published() ([]PaperRow, error) {
	recs, err := report.ReadPaperCSV(publishedFS, "published/table1.csv")
	if err != nil {
		return nil, err
	}
	var out []PaperRow
	for i, r := range recs[1:] {
		if len(r) != 10 {
			return nil, fmt.Errorf("published/table1.csv row %d: %d fields, want 10", i+2, len(r))
		}
		var f [9]float64
		for j := range f {
			if f[j], err = strconv.ParseFloat(r[j+1], 64); err != nil {
				return nil, fmt.Errorf("published/table1.csv row %d: %w", i+2, err)
			}
		}
		out = append(out, PaperRow{Dataset: r[0], N: int(f[0]), Alpha: f[1], Beta: f[2], AUC: f[3], AUL: f[4],
			MAE: map[string]float64{"km1": f[5], "km2": f[6], "distcurve": f[7], "aulpu": f[8]}})
	}
	return out, nil
}
