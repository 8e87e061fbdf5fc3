package benchevaluate

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/evaluate"
)

// TableMetrics are the numbers the tables report (the JSON holds every
// number evaluate gives).
var TableMetrics = []string{"auc", "aucpr", "f1", "mcc"}

// BadTol is the largest |recovered - truth| of a good case.
const BadTol = 0.05

// metricAccess reads a metric, recovered and true, by name.
var metricAccess = map[string]struct {
	recovered func(evaluate.Metrics) evaluate.Metric
	truth     func(evaluate.Headline) evaluate.Float
}{
	"auc":   {func(m evaluate.Metrics) evaluate.Metric { return m.AUC }, func(h evaluate.Headline) evaluate.Float { return h.AUC }},
	"aucpr": {func(m evaluate.Metrics) evaluate.Metric { return m.AUCPR }, func(h evaluate.Headline) evaluate.Float { return h.AUCPR }},
	"acc":   {func(m evaluate.Metrics) evaluate.Metric { return m.Acc }, func(h evaluate.Headline) evaluate.Float { return h.Acc }},
	"bacc":  {func(m evaluate.Metrics) evaluate.Metric { return m.BAcc }, func(h evaluate.Headline) evaluate.Float { return h.BAcc }},
	"f1":    {func(m evaluate.Metrics) evaluate.Metric { return m.F1 }, func(h evaluate.Headline) evaluate.Float { return h.F1 }},
	"mcc":   {func(m evaluate.Metrics) evaluate.Metric { return m.MCC }, func(h evaluate.Headline) evaluate.Float { return h.MCC }},
}

// Outcome is one recovered number with its interval against its truth;
// NaN marks what is missing (no recovered number, no interval).
type Outcome struct {
	Truth, Recovered, Low, High float64
}

// outcome is a run's outcome for a metric of a case; an unknown metric's
// is all NaN (and so counted nowhere).
func outcome(c CaseResult, r *RunResult, name string) Outcome {
	nan := math.NaN()
	o := Outcome{Truth: nan, Recovered: nan, Low: nan, High: nan}
	acc, ok := metricAccess[name]
	if !ok {
		return o
	}
	o.Truth = float64(acc.truth(c.Truth))
	if r == nil {
		return o
	}
	m := acc.recovered(r.Metrics)
	o.Recovered = float64(m.Recovered)
	if m.Interval != nil {
		o.Low, o.High = float64(m.Interval.Low), float64(m.Interval.High)
	}
	return o
}

// HasValue says whether there is a recovered number, HasInterval whether
// there is an interval.
func (o Outcome) HasValue() bool    { return !math.IsNaN(o.Recovered) }
func (o Outcome) HasInterval() bool { return !math.IsNaN(o.Low) && !math.IsNaN(o.High) }

// Covers says whether the interval holds the truth (ends included).
func (o Outcome) Covers() bool { return o.HasInterval() && o.Low <= o.Truth && o.Truth <= o.High }

// Outside says whether the recovered number lies outside its own interval.
func (o Outcome) Outside() bool {
	return o.HasInterval() && o.HasValue() && (o.Recovered < o.Low || o.Recovered > o.High)
}

// Bad says whether the outcome misleads: no recovered number, no interval,
// an interval that misses the truth, or an error above BadTol.
func (o Outcome) Bad() bool {
	return !o.HasValue() || !o.Covers() || math.Abs(o.Recovered-o.Truth) > BadTol
}

// Tally accumulates outcomes. Coverage counts an outcome without an
// interval as a miss (the practitioner got no interval that holds the
// truth); width and the outside rate are over the outcomes with an
// interval, the mean absolute error over those with a recovered number.
type Tally struct {
	N            int     `json:"n"`
	Valued       int     `json:"valued"`
	WithInterval int     `json:"with_interval"`
	Covered      int     `json:"covered"`
	Outside      int     `json:"outside"`
	SumAbsErr    float64 `json:"sum_abs_err"`
	SumWidth     float64 `json:"sum_width"`
}

