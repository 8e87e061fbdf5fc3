package kmpe

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// gaussKernelRows returns the Gaussian kernel of n random rows in d
// dimensions (width^2 = 2 s2) as newFactorRows rows (lower triangle), the
// full matrix and its diagonal.
func gaussKernelRows(r *rand.Rand, n, d int, s2 float64) ([][]float64, []float64, []float64) {
	k := gaussKernel(gaussRowsD(r, n, d, 0), 2*s2)
	rows := newFactorRows(n)
	diag := make([]float64, n)
	for i := range n {
		copy(rows[i], k[i*n:i*n+i+1])
		diag[i] = k[i*n+i]
	}
	return rows, k, diag
}

// factorRows is the unblocked recurrence of its statement bit for bit,
// whatever the kernels (every implementation this CPU runs), at sizes
// around the block and tile sizes; and a Cholesky factor to rounding:
// within 1e-12 (relative to the largest entry) of LAPACK's (gonum) on
// well-conditioned kernels.
func TestFactorRows(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	saved := vk
	defer func() { vk = saved }()
	for _, n := range []int{1, 2, 5, 31, 32, 33, 64, 67, 100, 131} {
		rows, k, diag := gaussKernelRows(r, n, 6, 3)
		// The statement: s = K_ij - sum_t L_it L_jt in order, then sqrt or
		// a division.
		want := make([][]float64, n)
		for i := range n {
			want[i] = make([]float64, i+1)
			for j := range i + 1 {
				s := k[i*n+j]
				for t := range j {
					s -= float64(want[i][t] * want[j][t])
				}
				if i == j {
					want[i][j] = math.Sqrt(s)
				} else {
					want[i][j] = s / want[j][j]
				}
			}
		}
		for _, impl := range allKernels() {
			vk = impl
			got := newFactorRows(n)
			for i := range got {
				copy(got[i], rows[i])
			}
			if err := factorRows(got, diag); err != nil {
				t.Fatalf("%s: n %d: %v", impl.name, n, err)
			}
			for i := range want {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("%s: n %d: row %d differs from the unblocked recurrence", impl.name, n, i)
				}
			}
		}
		a := make([]float64, n*n)
		for i := range n {
			copy(a[i*n:], k[i*n:i*n+i+1])
		}
		if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: a}); !ok {
			t.Fatalf("n %d: LAPACK: not positive definite", n)
		}
		for i := range n {
			for j := range i + 1 {
				if d := math.Abs(want[i][j] - a[i*n+j]); d > 1e-12 {
					t.Fatalf("n %d: L[%d][%d] = %v, LAPACK %v", n, i, j, want[i][j], a[i*n+j])
				}
			}
		}
	}
}

// A singular matrix (two equal rows) fails with errBreakdown, in the first
// panel and in a later one.
func TestFactorRowsBreakdown(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	for _, dup := range []int{5, 70} {
		pts := gaussRowsD(r, 100, 4, 0)
		pts[dup] = pts[dup-3]
		k := squaredDistances(pts, 1)
		rows := newFactorRows(len(pts))
		diag := make([]float64, len(pts))
		for i := range rows {
			for j := range rows[i] {
				rows[i][j] = math.Exp(-k[i*len(pts)+j] / 2)
			}
			diag[i] = 1
		}
		if err := factorRows(rows, diag); !errors.Is(err, errBreakdown) {
			t.Errorf("duplicate row %d: %v, want errBreakdown", dup, err)
		}
	}
}

// chol.remove (blocks of rows through vk.rot, then row by row) against the
// row-by-row loop of its statement, bit for bit, for every implementation
// this CPU runs, at positions that leave blocks of every kind; and the
// result against the factor built afresh without the row.
func TestRemoveBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	rows, k, _ := gaussKernelRows(r, 150, 8, 4)
	n := len(rows)
	if err := factorRows(rows, make([]float64, n)); err != nil {
		t.Fatal(err)
	}
	saved := vk
	defer func() { vk = saved }()
	for _, p := range []int{0, 3, 17, 60, 140, 148, 149} {
		want := cloneRows(rows)
		want = append(want[:p], want[p+1:]...)
		cs, sn := make([]float64, len(want)), make([]float64, len(want))
		for i := p; i < len(want); i++ {
			ri := want[i]
			x := ri[p]
			for j := p; j < i; j++ {
				y := ri[j+1]
				ri[j], x = float64(cs[j]*x)+float64(sn[j]*y), float64(-sn[j]*x)+float64(cs[j]*y)
			}
			a, b := x, ri[i+1]
			h := math.Hypot(a, b)
			cs[i], sn[i] = a/h, b/h
			ri[i] = h
			want[i] = ri[:i+1]
		}
		for _, impl := range allKernels() {
			vk = impl
			c := chol{rows: cloneRows(rows)}
			c.remove(p)
			for i := range want {
				if !sameBits(c.rows[i], want[i]) {
					t.Fatalf("%s: remove(%d): row %d differs from the row-by-row loop", impl.name, p, i)
				}
			}
		}
		// The factor of K without row and column p.
		for i := range want {
			ki := i + btoiGE(i, p)
			for j := range i + 1 {
				kj := j + btoiGE(j, p)
				var s float64
				for t := range j + 1 {
					s += want[i][t] * want[j][t]
				}
				if d := math.Abs(s - k[ki*n+kj]); d > 1e-12 {
					t.Fatalf("remove(%d): (L L')[%d][%d] = %v, K %v", p, i, j, s, k[ki*n+kj])
				}
			}
		}
	}
}

// btoiGE is 1 if i >= p.
func btoiGE(i, p int) int {
	if i >= p {
		return 1
	}
	return 0
}
