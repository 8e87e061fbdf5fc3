package pulp

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report/pulp -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; got:\n%s", name, got)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestPublished: the transcription against the paper's Table 1 and what
// its text says of it.
func TestPublished(t *testing.T) {
	p, err := Published()
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, byLab := range p {
		rows += len(byLab)
	}
	if rows != 7 {
		t.Fatalf("%d rows", rows)
	}
	for _, c := range []struct {
		stat, lab, m string
		v            float64
	}{{StatRank, Random, "auc", 0.918}, {StatRank, Scenario1, "mi", 0.535}, {StatRank, Scenario2, "pulp", 0.769},
		{StatMAD, Random, "map", 0.370}, {StatMAD, Scenario2, "pearson", 0.0814}, {StatSD, "all", "pseudo-f", 0.143}} {
		if v, ok := p.Value(c.stat, c.lab, c.m); !ok || v != c.v {
			t.Errorf("%s %s %s = %v, %v; want %v", c.stat, c.lab, c.m, v, ok, c.v)
		}
	}
	// The paper's table satisfies the claims read from it: F1 = Pseudo-F in
	// every rank row, MAP the largest MAD in every scenario, MI the
	// smallest SD, PULP the best rank correlation under Scenario 2.
	sd := p[StatSD]["all"]
	for _, l := range PaperLabelings {
		if p[StatRank][l]["f1"] != p[StatRank][l]["pseudo-f"] {
			t.Errorf("%s: F1 and Pseudo-F differ", l)
		}
		for _, m := range Measures {
			if m.Key != "map" && p[StatMAD][l][m.Key] >= p[StatMAD][l]["map"] {
				t.Errorf("%s: %s's MAD >= MAP's", l, m.Key)
			}
			if m.Key != "mi" && sd[m.Key] <= sd["mi"] {
				t.Errorf("SD of %s <= MI's", m.Key)
			}
		}
	}
	if best(StatRank, paperValues(p, StatRank, Scenario2)) != "PULP" || best(StatMAD, paperValues(p, StatMAD, Random)) != "L&L" {
		t.Error("best per row")
	}
}

func paperValues(p PaperTable, stat, lab string) []float64 {
	v, _ := paperRow(p, stat, lab)
	return v
}

