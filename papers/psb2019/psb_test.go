package psb2019

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

const testEst = "alphamax-n"

// psbRecord builds a schema-2 record; v holds, in order, truth:same-model,
// pu, truth-at:pu, recovered:real, truth-at:real, recovered:alphamax-n,
// truth-at:alphamax-n.
func psbRecord(ds string, beta float64, rep int, acc [7]float64) results.Record {
	m := func(v [7]float64) map[string]float64 {
		return map[string]float64{
			results.TruthKey(SameModel): v[0], results.PU: v[1], results.TruthAtKey(results.PU): v[2],
			results.RecoveryKey(results.Recovered, results.Real): v[3], results.TruthAtKey(results.Real): v[4],
			results.RecoveryKey(results.Recovered, testEst): v[5], results.TruthAtKey(testEst): v[6]}
	}
	// bacc, f1, mcc: PU below its truth, CR exact.
	low := [7]float64{0.8, 0.6, 0.8, 0.8, 0.8, 0.82, 0.8}
	return results.Record{Schema: results.SchemaVersion, Experiment: "psb", Cell: ds + "/" + strings.Repeat("x", rep), Dataset: ds,
		Grid: map[string]string{"beta": strconv.FormatFloat(beta, 'g', -1, 64)}, Repeat: rep, Status: results.StatusOK, Beta: beta,
		Estimates: map[string]results.Estimate{testEst: {Method: testEst, Alpha: 0.3, Beta: beta}},
		Metrics:   map[string]map[string]float64{"acc": m(acc), "bacc": m(low), "f1": m(low), "mcc": m(low)}}
}

// Two mushroom records; acc errors by hand: PU .95-.90 = +.05 and .93-.90 = +.03 (mean +.04,
// overestimates as the paper says); CR .88-.90 = -.02 and .91-.90 = +.01 (mean -.005, MAE .015).
func TestAggregateByHand(t *testing.T) {
	recs := []results.Record{
		psbRecord("mushroom", 1, 0, [7]float64{0.9, 0.95, 0.9, 0.88, 0.9, 0.8, 0.9}),
		psbRecord("mushroom", 0.7, 1, [7]float64{0.9, 0.93, 0.9, 0.91, 0.9, 0.85, 0.9}),
	}
	rows := Aggregate(recs, testEst)
	if len(rows) != 4 || rows[0].Metric != "acc" || rows[0].Runs != 2 {
		t.Fatalf("%+v", rows)
	}
	a := rows[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"truth", a.Truth, 0.9}, {"PU mean", a.Mean["PU"], 0.04}, {"CR mean", a.Mean["CR"], -0.005},
		{"CR MAE", a.MAE["CR"], 0.015}, {"CE MAE", a.MAE["CE"], 0.075}} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	claims := ClaimLines(Claims(rows))
	if len(claims) != 4 || !strings.Contains(claims[0], "overestimates") || !strings.Contains(claims[0], ": holds") ||
		!strings.Contains(claims[1], "underestimates") || strings.Contains(claims[1], "NOT") {
		t.Errorf("claims %q", claims)
	}
	// The table keeps the numbers: mushroom acc, truth .900, PU +.040, CR -.005 (MAE .015), CE MAE .075.
	md := Table(rows, "t").Markdown()
	if !strings.Contains(md, "| mushroom | acc | 2 | 0.900 | +0.040 | -0.005 | -0.075 | 0.040 | 0.015 | 0.075 |") {
		t.Errorf("table:\n%s", md)
	}
	csv := Table(rows, "t").CSV()
	if !strings.HasPrefix(csv, "dataset,metric,runs,truth,pu_mean,cr_mean,ce_mean,pu_mae,cr_mae,ce_mae\nmushroom,acc,2,0.9,0.04,-0.005,-0.075,0.04,0.015,0.075\n") {
		t.Errorf("csv:\n%s", csv)
	}
	dir := t.TempDir()
	frag, err := Write(dir, report.Input{Records: recs, Manifest: results.Manifest{Schema: results.SchemaVersion, Report: Name,
		Estimators: []string{testEst}, Unavailable: map[string]string{"covertype": "not in the mirror"}}})
	if err != nil || !strings.Contains(frag, "psb-fig2d.png") || !strings.Contains(frag, "psb2019-fig1.png") ||
		!strings.Contains(frag, "CE: the estimates of alphamax-n.") {
		t.Fatal(err, frag)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "psb-table.md"))
	if !strings.Contains(string(b), "covertype: not in the mirror") {
		t.Errorf("missing data sets not listed:\n%s", b)
	}
	for _, f := range []string{"psb-table.csv", "psb-table.tex", "psb-fig2a.svg", "fig1.json"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
}

// A schema-1 manifest whose records hold the threshold metrics gets this
// report through report.Write.
func TestSchema1ManifestPicksPSB(t *testing.T) {
	recs := []results.Record{psbRecord("mushroom", 1, 0, [7]float64{0.9, 0.95, 0.9, 0.88, 0.9, 0.8, 0.9})}
	index, err := report.Write(t.TempDir(), report.Input{Records: recs, Manifest: results.Manifest{Schema: 1}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(index)
	if !strings.Contains(string(b), "<h1>PSB 2019: accuracy, balanced accuracy, F-measure and MCC in PU learning: psb</h1>") {
		t.Errorf("index.html:\n%.500s", b)
	}
}

// PSB-2019 Figure 1 caption: acc 0.86 at 0.42 vs PU 0.90 at 5; bacc 0.84 / 0.67 at 0;
// F 0.77 at 0.19 vs 0.30 at 0.50; MCC 0.66 / 0.22 at 0.29.
func TestFigure1MatchesCaption(t *testing.T) {
	dir := os.Getenv("PUEVAL_FIGURE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	files, notes, err := report.WriteAnalyticFigure("psb2019-fig1", dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 || len(notes) != 1 || !strings.Contains(notes[0], "agree") {
		t.Fatalf("files %v notes %v", files, notes)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "fig1.json"))
	var s map[string]map[string]struct{ Max, Threshold float64 }
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	for k, want := range caption {
		for i, setting := range []string{"traditional", "pu"} {
			got := s[k][setting]
			if math.Abs(got.Max-want[i][0]) > 0.005 || math.Abs(got.Threshold-want[i][1]) > 1e-9 {
				t.Errorf("%s %s: %+v, caption %v", k, setting, got, want[i])
			}
		}
	}
}
