package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/results"
)

// TestReproduceAllSmoke runs every paper's smoke config with pueval
// reproduce-all and checks the landing page: one card per paper, every run
// identical to its reference digests, every link resolving (the five
// reports among them). A second call after one run was cut short and
// another deleted runs only the cells they lack.
func TestReproduceAllSmoke(t *testing.T) {
	if os.Getenv("PUEVAL_UCI_MIRROR") == "" {
		t.Skip("PUEVAL_UCI_MIRROR is unset")
	}
	t.Setenv("PUEVAL_DATA", t.TempDir())
	root := filepath.Join(t.TempDir(), "results")
	out, stderr, err := runCLI(t, "reproduce-all", "--smoke", "-o", root, "-j", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.HasSuffix(out, filepath.Join(root, "index.html")+"\n") {
		t.Errorf("stdout does not end with the landing page's path:\n%s", out)
	}
	page := checkLanding(t, root)
	if n := strings.Count(page, "identical to the reference run"); n != len(smokeConfigs()) {
		t.Errorf("%d runs identical to their reference, want %d:\n%s", n, len(smokeConfigs()), page)
	}
	// Cut aaai2017-smoke's records to their first 9 and delete pulp-smoke's run.
	cut := filepath.Join(root, "aaai2017-smoke", results.RecordsFile)
	b, err := os.ReadFile(cut)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	if err := os.WriteFile(cut, bytes.Join(lines[:9], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "pulp-smoke")); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err = runCLI(t, "reproduce-all", "--smoke", "-o", root, "-j", "2"); err != nil {
		t.Fatalf("second call: %v\n%s", err, stderr)
	}
	for _, want := range []string{"aaai2017-smoke: 9 cells run (0 failed), 9 from earlier runs", "pulp-smoke: 24 cells run (0 failed), 0 from earlier runs",
		"psb2019-smoke: 0 cells run (0 failed), 24 from earlier runs"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("second call: stderr lacks %q:\n%s", want, stderr)
		}
	}
	checkLanding(t, root)
}

// smokeConfigs are the smoke configs of the registered reproductions.
func smokeConfigs() []string {
	var out []string
	for _, r := range experiments.Reproductions() {
		out = append(out, r.Smoke...)
	}
	return out
}

// hrefs finds the links of a page.
var hrefs = regexp.MustCompile(`href="([^"]+)"`)

// checkLanding checks root/index.html: one card per registered paper,
// every link resolving to a file under root, each smoke config's report
// linked; it returns the page.
func checkLanding(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if n, want := strings.Count(page, `<div class="card">`), len(experiments.Reproductions()); n != want {
		t.Errorf("%d cards, want %d (one per paper)", n, want)
	}
	linked := map[string]bool{}
	for _, m := range hrefs.FindAllStringSubmatch(page, -1) {
		linked[m[1]] = true
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("link %s does not resolve: %v", m[1], err)
		}
	}
	for _, cfg := range smokeConfigs() {
		if !linked[cfg+"/report/index.html"] {
			t.Errorf("the report of %s is not linked", cfg)
		}
	}
	return page
}

// TestReproduceAllGoesOn: a paper whose run cannot be made (its data
// missing) leaves its card without a report, and the others still run; the
// command then fails naming that run.
func TestReproduceAllGoesOn(t *testing.T) {
	if os.Getenv("PUEVAL_CLAESEN_DATA") == "" {
		t.Skip("PUEVAL_CLAESEN_DATA is unset")
	}
	t.Setenv("PUEVAL_UCI_MIRROR", t.TempDir()) // no UCI file: aaai2017-smoke has no data
	t.Setenv("PUEVAL_DATA", t.TempDir())
	root := t.TempDir()
	_, stderr, err := runCLI(t, "reproduce-all", "--smoke", "--papers", "aaai2017,claesen2015", "-o", root, "-j", "2")
	if err == nil || !strings.Contains(err.Error(), "aaai2017-smoke") {
		t.Fatalf("error %v, want one naming aaai2017-smoke\n%s", err, stderr)
	}
	page, rerr := os.ReadFile(filepath.Join(root, "index.html"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	for _, want := range []string{"aaai2017-smoke: <span", "no report", `<a href="claesen2015-smoke/report/index.html">claesen2015-smoke</a>`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the landing page lacks %q", want)
		}
	}
}
