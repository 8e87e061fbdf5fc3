package nnet

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// extremeRows is how many of a column's lowest and highest rows an
// Extremes keeps. A bootstrap sample holds each row with probability about
// 0.63, so a column's minimum over the sample is missed by all 16 kept rows
// with probability 0.37^16, about 1e-7; Train then scans that column.
const extremeRows = 16

// Extremes lists, for every column of one feature matrix with finite values,
// its extremeRows lowest rows in increasing (value, row) order and its
// extremeRows highest rows in decreasing (value, -row) order. Passed to
// Trainer.Train in Rows.Extremes, it lets the trainer find the ranges of the
// selected rows' columns (the min-max map) from the first selected row of
// each list, in O(rows + columns) instead of reading every selected value:
// the nets of a bag train on subsets of one matrix and share one Extremes.
// A column whose kept rows are all unselected is scanned as without it, so
// the ranges, and hence the nets, are the same bit for bit.
//
// The matrix must not change while its Extremes is in use.
type Extremes struct {
	x      *mat.Dense
	n, d   int
	lo, hi []int32 // column k's rows: [k*extremeRows, (k+1)*extremeRows), -1 past the end
}

// NewExtremes indexes x in one pass over its values. It returns an error
// naming the first value that is NaN or infinite.
func NewExtremes(x *mat.Dense) (*Extremes, error) {
	if x == nil {
		return nil, errors.New("nnet: extremes: nil feature matrix")
	}
	n, d := x.Dims()
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("nnet: extremes: %d rows; at most %d", n, math.MaxInt32)
	}
	raw := x.RawMatrix()
	e := &Extremes{x: x, n: n, d: d, lo: make([]int32, d*extremeRows), hi: make([]int32, d*extremeRows)}
	for i := range e.lo {
		e.lo[i], e.hi[i] = -1, -1
	}
	// Per column, the lists filled so far and the value of their last
	// (least extreme) entry: a row enters a full list only when strictly
	// more extreme, since it comes after every kept row of equal value.
	fill := make([]int, d)
	loLast, hiLast := make([]float64, d), make([]float64, d)
	last := func(list []int32, k int) float64 { // the value of column k's last kept row in list
		return raw.Data[int(list[k*extremeRows+extremeRows-1])*raw.Stride+k]
	}
	for r := range n {
		row := raw.Data[r*raw.Stride : r*raw.Stride+d]
		for k, v := range row {
			if v-v != 0 { // NaN or infinite
				return nil, fmt.Errorf("nnet: extremes: feature %d of row %d is %v; features must be finite", k, r, v)
			}
			if fill[k] < extremeRows {
				// The first extremeRows rows enter both lists.
				insertExtreme(e.lo[k*extremeRows:], fill[k], int32(r), v, raw, k, less)
				insertExtreme(e.hi[k*extremeRows:], fill[k], int32(r), v, raw, k, greater)
				fill[k]++
				if fill[k] == extremeRows {
					loLast[k], hiLast[k] = last(e.lo, k), last(e.hi, k)
				}
				continue
			}
			if v < loLast[k] {
				insertExtreme(e.lo[k*extremeRows:], extremeRows-1, int32(r), v, raw, k, less)
				loLast[k] = last(e.lo, k)
			}
			if v > hiLast[k] {
				insertExtreme(e.hi[k*extremeRows:], extremeRows-1, int32(r), v, raw, k, greater)
				hiLast[k] = last(e.hi, k)
			}
		}
	}
	return e, nil
}

func less(a, b float64) bool    { return a < b }
func greater(a, b float64) bool { return a > b }

// insertExtreme puts row r (value v) into list[:m+1], whose first m entries
// are ordered by before: after every entry it is not strictly before (an
// equal value comes from an earlier row), shifting the later ones up; the
// entry at m, if any, falls off.
func insertExtreme(list []int32, m int, r int32, v float64, raw blas64.General, k int, before func(a, b float64) bool) {
	list = list[:extremeRows]
	at := m
	for at > 0 && before(v, raw.Data[int(list[at-1])*raw.Stride+k]) {
		at--
	}
	copy(list[at+1:m+1], list[at:m])
	list[at] = r
}

// ranges sets lo[k] and hi[k] to the smallest and largest value of column k
// over the rows whose bit is set in sel, from the lists where they hold a
// selected row and by scanning the selected rows otherwise.
func (e *Extremes) ranges(sel []uint64, rows []int, lo, hi []float64) {
	raw := e.x.RawMatrix()
	isSel := func(r int) bool { return sel[r>>6]&(1<<(r&63)) != 0 }
	first := func(list []int32) (int, bool) {
		for _, r := range list {
			if r < 0 {
				break
			}
			if isSel(int(r)) {
				return int(r), true
			}
		}
		return 0, false
	}
	for k := range e.d {
		rl, okL := first(e.lo[k*extremeRows : (k+1)*extremeRows])
		rh, okH := first(e.hi[k*extremeRows : (k+1)*extremeRows])
		if okL && okH {
			lo[k], hi[k] = raw.Data[rl*raw.Stride+k], raw.Data[rh*raw.Stride+k]
			continue
		}
		l, h := math.Inf(1), math.Inf(-1)
		for _, r := range rows {
			if isSel(r) {
				v := raw.Data[r*raw.Stride+k]
				l, h = min(l, v), max(h, v)
			}
		}
		lo[k], hi[k] = l, h
	}
}
