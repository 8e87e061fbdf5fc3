package scorefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Three-valued labels: 1 (any spelling Read accepts, and true) a known
// positive, 0 (and false) a known negative, empty or exactly -1 unlabeled.
func TestReadPULabels(t *testing.T) {
	in := "id,score,label\na,0.9,1\nb,0.8,\nc,0.7,0\nd,0.6,-1\ne,0.5,1.0\nf,0.4,-1.0\ng,0.3, \nh,0.2,-0\ni,0.1,True\nj,0,-1e0\n"
	d, err := ReadPUContext(context.Background(), strings.NewReader(in), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	P, N, U := KnownPositive, KnownNegative, Unlabeled
	if want := []PULabel{P, U, N, U, P, U, U, N, P, U}; !slices.Equal(d.Labels, want) {
		t.Errorf("labels %v, want %v", d.Labels, want)
	}
	if d.Scores[3] != 0.6 || d.Count(P) != 3 || d.Count(N) != 2 || d.Count(U) != 5 {
		t.Errorf("scores %v, counts %d %d %d", d.Scores, d.Count(P), d.Count(N), d.Count(U))
	}
	if s := fmt.Sprint(P, N, U, PULabel(5)); s != "known positive known negative unlabeled PULabel(5)" {
		t.Errorf("String: %s", s)
	}
}

// Bad labels and rows name the file and line; the limits and the header
// rules are those of Read.
func TestReadPUErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "x.csv: empty file"},
		{"score,known\n1,0\n", "x.csv:1: header"},
		{"score,label\n", "no data rows"},
		{"score,label\n0.5,1\nNaN,\n", "x.csv:3: score \"NaN\""},
		{"score,label\n0.5,1\n0.2,2\n", "x.csv:3: label \"2\" is not 1 (known positive), 0 (known negative), or -1 or empty (unlabeled)"},
		{"score,label\n0.5,-2\n", "x.csv:2: label \"-2\""},
		{"score,label\n0.5,--1\n", "x.csv:2: label \"--1\""},
		{"score,label\n0.5,-true\n", "x.csv:2: label \"-true\""},
		{"score,label\n0.5,NA\n", "x.csv:2: label \"NA\""},
		{"score,label\n0.5\n", "x.csv:2: wrong number of fields"},
	} {
		_, err := ReadPUContext(context.Background(), strings.NewReader(c.in), "x.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadPU(%q): error %v, want %q", c.in, err, c.want)
		}
	}
	_, err := ReadPUContext(context.Background(), io.MultiReader(strings.NewReader("score,label\n0.5,"), &endless{pattern: []byte("1")}), "x.csv")
	if err == nil || !strings.Contains(err.Error(), "x.csv:2: line longer than 1 MiB") {
		t.Errorf("endless line: %v", err)
	}
}

// The file reader reads a file, names a missing one, and stops within a
// second of its context's end on a reader that never ends.
func TestReadPUFileContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	if err := os.WriteFile(path, []byte("score,label\n0.5,1\n0.4,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := ReadPUFileContext(context.Background(), path)
	if err != nil || len(d.Scores) != 2 || d.Labels[1] != Unlabeled {
		t.Errorf("read %+v, %v", d, err)
	}
	if _, err := ReadPUFileContext(context.Background(), path+".missing"); err == nil || !strings.Contains(err.Error(), "s.csv.missing") {
		t.Errorf("missing file: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = ReadPUContext(ctx, &slowRows{}, "x.csv")
	if took := time.Since(start); took > time.Second {
		t.Errorf("returned after %v", took)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "x.csv: stopped after ") {
		t.Errorf("error %v, want one wrapping the deadline", err)
	}
}
