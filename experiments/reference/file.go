package reference

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// Magic is the first line of a digest file; the number is the format's
// version.
const Magic = "pueval reference digests 1"

// Ext is the file name extension of a digest file (Ext+".gz" when it is
// gzip-compressed).
const Ext = ".digests"

// maxLine bounds a line of a digest file: the header holds a config's
// settings and data fingerprints, a cell line a few hundred field digests
// at most.
const maxLine = 1 << 20

// Header describes the reference run of a digest file: what was run, with
// which code and data, where.
type Header struct {
	Experiment  string            `json:"experiment"`
	ConfigKey   string            `json:"config_key"`
	ConfigHash  string            `json:"config_hash,omitempty"`
	CodeVersion string            `json:"code_version"`
	GoVersion   string            `json:"go_version,omitempty"`
	Kernel      string            `json:"kernel,omitempty"`
	Machine     results.Machine   `json:"machine"`
	Data        map[string]string `json:"data,omitempty"`     // data set -> fingerprint
	Settings    map[string]string `json:"settings,omitempty"` // the config's settings that can change a record
	// Unavailable are the data sets of the config the reference run could
	// not use, with the reason: the reference holds none of their cells.
	Unavailable map[string]string `json:"unavailable,omitempty"`
	Cells       int               `json:"cells"`
	// Fields are the field groups of the cell lines, in their order.
	Fields []string `json:"fields"`
}

// Reference is a digest file read back: its header and its cells in the
// file's order (the grid order of the reference run).
type Reference struct {
	Header Header
	Cells  []Cell
	// Source says where the file came from, for messages.
	Source string
}

// FromRun makes the reference of a finished run of the whole grid: the
// digests of its records (which a finished run keeps in grid order) under
// a header from its manifest. It refuses a run that is not finished or
// ran part of the grid. The data sets the run could not use are named in
// the header (a run that can use them holds cells the reference lacks).
func FromRun(recs []results.Record, man results.Manifest) (*Reference, error) {
	switch {
	case man.Experiment == "" || man.ConfigKey == "":
		return nil, errors.New("the manifest names no experiment or config key (a run of an older pueval?): run the config again")
	case man.Finished == nil:
		return nil, errors.New("the run has not finished: a reference holds every cell of the grid (run the same command again to finish it)")
	case man.Selection != nil && !man.Selection.IsZero():
		return nil, errors.New("the run holds part of the grid (--repeats, --datasets or --shard): a reference holds every cell")
	}
	for _, r := range recs {
		if r.Experiment != man.Experiment {
			return nil, fmt.Errorf("cell %s: a record of experiment %s in a run of %s", r.Cell, r.Experiment, man.Experiment)
		}
	}
	cells, err := Digests(recs)
	if err != nil {
		return nil, err
	}
	h := Header{Experiment: man.Experiment, ConfigKey: man.ConfigKey, ConfigHash: man.ConfigHash, CodeVersion: man.CodeVersion,
		GoVersion: man.GoVersion, Kernel: man.Kernel, Machine: man.Machine, Data: man.Data, Settings: man.Settings,
		Unavailable: man.Unavailable, Cells: len(cells), Fields: fieldNames(cells)}
	return &Reference{Header: h, Cells: cells}, nil
}

// Write writes ref as a digest file to w.
func (ref *Reference) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	h := ref.Header
	h.Cells = len(ref.Cells)
	h.Fields = fieldNames(ref.Cells)
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	fmt.Fprintf(bw, "%s\n%s\n", Magic, head)
	for _, c := range ref.Cells {
		bw.WriteString(hex16(c.Hash))
		for _, f := range h.Fields {
			if v, ok := c.Fields[f]; ok {
				bw.WriteString(" " + hex8(v))
			} else {
				bw.WriteString(" -")
			}
		}
		bw.WriteString(" " + c.ID + "\n")
	}
	return bw.Flush()
}

// maxUnzipped bounds a gzip-compressed digest file once decompressed: a
// reference of a few hundred thousand cells, not a decompression bomb.
const maxUnzipped = 1 << 30

