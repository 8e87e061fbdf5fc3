package bounds

import "math"

// Bounds on the areas of a curve over a range of counts of latent
// positives [ka, kb], for the search of [Ranking.Bounds]: each table count
// is monotone in the count k (TP_U never falls as k grows, so TP never
// falls and FP never rises on the positive-based curves), so at every
// cut-off the point of any k in the range lies in the box spanned by its
// counts at ka and kb over their totals at ka and kb. The area of the sorted
// points is the integral of the line f through them; between two
// neighbours x_i <= x <= x_i+1, f(x) lies between y_i and y_i+1. Bounding
// the neighbours' boxes bounds f, and its integral bounds the area of every
// k of the range. For one k (ka = kb) the bounds are the area plus or minus
// the gaps of a staircase, about the width of one step of the curve.

// box is where the point of one cut-off can lie over a range of counts.
type box struct{ xl, xh, yl, yh float64 }

// intersect returns the part of b inside o.
func (b box) intersect(o box) box {
	return box{xl: max(b.xl, o.xl), xh: min(b.xh, o.xh), yl: max(b.yl, o.yl), yh: min(b.yh, o.yh)}
}

// rangeScratch holds the buffers of the range bounds.
type rangeScratch struct {
	boxes      []box // the boxes being bounded (a rangeCurve's)
	buf        []int
	keys, mins []float64
	s          scratch
}

// rangeCurve is one curve (lower or upper) of a ranking over a range of
// counts [ka, kb]: its tables at both ends, what builds them, and the boxes
// of its points (computed once, by boxes, for the ROC and the PR bounds).
type rangeCurve struct {
	m      *tableMaker
	ka, kb int
	ta, tb []Table
	lower  bool // the lower curve: theta = floor(T_lb k); the upper: ceil(T_ub k)

	// block is the number of consecutive cut-offs one box holds: 1 for the
	// boxes of the cut-offs (from ta and tb), more for the coarse boxes of
	// blocks (blockBoxes: no tables needed).
	block int

	ready      bool
	roc, pr    []box     // per cut-off or block; pr has the start of grouped ties first
	fpLo, fpHi []float64 // FP at kb and at ka (their bounds, per block): keys near the order of roc's xl and xh
}

// reset points rc at the range [ka, kb] with the tables ta and tb.
func (rc *rangeCurve) reset(ka, kb int, ta, tb []Table) {
	rc.ka, rc.kb, rc.ta, rc.tb, rc.block, rc.ready = ka, kb, ta, tb, 1, false
}

// resetBlocks points rc at the range [ka, kb] with boxes of block cut-offs
// each.
func (rc *rangeCurve) resetBlocks(ka, kb, block int) {
	rc.ka, rc.kb, rc.ta, rc.tb, rc.block, rc.ready = ka, kb, nil, nil, block, false
}

// tpAt is TP at cut-off c with k latent positives: the table's, without the
// table (see Ranking.table).
func (rc *rangeCurve) tpAt(c, k int) float64 {
	r := rc.m.r
	pu, u, cutU := float64(k), float64(r.nUnl), float64(r.unl[c])
	var theta float64
	if rc.lower {
		theta = math.Floor(float64(rc.m.tlb[c] * pu))
	} else {
		theta = math.Ceil(float64(rc.m.tub[c] * pu))
	}
	return float64(r.pos[c]) + max(min(cutU, theta), pu-(u-cutU))
}

