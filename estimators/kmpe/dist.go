package kmpe

import (
	"math"
	"sync"
)

// parallelRows runs f(w, lo, hi) over the row blocks [lo, hi) of 0..n-1 on
// at most workers goroutines, w in [0, workers) naming the goroutine. Every
// row is handled by exactly one call; callers make each row's results
// depend on that row only (or sum integers), so the outcome does not depend
// on the worker count or the schedule.
func parallelRows(n, workers int, f func(w, lo, hi int)) { parallelChunks(n, 32, workers, f) }

// parallelChunks is parallelRows with chunks of block rows.
func parallelChunks(n, block, workers int, f func(w, lo, hi int)) {
	workers = max(1, min(workers, (n+block-1)/block))
	if workers == 1 {
		f(0, 0, n)
		return
	}
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				lo := next
				next += block
				mu.Unlock()
				if lo >= n {
					return
				}
				f(w, lo, min(lo+block, n))
			}
		})
	}
	wg.Wait()
}

// squaredDistances returns the n x n row-major matrix of squared Euclidean
// distances of the rows (all of one length), each entry summed directly
// over the features in order, each square rounded before it is added: the
// diagonal is exactly 0 and the matrix exactly symmetric (entry (j, i)
// sums the same squares as (i, j)).
//
// The entries are computed 4 rows by 16 columns at a time by vk.sqDist
// from the rows transposed (feature-major, so that a vector register
// holds one feature of consecutive rows), the columns in slabs of
// distSlab whose transposed features stay in the L2 cache while the rows'
// blocks pass; the rows and columns left over by the tiles by
// sqDistRow. Every entry is its own sum, so neither the tiling nor the
// worker count changes a bit. The plain Go kernels take the rows as they
// are instead (directDistances: the same sums; the transposed columns
// would only cost scalar code cache misses).
func squaredDistances(rows [][]float64, workers int) []float64 {
	n := len(rows)
	if vk.scalar {
		return directDistances(rows, workers)
	}
	d2 := make([]float64, n*n)
	if n == 0 {
		return d2
	}
	d := len(rows[0])
	xt := make([]float64, d*n)
	for j, row := range rows {
		if len(row) != d {
			panic("kmpe: rows of different lengths")
		}
		for k, x := range row {
			xt[k*n+j] = x
		}
	}
	if d == 0 {
		return d2
	}
	parallelChunks(n, distChunk, workers, func(_, lo, hi int) {
		xb := make([]float64, subRows*d)
		for js := 0; js < n; js += distSlab {
			je := min(js+distSlab, n)
			nc := (je - js) / subCols * subCols
			i := lo
			for ; i+subRows <= hi; i += subRows {
				for r := range subRows {
					for k, x := range rows[i+r] {
						xb[subRows*k+r] = x
					}
				}
				if nc > 0 {
					vk.sqDist(d2[i*n+js:], n, xb, xt[js:], n, d, nc)
				}
				for r := range subRows {
					sqDistRow(d2[(i+r)*n:(i+1+r)*n], rows[i+r], xt, n, js+nc, je)
				}
			}
			for ; i < hi; i++ {
				sqDistRow(d2[i*n:(i+1)*n], rows[i], xt, n, js, je)
			}
		}
		for i := lo; i < hi; i++ {
			d2[i*n+i] = 0 // already: every difference is 0
		}
	})
	return d2
}

// directDistances is squaredDistances row by row, for scalar code.
func directDistances(rows [][]float64, workers int) []float64 {
	n := len(rows)
	d2 := make([]float64, n*n)
	parallelRows(n, workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			xi := rows[i]
			out := d2[i*n : (i+1)*n]
			for j, xj := range rows {
				if j == i {
					continue
				}
				xj = xj[:len(xi)]
				var s float64
				for k, a := range xi {
					t := a - xj[k]
					s += float64(t * t)
				}
				out[j] = s
			}
		}
	})
	return d2
}

// sqDistRow sets out[j] for j in [j0, j1) as sqDistGo does: the sum over
// the features, in order, of the squared differences (xt[k n + j] - x[k]).
func sqDistRow(out, x, xt []float64, n, j0, j1 int) {
	for j := j0; j < j1; j++ {
		var s float64
		for k, a := range x {
			t := xt[k*n+j] - a
			s += float64(t * t)
		}
		out[j] = s
	}
}

// distChunk is the number of rows a worker takes at a time, and distSlab
// the width of the column slabs, in squaredDistances.
const (
	distChunk = 128
	distSlab  = 512
)

// medianAll is numpy.median of all n*n entries of the symmetric matrix d2
// with a zero diagonal and non-negative entries: the mean of the two middle
// values when n*n is even, the middle value otherwise. Sorted, the n*n
// entries are the n diagonal zeros followed by every strictly-upper entry
// twice, so the full matrix's order statistic k (0-based) is 0 for k < n and
// the upper triangle's order statistic (k-n)/2 otherwise. The upper
// triangle's order statistics are found by radix selection on the float
// bits (non-negative float64s order as their bit patterns), 16 bits per
// pass, without copying the matrix.
func medianAll(d2 []float64, n, workers int) float64 {
	nn := n * n
	kth := func(k int) float64 {
		if k < n {
			return 0
		}
		return upperKth(d2, n, (k-n)/2, workers)
	}
	if nn%2 == 1 {
		return kth(nn / 2)
	}
	a, b := kth(nn/2-1), kth(nn/2)
	return (a + b) / 2
}

// upperKth returns the k-th smallest (0-based) of the strictly-upper
// entries d2[i*n+j], i < j.
func upperKth(d2 []float64, n, k, workers int) float64 {
	var prefix uint64 // the bits fixed so far
	for shift := 48; shift >= 0; shift -= 16 {
		hiMask := ^uint64(0) << (shift + 16) // bits above this pass's 16
		if shift == 48 {
			hiMask = 0
		}
		counts := histogram(d2, n, workers, prefix, hiMask, uint(shift))
		cum := 0
		for b, c := range counts {
			if cum+c > k {
				prefix |= uint64(b) << shift
				k -= cum
				break
			}
			cum += c
		}
	}
	return math.Float64frombits(prefix)
}

// histogram counts the strictly-upper entries whose bits under hiMask equal
// prefix, by their 16 bits at shift. Each worker counts whole rows into its
// own array; integer sums do not depend on the order.
func histogram(d2 []float64, n, workers int, prefix, hiMask uint64, shift uint) []int {
	workers = max(1, workers)
	local := make([][]int, workers)
	parallelRows(n, workers, func(w, lo, hi int) {
		if local[w] == nil {
			local[w] = make([]int, 1<<16)
		}
		counts := local[w]
		for i := lo; i < hi; i++ {
			for _, x := range d2[i*n+i+1 : (i+1)*n] {
				b := math.Float64bits(x)
				if b&hiMask == prefix {
					counts[(b>>shift)&0xffff]++
				}
			}
		}
	})
	total := make([]int, 1<<16)
	for _, counts := range local {
		for b, c := range counts {
			total[b] += c
		}
	}
	return total
}
