package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomSPD returns a b x b symmetric positive definite matrix M'M/n + I/10
// and a right-hand side.
func randomSPD(rng *rand.Rand, b int) (A, h []float64) {
	n := b + 7
	M := make([]float64, n*b)
	for i := range M {
		M[i] = rng.NormFloat64()
	}
	A = make([]float64, b*b)
	for i := range b {
		for j := range b {
			var s float64
			for k := range n {
				s += M[k*b+i] * M[k*b+j]
			}
			A[i*b+j] = s / float64(n)
		}
		A[i*b+i] += 0.1
	}
	h = make([]float64, b)
	for i := range h {
		h[i] = rng.NormFloat64()
	}
	return A, h
}

// gonumSolve is the oracle: gonum's LU solve of A x = h.
func gonumSolve(t *testing.T, A, h []float64, b int) []float64 {
	t.Helper()
	var x mat.VecDense
	if err := x.SolveVec(mat.NewDense(b, b, slices.Clone(A)), mat.NewVecDense(b, slices.Clone(h))); err != nil {
		t.Fatal(err)
	}
	return x.RawVector().Data
}

func maxRelDiff(a, b []float64) float64 {
	var d, s float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		s = math.Max(s, math.Abs(b[i]))
	}
	return d / s
}

// TestCholeskySolve: the solve of a positive definite system agrees with
// gonum's (an independent LU) to 1e-12 relative, for sizes around the
// four-row blocks; and the blocked factor has the bits of the unblocked
// right-looking algorithm (cholesky's definition), written out here.
func TestCholeskySolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, b := range []int{1, 2, 3, 4, 5, 7, 8, 9, 13, 40, 61} {
		A, h := randomSPD(rng, b)
		U := slices.Clone(A)
		if !Cholesky(U, b) {
			t.Fatalf("b = %d: positive definite matrix refused", b)
		}
		ref := slices.Clone(A)
		for k := range b {
			d := math.Sqrt(ref[k*b+k])
			ref[k*b+k] = d
			for j := k + 1; j < b; j++ {
				ref[k*b+j] /= d
			}
			for i := k + 1; i < b; i++ {
				for j := i; j < b; j++ {
					ref[i*b+j] -= float64(ref[k*b+i] * ref[k*b+j])
				}
			}
		}
		for i := range b {
			for j := i; j < b; j++ {
				if U[i*b+j] != ref[i*b+j] {
					t.Fatalf("b = %d: U[%d][%d] = %v, unblocked %v", b, i, j, U[i*b+j], ref[i*b+j])
				}
			}
		}
		x := slices.Clone(h)
		CholeskySolve(U, b, x)
		if d := maxRelDiff(x, gonumSolve(t, A, h, b)); d > 1e-12 {
			t.Errorf("b = %d: solution differs from gonum's by %.2g relative", b, d)
		}
	}
	// Not positive definite: refused.
	A := []float64{1, 2, 2, 1}
	if Cholesky(A, 2) {
		t.Error("indefinite [[1 2] [2 1]] accepted")
	}
}

// TestLUSolve: an indefinite (and a non-symmetric) system agrees with
// gonum's LU to 1e-12 relative; a singular one is refused.
func TestLUSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, b := range []int{1, 2, 3, 6, 17, 50} {
		A := make([]float64, b*b)
		for i := range A {
			A[i] = rng.NormFloat64()
		}
		h := make([]float64, b)
		for i := range h {
			h[i] = rng.NormFloat64()
		}
		x := slices.Clone(h)
		if !LUSolve(slices.Clone(A), b, x) {
			t.Fatalf("b = %d: regular matrix refused", b)
		}
		if d := maxRelDiff(x, gonumSolve(t, A, h, b)); d > 1e-10 {
			t.Errorf("b = %d: solution differs from gonum's by %.2g relative", b, d)
		}
	}
	if LUSolve([]float64{1, 2, 2, 4}, 2, []float64{1, 1}) {
		t.Error("singular [[1 2] [2 4]] accepted")
	}
}

// TestGramInOrder: every entry of Gram's S is the in-order dot of its two
// rows (bit for bit), S is exactly symmetric, for sizes around the 2 x 4
// blocks.
func TestGramInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, b := range []int{1, 2, 3, 4, 5, 6, 9, 11} {
		for _, m := range []int{0, 1, 5, 33} {
			Kt := make([]float64, b*m)
			for i := range Kt {
				Kt[i] = rng.Float64()
			}
			S := make([]float64, b*b)
			Gram(Kt, b, m, S)
			for i := range b {
				for j := range b {
					var want float64
					for k := range m {
						want += float64(Kt[i*m+k] * Kt[j*m+k])
					}
					if S[i*b+j] != want {
						t.Fatalf("b = %d, m = %d: S[%d][%d] = %v, in-order dot %v", b, m, i, j, S[i*b+j], want)
					}
				}
			}
		}
	}
}
