package experiments

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/experiments/results"
)

// The conformance suite: every registered entry of every registry goes
// through the same checks.
//
//  1. Defaults decode: an empty option mapping (plus the options an entry
//     requires, requiredOptions) decodes strictly, validates, and keeps the
//     defaults (the same Key as the defaults).
//  2. An unknown option is an error naming the file, its line and the option.
//  3. The key changes when any option changes: each option field (found by
//     reflection, nested structs included) is perturbed in turn and Key must
//     differ, except fields tagged key:"-" (execution settings such as a
//     worker count, which never change a result).
//  4. The same seed gives the same result: the entry runs twice (a split, a
//     load, an estimate, scores, or a whole tiny experiment) and the two
//     results are equal.

// requiredOptions holds, by "kind/name", the options an entry cannot do
// without (YAML mapping lines); %s is a file the test writes.
var requiredOptions = map[string]string{
	"source/scores-file": "file: %s",
}

// rankingFile writes a score,label file of 600 binormal scores.
func rankingFile(t *testing.T) string {
	t.Helper()
	s, y, err := synth.Ranking(rand.New(rand.NewPCG(1, 1)), synth.Normal(1, 1), synth.Normal(0, 1), 600, 200)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("score,label\n")
	for i := range s {
		fmt.Fprintf(&b, "%v,%d\n", s[i], map[bool]int{true: 1}[y[i]])
	}
	p := filepath.Join(t.TempDir(), "ranking.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// decodeOptions decodes YAML option lines into opts with the config
// loader's strict decoder.
func decodeOptions(src string, opts any) Errors {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		return Errors{{Msg: err.Error()}}
	}
	if n.Kind == 0 {
		return nil
	}
	return decodeStrict("x.yaml", &n, opts)
}

// checkOptions runs checks 1-3 on fresh options from defaults.
func checkOptions(t *testing.T, kind, name string, defaults func() Plugin, required string) {
	t.Helper()
	// 1. Defaults decode.
	c := defaults()
	if errs := decodeOptions(required+"\n", c); len(errs) > 0 {
		t.Errorf("%s %s: the default options do not decode: %v", kind, name, errs)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("%s %s: the default options do not validate: %v", kind, name, err)
	}
	base := defaults()
	if errs := decodeOptions(required, base); len(errs) > 0 && required != "" {
		t.Fatal(errs)
	}
	if c.Key() != base.Key() {
		t.Errorf("%s %s: decoding no options changed the key: %q vs %q", kind, name, c.Key(), base.Key())
	}
	// 2. An unknown option fails with its line.
	errs := decodeOptions(required+"\n\nbogus_option_xyz: 1\n", defaults())
	if line := strings.Count(required, "\n") + 3; len(errs) == 0 ||
		!strings.Contains(errs.Error(), fmt.Sprintf("x.yaml:%d:", line)) || !strings.Contains(errs.Error(), "bogus_option_xyz") {
		t.Errorf("%s %s: an unknown option gave %v, want an error at x.yaml:%d naming it", kind, name, errs, line)
	}
	// 3. Every option is in the key.
	for _, path := range optionPaths(reflect.TypeOf(base)) {
		c := defaults()
		if errs := decodeOptions(required, c); len(errs) > 0 && required != "" {
			t.Fatal(errs)
		}
		perturb(reflect.ValueOf(c), path)
		if c.Key() == base.Key() {
			t.Errorf("%s %s: changing option %s does not change the key %q (tag it key:\"-\" if it never changes a result)",
				kind, name, pathName(reflect.TypeOf(base), path), base.Key())
		}
	}
}

// optionPaths lists the field index paths of the YAML options of t (a
// pointer to a struct): exported, tagged, not key:"-", through inline and
// nested structs down to the leaves.
func optionPaths(t reflect.Type) [][]int {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out [][]int
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("yaml")
		if tag == "-" || f.Tag.Get("key") == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Struct {
			for _, sub := range optionPaths(ft) {
				out = append(out, append([]int{i}, sub...))
			}
			continue
		}
		if f.IsExported() {
			out = append(out, []int{i})
		}
	}
	return out
}

func pathName(t reflect.Type, path []int) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var parts []string
	for _, i := range path {
		f := t.Field(i)
		parts = append(parts, f.Name)
		t = f.Type
	}
	return strings.Join(parts, ".")
}

// perturb changes the field at path of v (a pointer to a struct) to another value.
func perturb(v reflect.Value, path []int) {
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	for _, i := range path {
		v = v.Field(i)
	}
	change(v)
}

func change(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		v.SetUint(v.Uint() + 1)
	case reflect.Float64, reflect.Float32:
		v.SetFloat(v.Float() + 0.5)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		change(v.Elem())
	case reflect.Array:
		change(v.Index(0))
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
		} else {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			v.Set(c)
		}
		change(v.Index(0))
	default:
		panic("conformance: cannot change a " + v.Kind().String())
	}
}