// blockBoxes computes coarse boxes, one for each block of rc.block
// consecutive cut-offs, from the counts at the blocks' ends alone: TP grows
// down the ranking and with k, and so does the number m of instances at or
// above a cut-off, so over a block and the range TP lies in [TP(first, ka),
// TP(last, kb)], m in [m(first), m(last)] and FP = m - TP in [m(first) -
// TP(last, kb), m(last) - TP(first, ka)]; the totals P(k) and N(k) lie
// between their values at ka and kb. O(cut-offs / block).
func (rc *rangeCurve) blockBoxes() {
	r := rc.m.r
	n := len(r.cut)
	nb := (n + rc.block - 1) / rc.block
	rc.roc = growBoxes(rc.roc, nb)
	rc.pr = growBoxes(rc.pr, nb+1)[:0]
	rc.fpLo, rc.fpHi = growFloats(rc.fpLo, nb), growFloats(rc.fpHi, nb)
	u := float64(r.nUnl)
	pa, pb := float64(r.nPos+rc.ka), float64(r.nPos+rc.kb)
	na, nb2 := float64(r.nNeg)+u-float64(rc.ka), float64(r.nNeg)+u-float64(rc.kb)
	m := func(c int) float64 { return float64(r.pos[c] + r.neg[c] + r.unl[c]) }
	if m0 := m(0); r.ties == Grouped && m0 > 1 {
		tpa, tpb := rc.tpAt(0, rc.ka), rc.tpAt(0, rc.kb)
		rc.pr = append(rc.pr, box{xl: tpa / pb / m0, xh: min(tpb/pa/m0, 1), yl: tpa / m0, yh: min(tpb/m0, 1)})
	}
	for j := range nb {
		c1, c2 := j*rc.block, min((j+1)*rc.block, n)-1
		tpLo, tpHi := rc.tpAt(c1, rc.ka), rc.tpAt(c2, rc.kb)
		m1, m2 := m(c1), m(c2)
		fpLo, fpHi := max(0, m1-tpHi), m2-tpLo
		rc.fpLo[j], rc.fpHi[j] = fpLo, fpHi
		roc := box{xl: fpLo / na, xh: min(fpHi/nb2, 1), yl: tpLo / pb, yh: min(tpHi/pa, 1)}
		pr := box{xl: roc.yl, xh: roc.yh, yl: tpLo / m2, yh: min(tpHi/m1, 1)}
		// At each k, TP of any cut-off of the block lies between the
		// first's and the last's; where their regimes hold over the range,
		// those are monotone in k (see boxes), and so are the ratios below.
		loA, _, loB, _, ok1 := rc.tpEnds(c1)
		_, hiA, _, hiB, ok2 := rc.tpEnds(c2)
		if ok1 && ok2 {
			tight := box{
				xl: min((m1-hiA)/na, (m1-hiB)/nb2), xh: max((m2-loA)/na, (m2-loB)/nb2),
				yl: min(loA/pa, loB/pb), yh: max(hiA/pa, hiB/pb),
			}
			roc = roc.intersect(tight)
			pr = pr.intersect(box{xl: tight.yl, xh: tight.yh, yl: min(loA, loB) / m2, yh: max(hiA, hiB) / m1})
		}
		rc.roc[j] = roc
		rc.pr = append(rc.pr, pr)
	}
	ascend(rc.pr)
}

// ascend lowers each low end to the least low end after it and raises each
// high end to the greatest before it, so that the boxes ascend in x; it
// only widens them.
func ascend(bx []box) {
	for i := len(bx) - 2; i >= 0; i-- {
		bx[i].xl = min(bx[i].xl, bx[i+1].xl)
	}
	for i := 1; i < len(bx); i++ {
		bx[i].xh = max(bx[i].xh, bx[i-1].xh)
	}
}

// Regimes of a cut-off's surrogate true positives at a count k (Eq. 11):
// TP_U = cut_U where theta >= cut_U (all the unlabeled above the cut-off are
// latent positives), TP_U = k - |U| + cut_U where that exceeds theta (the
// latent positives below the cut-off do not fit), TP_U = theta otherwise.
const (
	regimeAll = iota
	regimeTheta
	regimeClamp
)

// regime returns the regime at count k of a cut-off with band value t and
// cutU unlabeled above it, of |U| = u.
func regime(t float64, k int, cutU, u float64, lower bool) int {
	theta := float64(t * float64(k))
	if lower {
		theta = math.Floor(theta)
	} else {
		theta = math.Ceil(theta)
	}
	switch {
	case theta >= cutU:
		return regimeAll
	case float64(k)-u+cutU > theta:
		return regimeClamp
	}
	return regimeTheta
}

