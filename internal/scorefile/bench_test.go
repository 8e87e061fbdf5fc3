package scorefile

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchFile writes a CSV of n rows: a label, a score and d features.
func benchFile(b *testing.B, n, d int) string {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var s strings.Builder
	s.WriteString("label,score")
	for j := range d {
		fmt.Fprintf(&s, ",x%d", j)
	}
	s.WriteString("\n")
	for i := range n {
		fmt.Fprintf(&s, "%d,%.6f", i%3/2, rng.Float64())
		for range d {
			fmt.Fprintf(&s, ",%.6f", rng.NormFloat64())
		}
		s.WriteString("\n")
	}
	path := filepath.Join(b.TempDir(), "bench.csv")
	if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkReadFeatures reads 100,000 rows of 20 features (the evaluate
// benchmark's input) as pueval evaluate does when it trains.
func BenchmarkReadFeatures(b *testing.B) {
	path := benchFile(b, 100_000, 20)
	spec := Spec{Label: Column{Name: "label"}, Ignore: []string{"score"}, Features: OtherColumns}
	for b.Loop() {
		r, err := Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Read(spec); err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}

// BenchmarkReadScores reads a score file of a million rows as pueval
// metrics does.
func BenchmarkReadScores(b *testing.B) {
	path := benchFile(b, 1_000_000, 0)
	spec := Spec{Label: Column{Name: "label"}, Score: Column{Name: "score"}}
	for b.Loop() {
		r, err := Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Read(spec); err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}
