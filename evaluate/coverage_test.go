package evaluate

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/pueval/pueval/estimators/classprior"
)

// coverageCase is one simulation setting: positives N(Mu, 1), negatives
// N(0, 1), exact alpha and beta (datasets/synth fixes the counts).
type coverageCase struct {
	Mu, Alpha, Beta float64
	NL, NU          int
}

// populationAUC is the AUC of the scores, P(positive > negative) =
// Phi(mu / sqrt 2) (datasets/synth.GaussianAUC), the same on U as on any
// set: the estimand of the recovered AUC.
func (c coverageCase) populationAUC() float64 { return distuv.UnitNormal.CDF(c.Mu / math.Sqrt2) }

// populationF1 is the best F1 over thresholds on D = L u U in the
// population: pi = c beta + (1 - c) alpha (PSB-2019 Eq. 11, exact here
// since the counts are fixed), gamma(t) = 1 - Phi(t - mu), eta(t) = 1 -
// Phi(t), F1 = 2 pi gamma / (pi + theta) with theta = pi gamma + (1 - pi)
// eta (PSB-2019 Eq. 6), maximised by a grid search refined by golden
// section (F1 is unimodal in t for these normal scores).
func (c coverageCase) populationF1() float64 {
	cl := float64(c.NL) / float64(c.NL+c.NU)
	pi := cl*c.Beta + (1-cl)*c.Alpha
	f1 := func(t float64) float64 {
		g := 1 - distuv.UnitNormal.CDF(t-c.Mu)
		e := 1 - distuv.UnitNormal.CDF(t)
		return 2 * pi * g / (pi + pi*g + (1-pi)*e)
	}
	best := -10.0
	for t := -10.0; t <= 10; t += 0.01 {
		if f1(t) > f1(best) {
			best = t
		}
	}
	lo, hi := best-0.01, best+0.01
	const phi = 0.6180339887498949
	for range 100 {
		a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
		if f1(a) > f1(b) {
			hi = b
		} else {
			lo = a
		}
	}
	return f1((lo + hi) / 2)
}

// coverage counts how often the intervals of `sets` simulated samples hold
// the population AUC and best F1.
type coverage struct {
	sets, auc, f1, alpha, beta int
	failed                     int // resamples left out, summed
	outside                    int // point estimates outside their interval
	aucWidth, f1Width          float64
}

func (c coverage) String() string {
	p := func(k int) string { return fmt.Sprintf("%d/%d (%.0f %%)", k, c.sets, 100*float64(k)/float64(c.sets)) }
	return fmt.Sprintf("AUC %s, F1 %s, alpha %s, beta %s; mean width AUC %.3f, F1 %.3f; failed resamples %d",
		p(c.auc), p(c.f1), p(c.alpha), p(c.beta), c.aucWidth/float64(c.sets), c.f1Width/float64(c.sets), c.failed)
}

func measureCoverage(t *testing.T, cc coverageCase, sets, resamples int, estimated bool) coverage {
	t.Helper()
	aucTrue, f1True := cc.populationAUC(), cc.populationF1()
	var cov coverage
	for s := range sets {
		scores, labeled, _ := puScores(t, uint64(1000+s), cc.Mu, cc.Alpha, cc.Beta, cc.NL, cc.NU)
		opts := Options{Bootstrap: resamples, Seed: uint64(s), BoundsResamples: -1, Estimators: []string{classprior.AlphaMaxNName}}
		if !estimated {
			opts.Priors = &GivenPriors{cc.Alpha, cc.Beta}
		}
		res, err := Run(context.Background(), Input{Scores: scores, Labeled: labeled}, opts)
		if err != nil {
			t.Fatal(err)
		}
		cov.sets++
		cov.failed += res.Bootstrap.Failed
		holds := func(iv *Interval, x float64) bool { return iv != nil && float64(iv.Low) <= x && x <= float64(iv.High) }
		for _, m := range []Metric{res.Metrics.AUC, res.Metrics.AUCPR, res.Metrics.Acc, res.Metrics.F1, res.Metrics.MCC} {
			if !holds(m.Interval, float64(m.Recovered)) {
				cov.outside++
			}
		}
		if iv := res.Metrics.AUC.Interval; holds(iv, aucTrue) {
			cov.auc++
		}
		if iv := res.Metrics.F1.Interval; holds(iv, f1True) {
			cov.f1++
		}
		if iv := res.Metrics.AUC.Interval; iv != nil {
			cov.aucWidth += float64(iv.High - iv.Low)
		}
		if iv := res.Metrics.F1.Interval; iv != nil {
			cov.f1Width += float64(iv.High - iv.Low)
		}
		if holds(res.Priors.AlphaInterval, cc.Alpha) {
			cov.alpha++
		}
		if holds(res.Priors.BetaInterval, cc.Beta) {
			cov.beta++
		}
	}
	return cov
}

// TestBootstrapCoverage: over 100 simulated PU samples with known truth
// (issue 21's acceptance), the 95 % interval of the recovered AUC and of
// the best F1 holds the population value in at least 90 % of the samples,
// with the true alpha and beta given (the percentile bootstrap alone) and
// with them estimated by alphamax-n (the bootstrap widened over the region
// of priors); every point estimate lies inside its interval. Samples:
// positives N(2, 1), negatives N(0, 1) (population AUC Phi(2/sqrt 2) =
// 0.921), alpha 0.3, beta 0.9, |L| 500, |U| 3,000, 200 resamples each
// (about 20 s on the 2-core development machine); -short runs 25 samples
// of 100 resamples and asserts only the point estimates' place.
func TestBootstrapCoverage(t *testing.T) {
	cc := coverageCase{Mu: 2, Alpha: 0.3, Beta: 0.9, NL: 500, NU: 3000}
	sets, resamples := 100, 200
	if testing.Short() {
		sets, resamples = 25, 100
	}
	for _, estimated := range []bool{false, true} {
		start := time.Now()
		cov := measureCoverage(t, cc, sets, resamples, estimated)
		t.Logf("estimated priors %v (population AUC %.4f, best F1 %.4f): %v [%v]", estimated, cc.populationAUC(), cc.populationF1(), cov, time.Since(start).Round(time.Millisecond))
		if cov.outside > 0 {
			t.Errorf("estimated priors %v: %d point estimates outside their interval", estimated, cov.outside)
		}
		if !testing.Short() && (cov.auc < 90 || cov.f1 < 90) {
			t.Errorf("estimated priors %v: coverage %v: want at least 90 of 100 for AUC and F1", estimated, cov)
		}
	}
}
