package classprior

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/internal/portmath"
)

// Products are rounded (float64) before they are added: the same bits on
// arm64, where Go fuses multiply-adds, as on amd64.

// maxBins bounds the number of histogram bins (occupied or not) over the
// range of both samples. The published code would allocate that many uniform
// components; a bin width that small relative to the range means the
// component sample is nearly constant, and the estimate would be meaningless.
const maxBins = 10_000_000

// emIterations is the number of EM iterations the published fixedCompsFit runs
// to fit the weights of the fixed uniform components. It only matters when a
// score lies exactly on an interior bin edge (then the point is shared by two
// closed intervals); otherwise one iteration reaches the relative frequencies.
const emIterations = 1000

// binWidth returns the bin width that MATLAB's histogram(x) chooses
// automatically (BinMethod 'auto', which the published densEst_hist reads
// back as BinWidth): for integer-valued data spanning at most 50 the integer
// rule (width 1), otherwise Scott's normal reference rule 3.5*std(x)/n^(1/3)
// (std with n-1) rounded by binpicker to a "nice" width {1,2,3,5,10}*10^k.
// Constant data get an error: no width is meaningful there.
func binWidth(x []float64) (float64, error) {
	if len(x) < 2 {
		return 0, errors.New("need at least 2 scores to choose a bin width")
	}
	lo, hi := slices.Min(x), slices.Max(x)
	if lo == hi {
		return 0, fmt.Errorf("all %d scores equal %v: no histogram bin width (Scott's rule) exists", len(x), lo)
	}
	// histcounts' autorule: integers over a small range use one bin per integer.
	const flintmax = 1 << 53
	if hi-lo <= 50 && hi <= flintmax/2 && lo >= -flintmax/2 && allIntegers(x) {
		return 1, nil
	}
	raw := 3.5 * stddev(x) / portmath.Cbrt(float64(len(x)))
	// binpicker: never narrower than the resolution of the data's scale.
	xscale := math.Max(math.Abs(lo), math.Abs(hi))
	raw = math.Max(raw, ulp(xscale))
	if !(hi-lo > math.Max(math.Sqrt(ulp(xscale)), math.SmallestNonzeroFloat64)) {
		return 0, fmt.Errorf("scores span only %g around %g: no histogram bin width exists", hi-lo, lo)
	}
	pow := pow10Floor(raw)
	rel := raw / pow // in [1, 10)
	switch {
	case rel < 1.5:
		return pow, nil
	case rel < 2.5:
		return 2 * pow, nil
	case rel < 4:
		return 3 * pow, nil
	case rel < 7.5:
		return 5 * pow, nil
	default:
		return 10 * pow, nil
	}
}

// pow10Floor returns 10^floor(log10(x)) for x > 0, computed so that an exact
// power of ten maps to itself (math.Log10 may land an ulp below an integer).
func pow10Floor(x float64) float64 {
	e := int(math.Floor(portmath.Log(x) * (1 / math.Ln10))) // math.Log10's formula
	for math.Pow10(e+1) <= x {
		e++
	}
	for math.Pow10(e) > x {
		e--
	}
	return math.Pow10(e)
}

// ulp is MATLAB's eps(x): the spacing of floats at |x|.
func ulp(x float64) float64 {
	x = math.Abs(x)
	if x == 0 {
		return math.SmallestNonzeroFloat64
	}
	return math.Nextafter(x, math.Inf(1)) - x
}

func allIntegers(x []float64) bool {
	for _, v := range x {
		if v != math.Round(v) {
			return false
		}
	}
	return true
}

// stddev is the sample standard deviation (n-1 in the denominator), as MATLAB's std.
func stddev(x []float64) float64 {
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += float64((v - m) * (v - m))
	}
	return math.Sqrt(ss / float64(len(x)-1))
}

// histogram is the density model of the published densEst_hist: K uniform
// components U[e_k, e_{k+1}] on the edges e_k = xmin + k*w, k = 0..K, with
// xmin, xmax taken over both samples and w the automatic bin width of the
// component sample; the mixture and the component sample each get their own
// weights on the same bins. Only bins that hold a point are stored, so a small
// width over a wide range costs nothing. A shifted histogram (Options.Shifts)
// starts its edges a fraction of w below the smallest score instead.
//
// The intervals are closed, as MATLAB's unifpdf: a point exactly on an
// interior edge lies in both neighbouring bins, and the weights are then the
// fixed point of the published EM (emIterations from equal weights), which
// splits such a point between the two bins in proportion to their weights.
type histogram struct {
	width float64
	xmin  float64
	nBins int   // K, including empty bins
	bin   []int // bin index k of each stored bin, increasing

	// Per stored bin i: points strictly inside [e_k, e_{k+1}] or on an edge
	// that no other bin shares (xmin, the last edge); and points on the edge
	// between stored bins i and i+1 (index i; only when they are adjacent).
	mixIn, compIn     []float64
	mixEdge, compEdge []float64

	a, p  []float64 // EM weights of the mixture and of the component sample
	n, n1 int       // sizes of the mixture and component samples
}

// newHistogram bins mixture (x) and component (x1) on the component's automatic width.
func newHistogram(x, x1 []float64) (*histogram, error) {
	w, err := binWidth(x1)
	if err != nil {
		return nil, fmt.Errorf("component sample: %w", err)
	}
	return newHistogramAt(x, x1, w, 0)
}

// newHistogramAt bins mixture (x) and component (x1) on bins of width w whose
// edges start shift*w below the smallest score of both samples (shift in
// [0, 1); 0 is the published histogram).
func newHistogramAt(x, x1 []float64, w, shift float64) (*histogram, error) {
	return newHistogramContext(context.Background(), x, x1, w, shift)
}

