package evaluate

import (
	"math"
	"slices"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/metrics"
)

// PercentileInterval is the percentile bootstrap interval at level of
// values: their (1-level)/2 and (1+level)/2 type-7 quantiles. NaN values
// are left out; with fewer than 2 values left it is nil.
func PercentileInterval(values []float64, level float64) *Interval {
	v := make([]float64, 0, len(values))
	for _, x := range values {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	if len(v) < 2 {
		return nil
	}
	slices.Sort(v)
	return &Interval{Float(metrics.Quantile7(v, (1-level)/2)), Float(metrics.Quantile7(v, (1+level)/2))}
}

// Intervals are the bootstrap intervals of the recovered numbers, for
// callers that resample a ranking themselves (pueval correct --bootstrap).
type Intervals struct {
	Resamples, Used int
	Alpha, Beta     *Interval // estimated priors only
	AUC, Direct     *Interval
	AUCPR           *Interval
	Measures        [len(recovery.Measures)]*Interval // in the order of recovery.Measures
	// AtThreshold are the measures' intervals at Options.Threshold (nil
	// without one).
	AtThreshold [len(recovery.Measures)]*Interval
	// ROC and PR are the pointwise bands of the recovered curves.
	ROC, PR *Band
}

// intervalsOf turns the resamples into percentile intervals.
func intervalsOf(draws []resampleResult, level float64, estimated bool) *Intervals {
	iv := &Intervals{Resamples: len(draws)}
	var alpha, beta, auc, direct, aucpr []float64
	var meas, at [len(recovery.Measures)][]float64
	var roc, pr [][]float64
	for _, d := range draws {
		if d.estimated {
			alpha, beta = append(alpha, d.alpha), append(beta, d.beta)
		}
		if !d.ok {
			continue
		}
		iv.Used++
		auc, direct, aucpr = append(auc, d.auc), append(direct, d.direct), append(aucpr, d.aucpr)
		for i := range meas {
			meas[i] = append(meas[i], d.measures[i])
			if d.hasAt {
				at[i] = append(at[i], d.at[i])
			}
		}
		roc, pr = append(roc, d.roc), append(pr, d.pr)
	}
	if estimated {
		iv.Alpha, iv.Beta = PercentileInterval(alpha, level), PercentileInterval(beta, level)
	}
	iv.AUC, iv.Direct, iv.AUCPR = PercentileInterval(auc, level), PercentileInterval(direct, level), PercentileInterval(aucpr, level)
	for i := range meas {
		iv.Measures[i], iv.AtThreshold[i] = PercentileInterval(meas[i], level), PercentileInterval(at[i], level)
	}
	iv.ROC, iv.PR = bandOf(roc, level), bandOf(pr, level)
	return iv
}

// bandOf is the pointwise percentile band of curves read on the grid.
func bandOf(curves [][]float64, level float64) *Band {
	if len(curves) < 2 {
		return nil
	}
	x := gridX()
	b := &Band{X: make([]Float, len(x)), Lower: make([]Float, len(x)), Upper: make([]Float, len(x))}
	col := make([]float64, len(curves))
	for j := range x {
		for i, c := range curves {
			col[i] = c[j]
		}
		iv := PercentileInterval(col, level)
		b.X[j] = Float(x[j])
		if iv == nil {
			b.Lower[j], b.Upper[j] = nan, nan
			continue
		}
		b.Lower[j], b.Upper[j] = iv.Low, iv.High
	}
	return b
}
