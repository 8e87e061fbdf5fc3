package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randomSymmetric(rng *rand.Rand, m int) []float64 {
	A := make([]float64, m*m)
	for i := range m {
		for j := 0; j <= i; j++ {
			v := rng.NormFloat64()
			A[i*m+j], A[j*m+i] = v, v
		}
	}
	return A
}

// TestTridiagonalize: Q'AQ is the returned tridiagonal T (to 1e-12 of ||A||)
// with Q = Apply(I) orthogonal, for sizes 1-9 and 40, and for a matrix
// whose columns are already tridiagonal (no reflection needed).
func TestTridiagonalize(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, m := range []int{1, 2, 3, 4, 5, 9, 40} {
		A := randomSymmetric(rng, m)
		diag, off, q := Tridiagonalize(slices.Clone(A), m)
		Q := make([]float64, m*m)
		for i := range m {
			Q[i*m+i] = 1
		}
		q.Apply(Q, m)
		Qm := mat.NewDense(m, m, Q)
		var QtQ, AQ, T mat.Dense
		QtQ.Mul(Qm.T(), Qm)
		AQ.Mul(mat.NewDense(m, m, A), Qm)
		T.Mul(Qm.T(), &AQ)
		norm := mat.Norm(mat.NewDense(m, m, A), 1)
		for i := range m {
			for j := range m {
				want := 0.0
				switch {
				case i == j:
					want = diag[i]
				case j == i+1:
					want = off[i]
				case i == j+1:
					want = off[j]
				}
				if d := math.Abs(T.At(i, j) - want); d > 1e-12*norm {
					t.Fatalf("m = %d: (Q'AQ)[%d][%d] = %v, T's %v", m, i, j, T.At(i, j), want)
				}
				id := 0.0
				if i == j {
					id = 1
				}
				if d := math.Abs(QtQ.At(i, j) - id); d > 1e-13 {
					t.Fatalf("m = %d: Q'Q[%d][%d] = %v", m, i, j, QtQ.At(i, j))
				}
			}
		}
	}
}

// TestTridiagLargest: the k largest eigenvalues of random symmetric matrices
// (via Tridiagonalize) agree with gonum's EigenSym to 1e-12 of ||A||,
// including a matrix with a repeated eigenvalue and a rank-deficient one.
func TestTridiagLargest(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	check := func(name string, A []float64, m, k int) {
		t.Helper()
		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(m, slices.Clone(A)), false) {
			t.Fatal("gonum EigenSym failed")
		}
		want := es.Values(nil)
		sort.Sort(sort.Reverse(sort.Float64Slice(want)))
		diag, off, _ := Tridiagonalize(slices.Clone(A), m)
		got := TridiagLargest(diag, off, k)
		norm := mat.Norm(mat.NewDense(m, m, A), 1)
		for j := range min(k, m) {
			if d := math.Abs(got[j] - want[j]); d > 1e-12*norm {
				t.Errorf("%s: eigenvalue %d = %v, gonum %v", name, j, got[j], want[j])
			}
		}
	}
	for _, m := range []int{1, 2, 3, 7, 30} {
		check("random", randomSymmetric(rng, m), m, m)
	}
	// diag(3, 3, 1, 0, 0) rotated: a double and a zero eigenvalue.
	m := 5
	B := randomSymmetric(rng, m)
	var es mat.EigenSym
	es.Factorize(mat.NewSymDense(m, B), true)
	var V mat.Dense
	es.VectorsTo(&V)
	D := mat.NewDiagDense(m, []float64{3, 3, 1, 0, 0})
	var VD, A mat.Dense
	VD.Mul(&V, D)
	A.Mul(&VD, V.T())
	a := A.RawMatrix().Data
	for i := range m {
		for j := range i {
			a[j*m+i] = a[i*m+j]
		}
	}
	check("repeated", a, m, 4)
}
