package aul

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pueval/pueval/report"
)

// The thresholds of the Table 1 claims (pueval's reading of Table 1):
// AUL^PU's MAE below every estimator's in at least MinRowsWon of the
// paper's 27 rows, and the mean AUL^PU MAE over the best estimator's mean
// MAE equal to the paper's PaperMAERatio (0.0096/0.0616, its "1/6") within
// RatioMargin standard errors of the difference of two such ratios: this
// run's standard error (RatioStdErr) counted twice over, since the paper's
// ratio is a mean over as many random splits and carries as much noise.
const (
	MinRowsWon    = 25
	PaperMAERatio = 0.0096 / 0.0616
	RatioMargin   = 2
)

// claimLine lays out one line of the AUL claims.md as it has always read:
// "Item: Test: verdict Detail" (the detail opens with the counts in
// parentheses, then the exceptions); Figure 3's lines quote the paper,
// `Item, "Paper": Test (verdict Detail).`. A line without a Test is a
// measurement the paper's claims are read against, with no threshold of
// its own, so it prints no verdict: `Item[, "Paper"]: Detail`.
func claimLine(c report.Claim) string {
	head := c.Item
	if c.Paper != "" {
		head += ", \"" + c.Paper + "\""
	}
	switch {
	case c.Test == "":
		return head + ": " + c.Detail
	case c.Paper != "":
		return fmt.Sprintf("%s: %s (%s %s).", head, c.Test, c.Verdict, c.Detail)
	}
	return fmt.Sprintf("%s: %s: %s %s", head, c.Test, c.Verdict, c.Detail)
}

// Claims checks the paper's claims on the rows: Table 1's, Figure 2's and
// the exact per-split identity. Each claim with a test says whether it
// holds and the numbers behind it; the measurements without a threshold
// (the extra estimators' row count, the identity) give the numbers only.
//
// The claims compare AUL^PU with the paper's estimators (KM1, KM2,
// DistCurve) when the records have them; the others (AlphaMax-N, an extra
// column) get a line of their own for the row count.
func Claims(rows []Row) []report.Claim {
	all := Sources(rows)
	var srcs, extra []string
	for _, s := range all {
		if slices.Contains(PaperEstimators, s) {
			srcs = append(srcs, s)
		} else {
			extra = append(extra, s)
		}
	}
	if len(srcs) == 0 {
		srcs, extra = all, nil
	}
	if len(rows) == 0 {
		return []report.Claim{{Item: "no records with the auc and aul measures", Detail: "nothing to check"}}
	}
	var out []report.Claim
	if len(srcs) == 0 {
		out = append(out, report.Claim{Item: "Table 1", Detail: "the records hold no estimator: the claims comparing AUL^PU with the corrected AUC are not checked"})
	} else {
		out = append(out, table1Claims(rows, srcs, extra)...)
		out = append(out, figure2Claims(rows, srcs)...)
	}
	if c, ok := iqrClaim(rows); ok {
		out = append(out, c)
	}
	ident, checkedIdent := 0, 0
	for _, r := range rows {
		ident += r.Identity
		checkedIdent += r.IdentityChecked
	}
	if checkedIdent > 0 {
		out = append(out, report.Claim{Item: "Identity (Section 2.1)", Detail: fmt.Sprintf("(AUC^est(true alpha_U) - AUC)(1 - alpha) = AUL^PU - AUL to 1e-9 in %d of %d splits (it can fail only where the clip to [0, 1] binds): so AUL^PU's error is the true-prior correction's scaled by 1 - alpha, and its advantage over an estimator is that scale and the estimator's error of the prior",
			ident, checkedIdent)})
	}
	return out
}

