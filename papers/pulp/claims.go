package pulp

import (
	"fmt"
	"math"
	"strings"

	"github.com/pueval/pueval/report"
)

// Thresholds of the claims (the specification's).
const (
	RandomSpread  = 0.1  // claim 1: max - min of the random row
	RandomPULPMin = 0.85 // claim 1: PULP's random rank correlation
	HighPULP      = 0.9  // claim 5: PULP's rho at every Pr[y=1] < 0.5
	F1PseudoFTol  = 0.01 // claim 8
)

// values returns Table 1's values of a row by measure key, and whether
// every measure has one.
func rowValues(a Analysis, stat, labeling string) (map[string]float64, bool) {
	out := map[string]float64{}
	all := true
	for _, m := range Measures {
		v, _ := a.GridMean(stat, labeling, m.Key)
		out[m.Key] = v
		all = all && !math.IsNaN(v)
	}
	return out, all
}

func hasLabeling(a Analysis, l string) bool {
	for _, x := range a.Labelings {
		if x == l {
			return true
		}
	}
	return false
}

// listRow writes "AUC 0.918, F1 0.903, ..." in the paper's order.
func listRow(v map[string]float64) string {
	var s []string
	for _, m := range Measures {
		s = append(s, fmt.Sprintf("%s %s", m.Label, f3(v[m.Key])))
	}
	return strings.Join(s, ", ")
}

func f3(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}

// extreme returns the key of the largest (or smallest) value, skipping NaN.
func extreme(v map[string]float64, largest bool) string {
	k := ""
	for _, m := range Measures {
		x := v[m.Key]
		if math.IsNaN(x) {
			continue
		}
		if k == "" || (largest && x > v[k]) || (!largest && x < v[k]) {
			k = m.Key
		}
	}
	return k
}

// extremeOther returns the key of the largest (or smallest) value other
// than except's, skipping NaN ("" when none).
func extremeOther(v map[string]float64, except string, largest bool) string {
	w := map[string]float64{}
	for k, x := range v {
		if k != except {
			w[k] = x
		} else {
			w[k] = math.NaN()
		}
	}
	return extreme(w, largest)
}

// beats counts the other measures that key's value beats (is above, when
// largest, else below, by more than margin(other)), that it does not beat so, and that have no value to
// compare; the counts make the verdict (report.VerdictOver), so that a
// measure without a value neither helps nor refutes "the best of the eight".
func beats(v map[string]float64, key string, largest bool, margin func(other string) float64) (passed, failed, missing int) {
	for _, m := range Measures {
		x := v[m.Key]
		d := v[key] - x
		if !largest {
			d = -d
		}
		switch {
		case m.Key == key:
		case math.IsNaN(x):
			missing++
		case d > margin(m.Key):
			passed++
		default:
			failed++
		}
	}
	return passed, failed, missing
}

// diffMargin is the margin a difference of the analysis' Table-1 values
// must exceed for a comparison to hold: MarginSEs bootstrap standard errors
// over the problems of the difference diff, or 0 (a bare comparison)
// for an analysis without a bootstrap (built by hand, or from one problem).
func (a Analysis) diffMargin(diff func(Rows) float64) float64 {
	if a.Noise == nil || len(a.Noise.Replicates) == 0 {
		return 0
	}
	se := a.Noise.seOf(diff)
	if math.IsNaN(se) {
		return 0
	}
	return MarginSEs * se
}

// marginText says what margin the comparisons of a claim needed.
func (a Analysis) marginText() string {
	if a.Noise == nil || len(a.Noise.Replicates) == 0 {
		return "; no bootstrap (fewer than two problems): bare comparison"
	}
	return fmt.Sprintf("; a win needs a margin of %d bootstrap SEs of the difference (%d resamples of the %d problems)", MarginSEs, len(a.Noise.Replicates), a.Noise.Problems)
}