// Add counts an outcome; one without a truth is skipped.
func (t *Tally) Add(o Outcome) {
	if math.IsNaN(o.Truth) {
		return
	}
	t.N++
	if o.HasValue() {
		t.Valued++
		t.SumAbsErr += math.Abs(o.Recovered - o.Truth)
	}
	if o.HasInterval() {
		t.WithInterval++
		t.SumWidth += o.High - o.Low
		if o.Covers() {
			t.Covered++
		}
		if o.Outside() {
			t.Outside++
		}
	}
}

func ratio(a float64, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / float64(b)
}

// Coverage is the fraction of outcomes whose interval holds the truth.
func (t Tally) Coverage() float64 { return ratio(float64(t.Covered), t.N) }

// MeanWidth is the mean interval width.
func (t Tally) MeanWidth() float64 { return ratio(t.SumWidth, t.WithInterval) }

// MAE is the mean absolute error of the recovered numbers.
func (t Tally) MAE() float64 { return ratio(t.SumAbsErr, t.Valued) }

// OutsideRate is the fraction of intervals that miss their own point.
func (t Tally) OutsideRate() float64 { return ratio(float64(t.Outside), t.WithInterval) }

// Group is a named subset of the cases.
type Group struct {
	Name string
	Keep func(CaseResult) bool
}

// Band names the decade of a size: "10^k" for 10^k <= n < 10^(k+1).
func Band(n int) string {
	k := 0
	for m := n; m >= 10; m /= 10 {
		k++
	}
	return fmt.Sprintf("10^%d", k)
}

