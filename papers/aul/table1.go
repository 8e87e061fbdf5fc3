package aul

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Record keys the report reads.
const (
	aucMetric = "auc"
	aulMetric = "aul"
	betaAxis  = "known-positives"
	// TruePrior is the source of AUC^est with the split's true alpha_U.
	TruePrior = results.Real
)

var truthKey = results.TruthKey("same-model")

// Row is one data set and beta of Table 1: statistics over its splits.
type Row struct {
	Dataset string // the paper's name (the config's, without "-aul")
	Beta    float64
	Runs    int
	N       int
	Alpha   float64 // n_P/n
	// AUC and AUL are the evaluated classifier's true values (means over the
	// splits; constant when the scores are fixed per data set).
	AUC, AUL float64
	// Errors holds per source (estimator ID, or TruePrior) the signed errors
	// AUC^est - AUC of the splits; AULErrors those of AUL^PU - AUL.
	Errors    map[string][]float64
	AULErrors []float64
	// Identity counts the splits where (AUC^est(true prior) - AUC)(1 -
	// alpha) = AUL^PU - AUL holds to 1e-9, of IdentityChecked.
	Identity, IdentityChecked int
	// Seconds is the mean time per split of each estimator (Record.Timings
	// "estimator:ID"), when the records hold it.
	Seconds map[string]float64
	// SD is Theorem 1's standard deviation of AUL^PU over the splits (the
	// mean of the records' aul sd:pu, constant when the scores are fixed per
	// data set; NaN when no record holds it, as in records written before
	// the aul measure had it).
	SD float64
}

// PredictedAULMAE is the mean absolute error of AUL^PU that Theorem 1
// predicts: sqrt(2/pi) SD, the mean of |e| for a normal error e of mean 0
// (AUL^PU - AUL is the mean of a without-replacement sample: unbiased and
// nearly normal).
func (r Row) PredictedAULMAE() float64 { return float64(math.Sqrt(2/math.Pi) * r.SD) }

// AULMAEStdErr is the standard error of an MAE of AUL^PU over the row's
// Runs splits under the same model: the standard deviation of |e| is
// SD sqrt(1 - 2/pi), over sqrt(Runs).
func (r Row) AULMAEStdErr() float64 { return float64(r.SD * math.Sqrt((1-2/math.Pi)/float64(r.Runs))) }

// MAE is the mean absolute error of a source's AUC^est (NaN without errors).
func (r Row) MAE(src string) float64 { return meanAbs(r.Errors[src]) }

// AULMAE is the mean absolute error of AUL^PU.
func (r Row) AULMAE() float64 { return meanAbs(r.AULErrors) }

// PaperName is the paper's name of a config's data set: the catalog's AUL
// variants carry a "-aul" suffix (concrete-aul, landsat-aul, ...).
func PaperName(ds string) string { return strings.TrimSuffix(strings.ToLower(ds), "-aul") }

// Rows aggregates the ok records holding the auc and aul measures by data
// set and beta, in data-set then beta order.
func Rows(recs []results.Record) []Row {
	type key struct {
		ds   string
		beta float64
	}
	by := map[key]*Row{}
	secs := map[key]map[string][]float64{}
	var truthAUC, truthAUL, sds = map[key][]float64{}, map[key][]float64{}, map[key][]float64{}
	for _, r := range recs {
		auc, aul := r.Metrics[aucMetric], r.Metrics[aulMetric]
		if r.Status != results.StatusOK || auc == nil || aul == nil {
			continue
		}
		beta, err := strconv.ParseFloat(r.Grid[betaAxis], 64)
		if err != nil {
			continue
		}
		tAUC, ok1 := auc[truthKey]
		tAUL, ok2 := aul[truthKey]
		pu, ok3 := aul[results.PU]
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		k := key{PaperName(r.Dataset), beta}
		row := by[k]
		if row == nil {
			row = &Row{Dataset: k.ds, Beta: beta, N: r.Sizes.N, Errors: map[string][]float64{}}
			if r.Sizes.N > 0 {
				row.Alpha = float64(r.Sizes.NPos) / float64(r.Sizes.N)
			}
			by[k], secs[k] = row, map[string][]float64{}
		}
		row.Runs++
		truthAUC[k], truthAUL[k] = append(truthAUC[k], tAUC), append(truthAUL[k], tAUL)
		row.AULErrors = append(row.AULErrors, pu-tAUL)
		if sd, ok := aul[results.SDKey(results.PU)]; ok {
			sds[k] = append(sds[k], sd)
		}
		for key, v := range auc {
			if kind, src := results.SplitKey(key); kind == results.Direct {
				row.Errors[src] = append(row.Errors[src], v-tAUC)
			}
		}
		if d, ok := auc[results.RecoveryKey(results.Direct, TruePrior)]; ok {
			row.IdentityChecked++
			if math.Abs(float64((d-tAUC)*(1-row.Alpha))-(pu-tAUL)) <= 1e-9 {
				row.Identity++
			}
		}
		for name, s := range r.Timings {
			if id, ok := strings.CutPrefix(name, "estimator:"); ok {
				secs[k][id] = append(secs[k][id], s)
			}
		}
	}
	var rows []Row
	for k, row := range by {
		row.AUC, row.AUL, row.SD = mean(truthAUC[k]), mean(truthAUL[k]), mean(sds[k])
		if len(secs[k]) > 0 {
			row.Seconds = map[string]float64{}
			for id, s := range secs[k] {
				row.Seconds[id] = mean(s)
			}
		}
		rows = append(rows, *row)
	}
	slices.SortFunc(rows, func(a, b Row) int { return cmp.Or(cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(a.Beta, b.Beta)) })
	return rows
}