// table1Claims are Table 1's: the rows AUL^PU wins against the paper's
// estimators (and, as a count only, against the extra ones too), and its
// mean MAE against the best estimator's.
func table1Claims(rows []Row, srcs, extra []string) []report.Claim {
	won, compared, lost := rowsWon(rows, srcs)
	need := int(math.Ceil(float64(MinRowsWon) / 27 * float64(compared)))
	c := report.Claim{Item: "Table 1", Test: fmt.Sprintf("AUL^PU's MAE is below every estimator's (%s) in at least %d of %d rows", strings.Join(srcs, ", "), need, compared)}
	if compared == 0 {
		c.Detail = "(no row holds an estimator's MAE)"
	} else {
		c.Verdict, c.Detail = report.VerdictOf(won >= need), fmt.Sprintf("(%d)", won)
	}
	if len(lost) > 0 {
		c.Detail += "; not in: " + strings.Join(lost, "; ")
	}
	out := []report.Claim{c}
	if len(extra) > 0 {
		won, compared, lost := rowsWon(rows, append(slices.Clone(srcs), extra...))
		c := report.Claim{Item: fmt.Sprintf("Table 1, with the extra estimators (%s) too", strings.Join(extra, ", ")),
			Detail: fmt.Sprintf("AUL^PU's MAE is below every one in %d of %d rows", won, compared)}
		if len(lost) > 0 {
			c.Detail += "; not in: " + strings.Join(lost, "; ")
		}
		out = append(out, c)
	}

	return append(out, ratioClaim(rows, srcs))
}

// ratioClaim compares the mean AUL^PU MAE over the best estimator's mean
// MAE with the paper's 0.156, within RatioMargin standard errors of the
// difference (RatioStdErr, times sqrt(2) for the paper's own noise).
func ratioClaim(rows []Row, srcs []string) report.Claim {
	var aulMAEs []float64
	means := map[string][]float64{}
	for _, r := range rows {
		aulMAEs = append(aulMAEs, r.AULMAE())
		for _, s := range srcs {
			means[s] = append(means[s], r.MAE(s))
		}
	}
	bestSrc, bestMean := "", math.Inf(1)
	var parts []string
	for _, s := range srcs {
		m := mean(means[s])
		parts = append(parts, fmt.Sprintf("%s %.4f", s, m))
		if m < bestMean {
			bestSrc, bestMean = s, m
		}
	}
	c := report.Claim{Item: "Table 1", Test: fmt.Sprintf("mean AUL^PU MAE / the best estimator's mean MAE equals the paper's %.3f within %d standard errors of the difference (this run's SE x sqrt(2): the paper's ratio is as noisy)", PaperMAERatio, RatioMargin)}
	if bestSrc == "" || math.IsNaN(mean(aulMAEs)) {
		// No estimator has an MAE in every row: the best one, and the ratio
		// to it, are undefined (a ratio to +Inf would pass vacuously).
		c.Detail = fmt.Sprintf("(no estimator has an MAE in every row; means: %s)", strings.Join(parts, ", "))
		return c
	}
	if bestMean == 0 {
		// An exact estimator: AUL^PU's MAE is no fraction of it.
		c.Verdict = report.Fails
		c.Detail = fmt.Sprintf("(%s is exact in every split, AUL^PU's mean MAE %.4f; means: %s)", bestSrc, mean(aulMAEs), strings.Join(parts, ", "))
		return c
	}
	ratio, se := RatioStdErr(rows, bestSrc)
	if math.IsNaN(se) {
		c.Detail = fmt.Sprintf("(%.4f / %.4f (%s) = %.3f, without a standard error: a row has fewer than two splits; means: %s)", mean(aulMAEs), bestMean, bestSrc, ratio, strings.Join(parts, ", "))
		return c
	}
	margin := RatioMargin * math.Sqrt2 * se
	c.Verdict = report.VerdictOf(math.Abs(ratio-PaperMAERatio) <= margin)
	c.Detail = fmt.Sprintf("(%.4f / %.4f (%s) = %.3f, SE %.3f: %.3f +- %.3f; means: %s)", mean(aulMAEs), bestMean, bestSrc, ratio, se, PaperMAERatio, margin, strings.Join(parts, ", "))
	return c
}

// RatioStdErr returns the ratio r = A/B of the mean over rows of AUL^PU's
// MAE (A) to the mean of src's MAE (B), and its standard error by the delta
// method: se^2 = r^2 (Var A/A^2 + Var B/B^2 - 2 Cov(A, B)/(A B)), where
// each row contributes the variance of its absolute errors over its R
// splits, over R, and (when src has an error in every split of the row, in
// the records' order) the covariance of the paired absolute errors over R;
// rows are independent. The standard error is NaN when a row has fewer
// than two splits.
func RatioStdErr(rows []Row, src string) (ratio, se float64) {
	k := float64(len(rows))
	var A, B, varA, varB, cov float64
	for _, r := range rows {
		a, b := absAll(r.AULErrors), absAll(r.Errors[src])
		if len(a) < 2 || len(b) < 2 {
			return mean(a) / mean(b), math.NaN()
		}
		ma, mb := mean(a), mean(b)
		A += ma / k
		B += mb / k
		varA += sampleVar(a, a) / float64(len(a)) / (k * k)
		varB += sampleVar(b, b) / float64(len(b)) / (k * k)
		if len(a) == len(b) {
			cov += sampleVar(a, b) / float64(len(a)) / (k * k)
		}
	}
	ratio = A / B
	return ratio, ratio * math.Sqrt(max(0, varA/(A*A)+varB/(B*B)-2*cov/(A*B)))
}