// groupsOf lists the groups of the tables: all cases, then by size band,
// beta, alpha, model and scale (a factor with one level is left out; the
// scales only over the splits and models evaluated on every scale).
func groupsOf(cases []CaseResult) []Group {
	gs := []Group{{"all", func(CaseResult) bool { return true }}}
	factor := func(label string, of func(CaseResult) string, less func(a, b string) int) {
		var levels []string
		for _, c := range cases {
			if v := of(c); !slices.Contains(levels, v) {
				levels = append(levels, v)
			}
		}
		if len(levels) < 2 {
			return
		}
		slices.SortFunc(levels, less)
		for _, v := range levels {
			gs = append(gs, Group{label + " " + v, func(c CaseResult) bool { return of(c) == v }})
		}
	}
	num := func(s string) float64 {
		v, _ := strconv.ParseFloat(strings.TrimPrefix(s, "10^"), 64)
		return v
	}
	byNumber := func(a, b string) int { return cmp.Compare(num(a), num(b)) }
	factor("n", func(c CaseResult) string { return Band(c.N) }, byNumber)
	factor("beta", func(c CaseResult) string { return fmt.Sprint(c.Split.Beta) }, func(a, b string) int { return -byNumber(a, b) })
	factor("alpha", func(c CaseResult) string { return fmt.Sprint(c.Split.Alpha) }, byNumber)
	factor("model", func(c CaseResult) string { return c.Model }, strings.Compare)
	// The scales are compared on the splits and models that have all of
	// them (paired), not on every raw case.
	scaled := map[string]bool{}
	for _, c := range cases {
		if c.Scale != ScaleRaw {
			scaled[c.scoresID()] = true
		}
	}
	factor("scale", func(c CaseResult) string {
		if !scaled[c.scoresID()] {
			return ""
		}
		return c.Scale + " (paired)"
	}, strings.Compare)
	return slices.DeleteFunc(gs, func(g Group) bool { return g.Name == "scale " })
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MetricRow is one group's tallies, one per TableMetrics name, for one
// kind of run.
type MetricRow struct {
	Group   string           `json:"group"`
	Cases   int              `json:"cases"`
	Metrics map[string]Tally `json:"metrics"`
}

// metricRows tallies the run that pick returns (nil: none) over the
// groups; a case with an error or without that run is left out.
func metricRows(cases []CaseResult, groups []Group, pick func(CaseResult) *RunResult) []MetricRow {
	var rows []MetricRow
	for _, g := range groups {
		row := MetricRow{Group: g.Name, Metrics: map[string]Tally{}}
		for _, c := range cases {
			r := pick(c)
			if c.Error != "" || r == nil || !g.Keep(c) {
				continue
			}
			row.Cases++
			for _, m := range TableMetrics {
				t := row.Metrics[m]
				t.Add(outcome(c, r, m))
				row.Metrics[m] = t
			}
		}
		if row.Cases > 0 {
			rows = append(rows, row)
		}
	}
	return rows
}

// aloneRun is a case's run with the named estimator alone, or nil.
func aloneRun(c CaseResult, name string) *RunResult {
	for i := range c.Alone {
		if c.Alone[i].Mode == "alone:"+name {
			return &c.Alone[i]
		}
	}
	return nil
}

// BadAUC says whether a case's headline AUC, with estimated priors,
// misleads (Outcome.Bad); BadAny whether any of TableMetrics does.
func BadAUC(c CaseResult) bool { return outcome(c, c.Estimated, "auc").Bad() }
func BadAny(c CaseResult) bool {
	for _, m := range TableMetrics {
		if outcome(c, c.Estimated, m).Bad() {
			return true
		}
	}
	return false
}

// WarningRow is how a warning code fired over the cases (estimated
// priors) against the two definitions of a bad case.
type WarningRow struct {
	Code        string `json:"code"`
	Fired       int    `json:"fired"`
	FiredBadAUC int    `json:"fired_bad_auc"`
	FiredBadAny int    `json:"fired_bad_any"`
}

// WarningTable is every code's row, with the number of cases and of bad
// ones (the recall's denominators).
type WarningTable struct {
	Cases  int          `json:"cases"`
	BadAUC int          `json:"bad_auc"`
	BadAny int          `json:"bad_any"`
	Rows   []WarningRow `json:"rows"`
}

// Precision is the fraction of the cases where a code fired that were bad;
// Recall the fraction of the bad cases where it fired.
func Precision(firedBad, fired int) float64 { return ratio(float64(firedBad), fired) }
func Recall(firedBad, bad int) float64      { return ratio(float64(firedBad), bad) }

// SilentRate is the fraction bad of the cases where a code did not fire,
// from the numbers of bad cases and of cases in all and where it fired.
func SilentRate(bad, firedBad, cases, fired int) float64 {
	return ratio(float64(bad-firedBad), cases-fired)
}

// firedCodes are the codes of a case's estimated run, each once: evaluate's
// warning codes; "estimator-warning:<method>" and
// "estimator-failed:<method>" for each estimator's own (structured:
// EstimatorResult.Warnings and Error); "any warning" when any fired and
// "no warning" when none did.
func firedCodes(c CaseResult) []string {
	var codes []string
	add := func(s string) {
		if !slices.Contains(codes, s) {
			codes = append(codes, s)
		}
	}
	for _, w := range c.Estimated.Warnings {
		add(w.Code)
	}
	for _, e := range c.Estimated.Estimators {
		if e.Error != "" {
			add(evaluate.WarnEstimatorFailed + ":" + e.Method)
		}
		if len(e.Warnings) > 0 {
			add(evaluate.WarnEstimator + ":" + e.Method)
		}
	}
	if len(c.Estimated.Warnings) > 0 {
		add("any warning")
	} else {
		add("no warning")
	}
	return codes
}

// warningTable tallies the warnings of the cases' estimated runs.
func warningTable(cases []CaseResult) WarningTable {
	var t WarningTable
	rows := map[string]*WarningRow{}
	for _, c := range cases {
		if c.Error != "" || c.Estimated == nil {
			continue
		}
		t.Cases++
		badAUC, badAny := BadAUC(c), BadAny(c)
		t.BadAUC += boolInt(badAUC)
		t.BadAny += boolInt(badAny)
		for _, code := range firedCodes(c) {
			r := rows[code]
			if r == nil {
				r = &WarningRow{Code: code}
				rows[code] = r
			}
			r.Fired++
			r.FiredBadAUC += boolInt(badAUC)
			r.FiredBadAny += boolInt(badAny)
		}
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, *r)
	}
	slices.SortFunc(t.Rows, func(a, b WarningRow) int { return strings.Compare(a.Code, b.Code) })
	return t
}