// newHistogramContext is newHistogramAt stopped by ctx: the binning asks it
// every interrupt.Every scores and the EM every iteration.
func newHistogramContext(ctx context.Context, x, x1 []float64, w, shift float64) (*histogram, error) {
	xmin := math.Min(slices.Min(x), slices.Min(x1)) - float64(shift*w)
	xmax := math.Max(slices.Max(x), slices.Max(x1))
	// The edges are MATLAB's colon xmin:w:(xmax+w): as many steps of w as fit,
	// allowing a little rounding, and never fewer than needed to cover xmax.
	q := (xmax + w - xmin) / w
	if q > maxBins {
		return nil, fmt.Errorf("bin width %g over the range [%g, %g] gives more than %d bins: the component sample is too concentrated for a histogram", w, xmin, xmax, maxBins)
	}
	k := int(math.Floor(q + 1e-10))
	for k < 1 || xmin+float64(float64(k)*w) < xmax {
		k++
	}
	h := &histogram{width: w, xmin: xmin, nBins: k, n: len(x), n1: len(x1)}
	var err error
	if err = h.fill(ctx, x, x1); err != nil {
		return nil, err
	}
	if h.a, err = emWeights(ctx, h.mixIn, h.mixEdge, h.n); err != nil {
		return nil, err
	}
	if h.p, err = emWeights(ctx, h.compIn, h.compEdge, h.n1); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *histogram) edge(k int) float64 { return h.xmin + float64(float64(k)*h.width) }

// locate returns the bin of v and whether v lies exactly on the edge it
// shares with the next bin (then it belongs to bins k and k+1).
func (h *histogram) locate(v float64) (k int, shared bool) {
	k = int(math.Floor((v - h.xmin) / h.width))
	k = max(0, min(k, h.nBins-1))
	// Correct the division's rounding against the edges themselves.
	for k > 0 && v < h.edge(k) {
		k--
	}
	for k < h.nBins-1 && v > h.edge(k+1) {
		k++
	}
	if k > 0 && v == h.edge(k) {
		return k - 1, true
	}
	if k < h.nBins-1 && v == h.edge(k+1) {
		return k, true
	}
	return k, false
}

// fill stores the occupied bins and the interior and edge counts of both
// samples (stopped by ctx: a map update per score, about 30 ns, so 10^7
// scores take a third of a second).
func (h *histogram) fill(ctx context.Context, x, x1 []float64) error {
	type key struct {
		k      int
		shared bool
	}
	type counts struct{ mix, comp float64 }
	cells := map[key]*counts{}
	add := func(v float64, mix bool) {
		k, s := h.locate(v)
		c := cells[key{k, s}]
		if c == nil {
			c = &counts{}
			cells[key{k, s}] = c
		}
		if mix {
			c.mix++
		} else {
			c.comp++
		}
	}
	tick := interrupt.New(ctx)
	for _, v := range x {
		add(v, true)
		if err := tick.Tick(); err != nil {
			return err
		}
	}
	for _, v := range x1 {
		add(v, false)
		if err := tick.Tick(); err != nil {
			return err
		}
	}
	occupied := map[int]bool{}
	for c := range cells {
		occupied[c.k] = true
		if c.shared {
			occupied[c.k+1] = true
		}
	}
	for k := range occupied {
		h.bin = append(h.bin, k)
	}
	slices.Sort(h.bin)
	m := len(h.bin)
	h.mixIn, h.compIn = make([]float64, m), make([]float64, m)
	h.mixEdge, h.compEdge = make([]float64, max(m-1, 0)), make([]float64, max(m-1, 0))
	for c, cnt := range cells {
		i, _ := slices.BinarySearch(h.bin, c.k)
		if c.shared {
			h.mixEdge[i] += cnt.mix
			h.compEdge[i] += cnt.comp
		} else {
			h.mixIn[i] += cnt.mix
			h.compIn[i] += cnt.comp
		}
	}
	return nil
}

// emWeights fits the weights of fixed, closed uniform components to points
// with counts in (inside bin i) and edge (on the edge between bins i and
// i+1), as the published fixedCompsFit does: EM from equal weights. Without
// edge points the answer is the relative frequency, reached in one step.
// ctx is asked before every iteration.
func emWeights(ctx context.Context, in, edge []float64, n int) ([]float64, error) {
	w := make([]float64, len(in))
	hasEdge := slices.ContainsFunc(edge, func(c float64) bool { return c > 0 })
	if !hasEdge {
		for i, c := range in {
			w[i] = c / float64(n)
		}
		return w, nil
	}
	for i := range w {
		w[i] = 1
	}
	next := make([]float64, len(w))
	for range emIterations {
		if err := interrupt.Check(ctx); err != nil {
			return nil, err
		}
		copy(next, in)
		for i, c := range edge {
			if c == 0 {
				continue
			}
			lo, hi := split(w[i], w[i+1])
			next[i] += float64(c * lo)
			next[i+1] += float64(c * hi)
		}
		for i := range w {
			w[i] = next[i] / float64(n)
		}
	}
	return w, nil
}

// split returns the fractions of a point shared by two bins of weights u and
// v that EM assigns to each: u/(u+v) and v/(u+v), each computed directly so
// that a tiny share is not lost to 1 - (a share close to 1); 1/2 each when
// both weights are zero.
func split(u, v float64) (lo, hi float64) {
	if u+v == 0 {
		return 0.5, 0.5
	}
	return u / (u + v), v / (u + v)
}
