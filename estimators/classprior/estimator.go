package classprior

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/pueval/pueval/estimators/kmpe"
	"github.com/pueval/pueval/internal/portmath"
	"gonum.org/v1/gonum/mat"
)

// Estimator estimates the class prior and the label noise of a PU sample.
// The estimators of this package are safe for concurrent use.
type Estimator interface {
	// Name is the registry name ("alphamax", "alphamax-n").
	Name() string
	// Estimate returns alpha (fraction of positives in the unlabeled set) and
	// beta (fraction of positives in the labeled set; 1 for a clean-label
	// method). AlphaMax uses rng only to subsample above
	// MaxLabeled/MaxUnlabeled; it may be nil otherwise. Degenerate input (a
	// side with fewer than MinScores scores, a NaN or infinite score, a
	// constant side) is an error. A cancelled ctx stops the work with an
	// error wrapping its cause.
	Estimate(ctx context.Context, in Input, rng *rand.Rand) (Estimate, error)
}

// Input is a PU sample as the estimators read it.
type Input struct {
	// Labeled and Unlabeled are univariate scores of the labeled and the
	// unlabeled examples, higher = more like the labeled (typically a
	// non-traditional classifier's out-of-bag scores).
	Labeled, Unlabeled []float64
	// LabeledFeatures and UnlabeledFeatures are the examples' feature rows,
	// in the order of the scores, for estimators whose Config is a
	// FeatureReader; nil otherwise.
	LabeledFeatures, UnlabeledFeatures *mat.Dense
}

// Estimate is the result of an [Estimator].
type Estimate struct {
	Method string `json:"method"`
	// Scale and Knee are the AlphaMax family's scale and knee rule (empty
	// for the other methods).
	Scale string  `json:"scale,omitempty"`
	Knee  string  `json:"knee"`
	Alpha float64 `json:"alpha"` // positives in the unlabeled set
	Beta  float64 `json:"beta"`  // positives in the labeled set (1 for clean AlphaMax)
	// Curves holds one log-likelihood curve per AlphaMax run: CurveUnlabeled
	// (AlphaMax, and the first run of AlphaMax-N) and CurveLabeled (the second
	// run of AlphaMax-N).
	Curves []Curve `json:"curves,omitempty"`
	// Warnings are conditions the caller should see (small samples,
	// beta <= alpha, a flat curve); the estimate is returned unchanged.
	Warnings []string `json:"warnings"`
	// KM is the run behind a KM1 or KM2 estimate (nil for the other
	// methods): the chosen kernel width, the RKHS distance, both
	// thresholds and both bisection paths, as the published code computes
	// them. It is shared with the estimator's memo: read it, do not change it.
	KM *kmpe.Result `json:"-"`
}

// Curve names.
const (
	// CurveUnlabeled: unlabeled scores as the mixture, labeled as the
	// component; its knee estimates alpha/beta (alpha for clean labels).
	CurveUnlabeled = "unlabeled"
	// CurveLabeled: labeled scores as the mixture, unlabeled as the
	// component; its knee estimates kappa = (1-beta)/(1-alpha).
	CurveLabeled = "labeled"
)

// Curve is the log-likelihood curve of one AlphaMax run.
type Curve struct {
	Name   string    `json:"name"`   // CurveUnlabeled or CurveLabeled
	Alpha  []float64 `json:"alpha"`  // the grid, ascending
	LogLik []float64 `json:"loglik"` // per grid point, after the monotone correction
	Raw    []float64 `json:"raw"`    // per grid point, before the correction
	// Estimate is what the run returns: alpha/beta for CurveUnlabeled,
	// kappa for CurveLabeled (with Options.Shifts > 1, the mean of Shifts).
	Estimate float64 `json:"estimate"`
	// Shifts holds, with Options.Shifts > 1, the estimate of each histogram
	// origin in order (origin 0 first); nil otherwise. The curve, knee, drop
	// and bins of this struct are those of origin 0, the published histogram.
	Shifts []float64 `json:"shifts,omitempty"`
	// Knee is the grid value the knee part of the rule picked, at KneeIndex;
	// Drop is the likelihood-drop value of the blend rule (0 for the others).
	Knee      float64 `json:"knee"`
	KneeIndex int     `json:"knee_index"`
	Drop      float64 `json:"drop,omitempty"`
	BinWidth  float64 `json:"bin_width"` // histogram bin width (from the component sample)
	Bins      int     `json:"bins"`      // number of bins over both samples
}

