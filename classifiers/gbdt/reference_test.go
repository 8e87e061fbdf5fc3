package gbdt

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/internal/portmath"
	"gonum.org/v1/gonum/mat"
)

// refSplit is a split of the reference grower, in raw terms.
type refSplit struct {
	feature   int
	threshold float64
	gain      float64
	found     bool
}

type refLeaf struct {
	rows  []int
	depth int
	node  int
	seq   int
	best  refSplit
}

// refTrain is a deliberately naive leaf-wise booster, written from the
// definitions alone: no bins, no histograms, no subtraction. Candidate
// thresholds are the midpoints between consecutive distinct values of a
// feature over all training rows (what the histogram booster's edges are
// when a feature has at most Bins distinct values); for each leaf, feature
// and threshold the child sums are recomputed from the rows. It returns the
// trees (same node numbering as Train) and the final training margins.
//
// Splits that tie in exact arithmetic are common here (rows of a leaf with
// the same label share their gradient, so different row sets can have the
// same sums), and the two boosters, summing in other orders, may break a
// tie either way. So where follow (Train's trees) split a node otherwise,
// and that split's gain, computed here, equals the best one's to 1e-12,
// the reference takes follow's split (and counts it in ties): it defers
// to Train on ties and on nothing else.
func refTrain(x *mat.Dense, y []bool, p Params, follow []Tree) (trees []Tree, raw []float64, ties int) {
	n, d := x.Dims()
	pos := 0
	for _, v := range y {
		if v {
			pos++
		}
	}
	rate := float64(pos) / float64(n)
	raw = make([]float64, n)
	for i := range raw {
		raw[i] = portmath.Log(rate / (1 - rate)) // the elementary functions are Train's: this test is of the trees
	}
	edges := make([][]float64, d)
	for f := range d {
		var vals []float64
		for i := range n {
			vals = append(vals, x.At(i, f))
		}
		slices.Sort(vals)
		vals = slices.Compact(vals)
		for i := 1; i < len(vals); i++ {
			edges[f] = append(edges[f], (vals[i-1]+vals[i])*0.5)
		}
	}
	grad, hess := make([]float64, n), make([]float64, n)
	sums := func(rows []int) (g, h float64) {
		for _, r := range rows {
			g += grad[r]
			h += hess[r]
		}
		return
	}
	// gainOf is the gain of splitting rows at feature f, threshold e (ok
	// false where the split breaks a constraint).
	gainOf := func(rows []int, f int, e float64) (gain float64, ok bool) {
		G, H := sums(rows)
		var left []int
		for _, r := range rows {
			if x.At(r, f) <= e {
				left = append(left, r)
			}
		}
		gl, hl := sums(left)
		gr, hr := G-gl, H-hl
		if len(left) < p.MinLeaf || len(rows)-len(left) < p.MinLeaf || hl < p.MinHessian || hr < p.MinHessian {
			return 0, false
		}
		return gl*gl/(hl+p.Lambda) + gr*gr/(hr+p.Lambda) - G*G/(H+p.Lambda), true
	}
	best := func(l *refLeaf) {
		_, H := sums(l.rows)
		l.best = refSplit{gain: p.MinGain}
		if len(l.rows) < 2*p.MinLeaf || H < 2*p.MinHessian || (p.MaxDepth > 0 && l.depth >= p.MaxDepth) {
			return
		}
		for f := range d {
			for _, e := range edges[f] {
				if gain, ok := gainOf(l.rows, f, e); ok && gain > l.best.gain {
					l.best = refSplit{feature: f, threshold: e, gain: gain, found: true}
				}
			}
		}
	}
	for ti := range p.Rounds {
		for i := range n {
			pr := portmath.Sigmoid(raw[i])
			grad[i] = pr
			if y[i] {
				grad[i]--
			}
			hess[i] = pr * (1 - pr)
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		root := &refLeaf{rows: all}
		best(root)
		nodes := []Node{{Feature: -1, Rows: int32(n)}}
		open := []*refLeaf{root}
		leaves := []*refLeaf{root}
		seq := 1
		for len(leaves) < p.Leaves {
			// The open leaf with the largest gain, the oldest on ties.
			bi := -1
			for i, l := range open {
				if l.best.found && (bi < 0 || l.best.gain > open[bi].best.gain) {
					bi = i
				}
			}
			if bi < 0 {
				break
			}
			l := open[bi]
			open = slices.Delete(open, bi, bi+1)
			if ti < len(follow) && l.node < len(follow[ti].Nodes) {
				if fn := follow[ti].Nodes[l.node]; fn.Feature >= 0 && (int(fn.Feature) != l.best.feature || fn.Threshold != l.best.threshold) {
					if g, ok := gainOf(l.rows, int(fn.Feature), fn.Threshold); ok && math.Abs(g-l.best.gain) <= 1e-12*math.Abs(l.best.gain) {
						l.best.feature, l.best.threshold = int(fn.Feature), fn.Threshold
						ties++
					}
				}
			}
			var lr, rr []int
			for _, r := range l.rows {
				if x.At(r, l.best.feature) <= l.best.threshold {
					lr = append(lr, r)
				} else {
					rr = append(rr, r)
				}
			}
			a := &refLeaf{rows: lr, depth: l.depth + 1, node: len(nodes), seq: seq}
			b := &refLeaf{rows: rr, depth: l.depth + 1, node: len(nodes) + 1, seq: seq + 1}
			seq += 2
			nodes[l.node].Feature = int32(l.best.feature)
			nodes[l.node].Threshold = l.best.threshold
			nodes[l.node].Left, nodes[l.node].Right = int32(a.node), int32(b.node)
			nodes = append(nodes, Node{Feature: -1, Rows: int32(len(lr))}, Node{Feature: -1, Rows: int32(len(rr))})
			leaves = slices.DeleteFunc(leaves, func(m *refLeaf) bool { return m == l })
			leaves = append(leaves, a, b)
			best(a)
			best(b)
			open = append(open, a, b)
			slices.SortStableFunc(open, func(u, v *refLeaf) int { return u.seq - v.seq })
		}
		for _, l := range leaves {
			g, h := sums(l.rows)
			v := -g / (h + p.Lambda) * p.LearningRate
			nodes[l.node].Value = v
			for _, r := range l.rows {
				raw[r] += v
			}
		}
		trees = append(trees, Tree{Nodes: nodes})
	}
	return trees, raw, ties
}

// TestAgainstReference: on data with fewer distinct values per feature than
// bins (so that histogram bins are exact), Train grows the same trees as the
// naive reference (same splits, thresholds and leaf sizes, node by node; on
// splits tied in exact arithmetic the reference takes Train's, see refTrain) and
// the same margins up to summation order (1e-9), for several settings.
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n, d := 400, 4
	x := mat.NewDense(n, d, nil)
	y := make([]bool, n)
	for i := range n {
		s := 0.0
		for f := range d {
			v := math.Round(rng.NormFloat64()*8) / 8 // about 50 distinct values
			x.Set(i, f, v)
			s += v * float64(f+1) / 2
		}
		y[i] = rng.Float64() < portmath.Sigmoid(s)
	}
	for _, p := range []Params{
		{Leaves: 8, LearningRate: 0.3, Rounds: 12, MinLeaf: 5, MinHessian: 1e-3, Bins: 255},
		{Leaves: 31, LearningRate: 0.1, Rounds: 8, MinLeaf: 3, MinHessian: 1e-3, Bins: 255, Lambda: 2, MinGain: 0.01},
		{Leaves: 31, LearningRate: 0.5, Rounds: 6, MinLeaf: 10, MinHessian: 0.5, Bins: 255, MaxDepth: 3},
	} {
		m, err := Train(context.Background(), x, y, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		trees, raw, ties := refTrain(x, y, p, m.Trees)
		for ti, tr := range m.Trees {
			a, b := tr.Nodes, trees[ti].Nodes
			if len(a) != len(b) {
				t.Fatalf("%+v: tree %d: %d nodes, reference %d", p, ti, len(a), len(b))
			}
			for k := range a {
				if a[k].Feature != b[k].Feature || a[k].Threshold != b[k].Threshold || a[k].Left != b[k].Left ||
					a[k].Rows != b[k].Rows || math.Abs(a[k].Value-b[k].Value) > 1e-9 {
					t.Fatalf("%+v: tree %d node %d: %+v, reference %+v", p, ti, k, a[k], b[k])
				}
			}
		}
		for i := range n {
			if got := m.Margin(x.RawRowView(i)); math.Abs(got-raw[i]) > 1e-9 {
				t.Fatalf("%+v: row %d margin %v, reference %v", p, i, got, raw[i])
			}
		}
		t.Logf("leaves %d: %d nodes in tree 0; %d splits tied (gains equal to 1e-12) that Train broke otherwise", p.Leaves,
			len(m.Trees[0].Nodes), ties)
	}
}
