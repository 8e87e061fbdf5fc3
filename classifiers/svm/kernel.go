package svm

import (
	"fmt"

	"github.com/pueval/pueval/internal/portmath"
	"gonum.org/v1/gonum/mat"
)

// Kernel is a kernel function.
type Kernel int

const (
	// Linear is K(x, z) = x.z.
	Linear Kernel = iota
	// RBF is K(x, z) = exp(-gamma ||x - z||^2).
	RBF
)

// String returns "linear" or "rbf".
func (k Kernel) String() string {
	switch k {
	case Linear:
		return "linear"
	case RBF:
		return "rbf"
	}
	return fmt.Sprintf("Kernel(%d)", int(k))
}

// ParseKernel returns the kernel named "linear" or "rbf".
func ParseKernel(s string) (Kernel, error) {
	switch s {
	case "linear":
		return Linear, nil
	case "rbf":
		return RBF, nil
	}
	return 0, fmt.Errorf("svm: kernel %q: want linear or rbf", s)
}

// Storage says how the points are stored for kernel evaluations.
type Storage int

const (
	// StorageAuto stores the points sparsely when their density (the
	// fraction of nonzero entries) is below SparseDensity, densely
	// otherwise.
	StorageAuto Storage = iota
	// StorageDense stores the points as one row-major array.
	StorageDense
	// StorageSparse stores each point as its nonzero entries (index, value)
	// in increasing index order.
	StorageSparse
)

// SparseDensity is the density below which StorageAuto stores points
// sparsely. A sparse kernel row costs the products of common nonzeros,
// about n d rho^2 for density rho, at roughly twice the time per product of
// a dense row's n d (halved by the symmetric copies): on 1,950 x 256 rows
// with random zeros, sparse storage wins up to rho ~ 0.5; on MNIST's 16x16
// digits (rho = 0.29, the PULP data) it fits 1.5 to 1.9 times faster.
const SparseDensity = 0.4

// points is a set of feature vectors in dense or sparse storage with their
// squared norms. Every dot product of two points, in either storage, is the
// sum of the products x_k z_k over the features k where both are nonzero,
// accumulated in increasing k by one float64 accumulator: the products left
// out are zeros, and adding a zero never changes a float64 sum, so dense
// and sparse storage give bit-identical kernel values, and K(x, z) is
// bit-identical to K(z, x).
type points struct {
	n, d int
	// dense holds n*d values row-major (nil when sparse).
	dense []float64
	// start[i]..start[i+1] index point i's nonzeros in idx and val
	// (sparse storage).
	start []int
	idx   []int32
	val   []float64
	// The same nonzeros by column (sparse storage): colStart[k] ..
	// colStart[k+1] index feature k's nonzeros in colRow (the point) and
	// colVal, in increasing point order.
	colStart []int
	colRow   []int32
	colVal   []float64
	// sq holds the squared norms x.x.
	sq []float64
}

func (p *points) sparse() bool { return p.dense == nil }

// gather copies the given rows of x into a point set; with StorageAuto it
// picks the storage by the density of those rows.
func gather(x *mat.Dense, rows []int, st Storage) *points {
	_, d := x.Dims()
	raw := x.RawMatrix()
	n := len(rows)
	if st == StorageAuto {
		nnz := 0
		for _, r := range rows {
			for _, v := range raw.Data[r*raw.Stride : r*raw.Stride+d] {
				if v != 0 {
					nnz++
				}
			}
		}
		st = StorageDense
		if float64(nnz) < SparseDensity*float64(n)*float64(d) {
			st = StorageSparse
		}
	}
	p := &points{n: n, d: d, sq: make([]float64, n)}
	if st == StorageDense {
		p.dense = make([]float64, n*d)
		for i, r := range rows {
			copy(p.dense[i*d:(i+1)*d], raw.Data[r*raw.Stride:r*raw.Stride+d])
		}
	} else {
		p.start = make([]int, n+1)
		for i, r := range rows {
			for k, v := range raw.Data[r*raw.Stride : r*raw.Stride+d] {
				if v != 0 {
					p.idx = append(p.idx, int32(k))
					p.val = append(p.val, v)
				}
			}
			p.start[i+1] = len(p.idx)
		}
		p.colStart = make([]int, d+1)
		for _, k := range p.idx {
			p.colStart[k+1]++
		}
		for k := range d {
			p.colStart[k+1] += p.colStart[k]
		}
		p.colRow = make([]int32, len(p.idx))
		p.colVal = make([]float64, len(p.idx))
		next := append([]int(nil), p.colStart[:d]...)
		for i := range n {
			for t := p.start[i]; t < p.start[i+1]; t++ {
				k := p.idx[t]
				p.colRow[next[k]], p.colVal[next[k]] = int32(i), p.val[t]
				next[k]++
			}
		}
	}
	for i := range n {
		p.sq[i] = p.dot(i, p, i)
	}
	return p
}

// row returns point i densely: the stored row, or buf (length d) filled.
func (p *points) row(i int, buf []float64) []float64 {
	if !p.sparse() {
		return p.dense[i*p.d : (i+1)*p.d]
	}
	clear(buf)
	for t := p.start[i]; t < p.start[i+1]; t++ {
		buf[p.idx[t]] = p.val[t]
	}
	return buf
}

