package evaluate

import (
	"fmt"
	"math"
	"strings"
)

// Warnings about the numbers as a whole, given once they are all known.
// Each states what the data show; an estimate is called an estimate.

// InSampleAUCPU is the PU AUC at and above which the scores are said to
// look in-sample. With held-out scores and clean labels the PU AUC is
// alpha/2 + (1 - alpha) AUC <= 1 - alpha/2 (alpha the positives' share of
// U, AUC the true one), so a PU AUC of 0.98 needs alpha <= 0.04 even from
// a perfect model; label noise lowers it further. Scores from a model
// trained on these very labels reach it at any alpha: the model learned
// which rows are labeled, positives of U included among the others.
const InSampleAUCPU = 0.98

// clippedEps is how close to the end of its range a recovered number must
// be to count as clipped there.
const clippedEps = 5e-4

// warnAtEnd adds the warnings about the finished result: scores that
// look in-sample and numbers recovered at the end of their range.
func (res *Result) warnAtEnd() {
	if auc := float64(res.Metrics.AUC.PU); auc >= InSampleAUCPU {
		res.warn(WarnInSample, "the labeled rows outrank nearly every unlabeled one (PU AUC %.4f): with held-out scores that happens only when the unlabeled set holds almost no positives (alpha at most %.3f under clean labels); if the model was trained on these labels, its scores are in-sample and every estimate here is too low: give held-out (out-of-fold) scores", auc, 2*(1-auc))
	}
	if names := res.clipped(); len(names) > 0 {
		res.warn(WarnClipped, "%s recovered at the end of its range: the recovered curve was cut at 0 or 1 there, which happens when the priors are off (an alpha above the truth lifts the recovered numbers to 1) or the sample is small; the number and its interval are not reliable, and the truth is most likely below it", strings.Join(names, ", "))
	}
}

// clipped names the headline numbers recovered within clippedEps of an end
// of their range, or with an interval of zero width.
func (res *Result) clipped() []string {
	if !res.Priors.Valid {
		return nil
	}
	m := &res.Metrics
	var names []string
	check := func(name string, mt *Metric, lo float64) {
		v := float64(mt.Recovered)
		if math.IsNaN(v) {
			return
		}
		zero := mt.Interval != nil && mt.Interval.High-mt.Interval.Low <= 0
		if v >= 1-clippedEps || v <= lo+clippedEps || zero {
			names = append(names, fmt.Sprintf("%s (%.3f)", name, v))
		}
	}
	check("AUC", &m.AUC, 0)
	if d := m.AUC.Direct; d != nil && d.Ok() && (float64(*d) >= 1-clippedEps || float64(*d) <= clippedEps) {
		names = append(names, fmt.Sprintf("the direct AUC (%.3f)", float64(*d)))
	}
	check("AUC-PR", &m.AUCPR, 0)
	check("accuracy", &m.Acc, 0)
	check("F1", &m.F1, 0)
	check("MCC", &m.MCC, -1)
	return names
}