// The synthetic experiment: 4 problems x 3 classifiers = 12 configurations
// i = 3 problem + classifier, K = 2 folds, Pr[y=1] 0.1 and 0.5, the three
// labelings, 1 repeat. The true value of every measure on fold f is
// true_f(i) = (i+1)/20 + f/100; the PU values are:
//
//	auc:      pu = true                 rho 1, MAD 0
//	f1:       pu = -true                rho -1, MAD 2 mean(true) = 2 (0.325 + f/100): 0.67, 0.69 -> 0.68
//	ll:       pu = true + 0.05 + 0.05 s_i on fold 1, true + 0.05 - 0.05 s_i on fold 2, s_i = +1 for
//	          even i, -1 for odd (an offset that cancels in the fold mean). Fold 1: pu = 0.1k + 0.16
//	          (i = 2k), 0.1k + 0.11 (i = 2k+1): neighbours swapped, rho 137/143. Fold 2: pu = 0.1k + 0.07
//	          (i = 2k), 0.1k + 0.22 (i = 2k+1): ordered i0 i2 i1 i4 i3 ... i10 i9 i11, rank differences
//	          0, +1, -1, ..., +1, -1, 0, sum d^2 = 10, rho = 1 - 6 x 10/(12 x 143) = 138/143.
//	          rho (137/143 + 138/143)/2 = 275/286; MAD 0.05 (|0.05 +- 0.05|: 0.1 for half, 0 for half)
//	mi:       fold 1 pu = 0.3 (constant: rho undefined, left out), fold 2 pu = true;
//	          rho 1; MAD fold 1 = mean |0.3 - (0.06, 0.11, ..., 0.61)| = 1.82/12, fold 2 0 -> 0.91/12
//	pearson:  pu = true of i XOR 1 (neighbours swapped): d = +-1 for all 12, no ties:
//	          rho = 1 - 6 x 12/(12 x 143) = 137/143; MAD 0.05
//	map:      pu = true + Pr[y=1]       rho 1, MAD Pr[y=1]: Table 1 (0.1 + 0.5)/2 = 0.3
//	pulp:     random pu = true (1, 0); scenario1 swapped as pearson (137/143, 0.05);
//	          scenario2 reversed, pu = true_f(11 - i): rho -1, MAD 0.05 mean|11 - 2i| = 0.05 x 72/12 = 0.3
//	pseudo-f: pu = -true as f1, absent under scenario2 (no value: NaN, 0 configurations)
//
// Over the fold means (Table 1 (fold means)), with mean true(i) = (i+1)/20
// + 0.015: auc (1, 0), f1 and pseudo-f (-1, 2 (0.325 + 0.015) = 0.68) and
// map (1, Pr[y=1]) as per fold; ll's offsets cancel, pu = true + 0.05: rho
// 1 (not 275/286), MAD 0.05; mi's fold-1 rho no longer drops out: pu =
// (0.3 + true@2)/2 rises with i, rho 1, and pu - true = (0.3 - true@1)/2,
// half fold 1's deviations, MAD 0.91/12 again; pearson and pulp swap or
// reverse the fold means as they do each fold: as per fold. The records
// carry the fold means as pu and true, but mnist-8's (18 records) do not:
// the analysis computes theirs from the folds.
func synthRecords() []results.Record {
	tr := func(i, f int) float64 { return float64(i+1)/20 + float64(f)/100 }
	var recs []results.Record
	for _, lab := range PaperLabelings {
		for _, pi := range []float64{0.1, 0.5} {
			for prob := range 4 {
				for cl := range 3 {
					i := 3*prob + cl
					m := map[string]map[string]float64{}
					for _, ms := range Measures {
						m[ms.Key] = map[string]float64{}
					}
					for f := 1; f <= 2; f++ {
						set := func(measure string, pu float64) {
							m[measure][fmt.Sprintf("pu@%d", f)] = pu
							m[measure][fmt.Sprintf("true@%d", f)] = tr(i, f)
						}
						set("auc", tr(i, f))
						set("f1", -tr(i, f))
						s := 1.0
						if i%2 == 1 {
							s = -1
						}
						if f == 2 {
							s = -s
						}
						set("ll", tr(i, f)+0.05+0.05*s)
						if f == 1 {
							set("mi", 0.3)
						} else {
							set("mi", tr(i, f))
						}
						set("pearson", tr(i^1, f))
						set("map", tr(i, f)+pi)
						switch lab {
						case Random:
							set("pulp", tr(i, f))
						case Scenario1:
							set("pulp", tr(i^1, f))
						default:
							set("pulp", tr(11-i, f))
						}
						if lab != Scenario2 {
							set("pseudo-f", -tr(i, f))
						}
					}
					if lab == Scenario2 {
						delete(m, "pseudo-f")
					}
					if prob < 3 {
						for _, mv := range m {
							mv["pu"], mv["true"] = (mv["pu@1"]+mv["pu@2"])/2, (mv["true@1"]+mv["true@2"])/2
						}
					}
					ds := []string{"20news-atheism", "20news-space", "mnist-3", "mnist-8"}[prob]
					c := []string{"lin-wu1", "rbf-en", "lin-en"}[cl]
					recs = append(recs, results.Record{Schema: results.SchemaVersion, Experiment: "pulp", Dataset: ds,
						Cell:   fmt.Sprintf("%s/classifier=%s/labeling=%s/unlabeled-prior=%g/repeat=0", ds, c, lab, pi),
						Grid:   map[string]string{PriorAxis: fmt.Sprint(pi), LabelingAxis: lab, ClassifierAxis: c},
						Status: results.StatusOK, Metrics: m})
				}
			}
		}
	}
	recs = append(recs,
		results.Record{Experiment: "pulp", Dataset: "mnist-3", Cell: "mnist-3/failed-1", Status: results.StatusFailed, Error: "svm: did not converge",
			Grid: map[string]string{PriorAxis: "0.1", LabelingAxis: Random, ClassifierAxis: "rbf-en"}},
		results.Record{Experiment: "pulp", Dataset: "mnist-8", Cell: "mnist-8/failed-2", Status: results.StatusFailed, Error: "out of\nmemory"},
		results.Record{Experiment: "pulp", Dataset: "mnist-8", Cell: "mnist-8/no-grid", Status: results.StatusOK,
			Metrics: map[string]map[string]float64{"auc": {"pu@1": 1, "true@1": 1}}},
	)
	return recs
}

