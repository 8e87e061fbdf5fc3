package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/cli"
)

// TestReadmeQuickStartOutput: the table README.md shows for its quick
// start's pueval evaluate is what this binary prints on stdout (the
// warnings go to stderr), but for the estimators' timings. When the
// command's output changes, paste the new output, which the failure prints,
// into README.md. It runs here, in the binary's own package, so that the
// estimators are those of pueval and no test's.
func TestReadmeQuickStartOutput(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	cmd := slices.IndexFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "bin/pueval evaluate --input examples/")
	})
	if cmd < 0 {
		t.Fatal("README.md: no quick start line bin/pueval evaluate --input examples/...")
	}
	args := strings.Fields(strings.SplitN(lines[cmd], "#", 2)[0])[1:]
	var shown []string
	inText := false
	for _, l := range lines[cmd+1:] {
		switch {
		case l == "```text":
			inText = true
		case inText && l == "```":
			goto compare
		case inText:
			shown = append(shown, l)
		}
	}
	t.Fatalf("README.md: no text block after line %d", cmd+1)
compare:
	t.Chdir(root)
	var out, errOut bytes.Buffer
	if err := cli.Run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("pueval %s: %v", strings.Join(args, " "), err)
	}
	got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if !slices.Equal(untimed(got), untimed(shown)) {
		t.Errorf("README.md:%d: pueval %s prints\n%s\nbut the README shows\n%s", cmd+1, strings.Join(args, " "),
			strings.Join(got, "\n"), strings.Join(shown, "\n"))
	}
}

// untimed is a table without trailing blanks and without the estimators'
// seconds, the one column that differs between runs.
func untimed(lines []string) []string {
	var out []string
	from, to := -1, -1
	for _, l := range lines {
		l = strings.TrimRight(l, " ")
		if strings.HasPrefix(l, "estimator ") {
			from, to = strings.Index(l, "seconds"), strings.Index(l, "note")
		} else if strings.HasPrefix(l, "agreement ") || l == "" {
			from = -1
		} else if from >= 0 && len(l) > from {
			l = strings.TrimRight(l[:from]+strings.Repeat(" ", min(to, len(l))-from)+l[min(to, len(l)):], " ")
		}
		out = append(out, l)
	}
	return out
}
