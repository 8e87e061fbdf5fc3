package gbdt

import (
	"container/heap"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// entry is one histogram bin: the sums of the gradients and hessians of the
// node's rows in the bin, and their number.
type entry struct {
	g, h float64
	n    int32
}

// add counts one row of gradient g and hessian h into the bin.
func (e *entry) add(g, h float64) {
	e.g += g
	e.h += h
	e.n++
}

// split is a candidate split: rows whose bin of active feature `feature`
// is <= bin go left.
type split struct {
	gain    float64
	feature int // index into grower.active
	bin     int
	gL, hL  float64
	nL      int32
	found   bool
}

// leaf is a leaf of the tree being grown: its rows are idx[start:end].
type leaf struct {
	start, end int
	g, h       float64 // gradient and hessian sums of its rows
	depth      int
	node       int32   // its index in the tree's nodes
	seq        int     // creation order, the heap's tie-break
	hist       []entry // nil unless it may still be split
	best       split
}

func (l *leaf) rows() int32 { return int32(l.end - l.start) }

// grower holds the binned training data and the buffers reused by every
// round of one Train call.
type grower struct {
	p       Params
	n       int   // training rows
	active  []int // features with at least 2 bins, in column order
	edges   [][]float64
	nb      []int     // bins per active feature
	off     []int     // histogram offset of each active feature
	total   int       // histogram length
	bins    []uint8   // bins[a*n + i]: bin of row i of active feature a
	y       []float64 // 0/1 target per training row
	raw     []float64 // current margin per training row
	grad    []float64
	hess    []float64
	gOrd    []float64 // gradients of one node's rows in node order
	hOrd    []float64
	idx     []int32 // the rows of every leaf, each leaf a contiguous range
	scratch []int32
	pool    [][]entry
	fbest   [2][]split // per active feature: best split of each child
	workers int
	seq     int
}

func newGrower(x *mat.Dense, y []bool, rows []int, p Params) (*grower, error) {
	n := len(rows)
	_, d := x.Dims()
	raw := x.RawMatrix()
	g := &grower{p: p, n: n, workers: p.workers()}
	vals := make([]float64, n)
	for f := range d {
		for i, r := range rows {
			v := raw.Data[r*raw.Stride+f]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("gbdt: column %d, row %d is %v: features must be finite (impute or drop missing values first)", f, r, v)
			}
			vals[i] = v
		}
		e := binEdges(vals, p.Bins)
		if len(e) == 0 {
			continue // constant on the training rows: never split on
		}
		g.active = append(g.active, f)
		g.edges = append(g.edges, e)
		g.nb = append(g.nb, len(e)+1)
		g.off = append(g.off, g.total)
		g.total += len(e) + 1
	}
	g.bins = make([]uint8, len(g.active)*n)
	for a, f := range g.active {
		col := g.bins[a*n : (a+1)*n]
		e := g.edges[a]
		for i, r := range rows {
			col[i] = uint8(binOf(e, raw.Data[r*raw.Stride+f]))
		}
	}
	g.y = make([]float64, n)
	for i, r := range rows {
		if y[r] {
			g.y[i] = 1
		}
	}
	g.raw = make([]float64, n)
	g.grad, g.hess = make([]float64, n), make([]float64, n)
	g.gOrd, g.hOrd = make([]float64, n), make([]float64, n)
	g.idx, g.scratch = make([]int32, n), make([]int32, n)
	g.fbest[0], g.fbest[1] = make([]split, len(g.active)), make([]split, len(g.active))
	return g, nil
}

func (g *grower) getHist() []entry {
	if k := len(g.pool); k > 0 {
		h := g.pool[k-1]
		g.pool = g.pool[:k-1]
		return h
	}
	return make([]entry, g.total)
}

func (g *grower) putHist(h []entry) {
	if h != nil {
		g.pool = append(g.pool, h)
	}
}

// leafHeap orders leaves by gain, highest first; ties go to the leaf created
// first, so the growth order is a function of the data alone.
type leafHeap []*leaf

func (q leafHeap) Len() int { return len(q) }
func (q leafHeap) Less(i, j int) bool {
	if q[i].best.gain != q[j].best.gain {
		return q[i].best.gain > q[j].best.gain
	}
	return q[i].seq < q[j].seq
}
func (q leafHeap) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *leafHeap) Push(x any)   { *q = append(*q, x.(*leaf)) }
func (q *leafHeap) Pop() any {
	old := *q
	l := old[len(old)-1]
	*q = old[:len(old)-1]
	return l
}

