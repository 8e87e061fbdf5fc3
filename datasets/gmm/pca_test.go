package gmm

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randDense(rng *rand.Rand, n, d int) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for c := range d {
			x.Set(i, c, rng.NormFloat64()*float64(1+c%5)+float64(c%3))
		}
	}
	return x
}

// svdReference is the PCA by gonum's thin SVD of the centred matrix, under
// the package's sign convention: the source of expected values for matrices
// larger than the numpy oracle's.
func svdReference(t *testing.T, x *mat.Dense, k int) (vt *mat.Dense, vars []float64) {
	t.Helper()
	n, d := x.Dims()
	xc := centred(x, allRows(x), colMeans(x))
	var s mat.SVD
	if !s.Factorize(xc, mat.SVDThinV) {
		t.Fatal("SVD failed")
	}
	var v mat.Dense
	s.VTo(&v)
	sv := s.Values(nil)
	vt = mat.NewDense(k, d, nil)
	for j := range k {
		col := mat.Col(nil, j, &v)
		big := 0
		for c := range col {
			if math.Abs(col[c]) > math.Abs(col[big]) {
				big = c
			}
		}
		if col[big] < 0 {
			for c := range col {
				col[c] = -col[c]
			}
		}
		vt.SetRow(j, col)
		vars = append(vars, sv[j]*sv[j]/float64(n-1))
	}
	return vt, vars
}

func colMeans(x *mat.Dense) []float64 {
	n, d := x.Dims()
	m := make([]float64, d)
	for c := range d {
		m[c] = mat.Sum(x.ColView(c)) / float64(n)
	}
	return m
}

// TestPCAAgainstSVD checks the Gram + inverse-iteration path against gonum's
// SVD on 150×200 (n×n Gram) and 200×60 (d×d Gram) Gaussian matrices, for the
// default 20 components: axes to 1e-9, variances to 1e-9 relative.
func TestPCAAgainstSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sz := range [][2]int{{150, 200}, {200, 60}} {
		x := randDense(rng, sz[0], sz[1])
		p, err := FitPCA(x, allRows(x), 20)
		if err != nil {
			t.Fatal(err)
		}
		vt, vars := svdReference(t, x, 20)
		for j := range 20 {
			near(t, "variance", p.Variances[j], vars[j], 1e-9*vars[j])
			for c := range sz[1] {
				near(t, "axis", p.Components.At(j, c), vt.At(j, c), 1e-9)
			}
		}
	}
}

