package plugintest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/experiments"
)

// Options says what a plug-in needs to be checked.
type Options struct {
	// Required are YAML option lines the plug-in cannot do without
	// ("file: x.csv"): added to every decode of its options.
	Required string
	// Config are YAML lines added to the top level of the small config a
	// protocol is checked in (e.g. "grid: {known-positives: [0.2]}" for a
	// protocol that reads an axis without a default).
	Config string
	// DatasetOptions are YAML lines of a protocol's per-data-set options
	// ("labeled: 50").
	DatasetOptions string
	// Experiment is the small experiment a truth or measure runs in (YAML;
	// "%s" is replaced by the lines that name the plug-in under test:
	// "metrics: [NAME]", or "truths: [NAME]" and "metrics: [auc]"). Empty:
	// TinyExperiment.
	Experiment string
	// Catalog is the UCI store a source that reads the catalog loads from;
	// nil skips such a source's load.
	Catalog *datasets.Store
}

// TinyExperiment is the default small experiment of Truth and Measure: two
// repeats of a case-control split of 600 rows of two Gaussian classes, at
// beta 1 and 0.9, scored by a bag of 4 nets.
const TinyExperiment = `experiment: plugintest
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

// defaultsOf adapts a registry entry to checkOptions.
func defaultsOf[C experiments.Plugin](t *testing.T, reg *experiments.Registry[C], name string) func() experiments.Plugin {
	t.Helper()
	if _, err := reg.Defaults(name); err != nil {
		t.Fatal(err)
	}
	return func() experiments.Plugin { c, _ := reg.Defaults(name); return c }
}

// Protocol checks the registered protocol name: its options, two splits of
// a cell from the same streams, and a split under a cancelled context.
func Protocol(t *testing.T, name string, o Options) {
	t.Helper()
	checkOptions(t, "protocol", name, defaultsOf(t, experiments.Protocols, name), o.Required)
	cfg := parse(t, protocolConfig(name, o))
	cells, err := cfg.Cells(experiments.Selection{})
	if err != nil || len(cells) == 0 {
		t.Fatalf("protocol %s: the cells of its check config: %v", name, err)
	}
	cell := cells[0]
	data := load(t, cell.Dataset, Options{}, context.Background())
	p, err := cfg.Protocol.New()
	if err != nil {
		t.Fatal(err)
	}
	split := func(ctx context.Context) (experiments.Split, error) {
		s := experiments.CellStreams(&cell)
		return p.Split(ctx, experiments.SplitInput{Data: data, Options: cell.Dataset.Options, Cell: &cell,
			Grid: &cell.Dataset.Grid, Rand: s.Rand("split"), Streams: s})
	}
	a, err1 := split(context.Background())
	b, err2 := split(context.Background())
	if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) || len(a.Labeled) == 0 || len(a.Unlabeled) == 0 {
		t.Errorf("protocol %s: two splits from the same streams: %v / %v, equal %v, |L| %d, |U| %d",
			name, err1, err2, reflect.DeepEqual(a, b), len(a.Labeled), len(a.Unlabeled))
	}
	_, err = split(cancelled())
	checkCancelled(t, "protocol "+name+": Split", err)
}

// protocolConfig is the config a protocol is checked in: 4,000 rows of two
// Gaussian classes (1,600 positive) in 3 dimensions.
func protocolConfig(name string, o Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "experiment: plugintest\nseed: 9\nrepeats: 1\nprotocol:\n  name: %s\n%s", name, indent(o.Required, "  "))
	b.WriteString("datasets:\n  - name: g\n    source: {name: synth-gaussian, n: 4000, d: 3, positive_fraction: 0.4, separation: 2}\n")
	b.WriteString(indent(o.DatasetOptions, "    "))
	b.WriteString("metrics: [auc]\n")
	b.WriteString(o.Config + "\n")
	return b.String()
}

func indent(lines, by string) string {
	var b strings.Builder
	for _, l := range strings.Split(lines, "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString(by + l + "\n")
		}
	}
	return b.String()
}

// Source checks the registered source name: its options, two loads with
// the same stream, and a load under a cancelled context.
func Source(t *testing.T, name string, o Options) {
	t.Helper()
	checkOptions(t, "source", name, defaultsOf(t, experiments.Sources, name), o.Required)
	sc, _ := experiments.Sources.Defaults(name)
	if errs := experiments.DecodeOptions("x.yaml", o.Required, sc); len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, ok := sc.(experiments.CatalogUser); ok && o.Catalog == nil {
		t.Logf("source %s loads from the UCI catalog: give Options.Catalog to check its loads", name)
		return
	}
	spec := &experiments.DatasetSpec{Name: "plugintest", Source: sc}
	a := load(t, spec, o, context.Background())
	b := load(t, spec, o, context.Background())
	if a.Fingerprint != b.Fingerprint || a.Fingerprint == "" || a.N() < 2 || (a.X == nil) != (sc.Kind() == experiments.KindScores) {
		t.Errorf("source %s: two loads: fingerprints %q, %q; %d rows; kind %s with features %v",
			name, a.Fingerprint, b.Fingerprint, a.N(), sc.Kind(), a.X != nil)
	}
	src, err := sc.New()
	if err != nil {
		t.Fatal(err)
	}
	_, err = src.Load(cancelled(), sourceEnv(spec, o))
	checkCancelled(t, "source "+name+": Load", err)
}

func sourceEnv(spec *experiments.DatasetSpec, o Options) experiments.SourceEnv {
	return experiments.SourceEnv{Name: spec.Name, Catalog: o.Catalog, Rand: rand.New(rand.NewPCG(4, 4))}
}

// load loads a data set through its source with a fixed stream.
func load(t *testing.T, spec *experiments.DatasetSpec, o Options, ctx context.Context) *experiments.Data {
	t.Helper()
	src, err := spec.Source.New()
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(ctx, sourceEnv(spec, o))
	if err != nil {
		t.Fatalf("source %s: %v", spec.Source.Name(), err)
	}
	return d
}

// Truth checks the registered truth name: its options, its scores of one
// cell twice and under a cancelled context, and a small experiment with it
// run twice and under a cancelled context.
func Truth(t *testing.T, name string, o Options) {
	t.Helper()
	checkOptions(t, "truth", name, defaultsOf(t, experiments.Truths, name), o.Required)
	tc, _ := experiments.Truths.Defaults(name)
	if errs := experiments.DecodeOptions("x.yaml", o.Required, tc); len(errs) > 0 {
		t.Fatal(errs)
	}
	tr, err := tc.New()
	if err != nil {
		t.Fatal(err)
	}
	scores := func(ctx context.Context) ([]float64, error) { return tr.Scores(ctx, NewCell(t)) }
	a, err1 := scores(context.Background())
	b, err2 := scores(context.Background())
	if (err1 == nil) != (err2 == nil) || !slices.Equal(a, b) {
		t.Errorf("truth %s: two calls on one cell: %v / %v, equal %v", name, err1, err2, slices.Equal(a, b))
	}
	_, err = scores(cancelled())
	checkCancelled(t, "truth "+name+": Scores", err)
	lines := fmt.Sprintf("truths:\n  - name: %s\n%smetrics: [auc]", name, indent(o.Required, "    "))
	recs := RunTwice(t, experiment(o, lines))
	if _, ok := recs[0].Metrics["auc"]["truth:"+name]; !ok {
		t.Errorf("truth %s: no auc/truth:%s in %v", name, name, recs[0].Metrics)
	}
	checkRunCancelled(t, experiment(o, lines))
}

// Measure checks the registered measure name: its options, its values of
// one cell twice and under a cancelled context, and a small experiment with
// it run twice and under a cancelled context.
func Measure(t *testing.T, name string, o Options) {
	t.Helper()
	checkOptions(t, "measure", name, defaultsOf(t, experiments.Measures, name), o.Required)
	mc, _ := experiments.Measures.Defaults(name)
	if errs := experiments.DecodeOptions("x.yaml", o.Required, mc); len(errs) > 0 {
		t.Fatal(errs)
	}
	m, err := mc.New()
	if err != nil {
		t.Fatal(err)
	}
	measure := func(ctx context.Context) (*experiments.Values, error) {
		c := NewCell(t)
		v := experiments.NewValues(c)
		return v, m.Measure(ctx, c, v)
	}
	a, err1 := measure(context.Background())
	b, err2 := measure(context.Background())
	if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(a.Metrics(), b.Metrics()) || !reflect.DeepEqual(a.Curves(), b.Curves()) {
		t.Errorf("measure %s: two calls on one cell: %v / %v, equal values %v", name, err1, err2, reflect.DeepEqual(a.Metrics(), b.Metrics()))
	}
	_, err = measure(cancelled())
	checkCancelled(t, "measure "+name+": Measure", err)
	lines := fmt.Sprintf("metrics:\n  - name: %s\n%s", name, indent(o.Required, "    "))
	recs := RunTwice(t, experiment(o, lines))
	if len(recs[0].Metrics) == 0 {
		t.Errorf("measure %s recorded nothing", name)
	}
	checkRunCancelled(t, experiment(o, lines))
}

func experiment(o Options, lines string) string {
	if o.Experiment == "" {
		o.Experiment = TinyExperiment
	}
	return fmt.Sprintf(o.Experiment, lines)
}

// Axis checks the registered grid axis name: it parses its two examples to
// two different canonical texts, the same text every time, a value of the
// wrong shape is an error with its line, and it is documented.
func Axis(t *testing.T, name string) {
	t.Helper()
	a, ok := experiments.LookupAxis(name)
	if !ok {
		t.Fatalf("no axis %q", name)
	}
	parse := func(src string) (experiments.AxisValue, experiments.Errors) {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("\n\n"+src), &n); err != nil {
			t.Fatal(err)
		}
		return a.Parse("x.yaml", n.Content[0])
	}
	v0, e0 := parse(a.Examples[0])
	v1, e1 := parse(a.Examples[1])
	again, _ := parse(a.Examples[0])
	if len(e0) > 0 || len(e1) > 0 || v0.Text == v1.Text || again.Text != v0.Text || v0.Text == "" {
		t.Errorf("axis %s: examples %q, %q: texts %q, %q, %q; errors %v %v", name, a.Examples[0], a.Examples[1], v0.Text, v1.Text, again.Text, e0, e1)
	}
	if _, errs := parse("{bogus_option_xyz: [1]}"); len(errs) == 0 || !strings.Contains(errs.Error(), "x.yaml:3:") {
		t.Errorf("axis %s: a bad value gave %v, want an error at x.yaml:3", name, errs)
	}
	if a.Doc == "" {
		t.Errorf("axis %s has no documentation", name)
	}
}

// Registered runs the check of its kind on every registered protocol,
// source, truth, measure, classifier, estimator and axis whose name is in names (every one when
// names is empty), each in a subtest named kind/name, with the Options of
// opts[name].
func Registered(t *testing.T, opts map[string]Options, names ...string) {
	t.Helper()
	want := func(n string) bool { return len(names) == 0 || slices.Contains(names, n) }
	found := map[string]bool{}
	run := func(kind string, all []string, check func(*testing.T, string)) {
		for _, n := range all {
			if want(n) {
				found[n] = true
				t.Run(kind+"/"+n, func(t *testing.T) { check(t, n) })
			}
		}
	}
	run("protocol", experiments.Protocols.Names(), func(t *testing.T, n string) { Protocol(t, n, opts[n]) })
	run("source", experiments.Sources.Names(), func(t *testing.T, n string) { Source(t, n, opts[n]) })
	run("truth", experiments.Truths.Names(), func(t *testing.T, n string) { Truth(t, n, opts[n]) })
	run("measure", experiments.Measures.Names(), func(t *testing.T, n string) { Measure(t, n, opts[n]) })
	run("classifier", classifiers.Names(), func(t *testing.T, n string) { Classifier(t, n, opts[n]) })
	run("estimator", classprior.Names(), func(t *testing.T, n string) { Estimator(t, n, opts[n]) })
	var axes []string
	for _, a := range experiments.Axes() {
		axes = append(axes, a.Name)
	}
	run("axis", axes, func(t *testing.T, n string) { Axis(t, n) })
	for _, n := range names {
		if !found[n] {
			t.Errorf("%q is not a registered plug-in", n)
		}
	}
}

// cancelled returns a context that is already cancelled.
func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// checkCancelled fails unless err is nil or wraps context.Canceled.
func checkCancelled(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("%s under a cancelled context: %v, want its result or an error wrapping context.Canceled", what, err)
	}
}
