package plugintest

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/configs"
	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/datasets/pusplit"
	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/results"
)

// RunOptions are the execution settings of Run.
type RunOptions struct {
	Workers int             // cells at once; 0 means 1
	Cache   *results.Cache  // nil: no score cache
	Catalog *datasets.Store // the UCI store, for configs that read the catalog
	Context context.Context // nil: context.Background()
}

// Run parses a config (YAML) and runs all its cells into a new temporary
// directory, which it returns with the run's summary and the config. A
// config that does not parse, or a run that returns an error, fails the
// test.
func Run(t testing.TB, src string, o RunOptions) (string, experiments.Summary, *experiments.Config) {
	t.Helper()
	cfg := parse(t, src)
	dir := t.TempDir()
	sum, err := run(cfg, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return dir, sum, cfg
}

func run(cfg *experiments.Config, dir string, o RunOptions) (experiments.Summary, error) {
	cells, err := cfg.Cells(experiments.Selection{})
	if err != nil {
		return experiments.Summary{}, err
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	return (&experiments.Runner{Config: cfg, Data: o.Catalog, Cache: o.Cache, Workers: o.Workers}).Run(ctx, cells, dir)
}

func parse(t testing.TB, src string) *experiments.Config {
	t.Helper()
	cfg, err := experiments.ParseConfig([]byte(src), "plugintest.yaml", experiments.LoadOptions{})
	if err != nil {
		t.Fatalf("%v\nin the config:\n%s", err, src)
	}
	return cfg
}

// RunTwice runs a config with two workers and again with one, fails the
// test unless every cell succeeded and the two runs' records are equal
// (timings and work aside), and returns the records.
func RunTwice(t testing.TB, src string) []results.Record {
	t.Helper()
	d1, s1, _ := Run(t, src, RunOptions{Workers: 2})
	d2, _, _ := Run(t, src, RunOptions{Workers: 1})
	recs, err := results.ReadRecords(d1)
	if err != nil {
		t.Fatal(err)
	}
	if s1.Failed != 0 {
		for _, r := range recs {
			if r.Status != results.StatusOK {
				t.Fatalf("%d cells failed; %s: %s", s1.Failed, r.Cell, r.Error)
			}
		}
	}
	if a, b := ResultsOnly(t, d1), ResultsOnly(t, d2); !bytes.Equal(a, b) {
		t.Errorf("two runs with the same seed differ:\n%s\n---\n%s", a, b)
	}
	return recs
}

// ResultsOnly returns the records of a results directory as JSON lines
// without their timings and work: what a run found, not how long it took.
func ResultsOnly(t testing.TB, dir string) []byte {
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

// checkRunCancelled runs a config under a cancelled context: the run must
// return an error and record no cell.
func checkRunCancelled(t *testing.T, src string) {
	t.Helper()
	dir := t.TempDir()
	_, err := run(parse(t, src), dir, RunOptions{Context: cancelled()})
	recs, _ := results.ReadRecords(dir)
	if err == nil || len(recs) > 0 {
		t.Errorf("a run under a cancelled context: error %v, %d records; want an error and none", err, len(recs))
	}
}

// NewCell returns a cell as the runner hands it to truths and measures,
// without a runner: 600 rows of two Gaussian classes in 3 dimensions (240
// positive), a case-control split with 60 labeled rows at beta 0.9 and at
// most 400 unlabeled, the first feature as the evaluated scores, the true
// alpha and beta as an estimate "true-priors", and a truth "same-model"
// holding the scores. Its Env gives the first feature as the supervised
// scores and the streams of a cell with seed 5.
func NewCell(t testing.TB) *experiments.CellRun {
	t.Helper()
	x, y, err := synth.Gaussian(rand.New(rand.NewPCG(3, 3)), 600, 240, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	data := &experiments.Data{Name: "g", X: mat.NewDense(600, 3, x), Y: y, Fingerprint: "plugintest-g"}
	s, err := pusplit.CaseControl(rand.New(rand.NewPCG(4, 4)), y, 60, 0.9, 400)
	if err != nil {
		t.Fatal(err)
	}
	spec := &experiments.DatasetSpec{Name: "g"}
	cell := &experiments.Cell{Dataset: spec, Values: map[string]experiments.AxisValue{}, ID: "g/repeat=0", Seed: 5}
	rows := append(append([]int{}, s.Labeled...), s.Unlabeled...)
	c := &experiments.CellRun{Cell: cell, Data: data, Split: experiments.Split{Labeled: s.Labeled, Unlabeled: s.Unlabeled},
		Rows: rows, NL: len(s.Labeled), Alpha: s.Alpha(y), Beta: s.Beta(y), Env: fakeEnv{data: data, cell: cell}}
	for _, r := range rows {
		c.Y = append(c.Y, y[r])
		c.Scores = append(c.Scores, data.X.At(r, 0))
	}
	c.Estimates = []experiments.NamedEstimate{{ID: "true-priors", Alpha: c.Alpha, Beta: c.Beta}}
	c.Truths = []experiments.TruthScores{{ID: "same-model", On: experiments.SetAuto, Scores: c.Scores}}
	return c
}

// fakeEnv is NewCell's Env: the first feature as the supervised scores.
type fakeEnv struct {
	data *experiments.Data
	cell *experiments.Cell
}

func (e fakeEnv) Streams() experiments.Streams { return experiments.CellStreams(e.cell) }

func (e fakeEnv) SupervisedScores(ctx context.Context, rows []int) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if rows == nil {
		rows = make([]int, e.data.N())
		for i := range rows {
			rows[i] = i
		}
	}
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = e.data.X.At(r, 0)
	}
	return out, nil
}

// Catalog opens the UCI catalog's store on the mirror ($PUEVAL_UCI_MIRROR)
// with its data cache in cacheDir, and returns it with the catalog's names
// (for experiments.LoadOptions.Catalog). It skips the test when no mirror
// is set; with one set (as in CI) a missing data file fails the test that
// loads it.
func Catalog(t testing.TB, cacheDir string) (*datasets.Store, []string) {
	t.Helper()
	if os.Getenv(datasets.EnvMirror) == "" {
		t.Skipf("%s is not set: this test needs the UCI data", datasets.EnvMirror)
	}
	cat, err := datasets.ReadCatalogFS(configs.FS, configs.DatasetsFile)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := datasets.DefaultOptions()
	if err != nil {
		t.Fatal(err)
	}
	opts.CacheDir = cacheDir
	st, err := datasets.Open(cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	return st, cat.Names()
}

// RecordDiff lists the differences between two records in what a run
// found and on what: schema, identity, seed, sizes, true alpha and beta,
// estimates, status, error, warnings, the kernel's name, and every metric
// value (keys missing or added, values compared exactly). Timings and work
// are not compared.
func RecordDiff(got, want results.Record) []string {
	var out []string
	diff := func(what string, g, w any) {
		if !reflect.DeepEqual(g, w) {
			out = append(out, fmt.Sprintf("%s: got %v, want %v", what, g, w))
		}
	}
	diff("schema", got.Schema, want.Schema)
	diff("cell", got.Cell, want.Cell)
	diff("dataset", got.Dataset, want.Dataset)
	diff("grid", got.Grid, want.Grid)
	diff("repeat", got.Repeat, want.Repeat)
	diff("seed", got.Seed, want.Seed)
	diff("sizes", got.Sizes, want.Sizes)
	diff("alpha", got.Alpha, want.Alpha)
	diff("beta", got.Beta, want.Beta)
	diff("estimates", got.Estimates, want.Estimates)
	diff("status", got.Status, want.Status)
	diff("error", got.Error, want.Error)
	diff("warnings", got.Warnings, want.Warnings)
	diff("kernel", got.Kernel, want.Kernel)
	diff("metrics", slices.Sorted(maps.Keys(got.Metrics)), slices.Sorted(maps.Keys(want.Metrics)))
	for m, w := range want.Metrics {
		g := got.Metrics[m]
		diff("keys of "+m, slices.Sorted(maps.Keys(g)), slices.Sorted(maps.Keys(w)))
		for k, wv := range w {
			if gv, ok := g[k]; ok && gv != wv {
				out = append(out, fmt.Sprintf("%s/%s: got %v, want %v", m, k, gv, wv))
			}
		}
	}
	return out
}

// Reproduces runs a config's cells with the UCI store st (two workers) and
// checks that its records equal, one by one and bit for bit (RecordDiff),
// those of the results directory frozen (records of an earlier pueval,
// read through results.ReadRecords, which upgrades older schemas). It
// returns the new records.
func Reproduces(t *testing.T, cfg *experiments.Config, st *datasets.Store, frozen string) []results.Record {
	t.Helper()
	dir := t.TempDir()
	if _, err := run(cfg, dir, RunOptions{Workers: 2, Catalog: st, Context: t.Context()}); err != nil {
		t.Fatal(err)
	}
	got, err := results.ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := results.ReadRecords(frozen)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, frozen %d", len(got), len(want))
	}
	for i := range want {
		for _, d := range RecordDiff(got[i], want[i]) {
			t.Errorf("%s (kernel %s): %s", want[i].Cell, got[i].Kernel, d)
		}
	}
	// The comparison can fail: one value moved by one ulp is a difference.
	moved := want[0]
	moved.Metrics = map[string]map[string]float64{}
	for m, byKey := range want[0].Metrics {
		moved.Metrics[m] = maps.Clone(byKey)
	}
	for m, byKey := range moved.Metrics {
		byKey[results.PU] = math.Nextafter(byKey[results.PU], 2)
		if n := len(RecordDiff(got[0], moved)); n != 1 {
			t.Errorf("a PU value of %s moved by one ulp gives %d differences, want 1", m, n)
		}
		break
	}
	return got
}