// absAll returns |x| for each x.
func absAll(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Abs(x)
	}
	return out
}

// sampleVar is the sample covariance of x and y (the variance when they
// are the same), with n - 1 in the denominator.
func sampleVar(x, y []float64) float64 {
	mx, my := mean(x), mean(y)
	s := 0.0
	for i := range x {
		s += float64((x[i] - mx) * (y[i] - my))
	}
	return s / float64(len(x)-1)
}

// figure2Claims are Figure 2's: on every data set AUL^PU's mean error is
// the closest to 0 and its errors have the smallest IQR. A data set where
// no estimator has errors is not compared: it neither passes nor fails.
func figure2Claims(rows []Row, srcs []string) []report.Claim {
	datasets, by := Errors(rows)
	closest, smallest := 0, 0
	var notClosest, notSmallest, uncompared []string
	for _, ds := range datasets {
		a := report.Box(by[ds][AULSeries])
		isClosest, isSmallest, compared := true, true, false
		for _, s := range srcs {
			b := report.Box(by[ds][s])
			if b.N == 0 || a.N == 0 {
				continue
			}
			compared = true
			if math.Abs(b.Mean) < math.Abs(a.Mean) {
				isClosest = false
			}
			if b.Q3-b.Q1 < a.Q3-a.Q1 {
				isSmallest = false
			}
		}
		switch {
		case !compared:
			uncompared = append(uncompared, ds)
			continue
		case isClosest:
			closest++
		default:
			notClosest = append(notClosest, ds)
		}
		if isSmallest {
			smallest++
		} else {
			notSmallest = append(notSmallest, ds)
		}
	}
	n := closest + len(notClosest)
	line := func(test string, passed int, failed []string) report.Claim {
		c := report.Claim{Item: "Figure 2", Test: test, Verdict: report.VerdictOver(passed, len(failed), len(uncompared)), Detail: fmt.Sprintf("(%d of %d)", passed, n)}
		if len(failed) > 0 {
			c.Detail += "; not on " + strings.Join(failed, ", ")
		}
		if len(uncompared) > 0 {
			c.Detail += "; no estimator's errors on " + strings.Join(uncompared, ", ")
		}
		return c
	}
	return []report.Claim{
		line("AUL^PU's mean error is the closest to 0 on every data set", closest, notClosest),
		line("AUL^PU's errors have the smallest IQR on every data set", smallest, notSmallest),
	}
}

// iqrClaim checks that the IQR of AUL^PU's errors shrinks as beta grows, on
// every data set with two betas or more; false when there is none.
func iqrClaim(rows []Row) (report.Claim, bool) {
	datasets, _ := Errors(rows)
	shrinks, checked := 0, 0
	var exceptions []string
	byDS := map[string][]Row{}
	for _, r := range rows {
		byDS[r.Dataset] = append(byDS[r.Dataset], r)
	}
	for _, ds := range datasets {
		rs := byDS[ds]
		if len(rs) < 2 {
			continue
		}
		checked++
		ok := true
		var iqrs []string
		for i, r := range rs {
			b := report.Box(r.AULErrors)
			iqrs = append(iqrs, fmt.Sprintf("%.4f", b.Q3-b.Q1))
			if i > 0 {
				p := report.Box(rs[i-1].AULErrors)
				ok = ok && b.Q3-b.Q1 < p.Q3-p.Q1
			}
		}
		if ok {
			shrinks++
		} else {
			exceptions = append(exceptions, ds+" "+strings.Join(iqrs, " > "))
		}
	}
	if checked == 0 {
		return report.Claim{}, false
	}
	c := report.Claim{Item: "Figure 2", Test: "the IQR of AUL^PU's errors shrinks as beta grows on every data set",
		Verdict: report.VerdictOf(shrinks == checked), Detail: fmt.Sprintf("(it does on %d of %d)", shrinks, checked)}
	if len(exceptions) > 0 {
		c.Detail += "; not on " + strings.Join(exceptions, "; ")
	}
	return c, true
}