// entries adapts a registry to checkOptions.
func entries[C Plugin](reg *Registry[C]) map[string]func() Plugin {
	out := map[string]func() Plugin{}
	for _, e := range reg.Entries() {
		out[e.Name] = func() Plugin { return e.Defaults() }
	}
	return out
}

// required returns an entry's required options, with the ranking file.
func required(t *testing.T, kind, name string) string {
	r, ok := requiredOptions[kind+"/"+name]
	if !ok {
		return ""
	}
	if strings.Contains(r, "%s") {
		r = fmt.Sprintf(r, rankingFile(t))
	}
	return r
}

// tinyExperiment is a small synthetic experiment; %s is replaced by the
// part under test.
const tinyExperiment = `experiment: conformance
seed: 11
repeats: 1
protocol: {name: aaai2017, labeled: 60, max_unlabeled: 400}
grid: {beta: [1, 0.9]}
datasets:
  - name: g
    source: {name: synth-gaussian, n: 600, d: 3, positive_fraction: 0.4, separation: 2.5}
classifier: {name: nnet-bag, bags: 4}
%s
`

// runTwice runs a config twice and checks that the records are the same
// (timings aside); it returns them.
func runTwice(t *testing.T, src string) []results.Record {
	t.Helper()
	d1, s1, _ := runYAML(t, src, 2, nil)
	d2, _, _ := runYAML(t, src, 1, nil)
	if s1.Failed != 0 {
		recs, _ := results.ReadRecords(d1)
		t.Fatalf("%d cells failed: %s", s1.Failed, recs[0].Error)
	}
	if a, b := resultsOnly(t, d1), resultsOnly(t, d2); !bytes.Equal(a, b) {
		t.Errorf("two runs with the same seed differ:\n%s\n---\n%s", a, b)
	}
	recs, err := results.ReadRecords(d1)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestConformanceProtocols(t *testing.T) {
	x, y, err := synth.Gaussian(rand.New(rand.NewPCG(2, 2)), 4000, 1600, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	data := &Data{Name: "g", X: mat.NewDense(4000, 3, x), Y: y, Fingerprint: "g"}
	for name, defaults := range entries(Protocols) {
		t.Run(name, func(t *testing.T) {
			checkOptions(t, "protocol", name, defaults, required(t, "protocol", name))
			pc := defaults().(ProtocolConfig)
			p, err := pc.New()
			if err != nil {
				t.Fatal(err)
			}
			// The protocol's default axes, and the first example value of each
			// axis it reads without a default.
			var uses []AxisUse
			for _, u := range pc.Axes() {
				if u.Default == nil {
					a, _ := LookupAxis(u.Name)
					u.Default = []string{a.Examples[0]}
				}
				uses = append(uses, u)
			}
			grid, errs := decodeGrid("x.yaml", nil, uses, name)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			cell := Cell{Values: grid.points()[0]}
			in := SplitInput{Data: data, Options: pc.DatasetOptions(), Cell: &cell, Grid: &grid}
			a, err1 := p.Split(rand.New(rand.NewPCG(9, 9)), in)
			b, err2 := p.Split(rand.New(rand.NewPCG(9, 9)), in)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) || len(a.Labeled) == 0 || len(a.Unlabeled) == 0 {
				t.Errorf("two splits with the same seed: %v / %v, equal %v, |L| %d, |U| %d", err1, err2, reflect.DeepEqual(a, b), len(a.Labeled), len(a.Unlabeled))
			}
		})
	}
}

func TestConformanceSources(t *testing.T) {
	for name, defaults := range entries(Sources) {
		t.Run(name, func(t *testing.T) {
			req := required(t, "source", name)
			checkOptions(t, "source", name, defaults, req)
			sc := defaults().(SourceConfig)
			if errs := decodeOptions(req, sc); len(errs) > 0 && req != "" {
				t.Fatal(errs)
			}
			env := SourceEnv{Name: "conformance"}
			if _, ok := sc.(CatalogUser); ok {
				if os.Getenv(datasets.EnvMirror) == "" {
					t.Skipf("%s loads from the UCI catalog: set %s to load it", name, datasets.EnvMirror)
				}
				env.Catalog, _ = openData(t)
				decodeOptions("dataset: pima", sc)
			}
			src, err := sc.New()
			if err != nil {
				t.Fatal(err)
			}
			load := func() *Data {
				env.Rand = rand.New(rand.NewPCG(4, 4))
				d, err := src.Load(context.Background(), env)
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			a, b := load(), load()
			if a.Fingerprint != b.Fingerprint || a.Fingerprint == "" || a.N() < 2 || (a.X == nil) != (sc.Kind() == KindScores) {
				t.Errorf("two loads: fingerprints %q, %q; %d rows; kind %s with features %v", a.Fingerprint, b.Fingerprint, a.N(), sc.Kind(), a.X != nil)
			}
		})
	}
}

func TestConformanceTruths(t *testing.T) {
	for name, defaults := range entries(Truths) {
		t.Run(name, func(t *testing.T) {
			checkOptions(t, "truth", name, defaults, required(t, "truth", name))
			recs := runTwice(t, fmt.Sprintf(tinyExperiment, "truths: ["+name+"]\nmetrics: [auc]"))
			if _, ok := recs[0].Metrics["auc"][results.TruthKey(name)]; !ok {
				t.Errorf("no auc/%s in %v", results.TruthKey(name), recs[0].Metrics)
			}
		})
	}
}

func TestConformanceMeasures(t *testing.T) {
	for name, defaults := range entries(Measures) {
		t.Run(name, func(t *testing.T) {
			checkOptions(t, "measure", name, defaults, required(t, "measure", name))
			recs := runTwice(t, fmt.Sprintf(tinyExperiment, "metrics: ["+name+"]"))
			if len(recs[0].Metrics) == 0 {
				t.Errorf("measure %s recorded nothing", name)
			}
		})
	}
}

func TestConformanceClassifiers(t *testing.T) {
	x, y, err := synth.Gaussian(rand.New(rand.NewPCG(3, 3)), 300, 100, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	data := classifiers.Data{X: mat.NewDense(300, 3, x), Y: y}
	for _, name := range classifiers.Names() {
		t.Run(name, func(t *testing.T) {
			defaults := func() Plugin { c, _ := classifiers.Defaults(name); return c }
			checkOptions(t, "classifier", name, defaults, required(t, "classifier", name))
			c, _ := classifiers.Defaults(name)
			s, err := c.New()
			if err != nil {
				t.Fatal(err)
			}
			a, err1 := s.Score(context.Background(), data, 5)
			b, err2 := s.Score(context.Background(), data, 5)
			if err1 != nil || err2 != nil || !slices.Equal(a.Scores, b.Scores) {
				t.Errorf("two fits with the same seed: %v / %v, equal scores %v", err1, err2, err1 == nil && err2 == nil && slices.Equal(a.Scores, b.Scores))
			}
		})
	}
}

func TestConformanceEstimators(t *testing.T) {
	s, err := synth.PU(rand.New(rand.NewPCG(6, 6)), synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 0.9, 300, 3000)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range classprior.Names() {
		t.Run(name, func(t *testing.T) {
			defaults := func() Plugin { c, _ := classprior.Defaults(name); return c }
			checkOptions(t, "estimator", name, defaults, required(t, "estimator", name))
			c, _ := classprior.Defaults(name)
			e, err := c.New()
			if err != nil {
				t.Fatal(err)
			}
			in := classprior.Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}
			if fr, ok := c.(classprior.FeatureReader); ok && fr.ReadsFeatures() {
				// One feature: the score itself.
				in.LabeledFeatures = mat.NewDense(len(s.Labeled), 1, slices.Clone(s.Labeled))
				in.UnlabeledFeatures = mat.NewDense(len(s.Unlabeled), 1, slices.Clone(s.Unlabeled))
			}
			a, err1 := e.Estimate(context.Background(), in, rand.New(rand.NewPCG(1, 2)))
			b, err2 := e.Estimate(context.Background(), in, rand.New(rand.NewPCG(1, 2)))
			if err1 != nil || err2 != nil || a.Alpha != b.Alpha || a.Beta != b.Beta {
				t.Errorf("two estimates with the same seed: %v / %v, (%v, %v) vs (%v, %v)", err1, err2, a.Alpha, a.Beta, b.Alpha, b.Beta)
			}
		})
	}
}

// Axes take values, not options: each parses its two examples to two
// different canonical texts, the same text every time, and a value of the
// wrong shape is an error with its line.
func TestConformanceAxes(t *testing.T) {
	for _, a := range Axes() {
		t.Run(a.Name, func(t *testing.T) {
			parse := func(src string) (AxisValue, Errors) {
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
				t.Errorf("examples %q, %q: texts %q, %q, %q; errors %v %v", a.Examples[0], a.Examples[1], v0.Text, v1.Text, again.Text, e0, e1)
			}
			if _, errs := parse("{bogus_option_xyz: [1]}"); len(errs) == 0 || !strings.Contains(errs.Error(), "x.yaml:3:") {
				t.Errorf("a bad value gave %v, want an error at x.yaml:3", errs)
			}
			if a.Doc == "" {
				t.Error("no documentation")
			}
		})
	}
}

// Every registered entry is documented.
func TestRegistriesDocumented(t *testing.T) {
	for kind, docs := range map[string][]string{
		"protocol": docsOf(Protocols), "source": docsOf(Sources), "truth": docsOf(Truths), "measure": docsOf(Measures),
	} {
		for i, d := range docs {
			if d == "" {
				t.Errorf("%s #%d has no documentation", kind, i)
			}
		}
	}
}

func docsOf[C Plugin](reg *Registry[C]) []string {
	var out []string
	for _, e := range reg.Entries() {
		out = append(out, e.Doc)
	}
	return out
}
