package experiments

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/experiments/results"
)

// These tests run the runner end to end on synthetic data: they need no
// UCI mirror and run in every `make test`.

// runYAML parses a config and runs all its cells into a fresh directory.
func runYAML(t *testing.T, src string, workers int, cache *results.Cache) (string, Summary, *Config) {
	t.Helper()
	cfg, err := ParseConfig([]byte(src), "synthetic.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cells, err := cfg.Cells(Selection{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := (&Runner{Config: cfg, Cache: cache, Workers: workers}).Run(context.Background(), cells, dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, sum, cfg
}

// syntheticAAAI is the AAAI-2017 pipeline on two generated data sets, with
// two estimators (the default knee rule and the published one), both truths
// and both kinds of measures.
const syntheticAAAI = `experiment: synthetic-aaai
seed: 7
repeats: 2
protocol: {name: case-control, labeled: 200, max_unlabeled: 1500}
grid:
  beta: [1, 0.8]
datasets:
  - name: easy
    source: {name: synth-gaussian, n: 2000, d: 4, positive_fraction: 0.4, separation: 3}
  - name: hard
    source: {name: synth-gaussian, n: 1500, d: 6, positive_fraction: 0.3, separation: 1.5}
    labeled: 150
classifier: {name: nnet-bag, bags: 8}
estimators:
  - alphamax-n
  - {name: alphamax-n, as: published, knee: published}
truths: [traditional, same-model]
metrics: [auc, {name: aucpr, outside: [clip]}, acc, mcc]
`

// The AAAI-2017 protocol on generated features: every key of every measure
// for the true (alpha, beta) and both estimators, the same records for 1
// and 2 workers, and numbers with a known truth: the supervised model's AUC
// is near the Bayes AUC Phi(separation/sqrt 2) of the generator, and the
// direct recovery with the true alpha, beta is near the same model's true
// AUC on U.
func TestSyntheticAAAIPipeline(t *testing.T) {
	d1, sum, _ := runYAML(t, syntheticAAAI, 1, nil)
	// 2 data sets x 2 betas x 2 repeats; a bag per cell and a supervised bag per data set.
	if sum.Ran != 8 || sum.Failed != 0 || sum.Trained != 10 {
		t.Fatalf("summary %+v", sum)
	}
	d2, _, _ := runYAML(t, syntheticAAAI, 2, nil)
	if a, b := resultsOnly(t, d1), resultsOnly(t, d2); !bytes.Equal(a, b) {
		t.Fatalf("records differ between 1 and 2 workers:\n%s\n---\n%s", a, b)
	}
	recs, err := results.ReadRecords(d1)
	if err != nil {
		t.Fatal(err)
	}
	bayes := map[string]float64{"easy": synth.GaussianAUC(3, 1, 0, 1), "hard": synth.GaussianAUC(1.5, 1, 0, 1)}
	var directErr float64
	for _, r := range recs {
		if r.Status != results.StatusOK {
			t.Fatalf("%s: %s", r.Cell, r.Error)
		}
		// U: every row not labeled, at most max_unlabeled = 1,500.
		wantL, wantU := 200, 1500
		if r.Dataset == "hard" {
			wantL, wantU = 150, 1350
		}
		if r.Sizes.Labeled != wantL || r.Sizes.Unlabeled != wantU || r.Sizes.D == 0 || r.Kernel == "" {
			t.Errorf("%s: sizes %+v, kernel %q", r.Cell, r.Sizes, r.Kernel)
		}
		if e := r.Estimates["published"]; e.Method != "alphamax-n" || len(r.Estimates) != 2 {
			t.Errorf("%s: estimates %+v", r.Cell, r.Estimates)
		}
		want := map[string][]string{
			"auc": {"pu", "truth:traditional", "truth:same-model", "direct:real", "indirect:real", "indirect-clip:real",
				"direct:alphamax-n", "indirect:alphamax-n", "indirect-clip:alphamax-n", "direct:published", "indirect:published", "indirect-clip:published"},
			"aucpr": {"pu", "truth:traditional", "truth:same-model", "indirect-clip:real", "indirect-clip:alphamax-n", "indirect-clip:published"},
			"acc": {"pu", "truth-at:pu", "truth:traditional", "truth:same-model", "recovered:real", "truth-at:real",
				"recovered:alphamax-n", "truth-at:alphamax-n", "recovered:published", "truth-at:published"},
		}
		want["mcc"] = want["acc"]
		for m, keys := range want {
			if len(r.Metrics[m]) != len(keys) {
				t.Errorf("%s: %s has keys %v, want %v", r.Cell, m, r.Metrics[m], keys)
			}
			for _, k := range keys {
				if v, ok := r.Metrics[m][k]; !ok || v < -1 || v > 1 {
					t.Errorf("%s: %s/%s = %v (present %v)", r.Cell, m, k, v, ok)
				}
			}
		}
		auc := r.Metrics["auc"]
		if d := math.Abs(auc["truth:traditional"] - bayes[r.Dataset]); d > 0.03 {
			t.Errorf("%s: supervised AUC %.4f, Bayes AUC %.4f", r.Cell, auc["truth:traditional"], bayes[r.Dataset])
		}
		directErr += math.Abs(auc["direct:real"]-auc["truth:same-model"]) / float64(len(recs))
	}
	// Recovery with the true alpha, beta estimates the same model's AUC on
	// U; with |L| of 150-200 its sampling error is a few hundredths.
	if directErr > 0.05 {
		t.Errorf("mean |direct:real - truth:same-model| = %.4f", directErr)
	}
	man, err := results.ReadManifest(d1)
	if err != nil || man.Report != DefaultReport || strings.Join(man.Estimators, ",") != "alphamax-n,published" ||
		len(man.Data) != 2 || len(man.Traditional) != 2 {
		t.Errorf("manifest %+v %v", man, err)
	}
}

// A ranking source runs without a classifier: a case-control split of
// binormal scores, whose AUC is Phi(1/sqrt 2) = 0.760.
func TestSyntheticRanking(t *testing.T) {
	src := `experiment: synthetic-ranking
seed: 3
repeats: 3
protocol: {name: case-control, labeled: 1000, max_unlabeled: 10000}
grid: {beta: [1, 0.9]}
datasets:
  - name: binormal
    source: {name: synth-scores, n: 12000, positive_fraction: 0.3, pos_mean: 1, pos_sd: 1, neg_mean: 0, neg_sd: 1}
estimators: [alphamax-n]
truths: [same-model]
metrics: [auc, bacc]
`
	dir, sum, _ := runYAML(t, src, 2, nil)
	if sum.Ran != 6 || sum.Failed != 0 || sum.Trained != 0 {
		t.Fatalf("summary %+v (a ranking trains no classifier)", sum)
	}
	recs, _ := results.ReadRecords(dir)
	want := synth.GaussianAUC(1, 1, 0, 1)
	for _, r := range recs {
		// n_l = 1,000 and n_u = 10,000 of the 11,000 rows left.
		if r.Sizes.Unlabeled != 10000 || r.Sizes.Labeled != 1000 || r.Sizes.D != 0 || r.Kernel != "" || r.Work != nil {
			t.Errorf("%s: sizes %+v kernel %q", r.Cell, r.Sizes, r.Kernel)
		}
		// The AUC of 10,000 binormal scores has a standard error of about 0.005.
		if got := r.Metrics["auc"]["truth:same-model"]; math.Abs(got-want) > 0.03 {
			t.Errorf("%s: AUC %.4f, binormal %.4f", r.Cell, got, want)
		}
		if d := math.Abs(r.Metrics["auc"]["direct:real"] - r.Metrics["auc"]["truth:same-model"]); d > 0.05 {
			t.Errorf("%s: direct recovery off by %.4f", r.Cell, d)
		}
		if _, ok := r.Metrics["bacc"]["recovered:alphamax-n"]; !ok {
			t.Errorf("%s: bacc keys %v", r.Cell, r.Metrics["bacc"])
		}
	}
}

// The classifier axis: each cell trains its own classifier (and its own
// supervised model for the traditional truth); the label is part of the
// cell's ID and seed.
func TestClassifierAxis(t *testing.T) {
	src := `experiment: classifier-axis
seed: 5
repeats: 1
protocol: {name: case-control, labeled: 100, max_unlabeled: 800}
grid:
  classifier:
    - {label: tiny, name: nnet-bag, bags: 3}
    - {label: small, bags: 6, hidden: 3}
  beta: [1]
datasets:
  - name: g
    source: {name: synth-gaussian, n: 1000, d: 3}
truths: [traditional]
metrics: [auc]
`
	cache, err := results.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir, sum, _ := runYAML(t, src, 2, cache)
	if sum.Ran != 2 || sum.Trained != 4 {
		t.Fatalf("summary %+v (want 2 cells, 2 PU bags and 2 supervised bags)", sum)
	}
	recs, _ := results.ReadRecords(dir)
	if recs[0].Cell != "g/beta=1/classifier=tiny/repeat=0" || recs[1].Cell != "g/beta=1/classifier=small/repeat=0" ||
		recs[0].Grid["classifier"] != "tiny" || recs[0].Seed == recs[1].Seed {
		t.Fatalf("cells %s (%s), %s (%s)", recs[0].Cell, recs[0].Seed, recs[1].Cell, recs[1].Seed)
	}
	if recs[0].Work.Models != 3 || recs[1].Work.Models != 6 {
		t.Errorf("bags of %d and %d nets, want 3 and 6", recs[0].Work.Models, recs[1].Work.Models)
	}
	if recs[0].Metrics["auc"]["truth:traditional"] == recs[1].Metrics["auc"]["truth:traditional"] {
		t.Error("the two classifiers share a supervised model")
	}
	// A second run is served by the score cache, each cell its own scores.
	dir2, sum, _ := runYAML(t, src, 1, cache)
	if sum.Trained != 0 || sum.CacheHits != 4 {
		t.Errorf("second run %+v", sum)
	}
	if !bytes.Equal(resultsOnly(t, dir), resultsOnly(t, dir2)) {
		t.Error("cached scores gave other records")
	}
}

// resultsOnly returns the records of dir without what describes the
// execution rather than the result (timings, the classifier's work).
func resultsOnly(t *testing.T, dir string) []byte {
	t.Helper()
	recs, err := results.ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, r := range recs {
		r.Timings, r.Work = nil, nil
		b, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(b)
	}
	return buf.Bytes()
}

// evaluate: supervised measures the classifier trained on the whole data
// set with the true labels (the AUL paper's setting): with U = every row not
// labeled (no cap), L u U is the whole data set, so that model's true AUC
// on all rows is the same in every cell of a data set, and equals the
// traditional truth judged on the same set. A truth's on: picks its set.
func TestEvaluateSupervisedAndTruthSets(t *testing.T) {
	src := `experiment: supervised
seed: 9
repeats: 2
protocol: {name: case-control, labeled: 100, max_unlabeled: 0}
grid: {beta: [1, 0.9]}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 900, d: 3, separation: 1.5}
classifier: {bags: 4}
evaluate: supervised
truths:
  - {name: same-model, on: all}
  - {name: same-model, as: same-u, on: unlabeled}
  - {name: same-model, as: same-auto}
  - {name: traditional, on: all}
metrics: [auc, acc]
`
	dir, sum, _ := runYAML(t, src, 2, nil)
	// No estimator reads L-vs-U scores, so no PU classifier trains: the supervised bag alone.
	if sum.Failed != 0 || sum.Trained != 1 {
		t.Fatalf("summary %+v", sum)
	}
	recs, _ := results.ReadRecords(dir)
	first := recs[0].Metrics["auc"]["truth:same-model"]
	for _, r := range recs {
		auc, acc := r.Metrics["auc"], r.Metrics["acc"]
		if auc["truth:same-model"] != first || auc["truth:traditional"] != first {
			t.Errorf("%s: AUC of the supervised model on all rows %v, traditional %v; first cell %v",
				r.Cell, auc["truth:same-model"], auc["truth:traditional"], first)
		}
		// auto is U for auc and L u U for acc.
		if auc["truth:same-auto"] != auc["truth:same-u"] || acc["truth:same-auto"] != acc["truth:same-model"] ||
			auc["truth:same-u"] == auc["truth:same-model"] {
			t.Errorf("%s: truth sets: auc %v, acc %v", r.Cell, auc, acc)
		}
	}
}

// A data set may have its own grid (replacing the values of the axes it
// names), its own number of repeats and its own measures.
func TestDatasetGridAndRepeats(t *testing.T) {
	src := `experiment: own-grids
seed: 4
repeats: 2
protocol: {name: case-control, labeled: 60, max_unlabeled: 300}
grid: {beta: [1, 0.9]}
datasets:
  - name: a
    source: {name: synth-gaussian, n: 500, d: 2}
  - name: b
    source: {name: synth-gaussian, n: 500, d: 2}
    grid: {beta: [0.8], labeled: [40, 80]}
    repeats: 1
    metrics: [mcc]
classifier: {bags: 2}
metrics: [auc]
`
	cfg, err := ParseConfig([]byte(src), "g.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cells, _ := cfg.Cells(Selection{})
	var ids []string
	for _, c := range cells {
		ids = append(ids, c.ID)
	}
	want := "a/beta=1/repeat=0 a/beta=1/repeat=1 a/beta=0.9/repeat=0 a/beta=0.9/repeat=1 b/beta=0.8/labeled=40/repeat=0 b/beta=0.8/labeled=80/repeat=0"
	if strings.Join(ids, " ") != want {
		t.Fatalf("cells %s", strings.Join(ids, " "))
	}
	d, sum, _ := runYAML(t, src, 2, nil)
	recs, _ := results.ReadRecords(d)
	if sum.Failed != 0 || recs[5].Sizes.Labeled != 80 || recs[4].Sizes.Labeled != 40 {
		t.Errorf("summary %+v, sizes %+v %+v", sum, recs[4].Sizes, recs[5].Sizes)
	}
	// b has its own measures, a the config's.
	if _, ok := recs[5].Metrics["mcc"]; !ok || len(recs[5].Metrics) != 1 || len(recs[0].Metrics) != 1 || recs[0].Metrics["auc"] == nil {
		t.Errorf("metrics of a: %v; of b: %v", recs[0].Metrics, recs[5].Metrics)
	}
	// The data set's grid is part of the config's key.
	other, _ := ParseConfig([]byte(strings.Replace(src, "labeled: [40, 80]", "labeled: [40, 90]", 1)), "g.yaml", LoadOptions{})
	if other.KeyHash() == cfg.KeyHash() {
		t.Error("a data set's grid is not in the config key")
	}
	if _, err := ParseConfig([]byte(strings.Replace(src, "repeats: 1\n", "repeats: 0\n", 1)), "g.yaml", LoadOptions{}); err == nil ||
		!strings.Contains(err.Error(), "g.yaml:12: datasets[1]: repeats: 0") {
		t.Errorf("repeats 0 for a data set: %v", err)
	}
}

// A stratified subsample of a data set keeps round(n n_P/N) positives, the
// rows' file order and features, and names itself in the fingerprint; the
// same seed gives the same rows.
func TestSubsampleRows(t *testing.T) {
	x := mat.NewDense(10, 2, nil)
	y := make([]bool, 10)
	for i := range 10 {
		x.Set(i, 0, float64(i))
		x.Set(i, 1, -float64(i))
		y[i] = i < 4
	}
	d := &Data{Name: "ten", X: x, Y: y, Fingerprint: "f"}
	a, err := subsampleRows(d, 5, 9)
	if err != nil {
		t.Fatal(err)
	}
	pos := 0
	for i := range a.N() {
		if a.X.At(i, 1) != -a.X.At(i, 0) || (i > 0 && a.X.At(i, 0) <= a.X.At(i-1, 0)) || a.Y[i] != (a.X.At(i, 0) < 4) {
			t.Fatalf("row %d: %v %v", i, a.X.RawRowView(i), a.Y[i])
		}
		if a.Y[i] {
			pos++
		}
	}
	if a.N() != 5 || pos != 2 || a.Fingerprint == d.Fingerprint {
		t.Errorf("%d rows, %d positives, fingerprint %q", a.N(), pos, a.Fingerprint)
	}
	b, _ := subsampleRows(d, 5, 9)
	if !mat.Equal(a.X, b.X) || b.Fingerprint != a.Fingerprint {
		t.Error("same seed, other rows")
	}
	if c, _ := subsampleRows(d, 5, 10); c.Fingerprint == a.Fingerprint {
		t.Error("another seed, the same fingerprint")
	}
}

// tinyExperiment is a small synthetic experiment; %s is replaced by the
// part under test.
const tinyExperiment = `experiment: conformance
seed: 11
repeats: 1
protocol: {name: case-control, labeled: 60, max_unlabeled: 400}
grid: {beta: [1, 0.9]}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 600, d: 3, positive_fraction: 0.4, separation: 2.5}
classifier: {name: nnet-bag, bags: 4}
%s
`
