package scorefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Labels as numpy and pandas write them are read: any decimal spelling of
// exactly 0 or 1, and true/false in any case.
func TestReadLabelSpellings(t *testing.T) {
	for _, c := range []struct {
		label string
		want  bool
	}{
		{"1", true}, {"0", false}, {"1.0", true}, {"0.0", false}, {"1e0", true}, {"0.00", false},
		{"+1", true}, {"-0", false}, {"-0.0", false}, {"1.", true}, {".0", false}, {"10e-1", true},
		{"0.1E1", true}, {"100e-2", true}, {"0e999999999999999999999", false}, {"001.000", true},
		{"True", true}, {"TRUE", true}, {"true", true}, {"False", false}, {"FALSE", false}, {" true ", true},
	} {
		d, err := Read(strings.NewReader("score,label\n0.5,"+c.label+"\n"), "x.csv")
		if err != nil {
			t.Errorf("label %q: %v", c.label, err)
			continue
		}
		if d.Labels[0] != c.want {
			t.Errorf("label %q read as %v, want %v", c.label, d.Labels[0], c.want)
		}
	}
	for _, bad := range []string{
		"2", "-1", "0.5", "1.5", "10", "0.1", "1e1", "1e-400", "1.00000000000000001", "0.99999999999999999",
		"", "+", ".", "e0", "1e", "1e+", "0x1p0", "1_0", "Inf", "NaN", "yes", "no", "t", "f", "TRUE!", "1 0", "١",
	} {
		_, err := Read(strings.NewReader("score,label\n0.5,1\n0.4,"+bad+"\n"), "x.csv")
		if want := fmt.Sprintf(`x.csv:3: column "label": label %q is not 0 or 1`, strings.TrimSpace(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("label %q: error %v, want one containing %q", bad, err, want)
		}
	}
}

// endless yields its pattern forever.
type endless struct {
	pattern []byte
	off     int
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.pattern[e.off]
		e.off = (e.off + 1) % len(e.pattern)
	}
	return len(p), nil
}

// readBounded reads r and checks that it fails within a second, allocating
// less than 16 MiB, with an error containing want.
func readBounded(t *testing.T, r io.Reader, want string) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := Read(r, "x.csv")
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one containing %q", err, want)
	}
	if took > time.Second {
		t.Errorf("took %v, want under a second", took)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d MiB, want under 16", alloc>>20)
	}
}

// Input without line breaks (/dev/zero) is refused at once, with bounded
// memory; so is a quoted field that never closes, and an endless stream of
// valid rows past MaxRows.
func TestReadLimits(t *testing.T) {
	t.Run("zeros", func(t *testing.T) {
		readBounded(t, &endless{pattern: []byte{0}}, "x.csv:1: line longer than 1 MiB")
	})
	t.Run("long data line", func(t *testing.T) {
		readBounded(t, io.MultiReader(strings.NewReader("score,label\n0.5,1\n0.5,"), &endless{pattern: []byte("1")}),
			"x.csv:3: line longer than 1 MiB")
	})
	t.Run("unclosed quote", func(t *testing.T) {
		readBounded(t, io.MultiReader(strings.NewReader("score,label,note\n0.5,1,x\n# a \"comment\n0.5,1,\"open"), &endless{pattern: []byte("y\n")}),
			"x.csv:4: record longer than 1 MiB (a quoted field that is not closed?)")
	})
	t.Run("rows", func(t *testing.T) {
		defer func(n int) { maxRows = n }(maxRows)
		maxRows = 1000
		readBounded(t, io.MultiReader(strings.NewReader("score,label\n"), &endless{pattern: []byte("0.5,1\n")}),
			"x.csv:1002: more than 1000 data rows")
	})
}

// A line of exactly MaxLineBytes is read, and quoted fields may span lines
// (comment lines with quotes in them do not confuse the count).
func TestReadLongButFine(t *testing.T) {
	row := "0.5,1,"
	long := row + strings.Repeat("a", MaxLineBytes-len(row))
	in := "score,label,note\n# it's \"quoted\n" + long + "\r\n0.25,0,\"two\nlines, \"\"quoted\"\"\"\n0.125,True,x\n"
	d, err := Read(strings.NewReader(in), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Scores) != 3 || d.Scores[1] != 0.25 || d.Labels[1] || !d.Labels[2] {
		t.Errorf("read %v %v", d.Scores, d.Labels)
	}
	if _, err := Read(strings.NewReader("score,label,note\n"+long+"b\n"), "x.csv"); err == nil || !strings.Contains(err.Error(), "x.csv:2: line longer than 1 MiB") {
		t.Errorf("a line of MaxLineBytes+1: %v", err)
	}
}

