package evaluate

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/metrics"
)

// puScores draws a PU sample of Gaussian scores (positives N(mu, 1),
// negatives N(0, 1)) and returns it as one score column with labeled flags,
// labeled rows first, and the true classes.
func puScores(t testing.TB, seed uint64, mu, alpha, beta float64, nL, nU int) (scores []float64, labeled, truth []bool) {
	t.Helper()
	s, err := synth.PU(rand.New(rand.NewPCG(seed, 7)), synth.Normal(mu, 1), synth.Normal(0, 1), alpha, beta, nL, nU)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range s.Labeled {
		scores, labeled, truth = append(scores, x), append(labeled, true), append(truth, s.LabeledTruth[i])
	}
	for i, x := range s.Unlabeled {
		scores, labeled, truth = append(scores, x), append(labeled, false), append(truth, s.UnlabeledTruth[i])
	}
	return scores, labeled, truth
}

// With given alpha and beta, every number is the one recovery.Summary
// computes (the numbers of pueval correct, which the recovery package
// checks against AAAI-2017 and PSB-2019), and the PU numbers are package
// metrics' on labeled-vs-unlabeled.
func TestGivenPriorsAreRecoverySummary(t *testing.T) {
	scores, labeled, _ := puScores(t, 1, 2, 0.3, 0.9, 500, 3000)
	for _, o := range recovery.Outsides {
		res, err := Run(context.Background(), Input{Scores: scores, Labeled: labeled},
			Options{Priors: &GivenPriors{Alpha: 0.3, Beta: 0.9}, Outside: o, BoundsResamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		r, _ := metrics.Rank(scores, labeled)
		rc, _ := recovery.New(r, 0.3, 0.9)
		s, _ := rc.Summary(o)
		m := res.Metrics
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"auc.pu", float64(m.AUC.PU), s.AUC.PU}, {"auc.recovered", float64(m.AUC.Recovered), s.AUC.Indirect},
			{"auc.direct", float64(*m.AUC.Direct), s.AUC.Direct}, {"aucpr.pu", float64(m.AUCPR.PU), s.AUCPR.PU},
			{"aucpr.recovered", float64(m.AUCPR.Recovered), s.AUCPR.Indirect},
			{"f1.recovered", float64(m.F1.Recovered), s.F1.Recovered.Value}, {"f1.threshold", float64(*m.F1.Threshold), s.F1.Recovered.Threshold},
			{"f1.pu", float64(m.F1.PU), s.F1.PU.Value}, {"mcc.recovered", float64(m.MCC.Recovered), s.MCC.Recovered.Value},
			{"acc.recovered", float64(m.Acc.Recovered), s.Acc.Recovered.Value}, {"bacc.recovered", float64(m.BAcc.Recovered), s.BAcc.Recovered.Value},
			{"pi", float64(res.Pi), s.Pi}, {"c", float64(res.C), s.C},
		} {
			if c.got != c.want {
				t.Errorf("%v: %s = %v, want %v", o, c.name, c.got, c.want)
			}
		}
		if res.Priors.Source != "given" || !res.Priors.Valid || res.Bounds != nil || res.Bootstrap != nil {
			t.Errorf("priors %+v, bounds %v, bootstrap %v", res.Priors, res.Bounds, res.Bootstrap)
		}
		// Every estimator that applies to scores ran beside the given priors.
		if got, want := len(res.Estimators), len(Applicable(false)); got != want {
			t.Errorf("%d estimators, want %d", got, want)
		}
	}
}

// A resample computes the AUC-PR from the ROC curve it has already sorted;
// that must be the area rc.AUCPR gives, and the AUC rc.IndirectAUC's.
func TestResampleAreasAreRecoverys(t *testing.T) {
	scores, labeled, _ := puScores(t, 2, 1.5, 0.4, 0.8, 300, 2000)
	r, _ := metrics.Rank(scores, labeled)
	for _, o := range recovery.Outsides {
		rc, _ := recovery.New(r, 0.45, 0.8)
		roc := rc.ROC(o)
		if got, want := metrics.TrapezoidAUC(roc), rc.IndirectAUC(o); got != want {
			t.Errorf("%v: AUC %v, want %v", o, got, want)
		}
		if got, want := recovery.AreaUnder(rc.PRFromROC(roc), recovery.DefaultPRArea), rc.AUCPR(o, recovery.DefaultPRCurve, recovery.DefaultPRArea); got != want {
			t.Errorf("%v: AUC-PR %v, want %v", o, got, want)
		}
	}
}