// TestAnalyzeByHand checks the points and Table 1 against the values
// worked out in synthRecords' comment.
func TestAnalyzeByHand(t *testing.T) {
	a := Analyze(synthRecords())
	if a.Total != 75 || a.OK != 72 || len(a.Failed) != 2 || len(a.Unusable) != 1 || a.MeanOnly != 0 {
		t.Fatalf("counts: total %d ok %d failed %d unusable %v", a.Total, a.OK, len(a.Failed), a.Unusable)
	}
	if strings.Join(a.Labelings, ",") != "random,scenario1,scenario2" || len(a.Pis) != 2 || len(a.Problems) != 4 ||
		strings.Join(a.Classifiers, ",") != "lin-en,lin-wu1,rbf-en" || len(a.Folds) != 2 || len(a.Repeats) != 1 {
		t.Errorf("inventory %v %v %v %v %v %v", a.Labelings, a.Pis, a.Problems, a.Classifiers, a.Folds, a.Repeats)
	}
	if len(a.Points) != 3*2*8 {
		t.Fatalf("%d points", len(a.Points))
	}
	swapped := 137.0 / 143
	want := map[string]map[string][2]float64{ // labeling -> measure -> Table 1's (rho, MAD)
		Random: {"auc": {1, 0}, "f1": {-1, 0.68}, "ll": {275.0 / 286, 0.05}, "mi": {1, 0.91 / 12}, "pearson": {swapped, 0.05},
			"map": {1, 0.3}, "pulp": {1, 0}, "pseudo-f": {-1, 0.68}},
		Scenario1: {"pulp": {swapped, 0.05}, "pseudo-f": {-1, 0.68}},
		Scenario2: {"pulp": {-1, 0.3}, "pseudo-f": {math.NaN(), math.NaN()}},
	}
	for lab, byM := range want {
		for m, w := range byM {
			rho, n := a.GridMean(StatRank, lab, m)
			mad, _ := a.GridMean(StatMAD, lab, m)
			if math.IsNaN(w[0]) {
				if !math.IsNaN(rho) || !math.IsNaN(mad) || n != 0 {
					t.Errorf("%s %s: %v %v over %d, want NaN", lab, m, rho, mad, n)
				}
				continue
			}
			if !near(rho, w[0]) || !near(mad, w[1]) || n != 2 {
				t.Errorf("%s %s: rho %v MAD %v over %d Pr[y=1], want %v %v", lab, m, rho, mad, n, w[0], w[1])
			}
		}
	}
	p, ok := a.Point(Random, 0.1, "mi")
	if !ok || p.Configs != 12 || p.Folds != 2 || p.UndefinedRho != 1 || p.Repeats != 1 {
		t.Errorf("mi point %+v", p)
	}
	if p, _ := a.Point(Scenario2, 0.5, "pseudo-f"); p.Configs != 0 || !math.IsNaN(p.Rho) {
		t.Errorf("absent measure %+v", p)
	}
	if und, folds := a.UndefinedRho(); und != 6 || folds != 3*2*2*8-2*2 {
		t.Errorf("undefined rho on %d of %d folds", und, folds)
	}
	// SD of auc's PU values: {(i+1)/20 + f/100} six times over (2 Pr[y=1] x 3
	// labelings), 144 values; population variance 0.05^2 (12^2 - 1)/12 +
	// 0.01^2 (2^2 - 1)/12 (the two grids are crossed), times 144/143.
	sd := math.Sqrt((0.0025*143/12 + 0.0001*3/12) * 144 / 143)
	if math.Abs(a.SD["auc"]-sd) > 1e-12 || a.SDCount["auc"] != 144 || math.Abs(a.TrueSD["auc"]-sd) > 1e-12 {
		t.Errorf("SD auc %v (%d values), want %v", a.SD["auc"], a.SDCount["auc"], sd)
	}
	if a.SDCount["pseudo-f"] != 96 {
		t.Errorf("pseudo-f SD over %d values", a.SDCount["pseudo-f"])
	}
}

