package report

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
)

func psbRecord(ds string, beta float64, rep int, acc [7]float64) results.Record {
	m := func(v [7]float64) map[string]float64 {
		return map[string]float64{"truth": v[0], "pu": v[1], "pu_truth": v[2], "CR": v[3], "CR_truth": v[4], "CE": v[5], "CE_truth": v[6]}
	}
	// bacc, f1, mcc: PU below its truth, CR exact.
	low := [7]float64{0.8, 0.6, 0.8, 0.8, 0.8, 0.82, 0.8}
	return results.Record{Schema: 1, Experiment: "psb", Cell: ds + "/" + strings.Repeat("x", rep), Dataset: ds,
		Grid: map[string]string{"beta": strconvF(beta)}, Repeat: rep, Status: results.StatusOK, Beta: beta,
		Metrics: map[string]map[string]float64{"acc": m(acc), "bacc": m(low), "f1": m(low), "mcc": m(low)}}
}

func strconvF(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Two mushroom records; acc errors by hand: PU .95-.90 = +.05 and .93-.90 = +.03 (mean +.04,
// overestimates as the paper says); CR .88-.90 = -.02 and .91-.90 = +.01 (mean -.005, MAE .015).
func TestPSBTableByHand(t *testing.T) {
	recs := []results.Record{
		psbRecord("mushroom", 1, 0, [7]float64{0.9, 0.95, 0.9, 0.88, 0.9, 0.8, 0.9}),
		psbRecord("mushroom", 0.7, 1, [7]float64{0.9, 0.93, 0.9, 0.91, 0.9, 0.85, 0.9}),
	}
	rows := PSBTable(recs)
	if len(rows) != 4 || rows[0].Metric != "acc" || rows[0].Runs != 2 {
		t.Fatalf("%+v", rows)
	}
	a := rows[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"PU mean", a.Mean["pu"], 0.04}, {"CR mean", a.Mean["CR"], -0.005}, {"CR MAE", a.MAE["CR"], 0.015}, {"CE MAE", a.MAE["CE"], 0.075}} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	claims := PSBClaims(rows)
	if len(claims) != 4 || !strings.Contains(claims[0], "overestimates") || !strings.Contains(claims[0], ": holds") ||
		!strings.Contains(claims[1], "underestimates") || strings.Contains(claims[1], "NOT") {
		t.Errorf("claims %q", claims)
	}
	dir := t.TempDir()
	frag, err := PSBReport(dir, recs, map[string]string{"covertype": "not in the mirror"})
	if err != nil || !strings.Contains(frag, "psb-fig2d.png") {
		t.Fatal(err, frag)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "psb-table.md"))
	if !strings.Contains(string(b), "covertype: not in the mirror") {
		t.Errorf("missing data sets not listed:\n%s", b)
	}
}
