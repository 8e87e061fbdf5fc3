package scorefile

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Column names a column of the header.
type Column struct {
	// Name is matched trimmed and case-insensitively; "" names none.
	Name string
	// Flag is the command-line flag that names the column, for error
	// messages ("" for none).
	Flag string
}

// FeatureRule says which columns not named for another role are features.
type FeatureRule int8

const (
	// NoFeatures: none; they are ignored.
	NoFeatures FeatureRule = iota
	// OtherColumns: every column not named for another role.
	OtherColumns
)

// Spec says which column a reader takes in which role.
type Spec struct {
	// Label is the label column (required).
	Label Column
	// Labels says how it reads: PU labels (the default) or true classes.
	Labels LabelKind
	// Negatives, with PU labels, is the label value that marks known
	// negatives ("" for none; see CheckNegatives).
	Negatives string
	// LabelHint, when set, adds to the error on a label that is none of
	// the above (given the label as written), e.g. to suggest a flag.
	LabelHint func(label string) string

	// Score is the score column ("" Name: none).
	Score Column
	// Truth is a column of true classes, 1 positive and 0 negative ("" Name:
	// none).
	Truth Column
	// Ignore are columns read as nothing; IgnoreFlag names the flag.
	Ignore     []string
	IgnoreFlag string
	// Features says which of the remaining columns are features, unless
	// FeatureColumns names them (then exactly those are features, and the
	// rest is ignored); FeatureFlag names the flag that lists them.
	Features       FeatureRule
	FeatureColumns []string
	FeatureFlag    string

	// MaxRows, when positive, is the most data rows to read (at most
	// MaxRows); TooMany says what to do about more.
	MaxRows int
	TooMany string
}

// Columns says which column of a file was read as what, by the names the
// header gives them (trimmed).
type Columns struct {
	Label    string   `json:"label"`
	Score    string   `json:"score,omitempty"`
	Truth    string   `json:"truth,omitempty"`
	Features []string `json:"features"`
	Ignored  []string `json:"ignored"`
}

// String lists the columns' roles on one line, for a table; a role with
// more than 8 columns is shortened to its first names, the last and the
// count.
func (c Columns) String() string {
	parts := []string{"label " + strconv.Quote(c.Label)}
	if c.Score != "" {
		parts = append(parts, "score "+strconv.Quote(c.Score))
	}
	if c.Truth != "" {
		parts = append(parts, "truth "+strconv.Quote(c.Truth))
	}
	list := func(what string, names []string) {
		switch n := len(names); {
		case n > maxListed:
			// A wide file's names would make the row unreadable: the
			// first and the last, and how many (the JSON has them all).
			parts = append(parts, fmt.Sprintf("%s %d: %s, ..., %s", what, n, quoteList(names[:maxListed-2]), strconv.Quote(names[n-1])))
		case n > 0:
			parts = append(parts, fmt.Sprintf("%s %s", what, quoteList(names)))
		}
	}
	list("features", c.Features)
	list("ignored", c.Ignored)
	return strings.Join(parts, "; ")
}

// maxListed is the most names of one role String lists in full.
const maxListed = 8

// quoteList writes names quoted, comma-separated.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// Table is what Reader.Read read, in file order.
type Table struct {
	Columns Columns
	Labels  []PULabel
	// Scores are nil without a score column, Truth without a truth column.
	Scores []float64
	Truth  []bool
	// X holds the features row after row, len(Columns.Features) a row.
	X []float64
}

// N is the number of rows.
func (t *Table) N() int { return len(t.Labels) }

// Count is the number of rows labeled l.
func (t *Table) Count(l PULabel) int {
	n := 0
	for _, x := range t.Labels {
		if x == l {
			n++
		}
	}
	return n
}

// Labeled is true for the rows labeled 1.
func (t *Table) Labeled() []bool {
	out := make([]bool, len(t.Labels))
	for i, l := range t.Labels {
		out[i] = l == Labeled
	}
	return out
}

// Reader reads one CSV file: the header on Open or NewReader, the rows on
// Read.
type Reader struct {
	ctx  context.Context
	name string
	file *os.File // closed by Close; nil for NewReader
	lr   *limitReader
	cr   *csv.Reader
	stop func() bool // releases the deadline hook
	head []string    // the header's names, trimmed
	line int         // the header's line
	read bool
}

