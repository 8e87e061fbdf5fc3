package experiments

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressPlainLines(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewProgress(&buf, 10, 2)
	p.now = func() time.Time { return clock }
	p.start, p.last = clock, clock
	// 4 cells, one every 10 s: only one line per 30 s interval is printed.
	for i := range 4 {
		clock = clock.Add(10 * time.Second)
		p.Done("pima/beta=1/repeat="+string(rune('0'+i)), i == 1)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines:\n%s", len(lines), buf.String())
	}
	// After 30 s, 3 cells done in this run: 6 cells/min; 5 of 10 done, 5 left: ETA 50 s.
	want := "5/10 cells (2 from earlier runs), 1 failed, 6.0 cells/min, elapsed 30s, ETA 50s, last pima/beta=1/repeat=2"
	if lines[0] != want {
		t.Errorf("got  %q\nwant %q", lines[0], want)
	}
	// The last cell always prints.
	for range 4 {
		clock = clock.Add(time.Second)
		p.Done("x", false)
	}
	if !strings.Contains(buf.String(), "10/10 cells") {
		t.Errorf("final line missing:\n%s", buf.String())
	}
}

// TestProgressPlanETA: with a plan, the ETA weighs the cells left by what
// their data sets cost. Two data sets of 4 cells, Big costing 10 s a cell
// and Small 1 s (priors 10 and 1, rows x (columns + 1) in the runner), one
// worker (concurrency: 2 s of cells in 2 s elapsed = 1). After Small's
// first two cells the ETA is (2 x 1 + 4 x 10)/1 = 42 s, the true time
// left, where the cell rate alone says 6 s. Big's first cell takes 30 s (it
// also trains a shared model): once three of its cells are done the median,
// 10 s, is its cost again, and with one Big and one Small cell left the ETA
// is (10 + 1)/1 = 11 s, the true time left. With two workers (the same cells,
// each taking twice the elapsed time they add) the ETA halves.
func TestProgressPlanETA(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewProgress(&buf, 8, 0)
	p.now = func() time.Time { return clock }
	p.start, p.last = clock, clock
	p.Interval = 0 // a line per cell
	p.Plan(map[string]int{"big": 4, "small": 4}, map[string]float64{"big": 10, "small": 1})
	step := func(ds string, secs int) string {
		t.Helper()
		clock = clock.Add(time.Duration(secs) * time.Second)
		buf.Reset()
		p.Finished(ds+"/cell", ds, time.Duration(secs)*time.Second, false, false)
		return buf.String()
	}
	step("small", 1)
	if got := step("small", 1); !strings.Contains(got, "ETA 42s") {
		t.Errorf("after two Small cells: %q, want ETA 42s", got)
	}
	step("big", 30)
	step("big", 10)
	step("big", 10)
	if got := step("small", 1); !strings.Contains(got, "ETA 11s") {
		t.Errorf("one Big and one Small cell left: %q, want ETA 11s", got)
	}
	// Two workers: two 2 s cells finish together after 2 s (concurrency
	// 4 s / 2 s = 2); the two left take (2 x 2 s)/2 = 2 s.
	two := NewProgress(&buf, 4, 0)
	two.now = p.now
	two.start, two.last, two.Interval = clock, clock, 0
	two.Plan(map[string]int{"a": 4}, map[string]float64{"a": 1})
	clock = clock.Add(2 * time.Second)
	two.Finished("a/1", "a", 2*time.Second, false, false)
	buf.Reset()
	two.Finished("a/2", "a", 2*time.Second, false, false)
	if !strings.Contains(buf.String(), "ETA 2s") {
		t.Errorf("two workers: %q, want ETA 2s", buf.String())
	}
	// Cells served by the score cache (a second run with one more repeat)
	// do not calibrate the cost of the cells left: three cached 1 s cells,
	// then one computed 10 s cell, one worker (concurrency 13 s / 13 s = 1);
	// the two left cost 2 x 10 s. Counted as samples, the median would be
	// 1 s and the ETA 2 s.
	c := NewProgress(&buf, 6, 0)
	c.now = p.now
	c.start, c.last, c.Interval = clock, clock, 0
	c.Plan(map[string]int{"a": 6}, map[string]float64{"a": 1})
	for _, id := range []string{"a/0", "a/1", "a/2"} {
		clock = clock.Add(time.Second)
		c.Finished(id, "a", time.Second, false, true)
	}
	clock = clock.Add(10 * time.Second)
	buf.Reset()
	c.Finished("a/3", "a", 10*time.Second, false, false)
	if !strings.Contains(buf.String(), "ETA 20s") {
		t.Errorf("after cached cells: %q, want ETA 20s", buf.String())
	}
	// Without a plan the rate decides, as before.
	q := NewProgress(&buf, 4, 0)
	q.now = p.now
	q.start, q.last, q.Interval = clock.Add(-2*time.Second), clock, 0
	buf.Reset()
	q.Finished("x", "nowhere", time.Second, false, false)
	if !strings.Contains(buf.String(), "ETA 6s") {
		t.Errorf("no plan: %q, want the rate's ETA 6s", buf.String())
	}
}
