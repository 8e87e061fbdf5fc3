package bounds

import (
	"errors"
	"fmt"
	"math"
)

// ErrBeta is wrapped by every error about beta, the fraction of positives
// among the unlabeled instances: it must be a number in [0, 1).
var ErrBeta = errors.New("bounds: beta (the fraction of positives among the unlabeled) must be in [0, 1)")

// Table is the contingency table of one cut-off: the instances ranked at or
// above it are predicted positive. It counts every instance, the known ones
// by their label and the unlabeled ones by the surrogate assignment (paper
// Eq. 12). The counts are float64 so that the real-valued surrogate counts
// of [RealValued] fit; with [Rounded] they are whole numbers.
type Table struct {
	TP, FP, FN, TN float64
}

// TPR is TP / (TP + FN), the recall.
func (t Table) TPR() float64 { return t.TP / (t.TP + t.FN) }

// FPR is FP / (FP + TN).
func (t Table) FPR() float64 { return t.FP / (t.FP + t.TN) }

// Precision is TP / (TP + FP), and 0 when nothing is predicted positive
// (the published code's convention; every cut-off of a ranking predicts at
// least one instance positive, so it only matters for tables built by hand).
func (t Table) Precision() float64 {
	if t.TP+t.FP == 0 {
		return 0
	}
	return t.TP / (t.TP + t.FP)
}

// flip swaps the roles of the classes: TP <-> FP and FN <-> TN (App. C).
func (t Table) flip() Table { return Table{TP: t.FP, FP: t.TP, FN: t.TN, TN: t.FN} }

// Counting says how the surrogate counts of the unlabeled instances are
// computed.
type Counting int8

const (
	// Rounded is the paper's (Eqs. 10, 13) and the published code's:
	// P_U = floor(beta |U|) (Python's int(beta*nunl), so a product that
	// rounds to just below a whole number loses one), and theta =
	// floor(T_lb(r) P_U) for the lower curve, ceil(T_ub(r) P_U) for the
	// upper one.
	Rounded Counting = iota
	// RealValued drops the rounding: P_U = beta |U| and theta = T(r) P_U.
	// The derivations of App. B and the identities of the package doc are
	// exact for it.
	RealValued
)

func checkBeta(beta float64) error {
	if !(beta >= 0 && beta < 1) {
		return fmt.Errorf("bounds: beta = %v: %w", beta, ErrBeta)
	}
	return nil
}

// Tables returns the surrogate contingency tables of every cut-off at one
// beta (paper Sec. 4.1, Eqs. 10-13): the lower curve's
// tables use theta from band.Lower (the least upper bound on the FPR, the
// lower ROC and PR curves), the upper curve's from band.Upper. At cut-off
// rank r, with cut_U the unlabeled instances at ranks <= r,
//
//	TP_U = max(min(cut_U, theta), P_U - (|U| - cut_U))   (Eq. 11, the clamp)
//	FN_U = P_U - TP_U,  FP_U = cut_U - TP_U,  TN_U = |U| - P_U - FP_U
//
// and the known positives and negatives add their exact counts. O(n) after
// [Rank]. Errors: beta outside [0, 1), a malformed band, or a band with a
// rank beyond the ranking.
func (r *Ranking) Tables(band Band, beta float64, counting Counting) (lower, upper Curve, err error) {
	if err := checkBeta(beta); err != nil {
		return Curve{}, Curve{}, err
	}
	return r.tables(band, beta, counting)
}

// tables is Tables for any beta in [0, 1]: the negative-based bounds use
// beta' = 1 - beta, which is 1 for beta = 0.
func (r *Ranking) tables(band Band, beta float64, counting Counting) (lower, upper Curve, err error) {
	if counting != Rounded && counting != RealValued {
		return Curve{}, Curve{}, fmt.Errorf("bounds: unknown counting %d", counting)
	}
	m, err := r.tableMaker(band)
	if err != nil {
		return Curve{}, Curve{}, err
	}
	pu := float64(beta * float64(r.nUnl))
	if counting == Rounded {
		pu = math.Floor(pu)
	}
	if err := m.checkLatent(pu); err != nil {
		return Curve{}, Curve{}, fmt.Errorf("bounds: beta = %v leaves no negative", beta)
	}
	lower, upper = m.curves(counting)
	m.fill(lower.Tables, upper.Tables, pu, counting)
	return lower, upper, nil
}

// tableMaker builds the tables of one ranking and band at any number of
// latent positives P_U: the band evaluated at every cut-off once.
type tableMaker struct {
	r        *Ranking
	tlb, tub []float64
}

// tableMaker checks the band against the ranking and evaluates it at every
// cut-off.
func (r *Ranking) tableMaker(band Band) (*tableMaker, error) {
	if err := band.Check(); err != nil {
		return nil, err
	}
	if last := band.Ranks[len(band.Ranks)-1]; last >= r.n {
		return nil, fmt.Errorf("bounds: band has rank %d, beyond the last rank %d of a ranking of %d", last, r.n-1, r.n)
	}
	m := &tableMaker{r: r}
	m.tlb, m.tub = band.along(r)
	return m, nil
}

// checkLatent refuses a number of latent positives that leaves no negative
// (only reachable through beta = 1 with no known negative).
func (m *tableMaker) checkLatent(pu float64) error {
	if float64(m.r.nNeg)+float64(m.r.nUnl)-pu <= 0 {
		return fmt.Errorf("bounds: %v latent positives leave no negative", pu)
	}
	return nil
}

// curves returns a lower and an upper curve with room for every cut-off.
func (m *tableMaker) curves(counting Counting) (lower, upper Curve) {
	mk := func() Curve {
		return Curve{Tables: make([]Table, len(m.r.cut)), integer: counting == Rounded, grouped: m.r.ties == Grouped}
	}
	return mk(), mk()
}

// fill writes the tables of every cut-off at pu latent positives into lower
// and upper (one entry per cut-off; a nil one is skipped).
func (m *tableMaker) fill(lower, upper []Table, pu float64, counting Counting) {
	r := m.r
	for c := range r.cut {
		cutU := float64(r.unl[c])
		kp, kn := float64(r.pos[c]), float64(r.neg[c])
		if lower != nil {
			theta := float64(m.tlb[c] * pu)
			if counting == Rounded {
				theta = math.Floor(theta)
			}
			lower[c] = r.table(kp, kn, cutU, pu, theta)
		}
		if upper != nil {
			theta := float64(m.tub[c] * pu)
			if counting == Rounded {
				theta = math.Ceil(theta)
			}
			upper[c] = r.table(kp, kn, cutU, pu, theta)
		}
	}
}

// table is the table of one cut-off with kp known positives, kn known
// negatives and cutU unlabeled instances at or above it, P_U latent
// positives in all, theta of them wanted at or above it.
func (r *Ranking) table(kp, kn, cutU, pu, theta float64) Table {
	u := float64(r.nUnl)
	tpU := max(min(cutU, theta), pu-(u-cutU))
	fpU := cutU - tpU
	return Table{
		TP: kp + tpU,
		FN: float64(r.nPos) - kp + pu - tpU,
		FP: kn + fpU,
		TN: float64(r.nNeg) - kn + u - pu - fpU,
	}
}
