package gbdt

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

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
func refTrain(x *mat.Dense, y []bool, p Params) ([]Tree, []float64) {
	n, d := x.Dims()
	pos := 0
	for _, v := range y {
		if v {
			pos++
		}
	}
	rate := float64(pos) / float64(n)
	raw := make([]float64, n)
	for i := range raw {
		raw[i] = math.Log(rate / (1 - rate))
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
	var trees []Tree
	grad, hess := make([]float64, n), make([]float64, n)
	sums := func(rows []int) (g, h float64) {
		for _, r := range rows {
			g += grad[r]
			h += hess[r]
		}
		return
	}
	best := func(l *refLeaf) {
		G, H := sums(l.rows)
		l.best = refSplit{gain: p.MinGain}
		if len(l.rows) < 2*p.MinLeaf || H < 2*p.MinHessian || (p.MaxDepth > 0 && l.depth >= p.MaxDepth) {
			return
		}
		for f := range d {
			for _, e := range edges[f] {
				var left []int
				for _, r := range l.rows {
					if x.At(r, f) <= e {
						left = append(left, r)
					}
				}
				gl, hl := sums(left)
				gr, hr := G-gl, H-hl
				if len(left) < p.MinLeaf || len(l.rows)-len(left) < p.MinLeaf || hl < p.MinHessian || hr < p.MinHessian {
					continue
				}
				gain := gl*gl/(hl+p.Lambda) + gr*gr/(hr+p.Lambda) - G*G/(H+p.Lambda)
				if gain > l.best.gain {
					l.best = refSplit{feature: f, threshold: e, gain: gain, found: true}
				}
			}
		}
	}
	for range p.Rounds {
		for i := range n {
			pr := 1 / (1 + math.Exp(-raw[i]))
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
	return trees, raw
}

// TestAgainstReference: on data with fewer distinct values per feature than
// bins (so that histogram bins are exact), Train grows the same trees as the
// naive reference (same splits, thresholds and leaf sizes, node by node) and
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
		y[i] = rng.Float64() < 1/(1+math.Exp(-s))
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
		trees, raw := refTrain(x, y, p)
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
		t.Logf("leaves %d: %d nodes in tree 0", p.Leaves, len(m.Trees[0].Nodes))
	}
}