// TestFoldMeansByHand checks the fold-mean view against synthRecords'
// comment: ll's rho is 1 there (275/286 per fold), mi's defined on every
// sample, the rest as per fold.
func TestFoldMeansByHand(t *testing.T) {
	a := Analyze(synthRecords())
	fm := a.FoldMeans
	if fm == nil || !fm.FoldMeanView || a.FoldMeanView || fm.FoldMeans != nil {
		t.Fatalf("fold-mean view %v", fm)
	}
	if a.MeansComputed != 18 || fm.OK != 72 || len(fm.Points) != 48 || fm.Total != 75 {
		t.Errorf("computed %d, view ok %d, %d points", a.MeansComputed, fm.OK, len(fm.Points))
	}
	swapped := 137.0 / 143
	want := map[string]map[string][2]float64{
		Random: {"auc": {1, 0}, "f1": {-1, 0.68}, "ll": {1, 0.05}, "mi": {1, 0.91 / 12}, "pearson": {swapped, 0.05},
			"map": {1, 0.3}, "pulp": {1, 0}, "pseudo-f": {-1, 0.68}},
		Scenario1: {"ll": {1, 0.05}, "pulp": {swapped, 0.05}},
		Scenario2: {"ll": {1, 0.05}, "pulp": {-1, 0.3}, "pseudo-f": {math.NaN(), math.NaN()}},
	}
	for lab, byM := range want {
		for m, w := range byM {
			rho, n := fm.GridMean(StatRank, lab, m)
			mad, _ := fm.GridMean(StatMAD, lab, m)
			if math.IsNaN(w[0]) {
				if !math.IsNaN(rho) || !math.IsNaN(mad) || n != 0 {
					t.Errorf("fold means %s %s: %v %v over %d, want NaN", lab, m, rho, mad, n)
				}
				continue
			}
			if !near(rho, w[0]) || !near(mad, w[1]) || n != 2 {
				t.Errorf("fold means %s %s: rho %v MAD %v over %d Pr[y=1], want %v %v", lab, m, rho, mad, n, w[0], w[1])
			}
		}
	}
	if p, _ := fm.Point(Random, 0.1, "mi"); p.Configs != 12 || p.Folds != 1 || p.UndefinedRho != 0 || p.Repeats != 1 {
		t.Errorf("fold-mean mi point %+v", p)
	}
	if und, _ := fm.UndefinedRho(); und != 0 {
		t.Errorf("fold means: rho undefined %d times", und)
	}
	// SD of auc's fold-mean PU values: (i+1)/20 + 0.015 six times over, 72
	// values: population variance 0.05^2 (12^2 - 1)/12, times 72/71.
	sd := math.Sqrt(0.0025 * 143 / 12 * 72 / 71)
	if math.Abs(fm.SD["auc"]-sd) > 1e-12 || fm.SDCount["auc"] != 72 || fm.SDCount["pseudo-f"] != 48 {
		t.Errorf("fold-mean SD auc %v (%d values), want %v", fm.SD["auc"], fm.SDCount["auc"], sd)
	}
	// The per-fold view is left as it was.
	if rho, _ := a.GridMean(StatRank, Random, "ll"); !near(rho, 275.0/286) {
		t.Errorf("per-fold ll rho %v", rho)
	}
}

// TestFoldMeansKeys: a record's pu and true are its fold means where it
// has both, otherwise the means of its pu@f and true@f. Four
// configurations x = i/10, two folds, true = x throughout:
//
//	auc: pu@f = 0.3 - x (reversed on every fold), keys pu = true = x: the
//	     keys are used, rho 1 and MAD 0 (per fold: rho -1, MAD mean |0.3 -
//	     2x| = (0.3 + 0.1 + 0.1 + 0.3)/4 = 0.2).
//	f1:  no keys; pu@1 = x + 0.5 s_i, pu@2 = x - 0.5 s_i (s_i = +1, -1, +1,
//	     -1): fold 1 = 0.5, -0.4, 0.7, -0.2, rank differences 2, -1, 1, -2,
//	     rho = 1 - 6 x 10/(4 x 15) = 0; fold 2 = -0.5, 0.6, -0.3, 0.8, rank
//	     differences 0, 1, -1, 0, rho = 1 - 12/60 = 0.8: per fold 0.4, MAD
//	     0.5; the computed fold means are x: rho 1, MAD 0.
//	ll:  pu key 99 but no true key: the means of pu@f = x + 0.1 are used,
//	     MAD 0.1.
func TestFoldMeansKeys(t *testing.T) {
	var recs []results.Record
	for i := range 4 {
		x, s := float64(i)/10, 1.0
		if i%2 == 1 {
			s = -1
		}
		recs = append(recs, results.Record{Dataset: fmt.Sprintf("p%d", i), Status: results.StatusOK,
			Grid: map[string]string{PriorAxis: "0.3", LabelingAxis: Random, ClassifierAxis: "c"},
			Metrics: map[string]map[string]float64{
				"auc": {"pu@1": 0.3 - x, "true@1": x, "pu@2": 0.3 - x, "true@2": x, "pu": x, "true": x},
				"f1":  {"pu@1": x + 0.5*s, "true@1": x, "pu@2": x - 0.5*s, "true@2": x},
				"ll":  {"pu@1": x + 0.1, "true@1": x, "pu@2": x + 0.1, "true@2": x, "pu": 99},
			}})
	}
	a := Analyze(recs)
	fm := *a.FoldMeans
	if a.MeansComputed != 4 {
		t.Errorf("%d records with computed fold means, want 4", a.MeansComputed)
	}
	for _, c := range []struct {
		view     Analysis
		m        string
		rho, mad float64
	}{{a, "auc", -1, 0.2}, {fm, "auc", 1, 0}, {a, "f1", 0.4, 0.5}, {fm, "f1", 1, 0}, {a, "ll", 1, 0.1}, {fm, "ll", 1, 0.1}} {
		p, _ := c.view.Point(Random, 0.3, c.m)
		if math.Abs(p.Rho-c.rho) > 1e-12 || math.Abs(p.MAD-c.mad) > 1e-12 {
			t.Errorf("%s (fold means %v): rho %v MAD %v, want %v %v", c.m, c.view.FoldMeanView, p.Rho, p.MAD, c.rho, c.mad)
		}
	}
}

