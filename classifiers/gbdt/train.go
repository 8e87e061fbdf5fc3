package gbdt

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/pueval/pueval/internal/oneclass"
	"github.com/pueval/pueval/internal/portmath"
	"gonum.org/v1/gonum/mat"
)

// ErrOneClass is returned (wrapped) when the training targets hold a single
// class: log-loss boosting has no finite initial score then. It is
// oneclass.Err in this package's words: errors.Is matches it against the
// one-class error of any package.
var ErrOneClass = oneclass.New("training targets need at least one row of each class")

// Model is a trained boosted ensemble. Its margin for a row x is
// Init + the sum over trees of the value of the leaf x reaches; the
// probability of class 1 is the logistic function of the margin.
type Model struct {
	// Init is the initial margin, the log-odds of the training base rate.
	Init float64
	// Trees in boosting order; their leaf values include the learning rate.
	Trees []Tree
	// D is the number of features the model expects.
	D int
	// Inputs is the number of features not constant on the training rows
	// (the ones a split may use).
	Inputs int
	// TrainRows is the number of training rows (listings).
	TrainRows int
	// TrainMSE is the mean squared error of the training rows'
	// probabilities against their 0/1 targets (Brier score), after the
	// last round.
	TrainMSE float64
}

// Tree is one regression tree: Nodes[0] is the root.
type Tree struct {
	Nodes []Node
}

// Node is a split or, when Feature < 0, a leaf.
type Node struct {
	// Feature is the column a split compares, -1 for a leaf.
	Feature int32
	// Left and Right index the children: rows with x[Feature] <= Threshold
	// go left.
	Left, Right int32
	// Threshold is the split's bin edge.
	Threshold float64
	// Value is a leaf's contribution to the margin (learning rate included).
	Value float64
	// Rows is the number of training rows that reached the node.
	Rows int32
}

// Leaves returns the number of leaves of the tree.
func (t *Tree) Leaves() int {
	k := 0
	for _, nd := range t.Nodes {
		if nd.Feature < 0 {
			k++
		}
	}
	return k
}

// value returns the leaf value reached by row x.
func (t *Tree) value(x []float64) float64 {
	i := int32(0)
	for {
		nd := &t.Nodes[i]
		if nd.Feature < 0 {
			return nd.Value
		}
		if x[nd.Feature] <= nd.Threshold {
			i = nd.Left
		} else {
			i = nd.Right
		}
	}
}

// Margin returns the model's raw score (log-odds of class 1) of the row x,
// which must have D features.
func (m *Model) Margin(x []float64) float64 {
	s := m.Init
	for i := range m.Trees {
		s += m.Trees[i].value(x)
	}
	return s
}

// MarginRows writes the margin of each listed row of x into out
// (len(out) = len(rows)). Trees are summed in order, so a margin is the
// same bits whatever else is predicted alongside it.
func (m *Model) MarginRows(x *mat.Dense, rows []int, out []float64) error {
	n, d := x.Dims()
	if d != m.D {
		return fmt.Errorf("gbdt: predict: %d features, the model has %d", d, m.D)
	}
	if len(out) != len(rows) {
		return fmt.Errorf("gbdt: predict: %d outputs for %d rows", len(out), len(rows))
	}
	for k, r := range rows {
		if r < 0 || r >= n {
			return fmt.Errorf("gbdt: predict: row %d out of range [0, %d)", r, n)
		}
		out[k] = m.Margin(x.RawRowView(r))
	}
	return nil
}

// Sigmoid is the logistic function 1/(1 + exp(-m)), the probability of
// class 1 for a margin m: portmath.Sigmoid, with the same bits on every
// CPU (math.Exp's differ between amd64 CPUs with and without FMA, and on
// arm64).
func Sigmoid(m float64) float64 { return portmath.Sigmoid(m) }

// Train fits a boosted model to the listed rows of x (all rows when rows is
// nil; a repeated row counts once per listing) with binary log-loss. It is
// deterministic: the same inputs give a bit-identical model for any
// p.Workers. It returns an error, never panics, on bad input: mismatched
// lengths, rows out of range, non-finite features (the error names the
// column), fewer than 2 rows or a single class (ErrOneClass), invalid
// parameters; and when ctx is done (wrapping its cause), checked once per
// round.
func Train(ctx context.Context, x *mat.Dense, y []bool, rows []int, p Params) (*Model, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("gbdt: %w", err)
	}
	if x == nil {
		return nil, errors.New("gbdt: nil feature matrix")
	}
	n, d := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("gbdt: %d targets for %d rows", len(y), n)
	}
	if rows == nil {
		rows = make([]int, n)
		for i := range rows {
			rows[i] = i
		}
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("gbdt: %d training rows: need at least 2", len(rows))
	}
	if len(rows) > math.MaxInt32 {
		return nil, fmt.Errorf("gbdt: %d training rows: at most %d supported", len(rows), math.MaxInt32)
	}
	pos := 0
	for _, r := range rows {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("gbdt: training row %d out of range [0, %d)", r, n)
		}
		if y[r] {
			pos++
		}
	}
	if pos == 0 || pos == len(rows) {
		return nil, fmt.Errorf("gbdt: %d of %d training targets positive: %w", pos, len(rows), ErrOneClass)
	}
	g, err := newGrower(x, y, rows, p)
	if err != nil {
		return nil, err
	}
	// Initial margin: the log-odds of the base rate (scikit-learn's and
	// LightGBM's boost_from_average), the constant that minimises the
	// log-loss.
	rate := float64(pos) / float64(len(rows))
	m := &Model{Init: portmath.Log(rate / (1 - rate)), D: d, Trees: make([]Tree, 0, p.Rounds), Inputs: len(g.active), TrainRows: len(rows)}
	for i := range g.raw {
		g.raw[i] = m.Init
	}
	for round := range p.Rounds {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("gbdt: round %d: %w", round, context.Cause(ctx))
		}
		m.Trees = append(m.Trees, g.grow())
	}
	for i, r := range g.raw {
		e := Sigmoid(r) - g.y[i]
		m.TrainMSE += float64(e * e) // rounded: no fused multiply-add on arm64
	}
	m.TrainMSE /= float64(len(rows))
	return m, nil
}