// Knee rules.
const (
	// KneePublished is the published inflectionScript, including its stale
	// left slope from grid point 2*window on: for comparisons with published
	// numbers only.
	KneePublished = "published"
	// KneeFixed is the published rule with the left slope of each grid point's
	// own window, as evidently intended.
	KneeFixed = "fixed"
	// KneeConcaveStart is the fixed rule on a grid with log-spaced points
	// below 0.01, returning the lowest grid value when the curve is concave
	// from its start (the rule pueval's design proposed).
	KneeConcaveStart = "concave-start"
	// KneeBlend, the default on the raw scale, averages the concave-start
	// knee with the largest alpha whose log-likelihood lies within
	// DropTau*(1/n + 1/n1) of the curve's start. See the package
	// documentation for the evidence.
	KneeBlend = "blend"
	// KneeDrop, the default on the rank scale, returns the alpha at which
	// the log-likelihood falls (DropTau + ln(K/5)) (1/n + 1/n1) below the
	// curve's start, K > 5 the number of bins, located between grid points
	// by bisection: the blend rule's likelihood-drop part alone, with a
	// tolerance for the chance excesses of K bins, made finer than the grid.
	KneeDrop = "drop"
)

// Knees lists the knee rules, the default of the raw scale first.
func Knees() []string {
	return []string{KneeBlend, KneeDrop, KneeConcaveStart, KneeFixed, KneePublished}
}

// DefaultKnee is the knee rule used when Options.Knee is empty on the raw
// scale; DefaultRankKnee on the rank scale.
const (
	DefaultKnee     = KneeBlend
	DefaultRankKnee = KneeDrop
)

// Scales: where the histograms of the scores are drawn.
const (
	// ScaleRaw bins the scores as given, as the published code does: the
	// estimate changes when the scores are transformed (probabilities,
	// logits, ranks).
	ScaleRaw = "raw"
	// ScaleRank bins, in each run, every score by its mid-rank among the
	// run's component scores as a fraction of them (the component's
	// mid-distribution function, in [0, 1]) on bins of equal width: every
	// strictly increasing transform of the scores gives the same estimate,
	// to the bit, and every bin holds the same share of the component.
	ScaleRank = "rank"
)

// Scales lists the scales, the default first.
func Scales() []string { return []string{ScaleRaw, ScaleRank} }

// DefaultScale is the scale used when Options.Scale is empty: the published
// one, so that the paper reproductions keep their numbers; the practitioner
// commands choose ScaleRank (see [Recommended]).
const DefaultScale = ScaleRaw

// DefaultDropTau is the default Options.DropTau of the blend rule, and
// DefaultDropTauDrop that of the drop rule.
const (
	DefaultDropTau     = 2.0
	DefaultDropTauDrop = 0.5
)

// DefaultShifts is the default Options.Shifts: the published single
// histogram. Shifts 4 lowers every mean error of the synthetic studies and
// the mean e on the real AAAI-2017 scores, but not the number of data sets on
// which e is below the paper's, the bar a default change had to clear (the
// package documentation has the study).
const DefaultShifts = 1

// MaxShifts bounds Options.Shifts: each origin costs a full likelihood curve,
// and beyond a few origins the average hardly changes.
const MaxShifts = 64

// Options configure AlphaMax and AlphaMax-N. The zero value means the
// defaults. The yaml tags are the names a config file uses.
type Options struct {
	// Knee is the rule that picks alpha* on the likelihood curve: "blend"
	// (default on the raw scale), "drop" (default on the rank scale),
	// "concave-start", "fixed" or "published".
	Knee string `yaml:"knee" json:"knee"`
	// Scale is where the histograms are drawn: "raw" (default: the scores
	// as given, as published) or "rank" (each run's scores by their
	// mid-rank among its component sample's, as a fraction of it: the same
	// estimate for any strictly increasing transform of the scores, and one
	// that does not drift as the samples grow).
	Scale string `yaml:"scale" json:"scale,omitempty"`
	// DropTau sets the likelihood-drop tolerance of the blend rule,
	// DropTau (1/n + 1/n1), n and n1 the mixture and component sizes, and
	// of the drop rule, (DropTau + ln(K/5)) (1/n + 1/n1) with K > 5 the
	// number of bins that hold a score (default 2 for blend, 0.5 for drop;
	// the other rules do not use it).
	DropTau float64 `yaml:"drop_tau" json:"drop_tau"`
	// Grid is the alpha grid of the likelihood curve.
	Grid Grid `yaml:"grid" json:"grid"`
	// Window is the number of grid points in each line fit of the knee
	// rule (published npts; default 10).
	Window int `yaml:"window" json:"window"`
	// Neighbours is the number of nearest grid points whose median smooths
	// the curve before the knee rule (published k; default 5).
	Neighbours int `yaml:"neighbours" json:"neighbours"`
	// Shifts is the number of histogram origins each run averages over
	// (averaged shifted histograms): origin j of Shifts starts the bin edges
	// j/Shifts bin widths below the smallest score, each origin gets its own
	// likelihood curve and knee, and the run's estimate is their mean. The
	// estimate then depends less on where the edges happen to fall
	// (default 1: the published single histogram; at most MaxShifts).
	Shifts int `yaml:"shifts" json:"shifts"`
	// MaxUnlabeled and MaxLabeled cap the sample sizes: above a cap, that
	// many scores are drawn with replacement (the published estimateMixprop
	// uses 100000 and 10000). 0, the default, keeps every score.
	MaxUnlabeled int `yaml:"max_unlabeled" json:"max_unlabeled"`
	MaxLabeled   int `yaml:"max_labeled" json:"max_labeled"`
}