// otherText is ", the largest other X 0.123", or says there is none.
func otherText(which, other string, v map[string]float64) string {
	if other == "" {
		return ", no other measure has a value"
	}
	return fmt.Sprintf(", the %s other %s %.3f", which, measureLabel(other), v[other])
}

// withFoldMeans sets a claim's verdict and detail from check on the
// analysis (the per-fold view, the specification's) and, where that is
// checked and a.FoldMeans is there, appends to the detail in brackets what
// check measures on the fold means and how the test comes out there. The
// verdict stays the per-fold one: the bracket is for judging how much of a
// failure is fold noise, not a second chance to pass.
func withFoldMeans(c report.Claim, a Analysis, check func(Analysis) (report.Verdict, string)) report.Claim {
	c.Verdict, c.Detail = check(a)
	if c.Verdict == report.NotChecked || a.FoldMeans == nil {
		return c
	}
	v, d := check(*a.FoldMeans)
	if v == report.NotChecked {
		c.Detail += " [fold means: " + d + "]"
	} else {
		c.Detail += fmt.Sprintf(" [fold means: %s; the test %s on them]", d, v)
	}
	return c
}

// FoldMeansClaimsNote says what the brackets of claims 1-5 are.
const FoldMeansClaimsNote = "Claims 1-5 (the rank correlations) give in brackets the same measurement over the configurations' fold means (Table 1 (fold means)) " +
	"and how the test comes out there; the verdicts are on the per-fold values, the specification's reading of the paper's 8-fold CV."

// Claims checks the paper's claims on the analysis.
func Claims(a Analysis) []report.Claim {
	return []report.Claim{claim1(a), claim2(a), claim3(a), claim4(a), claim5(a), claim6(a), claim7(a), claim8(a)}
}

func claim1(a Analysis) report.Claim {
	c := report.Claim{N: 1, Item: "Sec. 4, Fig. 2 (left), Table 1",
		Paper: "\"the rank correlations stay close for all measures in the random labeling case\" (Table 1, random: 0.837 (MI) to 0.923 (PEAR), a spread of 0.086; PULP 0.916)",
		Test:  fmt.Sprintf("random labeling: max - min of the eight rank correlations <= %.1f and PULP's >= %.2f", RandomSpread, RandomPULPMin)}
	return withFoldMeans(c, a, check1)
}

func check1(a Analysis) (report.Verdict, string) {
	if !hasLabeling(a, Random) {
		return report.NotChecked, "no records with labeling random"
	}
	v, all := rowValues(a, StatRank, Random)
	if !all {
		return report.NotChecked, "a measure has no rank correlation: " + listRow(v)
	}
	hi, lo := extreme(v, true), extreme(v, false)
	spread := v[hi] - v[lo]
	return report.VerdictOf(spread <= RandomSpread && v["pulp"] >= RandomPULPMin), fmt.Sprintf("spread %.3f (%s %.3f - %s %.3f), PULP %.3f; the row: %s",
		spread, measureLabel(hi), v[hi], measureLabel(lo), v[lo], v["pulp"], listRow(v))
}

func claim2(a Analysis) report.Claim {
	c := report.Claim{N: 2, Item: "Sec. 4, Fig. 2 (right), Table 1",
		Paper: "\"PULP is affected the least by the non-random sampling\" (Table 1, Scenario 2: PULP 0.769, the next PEAR 0.504)",
		Test:  fmt.Sprintf("Scenario 2 (the most representative positives left unlabeled): PULP's rank correlation exceeds each other measure's by more than %d bootstrap SEs (over the problems) of the difference", MarginSEs)}
	return withFoldMeans(c, a, check2)
}

