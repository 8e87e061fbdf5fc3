package experiments

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/metrics"
)

// MeasureConfig is the options of a measure set (registry Measures; an
// entry of the config's metrics: list).
type MeasureConfig interface {
	Plugin
	New() (Measure, error)
}

// Measure computes a cell's values of one or more metrics from what the
// stages before it produced: the evaluated scores of L and U, the true
// labels, the truths' scores, the true (alpha, beta) and the estimates.
type Measure interface {
	// Measure adds its values to out (Record.Metrics: metric name, then key;
	// the keys are those of package results: pu, truth:ID, direct:SOURCE,
	// ...). An error fails the cell; a value that cannot be computed is
	// better left out with a warning (CellRun.Warn).
	Measure(ctx context.Context, c *CellRun, out *Values) error
}

// RecoveryUser is implemented by the options of a measure that recovers
// metrics with the split's true alpha and beta (CellRun.Recoveries): a cell
// whose beta is not above its alpha then fails right after its split, before
// any classifier trains, with the error the recovery would give.
type RecoveryUser interface {
	UsesRecovery() bool
}

// Values collects a cell's metric values.
type Values struct {
	c      *CellRun
	m      map[string]map[string]float64
	curves map[string][][2]float64
}

// Set stores a value under metric and key. A value that is not finite
// (JSON has no NaN) is left out with a warning on the cell.
func (v *Values) Set(metric, key string, x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		v.c.Warn("%s/%s is %v: left out", metric, key, x)
		return
	}
	if v.m[metric] == nil {
		v.m[metric] = map[string]float64{}
	}
	v.m[metric][key] = x
}

// CellRun is one cell in the making: what the protocol, the classifier and
// the estimators produced, read by truths and measures, with the runner's
// services they may use.
type CellRun struct {
	Cell  *Cell
	Data  *Data
	Split Split
	// Rows are the rows of L then U (indices into Data); NL is |L|.
	Rows []int
	NL   int
	// Y holds the true labels of Rows.
	Y []bool
	// Alpha and Beta are the split's true proportions of positives in U
	// and in L.
	Alpha, Beta float64
	// Scores are the evaluated model's scores of Rows (the classifier of
	// the config's evaluate: setting, or a ranking source's scores).
	Scores []float64
	// Estimates holds the estimates that succeeded, in the config's order.
	Estimates []NamedEstimate
	// Truths holds the scores of the config's truths, in the config's order.
	Truths []TruthScores

	// Env is the runner's side of the contract (the supervised model's
	// scores, the cell's random streams).
	Env Env

	warnings []string

	pu         *metrics.Ranking
	puErr      error
	recs       []SourcedRecovery
	recsErr    error
	recsDone   bool
	puComputed bool
	truthRanks map[string][]NamedRanking // by the measure's default set

	trueRank     *metrics.Ranking
	trueRankErr  error
	trueRankDone bool
}

// NamedEstimate is an estimator's (alpha, beta) under its ID.
type NamedEstimate struct {
	ID          string
	Alpha, Beta float64
}

// TruthScores is a truth's scores of the cell's rows, under its ID.
type TruthScores struct {
	ID     string
	On     string // SetAuto, SetUnlabeled or SetAll
	Scores []float64
}

// SourcedRecovery is a recovery (package recovery) with the (alpha, beta)
// of a source: results.Real or an estimator's ID.
type SourcedRecovery struct {
	Source string
	*recovery.Recovery
}