// EstimatorRow tallies one estimator's estimates against the truth over a
// group: errors of alpha, beta and beta - alpha (absolute and signed:
// estimate - truth), the recovered AUC's error under its priors, and the
// coverage of its own alpha and beta intervals (runs with it alone).
type EstimatorRow struct {
	Method   string `json:"method"`
	Group    string `json:"group"`
	Cases    int    `json:"cases"`
	Failed   int    `json:"failed"`
	Unusable int    `json:"unusable"`
	// Alpha, Beta and Gap are over the cases with an estimate.
	Alpha, Beta, Gap ErrorTally
	AUC              Tally `json:"auc"`
	// AlphaCovered and BetaCovered count the alone runs whose interval
	// holds the true alpha and beta, of Intervals runs.
	Intervals    int `json:"intervals"`
	AlphaCovered int `json:"alpha_covered"`
	BetaCovered  int `json:"beta_covered"`
}

// ErrorTally accumulates signed errors.
type ErrorTally struct {
	N      int     `json:"n"`
	SumAbs float64 `json:"sum_abs"`
	Sum    float64 `json:"sum"`
}

func (e *ErrorTally) add(err float64) {
	e.N++
	e.SumAbs += math.Abs(err)
	e.Sum += err
}

// MAE is the mean absolute error, Bias the mean signed error.
func (e ErrorTally) MAE() float64  { return ratio(e.SumAbs, e.N) }
func (e ErrorTally) Bias() float64 { return ratio(e.Sum, e.N) }

// estimatorRows tallies every estimator of the cases' estimated runs over
// the groups.
func estimatorRows(cases []CaseResult, groups []Group) []EstimatorRow {
	var methods []string
	for _, c := range cases {
		if c.Estimated == nil {
			continue
		}
		for _, e := range c.Estimated.Estimators {
			if !slices.Contains(methods, e.Method) {
				methods = append(methods, e.Method)
			}
		}
	}
	var rows []EstimatorRow
	for _, m := range methods {
		for _, g := range groups {
			row := EstimatorRow{Method: m, Group: g.Name}
			for _, c := range cases {
				if c.Error == "" && c.Estimated != nil && g.Keep(c) {
					row.add(c)
				}
			}
			if row.Cases > 0 {
				rows = append(rows, row)
			}
		}
	}
	return rows
}

// add counts a case's estimate by the row's estimator.
func (row *EstimatorRow) add(c CaseResult) {
	i := slices.IndexFunc(c.Estimated.Estimators, func(e evaluate.EstimatorResult) bool { return e.Method == row.Method })
	if i < 0 {
		return
	}
	e := c.Estimated.Estimators[i]
	row.Cases++
	if e.Error != "" {
		row.Failed++
		return
	}
	a, b := float64(e.Alpha), float64(e.Beta)
	row.Alpha.add(a - c.Alpha)
	row.Beta.add(b - c.Beta)
	row.Gap.add((b - a) - (c.Beta - c.Alpha))
	if e.Recovered == nil {
		row.Unusable++
	}
	o := Outcome{Truth: float64(c.Truth.AUC), Recovered: math.NaN(), Low: math.NaN(), High: math.NaN()}
	if e.Recovered != nil {
		o.Recovered = float64(e.Recovered.AUC)
	}
	row.AUC.Add(o)
	if r := aloneRun(c, row.Method); r != nil && r.Priors.AlphaInterval != nil && r.Priors.BetaInterval != nil {
		row.Intervals++
		ai, bi := r.Priors.AlphaInterval, r.Priors.BetaInterval
		row.AlphaCovered += boolInt(float64(ai.Low) <= c.Alpha && c.Alpha <= float64(ai.High))
		row.BetaCovered += boolInt(float64(bi.Low) <= c.Beta && c.Beta <= float64(bi.High))
	}
}
