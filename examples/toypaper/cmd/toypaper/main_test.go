package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pueval/pueval/cli"
	"github.com/pueval/pueval/experiments/results"
)

// TestToyBinary runs the toy paper's config through this binary's command
// line (cli.Main, as main does), then writes its report: the binary holds
// the toy paper's plug-ins and no other paper's.
func TestToyBinary(t *testing.T) {
	t.Setenv("PUEVAL_DATA", t.TempDir()) // no data or score cache outside the test
	dir := t.TempDir()
	if status := cli.Main([]string{"run", "../../toypaper.yaml", "-o", dir, "-j", "1", "--no-score-cache"}); status != 0 {
		t.Fatalf("run: exit status %d", status)
	}
	recs, err := results.ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 12 {
		t.Fatalf("%d records, want 12 (2 data sets x 2 fractions x 3 repeats)", len(recs))
	}
	for _, r := range recs {
		if r.Status != results.StatusOK {
			t.Errorf("%s: status %s", r.Cell, r.Status)
		}
		if _, ok := r.Metrics["aul"]; !ok {
			t.Errorf("%s: no toy-aul metric: %v", r.Cell, r.Metrics)
		}
	}
	if status := cli.Main([]string{"report", dir}); status != 0 {
		t.Fatalf("report: exit status %d", status)
	}
	for _, f := range []string{"index.html", "toy-table.csv"} {
		if _, err := os.Stat(filepath.Join(dir, "report", f)); err != nil {
			t.Error(err)
		}
	}
	// The five papers are not in this binary: their built-in configs are unknown.
	if status := cli.Main([]string{"run", "aaai2017-smoke", "-o", t.TempDir()}); status != 1 {
		t.Errorf("run aaai2017-smoke: exit status %d, want 1 (no such config in this binary)", status)
	}
}
