package claesen2015

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// TestFigure1WorkedExample: the paper's Sec. 2.1 example, exactly: P1 =
// {B,D,A,C} in R = (B,E,D,G,H,A,F,C,I) jumps to 1/4, 2/4, 3/4, 1 at ranks 1,
// 3, 6, 8; P2 = {E,G,F} to 1/3, 2/3, 1 at ranks 2, 4, 7 (values stated in
// the paper's text under Figure 1).
func TestFigure1WorkedExample(t *testing.T) {
	ranks, cdf, err := RankCDF(Fig1Ranking, Fig1P1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ranks, []int{1, 3, 6, 8}) || !slices.Equal(cdf, []float64{0.25, 0.5, 0.75, 1}) {
		t.Errorf("P1: ranks %v cdf %v", ranks, cdf)
	}
	ranks, cdf, err = RankCDF(Fig1Ranking, Fig1P2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ranks, []int{2, 4, 7}) || !slices.Equal(cdf, []float64{1.0 / 3, 2.0 / 3, 1}) {
		t.Errorf("P2: ranks %v cdf %v", ranks, cdf)
	}
	if _, _, err := RankCDF(Fig1Ranking, []string{"B", "Z"}); err == nil {
		t.Error("a member outside the ranking: no error")
	}
	if _, _, err := RankCDF(Fig1Ranking, []string{"B", "B"}); err == nil {
		t.Error("a member listed twice: no error")
	}
	_, notes, err := Figure1()
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "agree") {
		t.Errorf("notes %q: want the single agreement note", notes)
	}
	dir := t.TempDir()
	files, _, err := drawFigure1(dir)
	if err != nil || len(files) != 3 {
		t.Fatalf("drawFigure1: %v %v", files, err)
	}
}

func TestSourceRoundTrip(t *testing.T) {
	for _, f := range []float64{0, 0.5, 0.83, 1, 1.5, 2} {
		got, ok := parseMultiple(Source(f))
		if !ok || got != f {
			t.Errorf("parseMultiple(Source(%v)) = %v, %v", f, got, ok)
		}
	}
	if Source(1) != "real" || Source(0.5) != "real*0.5" {
		t.Errorf("Source: %q %q", Source(1), Source(0.5))
	}
	for _, s := range []string{"real*0.88..1.25", "alphamax-n", "real*x"} {
		if _, ok := parseMultiple(s); ok {
			t.Errorf("parseMultiple(%q): a multiple", s)
		}
	}
}

// rec builds an ok record of data set ds with AUC-bounds values.
func rec(ds string, repeat int, grid map[string]string, alpha float64, auc map[string]float64) results.Record {
	return results.Record{Experiment: "claesen2015", Dataset: ds, Repeat: repeat, Grid: grid, Alpha: alpha,
		Status: results.StatusOK, Metrics: map[string]map[string]float64{aucMetric: auc}}
}