// grow fits one tree to the current margins g.raw (leaf-wise: always split
// the leaf whose best split gains most, as LightGBM does, until the tree has
// p.Leaves leaves or no leaf can be split), adds its leaf values to g.raw and
// returns it.
func (g *grower) grow() Tree {
	p := g.p
	// Gradient and hessian of the log-loss at the current margin:
	// prob = sigmoid(raw), g = prob - y, h = prob (1 - prob).
	for i, r := range g.raw {
		pr := Sigmoid(r)
		g.grad[i] = pr - g.y[i]
		g.hess[i] = pr * (1 - pr)
	}
	for i := range g.idx {
		g.idx[i] = int32(i)
	}
	root := &leaf{start: 0, end: g.n, node: 0, seq: 0}
	for i := range g.n {
		root.g += g.grad[i]
		root.h += g.hess[i]
	}
	g.seq = 1
	nodes := []Node{{Feature: -1, Rows: int32(g.n)}}
	all := []*leaf{root}
	var q leafHeap
	if g.maySplit(root, 1) {
		root.hist = g.getHist()
		g.histograms(root, nil, nil)
		if root.best.found {
			heap.Push(&q, root)
		} else {
			g.putHist(root.hist)
			root.hist = nil
		}
	}
	nLeaves := 1
	for nLeaves < p.Leaves && q.Len() > 0 {
		l := heap.Pop(&q).(*leaf)
		s := l.best
		a := s.feature
		mid := g.partition(l, a, s.bin)
		left := &leaf{start: l.start, end: mid, g: s.gL, h: s.hL, depth: l.depth + 1, seq: g.seq}
		right := &leaf{start: mid, end: l.end, g: l.g - s.gL, h: l.h - s.hL, depth: l.depth + 1, seq: g.seq + 1}
		g.seq += 2
		left.node, right.node = int32(len(nodes)), int32(len(nodes)+1)
		nd := &nodes[l.node]
		nd.Feature, nd.Threshold = int32(g.active[a]), g.edges[a][s.bin]
		nd.Left, nd.Right = left.node, right.node
		nodes = append(nodes, Node{Feature: -1, Rows: left.rows()}, Node{Feature: -1, Rows: right.rows()})
		all = append(all, left, right)
		nLeaves++

		small, large := left, right
		if right.rows() < left.rows() {
			small, large = right, left
		}
		if g.maySplit(small, nLeaves) || g.maySplit(large, nLeaves) {
			// Histogram subtraction (Ke et al. 2017, Sec. 2): build the
			// smaller child's histogram from its rows, and get the larger's
			// as parent - smaller in the parent's buffer.
			small.hist, large.hist = g.getHist(), l.hist
			l.hist = nil
			g.histograms(small, large, large.hist)
			for _, c := range [2]*leaf{small, large} {
				if c.best.found && g.maySplit(c, nLeaves) {
					heap.Push(&q, c)
				} else {
					g.putHist(c.hist)
					c.hist = nil
				}
			}
		} else {
			g.putHist(l.hist)
			l.hist = nil
		}
	}
	for _, l := range q {
		g.putHist(l.hist)
		l.hist = nil
	}
	// Leaf values: the Newton step -G/(H + lambda), shrunk by the learning
	// rate (Friedman 2001's line search done by one Newton step, as in
	// XGBoost, LightGBM and scikit-learn).
	for _, l := range all {
		nd := &nodes[l.node]
		if nd.Feature >= 0 {
			continue
		}
		// Rounded before it is added to the margins (float64): else arm64
		// fuses the product into the sums below, and the training margins
		// would differ from the stored model's.
		v := float64(-l.g / (l.h + p.Lambda) * p.LearningRate)
		nd.Value = v
		for _, r := range g.idx[l.start:l.end] {
			g.raw[r] += v
		}
	}
	return Tree{Nodes: nodes}
}

// maySplit says whether a leaf could hold a split: enough rows and hessian
// for two children, depth below the limit, and room for another leaf.
func (g *grower) maySplit(l *leaf, nLeaves int) bool {
	p := g.p
	return nLeaves < p.Leaves && int(l.rows()) >= 2*p.MinLeaf && l.h >= 2*p.MinHessian &&
		(p.MaxDepth == 0 || l.depth < p.MaxDepth) && len(g.active) > 0
}

// partition reorders idx[l.start:l.end] stably, rows with bin <= b of
// active feature a first, and returns where the second part starts.
func (g *grower) partition(l *leaf, a, b int) int {
	col := g.bins[a*g.n : (a+1)*g.n]
	w, k := l.start, 0
	bb := uint8(b)
	for _, r := range g.idx[l.start:l.end] {
		if col[r] <= bb {
			g.idx[w] = r
			w++
		} else {
			g.scratch[k] = r
			k++
		}
	}
	copy(g.idx[w:l.end], g.scratch[:k])
	return w
}

