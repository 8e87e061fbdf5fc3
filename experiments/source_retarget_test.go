package experiments

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pueval/pueval/datasets"
)

// The uci source's positive: option: one catalog entry, several one-vs-rest
// problems, one feature matrix.

func TestSourceRetargetKey(t *testing.T) {
	for _, c := range []struct {
		src  UCI
		want string
	}{
		// Without the option the keys are those of before it existed.
		{UCI{Dataset: "pima"}, "uci dataset=pima"},
		{UCI{Dataset: "anuran", MaxRows: 4000, SubsampleSeed: 1}, "uci dataset=anuran max_rows=4000 subsample_seed=1"},
		{UCI{Dataset: "20news", Positive: []string{"alt.atheism"}}, `uci dataset=20news positive=["alt.atheism"]`},
		// The same rule however written: sorted, without duplicates.
		{UCI{Dataset: "20news", Positive: []string{"sci.med", "alt.atheism", "sci.med"}}, `uci dataset=20news positive=["alt.atheism","sci.med"]`},
		{UCI{Dataset: "mnist", Positive: []string{"3"}, MaxRows: 500}, `uci dataset=mnist positive=["3"] max_rows=500`},
	} {
		if got := c.src.Key(); got != c.want {
			t.Errorf("%+v: key %q, want %q", c.src, got, c.want)
		}
	}
	a := UCI{Dataset: "mnist", Positive: []string{"3"}}
	b := UCI{Dataset: "mnist", Positive: []string{"8"}}
	if a.Key() == b.Key() || a.Key() == (&UCI{Dataset: "mnist"}).Key() {
		t.Error("retargets share a key")
	}
}

func TestSourceRetargetValidate(t *testing.T) {
	for _, c := range []struct {
		src  UCI
		want string
	}{
		{UCI{Positive: []string{"[a"}}, `uci: positive: bad pattern "[a"`},
		{UCI{Positive: []string{""}}, "uci: positive: an empty pattern"},
		{UCI{Positive: []string{}}, "uci: positive: empty list"},
		{UCI{MaxRows: -1}, "uci: max_rows = -1: want 0 (every row) or a number of rows"},
	} {
		if err := c.src.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.src, err, c.want)
		}
	}
	if err := (&UCI{Positive: []string{"comp.*", "3"}}).Validate(); err != nil {
		t.Error(err)
	}
}

