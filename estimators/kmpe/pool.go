package kmpe

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"slices"
	"sync"
)

// Pool holds the squared distances of a data set's rows (scaled once over
// all of them) and their numpy median, for estimates on many splits of the
// same rows: the AUL protocol draws its splits from one data set, and a
// split's pooled rows (mixture and component) are the data set's rows in
// another order, so the distances and, for a split that uses every row
// once, their median are the pool's. A Pool is immutable and safe for
// concurrent use.
type Pool struct {
	n        int
	d2       []float64 // n x n
	median   float64
	scaling  Scaling // "" for a pool built from distances
	constant []int
	rawExp   int // Result.RawExponent

	// The kernels at the pool's widths (sqrt(median) x WidthFactors),
	// shared by the splits that use every pool row once: each width's row
	// sums (computed once), and the full kernel of the widths chosen
	// most recently (at most keptKernels of them).
	mu      sync.Mutex
	rowSums [len(WidthFactors)][]float64
	kernels []pooledKernel // most recently used last
}

// pooledKernel is the kernel at the width WidthFactors[index], pool order.
type pooledKernel struct {
	index int
	k     []float64
}

// keptKernels is how many full kernels a pool keeps (8 n^2 bytes each):
// nearly every split of a data set chooses the same width.
const keptKernels = 1

// NewPool scales the rows (s, over all rows; empty = zscore) and computes
// their squared distances and median with workers goroutines (0 =
// GOMAXPROCS). Distances that would not fit in the memory available are
// refused before they are allocated, with a [*SizeError].
func NewPool(rows [][]float64, s Scaling, workers int) (*Pool, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("kmpe: %w", err)
	}
	if len(rows) == 0 {
		return nil, errors.New("kmpe: pool: no rows")
	}
	if len(rows[0]) == 0 {
		return nil, errors.New("kmpe: pool: rows have no features")
	}
	if err := checkRows("pool", rows, len(rows[0])); err != nil {
		return nil, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n, d, w := saturating(len(rows)), saturating(len(rows[0])), saturating(workers)
	release, err := gate.admit(context.Background(), distanceBytes(n, d, w), len(rows), func(avail uint64) int {
		return maxRowsFor(func(m uint64) uint64 { return distanceBytes(m, d, w) }, avail, len(rows))
	}, false)
	if err != nil {
		return nil, err
	}
	defer release()
	return newPool(rows, s.orDefault(), workers)
}

// newPool is NewPool on checked rows, without the memory check.
func newPool(rows [][]float64, s Scaling, workers int) (*Pool, error) {
	scaled, constant, rawExp, err := scaleRows(rows, s)
	if err != nil {
		return nil, err
	}
	n := len(scaled)
	d2 := squaredDistances(scaled, workers)
	return &Pool{n: n, d2: d2, median: medianAll(d2, n, workers), scaling: s, constant: constant, rawExp: rawExp}, nil
}