// histograms fills small.hist from small's rows and finds small's best
// split; when large is not nil, it also turns parent (large's buffer, the
// parent's histogram) into large's histogram by subtracting small's, and
// finds large's best split. The work is split over features between
// g.workers goroutines; every bin is summed by one goroutine in row order
// and the per-feature bests are reduced in feature order, so the result does
// not depend on the number of workers.
func (g *grower) histograms(small, large *leaf, parent []entry) {
	rows := g.idx[small.start:small.end]
	for k, r := range rows {
		g.gOrd[k] = g.grad[r]
		g.hOrd[k] = g.hess[r]
	}
	gOrd, hOrd := g.gOrd[:len(rows)], g.hOrd[:len(rows)]
	hs := small.hist
	// Features are taken histFeatures at a time, their histograms filled
	// in one pass over the rows: each bin's sum is a chain of dependent
	// additions through memory (consecutive rows often share a bin), and
	// interleaving the chains of several features lets them overlap. Every
	// bin is still summed in row order.
	task := func(i int) {
		a0, a1 := i*histFeatures, min((i+1)*histFeatures, len(g.active))
		var h [histFeatures][]entry
		var col [histFeatures][]uint8
		for a := a0; a < a1; a++ {
			off, nb := g.off[a], g.nb[a]
			h[a-a0] = hs[off : off+nb]
			clear(h[a-a0])
			col[a-a0] = g.bins[a*g.n : (a+1)*g.n]
		}
		if a1-a0 == histFeatures {
			h0, h1, h2, h3 := h[0], h[1], h[2], h[3]
			c0, c1, c2, c3 := col[0], col[1], col[2], col[3]
			for k, r := range rows {
				gk, hk := gOrd[k], hOrd[k]
				h0[c0[r]].add(gk, hk)
				h1[c1[r]].add(gk, hk)
				h2[c2[r]].add(gk, hk)
				h3[c3[r]].add(gk, hk)
			}
		} else {
			for a := a0; a < a1; a++ {
				ha, ca := h[a-a0], col[a-a0]
				for k, r := range rows {
					ha[ca[r]].add(gOrd[k], hOrd[k])
				}
			}
		}
		for a := a0; a < a1; a++ {
			ha := h[a-a0]
			s := g.scan(ha, small)
			s.feature = a
			g.fbest[0][a] = s
			if large != nil {
				off, nb := g.off[a], g.nb[a]
				ph := parent[off : off+nb]
				for b := range ph {
					ph[b].g -= ha[b].g
					ph[b].h -= ha[b].h
					ph[b].n -= ha[b].n
				}
				s := g.scan(ph, large)
				s.feature = a
				g.fbest[1][a] = s
			}
		}
	}
	work := len(rows)*len(g.active) + g.total
	parallel(g.workers, (len(g.active)+histFeatures-1)/histFeatures, work, task)
	small.best = g.reduce(g.fbest[0])
	if large != nil {
		large.best = g.reduce(g.fbest[1])
	}
}

// histFeatures is how many features one pass over a leaf's rows fills.
const histFeatures = 4

// reduce returns the best of the per-feature splits, the first (lowest
// feature) among equal gains.
func (g *grower) reduce(fb []split) split {
	var best split
	for _, s := range fb {
		if s.found && (!best.found || s.gain > best.gain) {
			best = s
		}
	}
	return best
}

// scan finds the best split of one feature's histogram h for leaf l: the
// bin b maximising G_L^2/(H_L+lambda) + G_R^2/(H_R+lambda) - G^2/(H+lambda)
// over splits leaving at least MinLeaf rows and MinHessian hessian on each
// side, with a gain above MinGain; the lowest such bin on ties. Empty bins
// are skipped: they give the same split as the bin before them.
func (g *grower) scan(h []entry, l *leaf) split {
	p := g.p
	lam := p.Lambda
	G, H, N := l.g, l.h, l.rows()
	parent := G * G / (H + lam)
	best := split{gain: p.MinGain}
	var gl, hl float64
	var nl int32
	minLeaf := int32(p.MinLeaf)
	for b := 0; b < len(h)-1; b++ {
		e := h[b]
		if e.n == 0 {
			continue
		}
		gl += e.g
		hl += e.h
		nl += e.n
		if nl < minLeaf || hl < p.MinHessian {
			continue
		}
		hr := H - hl
		if N-nl < minLeaf || hr < p.MinHessian {
			break // the right side only shrinks from here
		}
		gr := G - gl
		gain := gl*gl/(hl+lam) + gr*gr/(hr+lam) - parent
		if gain > best.gain {
			best = split{gain: gain, bin: b, gL: gl, hL: hl, nL: nl, found: true}
		}
	}
	return best
}

// parallel runs task(0..tasks-1) on up to workers goroutines, or inline when
// the total work (in row-feature updates) is too small to repay starting
// goroutines.
func parallel(workers, tasks, work int, task func(int)) {
	const minWork = 1 << 15
	if workers <= 1 || tasks <= 1 || work < minWork {
		for i := range tasks {
			task(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, tasks) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= tasks {
					return
				}
				task(i)
			}
		})
	}
	wg.Wait()
}