// TestTable1AndCSV: the rendered Table 1 (golden, published values beside
// ours), its CSV and fig2.csv.
func TestTable1AndCSV(t *testing.T) {
	a := Analyze(synthRecords())
	paper, err := Published()
	if err != nil {
		t.Fatal(err)
	}
	tab := Table1(a, paper)
	md := tab.Markdown()
	for _, want := range []string{
		"| rank corr. | random | 2 | 1.000 (0.918, +0.082) | -1.000 (0.903, -1.903) |",
		"| MAD | Scenario 2 | 0-2 |",
		"0.300 (0.356, -0.056) | 0.300 (0.185, +0.115) | - (0.157, -) |",
		"| overall SD | all | - | 0.173 (0.197, -0.024) |",
		"| overall SD, true labels | all | - | 0.173 |",
		"Note: " + Caveat,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("table1.md lacks %q:\n%s", want, md)
		}
	}
	golden(t, "table1.md", md)
	golden(t, "table1.csv", tab.CSV())
	csv := tab.CSV()
	if !strings.HasPrefix(csv, "statistic,labeling,n_pi,auc,auc_paper,auc_diff,f1,f1_paper,f1_diff,") ||
		!strings.Contains(csv, "\nrank,random,2,1,0.918,0.082,-1,0.903,-1.903,") {
		t.Errorf("table1.csv:\n%s", csv)
	}
	fig := Figure2CSV(a)
	lines := strings.Split(strings.TrimSpace(fig), "\n")
	if lines[0] != "scenario,pi,measure,rho,mad,n_configurations" || len(lines) != 1+48 {
		t.Fatalf("fig2.csv: %d lines, header %q", len(lines), lines[0])
	}
	for _, want := range []string{"random,0.1,auc,1,0,12", "random,0.5,mi,1,0.0758333,12", "scenario1,0.1,pearson,0.958042,0.05,12",
		"scenario2,0.5,pulp,-1,0.3,12", "scenario2,0.5,pseudo-f,,,0", "random,0.5,map,1,0.5,12", "random,0.1,ll,0.961538,0.05,12"} {
		if !strings.Contains(fig, want+"\n") {
			t.Errorf("fig2.csv lacks %q", want)
		}
	}

	// The same over the fold means: ll's rho 1 (275/286 per fold).
	ft := Table1FoldMeans(a, paper)
	fmd := ft.Markdown()
	for _, want := range []string{
		"Table 1 (fold means): as Table 1, but",
		"| rank corr. | random | 2 | 1.000 (0.918, +0.082) | -1.000 (0.903, -1.903) | 1.000 (0.916, +0.084) | 1.000 (0.837, +0.163) | 0.958 (0.923, +0.035) |",
		"| MAD | random | 2 | 0.000 (0.117, -0.117) | 0.680 (0.168, +0.512) | 0.050 (0.034, +0.016) | 0.076 (0.055, +0.021) |",
		"Note: " + FoldMeansNote(a),
		"(K = 2 here)",
		"over 48 to 72 fold-mean values per measure",
		"18 record(s) lack the keys pu and true",
	} {
		if !strings.Contains(fmd, want) {
			t.Errorf("table1-foldmeans.md lacks %q:\n%s", want, fmd)
		}
	}
	if strings.Contains(fmd, Caveat) || strings.Contains(fmd, "undefined") {
		t.Errorf("table1-foldmeans.md repeats the caveat or has undefined rho:\n%s", fmd)
	}
	golden(t, "table1-foldmeans.md", fmd)
	golden(t, "table1-foldmeans.csv", ft.CSV())
	ffig := Figure2CSV(*a.FoldMeans)
	if lines := strings.Split(strings.TrimSpace(ffig), "\n"); lines[0] != "scenario,pi,measure,rho,mad,n_configurations" || len(lines) != 1+48 {
		t.Fatalf("fig2-foldmeans.csv: %d lines, header %q", len(lines), lines[0])
	}
	for _, want := range []string{"random,0.1,ll,1,0.05,12", "scenario2,0.5,ll,1,0.05,12", "random,0.5,mi,1,0.0758333,12",
		"scenario1,0.1,pearson,0.958042,0.05,12", "scenario2,0.5,pseudo-f,,,0", "random,0.5,map,1,0.5,12"} {
		if !strings.Contains(ffig, want+"\n") {
			t.Errorf("fig2-foldmeans.csv lacks %q", want)
		}
	}
	// Without a fold-mean view (an Analysis built by hand) the table is
	// there, its values NaN.
	if md := Table1FoldMeans(craft(nil), paper).Markdown(); !strings.Contains(md, "| rank corr. | random | 0 | - (0.918, -) |") || !strings.Contains(md, "| overall SD | all | - | - (0.197, -) |") {
		t.Errorf("no fold-mean view:\n%s", md)
	}
}

