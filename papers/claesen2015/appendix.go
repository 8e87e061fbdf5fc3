package claesen2015

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// AppMultiples are the appendix tables' beta-hat: an underestimate, the
// true beta and an overestimate (multiples of the true beta).
var AppMultiples = []float64{0.5, 1, 1.5}

// AppRow is one data set and (known-positives, known-negatives) cell of the
// appendix tables: means over the repeats.
type AppRow struct {
	Dataset string
	KP, KN  float64 // fractions of the positives and of the negatives known
	Runs    int
	Beta    float64 // mean true beta (the fraction of positives in U)
	Truth   float64 // mean true AUC
	// Mean AUC bounds by beta-hat multiple: positive-based bootstrap and DKW,
	// and negative-based DKW (present only with known negatives).
	Boot, DKW, DKWNeg map[float64]Interval
	// NegCovered counts, by multiple, the repeats whose negative-based DKW
	// bounds contain that repeat's true AUC.
	NegCovered map[float64]int
}

// AppendixRows aggregates the ok records of the app-* data sets by data
// set, known positives and known negatives (0 when the grid has no such
// axis), in that order.
func AppendixRows(recs []results.Record) []AppRow {
	type cell struct {
		ds     string
		kp, kn float64
	}
	by := map[cell][]results.Record{}
	for _, r := range recs {
		if r.Status != results.StatusOK || !strings.HasPrefix(r.Dataset, appDatasetPx) {
			continue
		}
		kn := gridFloat(r, "known-negatives")
		if math.IsNaN(kn) {
			kn = 0
		}
		c := cell{r.Dataset, gridFloat(r, "known-positives"), kn}
		by[c] = append(by[c], r)
	}
	keys := slices.SortedFunc(maps.Keys(by), func(a, b cell) int {
		return cmp.Or(cmp.Compare(a.ds, b.ds), cmp.Compare(a.kp, b.kp), cmp.Compare(a.kn, b.kn))
	})
	var rows []AppRow
	for _, c := range keys {
		rs := by[c]
		row := AppRow{Dataset: c.ds, KP: c.kp, KN: c.kn, Runs: len(rs),
			Boot: map[float64]Interval{}, DKW: map[float64]Interval{}, DKWNeg: map[float64]Interval{}, NegCovered: map[float64]int{}}
		var truth, alpha []float64
		for _, r := range rs {
			alpha = append(alpha, r.Alpha)
			if t, ok := value(r, aucMetric, truthKey); ok {
				truth = append(truth, t)
			}
		}
		row.Beta, row.Truth = mean(alpha), mean(truth)
		for _, f := range AppMultiples {
			for band, dst := range map[string]map[float64]Interval{"bootstrap": row.Boot, "dkw": row.DKW, "dkw-neg": row.DKWNeg} {
				if iv, ok := meanInterval(rs, band, f); ok {
					dst[f] = iv
				}
			}
			for _, r := range rs {
				t, ok := value(r, aucMetric, truthKey)
				if iv := interval(r, aucMetric, "dkw-neg", Source(f)); ok && iv.Contains(t) {
					row.NegCovered[f]++
				}
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// meanInterval is the mean of the BAND bounds at multiple f over the
// records holding both; false when none does.
func meanInterval(rs []results.Record, band string, f float64) (Interval, bool) {
	var lo, hi []float64
	for _, r := range rs {
		if iv := interval(r, aucMetric, band, Source(f)); !math.IsNaN(iv.Lower) {
			lo, hi = append(lo, iv.Lower), append(hi, iv.Upper)
		}
	}
	return Interval{mean(lo), mean(hi)}, len(lo) > 0
}

// get is m[f], NaNs when absent.
func get(m map[float64]Interval, f float64) Interval {
	if iv, ok := m[f]; ok {
		return iv
	}
	return Interval{math.NaN(), math.NaN()}
}

// multipleLabel is "0.5x", "1x", "1.5x".
func multipleLabel(f float64) string { return g(f) + "x" }

// AppendixTable1 is Appendix Table 1: per data set, kp and kn the mean true
// beta and AUC and the mean positive-based bootstrap AUC bounds (lower,
// upper, width) at each of AppMultiples.
func AppendixTable1(rows []AppRow) report.Table {
	t := report.Table{Caption: "Appendix Table 1: positive-based bootstrap AUC bounds by known-positive (kp) and known-negative (kn) fraction, at beta-hat = 0.5, 1 and 1.5 x beta (means over repeats). The paper's values are not in the available text (its table is graphical): no published column.",
		Labels: []report.Column{{Name: "data"}, {Name: "kp"}, {Name: "kn"}, {Name: "runs", NoLaTeX: true}},
		Values: []report.Column{{Name: "beta", LaTeX: `$\beta$`}, {Name: "true AUC", CSV: "truth"}}}
	for _, f := range AppMultiples {
		m := multipleLabel(f)
		t.Values = append(t.Values, report.Column{Name: m + " lower", CSV: "lower_" + g(f)}, report.Column{Name: m + " upper", CSV: "upper_" + g(f)},
			report.Column{Name: m + " width", CSV: "width_" + g(f)})
	}
	for _, r := range rows {
		v := []float64{r.Beta, r.Truth}
		for _, f := range AppMultiples {
			iv := get(r.Boot, f)
			v = append(v, iv.Lower, iv.Upper, iv.Width())
		}
		t.Rows = append(t.Rows, report.Row{Labels: []report.Label{{Text: r.Dataset}, {Text: g(r.KP)}, {Text: g(r.KN)}, {Text: strconv.Itoa(r.Runs)}}, Values: v})
	}
	return t
}

// Tighter names the narrower of the positive- and the negative-based
// bounds ("-" when either is missing).
func Tighter(pos, neg Interval) string {
	switch {
	case math.IsNaN(pos.Width()) || math.IsNaN(neg.Width()):
		return "-"
	case neg.Width() < pos.Width():
		return "negatives"
	}
	return "positives"
}

// AppendixTable2 is Appendix Table 2: for every cell with known negatives
// and each of AppMultiples, the positive-based and the negative-based DKW
// AUC bounds and which is tighter.
func AppendixTable2(rows []AppRow) report.Table {
	t := report.Table{Caption: "Appendix Table 2: DKW AUC bounds from the known positives and from the known negatives (the flip of App. C), and the tighter, by kp, kn > 0 and beta-hat (means over repeats). The paper's values are not in the available text: no published column.",
		Labels: []report.Column{{Name: "data"}, {Name: "kp"}, {Name: "kn"}, {Name: "beta-hat / beta", CSV: "multiple", LaTeX: `$\hat\beta/\beta$`},
			{Name: "runs", NoLaTeX: true}, {Name: "tighter"}},
		Values: []report.Column{{Name: "true AUC", CSV: "truth"}, {Name: "pos lower", CSV: "pos_lower"}, {Name: "pos upper", CSV: "pos_upper"},
			{Name: "pos width", CSV: "pos_width"}, {Name: "neg lower", CSV: "neg_lower"}, {Name: "neg upper", CSV: "neg_upper"}, {Name: "neg width", CSV: "neg_width"}}}
	for _, r := range rows {
		if r.KN <= 0 {
			continue
		}
		for _, f := range AppMultiples {
			pos, neg := get(r.DKW, f), get(r.DKWNeg, f)
			t.Rows = append(t.Rows, report.Row{
				Labels: []report.Label{{Text: r.Dataset}, {Text: g(r.KP)}, {Text: g(r.KN)}, {Text: g(f)}, {Text: strconv.Itoa(r.Runs)}, {Text: Tighter(pos, neg)}},
				Values: []float64{r.Truth, pos.Lower, pos.Upper, pos.Width(), neg.Lower, neg.Upper, neg.Width()}})
		}
	}
	return t
}