// Open opens the file at path and reads its header, giving up when ctx is
// done (also while opening a FIFO that no writer has opened). The caller
// must Close the reader.
func Open(ctx context.Context, path string) (*Reader, error) {
	f, err := openContext(ctx, path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(ctx, f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.file = f
	return r, nil
}

// NewReader reads the header of the CSV that src yields; name is used in
// error messages. If src has a SetReadDeadline method (an *os.File of a
// pipe or FIFO), a read blocked when ctx is done is interrupted by setting
// a deadline in the past. The caller must Close the reader.
func NewReader(ctx context.Context, src io.Reader, name string) (*Reader, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: stopped: %w", name, context.Cause(ctx))
	}
	r := &Reader{ctx: ctx, name: name, stop: func() bool { return false }}
	if dr, ok := src.(interface{ SetReadDeadline(time.Time) error }); ok {
		r.stop = context.AfterFunc(ctx, func() { dr.SetReadDeadline(time.Unix(1, 0)) })
	}
	r.lr = &limitReader{ctx: ctx, r: &bomReader{r: src}, line: 1, atStart: true}
	r.cr = csv.NewReader(r.lr)
	r.cr.Comment = '#'
	r.cr.TrimLeadingSpace = true
	r.cr.ReuseRecord = true
	if err := r.readHeader(); err != nil {
		r.stop()
		return nil, r.fail(err, 0)
	}
	return r, nil
}

// Close releases the reader and closes the file Open opened.
func (r *Reader) Close() error {
	r.stop()
	if r.file != nil {
		return r.file.Close()
	}
	return nil
}

// Name is the file's name in error messages.
func (r *Reader) Name() string { return r.name }

// Header returns the names of the header's columns, trimmed.
func (r *Reader) Header() []string { return slices.Clone(r.head) }

// Has reports whether the header has a column of that name (trimmed,
// case-insensitive).
func (r *Reader) Has(name string) bool { return r.find(name) >= 0 }

// readHeader reads the header and refuses duplicate names.
func (r *Reader) readHeader() error {
	head, err := r.cr.Read()
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: empty file: want a header line that names the columns", r.name)
	}
	if err != nil {
		return csvError(r.name, err)
	}
	r.line, _ = r.cr.FieldPos(0)
	if slices.ContainsFunc(head, func(h string) bool { return strings.ContainsRune(h, 0) }) {
		return fmt.Errorf("%s:%d: the header holds NUL bytes (UTF-16 text?): save the file as UTF-8", r.name, r.line)
	}
	r.head = make([]string, len(head))
	seen := map[string]int{}
	for i, h := range head {
		r.head[i] = strings.TrimSpace(h)
		key := strings.ToLower(r.head[i])
		if j, ok := seen[key]; ok {
			return fmt.Errorf("%s:%d: columns %d and %d are both named %q (names are compared trimmed and case-insensitively): rename or drop one",
				r.name, r.line, j+1, i+1, r.head[i])
		}
		seen[key] = i
	}
	return nil
}

// find returns the index of the column named name (trimmed,
// case-insensitive), or -1.
func (r *Reader) find(name string) int {
	name = strings.TrimSpace(name)
	return slices.IndexFunc(r.head, func(h string) bool { return strings.EqualFold(h, name) })
}

// layout is a Spec resolved against the header: the column index of each
// role (-1: none) and the feature columns.
type layout struct {
	label, score, truth int
	feat                []int
	cols                Columns
}

// Columns resolves spec against the header without reading a row: which
// column would be read as what. Its errors are those Read would give.
func (r *Reader) Columns(spec Spec) (Columns, error) {
	l, err := r.resolve(spec)
	if err != nil {
		return Columns{}, err
	}
	return l.cols, nil
}

