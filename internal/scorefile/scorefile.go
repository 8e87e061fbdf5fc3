package scorefile

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

const (
	// MaxLineBytes is the longest line (and the longest record, for a
	// quoted field that spans lines) a score file may have, without its
	// line break.
	MaxLineBytes = 1 << 20
	// MaxRows is the most data rows a file may have.
	MaxRows = 100_000_000
	// MaxCells is the most feature values a file may have (1.6 GB of
	// float64).
	MaxCells = 200_000_000
	// MaxFeatures is the most feature columns a file may have.
	MaxFeatures = 10_000
	// checkEvery is how many rows are read between checks of the context.
	checkEvery = 4096
)

// The limits, as variables so that the tests can lower them.
var (
	maxLineBytes = MaxLineBytes
	maxRows      = MaxRows
	maxCells     = MaxCells
)

// Data is the content of a score file whose labels are true classes (the
// scores-file data source): the score column and the label column, 1 for a
// positive and 0 for a negative.
type Data struct {
	Scores []float64
	Labels []bool // true for label 1
}

// Positives is the number of rows with label 1.
func (d Data) Positives() int {
	n := 0
	for _, l := range d.Labels {
		if l {
			n++
		}
	}
	return n
}

// ReadFile reads the score file at path. It is ReadFileContext with a
// context that is never done.
func ReadFile(path string) (Data, error) {
	return ReadFileContext(context.Background(), path)
}

// Read reads a score file from r; name is used in error messages. It is
// ReadContext with a context that is never done.
func Read(r io.Reader, name string) (Data, error) {
	return ReadContext(context.Background(), r, name)
}

// ReadFileContext reads the score file at path (columns `score` and
// `label`, the label a true class: 1 or 0) and stops, with an error that
// wraps context.Cause(ctx), when ctx is done: also while opening path, which
// for a FIFO waits until a writer opens it.
func ReadFileContext(ctx context.Context, path string) (Data, error) {
	f, err := openContext(ctx, path)
	if err != nil {
		return Data{}, err
	}
	defer f.Close()
	return ReadContext(ctx, f, path)
}

// openContext opens path, giving up with an error that wraps
// context.Cause(ctx) when ctx is done first.
func openContext(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		// The open may still succeed (a FIFO's writer comes later): close
		// the file then.
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, fmt.Errorf("%s: stopped while opening: %w", path, context.Cause(ctx))
	}
}

// ReadContext reads a score file from r, stopping when ctx is done; name is
// used in error messages. If r has a SetReadDeadline method (an *os.File of
// a pipe or FIFO, a net.Conn), a read blocked when ctx is done is
// interrupted by setting a deadline in the past.
func ReadContext(ctx context.Context, r io.Reader, name string) (Data, error) {
	rd, err := NewReader(ctx, r, name)
	if err != nil {
		return Data{}, err
	}
	defer rd.Close()
	t, err := rd.Read(scoreFileSpec)
	if err != nil {
		return Data{}, err
	}
	return Data{Scores: t.Scores, Labels: t.Labeled()}, nil
}

// scoreFileSpec reads a score,label file whose labels are true classes.
var scoreFileSpec = Spec{Label: Column{Name: "label"}, Score: Column{Name: "score"}, Labels: Classes}

// csvError names the file (and the line, for a parse error) in an error of
// the CSV reader.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// parseLabel reads a label: ok is false unless s (without surrounding
// space) is a decimal spelling of exactly 1 or 0 ("1", "1.0", "1e0", "+1",
// "0.00", "-0", ".0") or true/false in any case. A value that only rounds to
// 0 or 1 in float64 ("1e-400", "1.00000000000000001") is not a label.
func parseLabel(s string) (label, ok bool) {
	switch {
	case s == "1":
		return true, true
	case s == "0":
		return false, true
	case strings.EqualFold(s, "true"):
		return true, true
	case strings.EqualFold(s, "false"):
		return false, true
	}
	// [+-] digits [. digits] [(e|E) [+-] digits], at least one mantissa digit.
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	intPart, s := digits(s)
	var frac string
	if s != "" && s[0] == '.' {
		frac, s = digits(s[1:])
	}
	if intPart == "" && frac == "" {
		return false, false
	}
	exp := 0
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		esign := 1
		if s != "" && (s[0] == '+' || s[0] == '-') {
			if s[0] == '-' {
				esign = -1
			}
			s = s[1:]
		}
		var ed string
		ed, s = digits(s)
		if ed == "" {
			return false, false
		}
		e, err := strconv.Atoi(ed)
		if err != nil || e > 1<<30 {
			e = 1 << 30 // beyond any mantissa a line can hold
		}
		exp = esign * e
	}
	if s != "" {
		return false, false
	}
	// The value is the integer m = intPart+frac times 10^(exp-len(frac)).
	m := strings.TrimLeft(intPart+frac, "0")
	if m == "" {
		return false, true // every digit 0: exactly 0, whatever the sign and exponent
	}
	trimmed := strings.TrimRight(m, "0")
	scale := exp - len(frac) + len(m) - len(trimmed)
	if trimmed == "1" && scale == 0 && !neg {
		return true, true
	}
	return false, false
}