// TestPCADegenerate: with a threefold singular value the axes of the
// eigenspace are not unique, but they must still be orthonormal, span the
// same space as the SVD's, and give the right variances. Exercises the
// cluster handling of the inverse iteration (Gram-Schmidt, shift separation).
func TestPCADegenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, sz := range [][2]int{{30, 50}, {80, 12}} {
		n, d := sz[0], sz[1]
		// X = A diag(s) B^T with A (n×5), B (d×5) orthonormal columns; A's
		// columns are orthogonal to the ones vector, so X is already centred.
		a := orthonormal(rng, n, 5, true)
		b := orthonormal(rng, d, 5, false)
		s := []float64{5, 5, 5, 2, 1}
		x := mat.NewDense(n, d, nil)
		for j, sj := range s {
			var outer mat.Dense
			outer.Outer(sj, a.ColView(j), b.ColView(j))
			x.Add(x, &outer)
		}
		p, err := FitPCA(x, allRows(x), 20)
		if err != nil {
			t.Fatal(err)
		}
		if k := len(p.Variances); k != 5 {
			t.Fatalf("%dx%d: %d components for a rank-5 matrix, want 5", n, d, k)
		}
		for j, sj := range s {
			near(t, "variance", p.Variances[j], sj*sj/float64(n-1), 1e-12)
		}
		var gram mat.Dense
		gram.Mul(p.Components, p.Components.T())
		for i := range 5 {
			for j := range 5 {
				near(t, "V V^T", gram.At(i, j), b2f(i == j), 1e-12)
			}
		}
		// Projections of the top-3 axes on B's first 3 columns: an
		// orthogonal 3×3 matrix iff they span the same space.
		var proj mat.Dense
		proj.Mul(p.Components.Slice(0, 3, 0, d), b.Slice(0, d, 0, 3))
		var pp mat.Dense
		pp.Mul(&proj, proj.T())
		for i := range 3 {
			for j := range 3 {
				near(t, "subspace", pp.At(i, j), b2f(i == j), 1e-12)
			}
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// orthonormal returns n×k orthonormal columns from a QR of a Gaussian
// matrix, orthogonal also to the ones vector if centred.
func orthonormal(rng *rand.Rand, n, k int, centredCols bool) *mat.Dense {
	extra := 0
	if centredCols {
		extra = 1
	}
	g := mat.NewDense(n, k+extra, nil)
	for i := range n {
		for j := range k + extra {
			g.Set(i, j, rng.NormFloat64())
		}
		if centredCols {
			g.Set(i, 0, 1)
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	return mat.DenseCopyOf(q.Slice(0, n, extra, k+extra))
}

// TestPCAProperties: the scores of the fitted rows have mean 0 and variance
// Variances along each axis, the sign convention holds, components are capped
// at n-1, and rows with no variance give a PCA without components.
func TestPCAProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	x := randDense(rng, 60, 30)
	rows := []int{59, 0, 10, 11, 12, 13, 14, 30, 31, 32, 33, 34, 35, 50}
	p, err := FitPCA(x, rows, 20)
	if err != nil {
		t.Fatal(err)
	}
	if k := len(p.Variances); k != len(rows)-1 {
		t.Errorf("%d components from %d rows, want %d", k, len(rows), len(rows)-1)
	}
	z, err := p.Transform(x, rows)
	if err != nil {
		t.Fatal(err)
	}
	for j := range p.Variances {
		col := mat.Col(nil, j, z)
		mean, ss := 0.0, 0.0
		for _, v := range col {
			mean += v
		}
		mean /= float64(len(col))
		for _, v := range col {
			ss += (v - mean) * (v - mean)
		}
		near(t, "score mean", mean, 0, 1e-12)
		near(t, "score variance", ss/float64(len(col)-1), p.Variances[j], 1e-10*p.Variances[j])
		row := p.Components.RawRowView(j)
		big := 0
		for c := range row {
			if math.Abs(row[c]) > math.Abs(row[big]) {
				big = c
			}
		}
		if row[big] <= 0 {
			t.Errorf("axis %d: largest entry %g is not positive", j, row[big])
		}
	}

	same := mat.NewDense(5, 3, []float64{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3})
	q, err := FitPCA(same, allRows(same), 2)
	if err != nil || q.Components != nil {
		t.Errorf("identical rows: %v, %v components", err, q)
	}
	if _, err := q.Transform(same, allRows(same)); err == nil {
		t.Errorf("Transform without components: no error")
	}
	if _, err := p.Transform(mat.NewDense(2, 5, nil), []int{0}); err == nil {
		t.Errorf("Transform with wrong width: no error")
	}
	if _, err := FitPCA(x, rows, 0); err == nil {
		t.Errorf("0 components: no error")
	}
	if _, err := FitPCA(x, nil, 3); err == nil {
		t.Errorf("no rows: no error")
	}
}

// TestPCASpread: singular values spread over six orders of magnitude. The
// n×n Gram route computes v_j = Xc^T u_j / s_j, which amplifies the error of
// u_j by s_1/s_j; the axes must still be orthonormal, and each variance
// right to 1e-9 relative (1e-6 for s_j/s_1 <= 1e-5), and each axis
// within 1e-9 of the true one where it is well determined (s_j/s_1 >= 1e-3).
func TestPCASpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, sz := range [][2]int{{30, 50}, {80, 12}} {
		n, d := sz[0], sz[1]
		a := orthonormal(rng, n, 5, true)
		b := orthonormal(rng, d, 5, false)
		s := []float64{1, 1e-1, 1e-3, 1e-5, 1e-6}
		x := mat.NewDense(n, d, nil)
		for j, sj := range s {
			var outer mat.Dense
			outer.Outer(sj, a.ColView(j), b.ColView(j))
			x.Add(x, &outer)
		}
		p, err := FitPCA(x, allRows(x), 20)
		if err != nil {
			t.Fatal(err)
		}
		if k := len(p.Variances); k != 5 {
			t.Fatalf("%dx%d: %d components, want 5", n, d, k)
		}
		var gram mat.Dense
		gram.Mul(p.Components, p.Components.T())
		for i := range 5 {
			for j := range 5 {
				near(t, "V V^T", gram.At(i, j), b2f(i == j), 1e-12)
			}
		}
		z, err := p.Transform(x, allRows(x))
		if err != nil {
			t.Fatal(err)
		}
		for j, sj := range s {
			v := sj * sj / float64(n-1)
			tol := 1e-9
			if sj <= 1e-5 {
				tol = 1e-6
			}
			near(t, "variance", p.Variances[j], v, tol*v)
			if sj >= 1e-3 {
				near(t, "axis", math.Abs(mat.Dot(p.Components.RowView(j), b.ColView(j))), 1, 1e-9)
			}
			col := mat.Col(nil, j, z)
			ss := 0.0
			for _, c := range col {
				ss += c * c
			}
			near(t, "score variance", ss/float64(n-1), p.Variances[j], 1e-12*p.Variances[j])
		}
	}
}
