package psb2019

import (
	"path/filepath"
	"testing"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/classifiers/nnet"
	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/plugintest"
)

// TestSchema1RecordsReproduced reruns psb2019-smoke.yaml with today's code and
// compares every number of every cell with the records pueval wrote before
// the plug-in layer (testdata/schema1, frozen with both kernels' numerics;
// see its README), read through the schema-1 -> schema-2 key mapping of
// results.UpgradeRecord: identity, seed, sizes, true alpha and beta, the
// estimates, every metric value, status, warnings and kernel must be equal
// bit for bit, and no key may be missing or added.
func TestSchema1RecordsReproduced(t *testing.T) {
	st, names := plugintest.Catalog(t, t.TempDir())
	cfg, err := experiments.ReadConfig("psb2019-smoke", experiments.LoadOptions{Catalog: names})
	if err != nil {
		t.Fatal(err)
	}
	numerics := "avx512"
	if nnet.KernelNumerics(classifiers.KernelName(cfg.Classifier)) == nnet.NumericsFloat64 {
		numerics = "scalar"
	}
	plugintest.Reproduces(t, cfg, st, filepath.Join("testdata", "schema1", numerics, "psb2019-smoke"))
}
