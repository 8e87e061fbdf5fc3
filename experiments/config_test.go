package experiments

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/experiments/results"
)

// Every mistake of a config is reported at once, each with its line and
// what was expected; keys of the schema-1 configs say where they went.
func TestConfigPluginErrors(t *testing.T) {
	src := `experiment: x
betas: [1, 0.9]
protocol: {name: case-control, labeled: 100, max_unlabled: 5}
grid:
  beta: [1, 1.5, 1]
  pi: [0.3]
datasets:
  - name: a
    source: {name: synth-gaussian, n: 100, sepration: 2}
  - name: b
    source: {name: synth-scores}
    unlabeled: 10
  - name: a
estimator: {name: alphamax-n}
estimators:
  - {name: alphamax-n, knee: elbow}
  - {name: kde}
  - {name: alphamax, as: real}
  - {name: alphamax, as: "x:y"}
truths: [traditional, {name: same-model, on: somewhere}]
metrics: [auc, {name: aucpr, outside: [trim]}, nope, {name: auc, as: z}]
evaluate: everything
report: glossy
`
	_, err := ParseConfig([]byte(src), "bad.yaml", LoadOptions{Reports: []string{"summary"}})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"bad.yaml:2: betas: is now a grid axis: write grid: {beta: [...]}",
		`bad.yaml:3: unknown field "max_unlabled" (known: labeled, max_unlabeled)`,
		"bad.yaml:5: grid.beta: 1.5: 1.5 is not in (0, 1]",
		"bad.yaml:5: grid.beta: 1 is listed twice",
		`bad.yaml:6: grid: unknown axis "pi"`,
		`bad.yaml:9: unknown field "sepration"`,
		`bad.yaml:12: unknown field "unlabeled" (known: labeled)`,
		`bad.yaml:13: datasets[2]: "a" listed twice`,
		"bad.yaml:14: estimator: is now a list",
		`bad.yaml:16: estimators[0]: estimator alphamax-n: knee "elbow"`,
		`bad.yaml:17: estimators[1]: unknown class-prior estimator "kde" (known: alphamax, alphamax-n`,
		`bad.yaml:19: estimators[3]: ID "x:y"`,
		`estimators: "real" is reserved`,
		`bad.yaml:20: truths[1]: truth same-model: on = "somewhere"`,
		`bad.yaml:20: truths: traditional trains a supervised classifier, but data set(s) b are rankings`,
		`bad.yaml:21: metrics[1]: measure aucpr: outside[0] = "trim"`,
		`bad.yaml:21: metrics[2]: unknown measure "nope" (known: acc, auc, aucpr, bacc, f1, mcc)`,
		`metrics[3]: as: is not taken here`,
		`bad.yaml:22: evaluate: "everything"`,
		`bad.yaml:23: report: unknown report "glossy" (known: summary)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	// The errors come sorted by line, and only the real ones: a bad option
	// of the protocol does not make its axes unknown.
	prev := 0
	for _, e := range err.(Errors) {
		if e.Line < prev {
			t.Errorf("not sorted by line: %v", e)
		}
		prev = e.Line
	}
	if strings.Contains(err.Error(), "does not read axis") {
		t.Errorf("a false axis error:\n%v", err)
	}
}

func TestConfigRequiredParts(t *testing.T) {
	_, err := ParseConfig([]byte("description: nothing\n"), "empty.yaml", LoadOptions{})
	for _, want := range []string{"experiment: a name is required", "protocol: required: protocol: {name: NAME, options} (known: case-control)",
		"datasets: list at least one data set", "metrics: list at least one measure"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
	// An axis the protocol does not read, and a classifier axis over a ranking.
	src := `experiment: x
protocol: {name: case-control}
grid:
  classifier: [{label: a, bags: 3}]
datasets:
  - {name: r, source: synth-scores}
metrics: [auc]
`
	if _, err := ParseConfig([]byte(src), "c.yaml", LoadOptions{}); err == nil || !strings.Contains(err.Error(),
		"c.yaml:3: grid: the classifier axis varies the classifier, but data set(s) r are rankings") {
		t.Errorf("classifier axis over a ranking: %v", err)
	}
	RegisterAxis(Axis{Name: "test-axis-unread", Doc: "an axis no protocol reads", Examples: [2]string{"a", "b"},
		Parse: func(file string, n *yaml.Node) (AxisValue, Errors) {
			if n.Kind != yaml.ScalarNode {
				return AxisValue{}, Errors{{File: file, Line: n.Line, Msg: "want a word"}}
			}
			return AxisValue{Text: n.Value}, nil
		}})
	src = strings.Replace(src, "  classifier: [{label: a, bags: 3}]", "  test-axis-unread: [a]", 1)
	if _, err := ParseConfig([]byte(src), "c.yaml", LoadOptions{}); err == nil ||
		!strings.Contains(err.Error(), `c.yaml:4: grid: protocol case-control does not read axis "test-axis-unread" (it reads: beta, labeled)`) {
		t.Errorf("unread axis: %v", err)
	}
}

// countingEstimator is AlphaMax-N counting its calls: it shows when the
// estimate cache answers instead.
type countingEstimator struct {
	classprior.AlphaMaxN `yaml:",inline"`
}

var estimatorCalls atomic.Int64

func (c *countingEstimator) Name() string { return "test-counting" }
func (c *countingEstimator) Key() string  { return "test-counting " + c.AlphaMaxN.Key() }
func (c *countingEstimator) New() (classprior.Estimator, error) {
	e, err := c.AlphaMaxN.New()
	return countingRun{e}, err
}

type countingRun struct{ classprior.Estimator }

func (c countingRun) Estimate(ctx context.Context, in classprior.Input, rng *rand.Rand) (classprior.Estimate, error) {
	estimatorCalls.Add(1)
	return c.Estimator.Estimate(ctx, in, rng)
}

func init() {
	classprior.Register("test-counting", func() classprior.Config {
		// AlphaMax-N's defaults, as its registry entry gives them.
		d, err := classprior.Defaults(classprior.AlphaMaxNName)
		if err != nil {
			panic(err)
		}
		return &countingEstimator{AlphaMaxN: *d.(*classprior.AlphaMaxN)}
	})
}

// Estimates are cached by content like scores: a run that changes only the
// measures reuses every estimate (and every score), and the records' numbers
// are the same as without the cache; a changed estimator option misses.
func TestEstimateCache(t *testing.T) {
	cache, err := results.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(syntheticAAAI, "  - alphamax-n\n  - {name: alphamax-n, as: published, knee: published}\n",
		"  - test-counting\n", 1)
	estimatorCalls.Store(0)
	first, _, _ := runYAML(t, src, 2, cache)
	if n := estimatorCalls.Load(); n != 8 {
		t.Fatalf("first run: %d estimates, want 8 (one per cell)", n)
	}
	estimatorCalls.Store(0)
	other := strings.Replace(src, "metrics: [auc, {name: aucpr, outside: [clip]}, acc, mcc]", "metrics: [auc, f1]", 1)
	second, sum, _ := runYAML(t, other, 2, cache)
	if n := estimatorCalls.Load(); n != 0 || sum.Trained != 0 {
		t.Errorf("measures changed: %d estimates run, %d classifiers trained; want 0 and 0", n, sum.Trained)
	}
	r1, _ := results.ReadRecords(first)
	r2, _ := results.ReadRecords(second)
	uncached, _, _ := runYAML(t, other, 2, nil)
	r3, _ := results.ReadRecords(uncached)
	for i := range r1 {
		if r1[i].Estimates["test-counting"].Alpha != r2[i].Estimates["test-counting"].Alpha ||
			r1[i].Metrics["auc"]["direct:test-counting"] != r2[i].Metrics["auc"]["direct:test-counting"] ||
			r2[i].Metrics["f1"]["recovered:test-counting"] != r3[i].Metrics["f1"]["recovered:test-counting"] {
			t.Errorf("%s: cached estimate %+v, computed %+v", r1[i].Cell, r2[i].Estimates, r1[i].Estimates)
		}
	}
	estimatorCalls.Store(0)
	runYAML(t, strings.Replace(src, "  - test-counting\n", "  - {name: test-counting, window: 12}\n", 1), 2, cache)
	if n := estimatorCalls.Load(); n != 8 {
		t.Errorf("estimator options changed: %d estimates run, want 8", n)
	}
}

// featureEstimator reads the feature rows of L and U (a FeatureReader): its
// "estimate" is the share of U among the rows whose first feature exceeds
// the labeled rows' mean, which shows that it got the cell's rows.
type featureEstimator struct{}

func (featureEstimator) Name() string                       { return "test-features" }
func (featureEstimator) Validate() error                    { return nil }
func (featureEstimator) Key() string                        { return "test-features" }
func (featureEstimator) ReadsFeatures() bool                { return true }
func (featureEstimator) New() (classprior.Estimator, error) { return featureRun{}, nil }

type featureRun struct{}

func (featureRun) Name() string { return "test-features" }
func (featureRun) Estimate(_ context.Context, in classprior.Input, _ *rand.Rand) (classprior.Estimate, error) {
	if in.LabeledFeatures == nil || in.UnlabeledFeatures == nil {
		return classprior.Estimate{}, fmt.Errorf("no features")
	}
	nl, _ := in.LabeledFeatures.Dims()
	nu, d := in.UnlabeledFeatures.Dims()
	if nl != len(in.Labeled) || nu != len(in.Unlabeled) || d < 1 {
		return classprior.Estimate{}, fmt.Errorf("features %d + %d rows of %d columns for %d + %d scores", nl, nu, d, len(in.Labeled), len(in.Unlabeled))
	}
	return classprior.Estimate{Method: "test-features", Alpha: float64(nu) / float64(nl+nu), Beta: 1}, nil
}

func init() {
	classprior.Register("test-features", func() classprior.Config { return featureEstimator{} })
}

// An estimator that reads features gets the feature rows of L and U, in the
// order of their scores; over a ranking (no features) the config refuses it.
func TestFeatureReadingEstimator(t *testing.T) {
	src := strings.Replace(tinyExperiment, "%s", "estimators: [test-features]\nmetrics: [auc]", 1)
	dir, sum, _ := runYAML(t, src, 1, nil)
	recs, _ := results.ReadRecords(dir)
	if sum.Failed != 0 || len(recs) != 2 {
		t.Fatalf("%+v", sum)
	}
	for _, r := range recs {
		want := float64(r.Sizes.Unlabeled) / float64(r.Sizes.Labeled+r.Sizes.Unlabeled)
		if e := r.Estimates["test-features"]; e.Alpha != want || len(r.Warnings) > 0 {
			t.Errorf("%s: estimate %+v, want alpha %v; warnings %v", r.Cell, e, want, r.Warnings)
		}
		if _, ok := r.Metrics["auc"]["direct:test-features"]; !ok {
			t.Errorf("%s: no recovery with the estimate", r.Cell)
		}
	}
	ranking := strings.Replace(src, "{name: synth-gaussian, n: 600, d: 3, positive_fraction: 0.4, separation: 2.5}", "synth-scores", 1)
	if _, err := ParseConfig([]byte(ranking), "r.yaml", LoadOptions{}); err == nil || !strings.Contains(err.Error(), "estimators: test-features reads features") {
		t.Errorf("feature reader over a ranking: %v", err)
	}
}

// A config computes what it states: without estimators: or truths: it runs
// none; measures: is metrics: by its other name (also per data set), and
// the two together are an error; a classifier no cell trains (every data
// set a ranking) is not part of the key; Plan shows every plug-in with its
// options.
func TestConfigStatesWhatItComputes(t *testing.T) {
	base := "experiment: x\nprotocol: {name: case-control, labeled: 50}\ndatasets: [{name: r, source: synth-scores}]\n"
	cfg, err := ParseConfig([]byte(base+"measures: [auc]\n"), "c.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Estimators) != 0 || len(cfg.Truths) != 0 || len(cfg.Metrics) != 1 || cfg.Metrics[0].ID != "auc" ||
		cfg.UsesClassifier() || strings.Contains(cfg.Key(), "classifier") {
		t.Errorf("estimators %v, truths %v, metrics %v, key:\n%s", cfg.Estimators, cfg.Truths, cfg.Metrics, cfg.Key())
	}
	plan := cfg.Plan()
	for _, want := range []string{"protocol: case-control {labeled: 50, max_unlabeled: 10000}", "estimators: none", "truths: none",
		"classifier: none (every data set is a ranking)", "r: source synth-scores {", "  auc {outside: [drop, clip]"} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan)
		}
	}
	if _, err := ParseConfig([]byte(base+"measures: [auc]\nmetrics: [aucpr]\n"), "c.yaml", LoadOptions{}); err == nil ||
		!strings.Contains(err.Error(), "c.yaml:4: measures: and metrics: name the same list") {
		t.Errorf("measures: and metrics: together: %v", err)
	}
	own := "experiment: x\nprotocol: case-control\ndatasets: [{name: r, source: synth-scores, measures: [acc]}]\n"
	if cfg, err := ParseConfig([]byte(own), "c.yaml", LoadOptions{}); err != nil || cfg.Datasets[0].Metrics[0].ID != "acc" {
		t.Errorf("a data set's measures: %v", err)
	}
	features := "experiment: x\nprotocol: case-control\ndatasets: [{name: g, source: synth-gaussian}]\nmetrics: [auc]\n"
	if cfg, err := ParseConfig([]byte(features), "c.yaml", LoadOptions{}); err != nil || !cfg.UsesClassifier() ||
		!strings.Contains(cfg.Key(), "classifier nnet-bag") || !strings.Contains(cfg.Plan(), "classifier: nnet-bag {bags: 100") {
		t.Errorf("the default classifier of a data set with features: %v", err)
	}
}
