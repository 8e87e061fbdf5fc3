package claesen2015

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/metrics"
	"github.com/pueval/pueval/report"
)

// The metrics of the measure "bounds".
const (
	aucMetric  = "auc-bounds"
	auprMetric = "aupr-bounds"
	cdfMetric  = "rank-cdf"
)

// The data sets of claesen2015.yaml, by the item they serve.
const (
	fig2Dataset  = "fig2-d3"
	fig3Dataset  = "fig3-d3"
	fig5Dataset  = "covtype"
	fig4Model1   = "fig4-model1"
	fig4Model2   = "fig4-model2"
	appDatasetPx = "app-" // app-d1, app-d2, app-d3
)

// truthKey is the true value: the ranking judged with the true labels.
var truthKey = results.TruthKey("same-model")

// Source is the record key source of a multiple f of the true beta, as the
// measure names it: "real" for 1, "real*F" otherwise.
func Source(f float64) string {
	if f == 1 {
		return results.Real
	}
	return results.Real + "*" + strconv.FormatFloat(f, 'g', -1, 64)
}

// parseMultiple is the inverse of Source; an interval source
// ("real*0.88..1.25") or another source is not a multiple.
func parseMultiple(src string) (float64, bool) {
	if src == results.Real {
		return 1, true
	}
	rest, ok := strings.CutPrefix(src, results.Real+"*")
	if !ok || strings.Contains(rest, "..") {
		return 0, false
	}
	f, err := strconv.ParseFloat(rest, 64)
	return f, err == nil
}

// key is the record key kind:SOURCE of a multiple.
func key(kind string, f float64) string { return results.RecoveryKey(kind, Source(f)) }

// okRecords returns the ok records of data set ds, ordered by cell (grid,
// then repeat) so that everything drawn from them is deterministic.
func okRecords(recs []results.Record, ds string) []results.Record {
	var out []results.Record
	for _, r := range recs {
		if r.Status == results.StatusOK && r.Dataset == ds {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b results.Record) int {
		return cmp.Or(cmp.Compare(report.GridText(a), report.GridText(b)), cmp.Compare(a.Repeat, b.Repeat))
	})
	return out
}

// value returns a record's metric value under key.
func value(r results.Record, metric, k string) (float64, bool) {
	v, ok := r.Metrics[metric][k]
	return v, ok && !math.IsNaN(v)
}

// multiples returns the multiples of beta for which some record holds
// metric key kind:SOURCE, ascending.
func multiples(recs []results.Record, metric, kind string) []float64 {
	var out []float64
	for _, r := range recs {
		for k := range r.Metrics[metric] {
			kd, src := results.SplitKey(k)
			if kd != kind {
				continue
			}
			if f, ok := parseMultiple(src); ok && report.IndexFloat(out, f) < 0 {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return out
}

// gridFloat is a record's grid value of axis, NaN when absent or not a number.
func gridFloat(r results.Record, axis string) float64 {
	if s, ok := r.Grid[axis]; ok {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			return v
		}
	}
	return math.NaN()
}

// mean is the mean of xs, NaN when empty.
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// percentiles returns the type-7 p-quantiles of xs (not modified).
func percentiles(xs []float64, ps ...float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = metrics.Quantile7(s, p)
	}
	return out
}

// curveRecord returns the record of recs with the lowest repeat that holds
// curve name (the measure records curves for the first repeats only).
func curveRecord(recs []results.Record, name string) (results.Record, bool) {
	best, found := results.Record{}, false
	for _, r := range recs {
		if _, ok := r.Curves[name]; ok && (!found || r.Repeat < best.Repeat) {
			best, found = r, true
		}
	}
	return best, found
}

// intervalSource returns the interval source ("real*LO..HI") of the
// record's curves or metric keys, "" when it has none.
func intervalSource(r results.Record) string {
	var srcs []string
	for k := range r.Metrics[aucMetric] {
		if _, src := results.SplitKey(k); strings.HasPrefix(src, results.Real+"*") && strings.Contains(src, "..") {
			srcs = append(srcs, src)
		}
	}
	slices.Sort(srcs)
	if len(srcs) == 0 {
		return ""
	}
	return srcs[0]
}

// f3 prints a number at three decimals, "-" for NaN.
func f3(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// g prints a grid value or multiple compactly ("0.05", "1.5").
func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
