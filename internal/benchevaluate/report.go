package benchevaluate

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/pueval/pueval/evaluate"
)

// table is a Markdown table being written.
type table struct {
	head []string
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// write writes the table with its columns padded to a common width, so
// that it reads on a terminal as well as in Markdown.
func (t *table) write(w io.Writer) {
	width := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for j, c := range r {
			width[j] = max(width[j], len(c))
		}
	}
	line := func(r []string) {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = c + strings.Repeat(" ", width[j]-len(c))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	line(t.head)
	sep := make([]string, len(t.head))
	for j := range sep {
		sep[j] = strings.Repeat("-", width[j])
	}
	line(sep)
	for _, r := range t.rows {
		line(r)
	}
	fmt.Fprintln(w)
}

// f formats a number with d decimals, "-" when it is NaN.
func f(x float64, d int) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.*f", d, x)
}

var metricTitle = map[string]string{"auc": "AUC", "aucpr": "AUC-PR", "f1": "F1", "mcc": "MCC"}

// metricHead is the header of a table of MetricRows after the leading
// columns.
func metricHead(lead ...string) []string {
	h := append(slices.Clone(lead), "cases")
	for _, m := range TableMetrics {
		h = append(h, metricTitle[m]+" cov", "width", "MAE")
	}
	return append(h, "point outside", "no interval")
}

// metricCells are a MetricRow's cells: per metric coverage, mean width and
// mean absolute error; then the fraction of (case, metric) intervals that
// miss their own point, and the cases without an AUC interval.
func metricCells(r MetricRow) []string {
	cells := []string{fmt.Sprint(r.Cases)}
	outside, with := 0, 0
	for _, m := range TableMetrics {
		t := r.Metrics[m]
		cells = append(cells, f(t.Coverage(), 2), f(t.MeanWidth(), 3), f(t.MAE(), 3))
		outside += t.Outside
		with += t.WithInterval
	}
	return append(cells, f(ratio(float64(outside), with), 3), fmt.Sprint(r.Metrics["auc"].N-r.Metrics["auc"].WithInterval))
}

// WriteTables writes the benchmark's tables in Markdown: a summary, then
// for the tuning and the validation set each the headline numbers with
// estimated and with given priors, each estimator alone, the estimators'
// errors and the warnings' precision.
func WriteTables(w io.Writer, res *Result) {
	fmt.Fprintf(w, "# bench-evaluate: design %s, seed %d, %d bootstrap resamples, %d cases\n\n", res.Design, res.Seed, res.Bootstrap, len(res.Cases))
	writeFailures(w, res.Cases)
	sets := []struct {
		name  string
		cases []CaseResult
	}{
		{"tuning", filterCases(res.Cases, false)},
		{"validation", filterCases(res.Cases, true)},
	}
	fmt.Fprintf(w, "## Summary\n\n")
	sum := table{head: metricHead("set", "priors")}
	all := func(CaseResult) bool { return true }
	for _, s := range append(sets, struct {
		name  string
		cases []CaseResult
	}{"all", res.Cases}) {
		for _, p := range []string{"estimated", "given"} {
			rows := metricRows(s.cases, []Group{{"all", all}}, pickRun(p))
			if len(rows) > 0 {
				sum.add(append([]string{s.name, p}, metricCells(rows[0])...)...)
			}
		}
	}
	sum.write(w)
	for _, s := range sets {
		if len(s.cases) > 0 {
			writeSet(w, s.name, s.cases, res.AloneMaxRows)
		}
	}
}

// filterCases returns the cases of the validation set or of the tuning set.
func filterCases(cases []CaseResult, validation bool) []CaseResult {
	var out []CaseResult
	for _, c := range cases {
		if c.Validation == validation {
			out = append(out, c)
		}
	}
	return out
}

// pickRun returns a case's estimated or given run.
func pickRun(mode string) func(CaseResult) *RunResult {
	return func(c CaseResult) *RunResult {
		if mode == "given" {
			return c.Given
		}
		return c.Estimated
	}
}

