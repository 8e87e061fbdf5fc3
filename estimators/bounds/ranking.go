package bounds

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pueval/pueval/internal/interrupt"
)

// Label is what is known about one instance of a ranking.
type Label int8

const (
	// Unlabeled: the class is not known (the set U, which holds the latent
	// positives P_U and the latent negatives).
	Unlabeled Label = iota
	// Positive: a known positive (the set P_L).
	Positive
	// Negative: a known negative (the set N_L).
	Negative
)

func (l Label) String() string {
	switch l {
	case Unlabeled:
		return "unlabeled"
	case Positive:
		return "positive"
	case Negative:
		return "negative"
	}
	return fmt.Sprintf("Label(%d)", int8(l))
}

// Ties says where the cut-offs of a ranking are when scores tie.
type Ties int8

const (
	// Grouped (the default): tied scores move together. A cut-off is placed
	// only at the end of each tie group, so no table depends on the order of
	// the input, as in package metrics.
	Grouped Ties = iota
	// InputOrder: ties are broken by input order (a stable sort) and there is
	// one cut-off per position, as the published code does. For parity with
	// it.
	InputOrder
)

func (t Ties) String() string {
	switch t {
	case Grouped:
		return "grouped"
	case InputOrder:
		return "input-order"
	}
	return fmt.Sprintf("Ties(%d)", int8(t))
}

// ParseTies reads "grouped" or "input-order".
func ParseTies(s string) (Ties, error) {
	switch s {
	case "grouped":
		return Grouped, nil
	case "input-order":
		return InputOrder, nil
	}
	return 0, fmt.Errorf("bounds: ties %q: want grouped or input-order", s)
}

// Errors about the input of [Rank]; the errors wrap them.
var (
	ErrEmpty           = errors.New("bounds: empty ranking")
	ErrNoKnownPositive = errors.New("bounds: no known positive (the method bounds the rank CDF of the known positives)")
	ErrNoNegative      = errors.New("bounds: every instance is a known positive (no unlabeled or known negative instance)")
)

// Ranking is a PU (or PNU) sample sorted once by score, descending, with the
// counts that every table needs precomputed at each cut-off. It is
// immutable; [Ranking.Flip] shares its arrays.
type Ranking struct {
	ties Ties
	n    int
	// Sizes of P_L, N_L and U.
	nPos, nNeg, nUnl int
	// cut[c] is the 0-based rank of the last instance predicted positive at
	// cut-off c (one cut-off per position, or per tie-group end); pos[c],
	// neg[c], unl[c] count the known positives, known negatives and
	// unlabeled instances at ranks <= cut[c].
	cut, pos, neg, unl []int
	// posRanks and negRanks are the ranks of the known positives and
	// negatives, ascending: the position in input-order mode, the rank of
	// the end of the tie group in grouped mode (a cut-off inside a group
	// does not exist there, so neither does a finer rank).
	posRanks, negRanks []int
	// order[k] is the input index of the instance at rank k.
	order []int
}

// Rank sorts scores descending (stable, so that equal scores keep the input
// order; a radix sort, O(n)) and precomputes the counts at every cut-off
// (O(n)). It
// returns an error, never panics, for mismatched lengths, an empty input, a
// NaN or infinite score, a label outside {Unlabeled, Positive, Negative}, no
// known positive, or no instance that could be negative. It is RankContext
// with a context that is never done.
func Rank(scores []float64, labels []Label, ties Ties) (*Ranking, error) {
	return RankContext(context.Background(), scores, labels, ties)
}

// RankContext is [Rank] that stops, with an error wrapping ctx's cause,
// when ctx is done (checked every few thousand instances and before each
// pass of the sort: 10^7 scores take about a second).
func RankContext(ctx context.Context, scores []float64, labels []Label, ties Ties) (*Ranking, error) {
	if len(scores) != len(labels) {
		return nil, fmt.Errorf("bounds: %d scores but %d labels", len(scores), len(labels))
	}
	if len(scores) == 0 {
		return nil, ErrEmpty
	}
	if ties != Grouped && ties != InputOrder {
		return nil, fmt.Errorf("bounds: unknown ties mode %d", ties)
	}
	r := &Ranking{ties: ties, n: len(scores)}
	stopped := func(err error) (*Ranking, error) {
		return nil, fmt.Errorf("bounds: ranking %d scores: %w", len(scores), err)
	}
	tick := interrupt.New(ctx)
	if err := r.count(tick, scores, labels); err != nil {
		if ctx.Err() != nil {
			return stopped(err)
		}
		return nil, err
	}
	var err error
	if r.order, err = descendingOrder(ctx, scores); err != nil {
		return stopped(err)
	}
	if err := r.cutoffs(tick, scores, labels); err != nil {
		return stopped(err)
	}
	return r, nil
}

