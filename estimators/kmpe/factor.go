package kmpe

import "math"

// The Cholesky factorisation of a large support (chol.build), blocked and
// right-looking on the package's vector kernels.
//
// Every entry of the factor is defined by the scalar recurrence
//
//	s = K_ij; for t = 0..j-1 in order: s = s - (L_it L_jt)
//	L_jj = sqrt(s) (i = j),  L_ij = s / L_jj (i > j),
//
// each product rounded before it is subtracted. The blocking only
// reorders operations on different entries, never those of one entry, so
// the factor does not depend on the block size nor on the kernels'
// instruction set (the kernels are elementwise: vec.go), and it is the
// factor of the unblocked loop above bit for bit (TestFactorRows). The
// sum over t is sequential, as in LAPACK's unblocked factorisation; the
// result is a Cholesky factor to rounding like LAPACK's (a different
// order of the same sums, so not its bits).
//
// Columns are taken cholBlock at a time (a panel: columns k0..k1-1 of rows
// k0..m-1):
//
//  1. the panel is copied transposed into pt (row k of pt = column k0+k
//     from row k0 on: contiguous for the vector kernels) and factored
//     there column by column: the pivot, the column divided by it, and
//     the panel's later columns updated by axpy;
//  2. the factored panel is copied back into the rows;
//  3. the trailing update: for every row i >= k1 and column j in k1..i,
//     L_ij's sum takes the panel's products t = k0..k1-1, by vk.subTile on
//     subRows rows and runs of subCols columns at a time (a small matrix
//     product, the products summed into registers that stay there
//     through the panel's columns, which is where the blocking pays: each
//     entry of pt loaded serves subRows rows, each entry of the rows
//     loaded serves cholBlock products).
//
// The tiles overrun the triangle: a block's rows are updated up to the
// column of its last row rounded up to subCols, written into spare
// capacity past each row's end (cholPad; newFactorRows), and pt has
// columns past the last row (zeros). The factor never reads those
// entries.

// cholBlock is the number of columns per panel: the trailing update's
// depth (each pass over the trailing rows takes cholBlock products).
const cholBlock = 64

// cholSlab is the width of the trailing update's column slabs: pt's slab
// (cholBlock x cholSlab, 256 KB) stays in the L2 cache.
const cholSlab = 512

// cholPad is the spare capacity past each row of newFactorRows: a block of
// subRows rows starting at row i0 writes up to column i0+subRows-1 rounded
// up to a multiple of subCols from the panel's end.
const cholPad = subRows + subCols

// newFactorRows returns m rows for factorRows, row i of length i+1 (the
// lower triangle) with cholPad entries of spare capacity, all in one
// allocation.
func newFactorRows(m int) [][]float64 {
	rows := make([][]float64, m)
	buf := make([]float64, m*(m+1)/2+m*cholPad)
	off := 0
	for i := range rows {
		rows[i] = buf[off : off+i+1 : off+i+1+cholPad]
		off += i + 1 + cholPad
	}
	return rows
}

// factorRows overwrites the lower triangle of the symmetric matrix in rows
// (from newFactorRows) with its Cholesky factor. It fails with
// errBreakdown at a pivot s that is not positive or whose square root l
// has l^2 <= 1e-13 diag[i] (add's test), leaving rows partly factored.
func factorRows(rows [][]float64, diag []float64) error {
	m := len(rows)
	ldp := m + cholPad
	pt := make([]float64, cholBlock*ldp)
	var blk [subRows][]float64
	var spare [subRows][]float64 // stand-ins for the rows past m in the last block
	for k0 := 0; k0 < m; k0 += cholBlock {
		k1 := min(k0+cholBlock, m)
		kb, w := k1-k0, m-k0
		// 1. The panel, transposed: pt[k ldp + i - k0] = L[i][k0+k] for
		// i >= k0+k; zeros past row m.
		for k := range kb {
			clear(pt[k*ldp+w : (k+1)*ldp])
		}
		for i := k0; i < m; i++ {
			row := rows[i]
			for k := range min(kb, i-k0+1) {
				pt[k*ldp+i-k0] = row[k0+k]
			}
		}
		for k := range kb {
			pk := pt[k*ldp : k*ldp+w]
			s := pk[k]
			if !(s > 0) {
				return errBreakdown
			}
			l := math.Sqrt(s)
			if !(l*l > 1e-13*diag[k0+k]) {
				return errBreakdown
			}
			pk[k] = l
			for i := k + 1; i < w; i++ {
				pk[i] /= l
			}
			// L_i,k0+k2 -= L_i,k0+k L_k0+k2,k0+k for the panel's later columns
			// (axpy: y + (-a) x, which is y - a x).
			for k2 := k + 1; k2 < kb; k2++ {
				axpy(-pk[k2], pk[k2:w], pt[k2*ldp+k2:k2*ldp+w])
			}
		}
		// 2. Back into the rows.
		for i := k0; i < m; i++ {
			row := rows[i]
			for k := range min(kb, i-k0+1) {
				row[k0+k] = pt[k*ldp+i-k0]
			}
		}
		// 3. The trailing update, by slabs of cholSlab columns (pt's slab
		// stays in the L2 cache while the rows below it stream through).
		for js := k1; js < m; js += cholSlab {
			je := js + cholSlab
			for i0 := (js-k1)/subRows*subRows + k1; i0 < m; i0 += subRows {
				copy(blk[:], rows[i0:min(i0+subRows, m)])
				for r := m - i0; r < subRows; r++ {
					if spare[r] == nil {
						spare[r] = make([]float64, m+cholPad)
					}
					blk[r] = spare[r]
				}
				// Columns js.. up to the block's last row, in whole tiles.
				end := min(je, k1+(i0+subRows-k1+subCols-1)/subCols*subCols)
				vk.subTile(blk[:], k0, kb, pt[js-k0:], ldp, js, end-js)
			}
		}
	}
	return nil
}