// Warn adds a warning to the cell's record.
func (c *CellRun) Warn(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// PU returns the PU ranking of the evaluated scores: L read as positive, U
// as negative.
func (c *CellRun) PU() (*metrics.Ranking, error) {
	if !c.puComputed {
		c.puComputed = true
		pseudo := make([]bool, len(c.Scores))
		for i := range c.NL {
			pseudo[i] = true
		}
		c.pu, c.puErr = metrics.Rank(c.Scores, pseudo)
		if c.puErr != nil {
			c.puErr = fmt.Errorf("PU ranking: %w", c.puErr)
		}
	}
	return c.pu, c.puErr
}

// TrueRanking returns the evaluated scores ranked with the true labels on
// L u U, computed once per cell.
func (c *CellRun) TrueRanking() (*metrics.Ranking, error) {
	if !c.trueRankDone {
		c.trueRankDone = true
		c.trueRank, c.trueRankErr = metrics.Rank(c.Scores, c.Y)
	}
	return c.trueRank, c.trueRankErr
}

// Recoveries returns the recoveries of the PU ranking: with the true
// (alpha, beta) first (source results.Real), then with each estimate. A
// failure with the true values (beta <= alpha) is an error; a failure with
// an estimate leaves that estimate out with a warning.
func (c *CellRun) Recoveries() ([]SourcedRecovery, error) {
	if c.recsDone {
		return c.recs, c.recsErr
	}
	c.recsDone = true
	pu, err := c.PU()
	if err != nil {
		c.recsErr = err
		return nil, err
	}
	withTrue, err := recovery.New(pu, c.Alpha, c.Beta)
	if err != nil {
		c.recsErr = trueRecoveryError(c.Alpha, c.Beta, err)
		return nil, c.recsErr
	}
	c.recs = []SourcedRecovery{{Source: results.Real, Recovery: withTrue}}
	for _, e := range c.Estimates {
		r, err := recovery.New(pu, e.Alpha, e.Beta)
		if err != nil {
			c.Warn("recovery with the alpha %v, beta %v of estimator %s: %v: its recoveries are missing", e.Alpha, e.Beta, e.ID, err)
			continue
		}
		c.recs = append(c.recs, SourcedRecovery{Source: e.ID, Recovery: r})
	}
	return c.recs, nil
}

// trueRecoveryError is the error of a recovery with the split's true alpha
// and beta (beta - alpha <= 0: the protocol's setting excludes it).
func trueRecoveryError(alpha, beta float64, err error) error {
	return fmt.Errorf("recovery with the true alpha %v, beta %v: %w", alpha, beta, err)
}

// Subset returns the scores and true labels of a set of the cell's rows:
// SetUnlabeled (U) or SetAll (L u U).
func (c *CellRun) Subset(scores []float64, set string) ([]float64, []bool) {
	if set == SetUnlabeled {
		return scores[c.NL:], c.Y[c.NL:]
	}
	return scores, c.Y
}

// TruthRankings ranks every truth's scores with the true labels on its set
// (def stands for SetAuto: the measure's own set). A truth that cannot be
// ranked (one class only on that set) is left out with a warning. The
// rankings are computed once per cell and default set.
func (c *CellRun) TruthRankings(def string) []NamedRanking {
	if r, ok := c.truthRanks[def]; ok {
		return r
	}
	if c.truthRanks == nil {
		c.truthRanks = map[string][]NamedRanking{}
	}
	out := []NamedRanking{}
	for _, t := range c.Truths {
		set := t.On
		if set == SetAuto {
			set = def
		}
		s, y := c.Subset(t.Scores, set)
		r, err := metrics.Rank(s, y)
		if err != nil {
			c.Warn("%s truth on the %s set: %v", t.ID, setName(set), err)
			continue
		}
		out = append(out, NamedRanking{ID: t.ID, Ranking: r})
	}
	c.truthRanks[def] = out
	return out
}

// NamedRanking is a ranking under a truth's ID.
type NamedRanking struct {
	ID string
	*metrics.Ranking
}

func setName(set string) string {
	if set == SetAll {
		return "labeled + unlabeled"
	}
	return set
}

// SupervisedScores returns the scores of the cell's rows (Rows: L then U)
// from the cell's classifier trained on all rows of the data set with the
// true labels, out of bag (Env.SupervisedScores).
func (c *CellRun) SupervisedScores(ctx context.Context) ([]float64, error) {
	return c.Env.SupervisedScores(ctx, c.Rows)
}

// SetCurve records a curve under name (Record.Curves), downsampled to at
// most results.MaxCurvePoints points: evenly by index, the first and the
// last kept. A curve with a point that is not finite is left out with a
// warning.
func (v *Values) SetCurve(name string, pts [][2]float64) {
	for _, p := range pts {
		if math.IsNaN(p[0]) || math.IsNaN(p[1]) || math.IsInf(p[0], 0) || math.IsInf(p[1], 0) {
			v.c.Warn("curve %s has the point (%v, %v): left out", name, p[0], p[1])
			return
		}
	}
	if v.curves == nil {
		v.curves = map[string][][2]float64{}
	}
	v.curves[name] = Downsample(pts, results.MaxCurvePoints)
}

// Downsample keeps at most max points of pts, evenly spaced by index, the
// first and the last among them.
func Downsample(pts [][2]float64, max int) [][2]float64 {
	if len(pts) <= max {
		return append([][2]float64(nil), pts...)
	}
	out := make([][2]float64, max)
	for i := range max {
		out[i] = pts[i*(len(pts)-1)/(max-1)]
	}
	return out
}

// Rand returns a random stream for one purpose of the cell (a measure's
// bootstrap, say), derived from the cell's seed: the same in every run.
func (c *CellRun) Rand(purpose string) *rand.Rand {
	return c.Env.Streams().Rand("measure/" + purpose)
}

// NewValues returns an empty set of values of a cell: what the runner
// hands each measure (and a test of a measure builds).
func NewValues(c *CellRun) *Values {
	return &Values{c: c, m: map[string]map[string]float64{}}
}

// Metrics returns the values set so far: metric name, then key.
func (v *Values) Metrics() map[string]map[string]float64 { return v.m }

// Curves returns the curves set so far, by name.
func (v *Values) Curves() map[string][][2]float64 { return v.curves }