// count checks the scores and labels and counts the known positives, known
// negatives and unlabeled instances.
func (r *Ranking) count(tick *interrupt.Ticker, scores []float64, labels []Label) error {
	for i, s := range scores {
		if err := tick.Tick(); err != nil {
			return err
		}
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return fmt.Errorf("bounds: score %d is %v (want a finite number)", i, s)
		}
		switch labels[i] {
		case Positive:
			r.nPos++
		case Negative:
			r.nNeg++
		case Unlabeled:
			r.nUnl++
		default:
			return fmt.Errorf("bounds: label %d is %v (want Unlabeled, Positive or Negative)", i, labels[i])
		}
	}
	if r.nPos == 0 {
		return ErrNoKnownPositive
	}
	if r.nNeg+r.nUnl == 0 {
		return ErrNoNegative
	}
	return nil
}

// cutoffs places the cut-offs down r.order (one per position, or per tie
// group's end) with the counts at each, and the known instances' ranks.
func (r *Ranking) cutoffs(tick *interrupt.Ticker, scores []float64, labels []Label) error {
	ncut := r.n
	if r.ties == Grouped {
		ncut = 0
		for k := range r.order {
			if k == r.n-1 || scores[r.order[k+1]] != scores[r.order[k]] {
				ncut++
			}
		}
	}
	r.cut = make([]int, 0, ncut)
	r.pos = make([]int, 0, ncut)
	r.neg = make([]int, 0, ncut)
	r.unl = make([]int, 0, ncut)
	r.posRanks = make([]int, 0, r.nPos)
	r.negRanks = make([]int, 0, r.nNeg)
	var p, q, u int
	groupStart := 0 // first rank of the current tie group (grouped mode)
	for k, i := range r.order {
		if err := tick.Tick(); err != nil {
			return err
		}
		switch labels[i] {
		case Positive:
			p++
		case Negative:
			q++
		default:
			u++
		}
		if r.ties == Grouped && k < r.n-1 && scores[r.order[k+1]] == scores[i] {
			continue
		}
		// Every known instance of the group gets the group's end rank.
		for j := groupStart; j <= k; j++ {
			switch labels[r.order[j]] {
			case Positive:
				r.posRanks = append(r.posRanks, k)
			case Negative:
				r.negRanks = append(r.negRanks, k)
			}
		}
		groupStart = k + 1
		r.cut = append(r.cut, k)
		r.pos = append(r.pos, p)
		r.neg = append(r.neg, q)
		r.unl = append(r.unl, u)
	}
	return nil
}

// Flip returns the ranking with the known positives and known negatives
// swapped (App. C): bounds built on it from the rank CDF of the known
// negatives, at beta' = 1 - beta, are the negative-based bounds once their
// tables are flipped back ([Bounds.Flip], [Ranking.NegativeBounds]). O(1).
func (r *Ranking) Flip() *Ranking {
	f := *r
	f.nPos, f.nNeg = r.nNeg, r.nPos
	f.pos, f.neg = r.neg, r.pos
	f.posRanks, f.negRanks = r.negRanks, r.posRanks
	return &f
}

// N is the number of instances.
func (r *Ranking) N() int { return r.n }

// KnownPositives is |P_L|.
func (r *Ranking) KnownPositives() int { return r.nPos }

// KnownNegatives is |N_L|.
func (r *Ranking) KnownNegatives() int { return r.nNeg }

// Unlabeled is |U|.
func (r *Ranking) Unlabeled() int { return r.nUnl }

// Ties is the tie mode the ranking was built with.
func (r *Ranking) Ties() Ties { return r.ties }

// Cutoffs is the number of cut-offs (tables per bound): n in input-order
// mode, the number of distinct scores in grouped mode.
func (r *Ranking) Cutoffs() int { return len(r.cut) }

// CutoffRank is the 0-based rank of the last instance predicted positive at
// cut-off c: c itself in input-order mode.
func (r *Ranking) CutoffRank(c int) int { return r.cut[c] }

// PositiveRanks returns the ranks of the known positives, ascending (a
// copy): the points of their rank CDF.
func (r *Ranking) PositiveRanks() []int { return slices.Clone(r.posRanks) }

// Order returns the input indices in rank order (a copy): Order()[k] is the
// instance at rank k.
func (r *Ranking) Order() []int { return slices.Clone(r.order) }
