package aul

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Fig3Row is one data set of Figure 3: the mean over its records of the
// test AUCs of PU_AUC and PU_AUL (measure pu-learning).
type Fig3Row struct {
	Dataset string
	Source  string  // PU_AUC's prior source (an estimator ID, or true)
	Prior   float64 // mean prior given to PU_AUC
	PUAUC   float64 // mean test AUC of PU_AUC
	PUAUL   float64 // mean test AUC of PU_AUL
	Runs    int
}

// Gain is PU_AUL's relative improvement over PU_AUC, (PU_AUL - PU_AUC) /
// PU_AUC (the paper's "+2.5 % on average", "+10 % on Concrete").
func (r Fig3Row) Gain() float64 { return (r.PUAUL - r.PUAUC) / r.PUAUC }

// Fig3Rows gathers the records with the pu-learning measure, a row per data
// set in order of first appearance.
func Fig3Rows(recs []results.Record) []Fig3Row {
	var rows []Fig3Row
	idx := map[string]int{}
	for _, rec := range recs {
		m := rec.Metrics["pu-learning"]
		aul, ok := m["pu_aul"]
		if !ok || rec.Error != "" {
			continue
		}
		var src string
		for k := range m {
			if s, ok := strings.CutPrefix(k, "pu_auc:"); ok {
				src = s
			}
		}
		if src == "" {
			continue
		}
		ds := PaperName(rec.Dataset)
		i, seen := idx[ds]
		if !seen {
			i = len(rows)
			idx[ds] = i
			rows = append(rows, Fig3Row{Dataset: ds, Source: src})
		}
		r := &rows[i]
		r.PUAUC += m["pu_auc:"+src]
		r.PUAUL += aul
		r.Prior += m["prior:"+src]
		r.Runs++
	}
	for i := range rows {
		k := float64(rows[i].Runs)
		rows[i].PUAUC /= k
		rows[i].PUAUL /= k
		rows[i].Prior /= k
	}
	return rows
}

// Figure3Table is Figure 3 as numbers.
func Figure3Table(rows []Fig3Row) report.Table {
	t := report.Table{Caption: "Figure 3: test AUC of the kernel PU learners (mean over the outer folds and the runs); PU_AUC's prior from the source named (the paper: the best estimator per data set in Table 1 at beta = 0.1)",
		Labels: []report.Column{{Name: "data"}, {Name: "prior source"}, {Name: "runs", NoLaTeX: true}},
		Values: []report.Column{{Name: "prior"}, {Name: "PU_AUC", LaTeX: `PU\_AUC`}, {Name: "PU_AUL", LaTeX: `PU\_AUL`}, {Name: "gain", Signed: true}}}
	for _, r := range rows {
		t.Rows = append(t.Rows, report.Row{Labels: []report.Label{{Text: r.Dataset}, {Text: r.Source}, {Text: fmt.Sprint(r.Runs)}},
			Values: []float64{r.Prior, r.PUAUC, r.PUAUL, r.Gain()}})
	}
	t.Notes = []string{"gain = (PU_AUL - PU_AUC)/PU_AUC. The paper prints Figure 3 as bars only; its text: PU_AUL better on 8 of 9 data sets, by 2.5 % on average and about 10 % on Concrete."}
	return t
}

// Figure3Chart is the paper's bar chart: PU_AUC and PU_AUL per data set.
func Figure3Chart(rows []Fig3Row) report.BarChart {
	bc := report.BarChart{Title: "Figure 3: PU_AUC against PU_AUL (test AUC)", YLabel: "test AUC", Series: []string{"PU_AUC", "PU_AUL"}, Values: make([][]float64, 2), YMin: 0.5, YMax: 1}
	for _, r := range rows {
		bc.Groups = append(bc.Groups, r.Dataset)
		bc.Values[0] = append(bc.Values[0], r.PUAUC)
		bc.Values[1] = append(bc.Values[1], r.PUAUL)
		bc.YMin = min(bc.YMin, math.Floor(10*min(r.PUAUC, r.PUAUL))/10)
	}
	return bc
}

// Figure3Claims checks the paper's Figure 3 claims on the rows. A data set
// whose mean test AUCs are not both numbers is not compared: it counts
// neither as a win nor as a loss.
func Figure3Claims(rows []Fig3Row) []report.Claim {
	if len(rows) == 0 {
		return nil
	}
	better, n, gain := 0, 0, 0.0
	for _, r := range rows {
		gain += r.Gain() / float64(len(rows))
		if math.IsNaN(r.PUAUC) || math.IsNaN(r.PUAUL) {
			continue
		}
		n++
		if r.PUAUL > r.PUAUC {
			better++
		}
	}
	outperforms := report.Claim{Item: "Figure 3", Paper: "PU_AUL outperforms PU_AUC on 8 of 9 data sets",
		Test: fmt.Sprintf("PU_AUL's test AUC is higher on %d of %d here", better, n)}
	if n == 0 {
		outperforms.Detail = "at the paper's rate: no data set has both test AUCs"
	} else {
		outperforms.Verdict = report.VerdictOf(9*better >= 8*n)
		outperforms.Detail = fmt.Sprintf("at the paper's rate, %d of %d needed", (8*n+8)/9, n)
	}
	out := []report.Claim{outperforms,
		{Item: "Figure 3", Paper: "by 2.5 % on average", Detail: fmt.Sprintf("the mean relative gain is %+.1f %% here.", 100*gain)}}
	if i := slices.IndexFunc(rows, func(r Fig3Row) bool { return r.Dataset == "concrete" }); i >= 0 {
		out = append(out, report.Claim{Item: "Figure 3", Paper: "about 10 % on Concrete", Detail: fmt.Sprintf("%+.1f %% here (PU_AUC %.3f with prior %.3f from %s, PU_AUL %.3f).",
			100*rows[i].Gain(), rows[i].PUAUC, rows[i].Prior, rows[i].Source, rows[i].PUAUL)})
	}
	return out
}
