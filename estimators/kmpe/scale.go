package kmpe

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Scaling is the feature transformation applied to the pooled rows before
// the distances are computed.
type Scaling string

// Feature scalings.
const (
	// ZScore, the default, centres each feature on its mean over the pooled
	// rows and divides it by its population standard deviation (ddof 0).
	ZScore Scaling = "zscore"
	// MinMax maps each feature to [0, 1] by its minimum and maximum over the
	// pooled rows.
	MinMax Scaling = "minmax"
	// Raw uses the features as given, as the published code does.
	Raw Scaling = "raw"
)

// DefaultScaling is the scaling used when Options.Scaling is empty.
const DefaultScaling = ZScore

// Scalings lists the feature scalings, the default first.
func Scalings() []string { return []string{string(ZScore), string(MinMax), string(Raw)} }

// Validate reports an unknown scaling (empty is the default).
func (s Scaling) Validate() error {
	if s == "" || slices.Contains(Scalings(), string(s)) {
		return nil
	}
	return fmt.Errorf("features %q: want one of %s", s, strings.Join(Scalings(), ", "))
}

func (s Scaling) orDefault() Scaling {
	if s == "" {
		return DefaultScaling
	}
	return s
}

// checkRows reports an empty side, a row whose length differs from the
// first row's, a zero-length row or a non-finite value.
func checkRows(side string, rows [][]float64, d int) error {
	if len(rows) == 0 {
		return fmt.Errorf("kmpe: no %s rows", side)
	}
	for i, r := range rows {
		if len(r) != d {
			return fmt.Errorf("kmpe: %s row %d has %d features, want %d", side, i, len(r), d)
		}
		for j, x := range r {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("kmpe: %s row %d feature %d is %v: features must be finite", side, i, j, x)
			}
		}
	}
	return nil
}

// scaleRows returns the rows transformed by s, fitted on the rows
// themselves, and the columns that are constant over them (set to 0 by
// zscore and minmax; they add nothing to any distance under any scaling).
// Raw returns the rows themselves.
func scaleRows(rows [][]float64, s Scaling) ([][]float64, []int, error) {
	if len(rows) == 0 {
		return nil, nil, errors.New("kmpe: no rows to scale")
	}
	d := len(rows[0])
	var constant []int
	for j := range d {
		first := rows[0][j]
		same := true
		for _, r := range rows {
			if r[j] != first {
				same = false
				break
			}
		}
		if same {
			constant = append(constant, j)
		}
	}
	if len(constant) == d {
		return nil, constant, fmt.Errorf("kmpe: all %d pooled rows are equal: every feature is constant", len(rows))
	}
	if s == Raw {
		return rows, constant, nil
	}
	n := float64(len(rows))
	shift := make([]float64, d)
	scale := make([]float64, d)
	for j := range d {
		switch s {
		case ZScore:
			var sum float64
			for _, r := range rows {
				sum += r[j]
			}
			mean := sum / n
			var ss float64
			for _, r := range rows {
				t := r[j] - mean
				ss += float64(t * t)
			}
			shift[j], scale[j] = mean, math.Sqrt(ss/n)
		case MinMax:
			lo, hi := rows[0][j], rows[0][j]
			for _, r := range rows {
				lo, hi = min(lo, r[j]), max(hi, r[j])
			}
			shift[j], scale[j] = lo, hi-lo
		default:
			return nil, nil, fmt.Errorf("kmpe: %w", s.Validate())
		}
	}
	out := make([][]float64, len(rows))
	flat := make([]float64, len(rows)*d)
	for i, r := range rows {
		o := flat[i*d : (i+1)*d : (i+1)*d]
		for j, x := range r {
			if scale[j] > 0 {
				o[j] = (x - shift[j]) / scale[j]
			}
		}
		out[i] = o
	}
	return out, constant, nil
}
