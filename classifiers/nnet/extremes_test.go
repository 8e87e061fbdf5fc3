package nnet

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// tiedMatrix is an n x d matrix whose columns test the ranges' edge cases:
// a few distinct values (heavy ties), -0 beside +0, a constant column, a
// column whose extremes are held by a single row, and continuous values.
func tiedMatrix(rng *rand.Rand, n int) *mat.Dense {
	const d = 6
	x := mat.NewDense(n, d, nil)
	for r := range n {
		x.Set(r, 0, float64(rng.IntN(3)))                                                 // ties
		x.Set(r, 1, []float64{0, math.Copysign(0, -1), 1, -1}[rng.IntN(4)])               // -0 and +0
		x.Set(r, 2, 7)                                                                    // constant
		x.Set(r, 3, rng.NormFloat64())                                                    // continuous
		x.Set(r, 4, float64(rng.IntN(2)))                                                 // binary, as one-hot codes
		x.Set(r, 5, []float64{0, math.Copysign(0, -1)}[rng.IntN(2)]-float64(rng.IntN(2))) // max is a zero
	}
	x.Set(rng.IntN(n), 3, 1e6) // one row holds the maximum
	return x
}

// TestExtremesLists checks NewExtremes against its definition: column k's
// lists are the first extremeRows rows of all rows sorted by (value, row)
// and by (-value, row), -0 and +0 being equal values.
func TestExtremesLists(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 5, extremeRows, extremeRows + 1, 300} {
		x := tiedMatrix(rng, n)
		e, err := NewExtremes(x)
		if err != nil {
			t.Fatal(err)
		}
		_, d := x.Dims()
		for k := range d {
			rows := make([]int32, n)
			for r := range rows {
				rows[r] = int32(r)
			}
			byValue := func(sign float64) []int32 {
				s := slices.Clone(rows)
				slices.SortStableFunc(s, func(a, b int32) int {
					va, vb := sign*x.At(int(a), k), sign*x.At(int(b), k)
					switch {
					case va < vb:
						return -1
					case va > vb:
						return 1
					}
					return 0
				})
				for len(s) < extremeRows {
					s = append(s, -1)
				}
				return s[:extremeRows]
			}
			if want, got := byValue(1), e.lo[k*extremeRows:(k+1)*extremeRows]; !slices.Equal(got, want) {
				t.Errorf("n=%d column %d: lowest rows %v, sorted %v", n, k, got, want)
			}
			if want, got := byValue(-1), e.hi[k*extremeRows:(k+1)*extremeRows]; !slices.Equal(got, want) {
				t.Errorf("n=%d column %d: highest rows %v, sorted %v", n, k, got, want)
			}
		}
	}
}

// TestExtremesSameNets trains nets with and without Rows.Extremes on row
// selections of every kind -- bootstrap-like (most rows), a handful of rows
// (the lists miss and the column is scanned), repeated indices and rows with
// both weights zero -- and wants the same active columns, ranges (bit for
// bit, -0 included) and weights.
func TestExtremesSameNets(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 400
	x := tiedMatrix(rng, n)
	y := make([]bool, n)
	for r := range y {
		y[r] = x.At(r, 3)+0.5*x.At(r, 0) > 0.5
	}
	e, err := NewExtremes(x)
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	p.Hidden, p.MaxEpochs = 3, 5
	for trial := range 40 {
		var rows Rows
		keep := []float64{0.63, 0.05, 0.01, 1}[trial%4]
		for r := range n {
			if rng.Float64() >= keep {
				continue
			}
			for range 1 + rng.IntN(2) { // some rows twice
				rows.Index = append(rows.Index, r)
				rows.Train = append(rows.Train, float64(rng.IntN(3)))
				rows.Val = append(rows.Val, float64(rng.IntN(2)))
			}
		}
		if len(rows.Index) == 0 {
			continue
		}
		rows.Train[0] = 1 // at least one training row
		train := func(ext *Extremes) *Net {
			tr, err := NewTrainer(p)
			if err != nil {
				t.Fatal(err)
			}
			rows.Extremes = ext
			net, _, err := tr.Train(context.Background(), x, y, rows, rand.New(rand.NewPCG(uint64(trial), 9)))
			if err != nil {
				t.Fatal(err)
			}
			return net
		}
		a, b := train(nil), train(e)
		bits := func(v []float64) []uint64 {
			out := make([]uint64, len(v))
			for i, f := range v {
				out[i] = math.Float64bits(f)
			}
			return out
		}
		if !slices.Equal(a.cols, b.cols) || !slices.Equal(bits(a.min), bits(b.min)) ||
			!slices.Equal(bits(a.inv), bits(b.inv)) || !slices.Equal(bits(a.weights), bits(b.weights)) {
			t.Fatalf("trial %d (%d rows): without Extremes cols %v min %v inv %v; with %v %v %v",
				trial, len(rows.Index), a.cols, a.min, a.inv, b.cols, b.min, b.inv)
		}
	}
}

func TestExtremesErrors(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 3, math.NaN(), 5, 6})
	if _, err := NewExtremes(x); err == nil || !strings.Contains(err.Error(), "feature 1 of row 1 is NaN") {
		t.Errorf("NaN: err %v", err)
	}
	if _, err := NewExtremes(nil); err == nil {
		t.Error("nil matrix: no error")
	}
	a := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	e, err := NewExtremes(mat.DenseCopyOf(a))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	rows := Rows{Index: []int{0, 1, 2}, Train: []float64{1, 1, 1}, Val: []float64{0, 0, 0}, Extremes: e}
	_, _, err = tr.Train(context.Background(), a, []bool{true, false, true}, rows, rand.New(rand.NewPCG(1, 1)))
	if err == nil || !strings.Contains(err.Error(), "another matrix") {
		t.Errorf("Extremes of another matrix: err %v", err)
	}
}