// resolve finds spec's columns in the header.
func (r *Reader) resolve(spec Spec) (*layout, error) {
	role := make([]string, len(r.head)) // the role of each column, "" none yet
	take := func(c Column, what string) (int, error) {
		if c.Name == "" {
			return -1, nil
		}
		i := r.find(c.Name)
		if i < 0 {
			msg := fmt.Sprintf("%s:%d: no %s column %q in the header (columns: %s)", r.name, r.line, what, strings.TrimSpace(c.Name), quoteList(r.head))
			if c.Flag != "" {
				msg += "; name it with " + c.Flag
			}
			return -1, errors.New(msg)
		}
		if role[i] == what {
			return -1, fmt.Errorf("%s:%d: column %q is listed twice (%s)", r.name, r.line, r.head[i], c.Flag)
		}
		if role[i] != "" {
			return -1, fmt.Errorf("%s:%d: column %q cannot be both the %s and the %s", r.name, r.line, r.head[i], roleName(role[i]), roleName(what))
		}
		role[i] = what
		return i, nil
	}
	l := &layout{}
	var err error
	if spec.Label.Name == "" {
		return nil, fmt.Errorf("%s: no label column named", r.name)
	}
	if l.label, err = take(spec.Label, "label"); err != nil {
		return nil, err
	}
	if l.score, err = take(spec.Score, "score"); err != nil {
		return nil, err
	}
	if l.truth, err = take(spec.Truth, "truth"); err != nil {
		return nil, err
	}
	for _, name := range spec.Ignore {
		if _, err := take(Column{name, spec.IgnoreFlag}, "ignored"); err != nil {
			return nil, err
		}
	}
	for _, name := range spec.FeatureColumns {
		i, err := take(Column{name, spec.FeatureFlag}, "feature")
		if err != nil {
			return nil, err
		}
		l.feat = append(l.feat, i)
	}
	if len(spec.FeatureColumns) == 0 && spec.Features == OtherColumns {
		for i := range r.head {
			if role[i] == "" {
				role[i] = "feature"
				l.feat = append(l.feat, i)
			}
		}
	}
	if len(l.feat) > MaxFeatures {
		return nil, fmt.Errorf("%s:%d: %d feature columns: at most %d", r.name, r.line, len(l.feat), MaxFeatures)
	}
	l.cols = r.columns(l, role)
	return l, nil
}

// columns names the columns of layout l; role is each column's role, ""
// or "ignored" for those read as nothing.
func (r *Reader) columns(l *layout, role []string) Columns {
	c := Columns{Label: r.head[l.label], Features: []string{}, Ignored: []string{}}
	if l.score >= 0 {
		c.Score = r.head[l.score]
	}
	if l.truth >= 0 {
		c.Truth = r.head[l.truth]
	}
	for _, i := range l.feat {
		c.Features = append(c.Features, r.head[i])
	}
	for i, h := range r.head {
		if role[i] == "" || role[i] == "ignored" {
			c.Ignored = append(c.Ignored, h)
		}
	}
	return c
}

// roleName names a role in an error.
func roleName(role string) string {
	switch role {
	case "ignored":
		return "ignored column"
	case "feature":
		return "feature"
	}
	return role + " column"
}

// Read reads the rows as spec says. A Reader reads its rows once.
func (r *Reader) Read(spec Spec) (*Table, error) {
	if r.read {
		return nil, fmt.Errorf("%s: the rows were read already", r.name)
	}
	r.read = true
	defer r.stop()
	if spec.Negatives != "" {
		if spec.Labels != PU {
			return nil, fmt.Errorf("%s: known negatives need PU labels", r.name)
		}
		if err := CheckNegatives(spec.Negatives); err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
	}
	l, err := r.resolve(spec)
	if err != nil {
		return nil, err
	}
	t := &Table{Columns: l.cols}
	if l.score >= 0 {
		t.Scores = []float64{}
	}
	if l.truth >= 0 {
		t.Truth = []bool{}
	}
	rows := &rowReader{r: r, l: l, t: t, spec: spec,
		labels: labelRule{kind: spec.Labels, negative: canonLabel(spec.Negatives), hint: spec.LabelHint}}
	if err := rows.readAll(); err != nil {
		return nil, r.fail(err, t.N())
	}
	if t.N() == 0 {
		return nil, fmt.Errorf("%s: no data rows after the header", r.name)
	}
	return t, nil
}

// fail says why reading stopped: the context's end, a limit of the line
// reader, or err itself.
func (r *Reader) fail(err error, rows int) error {
	switch {
	case r.ctx.Err() != nil:
		return fmt.Errorf("%s: stopped after %d data rows: %w", r.name, rows, context.Cause(r.ctx))
	case r.lr.err != nil:
		return fmt.Errorf("%s:%w", r.name, r.lr.err)
	}
	return err
}

// rowReader reads the data rows into a table.
type rowReader struct {
	r      *Reader
	l      *layout
	t      *Table
	spec   Spec
	labels labelRule
}