// Sources returns the estimator IDs of rows in the table's order: the
// paper's (km1, km2, distcurve) when present, then the others sorted; the
// true prior is not among them.
func Sources(rows []Row) []string {
	seen := map[string]bool{}
	for _, r := range rows {
		for s := range r.Errors {
			seen[s] = true
		}
	}
	var out []string
	for _, s := range PaperEstimators {
		if seen[s] {
			out = append(out, s)
		}
	}
	var rest []string
	for s := range seen {
		if s != TruePrior && !slices.Contains(PaperEstimators, s) {
			rest = append(rest, s)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// Table1 is Table 1 beside the paper's values.
func Table1(rows []Row, paper []PaperRow) report.Table {
	srcs := Sources(rows)
	t := report.Table{Caption: "Table 1: mean absolute error over the splits of the AUC corrected with each estimator's class prior (AUC^est) and of AUL^PU; the published values in brackets. 'true prior': AUC^est with the split's true alpha_U.",
		Labels:   []report.Column{{Name: "data"}, {Name: "n"}, {Name: "beta", LaTeX: `$\beta$`}, {Name: "runs", NoLaTeX: true}},
		Values:   []report.Column{{Name: "alpha", LaTeX: `$\alpha$`}, {Name: "AUC", CSV: "auc"}, {Name: "AUL", CSV: "aul"}},
		Compared: true}
	for _, s := range srcs {
		t.Values = append(t.Values, report.Column{Name: "MAE " + s, CSV: "mae_" + s})
	}
	t.Values = append(t.Values, report.Column{Name: "MAE true prior", CSV: "mae_true_prior"}, report.Column{Name: "MAE AUL^PU", CSV: "mae_aulpu", LaTeX: `MAE AUL$^{PU}$`})
	theorem := hasSD(rows)
	if theorem {
		t.Caption += " 'Theorem 1': the MAE of AUL^PU that Theorem 1 predicts for these scores, sqrt(2/pi) sd."
		t.Values = append(t.Values, report.Column{Name: "Theorem 1", CSV: "mae_aulpu_theorem1"})
	}
	for _, r := range rows {
		v := []float64{r.Alpha, r.AUC, r.AUL}
		for _, s := range srcs {
			v = append(v, r.MAE(s))
		}
		v = append(v, r.MAE(TruePrior), r.AULMAE())
		if theorem {
			v = append(v, r.PredictedAULMAE())
		}
		n := strconv.Itoa(r.N)
		row := report.Row{Labels: []report.Label{{Text: r.Dataset}, {Text: n}, {Text: g(r.Beta)}, {Text: strconv.Itoa(r.Runs)}}, Values: v}
		if p, ok := findPaper(paper, r.Dataset, r.Beta); ok {
			if p.N != r.N {
				row.Labels[1].Text = fmt.Sprintf("%d (paper %d)", r.N, p.N)
			}
			pv := []float64{p.Alpha, p.AUC, p.AUL}
			for _, s := range srcs {
				if m, ok := p.MAE[s]; ok {
					pv = append(pv, m)
				} else {
					pv = append(pv, math.NaN())
				}
			}
			row.Paper = append(pv, math.NaN(), p.MAE["aulpu"])
			if theorem {
				row.Paper = append(row.Paper, math.NaN())
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// hasSD reports whether some row has Theorem 1's standard deviation.
func hasSD(rows []Row) bool {
	for _, r := range rows {
		if !math.IsNaN(r.SD) {
			return true
		}
	}
	return false
}

// findPaper returns the paper's row of a data set and beta.
func findPaper(paper []PaperRow, ds string, beta float64) (PaperRow, bool) {
	for _, p := range paper {
		if p.Dataset == ds && math.Abs(p.Beta-beta) < 1e-9 {
			return p, true
		}
	}
	return PaperRow{}, false
}

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

func meanAbs(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += math.Abs(x)
	}
	return s / float64(len(xs))
}

// g prints a number compactly.
func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
