package classifiers_test

import (
	"context"
	"os"
	"testing"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/configs"
	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/metrics"
)

// TestRealDataTraditionalAUC is issue 4's real-data acceptance: a bag of 20
// nets trained on the whole data set with the true labels ("traditional"
// training) reaches an out-of-bag AUC of at least 0.95 on Spambase and 0.975
// on Landsat; AAAI 2017 Table 1 reports 0.961 and 0.981. It runs when
// PUEVAL_UCI_MIRROR is set (CI sets it) and then fails, not skips, when a
// file is missing. Measured with seeds 1-3: Spambase 0.956-0.957, Landsat
// 0.979-0.981.
func TestRealDataTraditionalAUC(t *testing.T) {
	mirror := os.Getenv(datasets.EnvMirror)
	if mirror == "" {
		t.Skipf("%s is not set", datasets.EnvMirror)
	}
	cat, err := datasets.ReadCatalogFS(configs.FS, configs.DatasetsFile)
	if err != nil {
		t.Fatal(err)
	}
	st, err := datasets.Open(cat, datasets.Options{CacheDir: t.TempDir(), Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		min  float64
	}{{"spambase", 0.95}, {"landsat", 0.975}} {
		ds, err := st.Load(context.Background(), c.name)
		if err != nil {
			t.Fatal(err)
		}
		o := classifiers.DefaultNNetBag()
		o.Bags = 20
		res, err := o.Score(context.Background(), classifiers.Data{X: ds.X, Y: ds.Y}, 1)
		if err != nil {
			t.Fatal(err)
		}
		r, err := metrics.Rank(res.Scores, ds.Y)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s (n %d, d %d): out-of-bag AUC %.4f", c.name, ds.N, ds.D, r.AUC())
		if r.AUC() < c.min {
			t.Errorf("%s: out-of-bag AUC %.4f, want >= %.3f", c.name, r.AUC(), c.min)
		}
	}
}