// TestFigure2: means, widths and coverage by hand on three repeats per
// |P_L|.
func TestFigure2(t *testing.T) {
	lo, hi := key("bootstrap-lower", 1), key("bootstrap-upper", 1)
	var recs []results.Record
	add := func(n, rep int, l, u, tr float64) {
		recs = append(recs, rec(fig2Dataset, rep, map[string]string{"labeled": strconv.Itoa(n)}, 0.2,
			map[string]float64{lo: l, hi: u, truthKey: tr}))
	}
	// |P_L| 1000: widths .2, .2, .2, truth outside in the third repeat.
	add(1000, 0, 0.6, 0.8, 0.7)
	add(1000, 1, 0.65, 0.85, 0.7)
	add(1000, 2, 0.5, 0.7, 0.75)
	// |P_L| 100: widths .4 each, all covered.
	add(100, 0, 0.5, 0.9, 0.7)
	add(100, 1, 0.45, 0.85, 0.7)
	add(100, 2, 0.55, 0.95, 0.7)
	recs = append(recs, rec("other", 0, map[string]string{"labeled": "100"}, 0.2, map[string]float64{lo: 0, hi: 1, truthKey: 0.5}))
	rows := Figure2Rows(recs)
	if len(rows) != 2 || rows[0].Labeled != 100 || rows[1].Labeled != 1000 {
		t.Fatalf("rows %+v", rows)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(rows[0].Width, 0.4) || !near(rows[1].Width, 0.2) || rows[0].Coverage != 1 || !near(rows[1].Coverage, 2.0/3) {
		t.Errorf("rows %+v", rows)
	}
	if !near(rows[1].Lower, 0.5833333333333334) || !near(rows[1].Truth, 2.15/3) {
		t.Errorf("means %+v", rows[1])
	}
	cs := Figure2Claims(rows)
	if cs[0].Verdict != report.Holds || cs[1].Verdict != report.Fails {
		t.Errorf("claims %v", cs)
	}
	if !strings.Contains(cs[1].Detail, "66.7 % at |P_L| 1000") {
		t.Errorf("coverage detail %q", cs[1].Detail)
	}
	// A width that grows with |P_L| fails the first claim.
	rows[1].Width = 0.5
	if Figure2Claims(rows)[0].Verdict != report.Fails {
		t.Error("a growing width passes")
	}
	if cs := Figure2Claims(nil); cs[0].Verdict != report.NotChecked || cs[1].Verdict != report.NotChecked {
		t.Errorf("no rows: %v", cs)
	}
}

// TestFigure3Lemma4: beta-hat below beta must lower both bounds, above
// raise both; a row that moves the wrong way fails the claim.
func TestFigure3Lemma4(t *testing.T) {
	var recs []results.Record
	for rep := range 2 {
		m := map[string]float64{truthKey: 0.76}
		for f, lu := range map[float64][2]float64{0: {0.68, 0.68}, 0.5: {0.70, 0.74}, 1: {0.73, 0.79}, 1.5: {0.78, 0.85}} {
			m[key("bootstrap-lower", f)] = lu[0] + 0.001*float64(rep)
			m[key("bootstrap-upper", f)] = lu[1] + 0.001*float64(rep)
			m[key("point", f)] = (lu[0] + lu[1]) / 2
		}
		recs = append(recs, rec(fig3Dataset, rep, nil, 0.3, m))
	}
	rows := Figure3Rows(recs)
	if len(rows) != 4 || rows[0].Multiple != 0 || rows[3].Multiple != 1.5 {
		t.Fatalf("rows %+v", rows)
	}
	if math.Abs(rows[3].BetaHat-0.45) > 1e-12 || rows[1].Moved != 2 || rows[1].Compared != 2 || rows[0].Under != 2 {
		t.Errorf("rows %+v", rows)
	}
	cs := Figure3Claims(rows)
	if cs[0].Verdict != report.Holds || cs[1].Verdict != report.Holds {
		t.Errorf("claims %v", cs)
	}
	rows[3].Upper = 0.78 // the overestimate's upper bound below the true beta's
	if Figure3Claims(rows)[0].Verdict != report.Fails {
		t.Error("a bound moving against Lemma 4 passes")
	}
}

// fig4Rec is a record of a Figure 4 model with point and affine values by
// multiple of beta 0.05 (|P_L| 5000, |U| 45000).
func fig4Rec(ds string, vals map[float64][2]float64) results.Record {
	m := map[string]float64{truthKey: 0.83}
	for f, pa := range vals {
		m[key("point", f)], m[key("affine", f)] = pa[0], pa[1]
	}
	r := rec(ds, 0, nil, 0.05, m)
	r.Sizes = results.Sizes{Labeled: 5000, Unlabeled: 45000}
	return r
}

// TestClampTolerance: the bound of spec §1.1 worked by hand for |P_L| 5000,
// |U| 45000, beta 0.05, beta-hat 0.1: P_U = 2250, 2/7250 + 2/42750 +
// 0.1/(0.9 x 5000).
func TestClampTolerance(t *testing.T) {
	want := 2.0/7250 + 2.0/42750 + 0.1/(0.9*5000)
	if got := ClampTolerance(5000, 45000, 0.05, 0.1); math.Abs(got-want) > 1e-15 {
		t.Errorf("ClampTolerance = %v, want %v", got, want)
	}
	if !math.IsInf(ClampTolerance(5000, 45000, 0.05, 1), 1) || !math.IsInf(ClampTolerance(0, 45000, 0.05, 0.1), 1) {
		t.Error("degenerate tolerances are not infinite")
	}
}

// TestFigure4Flip: the order of the point estimates flips between beta-hat
// 0 and 0.1. Where model 2's point leaves its affine value by more than the
// tolerance (the clamp binds) the claim holds; with point = affine (no
// clamp) a flip contradicts the affine identity and the claim fails.
func TestFigure4Flip(t *testing.T) {
	m1 := fig4Rec(fig4Model1, map[float64][2]float64{0: {0.725, 0.725}, 2: {0.755, 0.755}})
	m2 := fig4Rec(fig4Model2, map[float64][2]float64{0: {0.732, 0.732}, 2: {0.747, 0.7633}})
	rows := Figure4Rows([]results.Record{m1, m2})
	cs := Figure4Compare(rows)
	if len(cs) != 2 || math.Abs(cs[1].BetaHat-0.1) > 1e-12 {
		t.Fatalf("compare %+v", cs)
	}
	if !cs[1].M2.ClampBinds() || cs[1].M1.ClampBinds() || cs[1].M2.Clamped != 1 {
		t.Errorf("clamp: %+v", cs[1])
	}
	claims := Figure4Claims(cs)
	if claims[0].Verdict != report.Holds {
		t.Errorf("sign pattern %v", claims[0])
	}
	if claims[1].Verdict != report.Holds || !strings.Contains(claims[1].Detail, "the clamp binds") {
		t.Errorf("flip %v", claims[1])
	}
	// The same flip with point = affine: impossible without the clamp.
	m2 = fig4Rec(fig4Model2, map[float64][2]float64{0: {0.732, 0.732}, 2: {0.747, 0.747}})
	claims = Figure4Claims(Figure4Compare(Figure4Rows([]results.Record{m1, m2})))
	if claims[1].Verdict != report.Fails {
		t.Errorf("a flip without the clamp passes: %v", claims[1])
	}
	// The inset table puts ours beside the paper's.
	inset := Figure4InsetTable(cs)
	if len(inset.Rows) != 2 || inset.Rows[1].Values[0] != 0.755 || inset.Rows[1].Paper[1] != 0.747 {
		t.Errorf("inset %+v", inset.Rows)
	}
}

// TestAppendixClaims: claims (a), (b), (c) on hand-made cells.
func TestAppendixClaims(t *testing.T) {
	grid := func(kp, kn float64) map[string]string {
		return map[string]string{"known-positives": g(kp), "known-negatives": g(kn)}
	}
	iv := func(m map[string]float64, band string, f, lo, hi float64) {
		m[key(band+"-lower", f)], m[key(band+"-upper", f)] = lo, hi
	}
	var recs []results.Record
	for _, kn := range []float64{0, 0.4, 0.8} {
		m := map[string]float64{truthKey: 0.76}
		iv(m, "bootstrap", 1, 0.71, 0.81) // width 0.1 whatever kn
		for _, f := range AppMultiples {
			iv(m, "dkw", f, 0.66+0.04*f, 0.86+0.04*f) // rises with beta-hat
			switch kn {
			case 0.8:
				iv(m, "dkw-neg", f, 0.76-0.04*f, 0.78-0.02*f) // falls; contains 0.76 at f = 1; narrow
			case 0.4:
				iv(m, "dkw-neg", f, 0.56-0.04*f, 0.98-0.02*f) // falls; wider than the positive-based
			}
		}
		recs = append(recs, rec("app-d3", 0, grid(0.1, kn), 0.4, m))
	}
	m := map[string]float64{truthKey: 0.76}
	iv(m, "bootstrap", 1, 0.74, 0.78) // kp 0.5: width 0.04, 60 % narrower
	recs = append(recs, rec("app-d3", 0, grid(0.5, 0), 0.2, m))
	rows := AppendixRows(recs)
	if len(rows) != 4 || rows[0].KP != 0.1 || rows[0].KN != 0 || rows[3].KP != 0.5 {
		t.Fatalf("rows %+v", rows)
	}
	cs := AppendixClaims(rows)
	for i, c := range cs {
		if c.Verdict != report.Holds {
			t.Errorf("claim %d: %v", i, c)
		}
	}
	if got := Tighter(get(rows[2].DKW, 1), get(rows[2].DKWNeg, 1)); got != "negatives" {
		t.Errorf("Tighter = %q", got)
	}
	// Known negatives that halve the width are not "marginal".
	rows[2].Boot[1] = Interval{0.74, 0.79}
	if appClaimA(rows).Verdict != report.Fails {
		t.Error("claim (a) passes with a halved width")
	}
	rows[1].DKWNeg[1] = Interval{0.75, 0.77}
	if d := appClaimD(rows); d.Verdict != report.Fails || !strings.Contains(d.Detail, "positive-based are the tighter in 0, the negative-based in 2") {
		t.Errorf("claim (d) with the negative-based always tighter: %v", d)
	}
	// Negative-based bounds that rise with beta-hat fail claim (c).
	rows[1].DKWNeg[1.5] = Interval{0.8, 0.9}
	if c := appClaimC(rows); c.Verdict != report.Fails || !strings.Contains(c.Detail, "negative-based fall in 1,") {
		t.Errorf("claim (c) with a rising negative-based bound: %v", c)
	}
	tab := AppendixTable2(rows)
	if len(tab.Rows) != 2*len(AppMultiples) {
		t.Errorf("table 2 has %d rows, want one per kn > 0 and multiple", len(tab.Rows))
	}
}

// TestFigure5Claims: the bootstrap band's claim on the median split, the
// DKW band's on every split, the containment of the true AUC and the widths,
// from hand-made cells.
func TestFigure5Claims(t *testing.T) {
	cells := []Fig5Cell{
		{KP: 0.05, Coverage: 0.99, DKWCoverage: 1, AUC: Interval{0.7, 0.8}, AUPR: Interval{0.65, 0.8}, AUCTruth: 0.75},
		{KP: 0.05, Repeat: 1, Coverage: 0.30, DKWCoverage: 0.995, AUC: Interval{0.7, 0.8}, AUPR: Interval{0.6, 0.8}, AUCTruth: 0.75},
		{KP: 0.05, Repeat: 2, Coverage: 0.92, DKWCoverage: 1, AUC: Interval{0.7, 0.8}, AUPR: Interval{0.6, 0.8}, AUCTruth: 0.75},
	}
	cs := Figure5Claims(cells)
	for i, c := range cs {
		if c.Verdict != report.Holds {
			t.Errorf("claim %d: %v", i, c)
		}
	}
	// The worst split (repeat 1, 30 %) is named beside the median; by hand
	// the mean is (99 + 30 + 92)/3 = 73.7 %.
	if !strings.Contains(cs[0].Detail, "median split 92.0 %, worst split 30.0 % (repeat 1), mean 73.7 % over 3 splits") || !strings.Contains(cs[0].Test, "the worst split is shown beside it") {
		t.Errorf("band detail %q", cs[0].Detail)
	}
	cells[2].Coverage = 0.85 // median 85 %
	if Figure5Claims(cells)[0].Verdict != report.Fails {
		t.Error("a median coverage of 85 % passes")
	}
	cells[1].DKWCoverage = 0.98
	if Figure5Claims(cells)[1].Verdict != report.Fails {
		t.Error("a DKW band leaving the CDF at 2 % of the cut-offs passes")
	}
	cells[1].AUCTruth = 0.85
	if Figure5Claims(cells)[2].Verdict != report.Fails {
		t.Error("a truth outside the bounds in 1 of 3 splits passes")
	}
	cells[0].AUPR = Interval{0.7, 0.75}
	if Figure5Claims(cells)[3].Verdict != report.Fails {
		t.Error("narrower PR bounds pass")
	}
}

// TestWriteWithoutRecords: a run without any of the data sets writes the
// analytic figure, notes and claims.md with every data claim unchecked,
// naming the manifest's reason.
func TestWriteWithoutRecords(t *testing.T) {
	dir := t.TempDir()
	in := report.Input{Manifest: results.Manifest{Report: Name, Unavailable: map[string]string{"covtype": "PUEVAL_CLAESEN_DATA is not set"}}}
	h, err := Write(dir, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Figure 1", "PUEVAL_CLAESEN_DATA is not set", "could not be checked"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "claims.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), ": holds") || strings.Contains(string(b), "does NOT hold") {
		t.Errorf("claims.md checks a claim without records:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, Figure1Name+".png")); err != nil {
		t.Error(err)
	}
	if p, ok := report.Lookup(Name); !ok || p.Title != Title {
		t.Errorf("report %q is not registered", Name)
	}
}

// TestFigure4Grid: the grid data sets pair by name; each pair and true beta
// says whether the paper's sign pattern (model 2 ahead at beta-hat 0,
// model 1 at 0.1) appears. By construction: tuned, beta 0.05 (multiple 2)
// has it; published, beta 0.02 (multiple 5 = beta-hat 0.1) keeps model 1
// ahead at both; published, beta 0.1 has no beta-hat 0.1 in its records.
func TestFigure4Grid(t *testing.T) {
	mk := func(ds string, beta float64, vals map[float64][2]float64) results.Record {
		r := fig4Rec(ds, vals)
		r.Alpha = beta
		return r
	}
	recs := []results.Record{
		mk("fig4g-published-b0.1-model1", 0.1, map[float64][2]float64{0: {0.73, 0.73}}),
		mk("fig4g-published-b0.1-model2", 0.1, map[float64][2]float64{0: {0.74, 0.74}}),
		mk("fig4g-published-b0.02-model1", 0.02, map[float64][2]float64{0: {0.73, 0.73}, 5: {0.76, 0.76}}),
		mk("fig4g-published-b0.02-model2", 0.02, map[float64][2]float64{0: {0.72, 0.72}, 5: {0.75, 0.75}}),
		mk("fig4g-tuned-b0.05-model1", 0.05, map[float64][2]float64{0: {0.725, 0.725}, 2: {0.755, 0.755}}),
		mk("fig4g-tuned-b0.05-model2", 0.05, map[float64][2]float64{0: {0.732, 0.732}, 2: {0.747, 0.7633}}),
	}
	rows := Figure4GridRows(recs)
	if len(rows) != 3 || rows[0].Pair != "tuned" || rows[1].Beta != 0.02 || rows[2].Beta != 0.1 {
		t.Fatalf("rows %+v", rows)
	}
	if !rows[0].Pattern() || !rows[0].Flip() || rows[1].Pattern() || rows[1].Flip() || rows[2].Found1 || rows[2].Pattern() {
		t.Errorf("patterns: %v %v %v", rows[0].Pattern(), rows[1].Pattern(), rows[2].Pattern())
	}
	want := "appears with tuned beta 0.05; not with published beta 0.02 (model 1 ahead at 0, model 1 at 0.1); published beta 0.1 (no beta-hat 0 or 0.1). Figure 4's own models (model 2 N(2.15, 2^2), true beta 0.05) are the tuned choice"
	if got := Figure4GridFinding(rows); !strings.Contains(got, want) {
		t.Errorf("finding %q", got)
	}
	tab := Figure4GridTable(rows)
	if r := tab.Rows[0]; r.Labels[3].Text != "yes" || r.Labels[4].Text != "yes" || r.Labels[5].Text != "yes" || r.Values[0] != 0.725 || r.Values[3] != 0.747 {
		t.Errorf("tuned row %+v", r)
	}
	if r := tab.Rows[2]; r.Labels[5].Text != "-" || !math.IsNaN(r.Values[2]) {
		t.Errorf("row without beta-hat 0.1 %+v", r)
	}
}