// stripped is the JSON of a result.
func jsonOf(t *testing.T, res *Result) string {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The result is a function of the input, the options and the seed: the
// same for any number of workers; another seed changes the intervals.
func TestDeterministicAcrossWorkers(t *testing.T) {
	scores, labeled, _ := puScores(t, 3, 2, 0.3, 0.95, 300, 2000)
	in := Input{Scores: scores, Labeled: labeled}
	var first string
	for _, w := range []int{1, 3} {
		res, err := Run(context.Background(), in, Options{Bootstrap: 40, Seed: 9, Workers: w, BoundsResamples: 200})
		if err != nil {
			t.Fatal(err)
		}
		if res.Bootstrap.Used == 0 {
			t.Fatalf("no resample used: %+v", res.Bootstrap)
		}
		if got := jsonOf(t, res); first == "" {
			first = got
		} else if got != first {
			t.Errorf("workers %d: the result differs from workers 1", w)
		}
	}
	res, err := Run(context.Background(), in, Options{Bootstrap: 40, Seed: 10, BoundsResamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	if jsonOf(t, res) == first {
		t.Error("seed 10 gives the result of seed 9")
	}
}

// Bad input is an error naming what is wrong; input that only makes the
// numbers meaningless is a warning with its code, never a panic.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		in   Input
		opts Options
		want string
	}{
		{"no unlabeled", Input{Scores: []float64{1, 2}, Labeled: []bool{true, true}}, Options{}, "2 labeled and 0 unlabeled"},
		{"no labeled", Input{Scores: []float64{1, 2}, Labeled: []bool{false, false}}, Options{}, "0 labeled and 2 unlabeled"},
		{"empty", Input{Scores: []float64{}, Labeled: []bool{}}, Options{}, "0 labeled and 0 unlabeled"},
		{"nan", Input{Scores: []float64{1, math.NaN()}, Labeled: []bool{true, false}}, Options{}, "row 2 is NaN"},
		{"inf", Input{Scores: []float64{math.Inf(1), 0}, Labeled: []bool{true, false}}, Options{}, "row 1 is +Inf"},
		{"lengths", Input{Scores: []float64{1, 2, 3}, Labeled: []bool{true, false}}, Options{}, "3 scores for 2 rows"},
		{"nothing", Input{Labeled: []bool{true, false}}, Options{}, "no scores and no features"},
		{"priors", Input{Scores: []float64{1, 2}, Labeled: []bool{true, false}}, Options{Priors: &GivenPriors{0.5, 0.4}}, "alpha 0.5, beta 0.4"},
		{"level", Input{Scores: []float64{1, 2}, Labeled: []bool{true, false}}, Options{Level: 1.5}, "level 1.5"},
		{"unknown estimator", Input{Scores: []float64{1, 2}, Labeled: []bool{true, false}}, Options{Estimators: []string{"nope"}}, `unknown class-prior estimator "nope"`},
		{"km on scores", Input{Scores: []float64{1, 2}, Labeled: []bool{true, false}}, Options{Estimators: []string{"km1"}}, "km1 reads the examples' features"},
		{"nan feature", Input{Features: mat.NewDense(2, 1, []float64{1, math.NaN()}), Labeled: []bool{true, false}}, Options{}, "must be finite"},
	} {
		_, err := Run(ctx, c.in, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func codes(res *Result) map[string]bool {
	m := map[string]bool{}
	for _, w := range res.Warnings {
		m[w.Code] = true
	}
	return m
}

// Tied scores, a model that ranks the unlabeled above the labeled, and
// estimators that fail or give beta <= alpha are reported, with every
// number that cannot be computed null, and the result still encodes.
func TestDegenerateModelsWarn(t *testing.T) {
	ctx := context.Background()
	n := 400
	tied := make([]float64, n)
	labeled := make([]bool, n)
	for i := range n {
		tied[i] = 0.5
		labeled[i] = i < 100
	}
	res, err := Run(ctx, Input{Scores: tied, Labeled: labeled}, Options{Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	w := codes(res)
	for _, c := range []string{WarnTiedScores, WarnAUCPU, WarnEstimatorFailed, WarnInvalidPriors, WarnFewScores} {
		if !w[c] {
			t.Errorf("tied scores: no %s warning in %+v", c, res.Warnings)
		}
	}
	if res.Priors.Valid || res.Metrics.AUC.Recovered.Ok() || res.Metrics.F1.Recovered.Ok() || res.Metrics.AUC.Interval != nil {
		t.Errorf("tied scores: recovered numbers %+v", res.Metrics)
	}
	if res.Metrics.AUC.PU != 0.5 || res.Bootstrap.Failed != 20 {
		t.Errorf("PU AUC %v, bootstrap %+v", res.Metrics.AUC.PU, res.Bootstrap)
	}
	jsonOf(t, res)

	// Reversed scores: the labeled rank below the unlabeled.
	scores, labeled2, _ := puScores(t, 4, 2, 0.3, 0.9, 300, 2000)
	for i := range scores {
		scores[i] = -scores[i]
	}
	res, err = Run(ctx, Input{Scores: scores, Labeled: labeled2}, Options{Bootstrap: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !codes(res)[WarnAUCPU] {
		t.Errorf("reversed scores: no %s warning in %+v", WarnAUCPU, res.Warnings)
	}
	if !res.Priors.Valid && res.Metrics.AUC.Recovered.Ok() {
		t.Error("reversed scores: a recovered AUC without valid priors")
	}
	jsonOf(t, res)
}

// inverted is a class-prior estimator for the tests that always returns
// alpha 0.6 and beta 0.4: beta <= alpha, which the recovery cannot use.
type inverted struct{}

func (inverted) Name() string                         { return "test-inverted" }
func (inverted) Validate() error                      { return nil }
func (inverted) Key() string                          { return "test-inverted" }
func (c inverted) New() (classprior.Estimator, error) { return c, nil }
func (inverted) Estimate(context.Context, classprior.Input, *rand.Rand) (classprior.Estimate, error) {
	return classprior.Estimate{Method: "test-inverted", Alpha: 0.6, Beta: 0.4}, nil
}

var registerInverted sync.Once

// An estimator that returns beta <= alpha gives no priors: alone it leaves
// the recovered numbers null with a warning (and its own row without
// recovered numbers, and no interval); beside a usable one the priors are
// the usable one's. A given beta - alpha below SmallGap is flagged.
func TestUnusablePriorsReported(t *testing.T) {
	registerInverted.Do(func() { classprior.Register("test-inverted", func() classprior.Config { return inverted{} }) })
	scores, labeled, _ := puScores(t, 8, 2, 0.3, 0.9, 300, 2000)
	res, err := Run(context.Background(), Input{Scores: scores, Labeled: labeled},
		Options{Estimators: []string{"test-inverted"}, Bootstrap: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Priors.Valid || !codes(res)[WarnInvalidPriors] || res.Metrics.AUC.Recovered.Ok() || res.Metrics.AUC.Interval != nil {
		t.Errorf("priors %+v, warnings %+v, auc %+v", res.Priors, res.Warnings, res.Metrics.AUC)
	}
	if res.Estimators[0].Recovered != nil || res.Bootstrap.Failed != 10 || res.Priors.Region != nil {
		t.Errorf("recovered %+v, bootstrap %+v, region %v", res.Estimators[0].Recovered, res.Bootstrap, res.Priors.Region)
	}
	jsonOf(t, res)

	res, err = Run(context.Background(), Input{Scores: scores, Labeled: labeled},
		Options{Estimators: []string{"test-inverted", classprior.AlphaMaxNName}, Bootstrap: 10})
	if err != nil {
		t.Fatal(err)
	}
	amn := res.Estimators[1]
	if !res.Priors.Valid || res.Priors.Method != classprior.AlphaMaxNName || res.Priors.Alpha != amn.Alpha || res.Priors.Beta != amn.Beta {
		t.Errorf("priors %+v, want alphamax-n's %v, %v", res.Priors, amn.Alpha, amn.Beta)
	}
	if res.Estimators[0].Recovered != nil || amn.Recovered == nil || res.Metrics.AUC.Interval == nil {
		t.Errorf("recovered per estimator: %+v, %+v; interval %v", res.Estimators[0].Recovered, amn.Recovered, res.Metrics.AUC.Interval)
	}

	res, err = Run(context.Background(), Input{Scores: scores, Labeled: labeled}, Options{Priors: &GivenPriors{0.5, 0.52}})
	if err != nil {
		t.Fatal(err)
	}
	if !codes(res)[WarnSmallGap] || !res.Priors.Valid {
		t.Errorf("beta - alpha 0.02: warnings %+v", res.Warnings)
	}
}

// From features: the classifier is trained (gbdt, out of fold), KM1 and
// KM2 run on a subsample, and the truth is computed on the sets the
// recovered numbers are about.
func TestFeatures(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a classifier and runs KM")
	}
	rng := rand.New(rand.NewPCG(6, 6))
	n, d := 3000, 4
	x, y, err := synth.Gaussian(rng, n, 1000, d, 3)
	if err != nil {
		t.Fatal(err)
	}
	// SCAR: half the positives labeled.
	labeled := make([]bool, n)
	for i, pos := range y {
		labeled[i] = pos && rng.IntN(2) == 0
	}
	gb := classifiers.DefaultGBDT()
	res, err := Run(context.Background(), Input{Features: mat.NewDense(n, d, x), Labeled: labeled, Truth: y},
		Options{Classifier: &gb, KMMaxRows: 400, Bootstrap: 20, BoundsResamples: 100, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scores.Source != "trained" || res.Scores.Classifier != "gbdt" || !strings.Contains(res.Scores.HeldOut, "out-of-fold") {
		t.Errorf("scores %+v", res.Scores)
	}
	var km int
	for _, e := range res.Estimators {
		if e.Reads == "features" {
			km++
			if !e.Subsampled || e.Rows != 400 || e.Error != "" {
				t.Errorf("%s: rows %d subsampled %v error %q", e.Method, e.Rows, e.Subsampled, e.Error)
			}
		}
	}
	if km != 2 || !codes(res)[WarnSubsampled] {
		t.Errorf("%d feature estimators, warnings %+v", km, res.Warnings)
	}
	tr := res.Truth
	if tr == nil || math.Abs(float64(tr.Beta)-1) > 0 || math.Abs(float64(tr.Alpha)-500.0/2500) > 0.03 {
		t.Fatalf("truth %+v", tr)
	}
	// Well separated classes (Bayes AUC Phi(3/sqrt 2) = 0.983): the
	// recovered AUC is near the truth on U.
	if got := float64(res.Metrics.AUC.Recovered); math.Abs(got-float64(tr.AUC)) > 0.05 {
		t.Errorf("recovered AUC %v, true %v", got, tr.AUC)
	}
}

// Percentiles are numpy's default (linear, type 7):
// numpy.percentile([1, 2, 3, 4, 10], [2.5, 97.5]) = [1.1, 9.4].
func TestPercentileInterval(t *testing.T) {
	iv := PercentileInterval([]float64{10, 3, math.NaN(), 1, 4, 2}, 0.95)
	if iv == nil || math.Abs(float64(iv.Low)-1.1) > 1e-12 || math.Abs(float64(iv.High)-9.4) > 1e-12 {
		t.Errorf("interval %+v, want [1.1, 9.4]", iv)
	}
	if PercentileInterval([]float64{1, math.NaN()}, 0.95) != nil {
		t.Error("an interval from one value")
	}
}

// The band reads a curve as the polygon through its points; where it is
// vertical, the highest point.
func TestCurveAt(t *testing.T) {
	c := xy{x: []float64{0, 0, 0.5, 0.5, 1}, y: []float64{0, 0.2, 0.6, 0.8, 1}}
	for _, p := range [][2]float64{{0, 0.2}, {0.25, 0.4}, {0.5, 0.8}, {0.75, 0.9}, {1, 1}, {-1, 0}, {2, 1}} {
		if got := c.curve().value(p[0]); math.Abs(got-p[1]) > 1e-15 {
			t.Errorf("at(%v) = %v, want %v", p[0], got, p[1])
		}
	}
}

// A cancelled context stops the bootstrap with the context's error.
func TestCancel(t *testing.T) {
	scores, labeled, _ := puScores(t, 7, 2, 0.3, 0.9, 300, 2000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Input{Scores: scores, Labeled: labeled}, Options{Bootstrap: 1000})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// Float encodes what it decodes; NaN as null, infinities as strings.
func TestFloatJSON(t *testing.T) {
	in := []Float{1.5, nan, Float(math.Inf(1)), Float(math.Inf(-1)), 0}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `[1.5,null,"+Inf","-Inf",0]` {
		t.Errorf("encoded %s", b)
	}
	var out []Float
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out[0] != 1.5 || !math.IsNaN(float64(out[1])) || !math.IsInf(float64(out[2]), 1) || !math.IsInf(float64(out[3]), -1) {
		t.Errorf("decoded %v", out)
	}
}
