package pulp

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// TestParseVariant: the grammar of pulp-variant values (Variant's doc) and
// its refusals.
func TestParseVariant(t *testing.T) {
	base := DefaultProtocol().settings()
	for _, tc := range []struct {
		text string
		want func(s *settings)
	}{
		{"base", func(*settings) {}},
		{"labeled-100", func(s *settings) { s.Labeled = 100 }},
		{"folds-4+labeled-300", func(s *settings) { s.Folds, s.Labeled = 4, 300 }},
		{"components-1+pca-0", func(s *settings) { s.Components, s.PCA = 1, 0 }},
		{"representativeness-posterior", func(s *settings) { s.Representativeness = RepPosterior }},
		{"positives-500", func(s *settings) { s.Positives = 500 }},
	} {
		v, err := ParseVariant(tc.text)
		if err != nil {
			t.Errorf("%s: %v", tc.text, err)
			continue
		}
		want := base
		tc.want(&want)
		if got := v.apply(base); got != want {
			t.Errorf("%s: got %+v, want %+v", tc.text, got, want)
		}
	}
	for _, bad := range []string{"", "labeled", "labeled-", "labeled-x", "labeled--1", "labeled-010", "gamma-1", "labeled-1+labeled-2", "representativeness-max", "base+labeled-1"} {
		if _, err := ParseVariant(bad); err == nil {
			t.Errorf("%q: parsed, want an error", bad)
		}
	}
}

// variantCell is biasedCell with a pulp-variant value.
func variantCell(t *testing.T, pi float64, labeling, variant string) *experiments.Cell {
	c := biasedCell(pi, labeling, "c")
	v, err := ParseVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	c.Values[axisVariant] = experiments.AxisValue{Text: variant, Value: v}
	return c
}