// TestRepeats: two repeats are averaged: ll with pu = true + 0.05 in repeat
// 0 and true + 0.15 in repeat 1 has MAD 0.1; auc reversed in repeat 1 has
// rho (1 + -1)/2 = 0. Configurations count (problem, classifier) pairs once.
func TestRepeats(t *testing.T) {
	var recs []results.Record
	for rep := range 2 {
		for i := range 5 {
			x := float64(i) / 10
			auc := x
			if rep == 1 {
				auc = 0.4 - x
			}
			recs = append(recs, results.Record{Dataset: fmt.Sprintf("p%d", i), Repeat: rep, Status: results.StatusOK,
				Grid: map[string]string{PriorAxis: "0.3", LabelingAxis: Random, ClassifierAxis: "c"},
				Metrics: map[string]map[string]float64{
					"ll":  {"pu@1": x + 0.05 + 0.1*float64(rep), "true@1": x},
					"auc": {"pu": auc, "true": x}, // fold means only: one fold
				}})
		}
	}
	a := Analyze(recs)
	ll, _ := a.Point(Random, 0.3, "ll")
	auc, _ := a.Point(Random, 0.3, "auc")
	if !near(ll.MAD, 0.1) || !near(ll.Rho, 1) || ll.Configs != 5 || ll.Repeats != 2 || ll.Folds != 2 {
		t.Errorf("ll %+v", ll)
	}
	if !near(auc.Rho, 0) || auc.Configs != 5 || a.MeanOnly != 10 || a.Folds[0] != 0 {
		t.Errorf("auc %+v, mean-only records %d, folds %v", auc, a.MeanOnly, a.Folds)
	}
}

// craft builds an Analysis directly: Pr[y=1] 0.1, 0.3, 0.5, 0.7, 0.9; rho
// = base - 0.2 (Pr[y=1] - 0.1), whose mean over the grid is base - 0.08; MAD 0.1 (MAP 0.35); SD 0.2 (MI 0.06). The
// bases: random 0.95 (MI 0.90, PULP 0.96), Scenario 1 0.85 (L&L 0.90, PULP
// 0.97), Scenario 2 0.6 (PULP 0.96): every claim holds. change may alter
// a point before it is stored.
func craft(change func(p *Point)) Analysis {
	a := Analysis{Labelings: PaperLabelings, Pis: []float64{0.1, 0.3, 0.5, 0.7, 0.9},
		SD: map[string]float64{}, TrueSD: map[string]float64{}, SDCount: map[string]int{}}
	base := map[string]map[string]float64{
		Random:    {"mi": 0.90, "pulp": 0.96},
		Scenario1: {"ll": 0.90, "pulp": 0.97},
		Scenario2: {"pulp": 0.96},
	}
	def := map[string]float64{Random: 0.95, Scenario1: 0.85, Scenario2: 0.6}
	for _, l := range a.Labelings {
		for _, pi := range a.Pis {
			for _, m := range Measures {
				b, ok := base[l][m.Key]
				if !ok {
					b = def[l]
				}
				p := Point{Labeling: l, Pi: pi, Measure: m.Key, Rho: b - 0.2*(pi-0.1), MAD: 0.1, Configs: 12, Repeats: 1, Folds: 8}
				if m.Key == "map" {
					p.MAD = 0.35
				}
				if change != nil {
					change(&p)
				}
				a.Points = append(a.Points, p)
			}
		}
	}
	for _, m := range Measures {
		a.SD[m.Key], a.SDCount[m.Key] = 0.2, 100
	}
	a.SD["mi"] = 0.06
	return a
}