// tpEnds bounds TP of cut-off c at ka and at kb when the cut-off's regime
// is the same at both (ok): then TP at every count between is a monotone
// function of the count (see boxes) within these bounds at the ends, exact
// in the first and third regimes, within one count (and the rounding of T
// k) of kp + T k in the theta regime.
func (rc *rangeCurve) tpEnds(c int) (loA, hiA, loB, hiB float64, ok bool) {
	r := rc.m.r
	band := rc.m.tub
	if rc.lower {
		band = rc.m.tlb
	}
	u, cutU := float64(r.nUnl), float64(r.unl[c])
	g := regime(band[c], rc.ka, cutU, u, rc.lower)
	if g != regime(band[c], rc.kb, cutU, u, rc.lower) {
		return 0, 0, 0, 0, false
	}
	kp, t, ka, kb := float64(r.pos[c]), band[c], float64(rc.ka), float64(rc.kb)
	switch g {
	case regimeAll:
		return kp + cutU, kp + cutU, kp + cutU, kp + cutU, true
	case regimeClamp:
		a, b := kp+ka-u+cutU, kp+kb-u+cutU
		return a, a, b, b, true
	}
	const e = 1 + 1e-6
	return kp + float64(t*ka) - e, kp + float64(t*ka) + e, kp + float64(t*kb) - e, kp + float64(t*kb) + e, true
}

// boxes computes the ROC (FPR, TPR) and PR (recall, precision) boxes of
// every cut-off over the range, once.
//
// Between ka and kb each count moves by at most one a step: TP(k+1) - TP(k)
// is 0 or 1 (theta's floor or ceil of T k grows by at most 1 since T <= 1,
// the clamp's term by exactly 1), FP(k+1) - FP(k) is 0 or -1, and the
// totals P(k) = P(ka) + (k - ka), N(k) = N(ka) - (k - ka) move by one. So,
// with d = kb - ka, dTP = TP(kb) - TP(ka) and dFP = FP(ka) - FP(kb), the
// TPR (the recall) at ka + j is at most min(TP(kb), TP(ka) + j) / (P(ka) +
// j), largest at j = dTP: TP(kb) / (P(ka) + dTP); at least max(TP(ka),
// TP(kb) - d + j) / (P(ka) + j), smallest at j = d - dTP: TP(ka) / (P(kb) -
// dTP). The FPR likewise lies in [FP(kb) / (N(ka) - dFP), FP(ka) / (N(kb) +
// dFP)], the precision TP / (TP + FP) in [TP(ka), TP(kb)] over TP + FP, the
// instances at or above the cut-off, the same for every k.
//
// Where a cut-off's regime is the same at ka and kb it is the same at every
// count between (theta and the clamp's term both grow with k, the clamp's
// faster: theta - (k - |U| + cut_U) never grows), and each coordinate is a
// monotone function of k: in the first and third regimes TP and FP are
// constant or move by one per count, so TP/P(k), FP/N(k) and TP/(TP + FP)
// are ratios (a + b k)/(c + d k), monotone on the range; in the theta
// regime theta is within one of T k, and the ratios with T k -/+ 1 are
// monotone likewise. Their values at ka and kb then bound the point more
// tightly still.
//
// On a positive-based curve the recall ascends in rank order for every k;
// so that the PR boxes ascend too, each low end is lowered to the least low
// end after it and each high end raised to the greatest before it, which
// only widens them.
func (rc *rangeCurve) boxes() {
	if rc.ready {
		return
	}
	rc.ready = true
	if rc.block > 1 {
		rc.blockBoxes()
		return
	}
	ta, tb, r := rc.ta, rc.tb, rc.m.r
	n := len(ta)
	rc.roc = growBoxes(rc.roc, n)
	rc.pr = growBoxes(rc.pr, n+1)[:0]
	rc.fpLo, rc.fpHi = growFloats(rc.fpLo, n), growFloats(rc.fpHi, n)
	pa, pb := ta[0].TP+ta[0].FN, tb[0].TP+tb[0].FN
	na, nb := ta[0].FP+ta[0].TN, tb[0].FP+tb[0].TN
	if m := ta[0].TP + ta[0].FP; r.ties == Grouped && m > 1 {
		d := tb[0].TP - ta[0].TP
		rc.pr = append(rc.pr, box{xl: ta[0].TP / (pb - d) / m, xh: min(tb[0].TP/(pa+d)/m, 1), yl: ta[0].TP / m, yh: min(tb[0].TP/m, 1)})
	}
	for c := range n {
		tpa, tpb, fpa, fpb := ta[c].TP, tb[c].TP, ta[c].FP, tb[c].FP
		m := tpa + fpa
		dTP, dFP := tpb-tpa, fpa-fpb
		rc.fpLo[c], rc.fpHi[c] = fpb, fpa
		roc := box{xl: fpb / (na - dFP), xh: min(fpa/(nb+dFP), 1), yl: tpa / (pb - dTP), yh: min(tpb/(pa+dTP), 1)}
		pr := box{xl: roc.yl, xh: roc.yh, yl: tpa / m, yh: min(tpb/m, 1)}
		if loA, hiA, loB, hiB, ok := rc.tpEnds(c); ok {
			tight := box{
				xl: min((m-hiA)/na, (m-hiB)/nb), xh: max((m-loA)/na, (m-loB)/nb),
				yl: min(loA/pa, loB/pb), yh: max(hiA/pa, hiB/pb),
			}
			roc = roc.intersect(tight)
			pr = pr.intersect(box{xl: tight.yl, xh: tight.yh, yl: min(loA, loB) / m, yh: max(hiA, hiB) / m})
		}
		rc.roc[c] = roc
		rc.pr = append(rc.pr, pr)
	}
	ascend(rc.pr)
}

