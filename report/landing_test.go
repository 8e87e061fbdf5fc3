package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pueval/pueval/experiments/results"
)

func init() {
	Register(Paper{Name: "test-with-claims", Title: "Claims paper", Write: func(dir string, in Input) (string, error) {
		in.NoteClaims([]Claim{{Verdict: Holds}, {Verdict: Fails}})
		in.NoteClaims([]Claim{{Verdict: Holds}, {Verdict: NotChecked}, {Verdict: Holds}})
		return "", nil
	}})
}

// TestOverview: Write's overview.json counts the claims a report noted (3
// hold, 1 does not, 1 not checked, over two calls), keeps the verification
// and counts the records; a report that notes no claims has none.
func TestOverview(t *testing.T) {
	recs := []results.Record{
		{Schema: 2, Experiment: "e", Cell: "a/repeat=0", Status: results.StatusOK},
		{Schema: 2, Experiment: "e", Cell: "a/repeat=1", Status: results.StatusFailed, Error: "x"},
	}
	v := Verification{Line: "DIFFERS from the reference run: 1 of 2 cells differ", Problem: true}
	dir := t.TempDir()
	if _, err := Write(dir, Input{Records: recs, Manifest: results.Manifest{Experiment: "e", Report: "test-with-claims", Cells: 3}, Verify: v}); err != nil {
		t.Fatal(err)
	}
	o, err := ReadOverview(dir)
	if err != nil {
		t.Fatal(err)
	}
	if o.Title != "Claims paper" || o.Experiment != "e" || o.Cells != 3 || o.Records != 2 || o.Failed != 1 || o.Verify != v {
		t.Errorf("overview %+v", o)
	}
	if o.Claims == nil || *o.Claims != (ClaimCounts{Hold: 3, DoNotHold: 1, NotChecked: 1}) {
		t.Errorf("claims %+v, want 3 hold, 1 does not, 1 not checked", o.Claims)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !strings.Contains(string(page), `<tr><th>Verification</th><td><span class="problem">DIFFERS`) {
		t.Error("the index does not show the difference as a problem")
	}
	dir = t.TempDir()
	if _, err := Write(dir, Input{Records: recs, Manifest: results.Manifest{Experiment: "e", Report: "test-paper"}}); err != nil {
		t.Fatal(err)
	}
	if o, _ := ReadOverview(dir); o.Claims != nil || o.Cells != 2 {
		t.Errorf("a report without claims: overview %+v", o)
	}
}

// TestLandingMarksOnlyProblems: the landing page marks (red) the claims that
// do not hold, a run that differs from its reference and failed cells, and
// nothing else.
func TestLandingMarksOnlyProblems(t *testing.T) {
	good := Overview{Title: "Good paper", Cells: 4, Records: 4, Claims: &ClaimCounts{Hold: 2, NotChecked: 1},
		Verify: Verification{Line: "identical to the reference run (4 cells)"}}
	bad := Overview{Title: "Bad paper", Cells: 4, Records: 4, Failed: 1, Claims: &ClaimCounts{Hold: 1, DoNotHold: 2},
		Verify: Verification{Line: "DIFFERS from the reference run", Problem: true}}
	l := Landing{Title: "t", Papers: []LandingPaper{
		{Paper: "good", Runs: []LandingRun{{Config: "good", Report: "good/report/index.html", Overview: good, Took: 90 * time.Second}}},
		{Paper: "bad", Runs: []LandingRun{{Config: "bad", Report: "bad/report/index.html", Overview: bad}, {Config: "bad-2", Missing: "no run"}}},
		{Paper: "none", Runs: []LandingRun{{Config: "none", Report: "none/report/index.html", Overview: Overview{Title: "No claims"}}}},
	}}
	dir := t.TempDir()
	if err := WriteLanding(dir, l); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	page := string(b)
	cards := strings.Split(page, `<div class="card">`)
	if len(cards) != 4 {
		t.Fatalf("%d cards, want 3", len(cards)-1)
	}
	if strings.Contains(cards[1], `class="problem"`) {
		t.Errorf("the good paper's card has red text:\n%s", cards[1])
	}
	for _, want := range []string{"Claims: 2 hold, 0 do NOT hold, 1 not checked.", "1 min 30 s", `<a href="good/report/index.html">Good paper</a>`} {
		if !strings.Contains(cards[1], want) {
			t.Errorf("the good paper's card lacks %q:\n%s", want, cards[1])
		}
	}
	for _, want := range []string{`<span class="problem">2 do NOT hold</span>`, `<span class="problem">1 failed</span>`,
		`<span class="problem">DIFFERS from the reference run</span>`, `bad-2: <span class="problem">no report: no run</span>`} {
		if !strings.Contains(cards[2], want) {
			t.Errorf("the bad paper's card lacks %q:\n%s", want, cards[2])
		}
	}
	if !strings.Contains(cards[3], "checks no claim as pass or fail") {
		t.Errorf("the card of a report without claims:\n%s", cards[3])
	}
}