// readAll reads every data row.
func (rr *rowReader) readAll() error {
	cr, name, t := rr.r.cr, rr.r.name, rr.t
	limit := maxRows
	if rr.spec.MaxRows > 0 {
		limit = min(limit, rr.spec.MaxRows)
	}
	d := len(rr.l.feat)
	for {
		if t.N()%checkEvery == 0 && rr.r.ctx.Err() != nil {
			return rr.r.ctx.Err()
		}
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if t.N() >= limit || (t.N()+1)*d > maxCells {
			return rr.tooMany(line, limit)
		}
		if err := rr.row(rec, line); err != nil {
			return err
		}
	}
}

// tooMany is the error on the row at line line when limit rows (or the
// most feature values) were read.
func (rr *rowReader) tooMany(line, limit int) error {
	n := rr.t.N()
	msg := fmt.Sprintf("%s:%d: more than %d data rows", rr.r.name, line, n)
	switch {
	case n < limit:
		msg += fmt.Sprintf(" of %d features (at most %d values)", len(rr.l.feat), maxCells)
	case limit == maxRows:
		msg += " (the most a file may have)"
	}
	if rr.spec.TooMany != "" {
		msg += ": " + rr.spec.TooMany
	}
	return errors.New(msg)
}

// row parses one record, on line line, into the table.
func (rr *rowReader) row(rec []string, line int) error {
	r, l, t := rr.r, rr.l, rr.t
	lv := rec[l.label]
	lab, ok := rr.labels.parse(lv)
	if !ok {
		return fmt.Errorf("%s:%d: column %q: label %q %s", r.name, line, r.head[l.label], strings.TrimSpace(lv), rr.labels.want(lv))
	}
	if l.truth >= 0 {
		pos, ok := parseLabel(strings.TrimSpace(rec[l.truth]))
		if !ok {
			return fmt.Errorf("%s:%d: column %q: %q is not 1 (positive) or 0 (negative)", r.name, line, r.head[l.truth], strings.TrimSpace(rec[l.truth]))
		}
		t.Truth = append(t.Truth, pos)
	}
	if l.score >= 0 {
		s, err := rr.number(rec, l.score, line)
		if err != nil {
			return err
		}
		t.Scores = append(t.Scores, s)
	}
	for _, i := range l.feat {
		x, err := rr.number(rec, i, line)
		if err != nil {
			return err
		}
		t.X = append(t.X, x)
	}
	t.Labels = append(t.Labels, lab)
	return nil
}

// number parses column i of rec, on line line, as a finite number.
func (rr *rowReader) number(rec []string, i, line int) (float64, error) {
	v := strings.TrimSpace(rec[i])
	x, err := strconv.ParseFloat(v, 64)
	if err == nil && !math.IsNaN(x) && !math.IsInf(x, 0) {
		return x, nil
	}
	msg := fmt.Sprintf("%s:%d: column %q: %q is not a finite number", rr.r.name, line, rr.r.head[i], v)
	if i != rr.l.score && rr.spec.IgnoreFlag != "" {
		msg += fmt.Sprintf(" (if the column is not a feature, name it in %s)", rr.spec.IgnoreFlag)
	}
	return 0, errors.New(msg)
}

// bomReader drops a UTF-8 byte-order mark at the start of r's bytes.
type bomReader struct {
	r       io.Reader
	started bool
	pending []byte // bytes read while looking for the mark
	err     error  // the error that came with them
}

// bom is the UTF-8 byte-order mark.
const bom = "\ufeff"

func (b *bomReader) Read(p []byte) (int, error) {
	if !b.started {
		b.started = true
		// Read into a buffer as large as p (a reader may yield a whole
		// line per call), until the first 3 bytes are known or are no
		// longer a prefix of the mark.
		buf := make([]byte, max(len(p), len(bom)))
		n := 0
		var err error
		for n < len(bom) && err == nil && strings.HasPrefix(bom, string(buf[:n])) {
			var k int
			k, err = b.r.Read(buf[n:])
			n += k
		}
		b.pending, b.err = buf[:n], err
		if strings.HasPrefix(string(b.pending), bom) {
			b.pending = b.pending[len(bom):]
		}
	}
	if len(b.pending) > 0 {
		n := copy(p, b.pending)
		b.pending = b.pending[n:]
		return n, nil
	}
	if err := b.err; err != nil {
		b.err = nil
		return 0, err
	}
	return b.r.Read(p)
}