// NewPoolD2 wraps a full n x n row-major matrix of squared distances
// (symmetric, zero diagonal, finite, non-negative; checked). The pool
// keeps d2: the caller must not change it afterwards.
func NewPoolD2(d2 []float64, n, workers int) (*Pool, error) {
	if n < 2 || len(d2) != n*n {
		return nil, fmt.Errorf("kmpe: pool: %d distances for n = %d rows: want n*n with n >= 2", len(d2), n)
	}
	for i := range n {
		if d2[i*n+i] != 0 {
			return nil, fmt.Errorf("kmpe: pool: D2[%d][%d] = %v: want a zero diagonal", i, i, d2[i*n+i])
		}
		for j := i + 1; j < n; j++ {
			x := d2[i*n+j]
			if !(x >= 0) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("kmpe: pool: D2[%d][%d] = %v: want finite non-negative distances", i, j, x)
			}
			if x != d2[j*n+i] {
				return nil, fmt.Errorf("kmpe: pool: D2[%d][%d] = %v != D2[%d][%d] = %v: want a symmetric matrix", i, j, x, j, i, d2[j*n+i])
			}
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &Pool{n: n, d2: d2, median: medianAll(d2, n, workers)}, nil
}

// Len is the number of rows in the pool.
func (p *Pool) Len() int { return p.n }

// Estimate runs KM1/KM2 with the pool's rows mixture (as the mixture) and
// component (as the component), in that order. Rows may repeat; when the
// two lists together use every pool row exactly once, the pool's median is
// reused, otherwise the median of the selected rows' distances is
// computed. opt.Scaling is ignored: the pool's scaling is recorded. An
// estimate that would not fit in the memory available is refused as
// [Estimate] refuses it.
func (p *Pool) Estimate(ctx context.Context, mixture, component []int, opt Options) (*Result, error) {
	return p.estimate(ctx, mixture, component, opt, true)
}

// estimate is Estimate, with the memory check when check is set.
func (p *Pool) estimate(ctx context.Context, mixture, component []int, opt Options, check bool) (*Result, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if len(mixture) == 0 {
		return nil, errors.New("kmpe: no mixture rows")
	}
	if len(component) == 0 {
		return nil, errors.New("kmpe: no component rows")
	}
	idx := make([]int, 0, len(mixture)+len(component))
	idx = append(idx, mixture...)
	idx = append(idx, component...)
	seen := make([]bool, p.n)
	partition := len(idx) == p.n
	for k, r := range idx {
		if r < 0 || r >= p.n {
			return nil, fmt.Errorf("kmpe: row index %d (position %d) outside the pool's %d rows", r, k, p.n)
		}
		if seen[r] {
			partition = false
		}
		seen[r] = true
	}
	n := len(idx)
	opt = opt.withDefaults(n)
	opt.Scaling = p.scaling
	if check {
		pn, w := saturating(p.n), saturating(opt.Workers)
		need := func(m uint64) uint64 { return poolEstimateBytes(m, pn, w, partition) }
		release, err := gate.admit(ctx, need(saturating(n)), n, func(avail uint64) int { return maxRowsFor(need, avail, n) }, true)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	if partition {
		// Every pool row once: the pool's median, widths and kernels.
		src := &poolKernels{p: p, idx: idx, nMix: len(mixture), workers: opt.Workers}
		res, err := runWith(ctx, src, n, len(mixture), p.median, opt)
		if err != nil {
			return nil, err
		}
		res.ConstantFeatures, res.RawExponent = slices.Clone(p.constant), p.rawExp
		return res, nil
	}
	d2 := gatherSquare(p.d2, p.n, idx, opt.Workers)
	res, err := run(ctx, d2, n, len(mixture), medianAll(d2, n, opt.Workers), opt)
	if err != nil {
		return nil, err
	}
	res.ConstantFeatures, res.RawExponent = slices.Clone(p.constant), p.rawExp
	return res, nil
}

// Cache keeps the pools of the last few pooled row sets seen, so that
// estimates on splits of the same data set share the distances. A pooled
// row set is recognised as a multiset: the pool is built from the rows in
// a canonical order (sorted by their bits), so an estimate does not depend
// on whether the pool was cached or on the order of the splits. A Cache is
// safe for concurrent use.
type Cache struct {
	mu       sync.Mutex
	capacity int
	entries  []*cacheEntry // most recently used last
}

type cacheEntry struct {
	key  string
	rows [][]float64 // canonical order
	pool *Pool
	once sync.Once
	err  error
}

// NewCache returns a cache of at most capacity pools (at least 1); a pool
// of n rows holds 8 n^2 bytes.
func NewCache(capacity int) *Cache { return &Cache{capacity: max(1, capacity)} }

// Estimate is [Estimate] with the distances taken from (or added to) the
// cache. Its result equals Estimate's up to the rounding of the scaling
// statistics (summed in the canonical row order here); for raw features
// they are identical. An estimate that would not fit in the memory
// available, with the pool it adds to the cache, is refused before
// anything of its size is allocated (and nothing is cached).
func (c *Cache) Estimate(ctx context.Context, mixture, component [][]float64, opt Options) (*Result, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	pooled, err := poolRows(mixture, component)
	if err != nil {
		return nil, err
	}
	s := opt.Scaling.orDefault()
	order := make([]int, len(pooled))
	for i := range order {
		order[i] = i
	}
	keys := make([][]byte, len(pooled))
	for i, r := range pooled {
		b := make([]byte, 8*len(r))
		for j, x := range r {
			if x == 0 {
				x = 0 // -0 and +0 are the same feature value
			}
			binary.BigEndian.PutUint64(b[8*j:], math.Float64bits(x)^signFlip(x))
		}
		keys[i] = b
	}
	slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(keys[a], keys[b]) })
	h := fnv.New128a()
	fmt.Fprintf(h, "%s %d %d|", s, len(pooled), len(pooled[0]))
	canon := make([][]float64, len(pooled))
	for k, i := range order {
		h.Write(keys[i])
		canon[k] = pooled[i]
	}
	key := string(h.Sum(nil))
	// A pool not yet cached is admitted with the estimate on it: both are
	// allocated here.
	release, admitted := func() {}, false
	e := c.lookup(key)
	if e == nil {
		n, d, w := saturating(len(pooled)), saturating(len(pooled[0])), saturating(opt.withDefaults(len(pooled)).Workers)
		need := func(m uint64) uint64 { return cacheBytes(m, d, w) }
		var err error
		if release, err = gate.admit(ctx, need(n), len(pooled), func(avail uint64) int { return maxRowsFor(need, avail, len(pooled)) }, true); err != nil {
			return nil, err
		}
		e, admitted = c.entry(key), true
	}
	defer func() { release() }()
	e.once.Do(func() {
		rows := make([][]float64, len(canon))
		for k, r := range canon {
			rows[k] = slices.Clone(r)
		}
		e.rows = rows
		workers := opt.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		e.pool, e.err = newPool(rows, s, workers)
	})
	if e.err != nil {
		return nil, e.err
	}
	if !sameRows(e.rows, canon) {
		// A hash collision: compute without the cache (and without this
		// reservation, which Estimate makes again).
		release()
		release = func() {}
		return Estimate(ctx, mixture, component, opt)
	}
	pos := make([]int, len(pooled)) // pooled row -> pool row
	for k, i := range order {
		pos[i] = k
	}
	return e.pool.estimate(ctx, pos[:len(mixture)], pos[len(mixture):], opt, !admitted)
}