func TestClaims(t *testing.T) {
	for _, c := range Claims(craft(nil)) {
		if c.Verdict != report.Holds {
			t.Errorf("crafted to hold: %s", c)
		}
	}
	// Each change breaks one claim.
	for n, change := range map[int]func(p *Point){
		1: func(p *Point) {
			if p.Labeling == Random && p.Measure == "mi" {
				p.Rho -= 0.2
			}
		},
		2: func(p *Point) {
			if p.Labeling == Scenario2 && p.Measure == "auc" {
				p.Rho += 0.4
			}
		},
		3: func(p *Point) {
			if p.Labeling == Scenario1 && p.Measure == "ll" {
				p.Rho += 0.09
			}
		},
		4: func(p *Point) {
			if p.Labeling == Scenario1 && p.Measure == "pearson" {
				p.Rho = 0.8
			}
		},
		5: func(p *Point) {
			if p.Labeling == Scenario2 && p.Measure == "pulp" && p.Pi == 0.3 {
				p.Rho = 0.85
			}
		},
		7: func(p *Point) {
			if p.Labeling == Scenario1 && p.Measure == "auc" {
				p.MAD = 0.5
			}
		},
		8: func(p *Point) {
			if p.Labeling == Scenario1 && p.Measure == "pseudo-f" {
				p.Rho += 0.02
			}
		},
	} {
		for _, c := range Claims(craft(change)) {
			if (c.N == n) != (c.Verdict == report.Fails) {
				t.Errorf("change for claim %d: %s", n, c)
			}
		}
	}
	a := craft(nil)
	a.SD["auc"] = 0.01
	if c := Claims(a)[5]; c.N != 6 || c.Verdict != report.Fails || !strings.Contains(c.Detail, "MI 0.060, the smallest other AUC 0.010") {
		t.Errorf("claim 6: %s", c)
	}
	// The numbers behind the verdicts.
	claims := Claims(craft(nil))
	for i, want := range []string{
		"spread 0.060 (PULP 0.880 - MI 0.820), PULP 0.880",
		"PULP 0.880, the best other AUC 0.520",
		"PULP 0.890, L&L 0.820 (difference +0.070, margin needed 0.000); no bootstrap",
		"from Pr[y=1] = 0.1 to 0.9, random: 8 of 8 fall; Scenario 1: 8 of 8 fall; Scenario 2: 8 of 8 fall",
		"Scenario 2: 0.1 0.960, 0.3 0.920",
		"MI 0.060, the smallest other AUC 0.200",
		"Scenario 2: MAP 0.350, the largest other AUC 0.100",
		"largest difference 0.0000",
	} {
		if !strings.Contains(claims[i].Detail, want) {
			t.Errorf("claim %d detail %q lacks %q", i+1, claims[i].Detail, want)
		}
	}
	for _, c := range Claims(Analysis{}) {
		if c.Verdict != report.NotChecked {
			t.Errorf("no records: %s", c)
		}
	}
	// The fold-mean view is reported in brackets for claims 1-5 and does
	// not move the verdicts: here it breaks claim 3 and mends claim 1.
	a = craft(nil)
	fm := craft(func(p *Point) {
		if p.Labeling == Scenario1 && p.Measure == "ll" {
			p.Rho += 0.09
		}
	})
	a.FoldMeans = &fm
	claims = Claims(a)
	if c := claims[2]; c.Verdict != report.Holds || !strings.HasSuffix(c.Detail, "PULP 0.890, L&L 0.820 (difference +0.070, margin needed 0.000); no bootstrap (fewer than two problems): bare comparison [fold means: PULP 0.890, L&L 0.910 (difference -0.020, margin needed 0.000); no bootstrap (fewer than two problems): bare comparison; the test does NOT hold on them]") {
		t.Errorf("claim 3 with fold means: %s", c)
	}
	for _, c := range claims {
		if has := strings.Contains(c.Detail, "[fold means: "); has != (c.N <= 5) || c.Verdict != report.Holds {
			t.Errorf("claim %d: fold-mean bracket %v, verdict %s: %s", c.N, has, c.Verdict, c)
		}
	}
	b := craft(func(p *Point) {
		if p.Labeling == Random && p.Measure == "mi" {
			p.Rho -= 0.2
		}
	})
	b.FoldMeans = &fm
	if c := Claims(b)[0]; c.Verdict != report.Fails || !strings.HasSuffix(c.Detail, "; the test holds on them]") {
		t.Errorf("claim 1 with fold means: %s", c)
	}
}