func writeFailures(w io.Writer, cases []CaseResult) {
	var failed []string
	for _, c := range cases {
		if c.Error != "" {
			failed = append(failed, fmt.Sprintf("- %s: %s", c.ID, c.Error))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(w, "%d cases failed and are left out of every table:\n\n%s\n\n", len(failed), strings.Join(failed, "\n"))
	}
}

// writeSet writes the tables of one set of cases.
func writeSet(w io.Writer, name string, cases []CaseResult, aloneMaxRows int) {
	var sources []string
	for _, c := range cases {
		if !slices.Contains(sources, c.Source) {
			sources = append(sources, c.Source)
		}
	}
	slices.Sort(sources)
	fmt.Fprintf(w, "## The %s set: %d cases from %s\n\n", name, len(cases), strings.Join(sources, ", "))
	groups := groupsOf(cases)
	for _, p := range []string{"estimated", "given"} {
		fmt.Fprintf(w, "### %s: headline numbers, %s priors\n\n", name, p)
		t := table{head: metricHead("group")}
		for _, r := range metricRows(cases, groups, pickRun(p)) {
			t.add(append([]string{r.Group}, metricCells(r)...)...)
		}
		t.write(w)
	}
	few := fewGroups(groups)
	fmt.Fprintf(w, "### %s: each estimator alone (its own priors and interval; cases up to %d rows)\n\n", name, aloneMaxRows)
	t := table{head: metricHead("estimator", "group")}
	for _, e := range evaluate.Applicable(false) {
		for _, r := range metricRows(cases, few, func(c CaseResult) *RunResult { return aloneRun(c, e) }) {
			t.add(append([]string{e, r.Group}, metricCells(r)...)...)
		}
	}
	t.write(w)
	writeEstimatorErrors(w, name, cases, few)
	writeWarnings(w, name, cases)
}

// fewGroups keeps all, the size bands and beta.
func fewGroups(groups []Group) []Group {
	var out []Group
	for _, g := range groups {
		if g.Name == "all" || strings.HasPrefix(g.Name, "n ") || strings.HasPrefix(g.Name, "beta ") {
			out = append(out, g)
		}
	}
	return out
}

func writeEstimatorErrors(w io.Writer, name string, cases []CaseResult, groups []Group) {
	fmt.Fprintf(w, "### %s: the estimators' errors (estimate - truth, every estimator of the estimated run; the intervals' coverage from the runs alone)\n\n", name)
	t := table{head: []string{"estimator", "group", "cases", "failed", "beta<=alpha", "alpha MAE", "alpha bias", "beta MAE", "beta bias",
		"beta-alpha MAE", "beta-alpha bias", "AUC MAE", "alpha int. cov", "beta int. cov"}}
	for _, r := range estimatorRows(cases, groups) {
		t.add(r.Method, r.Group, fmt.Sprint(r.Cases), fmt.Sprint(r.Failed), fmt.Sprint(r.Unusable),
			f(r.Alpha.MAE(), 3), f(r.Alpha.Bias(), 3), f(r.Beta.MAE(), 3), f(r.Beta.Bias(), 3),
			f(r.Gap.MAE(), 3), f(r.Gap.Bias(), 3), f(r.AUC.MAE(), 3),
			f(ratio(float64(r.AlphaCovered), r.Intervals), 2), f(ratio(float64(r.BetaCovered), r.Intervals), 2))
	}
	t.write(w)
}

func writeWarnings(w io.Writer, name string, cases []CaseResult) {
	wt := warningTable(cases)
	fmt.Fprintf(w, "### %s: warnings (estimated priors)\n\n", name)
	fmt.Fprintf(w, "A case is bad (AUC) when its recovered AUC is missing, has no interval, has an interval that misses the truth, or is off by more than %.2f: %d of %d cases. Bad (any): the same for any of AUC, AUC-PR, F1, MCC: %d of %d. Precision: of the cases where the code fired, the fraction bad; recall: of the bad cases, the fraction where it fired; silent: of the cases where it did not fire, the fraction bad (a code separates bad cases from good ones when its precision is well above its silent rate).\n\n",
		BadTol, wt.BadAUC, wt.Cases, wt.BadAny, wt.Cases)
	t := table{head: []string{"code", "fired", "precision (AUC)", "recall (AUC)", "silent (AUC)", "precision (any)", "recall (any)", "silent (any)"}}
	for _, r := range wt.Rows {
		t.add(r.Code, fmt.Sprint(r.Fired),
			f(Precision(r.FiredBadAUC, r.Fired), 2), f(Recall(r.FiredBadAUC, wt.BadAUC), 2), f(SilentRate(wt.BadAUC, r.FiredBadAUC, wt.Cases, r.Fired), 2),
			f(Precision(r.FiredBadAny, r.Fired), 2), f(Recall(r.FiredBadAny, wt.BadAny), 2), f(SilentRate(wt.BadAny, r.FiredBadAny, wt.Cases, r.Fired), 2))
	}
	t.write(w)
}
