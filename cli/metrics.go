package cli

import (
	"context"
	"fmt"

	"github.com/pueval/pueval/internal/scorefile"
	"github.com/pueval/pueval/metrics"
)

// metricsReport is the JSON output of `pueval metrics`.
type metricsReport struct {
	N     int                 `json:"n"`
	NPos  int                 `json:"n_pos"`
	AUC   number              `json:"auc"`
	AUCPR number              `json:"aucpr"` // average precision
	AUL   number              `json:"aul"`
	Max   map[string]optimum  `json:"max"`
	PU    *metrics.PUMeasures `json:"pu,omitempty"`
	// Columns says which column of the input was read as what.
	Columns scorefile.Columns `json:"columns"`
}

// thresholdMetrics are the metrics whose maxima over thresholds are reported, in output order.
var thresholdMetrics = []struct {
	key string
	m   metrics.Metric
}{
	{"acc", metrics.Confusion.Accuracy},
	{"bacc", metrics.Confusion.BalancedAccuracy},
	{"f1", metrics.Confusion.F1},
	{"mcc", metrics.Confusion.MCC},
}

func runMetrics(ctx context.Context, e *env, args []string) error {
	fs := flagSet("metrics")
	input := fs.String("input", "", "CSV `file` with a header naming a score and a label column (label 1 = positive or labeled; 0 or empty = negative or unlabeled)")
	format := fs.String("format", "", formatUsage)
	pu := fs.Bool("pu", false, "also report the PULP paper's PU measures (label 1 = labeled, 0 = unlabeled)")
	var cols columnFlags
	cols.add(fs)
	if help, err := parseInputFlags(e, fs, args, input, format); help || err != nil {
		return err
	}
	d, err := readScores(ctx, *input, cols)
	if err != nil {
		return err
	}
	r, err := metrics.Rank(d.Scores, d.Labeled())
	if err != nil {
		return fmt.Errorf("%s: %w", *input, err)
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	rep := metricsReport{
		N: r.N(), NPos: r.Positives(),
		AUC: number(r.AUC()), AUCPR: number(r.AveragePrecision()), AUL: number(r.AUL()),
		Max: map[string]optimum{}, Columns: d.Columns,
	}
	for _, tm := range thresholdMetrics {
		rep.Max[tm.key] = optimumOf(r.Max(tm.m))
	}
	if *pu {
		m := r.PU()
		rep.PU = &m
	}
	if err := stopped(ctx); err != nil {
		return err
	}
	if *format == "json" {
		return writeJSON(e.stdout, rep)
	}
	t := newTable(e.stdout)
	columnsRow(t, rep.Columns)
	t.row("n", rep.N)
	t.row("n_pos", rep.NPos)
	t.row("auc", float64(rep.AUC))
	t.row("aucpr", float64(rep.AUCPR))
	t.row("aul", float64(rep.AUL))
	for _, tm := range thresholdMetrics {
		o := rep.Max[tm.key]
		t.row("max "+tm.key, float64(o.Value), "at score >= "+o.Threshold.String())
	}
	if rep.PU != nil {
		p := rep.PU
		for _, kv := range []struct {
			k string
			v float64
		}{{"pu pulp", p.PULP}, {"pu lee_liu", p.LeeLiu}, {"pu pseudo_f", p.PseudoF}, {"pu f1", p.F1},
			{"pu mi", p.MI}, {"pu pearson", p.Pearson}, {"pu map", p.MAP}, {"pu auc", p.AUC}} {
			t.row(kv.k, kv.v)
		}
	}
	return t.flush()
}
