package kmpe

import (
	"errors"
	"fmt"
)

// ErrTooLarge is wrapped by the error of an estimate whose n x n matrices
// do not fit in the memory the machine has available (a [*SizeError]).
var ErrTooLarge = errors.New("too many rows for the memory available")

// SizeError is the refusal of an estimate that would need more memory than
// is available, given before anything of that size is allocated. It wraps
// [ErrTooLarge].
type SizeError struct {
	Rows      int    // the pooled rows (mixture and component)
	Need      uint64 // bytes the estimate holds at once at its peak
	Available uint64 // bytes available to it
	Source    string // where Available comes from
	// MaxRows is the largest number of pooled rows (of the same features)
	// whose estimate fits in Available.
	MaxRows int
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("kmpe: %d pooled rows need %d bytes (%s) at once for the n x n distance and kernel matrices and the QP's Cholesky factors, and %d bytes (%s) are available (%s): %v; at most %d rows fit",
		e.Rows, e.Need, humanBytes(e.Need), e.Available, humanBytes(e.Available), e.Source, ErrTooLarge, e.MaxRows)
}

func (e *SizeError) Unwrap() error { return ErrTooLarge }

// humanBytes writes b in binary units with three significant digits.
func humanBytes(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	x, i := float64(b), 0
	for x >= unit && i < 6 {
		x /= unit
		i++
	}
	return fmt.Sprintf("%.3g %ciB", x, "KMGTPE"[i-1])
}

// The memory an estimate holds at once, counted from the code. Every count
// is in bytes, an upper bound of the live heap at the peak (when the QP's
// stored Cholesky factors have filled their budget and a working factor of
// every row is being updated), rounded up for the Go allocator: a row of
// a factor allocated on its own (chol.addFrom) occupies at most 5/4 of its
// size (size classes waste up to 1/8 below 32 KiB, whole 8 KiB pages at
// most 1/4 above). TestMemoryCount checks them against runtime.MemStats.

// Bounds of the counts.
const (
	// bisectSteps is the number of steps of one bisection: the interval
	// [1, 8] halves until it is at most 0.04 wide.
	bisectSteps = 8
	// maxSolves bounds the distinct QPs of a run: d(1), d(1.05) and two
	// per step of both bisections.
	maxSolves = 2 + 2*2*bisectSteps
	// histBytes is one worker's histogram of the median's radix selection.
	histBytes = 8 << 16
	// stepBytes bounds, per row, the vectors one active-set step holds
	// (the face's solutions, the rows outside the support, the entering
	// rows' columns and forward substitutions, the panel of a
	// factorisation: about 180 floats).
	stepBytes = 2048
)

// qpBytes counts the QP of n rows: the stored factors (within
// factorBudget, 2 n^2 floats counted as m (m + 1)/2 each) and the working
// factor (every row at most), their spare columns (cholPad) and row
// headers, the solutions kept for warm starts, the QP's vectors and one
// step's.
func qpBytes(n uint64) uint64 {
	factors := 5*(2*factorBudgetFloats(n)) + 5*n*(n+1) // 5/4 of 8 bytes per float
	perFactor := uint64(8*cholPad+48) * n              // spare columns and two headers per row
	solutions := uint64(maxSolves) * 32 * n            // rows and weights, capacity up to 2n each
	vectors := 6*8*n + stepBytes*n                     // diag, dab, v, g, ka, kb; one step
	return factors + (maxSolves+1)*perFactor + solutions + vectors
}

// factorBudgetFloats is factorBudget as a uint64.
func factorBudgetFloats(n uint64) uint64 { return 2 * n * n }

// distanceBytes counts the scaling of n rows of d features, their squared
// distances (n x n, with the features transposed) and the median's
// histograms (workers + 1).
func distanceBytes(n, d, workers uint64) uint64 {
	scaled := 24*n + 8*n*d + 32*d // row headers, features, per-column statistics
	dist := 8*n*n + 8*n*d + 8*subRows*d*workers
	return scaled + dist + (workers+1)*histBytes
}

// kernelBytes counts the row sums at the widths and the vectors of the
// kernel's passes.
func kernelBytes(n, workers uint64) uint64 { return 6*8*n + 8*n*workers }

// directBytes counts [Estimate] on n pooled rows of d features.
func directBytes(n, d, workers uint64) uint64 {
	return 24*n + distanceBytes(n, d, workers) + kernelBytes(n, workers) + qpBytes(n)
}

// poolEstimateBytes counts [Pool.Estimate] on n rows of a pool of poolN:
// a split that uses every pool row once gathers its kernel from the pool's
// and reads the row sums at the pool's widths; the pool computes the
// kernel at the chosen width unless it keeps it, and a kernel at another
// width replaces the kept one, so both may be live at once (the count
// holds one pool kernel: the kept one is already allocated); any other
// split gathers its squared distances.
func poolEstimateBytes(n, poolN, workers uint64, partition bool) uint64 {
	b := 16*n + kernelBytes(n, workers) + qpBytes(n) + 8*n*n
	if !partition {
		return b + (workers+1)*histBytes
	}
	return b + 5*8*poolN + 8*n*workers + 8*poolN*poolN
}

// cacheBytes counts [Cache.Estimate] on n pooled rows of d features whose
// pool is not cached: the rows' sort keys and copies, the pool and the
// estimate on it.
func cacheBytes(n, d, workers uint64) uint64 {
	rows := 2 * (9*n*d + 24*n) // keys and the pool's copies: 9/8 of 8 bytes per float
	return rows + 48*n + distanceBytes(n, d, workers) + poolEstimateBytes(n, n, workers, true)
}

// maxRowsFor returns the largest n in [0, limit] with need(n) <= avail
// (need is increasing in n).
func maxRowsFor(need func(n uint64) uint64, avail uint64, limit int) int {
	lo, hi := 0, limit // need(lo) <= avail, or lo = 0
	for lo < hi {
		m := lo + (hi-lo+1)/2
		if need(uint64(m)) <= avail {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return lo
}

// saturating returns a count as a uint64, capped so that the counts of a
// huge n do not wrap around.
func saturating(n int) uint64 {
	const maxRows = 1 << 28 // 2^56 bytes per matrix: no machine has them
	return uint64(min(max(n, 0), maxRows))
}