func check2(a Analysis) (report.Verdict, string) {
	if !hasLabeling(a, Scenario2) {
		return report.NotChecked, "no records with labeling scenario2"
	}
	v, _ := rowValues(a, StatRank, Scenario2)
	if math.IsNaN(v["pulp"]) {
		return report.NotChecked, "PULP has no rank correlation: " + listRow(v)
	}
	other := extremeOther(v, "pulp", true)
	if other == "" {
		// Nothing to rank PULP against: the argmax would be vacuous.
		return report.NotChecked, fmt.Sprintf("PULP %.3f, no other measure has a value", v["pulp"])
	}
	margin := func(o string) float64 {
		return a.diffMargin(func(r Rows) float64 { return r.Rank[Scenario2]["pulp"] - r.Rank[Scenario2][o] })
	}
	return report.VerdictOver(beats(v, "pulp", true, margin)), fmt.Sprintf("PULP %.3f, the best other %s %.3f (margin needed %.3f); the row: %s%s",
		v["pulp"], measureLabel(other), v[other], margin(other), listRow(v), a.marginText())
}

func claim3(a Analysis) report.Claim {
	c := report.Claim{N: 3, Item: "Sec. 4, Table 1",
		Paper: "PULP \"is a better choice\" than L&L and Pseudo-F when the labeled positives are not selected completely at random (Table 1, Scenario 1: PULP 0.912, L&L 0.804)",
		Test:  fmt.Sprintf("Scenario 1 (the least representative positives left unlabeled): PULP's rank correlation exceeds L&L's by more than %d bootstrap SEs of the difference", MarginSEs)}
	return withFoldMeans(c, a, check3)
}

func check3(a Analysis) (report.Verdict, string) {
	if !hasLabeling(a, Scenario1) {
		return report.NotChecked, "no records with labeling scenario1"
	}
	v, _ := rowValues(a, StatRank, Scenario1)
	if math.IsNaN(v["pulp"]) || math.IsNaN(v["ll"]) {
		return report.NotChecked, "PULP or L&L has no rank correlation: " + listRow(v)
	}
	m := a.diffMargin(func(r Rows) float64 { return r.Rank[Scenario1]["pulp"] - r.Rank[Scenario1]["ll"] })
	d := v["pulp"] - v["ll"]
	ok := d > m || (m == 0 && d == 0) // a tie holds only in a bare comparison
	return report.VerdictOf(ok), fmt.Sprintf("PULP %.3f, L&L %.3f (difference %+.3f, margin needed %.3f)%s", v["pulp"], v["ll"], d, m, a.marginText())
}

func claim4(a Analysis) report.Claim {
	c := report.Claim{N: 4, Item: "Sec. 4, Fig. 2 (top row)",
		Paper: "\"all measures lose estimation accuracy as Pr[y = 1] increases over the unlabeled data samples\"",
		Test:  "in every scenario, every measure's rank correlation at the largest Pr[y=1] of the grid is below its value at the smallest"}
	return withFoldMeans(c, a, check4)
}

func check4(a Analysis) (report.Verdict, string) {
	if len(a.Pis) < 2 || len(a.Labelings) == 0 {
		return report.NotChecked, fmt.Sprintf("%d value(s) of Pr[y=1] in the records; two are needed", len(a.Pis))
	}
	lo, hi := a.Pis[0], a.Pis[len(a.Pis)-1]
	passed, failed, missing := 0, 0, 0
	var parts []string
	for _, l := range a.Labelings {
		falls := 0
		var not []string
		for _, m := range Measures {
			p0, ok0 := a.Point(l, lo, m.Key)
			p1, ok1 := a.Point(l, hi, m.Key)
			if !ok0 || !ok1 || math.IsNaN(p0.Rho) || math.IsNaN(p1.Rho) {
				not = append(not, m.Label+" (undefined)")
				missing++
				continue
			}
			if p1.Rho < p0.Rho {
				falls++
				passed++
			} else {
				not = append(not, fmt.Sprintf("%s %.3f -> %.3f", m.Label, p0.Rho, p1.Rho))
				failed++
			}
		}
		s := fmt.Sprintf("%s: %d of %d fall", LabelingName(l), falls, len(Measures))
		if len(not) > 0 {
			s += " (not: " + strings.Join(not, ", ") + ")"
		}
		parts = append(parts, s)
	}
	return report.VerdictOver(passed, failed, missing), fmt.Sprintf("from Pr[y=1] = %g to %g, %s", lo, hi, strings.Join(parts, "; "))
}