// TestVariantSplit: a variant changes the split as its overrides say
// (|L|, the number of folds), base is the split without the axis, the
// variants share P (the shared stream), and an override the protocol
// refuses is an error that names the axis and the value.
func TestVariantSplit(t *testing.T) {
	p := &Protocol{Positives: 400, Labeled: 200, Folds: 8, Components: 2, PCA: 0, GMMSeed: 1, Representativeness: RepDensity}
	data := biasedData()
	split := func(c *experiments.Cell) experiments.Split {
		s, err := p.Split(context.Background(), splitInput(data, c))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	plain := split(biasedCell(0.5, LabelingRandom, "c"))
	base := split(variantCell(t, 0.5, LabelingRandom, "base"))
	if !equalInts(plain.Labeled, base.Labeled) || !equalInts(plain.Unlabeled, base.Unlabeled) || !equalInts(plain.Folds, base.Folds) {
		t.Error("variant base: the split differs from the cell without the axis")
	}
	more := split(variantCell(t, 0.5, LabelingRandom, "labeled-300+folds-4"))
	if len(more.Labeled) != 300 || len(more.Unlabeled) != 100+100 {
		t.Errorf("labeled-300: |L| %d, |U| %d; want 300 and 100 positives + round(100 (1 - 0.5)/0.5) = 100 negatives", len(more.Labeled), len(more.Unlabeled))
	}
	maxFold := 0
	for _, f := range more.Folds {
		maxFold = max(maxFold, f)
	}
	if maxFold != 3 {
		t.Errorf("folds-4: largest fold %d, want 3", maxFold)
	}
	// P is shared: the positives of L u U are the same 400 rows.
	pos := func(s experiments.Split) map[int]bool {
		out := map[int]bool{}
		for _, r := range append(append([]int{}, s.Labeled...), s.Unlabeled...) {
			if data.Y[r] {
				out[r] = true
			}
		}
		return out
	}
	a, b := pos(plain), pos(more)
	if len(a) != 400 || len(b) != 400 {
		t.Fatalf("P: %d and %d positives, want 400", len(a), len(b))
	}
	for r := range a {
		if !b[r] {
			t.Fatalf("row %d is in base's P, not in labeled-300's", r)
		}
	}
	_, err := p.Split(context.Background(), splitInput(data, variantCell(t, 0.5, LabelingRandom, "labeled-400")))
	if err == nil || !strings.Contains(err.Error(), "pulp-variant labeled-400") || !strings.Contains(err.Error(), "labeled 400") {
		t.Errorf("labeled-400 (= positives): got %v, want an error naming the variant and labeled", err)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRepresentativenessPosterior: the posterior reading labels other
// positives than the density in scenario 2 on data where the two orders
// differ (far rows: low density, posterior near 1), and its cache entry is
// its own.
func TestRepresentativenessPosterior(t *testing.T) {
	p := &Protocol{Positives: 400, Labeled: 200, Folds: 8, Components: 2, PCA: 0, GMMSeed: 1, Representativeness: RepDensity}
	data := biasedData()
	dens, err := p.representativeness(context.Background(), data, p.settings())
	if err != nil {
		t.Fatal(err)
	}
	q := p.settings()
	q.Representativeness = RepPosterior
	post, err := p.representativeness(context.Background(), data, q)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for r, d := range dens {
		v := post[r]
		// A largest posterior of two components lies in [1/2, 1]; a
		// log-density of a 2-D mixture is below log(1/(2 pi v)) for the
		// variances of unit-scale data, far below 0.5 for most rows.
		if v < 0.5-1e-12 || v > 1+1e-12 {
			t.Fatalf("row %d: largest posterior %v outside [1/2, 1]", r, v)
		}
		if v != d {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the posterior and the density readings coincide: the cache returned the same entry")
	}
}

// sensitivityRecords are synthRecords (the base variant) and a copy of
// the first three problems' records as variant labeled-300 with PULP's
// PU values moved, so that the study has a protocol variant on three
// "core" problems and base has a fourth problem beyond them.
func sensitivityRecords() []results.Record {
	var out []results.Record
	for _, r := range synthRecords() {
		if r.Grid != nil {
			g := map[string]string{VariantAxis: VariantBase}
			for k, v := range r.Grid {
				g[k] = v
			}
			r.Grid = g
		}
		out = append(out, r)
		if r.Status != results.StatusOK || r.Dataset == "mnist-8" || r.Grid == nil {
			continue
		}
		v := r
		v.Cell = r.Cell + "/pulp-variant=labeled-300"
		v.Grid = map[string]string{}
		for k, x := range r.Grid {
			v.Grid[k] = x
		}
		v.Grid[VariantAxis] = "labeled-300"
		v.Metrics = map[string]map[string]float64{}
		for m, kv := range r.Metrics {
			v.Metrics[m] = map[string]float64{}
			for k, x := range kv {
				v.Metrics[m][k] = x
			}
		}
		v.Metrics["pulp"] = map[string]float64{}
		for k, x := range r.Metrics["auc"] {
			v.Metrics["pulp"][k] = x // PULP tracks the truth exactly, as AUC does
		}
		out = append(out, v)
	}
	return out
}

// TestSensitivity: the options of the study from records (the choices
// and their order, the core problems), each option's rho the Table-1 value
// of the analysis of the same records (an identity), and a Write of a
// sensitivity run whose Table 1 is the base variant's.
func TestSensitivity(t *testing.T) {
	recs := sensitivityRecords()
	opts := Sensitivity(recs)
	var labels []string
	for _, o := range opts {
		labels = append(labels, optionLabel(o))
	}
	want := []string{
		"today's protocol: base (per fold)", "correlation unit: fold means", "labeled rows per fold: labeled-300",
		"classifiers: linear only", "classifiers: RBF only", "classifiers: biased-SVM weights only", "classifiers: Elkan-Noto and C sweep only",
		"Pr[y=1] grid: Pr[y=1] < 0.5", "Pr[y=1] grid: Pr[y=1] >= 0.5",
		"problems pooled: text only", "problems pooled: digits only", "problems pooled: every base problem",
	}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Fatalf("options:\n got %q\nwant %q", labels, want)
	}
	// Today's option is the analysis of the base records of the three
	// core problems (mnist-8 ran only under base).
	var core []results.Record
	for _, r := range recs {
		if r.Status == results.StatusOK && r.Grid[VariantAxis] == VariantBase && r.Dataset != "mnist-8" {
			core = append(core, r)
		}
	}
	a := Analyze(core)
	for _, l := range PaperLabelings {
		for _, m := range Measures {
			v, _ := a.GridMean(StatRank, l, m.Key)
			got := opts[0].Rank[l][m.Key]
			if !(v == got || math.IsNaN(v) && math.IsNaN(got)) {
				t.Errorf("today's %s %s: %v, want Analyze's %v", l, m.Key, got, v)
			}
		}
	}
	if opts[0].Problems != 3 || opts[len(opts)-1].Problems != 4 {
		t.Errorf("problems: today's %d (want 3), every base problem %d (want 4)", opts[0].Problems, opts[len(opts)-1].Problems)
	}
	// In labeled-300 PULP's PU values are AUC's, which equal the truth:
	// rho 1 in every scenario.
	if o := opts[2]; o.Rank[Scenario2]["pulp"] != 1 || o.Rank[Random]["pulp"] != 1 {
		t.Errorf("labeled-300: PULP rho %v, %v; want 1", o.Rank[Random]["pulp"], o.Rank[Scenario2]["pulp"])
	}
	if Sensitivity(synthRecords()) != nil {
		t.Error("records without pulp-variant: want no study")
	}

	dir := t.TempDir()
	if _, err := Write(dir, report.Input{Records: recs}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"sensitivity.png", "sensitivity.csv", "sensitivity.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	baseDir := t.TempDir()
	if _, err := Write(baseDir, report.Input{Records: baseRecords(recs)}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "table1.csv"))
	wantT, _ := os.ReadFile(filepath.Join(baseDir, "table1.csv"))
	if string(got) != string(wantT) {
		t.Error("a sensitivity run's Table 1 is not its base variant's")
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "index.md"))
	if !strings.Contains(string(idx), "## Sensitivity study") || !strings.Contains(string(idx), "**Conclusion.**") {
		t.Error("index.md lacks the sensitivity section or its conclusion")
	}
}

// TestClaimMargins: a comparison claim holds only by more than MarginSEs
// bootstrap SEs. craft's Scenario 2 has PULP 0.880 above every other
// measure (the best other AUC 0.520): a bare argmax holds. Replicates whose
// PULP - AUC differences are 0.06 and 0.66 have SD 0.4243 (n - 1: by hand),
// so the margin 0.849 exceeds the 0.36 lead and the claim fails; with
// replicates without spread it holds.
func TestClaimMargins(t *testing.T) {
	a := craft(nil)
	if c := Claims(a)[1]; c.Verdict != report.Holds {
		t.Fatalf("bare comparison: %s", c)
	}
	rep := func(pulp float64) Rows {
		return Rows{Rank: map[string]map[string]float64{Scenario2: {"pulp": pulp, "auc": 0.52, "f1": 0, "ll": 0, "mi": 0, "pearson": 0, "map": 0, "pseudo-f": 0}}}
	}
	// Differences 0.06 and 0.66: mean 0.36, SD sqrt(2 x 0.3^2 / 1) = 0.4243;
	// the margin 0.8485 > 0.36.
	a.Noise = &Noise{Problems: 2, Replicates: []Rows{rep(0.58), rep(1.18)}}
	c := Claims(a)[1]
	if c.Verdict != report.Fails || !strings.Contains(c.Detail, "margin needed 0.849") {
		t.Errorf("noisy bootstrap: %s", c)
	}
	a.Noise = &Noise{Problems: 2, Replicates: []Rows{rep(0.88), rep(0.88)}}
	if c := Claims(a)[1]; c.Verdict != report.Holds {
		t.Errorf("bootstrap without spread: %s", c)
	}
}

// FuzzParseVariant: any text parses or is refused with an error, never a
// panic; a parsed variant keeps its text, and parsing that text again
// gives the same settings.
func FuzzParseVariant(f *testing.F) {
	for _, s := range []string{"base", "labeled-100", "folds-4+labeled-300", "representativeness-posterior",
		"", "+", "labeled-", "-1", "labeled--1", "labeled-99999999999999999999", "base+labeled-1", "labeled-1+labeled-1", "pca-0+components-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := ParseVariant(text)
		if err != nil {
			return
		}
		if v.Text != text {
			t.Fatalf("%q parsed as %q", text, v.Text)
		}
		w, err := ParseVariant(v.Text)
		if err != nil || w.apply(DefaultProtocol().settings()) != v.apply(DefaultProtocol().settings()) {
			t.Fatalf("%q: a second parse differs (%v)", text, err)
		}
	})
}