// span returns [min(a, b), max(a, b)].
func span(a, b float64) (lo, hi float64) { return min(a, b), max(a, b) }

// sortBy returns the box indices ordered by the value v gives: a counting
// sort by the whole number keys, which are in v's order but for a few
// boxes, then an insertion sort, which moves those.
func (s *rangeScratch) sortBy(keys []float64, v func(box) float64) []int {
	order := countingOrder(len(keys), func(i int) int { return int(keys[i]) }, &s.s, false)
	for i := 1; i < len(order); i++ {
		c := order[i]
		x := v(s.boxes[c])
		j := i
		for j > 0 && v(s.boxes[order[j-1]]) > x {
			order[j] = order[j-1]
			j--
		}
		order[j] = c
	}
	return order
}

// rocUpper bounds the largest ROC area over the range from above: f(x) <=
// R(m(x)), where m(x) = min{xh_c : xl_c >= x} (the next point lies at or
// before it; 1 if no box does) and R(z) = max{yh_c : xl_c <= z} (no point at
// or before z is higher); the start (0, 0) is exact.
func (s *rangeScratch) rocUpper(rc *rangeCurve) float64 {
	rc.boxes()
	s.boxes = rc.roc
	order := s.sortBy(rc.fpLo, func(b box) float64 { return b.xl })
	n := len(order)
	// mins[j]: the smallest xh from the j-th box in xl order on, or 1.
	s.mins = growFloats(s.mins, n+1)
	mins := s.mins
	mins[n] = 1
	for j := n - 1; j >= 0; j-- {
		mins[j] = min(mins[j+1], s.boxes[order[j]].xh)
	}
	area, prev, ptr, r := 0.0, 0.0, 0, 0.0
	for j := 0; j <= n; j++ {
		right := 1.0
		if j < n {
			right = s.boxes[order[j]].xl
		}
		if right > prev {
			m := mins[j]
			for ptr < n && s.boxes[order[ptr]].xl <= m {
				r = max(r, s.boxes[order[ptr]].yh)
				ptr++
			}
			area += float64((right - prev) * r)
			prev = right
		}
	}
	return area
}

