package bounds

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadBand reads a stored band: CSV with a header naming the columns
// `rank0` (or `rank`), `lower` and `upper` (any order, other columns
// ignored), one step per row, as the shared Claesen et al. bootstrap bands
// are written (the published code's band files). name is used in error messages, which give the
// line. The band is checked ([Band.Check]); round it with [Band.Float32] to
// use it as the published code did.
func ReadBand(rd io.Reader, name string) (Band, error) {
	cr := csv.NewReader(rd)
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return Band{}, fmt.Errorf("%s: empty file: want a header rank0,lower,upper", name)
	}
	if err != nil {
		return Band{}, fmt.Errorf("%s: %w", name, err)
	}
	rankCol, lowCol, upCol := -1, -1, -1
	for i, h := range header {
		switch strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))) {
		case "rank0", "rank":
			rankCol = i
		case "lower":
			lowCol = i
		case "upper":
			upCol = i
		}
	}
	if rankCol < 0 || lowCol < 0 || upCol < 0 {
		return Band{}, fmt.Errorf("%s:1: header %q must name the columns rank0, lower and upper", name, strings.Join(header, ","))
	}
	var b Band
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Band{}, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		rank, err := strconv.ParseFloat(strings.TrimSpace(rec[rankCol]), 64)
		if err != nil || rank != math.Trunc(rank) || rank < 0 || rank > math.MaxInt32 {
			return Band{}, fmt.Errorf("%s:%d: rank %q is not a whole number >= 0", name, line, rec[rankCol])
		}
		lo, err1 := strconv.ParseFloat(strings.TrimSpace(rec[lowCol]), 64)
		up, err2 := strconv.ParseFloat(strings.TrimSpace(rec[upCol]), 64)
		if err1 != nil || err2 != nil {
			return Band{}, fmt.Errorf("%s:%d: lower %q or upper %q is not a number", name, line, rec[lowCol], rec[upCol])
		}
		b.Ranks = append(b.Ranks, int(rank))
		b.Lower = append(b.Lower, lo)
		b.Upper = append(b.Upper, up)
	}
	if err := b.Check(); err != nil {
		return Band{}, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}
