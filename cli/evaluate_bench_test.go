package cli

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
)

// writeBenchCSV writes a feature CSV of n rows and d features: two
// Gaussian classes (synth.Gaussian, separation 1.5), 30 % positives, a
// third of the positives labeled (SCAR).
func writeBenchCSV(b *testing.B, n, d int) string {
	b.Helper()
	rng := rand.New(rand.NewPCG(21, 22))
	x, y, err := synth.Gaussian(rng, n, 3*n/10, d, 1.5)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "bench.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for j := range d {
		fmt.Fprintf(w, "x%d,", j)
	}
	w.WriteString("label\n")
	var buf []byte
	for i := range n {
		buf = buf[:0]
		for j := range d {
			buf = strconv.AppendFloat(buf, x[i*d+j], 'f', 6, 64)
			buf = append(buf, ',')
		}
		if y[i] && rng.IntN(3) == 0 {
			buf = append(buf, '1')
		} else {
			buf = append(buf, '0')
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkEvaluate1e5x20 is the speed target of pueval evaluate: the
// command on a 100,000-row, 20-feature CSV with gbdt (5-fold out-of-fold scores),
// the fast estimators (alphamax-n, distcurve), Claesen's bounds and the
// default 200-resample bootstrap with alpha and beta re-estimated in every
// resample, end to end from reading the CSV (target: under a minute on the
// 2-core development machine). Run with
// go test -run '^$' -bench Evaluate1e5x20 -benchtime 1x ./cli.
func BenchmarkEvaluate1e5x20(b *testing.B) {
	in := writeBenchCSV(b, 100_000, 20)
	b.ResetTimer()
	for range b.N {
		var out, errb discard
		if err := Run(b.Context(), []string{"evaluate", "--input", in, "--classifier", "gbdt", "--estimators", "alphamax-n,distcurve"}, &out, &errb); err != nil {
			b.Fatal(err)
		}
	}
}

// discard is an io.Writer that keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