// digits splits s after its leading ASCII digits.
func digits(s string) (d, rest string) {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}

// limitReader passes on the bytes of r while it checks ctx before each read
// and enforces maxLineBytes on every line and on every record (a quoted
// field may span lines). It tracks the CSV reader's view of records: a line
// break inside a quoted field (an odd number of '"' since the record began,
// comment lines not counted) continues the record.
type limitReader struct {
	ctx context.Context
	r   io.Reader
	err error // the limit exceeded, "LINE: ..." (the caller prefixes the file)

	line     int  // 1-based number of the line being read
	lineLen  int  // bytes of that line so far, without its '\n'
	recStart int  // line where the record being read began
	recLen   int  // bytes of that record so far
	atStart  bool // at the start of a line
	inQuote  bool // inside a quoted field
	comment  bool // the line is a comment line
	lastCR   bool // the line so far ends in '\r'
}

func (lr *limitReader) Read(p []byte) (int, error) {
	if lr.err != nil {
		return 0, lr.err
	}
	if err := lr.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := lr.r.Read(p)
	if lerr := lr.scan(p[:n]); lerr != nil {
		lr.err = lerr
		return 0, lerr
	}
	return n, err
}

// scan advances the line and record counts over b and returns an error when
// a limit is exceeded.
func (lr *limitReader) scan(b []byte) error {
	// Fast path, for a chunk without quotes outside a quoted field: every
	// line that begins and ends in it is shorter than the limit, so only the
	// first and the last line matter.
	if !lr.inQuote && len(b) <= maxLineBytes && bytes.IndexByte(b, '"') < 0 {
		if first := bytes.IndexByte(b, '\n'); first >= 0 {
			if err := lr.scanLines(b[:first+1]); err != nil {
				return err
			}
			b = b[first+1:]
			last := bytes.LastIndexByte(b, '\n') + 1
			lr.line += bytes.Count(b[:last], []byte{'\n'})
			b = b[last:]
		}
	}
	return lr.scanLines(b)
}

// scanLines is scan line by line.
func (lr *limitReader) scanLines(b []byte) error {
	for len(b) > 0 {
		if lr.atStart {
			lr.atStart = false
			if !lr.inQuote {
				lr.recStart, lr.recLen = lr.line, 0
				lr.comment = b[0] == '#'
			}
		}
		seg := b
		i := bytes.IndexByte(b, '\n')
		if i >= 0 {
			seg = b[:i]
		}
		lr.lineLen += len(seg)
		lr.recLen += len(seg)
		if len(seg) > 0 {
			lr.lastCR = seg[len(seg)-1] == '\r'
		}
		// A '\r' before the '\n' is part of the line break.
		n := lr.lineLen
		if lr.lastCR {
			n--
		}
		if n > maxLineBytes {
			return fmt.Errorf("%d: line longer than %s", lr.line, sizeName(maxLineBytes))
		}
		if lr.recLen > maxLineBytes && lr.recStart < lr.line {
			return fmt.Errorf("%d: record longer than %s (a quoted field that is not closed?)", lr.recStart, sizeName(maxLineBytes))
		}
		if !lr.comment && bytes.Count(seg, []byte{'"'})%2 == 1 {
			lr.inQuote = !lr.inQuote
		}
		if i < 0 {
			break
		}
		lr.line++
		lr.lineLen = 0
		lr.lastCR = false
		lr.recLen++ // the line break belongs to a record that goes on
		lr.atStart = true
		b = b[i+1:]
	}
	return nil
}

// sizeName writes a byte count, in MiB when it is a whole number of them.
func sizeName(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
