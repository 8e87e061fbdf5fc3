package aul

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/report"
)

// AULSeries is the name of AUL^PU's series in Figure 2.
const AULSeries = "AUL^PU"

// Errors pools the rows' errors by data set (every beta): per data set the
// errors of each source and of AUL^PU (under AULSeries), and the data sets
// in order.
func Errors(rows []Row) (datasets []string, by map[string]map[string][]float64) {
	by = map[string]map[string][]float64{}
	for _, r := range rows {
		m := by[r.Dataset]
		if m == nil {
			m = map[string][]float64{}
			by[r.Dataset] = m
			datasets = append(datasets, r.Dataset)
		}
		for s, e := range r.Errors {
			m[s] = append(m[s], e...)
		}
		m[AULSeries] = append(m[AULSeries], r.AULErrors...)
	}
	slices.Sort(datasets)
	return datasets, by
}

// Figure2 is the paper's Figure 2: per data set the errors of AUC^est for
// each estimator and of AUL^PU over every split, whiskers at the minimum
// and maximum, means marked.
func Figure2(rows []Row) report.BoxChart {
	datasets, by := Errors(rows)
	series := append(Sources(rows), AULSeries)
	bc := report.BoxChart{Title: figure2Title(rows),
		XLabel: "data set", YLabel: "AUC^est - AUC, AUL^PU - AUL", Groups: datasets, Series: series, ZeroLine: true, Mean: true}
	// The qualitative palette without its red (AUL^PU's) and pink.
	estimatorColors := []int{0, 1, 2, 4, 5, 7}
	for i, s := range series {
		c := report.Qualitative[estimatorColors[i%len(estimatorColors)]]
		if s == AULSeries {
			c = report.Qualitative[3]
		}
		bc.Colors = append(bc.Colors, c)
		var st []report.BoxStats
		for _, ds := range datasets {
			st = append(st, report.Box(by[ds][s]).MinMax())
		}
		bc.Stats = append(bc.Stats, st)
	}
	return bc
}

// figure2Title says what Figure 2 pools, from the rows themselves: the
// betas and the splits of each (data set, beta): "Figure 2: errors over
// every split (betas 0.1, 0.2, 0.4; 20 splits each); ...".
func figure2Title(rows []Row) string {
	var betas []float64
	lo, hi := 0, 0
	for i, r := range rows {
		if !slices.Contains(betas, r.Beta) {
			betas = append(betas, r.Beta)
		}
		if i == 0 || r.Runs < lo {
			lo = r.Runs
		}
		hi = max(hi, r.Runs)
	}
	slices.Sort(betas)
	texts := make([]string, len(betas))
	for i, b := range betas {
		texts[i] = strconv.FormatFloat(b, 'g', -1, 64)
	}
	which := "beta " + strings.Join(texts, ", ")
	if len(betas) > 1 {
		which = "betas " + strings.Join(texts, ", ")
	}
	splits := fmt.Sprintf("%d splits each", lo)
	switch {
	case lo == 1 && hi == 1:
		splits = "1 split each"
	case lo != hi:
		splits = fmt.Sprintf("%d to %d splits each", lo, hi)
	}
	return fmt.Sprintf("Figure 2: errors over every split (%s; %s); whiskers at min and max, diamond: mean", which, splits)
}