// dot returns the dot product of point i of p and point j of q (same d).
func (p *points) dot(i int, q *points, j int) float64 {
	switch {
	case !p.sparse() && !q.sparse():
		return dotDense(p.dense[i*p.d:(i+1)*p.d], q.dense[j*q.d:(j+1)*q.d])
	case !q.sparse():
		return q.dot(j, p, i)
	case !p.sparse():
		return dotDenseSparse(p.dense[i*p.d:(i+1)*p.d], q.idx[q.start[j]:q.start[j+1]], q.val[q.start[j]:q.start[j+1]])
	}
	// Both sparse: merge the index lists.
	ai, av := p.idx[p.start[i]:p.start[i+1]], p.val[p.start[i]:p.start[i+1]]
	bi, bv := q.idx[q.start[j]:q.start[j+1]], q.val[q.start[j]:q.start[j+1]]
	s := 0.0
	for a, b := 0, 0; a < len(ai) && b < len(bi); {
		switch {
		case ai[a] < bi[b]:
			a++
		case ai[a] > bi[b]:
			b++
		default:
			s += float64(av[a] * bv[b])
			a++
			b++
		}
	}
	return s
}

// dotDense is sum_k a_k b_k in increasing k. The float64 conversion keeps
// the compiler from fusing the multiply and add (the Go spec allows fusion
// on some architectures), so every platform rounds alike.
func dotDense(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for k, v := range a {
		s += float64(v * b[k])
	}
	return s
}

// dotDenseSparse is the dot product of a dense vector and a sparse one
// (sorted indices), accumulated in increasing index order.
func dotDenseSparse(a []float64, idx []int32, val []float64) float64 {
	val = val[:len(idx)]
	s := 0.0
	for t, k := range idx {
		s += float64(a[k] * val[t])
	}
	return s
}

// dots8 computes the dot products of a with eight dense vectors of its
// length, each accumulated in increasing k like dotDense: eight
// independent chains in one loop hide the latency of the additions, and
// every result is bit-identical to dotDense's.
func dots8(a []float64, b *[8][]float64, out []float64) {
	b0, b1, b2, b3 := b[0][:len(a)], b[1][:len(a)], b[2][:len(a)], b[3][:len(a)]
	b4, b5, b6, b7 := b[4][:len(a)], b[5][:len(a)], b[6][:len(a)], b[7][:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	for k, v := range a {
		s0 += float64(v * b0[k])
		s1 += float64(v * b1[k])
		s2 += float64(v * b2[k])
		s3 += float64(v * b3[k])
		s4 += float64(v * b4[k])
		s5 += float64(v * b5[k])
		s6 += float64(v * b6[k])
		s7 += float64(v * b7[k])
	}
	out = out[:8]
	out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7] = s0, s1, s2, s3, s4, s5, s6, s7
}

// allDotsSparse sets out[j] = x_i . x_j for every point j of a sparse p,
// through the column lists: for each nonzero (k, v) of x_i in increasing
// k, out[j] += v x_jk over the points j with a nonzero at k. Each out[j]
// thus sums the products of the common nonzeros in increasing k, the
// merge's order (bit-identical to p.dot), at a cost of the products that
// are not zero rather than n times the nonzeros of a row. It returns the
// number of multiply-adds.
func allDotsSparse(p *points, i int, out []float64) int {
	out = out[:p.n]
	clear(out)
	m := 0
	for t := p.start[i]; t < p.start[i+1]; t++ {
		k, v := p.idx[t], p.val[t]
		lo, hi := p.colStart[k], p.colStart[k+1]
		rows, vals := p.colRow[lo:hi], p.colVal[lo:hi]
		vals = vals[:len(rows)]
		for q, j := range rows {
			out[j] += float64(v * vals[q])
		}
		m += hi - lo
	}
	return m
}

// kernelFunc turns a dot product and the two squared norms into a kernel
// value. The RBF distance uses the squared norms (||x||^2 + ||z||^2 -
// 2 x.z, clamped at 0 against rounding), symmetric in x and z bit for bit.
type kernelFunc struct {
	kind  Kernel
	gamma float64
}

func (kf kernelFunc) value(dot, sqa, sqb float64) float64 {
	if kf.kind == Linear {
		return dot
	}
	d2 := sqa + sqb - 2*dot
	if d2 < 0 {
		d2 = 0
	}
	return portmath.Exp(-kf.gamma * d2)
}

// dotsTo sets out[t] = x_i . q_{js[t]} for point i of p and points js of q
// (bit-identical to p.dot(i, q, js[t])). buf is length-d scratch.
func dotsTo(p *points, i int, q *points, js []int32, out []float64, buf []float64) {
	switch {
	case !p.sparse() && !q.sparse():
		a := p.dense[i*p.d : (i+1)*p.d]
		d := q.d
		t := 0
		var b [8][]float64
		for ; t+8 <= len(js); t += 8 {
			for u := range b {
				j := int(js[t+u])
				b[u] = q.dense[j*d : (j+1)*d]
			}
			dots8(a, &b, out[t:t+8])
		}
		for ; t < len(js); t++ {
			j := int(js[t])
			out[t] = dotDense(a, q.dense[j*d:(j+1)*d])
		}
	case !q.sparse():
		// Sparse p, dense q: gather q's entries at p's indices; the products
		// and their order are those of the merge.
		idx, val := p.idx[p.start[i]:p.start[i+1]], p.val[p.start[i]:p.start[i+1]]
		for t, j := range js {
			out[t] = dotDenseSparse(q.dense[int(j)*q.d:(int(j)+1)*q.d], idx, val)
		}
	default:
		a := p.row(i, buf)
		for t, j := range js {
			j := int(j)
			out[t] = dotDenseSparse(a, q.idx[q.start[j]:q.start[j+1]], q.val[q.start[j]:q.start[j+1]])
		}
	}
}