// Read reads a digest file, plain or gzip-compressed (as the papers ship
// the digests of their full runs); source names it in errors
// ("FILE:LINE: ...").
func Read(r io.Reader, source string) (*Reference, error) {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		defer zr.Close()
		return read(io.LimitReader(zr, maxUnzipped), source)
	}
	return read(br, source)
}

// read reads a plain digest file.
func read(r io.Reader, source string) (*Reference, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	ref := &Reference{Source: source}
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", source, line, fmt.Sprintf(format, args...))
	}
	ids := map[string]int{}
	for sc.Scan() {
		line++
		text := sc.Text()
		switch line {
		case 1:
			if text != Magic {
				return nil, fail("not a pueval digest file: the first line is %q, want %q", clip(text), Magic)
			}
		case 2:
			if err := readHeader(text, &ref.Header); err != nil {
				return nil, fail("%v", err)
			}
		default:
			c, err := readCell(text, ref.Header.Fields)
			if err != nil {
				return nil, fail("%v", err)
			}
			if first, dup := ids[c.ID]; dup {
				return nil, fail("cell %s is also on line %d", c.ID, first)
			}
			ids[c.ID] = line
			ref.Cells = append(ref.Cells, c)
		}
	}
	if err := sc.Err(); err != nil {
		line++
		return nil, fail("%v", err)
	}
	if line < 2 {
		return nil, fmt.Errorf("%s: no header: want the line %q and a JSON header", source, Magic)
	}
	if len(ref.Cells) != ref.Header.Cells {
		return nil, fmt.Errorf("%s: %d cell lines, the header says %d (a truncated file?)", source, len(ref.Cells), ref.Header.Cells)
	}
	return ref, nil
}

// readHeader decodes the JSON header line strictly into h.
func readHeader(text string, h *Header) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(h); err != nil {
		return fmt.Errorf("header: %v", err)
	}
	if dec.More() {
		return errors.New("header: more than one JSON value")
	}
	if h.Experiment == "" {
		return errors.New("header: no experiment")
	}
	if h.Cells < 0 {
		return fmt.Errorf("header: %d cells", h.Cells)
	}
	seen := map[string]bool{}
	for _, f := range h.Fields {
		if f == "" || strings.ContainsAny(f, " \t") || seen[f] {
			return fmt.Errorf("header: field group %q is empty, has a blank or is listed twice", f)
		}
		seen[f] = true
	}
	return nil
}

// readCell parses a cell line: the record's digest, one digest (or "-")
// per field group, the cell's identity.
func readCell(text string, fields []string) (Cell, error) {
	rest := text
	next := func() (string, bool) {
		tok, after, ok := strings.Cut(rest, " ")
		rest = after
		return tok, ok
	}
	tok, ok := next()
	if !ok {
		return Cell{}, fmt.Errorf("want a digest, %d field digests and a cell, got %q", len(fields), clip(text))
	}
	h, err := parseHex(tok, 16)
	if err != nil {
		return Cell{}, fmt.Errorf("record digest: %v", err)
	}
	c := Cell{Hash: h, Fields: map[string]uint32{}}
	for _, f := range fields {
		tok, ok := next()
		if !ok {
			return Cell{}, fmt.Errorf("want %d field digests and a cell, got %q", len(fields), clip(text))
		}
		if tok == "-" {
			continue
		}
		v, err := parseHex(tok, 8)
		if err != nil {
			return Cell{}, fmt.Errorf("field %s: %v", f, err)
		}
		c.Fields[f] = uint32(v)
	}
	if rest == "" {
		return Cell{}, errors.New("no cell identity after the digests")
	}
	c.ID = rest
	return c, nil
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// Bytes is ref as a digest file.
func (ref *Reference) Bytes() ([]byte, error) {
	var b bytes.Buffer
	if err := ref.Write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Gzipped is ref as a gzip-compressed digest file (the same bytes for the
// same reference: the gzip header carries no name or time).
func (ref *Reference) Gzipped() ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if err := ref.Write(zw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