// slowRows yields a header, then one row every millisecond, forever.
type slowRows struct{ started bool }

func (s *slowRows) Read(p []byte) (int, error) {
	if !s.started {
		s.started = true
		return copy(p, "score,label\n"), nil
	}
	time.Sleep(time.Millisecond)
	return copy(p, "0.5,1\n"), nil
}

// stalled blocks in Read until its read deadline is set, as a pipe's
// *os.File does when its writer stalls.
type stalled struct{ deadline chan struct{} }

func (s *stalled) Read(p []byte) (int, error) {
	<-s.deadline
	return 0, errors.New("i/o timeout")
}

func (s *stalled) SetReadDeadline(time.Time) error {
	close(s.deadline)
	return nil
}

// ReadContext stops within a second of its context's cancellation, with an
// error that wraps context.Canceled: on a reader that yields rows slowly and
// on one whose Read blocks.
func TestReadContextCancel(t *testing.T) {
	for _, c := range []struct {
		name string
		r    io.Reader
		want string
	}{
		{"slow", &slowRows{}, "x.csv: stopped after "},
		{"stalled", &stalled{make(chan struct{})}, "x.csv: stopped after 0 data rows: context canceled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := ReadContext(ctx, c.r, "x.csv")
			if took := time.Since(start); took > time.Second {
				t.Errorf("returned %v after the start, want within a second", took)
			}
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), strings.Replace(c.want, "context canceled", "context deadline exceeded", 1)) {
				t.Errorf("error %v, want one wrapping the context's error containing %q", err, c.want)
			}
		})
	}
	// A context cancelled (not timed out) gives context.Canceled.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := ReadContext(ctx, &slowRows{}, "x.csv"); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want one wrapping context.Canceled", err)
	}
	// A context done before the start reads nothing.
	if _, err := ReadContext(ctx, strings.NewReader("score,label\n0.5,1\n"), "x.csv"); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want one wrapping context.Canceled", err)
	}
}

// chunks yields s n bytes at a time.
type chunks struct {
	s string
	n int
}

func (c *chunks) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}

// With a small line limit (and input in chunks smaller than it, so that
// lines begin and end inside a chunk), the reader either reads what it reads without the
// limit, or names a line that is too long or a record that spans too much.
func FuzzReadLimits(f *testing.F) {
	f.Add("score,label\n0.5,1\n0.1,0\n")
	f.Add("score,label,note\n0.5,1,\"a\nb\"\n# \"x\n0.1,0,y\r\n")
	f.Add("score,label\n0.5,1,aaaaaaaaaaaaaaaaaaaaaaaa\n")
	f.Add("score,label,n\n0.5,1,\"a\nbbbbbbbb\ncccccccc\ndddddd\"\n")
	f.Fuzz(func(t *testing.T, in string) {
		want, wantErr := Read(strings.NewReader(in), "f.csv")
		defer func(n int) { maxLineBytes = n }(maxLineBytes)
		maxLineBytes = 16
		got, err := Read(&chunks{in, 7}, "f.csv")
		var line int
		switch {
		case err != nil && strings.Contains(err.Error(), "line longer than 16 bytes"):
			if _, scanErr := fmt.Sscanf(err.Error(), "f.csv:%d:", &line); scanErr != nil {
				t.Fatalf("error %q names no line", err)
			}
			lines := strings.Split(in, "\n")
			if line < 1 || line > len(lines) {
				t.Fatalf("error %q: the input has %d lines", err, len(lines))
			}
			if l := strings.TrimSuffix(lines[line-1], "\r"); len(l) <= 16 {
				t.Fatalf("error %q, but line %d is %q", err, line, lines[line-1])
			}
		case err != nil && strings.Contains(err.Error(), "record longer than 16 bytes"):
		default:
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("with the limit: %v; without: %v", err, wantErr)
			}
			if len(got.Scores) != len(want.Scores) {
				t.Fatalf("with the limit %d rows, without %d", len(got.Scores), len(want.Scores))
			}
		}
	})
}
