package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
)

// ColumnKind says how an encoded column was made.
type ColumnKind uint8

const (
	// Numeric columns hold a number from the file, unchanged.
	Numeric ColumnKind = iota
	// Binary columns are a two-valued attribute encoded as 0/1.
	Binary
	// OneHot columns are one indicator of a one-hot group: the columns with
	// the same Source; at most one of them is 1 in a row (Sequence positions
	// with an unknown letter have none).
	OneHot
)

func (k ColumnKind) String() string {
	switch k {
	case Numeric:
		return "numeric"
	case Binary:
		return "binary"
	case OneHot:
		return "onehot"
	}
	return fmt.Sprintf("ColumnKind(%d)", uint8(k))
}

// Column describes one encoded feature.
type Column struct {
	Name   string     `json:"name"`   // e.g. "age", "contact=cellular", "sequence[3]=A"
	Kind   ColumnKind `json:"kind"`   // numeric, binary or onehot
	Source string     `json:"source"` // the file column (or sequence position) it comes from; one-hot groups share it
	Value  string     `json:"value,omitempty"`
}

// sourceTable is the concatenation of all parts of a data set.
type sourceTable struct {
	names  []string
	rows   [][]string
	file   []int32 // index into spec.Files of each row
	part   []int32 // index into parts of each row
	line   []int32 // line (or entry) of each row in its part
	parts  []string
	labels []bool // target column is numeric (threshold rule)
	// values are the numbers of each row for formats whose parser decodes
	// them (idx); nil otherwise.
	values [][]float64
}

func (t *sourceTable) where(i int) string {
	return fmt.Sprintf("%s:%d", t.parts[t.part[i]], t.line[i])
}

// encoded is the result of encoding a table.
type encoded struct {
	x        []float64 // n x d, row-major
	y        []bool
	n, d     int
	cols     []Column
	fileRows []int    // rows contributed by each spec file
	fileFP   []string // fingerprint of each spec file's rows
	// classes are the distinct target values of the kept rows (sorted) and
	// classIndex each row's, for a class target (positive/negative rule);
	// nil for a numeric target (greater_than/less_than).
	classes    []string
	classIndex []int32
}

// colRef resolves a column reference: a 1-based index, or a column name.
func colRef(ref string, names []string) (int, error) {
	if i, err := strconv.Atoi(ref); err == nil {
		if i < 1 || i > len(names) {
			return 0, fmt.Errorf("column %d: the data have columns 1..%d", i, len(names))
		}
		return i - 1, nil
	}
	if i := slices.Index(names, ref); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("no column named %q (columns: %s)", ref, strings.Join(names, ", "))
}

// dropSet resolves features.drop: references and 1-based ranges "a-b".
func dropSet(refs []string, names []string) (map[int]bool, error) {
	out := map[int]bool{}
	for _, r := range refs {
		if m := rangeRE.FindStringSubmatch(r); m != nil {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			if a < 1 || b > len(names) || a > b {
				return nil, fmt.Errorf("features.drop %q: want a range within 1..%d", r, len(names))
			}
			for i := a - 1; i < b; i++ {
				out[i] = true
			}
			continue
		}
		i, err := colRef(r, names)
		if err != nil {
			return nil, fmt.Errorf("features.drop: %w", err)
		}
		out[i] = true
	}
	return out, nil
}

func matchValue(v string, patterns []string) bool {
	for _, p := range patterns {
		if p == v {
			return true
		}
		if strings.ContainsAny(p, "*?[") {
			if ok, _ := path.Match(p, v); ok {
				return true
			}
		}
	}
	return false
}

