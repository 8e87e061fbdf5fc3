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
// themselves, the columns that are constant over them (set to 0 by zscore
// and minmax; they add nothing to any distance under any scaling), and,
// for raw, the exponent of the power of two the rows were multiplied by (0
// for the others).
//
// Features of any finite magnitude give finite scaled features: the sums,
// squares and ranges of the fit would overflow past about 1e154 (the
// squares) and lose every bit below about 1e-154, so a column whose largest
// magnitude lies outside [2^-safeExp, 2^safeExp] is first multiplied by the
// power of two that brings it into [1/2, 1). A power of two multiplies
// exactly, and zscore and minmax are invariant under it (the mean, the
// standard deviation, the minimum and the range all scale with it), so this
// changes no bit of what the fit would give without overflow. Raw features
// keep their relative scale: all of them are multiplied by one power of
// two, chosen from the largest magnitude of all, which multiplies every
// squared distance and their median by its square and leaves the kernel
// (whose width is relative to the median) unchanged. Columns within the
// range take the plain path, so ordinary data keep their bits.
func scaleRows(rows [][]float64, s Scaling) ([][]float64, []int, int, error) {
	if len(rows) == 0 {
		return nil, nil, 0, errors.New("kmpe: no rows to scale")
	}
	d := len(rows[0])
	constant := constantColumns(rows, d)
	if len(constant) == d {
		return nil, constant, 0, fmt.Errorf("kmpe: all %d pooled rows are equal: every feature is constant", len(rows))
	}
	if s == Raw {
		e := pow2Exponent(maxMagnitude(rows, -1))
		if e == 0 {
			return rows, constant, 0, nil
		}
		return mapRows(rows, d, func(_ int, x float64) float64 { return math.Ldexp(x, e) }), constant, e, nil
	}
	shift, scale := make([]float64, d), make([]float64, d)
	exps := make([]int, d) // the power of two each column is multiplied by first
	for j := range d {
		e := pow2Exponent(maxMagnitude(rows, j))
		exps[j] = e
		col := func(r []float64) float64 {
			if e != 0 {
				return math.Ldexp(r[j], e)
			}
			return r[j]
		}
		switch s {
		case ZScore:
			shift[j], scale[j] = meanStd(rows, col)
		case MinMax:
			lo, hi := col(rows[0]), col(rows[0])
			for _, r := range rows {
				lo, hi = min(lo, col(r)), max(hi, col(r))
			}
			shift[j], scale[j] = lo, hi-lo
		default:
			return nil, nil, 0, fmt.Errorf("kmpe: %w", s.Validate())
		}
	}
	out := mapRows(rows, d, func(j int, x float64) float64 {
		if !(scale[j] > 0) {
			return 0
		}
		if exps[j] != 0 {
			x = math.Ldexp(x, exps[j])
		}
		return (x - shift[j]) / scale[j]
	})
	return out, constant, 0, nil
}

// safeExp bounds the magnitudes (2^-safeExp to 2^safeExp) that scaleRows
// fits as they are: n of their squares (up to 2^602 each) sum without
// overflow for any row count, and squared differences down to 2^-600 keep
// their bits.
const safeExp = 300

// pow2Exponent returns 0 when m, a largest magnitude, is 0 or lies within
// [2^-safeExp, 2^safeExp], and otherwise the exponent k for which m 2^k
// lies in [1/2, 1) (math.Ldexp multiplies by 2^k exactly, also where 2^k
// itself is not a float64: a subnormal m needs k up to 1074).
func pow2Exponent(m float64) int {
	if m == 0 || (m >= math.Ldexp(1, -safeExp) && m <= math.Ldexp(1, safeExp)) {
		return 0
	}
	_, e := math.Frexp(m) // m = frac 2^e, frac in [1/2, 1)
	return -e
}

// maxMagnitude returns the largest |x| of column j of the rows, or of every
// column when j < 0.
func maxMagnitude(rows [][]float64, j int) float64 {
	var m float64
	for _, r := range rows {
		if j >= 0 {
			m = max(m, math.Abs(r[j]))
			continue
		}
		for _, x := range r {
			m = max(m, math.Abs(x))
		}
	}
	return m
}

// constantColumns returns the columns whose value is the same in every row.
func constantColumns(rows [][]float64, d int) []int {
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
	return constant
}

// meanStd returns the mean and the population standard deviation of col
// over the rows.
func meanStd(rows [][]float64, col func([]float64) float64) (float64, float64) {
	n := float64(len(rows))
	var sum float64
	for _, r := range rows {
		sum += col(r)
	}
	mean := sum / n
	var ss float64
	for _, r := range rows {
		t := col(r) - mean
		ss += float64(t * t)
	}
	return mean, math.Sqrt(ss / n)
}

// mapRows returns new rows (one allocation) of f(j, x) for each feature x
// of column j.
func mapRows(rows [][]float64, d int, f func(j int, x float64) float64) [][]float64 {
	out := make([][]float64, len(rows))
	flat := make([]float64, len(rows)*d)
	for i, r := range rows {
		o := flat[i*d : (i+1)*d : (i+1)*d]
		for j, x := range r {
			o[j] = f(j, x)
		}
		out[i] = o
	}
	return out
}