// TestWrite runs the report through the registry's entry point and checks
// its files.
func TestWrite(t *testing.T) {
	if p, ok := report.Lookup(Name); !ok || p.Title != Title {
		t.Fatal("not registered")
	}
	dir := t.TempDir()
	in := report.Input{Records: synthRecords(), Manifest: results.Manifest{Schema: results.SchemaVersion, Experiment: "pulp", Report: Name}}
	index, err := report.Write(dir, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "index.md", "table1.md", "table1.tex", "table1.csv", "table1-foldmeans.md", "table1-foldmeans.tex", "table1-foldmeans.csv",
		"fig2.png", "fig2.pdf", "fig2.svg", "fig2.csv", "fig2-foldmeans.csv", "fig2.md", "claims.md"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	h, _ := os.ReadFile(index)
	md, _ := os.ReadFile(filepath.Join(dir, "index.md"))
	claims, _ := os.ReadFile(filepath.Join(dir, "claims.md"))
	for name, body := range map[string]string{"index.html": string(h), "index.md": string(md)} {
		for _, want := range []string{"Table 1", "Figure 2", "Claims", "20news-atheism, 20news-space, mnist-3, mnist-8", "lin-en, lin-wu1, rbf-en", "0.1, 0.5", "2 failed"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	if !strings.HasPrefix(string(md), "# "+Title+"\n\n"+Caveat) || strings.Count(string(md), Caveat) != 2 ||
		!strings.Contains(string(md), "- mnist-8/failed-2: out of memory") || !strings.Contains(string(md), "mnist-8/no-grid: no grid value labeling") {
		t.Errorf("index.md:\n%s", md)
	}
	if !strings.Contains(string(claims), "8. Table 1: the paper: F1 and Pseudo-F") || strings.Count(string(claims), "\n- ") != 8 ||
		strings.Count(string(claims), "[fold means: ") != 5 || !strings.Contains(string(claims), FoldMeansClaimsNote) {
		t.Errorf("claims.md:\n%s", claims)
	}
	// Table 1 (fold means) right after Table 1, its explanation first; the
	// files beside Table 1's.
	t1, tfm, f2 := strings.Index(string(md), "## Table 1\n"), strings.Index(string(md), "## Table 1 (fold means)\n\nTwo readings of the paper's"), strings.Index(string(md), "## Figure 2\n")
	if t1 < 0 || tfm < t1 || f2 < tfm || strings.Count(string(md), "Two readings of the paper's") != 1 {
		t.Errorf("index.md: Table 1 at %d, fold means at %d, Figure 2 at %d", t1, tfm, f2)
	}
	if i, j := strings.Index(string(h), "<h3>Table 1 (fold means)</h3>"), strings.Index(string(h), "<h3>Figure 2</h3>"); i < 0 || j < i || !strings.Contains(string(h), `href="table1-foldmeans.csv"`) || !strings.Contains(string(h), `href="fig2-foldmeans.csv"`) {
		t.Errorf("index.html: fold means at %d, Figure 2 at %d", i, j)
	}
	for name, want := range map[string]string{"table1-foldmeans.md": "Two readings of the paper's", "table1-foldmeans.tex": "Table 1 (fold means)", "table1-foldmeans.csv": "\nrank,random,2,1,"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q:\n%s", name, want, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "fig2-foldmeans.csv")); string(b) != Figure2CSV(*Analyze(synthRecords()).FoldMeans) {
		t.Errorf("fig2-foldmeans.csv:\n%s", b)
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "fig2.svg"))
	for _, want := range []string{"PULP", "PseudoF", "Rank correlation, Scenario 2", "Mean absolute deviation, random", "Pr[y=1] in the unlabeled set"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("fig2.svg lacks %q", want)
		}
	}
	// No records, only failed ones, or only unusable ones: the report still
	// writes, its claims unchecked.
	// Records of another experiment (no labeling axis) are listed and left out.
	for _, recs := range [][]results.Record{nil, synthRecords()[72:74], synthRecords()[74:]} {
		d := t.TempDir()
		if _, err := report.Write(d, report.Input{Records: recs, Manifest: results.Manifest{Schema: results.SchemaVersion, Report: Name}}); err != nil {
			t.Errorf("%d records: %v", len(recs), err)
		}
		if _, err := os.Stat(filepath.Join(d, "claims.md")); err != nil {
			t.Error(err)
		}
	}
}

// The report's columns are the metrics the measure pu-measures writes, in
// the same order (results.PUMeasures is the contract between the two).
func TestMeasuresFollowTheRecords(t *testing.T) {
	var keys []string
	for _, m := range Measures {
		keys = append(keys, m.Key)
	}
	if !slices.Equal(keys, results.PUMeasures) {
		t.Errorf("report columns %v, records' metrics %v", keys, results.PUMeasures)
	}
}