// rocLower bounds the smallest ROC area over the range from below: f(x) >=
// L(p(x)), where p(x) = max{xl_c : xh_c <= x} (the previous point lies at or
// after it; 0, the start, if no box does) and L(z) = min{yl_c : xh_c >= z}
// over the boxes and the end (1, 1), or 0 at z = 0 (the start).
func (s *rangeScratch) rocLower(rc *rangeCurve) float64 {
	rc.boxes()
	s.boxes = rc.roc
	order := s.sortBy(rc.fpHi, func(b box) float64 { return b.xh })
	n := len(order)
	// mins[j]: the smallest yl from the j-th box in xh order on, or 1.
	s.mins = growFloats(s.mins, n+1)
	mins := s.mins
	mins[n] = 1
	for j := n - 1; j >= 0; j-- {
		mins[j] = min(mins[j+1], s.boxes[order[j]].yl)
	}
	area, p, ptr := 0.0, 0.0, 0
	for j := range n {
		b := s.boxes[order[j]]
		p = max(p, b.xl)
		right := 1.0
		if j+1 < n {
			right = s.boxes[order[j+1]].xh
		}
		if right <= b.xh || p <= 0 {
			continue
		}
		for ptr < n && s.boxes[order[ptr]].xh < p {
			ptr++
		}
		area += float64((right - b.xh) * mins[ptr])
	}
	return area
}

// prBound bounds the PR area over the range: from above (upper) by the
// integral of the largest yh of the boxes that can hold a neighbour of x,
// from below by that of the smallest yl over where every curve of the range
// has points on both sides. A box c can hold a neighbour of x only if xh_c
// >= p(x) = max{xl_d : xh_d <= x} and xl_c <= m(x) = min{xh_d : xl_d >= x};
// with ascending boxes these are the boxes lo(x)..hi(x), both ascending in
// x, so a sliding window gives the extreme in O(n).
func (s *rangeScratch) prBound(rc *rangeCurve, upper bool) float64 {
	rc.boxes()
	bx := rc.pr
	n := len(bx)
	// Breakpoints: every xl and xh, merged (both ascend).
	s.keys = growFloats(s.keys, 2*n)[:0]
	for i, j := 0, 0; i < n || j < n; {
		if j >= n || (i < n && bx[i].xl <= bx[j].xh) {
			s.keys = append(s.keys, bx[i].xl)
			i++
		} else {
			s.keys = append(s.keys, bx[j].xh)
			j++
		}
	}
	from, to := s.keys[0], s.keys[len(s.keys)-1]
	if !upper {
		from, to = bx[0].xh, bx[n-1].xl // where every curve of the range exists
	}
	win := window{max: upper, y: func(c int) float64 {
		if upper {
			return bx[c].yh
		}
		return bx[c].yl
	}, q: s.buf[:0]}
	area := 0.0
	a, b := -1, 0 // a: last box with xh <= x; b: first box with xl >= x
	lo, hi := 0, -1
	for t := 0; t+1 < len(s.keys); t++ {
		x0, x1 := s.keys[t], s.keys[t+1]
		if !(x1 > x0) || x1 <= from || x0 >= to {
			continue
		}
		for a+1 < n && bx[a+1].xh <= x0 {
			a++
		}
		for b < n && bx[b].xl < x1 {
			b++
		}
		p, m := math.Inf(-1), math.Inf(1)
		if a >= 0 {
			p = bx[a].xl
		}
		if b < n {
			m = bx[b].xh
		}
		for lo < n && bx[lo].xh < p {
			lo++
		}
		for hi+1 < n && bx[hi+1].xl <= m {
			hi++
			win.push(hi)
		}
		win.drop(lo)
		if win.empty() {
			continue
		}
		area += float64((min(x1, to) - max(x0, from)) * win.best())
	}
	s.buf = win.q
	return area
}

// window is a monotone queue of box indices giving the largest (max) or
// smallest y over a window whose ends only move forward.
type window struct {
	max bool
	y   func(int) float64
	q   []int
}

func (w *window) push(c int) {
	for len(w.q) > 0 {
		last := w.y(w.q[len(w.q)-1])
		if (w.max && last > w.y(c)) || (!w.max && last < w.y(c)) {
			break
		}
		w.q = w.q[:len(w.q)-1]
	}
	w.q = append(w.q, c)
}

func (w *window) drop(lo int) {
	i := 0
	for i < len(w.q) && w.q[i] < lo {
		i++
	}
	w.q = w.q[i:]
}

func (w *window) empty() bool   { return len(w.q) == 0 }
func (w *window) best() float64 { return w.y(w.q[0]) }

func growBoxes(b []box, n int) []box {
	if cap(b) < n {
		return make([]box, n)
	}
	return b[:n]
}

func growFloats(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}
