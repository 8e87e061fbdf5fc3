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