// Grid is the alpha grid: From, From+Step, ..., To (default 0.01, 0.02, ...,
// 0.99, as published), plus LogPoints log-spaced points from LogFrom to LogTo
// (default: 7 points from 0.001 to 0.0072 for the concave-start, blend and
// drop rules, continuing the geometric progression into 0.01; none for the
// others), or exactly Values when given. Values must lie in (0, 1).
type Grid struct {
	From      float64   `yaml:"from" json:"from"`
	To        float64   `yaml:"to" json:"to"`
	Step      float64   `yaml:"step" json:"step"`
	LogPoints *int      `yaml:"log_points" json:"log_points"`
	LogFrom   float64   `yaml:"log_from" json:"log_from"`
	LogTo     float64   `yaml:"log_to" json:"log_to"`
	Values    []float64 `yaml:"values" json:"values,omitempty"`
}

// WithDefaults returns o with the defaults filled in for its zero fields:
// what an estimator built from o uses (and what a results record should show).
func (o Options) WithDefaults() Options {
	if o.Scale == "" {
		o.Scale = DefaultScale
	}
	if o.Knee == "" {
		o.Knee = DefaultKnee
		if o.Scale == ScaleRank {
			o.Knee = DefaultRankKnee
		}
	}
	if o.Window == 0 {
		o.Window = 10
	}
	if o.DropTau == 0 {
		o.DropTau = DefaultDropTau
		if o.Knee == KneeDrop {
			o.DropTau = DefaultDropTauDrop
		}
	}
	if o.Neighbours == 0 {
		o.Neighbours = 5
	}
	if o.Shifts == 0 {
		o.Shifts = DefaultShifts
	}
	g := &o.Grid
	if g.Values == nil {
		if g.From == 0 {
			g.From = 0.01
		}
		if g.To == 0 {
			g.To = 0.99
		}
		if g.Step == 0 {
			g.Step = 0.01
		}
		if g.LogPoints == nil {
			n := 0
			if o.Knee == KneeConcaveStart || o.Knee == KneeBlend || o.Knee == KneeDrop {
				n = 7
			}
			g.LogPoints = &n
		}
		if *g.LogPoints > 0 {
			if g.LogFrom == 0 {
				g.LogFrom = 0.001
			}
			if g.LogTo == 0 {
				g.LogTo = 0.0072
			}
		}
	}
	return o
}

// Validate reports every invalid option at once.
func (o Options) Validate() error {
	_, err := o.WithDefaults().points()
	return err
}