// parseNumber parses a numeric cell; the missing token, NaN and infinities
// are errors (the classifier needs finite inputs). -0 becomes +0 so that the
// encoded data do not depend on how a zero was spelled.
func parseNumber(s, missing string) (float64, error) {
	if s == missing || s == "" {
		return 0, fmt.Errorf("missing value %q in a numeric column (the catalog has no rule for missing numbers)", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, fmt.Errorf("%q is out of the float64 range", s)
		}
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	if v == 0 {
		v = 0
	}
	return v, nil
}

// encoder turns one source column of a row into its encoded columns.
type encoder struct {
	src    int
	cols   []Column
	encode func(row int, cell string, out []float64) error
}

func buildEncoders(s *Spec, t *sourceTable, target int, keep []int) ([]encoder, error) {
	names := t.names
	missing := s.Format.Missing
	if missing == "" {
		missing = "?"
	}
	drop, err := dropSet(s.Features.Drop, names)
	if err != nil {
		return nil, err
	}
	special := map[int]*encoder{}
	claim := func(ref, what string) (int, error) {
		i, err := colRef(ref, names)
		if err != nil {
			return 0, fmt.Errorf("features.%s: %w", what, err)
		}
		if i == target {
			return 0, fmt.Errorf("features.%s: column %q is the target", what, names[i])
		}
		if drop[i] {
			return 0, fmt.Errorf("features.%s: column %q is also dropped", what, names[i])
		}
		if special[i] != nil {
			return 0, fmt.Errorf("features.%s: column %q is encoded twice", what, names[i])
		}
		return i, nil
	}
	for _, c := range s.Features.Categorical {
		i, err := claim(c.Column, "categorical")
		if err != nil {
			return nil, err
		}
		name := names[i]
		values := c.Values
		e := &encoder{src: i}
		index := map[string]int{}
		for k, v := range values {
			index[v] = k
			e.cols = append(e.cols, Column{Name: name + "=" + v, Kind: OneHot, Source: name, Value: v})
		}
		e.encode = func(_ int, cell string, out []float64) error {
			k, ok := index[cell]
			if !ok {
				return fmt.Errorf("value %q is not one of the listed values %q", cell, values)
			}
			out[k] = 1
			return nil
		}
		special[i] = e
	}
	for _, b := range s.Features.Binary {
		i, err := claim(b.Column, "binary")
		if err != nil {
			return nil, err
		}
		values := b.Values
		special[i] = &encoder{src: i, cols: []Column{{Name: names[i], Kind: Binary, Source: names[i], Value: values[1]}},
			encode: func(_ int, cell string, out []float64) error {
				switch cell {
				case values[0]:
				case values[1]:
					out[0] = 1
				default:
					return fmt.Errorf("value %q is neither %q nor %q", cell, values[0], values[1])
				}
				return nil
			}}
	}
	for _, q := range s.Features.Sequence {
		i, err := claim(q.Column, "sequence")
		if err != nil {
			return nil, err
		}
		q := q
		alpha := []byte(q.Alphabet)
		var pos [256]int8
		for k := range pos {
			pos[k] = -1
		}
		for k, a := range alpha {
			pos[a] = int8(k)
		}
		e := &encoder{src: i}
		for p := 0; p < q.Length; p++ {
			src := fmt.Sprintf("%s[%d]", names[i], p+1)
			for _, a := range alpha {
				e.cols = append(e.cols, Column{Name: src + "=" + string(a), Kind: OneHot, Source: src, Value: string(a)})
			}
		}
		e.encode = func(_ int, cell string, out []float64) error {
			if len(cell) != q.Length {
				return fmt.Errorf("sequence %q has length %d, want %d", cell, len(cell), q.Length)
			}
			for p := 0; p < len(cell); p++ {
				k := pos[cell[p]]
				if k < 0 {
					if q.Unknown == "zero" {
						continue
					}
					return fmt.Errorf("letter %q at position %d is not in the alphabet %q", cell[p], p+1, q.Alphabet)
				}
				out[p*len(alpha)+int(k)] = 1
			}
			return nil
		}
		special[i] = e
	}
	if s.Format.Kind == "idx" {
		// The pixels are the features, decoded and scaled by readIDX.
		pi, err := colRef("pixels", names)
		if err != nil {
			return nil, err
		}
		cols := idxColumns(idxSideOut(s.Format))
		return []encoder{{src: pi, cols: cols, encode: func(row int, _ string, out []float64) error {
			if row >= len(t.values) || len(t.values[row]) != len(out) {
				return fmt.Errorf("row %d has no %d pixel values", row, len(out)) // a parser bug, not bad data
			}
			copy(out, t.values[row])
			return nil
		}}}, nil
	}
	if s.Format.Kind == "documents" {
		// The text is the only feature: TF-IDF over the most frequent terms,
		// fitted on the documents that are kept.
		ti, err := colRef("text", names)
		if err != nil {
			return nil, err
		}
		e, err := tfidfEncoder(t, ti, keep, s.Format.MaxFeatures)
		if err != nil {
			return nil, err
		}
		return []encoder{*e}, nil
	}
	var encs []encoder
	for i, name := range names {
		if i == target || drop[i] {
			continue
		}
		if e := special[i]; e != nil {
			encs = append(encs, *e)
			continue
		}
		encs = append(encs, encoder{src: i, cols: []Column{{Name: name, Kind: Numeric, Source: name}},
			encode: func(_ int, cell string, out []float64) error {
				v, err := parseNumber(cell, missing)
				out[0] = v
				return err
			}})
	}
	return encs, nil
}

// threshold computes the numeric threshold of a greater_than/less_than rule.
func threshold(rule string, vals []float64) float64 {
	switch rule {
	case "mean":
		sum := 0.0
		for _, v := range vals {
			sum += v
		}
		return sum / float64(len(vals))
	case "median":
		s := slices.Clone(vals)
		slices.Sort(s)
		n := len(s)
		if n%2 == 1 {
			return s[n/2]
		}
		return (s[n/2-1] + s[n/2]) / 2
	}
	v, _ := strconv.ParseFloat(rule, 64) // validated when the catalog was read
	return v
}

// encodeTable applies the spec to the table: row limit, target and its
// binarization, feature encoding; and computes the per-file fingerprints.
func encodeTable(s *Spec, t *sourceTable) (*encoded, error) {
	if len(t.rows) == 0 {
		// Name what was read: a header-only or blank file is otherwise hard
		// to tell from a wrong catalog entry.
		if len(t.parts) == 0 {
			return nil, fmt.Errorf("no data rows: no file was read")
		}
		return nil, fmt.Errorf("no data rows in %s", strings.Join(t.parts, ", "))
	}
	n := len(t.rows)
	if s.MaxRows > 0 && n > s.MaxRows {
		n = s.MaxRows
	}
	targetRef := s.Target.Column
	if targetRef == "" && s.Format.Kind == "documents" {
		targetRef = "class"
	}
	if targetRef == "" && s.Format.Kind == "idx" {
		targetRef = "label"
	}
	target, err := colRef(targetRef, t.names)
	if err != nil {
		return nil, fmt.Errorf("target: %w", err)
	}
	missing := s.Format.Missing
	if missing == "" {
		missing = "?"
	}

	// Rows kept and their labels.
	var keep []int
	var y []bool
	numeric := s.Target.GreaterThan != "" || s.Target.LessThan != ""
	var tv []float64
	for i := 0; i < n; i++ {
		cell := t.rows[i][target]
		if numeric {
			v, err := parseNumber(cell, missing)
			if err != nil {
				return nil, fmt.Errorf("%s: target column %s: %w", t.where(i), t.names[target], err)
			}
			keep = append(keep, i)
			tv = append(tv, v)
			continue
		}
		pos := matchValue(cell, s.Target.Positive)
		if !pos && len(s.Target.Negative) > 0 && !matchValue(cell, s.Target.Negative) {
			continue // neither class: Gas keeps Ethanol vs Acetone only
		}
		keep = append(keep, i)
		y = append(y, pos)
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("no rows left after applying the target rule to column %s of the %d rows of %s", t.names[target], n, strings.Join(t.parts, ", "))
	}
	if numeric {
		y = make([]bool, len(tv))
		if r := s.Target.GreaterThan; r != "" {
			th := threshold(r, tv)
			for k, v := range tv {
				y[k] = v > th
			}
		} else {
			th := threshold(s.Target.LessThan, tv)
			for k, v := range tv {
				y[k] = v < th
			}
		}
	}

	encs, err := buildEncoders(s, t, target, keep)
	if err != nil {
		return nil, err
	}
	d := 0
	var cols []Column
	for _, e := range encs {
		d += len(e.cols)
		cols = append(cols, e.cols...)
	}
	if d == 0 {
		return nil, fmt.Errorf("no feature columns")
	}
	x := make([]float64, len(keep)*d)
	for k, i := range keep {
		row := t.rows[i]
		out := x[k*d : (k+1)*d]
		off := 0
		for _, e := range encs {
			if err := e.encode(i, row[e.src], out[off:off+len(e.cols)]); err != nil {
				return nil, fmt.Errorf("%s: column %s: %w", t.where(i), t.names[e.src], err)
			}
			off += len(e.cols)
		}
	}

	// Per-file fingerprints: the encoded rows each file contributes with
	// their raw target values (labels depend on all files through the mean).
	enc := &encoded{x: x, y: y, n: len(keep), d: d, cols: cols,
		fileRows: make([]int, len(s.Files)), fileFP: make([]string, len(s.Files))}
	if !numeric {
		// Each row's class, so that the same features can be relabelled
		// one-vs-rest without parsing again (Dataset.Retarget).
		enc.classes, enc.classIndex = classIndex(len(keep), func(k int) string { return t.rows[keep[k]][target] })
	}
	fps := make([]*fingerprinter, len(s.Files))
	for f := range fps {
		fps[f] = newFingerprinter("pueval-file-v1", d)
	}
	for k, i := range keep {
		f := t.file[i]
		enc.fileRows[f]++
		fp := fps[f]
		fp.row(x[k*d : (k+1)*d])
		if numeric {
			fp.number(tv[k])
		} else {
			fp.str(t.rows[i][target])
		}
	}
	for f, fp := range fps {
		if enc.fileRows[f] > 0 {
			enc.fileFP[f] = fp.sum(enc.fileRows[f])
		}
	}
	return enc, nil
}

// classIndex returns the distinct values of class(0..n-1), sorted, and the
// index of each row's value in them.
func classIndex(n int, class func(int) string) ([]string, []int32) {
	seen := map[string]bool{}
	var classes []string
	for k := range n {
		if c := class(k); !seen[c] {
			seen[c] = true
			classes = append(classes, c)
		}
	}
	slices.Sort(classes)
	pos := make(map[string]int32, len(classes))
	for i, c := range classes {
		pos[c] = int32(i)
	}
	idx := make([]int32, n)
	for k := range idx {
		idx[k] = pos[class(k)]
	}
	return classes, idx
}

// fingerprinter hashes encoded rows: a label, then per row the d features as
// IEEE-754 float64 bits (little-endian) and one more item (the label byte
// for data sets, the raw target for files), then the row count and d.
type fingerprinter struct {
	sh  hash.Hash
	buf []byte
	d   int
}

func newFingerprinter(label string, d int) *fingerprinter {
	f := &fingerprinter{sh: sha256.New(), d: d, buf: make([]byte, 0, 8*d+16)}
	f.sh.Write([]byte(label))
	f.sh.Write([]byte{0})
	return f
}

func (f *fingerprinter) row(x []float64) {
	f.buf = f.buf[:0]
	for _, v := range x {
		f.buf = binary.LittleEndian.AppendUint64(f.buf, math.Float64bits(v))
	}
	f.sh.Write(f.buf)
}

func (f *fingerprinter) number(v float64) {
	var b [9]byte
	b[0] = 'n'
	binary.LittleEndian.PutUint64(b[1:], math.Float64bits(v))
	f.sh.Write(b[:])
}

func (f *fingerprinter) str(s string) {
	var b [5]byte
	b[0] = 's'
	binary.LittleEndian.PutUint32(b[1:], uint32(len(s)))
	f.sh.Write(b[:])
	f.sh.Write([]byte(s))
}

func (f *fingerprinter) sum(n int) string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:], uint64(n))
	binary.LittleEndian.PutUint64(b[8:], uint64(f.d))
	f.sh.Write(b[:])
	return hex.EncodeToString(f.sh.Sum(nil))
}

// Fingerprint returns the fingerprint of an encoded data set: the sha256 of
// "pueval-dataset-v1\x00", then for each row its d features as float64 bits
// (little-endian) and a label byte (1 positive, 0 negative), then n and d as
// uint64 (little-endian), in hex. x is n x d, row-major.
func Fingerprint(x []float64, y []bool, d int) string {
	f := newFingerprinter("pueval-dataset-v1", d)
	if d == 0 {
		return f.sum(len(y))
	}
	// Hash in blocks of rows: one Write per ~64 KB keeps this at the speed
	// of sha256 itself (it runs on every load from the cache).
	rowBytes := 8*d + 1
	per := max(1, 65536/rowBytes)
	buf := make([]byte, 0, per*rowBytes)
	for i := 0; i < len(y); i++ {
		for _, v := range x[i*d : (i+1)*d] {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
		if y[i] {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
		if len(buf)+rowBytes > cap(buf) {
			f.sh.Write(buf)
			buf = buf[:0]
		}
	}
	f.sh.Write(buf)
	return f.sum(len(y))
}