func claim5(a Analysis) report.Claim {
	c := report.Claim{N: 5, Item: "Sec. 4, Fig. 2 (top row)",
		Paper: "\"for all Pr[y = 1] values below 0.5, PULP scores a rank correlation that is above 90 percent regardless of the sampling scenario\"",
		Test:  fmt.Sprintf("PULP's rank correlation > %.1f at every Pr[y=1] < 0.5 in every scenario", HighPULP)}
	return withFoldMeans(c, a, check5)
}

func check5(a Analysis) (report.Verdict, string) {
	var below []float64
	for _, pi := range a.Pis {
		if pi < 0.5 {
			below = append(below, pi)
		}
	}
	if len(below) == 0 || len(a.Labelings) == 0 {
		return report.NotChecked, "no Pr[y=1] below 0.5 in the records"
	}
	passed := 0
	var parts, fails, undefined []string
	for _, l := range a.Labelings {
		var vs []string
		for _, pi := range below {
			p, found := a.Point(l, pi, "pulp")
			if !found || math.IsNaN(p.Rho) {
				vs = append(vs, fmt.Sprintf("%g -", pi))
				undefined = append(undefined, fmt.Sprintf("%s at %g", LabelingName(l), pi))
				continue
			}
			vs = append(vs, fmt.Sprintf("%g %.3f", pi, p.Rho))
			if p.Rho > HighPULP {
				passed++
			} else {
				fails = append(fails, fmt.Sprintf("%s at %g", LabelingName(l), pi))
			}
		}
		parts = append(parts, LabelingName(l)+": "+strings.Join(vs, ", "))
	}
	detail := "PULP's rho by Pr[y=1]: " + strings.Join(parts, "; ")
	if len(fails) > 0 {
		detail += "; not above " + fmt.Sprintf("%.1f", HighPULP) + ": " + strings.Join(fails, ", ")
	}
	if len(undefined) > 0 {
		detail += "; undefined: " + strings.Join(undefined, ", ")
	}
	return report.VerdictOver(passed, len(fails), len(undefined)), detail
}

func claim6(a Analysis) report.Claim {
	c := report.Claim{N: 6, Item: "Sec. 4, Table 1",
		Paper: "\"the standard deviation calculated over all MI outcomes is also the smallest\" (Table 1, overall SD: MI 0.061, the next F1 0.099)",
		Test:  fmt.Sprintf("MI's overall SD of the PU values is below each other measure's by more than %d bootstrap SEs of the difference", MarginSEs)}
	v := map[string]float64{}
	for _, m := range Measures {
		sd, ok := a.SD[m.Key]
		if !ok {
			sd = math.NaN()
		}
		v[m.Key] = sd
	}
	if math.IsNaN(v["mi"]) {
		c.Detail = "MI has fewer than two PU values"
		return c
	}
	other := extremeOther(v, "mi", false)
	// With no other SD, "the smallest" compares nothing: VerdictOver leaves
	// it unchecked.
	margin := func(o string) float64 { return a.diffMargin(func(r Rows) float64 { return r.SD[o] - r.SD["mi"] }) }
	c.Verdict = report.VerdictOver(beats(v, "mi", false, margin))
	c.Detail = fmt.Sprintf("MI %.3f%s; overall SDs: %s%s", v["mi"], otherText("smallest", other, v), listRow(v), a.marginText())
	return c
}