// The comparison with the published AUL^PU MAEs: the scores' AUC within
// AUCMatch of the paper's in every row makes the rows comparable (the
// degraded scores); PaperRounding is half the last printed digit of the
// paper's MAEs and PaperSplits the number of splits each is a mean over
// (its standard error is that of PaperSplits splits, whatever these
// records' number). TheoremP is the chance that an MAE over a row's splits
// falls more than 2 standard errors from Theorem 1's prediction (the
// two-sided normal tail); ChanceLevel the level of the binomial bound on
// how many rows may do so by chance.
const (
	AUCMatch      = 0.002
	PaperRounding = 0.0005
	PaperSplits   = 50
	TheoremP      = 0.0455
	ChanceLevel   = 0.01
)

// TheoremClaims checks the rows' AUL^PU MAEs, and the published ones,
// against Theorem 1. Theorem 1 predicts MAE m = sqrt(2/pi) sd with a
// standard error se = sd sqrt((1 - 2/pi)/R) for an MAE over R splits
// (Row.PredictedAULMAE, Row.AULMAEStdErr).
//
// Table 1's acceptance: when the scores have the paper's AUCs, the
// published MAE, a mean over the paper's own 50 splits of scores with the
// same AUC, lies within 2 se (for 50 splits, plus its rounding) of m in every row, i.e.
// the paper's number is what these scores' sampling distribution gives.
// These records' own MAEs are each within 2 se of m with chance 1 -
// TheoremP, so the test on them allows as many rows outside as a
// Binomial(rows, TheoremP) exceeds with chance at most ChanceLevel
// (MaxOutside), and reports the chi-square of the standardized
// differences beside its degrees of freedom. It returns nil when no row
// has sd (records older than the sd:pu key).
func TheoremClaims(rows []Row, paper []PaperRow) []report.Claim {
	if !hasSD(rows) {
		return nil
	}
	desc := func(r Row, v, se float64) string {
		return fmt.Sprintf("%s beta %s (%.4f; predicted %.4f +- %.4f)", r.Dataset, g(r.Beta), v, r.PredictedAULMAE(), 2*se)
	}
	within, checked, chi2 := 0, 0, 0.0
	var outside []string
	for _, r := range rows {
		if math.IsNaN(r.SD) {
			continue
		}
		checked++
		z := (r.AULMAE() - r.PredictedAULMAE()) / r.AULMAEStdErr()
		chi2 += float64(z * z)
		if math.Abs(z) <= 2 {
			within++
		} else {
			outside = append(outside, desc(r, r.AULMAE(), r.AULMAEStdErr()))
		}
	}
	allow := MaxOutside(checked)
	theorem := report.Claim{Item: "Theorem 1",
		Test:    fmt.Sprintf("AUL^PU's MAE lies within 2 standard errors of the MAE the theorem predicts for these scores, sqrt(2/pi) sd, in every row but at most %d of %d (the rows a faithful run misses by chance with probability above %g)", allow, checked, ChanceLevel),
		Verdict: report.VerdictOf(checked-within <= allow),
		Detail:  fmt.Sprintf("(%d of %d within; chi-square of the standardized differences %.1f on %d degrees of freedom)", within, checked, chi2, checked)}
	if len(outside) > 0 {
		theorem.Detail += "; not in: " + strings.Join(outside, "; ")
	}
	out := []report.Claim{theorem}

	worst := 0.0
	var pairs []PaperRow
	for _, r := range rows {
		p, ok := findPaper(paper, r.Dataset, r.Beta)
		if !ok {
			return append(out, report.Claim{Item: "Published AUL^PU MAEs", Detail: "some rows have no published row; not compared"})
		}
		worst = math.Max(worst, math.Abs(r.AUC-p.AUC))
		pairs = append(pairs, p)
	}
	if worst > AUCMatch {
		return append(out, report.Claim{Item: "Published AUL^PU MAEs", Detail: fmt.Sprintf("not compared, since these scores' AUCs differ from the paper's by up to %.3f (more than %.3f); the degraded scores (scores: gbdt-oof-degraded) have the paper's AUCs", worst, AUCMatch)})
	}
	paperWithin, paperChecked := 0, 0
	var paperOutside []string
	for i, r := range rows {
		if math.IsNaN(r.SD) {
			continue
		}
		paperChecked++
		pm := pairs[i].MAE["aulpu"]
		se := float64(r.SD * math.Sqrt((1-2/math.Pi)/PaperSplits)) // the paper's MAE is over its own 50 splits
		allow := float64(2*se) + PaperRounding
		if math.Abs(pm-r.PredictedAULMAE()) <= allow {
			paperWithin++
		} else {
			paperOutside = append(paperOutside, desc(r, pm, se))
		}
	}
	against := report.Claim{Item: fmt.Sprintf("Table 1, published AUL^PU MAEs (the scores' AUCs within %.3f of the paper's)", AUCMatch),
		Test:    fmt.Sprintf("the paper's MAE lies within 2 standard errors (plus %.4f, the printed rounding) of Theorem 1's prediction for these scores in every row", PaperRounding),
		Verdict: report.VerdictOf(paperWithin == paperChecked && paperChecked > 0),
		Detail:  fmt.Sprintf("(%d of %d)", paperWithin, paperChecked)}
	if len(paperOutside) > 0 {
		against.Detail += "; not in: " + strings.Join(paperOutside, "; ")
	}
	return append(out, against)
}

