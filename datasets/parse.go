package datasets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// records is the parsed text of one part: rows of trimmed fields with the
// line (or spreadsheet row) each came from.
type records struct {
	rows  [][]string
	lines []int
	// values holds a row's numbers when the parser decoded them itself
	// (idx: the pixels, already scaled); nil for text formats.
	values [][]float64
}

// delimiterByte maps a catalog delimiter name to its byte (0 = whitespace).
func delimiterByte(name string) byte {
	switch name {
	case "comma":
		return ','
	case "semicolon":
		return ';'
	case "tab":
		return '\t'
	}
	return 0
}

// parseDelimited splits text into rows of fields. Lines end in LF or CRLF;
// blank lines are skipped; a UTF-8 byte-order mark is dropped. With delim 0,
// fields are separated by runs of spaces and tabs. Otherwise fields are
// separated by delim and trimmed of surrounding spaces and tabs, and a field
// may be quoted with double quotes ("" inside stands for one quote), which
// lets it contain the delimiter. Errors name the line.
func parseDelimited(data []byte, delim byte) (records, error) {
	var rec records
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	line := 0
	for len(data) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		l = bytes.TrimRight(l, "\r")
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var fields []string
		var err error
		if delim == 0 {
			fields = strings.Fields(string(l))
		} else {
			fields, err = splitLine(l, delim)
			if err != nil {
				return rec, fmt.Errorf("line %d: %w", line, err)
			}
		}
		rec.rows = append(rec.rows, fields)
		rec.lines = append(rec.lines, line)
	}
	return rec, nil
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func splitLine(l []byte, delim byte) ([]string, error) {
	var fields []string
	i := 0
	for {
		for i < len(l) && isBlank(l[i]) && l[i] != delim {
			i++
		}
		if i < len(l) && l[i] == '"' {
			var sb strings.Builder
			i++
			closed := false
			for i < len(l) {
				if l[i] == '"' {
					if i+1 < len(l) && l[i+1] == '"' {
						sb.WriteByte('"')
						i += 2
						continue
					}
					i++
					closed = true
					break
				}
				sb.WriteByte(l[i])
				i++
			}
			if !closed {
				return nil, errors.New("unterminated quoted field")
			}
			for i < len(l) && isBlank(l[i]) && l[i] != delim {
				i++
			}
			if i < len(l) && l[i] != delim {
				return nil, fmt.Errorf("unexpected %q after a quoted field", l[i])
			}
			fields = append(fields, sb.String())
		} else {
			j := bytes.IndexByte(l[i:], delim)
			end := len(l)
			if j >= 0 {
				end = i + j
			}
			fields = append(fields, string(bytes.Trim(l[i:end], " \t\r")))
			i = end
		}
		if i >= len(l) {
			return fields, nil
		}
		i++ // the delimiter
		if i == len(l) {
			// A trailing delimiter ends with an empty field.
			return append(fields, ""), nil
		}
	}
}

// parseGas reads UCI's gas-sensor format: per line "CLASS;CONC 1:v1 2:v2
// ...", a sparse (libsvm-style) vector whose absent indices are zero. It
// returns rows [class, concentration, v1..vWidth].
func parseGas(data []byte, width int) (records, error) {
	var rec records
	line := 0
	for len(data) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		fs := strings.Fields(string(l))
		if len(fs) == 0 {
			continue
		}
		class, conc, ok := strings.Cut(fs[0], ";")
		if !ok || class == "" || conc == "" {
			return rec, fmt.Errorf("line %d: first field %q is not CLASS;CONCENTRATION", line, fs[0])
		}
		row := make([]string, width+2)
		row[0], row[1] = class, conc
		for k := 2; k < len(row); k++ {
			row[k] = "0"
		}
		seen := make([]bool, width+1)
		for _, f := range fs[1:] {
			is, v, ok := strings.Cut(f, ":")
			idx, err := strconv.Atoi(is)
			if !ok || err != nil {
				return rec, fmt.Errorf("line %d: %q is not INDEX:VALUE", line, f)
			}
			if idx < 1 || idx > width {
				return rec, fmt.Errorf("line %d: feature index %d outside 1..%d", line, idx, width)
			}
			if seen[idx] {
				return rec, fmt.Errorf("line %d: feature index %d given twice", line, idx)
			}
			seen[idx] = true
			row[idx+1] = v
		}
		rec.rows = append(rec.rows, row)
		rec.lines = append(rec.lines, line)
	}
	return rec, nil
}

// maxDocuments bounds how many documents a tar may hold (20 Newsgroups has
// 18,846; the original 20_newsgroups 19,997).
const maxDocuments = 1_000_000

// parseDocuments reads a .tar.gz of text documents laid out as
// ".../<class>/<document>" and returns rows [path, class, text] in archive
// order. Only regular files count; "line" is the 1-based entry number.
func parseDocuments(data []byte) (records, error) {
	var rec records
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		// Alone, a short file gives just "unexpected EOF".
		return rec, fmt.Errorf("gzip header: %w", err)
	}
	tr := tar.NewReader(zr)
	var total int64
	for entry := 1; ; entry++ {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return rec, fmt.Errorf("entry %d: %w", entry, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := strings.TrimPrefix(path.Clean(h.Name), "./")
		dir := path.Dir(name)
		if dir == "." || dir == "/" {
			return rec, fmt.Errorf("entry %d (%s): a document must sit in a class directory", entry, h.Name)
		}
		b, err := io.ReadAll(io.LimitReader(tr, maxMemberSize+1))
		if err != nil {
			return rec, fmt.Errorf("entry %d (%s): %w", entry, h.Name, err)
		}
		if total += int64(len(b)); total > maxMemberSize {
			return rec, fmt.Errorf("documents exceed %d bytes in all", maxMemberSize)
		}
		if len(rec.rows) >= maxDocuments {
			return rec, fmt.Errorf("more than %d documents", maxDocuments)
		}
		rec.rows = append(rec.rows, []string{name, path.Base(dir), string(b)})
		rec.lines = append(rec.lines, entry)
	}
	return rec, nil
}
