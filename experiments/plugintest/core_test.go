package plugintest_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/plugintest"
)

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

// TestCorePlugins runs the suite on every plug-in of pueval's core (this
// test binary imports no paper): the generic protocol, sources, truths,
// measures, axes, classifiers and estimators.
func TestCorePlugins(t *testing.T) {
	opts := map[string]plugintest.Options{"scores-file": {Required: "file: " + rankingFile(t)}}
	if os.Getenv(datasets.EnvMirror) != "" {
		st, _ := plugintest.Catalog(t, t.TempDir())
		opts["uci"] = plugintest.Options{Required: "dataset: pima", Catalog: st}
	}
	plugintest.Registered(t, opts)
}

// Every registered entry is documented.
func TestRegistriesDocumented(t *testing.T) {
	check := func(kind string, docs map[string]string) {
		for name, d := range docs {
			if d == "" {
				t.Errorf("%s %s has no documentation", kind, name)
			}
		}
	}
	check("protocol", docsOf(experiments.Protocols))
	check("source", docsOf(experiments.Sources))
	check("truth", docsOf(experiments.Truths))
	check("measure", docsOf(experiments.Measures))
}

func docsOf[C experiments.Plugin](reg *experiments.Registry[C]) map[string]string {
	out := map[string]string{}
	for _, e := range reg.Entries() {
		out[e.Name] = e.Doc
	}
	return out
}
