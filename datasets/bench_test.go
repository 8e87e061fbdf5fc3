package datasets

import (
	"testing"
)

// BenchmarkLoadAAAIFromCache loads the twelve AAAI-2017 data sets from a
// warm encoded cache (target: under a second in all; README, Performance).
// Each load reads the encoded file, decodes it and recomputes its
// fingerprint. Needs PUEVAL_UCI_MIRROR to fill the cache first.
func BenchmarkLoadAAAIFromCache(b *testing.B) {
	m := mirrorDir(b)
	cat := projectCatalog(b)
	st, err := Open(cat, Options{CacheDir: b.TempDir(), Mirror: m})
	if err != nil {
		b.Fatal(err)
	}
	names := cat.ForPaper("aaai2017")
	for _, n := range names {
		if _, err := st.Load(bg, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	bytes := 0
	for b.Loop() {
		bytes = 0
		for _, n := range names {
			ds, err := st.Load(bg, n)
			if err != nil {
				b.Fatal(err)
			}
			if !ds.FromCache {
				b.Fatalf("%s: not loaded from the cache", n)
			}
			bytes += 8 * ds.N * ds.D
		}
	}
	b.ReportMetric(float64(bytes)/1e6, "MB/op")
}

// BenchmarkBuildAAAI parses and encodes the twelve from the raw files in
// the cache (the cold path, once per data set and spec).
func BenchmarkBuildAAAI(b *testing.B) {
	m := mirrorDir(b)
	cat := projectCatalog(b)
	st, err := Open(cat, Options{CacheDir: b.TempDir(), Mirror: m})
	if err != nil {
		b.Fatal(err)
	}
	names := cat.ForPaper("aaai2017")
	for b.Loop() {
		for _, n := range names {
			if _, err := st.Verify(bg, n); err != nil {
				b.Fatal(err)
			}
		}
	}
}
