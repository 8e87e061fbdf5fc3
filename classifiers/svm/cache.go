package svm

// kernelCache serves kernel rows K(x_i, .) over all points, computing a row
// on first use and keeping the most recently used rows within a byte
// budget (least recently used rows are evicted, as LIBSVM's cache does).
// When a dense row is computed, its entries K(x_i, x_j) for rows j already
// cached are copied from K(x_j, x_i), which is bit-identical (see points),
// so the values never depend on the budget or on the order rows were
// requested in; only the work does.
type kernelCache struct {
	pts  *points
	kf   kernelFunc
	rows [][]float64 // rows[i], nil when not cached
	// LRU list of the cached rows: head is the most recent.
	prev, next []int32
	head, tail int32
	cached     int
	capRows    int
	free       [][]float64 // evicted rows' storage, for reuse
	// scratch
	js   []int32
	outs []float64
	buf  []float64
	// values counts kernel values computed (not copied); madds and exps
	// the multiply-adds and exponentials spent on them (the flop
	// estimate).
	values, madds, exps int64
}

func newKernelCache(pts *points, kf kernelFunc, budgetBytes int64) *kernelCache {
	n := pts.n
	capRows := n
	if per := int64(8 * n); per > 0 && budgetBytes/per < int64(n) {
		// At least two rows: an SMO step uses two at once.
		capRows = max(2, int(budgetBytes/per))
	}
	c := &kernelCache{
		pts: pts, kf: kf, rows: make([][]float64, n),
		prev: make([]int32, n), next: make([]int32, n), head: -1, tail: -1,
		capRows: capRows,
		js:      make([]int32, 0, n), outs: make([]float64, n), buf: make([]float64, pts.d),
	}
	return c
}

// unlink removes i from the LRU list.
func (c *kernelCache) unlink(i int32) {
	p, n := c.prev[i], c.next[i]
	if p >= 0 {
		c.next[p] = n
	} else {
		c.head = n
	}
	if n >= 0 {
		c.prev[n] = p
	} else {
		c.tail = p
	}
}

// pushFront makes i the most recently used row.
func (c *kernelCache) pushFront(i int32) {
	c.prev[i], c.next[i] = -1, c.head
	if c.head >= 0 {
		c.prev[c.head] = i
	}
	c.head = i
	if c.tail < 0 {
		c.tail = i
	}
}

// row returns K(x_i, x_j) for all points j. The slice stays valid until two
// more distinct rows have been requested (the budget holds at least two).
func (c *kernelCache) row(i int) []float64 {
	ii := int32(i)
	if r := c.rows[i]; r != nil {
		if c.head != ii {
			c.unlink(ii)
			c.pushFront(ii)
		}
		return r
	}
	var r []float64
	if c.cached == c.capRows {
		old := c.tail
		c.unlink(old)
		c.free = append(c.free, c.rows[old])
		c.rows[old] = nil
		c.cached--
	}
	if k := len(c.free); k > 0 {
		r, c.free = c.free[k-1], c.free[:k-1]
	} else {
		r = make([]float64, c.pts.n)
	}
	c.fill(i, r)
	c.rows[i] = r
	c.pushFront(ii)
	c.cached++
	return r
}

// fill computes row i into r.
func (c *kernelCache) fill(i int, r []float64) {
	p := c.pts
	sqi := p.sq[i]
	if p.sparse() {
		// All n dot products through the column lists, and all n
		// exponentials for RBF, cost less than gathering the cached
		// entries: one is in another row, a cache and TLB miss each
		// (~100 ns on a 30 MB cache against ~20 ns for an exponential).
		c.madds += int64(allDotsSparse(p, i, c.outs))
		c.values += int64(p.n)
		if c.kf.kind == Linear {
			copy(r, c.outs)
			return
		}
		for j, dot := range c.outs[:p.n] {
			r[j] = c.kf.value(dot, sqi, p.sq[j])
		}
		c.exps += int64(p.n)
		return
	}
	// Dense rows: a copied entry saves d multiply-adds (and an
	// exponential), more than its miss costs.
	js := c.js[:0]
	for j, rj := range c.rows {
		if rj != nil {
			r[j] = rj[i]
		} else {
			js = append(js, int32(j))
		}
	}
	outs := c.outs[:len(js)]
	dotsTo(p, i, p, js, outs, c.buf)
	for t, j := range js {
		r[j] = c.kf.value(outs[t], sqi, p.sq[j])
	}
	c.values += int64(len(js))
	c.madds += int64(len(js)) * int64(p.d)
	if c.kf.kind == RBF {
		c.exps += int64(len(js))
	}
}

// diag returns K(x_i, x_i) for every point, computed as any other entry.
func (c *kernelCache) diag() []float64 {
	p := c.pts
	d := make([]float64, p.n)
	for i := range d {
		d[i] = c.kf.value(p.sq[i], p.sq[i], p.sq[i])
	}
	return d
}