// The config syntax of the PULP problems.
func TestSourceRetargetConfig(t *testing.T) {
	src := `experiment: x
protocol: {name: case-control}
datasets:
  - {name: 20news-atheism, source: {name: uci, dataset: 20news, positive: [alt.atheism]}}
  - {name: mnist-3, source: {name: uci, dataset: mnist, positive: ["3"]}}
  - {name: 20news}
metrics: [auc]
`
	cfg, err := ParseConfig([]byte(src), "c.yaml", LoadOptions{Catalog: []string{"20news", "mnist"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ name, key string }{
		{"20news-atheism", `uci dataset=20news positive=["alt.atheism"]`},
		{"mnist-3", `uci dataset=mnist positive=["3"]`},
		{"20news", "uci dataset=20news"},
	}
	for i, d := range cfg.Datasets {
		if d.Name != want[i].name || d.Source.Key() != want[i].key {
			t.Errorf("data set %d: %s %q, want %s %q", i, d.Name, d.Source.Key(), want[i].name, want[i].key)
		}
	}
	bad := strings.Replace(src, "[alt.atheism]", `["[alt"]`, 1)
	if _, err := ParseConfig([]byte(bad), "c.yaml", LoadOptions{}); err == nil || !strings.Contains(err.Error(), `c.yaml:4: `) || !strings.Contains(err.Error(), `positive: bad pattern "[alt"`) {
		t.Errorf("bad pattern: %v", err)
	}
}

// retargetStore is a store over a tiny mirror: a documents tar with
// groups a.x (2 documents), b.y (1) and b.z (1), and a numeric-target entry.
func retargetStore(t *testing.T) *datasets.Store {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range []struct{ name, text string }{
		{"train/a.x/1", "apple apple banana"}, {"train/b.y/2", "cherry banana"},
		{"test/a.x/3", "apple cherry"}, {"test/b.z/4", "banana banana"},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.text)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(f.text))
	}
	tw.Close()
	zw.Close()
	mirror := t.TempDir()
	for rel, b := range map[string][]byte{"other/docs.tar.gz": buf.Bytes(), "m/num.csv": []byte("1,5\n2,6\n3,7\n")} {
		p := filepath.Join(mirror, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := datasets.ParseCatalog([]byte(`version: 1
datasets:
  - name: docs
    papers: [pulp]
    rule: proposal
    files: [{path: other/docs.tar.gz}]
    format: {kind: documents, max_features: 3}
    target: {positive: [a.*]}
    expect: {n: 4, n_pos: 2, d: 3}
  - name: num
    papers: [aul]
    rule: proposal
    files: [{path: m/num.csv}]
    format: {kind: delimited, delimiter: comma}
    target: {column: 2, greater_than: mean}
    expect: {n: 3, n_pos: 1, d: 1}
`), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	st, err := datasets.Open(cat, datasets.Options{CacheDir: t.TempDir(), Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSourceRetargetLoad(t *testing.T) {
	st := retargetStore(t)
	ctx := context.Background()
	load := func(name string, src *UCI) (*Data, error) {
		src.name = name
		s, err := src.New()
		if err != nil {
			return nil, err
		}
		return s.Load(ctx, SourceEnv{Name: name, Catalog: st})
	}
	whole, err := load("docs", &UCI{})
	if err != nil {
		t.Fatal(err)
	}
	by, err := load("docs-by", &UCI{Dataset: "docs", Positive: []string{"b.y"}})
	if err != nil {
		t.Fatal(err)
	}
	bz, err := load("docs-bz", &UCI{Dataset: "docs", Positive: []string{"b.z"}})
	if err != nil {
		t.Fatal(err)
	}
	// Documents in archive order: a.x/1, b.y/2, a.x/3, b.z/4.
	if !slices.Equal(whole.Y, []bool{true, false, true, false}) || !slices.Equal(by.Y, []bool{false, true, false, false}) || !slices.Equal(bz.Y, []bool{false, false, false, true}) {
		t.Errorf("labels %v %v %v", whole.Y, by.Y, bz.Y)
	}
	if by.X != bz.X || by.X != whole.X {
		t.Error("retargets do not share the feature matrix")
	}
	fps := []string{whole.Fingerprint, by.Fingerprint, bz.Fingerprint}
	if slices.Contains(fps[1:], fps[0]) || fps[1] == fps[2] || by.Name != "docs-by" {
		t.Errorf("fingerprints %q", fps)
	}
	// Written out, the catalog's own rule is the catalog's data: same
	// fingerprint, so caches keyed by it are shared.
	ax, err := load("docs-ax", &UCI{Dataset: "docs", Positive: []string{"a.x"}})
	if err != nil || ax.Fingerprint != whole.Fingerprint {
		t.Errorf("a.x: %v, fingerprint %s, want the catalog's %s", err, ax.Fingerprint, whole.Fingerprint)
	}
	// max_rows draws its stratified subsample on the new labels.
	sub, err := load("docs-sub", &UCI{Dataset: "docs", Positive: []string{"b.*"}, MaxRows: 2, SubsampleSeed: 3})
	if err != nil || sub.N() != 2 || sub.NPos() != 1 {
		t.Errorf("subsample: %v, n %d n_pos %d", err, sub.N(), sub.NPos())
	}

	for _, c := range []struct {
		name string
		src  *UCI
		want string
	}{
		{"docs-none", &UCI{Dataset: "docs", Positive: []string{"c.*"}},
			`data set docs-none: source uci, positive: docs: positive ["c.*"] matches none of its 3 classes (a.x, b.y, b.z)`},
		{"docs-all", &UCI{Dataset: "docs", Positive: []string{"a.x", "b.*"}},
			`data set docs-all: source uci, positive: docs: positive ["a.x" "b.*"] matches every one of its 3 classes (a.x, b.y, b.z), which leaves no negatives`},
		{"num-1", &UCI{Dataset: "num", Positive: []string{"1"}},
			"data set num-1: source uci, positive: num: its target is a number (a greater_than or less_than rule), so it has no classes to make positive"},
	} {
		if _, err := load(c.name, c.src); err == nil || err.Error() != c.want {
			t.Errorf("%s: error\n%v, want\n%s", c.name, err, c.want)
		}
	}
}

// With the mirror: the PULP problems load from one matrix per entry.
func TestSourceRetargetMirror(t *testing.T) {
	mirror := os.Getenv(datasets.EnvMirror)
	if mirror == "" {
		t.Skipf("%s is not set", datasets.EnvMirror)
	}
	cat, err := datasets.ReadCatalogFile("../configs/datasets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	st, err := datasets.Open(cat, datasets.Options{CacheDir: t.TempDir(), Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	load := func(name string, src *UCI) (*Data, time.Duration) {
		t.Helper()
		t0 := time.Now()
		d, err := src.Load(ctx, SourceEnv{Name: name, Catalog: st})
		if err != nil {
			t.Fatal(err)
		}
		return d, time.Since(t0)
	}
	ath, t1 := load("20news-atheism", &UCI{Dataset: "20news", Positive: []string{"alt.atheism"}})
	med, t2 := load("20news-med", &UCI{Dataset: "20news", Positive: []string{"sci.med"}})
	if ath.N() != 18846 || ath.NPos() != 799 || med.NPos() != 990 || ath.X != med.X {
		t.Errorf("20news: n %d, n_pos %d and %d, shared X %v", ath.N(), ath.NPos(), med.NPos(), ath.X == med.X)
	}
	if t2 > 50*time.Millisecond {
		t.Errorf("the second retarget took %v (the first %v)", t2, t1)
	}
	m3, t3 := load("mnist-3", &UCI{Dataset: "mnist", Positive: []string{"3"}})
	m8, t4 := load("mnist-8", &UCI{Dataset: "mnist", Positive: []string{"8"}})
	if m3.N() != 10000 || m3.NPos() != 1000 || m8.NPos() != 1000 || m3.D() != 256 || m3.X != m8.X || m3.Fingerprint == m8.Fingerprint {
		t.Errorf("mnist: n %d d %d, n_pos %d and %d, shared X %v", m3.N(), m3.D(), m3.NPos(), m8.NPos(), m3.X == m8.X)
	}
	t.Logf("20news: first %v, second %v; mnist: first %v, second %v", t1, t2, t3, t4)
}