// points validates the options (defaults filled in) and returns the grid.
func (o Options) points() ([]float64, error) {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	o.checkNames(bad)
	if o.Window < 2 {
		bad("window %d: want at least 2 grid points per line fit", o.Window)
	}
	if !(o.DropTau > 0) || math.IsInf(o.DropTau, 0) {
		bad("drop_tau %v: want a positive number", o.DropTau)
	}
	if o.Neighbours < 1 {
		bad("neighbours %d: want at least 1", o.Neighbours)
	}
	if o.Shifts < 1 || o.Shifts > MaxShifts {
		bad("shifts %d: want 1 (one histogram) to %d origins", o.Shifts, MaxShifts)
	}
	if o.MaxUnlabeled < 0 || (o.MaxUnlabeled > 0 && o.MaxUnlabeled < MinScores) {
		bad("max_unlabeled %d: want 0 (no cap) or at least %d", o.MaxUnlabeled, MinScores)
	}
	if o.MaxLabeled < 0 || (o.MaxLabeled > 0 && o.MaxLabeled < MinScores) {
		bad("max_labeled %d: want 0 (no cap) or at least %d", o.MaxLabeled, MinScores)
	}
	g := o.Grid
	var pts []float64
	inUnit := func(v float64) bool { return v > 0 && v < 1 }
	if g.Values != nil {
		if g.From != 0 || g.To != 0 || g.Step != 0 || g.LogPoints != nil || g.LogFrom != 0 || g.LogTo != 0 {
			bad("grid.values lists the grid: leave out from, to, step and the log_ settings")
		}
		for i, v := range g.Values {
			if !inUnit(v) {
				bad("grid.values[%d] = %v: want a value in (0, 1)", i, v)
			}
		}
		pts = slices.Clone(g.Values)
	} else {
		switch {
		case !inUnit(g.From) || !inUnit(g.To) || g.From > g.To:
			bad("grid from %v to %v: want 0 < from <= to < 1", g.From, g.To)
		case !(g.Step > 0):
			bad("grid.step %v: want a positive step", g.Step)
		case (g.To-g.From)/g.Step > 1e6:
			bad("grid.step %v: more than a million grid points", g.Step)
		default:
			for i := 0; ; i++ {
				// Products rounded (float64) before adding, as on amd64: arm64 would fuse them.
				v := g.From + float64(float64(i)*g.Step)
				if v > g.To+float64(1e-9*g.Step) {
					break
				}
				// Round to 12 decimals so that 0.07 is 0.07, not 0.07000000000000001.
				pts = append(pts, math.Round(v*1e12)/1e12)
			}
		}
		if n := *g.LogPoints; n < 0 || n == 1 {
			bad("grid.log_points %d: want 0 or at least 2", n)
		} else if n > 0 {
			if !inUnit(g.LogFrom) || !inUnit(g.LogTo) || g.LogFrom >= g.LogTo {
				bad("grid log_from %v, log_to %v: want 0 < log_from < log_to < 1", g.LogFrom, g.LogTo)
			} else {
				// MATLAB logspace: 10^linspace(log10(from), log10(to), n).
				l0, l1 := float64(portmath.Log(g.LogFrom)*(1/math.Ln10)), float64(portmath.Log(g.LogTo)*(1/math.Ln10)) // math.Log10's formula, rounded
				for i := range n {
					pts = append(pts, portmath.Pow(10, l0+float64(i)*(l1-l0)/float64(n-1)))
				}
			}
		}
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	if len(errs) == 0 && len(pts) < 2*o.Window+1 {
		bad("grid has %d points: the knee rule needs at least 2*window+1 = %d", len(pts), 2*o.Window+1)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return pts, nil
}

// checkNames reports an unknown scale or knee rule to bad.
func (o Options) checkNames(bad func(format string, a ...any)) {
	if !slices.Contains(Scales(), o.Scale) {
		bad("scale %q: want one of %s", o.Scale, strings.Join(Scales(), ", "))
	}
	if !slices.Contains(Knees(), o.Knee) {
		bad("knee %q: want one of %s", o.Knee, strings.Join(Knees(), ", "))
	}
}

// Config is an estimator's options, the pattern of classifiers.Config: each
// registered estimator has a struct with yaml tags that a config loader
// decodes into (strictly) starting from Defaults(name), so that absent
// fields keep their documented defaults.
type Config interface {
	// Name is the registry name.
	Name() string
	// Validate reports every invalid option at once.
	Validate() error
	// New validates and returns the estimator.
	New() (Estimator, error)
	// Key is a canonical string of everything that can change the estimate
	// (the estimator's name, version and options with their defaults
	// filled in), for caches of estimates: equal keys, inputs and random
	// streams give equal estimates.
	Key() string
}

// FeatureReader is implemented by the Config of an estimator that reads the
// feature matrices of [Input] (kernel mixture proportion estimators), not
// only the univariate scores; a caller fills Input's feature fields only
// for such estimators.
type FeatureReader interface {
	ReadsFeatures() bool
}

// registry maps an estimator's name to a constructor of its default options.
// The AlphaMax options are zero (each zero field means its default) except
// Shifts, whose default is spelled out: 0 and 1 both mean one histogram, so
// from 1 every change of the option changes the estimate and the Key.
var registry = map[string]func() Config{
	AlphaMaxName:  func() Config { return &AlphaMax{Options: Options{Shifts: DefaultShifts}} },
	AlphaMaxNName: func() Config { return &AlphaMaxN{Options: Options{Shifts: DefaultShifts}} },
}

// Register adds an estimator to the registry. It panics on an empty or
// duplicate name: registration happens at init time, where that is a
// programming error.
func Register(name string, defaults func() Config) {
	if name == "" || defaults == nil {
		panic("classprior: Register with an empty name or nil constructor")
	}
	if _, dup := registry[name]; dup {
		panic("classprior: estimator " + name + " registered twice")
	}
	registry[name] = defaults
}

// Names lists the registered estimators, sorted.
func Names() []string { return slices.Sorted(maps.Keys(registry)) }

// Defaults returns a fresh Config holding the named estimator's defaults (a
// pointer, ready to decode YAML into).
func Defaults(name string) (Config, error) {
	f, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown class-prior estimator %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return f(), nil
}

// Recommended returns a fresh Config of the named estimator with the options
// the practitioner commands use on scores of unknown scale and size: for
// AlphaMax and AlphaMax-N the rank scale (ScaleRank, with its default rule,
// drop), whose estimate does not depend on the scale of the scores and does
// not drift as the samples grow; the registry defaults otherwise. The
// registry defaults (Defaults) stay the published scale, so that configs
// that name an estimator without options, as the paper reproductions do,
// keep their numbers.
func Recommended(name string) (Config, error) {
	c, err := Defaults(name)
	if err != nil {
		return nil, err
	}
	switch c := c.(type) {
	case *AlphaMax:
		c.Scale = ScaleRank
	case *AlphaMaxN:
		c.Scale = ScaleRank
	}
	return c, nil
}

// Compile-time checks: the AlphaMax options are Configs, the estimator an Estimator.
var (
	_ Config    = (*AlphaMax)(nil)
	_ Config    = (*AlphaMaxN)(nil)
	_ Estimator = (*alphaMax)(nil)
)

// Registry names of the AlphaMax estimators.
const (
	AlphaMaxName  = "alphamax"
	AlphaMaxNName = "alphamax-n"
)

// alphaMaxVersion is part of Key: bump it when a code change alters the
// estimates for the same options and scores, so that cached estimates are
// not reused across the change.
const alphaMaxVersion = 2 // 2: no fused multiply-adds on arm64 (amd64 results unchanged)

// AlphaMax is the options of AlphaMax (Jain et al. 2016; clean labels, beta
// = 1), registered as "alphamax". The Options are inlined in YAML.
type AlphaMax struct {
	Options `yaml:",inline"`
}

// AlphaMaxN is the options of AlphaMax-N (Jain, White, Radivojac, NIPS
// 2016; noisy labels), registered as "alphamax-n". The Options are inlined
// in YAML.
type AlphaMaxN struct {
	Options `yaml:",inline"`
}

// Name returns "alphamax".
func (c *AlphaMax) Name() string { return AlphaMaxName }

// Name returns "alphamax-n".
func (c *AlphaMaxN) Name() string { return AlphaMaxNName }

// Validate reports every invalid option at once.
func (c *AlphaMax) Validate() error { return validateAs(AlphaMaxName, c.Options) }

// Validate reports every invalid option at once.
func (c *AlphaMaxN) Validate() error { return validateAs(AlphaMaxNName, c.Options) }

func validateAs(name string, o Options) error {
	if err := o.Validate(); err != nil {
		return fmt.Errorf("estimator %s: %w", name, err)
	}
	return nil
}

// New returns the estimator.
func (c *AlphaMax) New() (Estimator, error) { return newAlphaMax(AlphaMaxName, false, c.Options) }

// New returns the estimator.
func (c *AlphaMaxN) New() (Estimator, error) { return newAlphaMax(AlphaMaxNName, true, c.Options) }

// Key is the name, the version and the options with their defaults, as JSON.
func (c *AlphaMax) Key() string { return c.Options.key(AlphaMaxName) }

// Key is the name, the version and the options with their defaults, as JSON.
func (c *AlphaMaxN) Key() string { return c.Options.key(AlphaMaxNName) }

func (o Options) key(name string) string {
	o = o.WithDefaults()
	if o.Scale == ScaleRaw {
		// The raw scale is what every key meant before the option
		// existed: leaving it out keeps those keys, and the caches and
		// results directories made under them, valid.
		o.Scale = ""
	}
	b, err := json.Marshal(o)
	if err != nil {
		// Options holds numbers, strings and slices of numbers only.
		panic("classprior: options key: " + err.Error())
	}
	return fmt.Sprintf("%s/v%d %s", name, alphaMaxVersion, b)
}

// newAlphaMax returns AlphaMax (noisy false) or AlphaMax-N under name.
func newAlphaMax(name string, noisy bool, o Options) (Estimator, error) {
	o = o.WithDefaults()
	grid, err := o.points()
	if err != nil {
		return nil, fmt.Errorf("%s options: %w", name, err)
	}
	return &alphaMax{name: name, noisy: noisy, o: o, grid: grid}, nil
}