// signFlip makes the bits of a float64 sort as the numbers do.
func signFlip(x float64) uint64 {
	if math.Signbit(x) {
		return ^uint64(0)
	}
	return 1 << 63
}

func sameRows(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// lookup returns the entry for key (marking it the most recently used), or
// nil.
func (c *Cache) lookup(key string) *cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if e.key == key {
			c.entries = append(append(c.entries[:k], c.entries[k+1:]...), e)
			return e
		}
	}
	return nil
}

// entry returns the entry for key, adding an empty one (evicting the least
// recently used beyond capacity) when absent.
func (c *Cache) entry(key string) *cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if e.key == key {
			c.entries = append(append(c.entries[:k], c.entries[k+1:]...), e)
			return e
		}
	}
	e := &cacheEntry{key: key}
	c.entries = append(c.entries, e)
	if len(c.entries) > c.capacity {
		c.entries = c.entries[1:]
	}
	return e
}

// poolKernels is the kernel source of a split that uses every pool row
// once (idx: split position -> pool row, the nMix mixture rows first).
// Row sums: a pool row's sum over all rows is computed once per width;
// per split only the component columns are exponentiated (n x M instead
// of n x n), the mixture sum being the rest. The kernel: gathered from the
// pool's, computed once per chosen width.
type poolKernels struct {
	p       *Pool
	idx     []int
	nMix    int
	workers int
}

func (k *poolKernels) sums(index int, sigma float64) (sm, sc []float64) {
	p, n := k.p, len(k.idx)
	all := p.rowSumsAt(index, sigma, k.workers)
	comp := k.idx[k.nMix:]
	den := 2 * sigma * sigma
	sm, sc = make([]float64, n), make([]float64, n)
	bufs := make([][]float64, max(1, k.workers))
	parallelRows(n, k.workers, func(w, lo, hi int) {
		if bufs[w] == nil {
			bufs[w] = make([]float64, len(comp))
		}
		buf := bufs[w]
		for a := lo; a < hi; a++ {
			row := p.d2[k.idx[a]*p.n : (k.idx[a]+1)*p.n]
			for j, r := range comp {
				buf[j] = row[r]
			}
			vk.expNeg(buf, buf, den) // portmath.Exp's values, summed in order
			var b float64
			for _, kv := range buf {
				b += kv
			}
			sm[a], sc[a] = all[k.idx[a]]-b, b
		}
	})
	return sm, sc
}

func (k *poolKernels) kernel(index int, sigma float64) []float64 {
	return gatherSquare(k.p.kernelAt(index, sigma, k.workers), k.p.n, k.idx, k.workers)
}

// gatherSquare returns the len(idx) x len(idx) matrix M[a][b] =
// src[idx[a]][idx[b]] of an srcN x srcN row-major matrix.
func gatherSquare(src []float64, srcN int, idx []int, workers int) []float64 {
	n := len(idx)
	out := make([]float64, n*n)
	parallelRows(n, workers, func(_, lo, hi int) {
		for a := lo; a < hi; a++ {
			row := src[idx[a]*srcN : (idx[a]+1)*srcN]
			dst := out[a*n : (a+1)*n]
			for b, r := range idx {
				dst[b] = row[r]
			}
		}
	})
	return out
}

// rowSumsAt returns the sums of the pool's kernel rows at sigma =
// sqrt(median) x WidthFactors[s], computing them on first use.
func (p *Pool) rowSumsAt(s int, sigma float64, workers int) []float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rowSums[s] == nil {
		den := 2 * sigma * sigma
		sums := make([]float64, p.n)
		bufs := make([][]float64, max(1, workers))
		parallelRows(p.n, workers, func(w, lo, hi int) {
			if bufs[w] == nil {
				bufs[w] = make([]float64, p.n)
			}
			buf := bufs[w]
			for i := lo; i < hi; i++ {
				vk.expNeg(buf, p.d2[i*p.n:(i+1)*p.n], den) // portmath.Exp's values
				var a float64
				for _, kv := range buf {
					a += kv
				}
				sums[i] = a
			}
		})
		p.rowSums[s] = sums
	}
	return p.rowSums[s]
}

// kernelAt returns the pool's kernel at sigma = sqrt(median) x
// WidthFactors[index], computing it when it is not among the kept ones.
func (p *Pool) kernelAt(index int, sigma float64, workers int) []float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, pk := range p.kernels {
		if pk.index == index {
			p.kernels = append(append(p.kernels[:i:i], p.kernels[i+1:]...), pk)
			return pk.k
		}
	}
	den := 2 * sigma * sigma
	k := make([]float64, p.n*p.n)
	parallelRows(p.n, workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			vk.expNeg(k[i*p.n:(i+1)*p.n], p.d2[i*p.n:(i+1)*p.n], den)
		}
	})
	p.kernels = append(p.kernels, pooledKernel{index: index, k: k})
	if len(p.kernels) > keptKernels {
		p.kernels = p.kernels[1:]
	}
	return k
}