// MaxOutside is the most rows of n whose MAE may lie outside 2 standard
// errors of Theorem 1's prediction by chance: the smallest k with
// P(Binomial(n, TheoremP) > k) <= ChanceLevel.
func MaxOutside(n int) int {
	p, q := TheoremP, 1-TheoremP
	pk := math.Pow(q, float64(n)) // P(X = 0)
	cdf := pk
	for k := 0; k < n; k++ {
		if 1-cdf <= ChanceLevel {
			return k
		}
		pk = float64(pk * (float64(n-k) / float64(k+1) * p / q))
		cdf += pk
	}
	return n
}

// TimingTable is the mean milliseconds per split of each estimator by data set,
// from the records' timings.
func TimingTable(rows []Row) (report.Table, bool) {
	var ids []string
	for _, r := range rows {
		for id := range r.Seconds {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	t := report.Table{Caption: "Estimator time: mean milliseconds per split on this machine (the paper: KM 4 s at 1,000 and 2,000 s at 8,000 rows; DistCurve 16 s at 8,000 rows; Zeiberg et al. 2020: KM2 2,818 s, DistCurve 66 s, AlphaMax 70 s). KM1 and KM2 share one run, counted under the first; DistCurve and AlphaMax-N count their own work, not the labeled-vs-unlabeled classifier whose scores they read; an estimate read from the estimate cache counts only its lookup",
		Labels: []report.Column{{Name: "data"}, {Name: "beta", LaTeX: `$\beta$`}, {Name: "n"}}}
	for _, id := range ids {
		t.Values = append(t.Values, report.Column{Name: id + " (ms)", CSV: id + "_ms"})
	}
	for _, r := range rows {
		var v []float64
		for _, id := range ids {
			s, ok := r.Seconds[id]
			if !ok {
				s = math.NaN()
			}
			v = append(v, 1000*s)
		}
		t.Rows = append(t.Rows, report.Row{Labels: []report.Label{{Text: r.Dataset}, {Text: g(r.Beta)}, {Text: fmt.Sprint(r.N)}}, Values: v})
	}
	return t, len(ids) > 0
}

// rowsWon counts the rows where AUL^PU's MAE is below the MAE of every
// source in srcs, of the rows compared, and describes the others. A row
// where no source has an MAE is not compared: against nothing (+Inf) it
// would count as won.
func rowsWon(rows []Row, srcs []string) (won, compared int, lost []string) {
	for _, r := range rows {
		best, bestSrc := math.Inf(1), ""
		for _, s := range srcs {
			if m := r.MAE(s); !math.IsNaN(m) && m < best {
				best, bestSrc = m, s
			}
		}
		if bestSrc == "" || math.IsNaN(r.AULMAE()) {
			continue
		}
		compared++
		if r.AULMAE() < best {
			won++
		} else {
			lost = append(lost, fmt.Sprintf("%s beta %s (AUL^PU %.4f, %s %.4f)", r.Dataset, g(r.Beta), r.AULMAE(), bestSrc, best))
		}
	}
	return won, compared, lost
}
