package experiments

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The scores-file source reads through the practitioners' CSV reader: a
// UTF-8 byte-order mark (before a comment line, before a quoted name) is
// dropped, so the file gives the data and fingerprint of the same file
// without it; a header that names a column twice is refused with both
// positions. Its labels are true classes: an empty one is an error.
func TestScoresFileReader(t *testing.T) {
	dir := t.TempDir()
	load := func(content string) (*Data, error) {
		if err := os.WriteFile(filepath.Join(dir, "s.csv"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return (&ScoresFile{File: "s.csv"}).Load(context.Background(), SourceEnv{Name: "s", Dir: dir})
	}
	plain, err := load("score,label\n0.5,1\n0.25,0\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"\ufeff# exported\nscore,label\n0.5,1\n0.25,0\n", "\ufeff\"score\",label\r\n0.5,1\r\n0.25,0\r\n"} {
		d, err := load(in)
		if err != nil || !slices.Equal(d.Scores, plain.Scores) || !slices.Equal(d.Y, plain.Y) || d.Fingerprint != plain.Fingerprint {
			t.Errorf("%q: %+v, %v", in, d, err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"score,label,Score\n0.5,1,0.1\n", `s.csv:1: columns 1 and 3 are both named "Score"`},
		{"score,label\n0.5,1\n0.25,\n", `s.csv:3: column "label": label "" is not 0 or 1`},
	} {
		if _, err := load(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}
