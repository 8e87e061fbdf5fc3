// Package scorefile reads the score files that the pueval CLI takes from a
// practitioner: CSV with a header row naming a `score` column and a `label`
// column (any order, other columns ignored, names case-insensitive), one
// example per row, label 1 (positive, or labeled in PU data) or 0. Lines
// starting with '#' are comments. Every bad row is an error that names the
// file and line: a missing column, a score that is not a finite number, a label
// other than 0 or 1.
package scorefile

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Data is the content of a score file.
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

// ReadFile reads the score file at path.
func ReadFile(path string) (Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return Data{}, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a score file from r; name is used in error messages.
func Read(r io.Reader, name string) (Data, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return Data{}, fmt.Errorf("%s: empty file: want a header line `score,label`", name)
	}
	if err != nil {
		return Data{}, fmt.Errorf("%s: %w", name, err)
	}
	scoreCol, labelCol := -1, -1
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		switch h {
		case "score":
			scoreCol = i
		case "label":
			labelCol = i
		}
	}
	if scoreCol < 0 || labelCol < 0 {
		line, _ := cr.FieldPos(0)
		return Data{}, fmt.Errorf("%s:%d: header %q must name a `score` and a `label` column", name, line, strings.Join(header, ","))
	}
	var d Data
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return Data{}, fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
			}
			return Data{}, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		sv := strings.TrimSpace(rec[scoreCol])
		s, err := strconv.ParseFloat(sv, 64)
		if err != nil || math.IsNaN(s) || math.IsInf(s, 0) {
			return Data{}, fmt.Errorf("%s:%d: score %q is not a finite number", name, line, sv)
		}
		var l bool
		switch lv := strings.TrimSpace(rec[labelCol]); lv {
		case "1":
			l = true
		case "0":
		default:
			return Data{}, fmt.Errorf("%s:%d: label %q is not 0 or 1", name, line, lv)
		}
		d.Scores = append(d.Scores, s)
		d.Labels = append(d.Labels, l)
	}
	if len(d.Scores) == 0 {
		return Data{}, fmt.Errorf("%s: no data rows after the header", name)
	}
	return d, nil
}