func claim7(a Analysis) report.Claim {
	c := report.Claim{N: 7, Item: "Table 1",
		Paper: "MAP has the largest mean absolute deviation in every scenario (Table 1: 0.370, 0.353, 0.356; the next 0.168, 0.166, 0.185)",
		Test:  fmt.Sprintf("in every scenario, MAP's MAD exceeds each other measure's by more than %d bootstrap SEs of the difference", MarginSEs)}
	if len(a.Labelings) == 0 {
		c.Detail = "no records"
		return c
	}
	passed, failed, missing := 0, 0, 0
	var parts []string
	for _, l := range a.Labelings {
		v, _ := rowValues(a, StatMAD, l)
		if math.IsNaN(v["map"]) {
			missing++
			parts = append(parts, LabelingName(l)+": MAP's MAD undefined")
			continue
		}
		other := extremeOther(v, "map", true)
		margin := func(o string) float64 {
			return a.diffMargin(func(r Rows) float64 { return r.MAD[l]["map"] - r.MAD[l][o] })
		}
		p, f, m := beats(v, "map", true, margin)
		passed, failed, missing = passed+p, failed+f, missing+m
		parts = append(parts, fmt.Sprintf("%s: MAP %.3f%s", LabelingName(l), v["map"], otherText("largest", other, v)))
	}
	c.Verdict = report.VerdictOver(passed, failed, missing)
	c.Detail = strings.Join(parts, "; ") + a.marginText()
	return c
}

func claim8(a Analysis) report.Claim {
	c := report.Claim{N: 8, Item: "Table 1",
		Paper: "F1 and Pseudo-F have identical rank correlations in every scenario (Table 1: 0.903, 0.796, 0.474 in both columns), while their MADs differ",
		Test: fmt.Sprintf("the largest |rho(F1) - rho(Pseudo-F)| over the Table-1 rank rows <= %.2f. Why: on one fold, with N examples, t labeled and b predicted positive, "+
			"PU Pseudo-F = 2(k/t)/(b/N + t/N) = (N/t) x PU F1 = (N/t) 2k/(b + t) at every cut-off, so averaged over the cut-offs Pseudo-F = (N/t) F1 (and on the true labels (N/P) F1): "+
			"ranks coincide exactly when N and t (and P) are the same for every configuration of a fold: in pueval's protocol every problem has the same sizes and stratified folds, so they do; "+
			"with problems of different sizes (the paper's, or an ablation's) they can differ", F1PseudoFTol)}
	worst, worstAt, n, failed, missing := 0.0, "", 0, 0, 0
	var parts []string
	for _, l := range a.Labelings {
		v, _ := rowValues(a, StatRank, l)
		if math.IsNaN(v["f1"]) || math.IsNaN(v["pseudo-f"]) {
			missing++
			parts = append(parts, fmt.Sprintf("%s: F1 %s, Pseudo-F %s", LabelingName(l), f3(v["f1"]), f3(v["pseudo-f"])))
			continue
		}
		n++
		d := math.Abs(v["f1"] - v["pseudo-f"])
		parts = append(parts, fmt.Sprintf("%s: F1 %.3f, Pseudo-F %.3f", LabelingName(l), v["f1"], v["pseudo-f"]))
		if d > F1PseudoFTol {
			failed++
		}
		if d >= worst {
			worst, worstAt = d, LabelingName(l)
		}
	}
	if n == 0 {
		c.Detail = "F1 or Pseudo-F has no rank correlation"
		return c
	}
	// The per-(scenario, Pr[y=1]) differences, for the record.
	pointWorst, pointAt := 0.0, ""
	for _, l := range a.Labelings {
		for _, pi := range a.Pis {
			p, ok1 := a.Point(l, pi, "f1")
			q, ok2 := a.Point(l, pi, "pseudo-f")
			if ok1 && ok2 && !math.IsNaN(p.Rho) && !math.IsNaN(q.Rho) {
				if d := math.Abs(p.Rho - q.Rho); d >= pointWorst {
					pointWorst, pointAt = d, fmt.Sprintf("%s at Pr[y=1] %g", LabelingName(l), pi)
				}
			}
		}
	}
	c.Verdict = report.VerdictOver(n-failed, failed, missing)
	c.Detail = fmt.Sprintf("largest difference %.4f (%s); %s; per (scenario, Pr[y=1]) the largest difference is %.4f (%s)",
		worst, worstAt, strings.Join(parts, "; "), pointWorst, pointAt)
	return c
}
