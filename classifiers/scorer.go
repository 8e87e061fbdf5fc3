package classifiers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/pueval/pueval/internal/oneclass"
	"gonum.org/v1/gonum/mat"
)

// Data is a training set: n rows of d features and a binary target per row.
type Data struct {
	// X holds the features, n x d. It is read, never modified. Features must
	// be finite; scaling is the classifier's job.
	X *mat.Dense
	// Y is the target of each row: true = 1 (positive, or "labeled" when a
	// PU classifier is trained labeled-vs-unlabeled), false = 0.
	Y []bool
}

// Result is what a Scorer returns.
type Result struct {
	// Scores holds one out-of-bag score per row of the data, in [0, 1],
	// higher = more positive.
	Scores []float64
	// OOBCount says for each row in how many models it was out of bag; a row
	// with count 0 got the mean of the other rows' scores.
	OOBCount []int
	// Filled is the number of rows with OOBCount 0.
	Filled int
	// Models describes each bagged model, in model order.
	Models []ModelStats
}

// ModelStats describes the training of one bagged model.
type ModelStats struct {
	Epochs      int     // optimiser iterations performed
	BestEpoch   int     // iteration whose weights were kept
	Stop        string  // why training ended (max-epochs, validation, min-grad, goal)
	TrainRows   int     // distinct rows with a training weight
	ValOnlyRows int     // distinct rows with only a validation weight
	OOBRows     int     // rows out of bag
	Inputs      int     // features used (non-constant over the bootstrap)
	TrainMSE    float64 // training error of the kept weights (0/1 units)
	ValMSE      float64 // validation error of the kept weights (NaN without validation)
	Flops       float64 // nominal floating-point operations of training
}

// Scorer fits a model to data and scores every training row out of bag.
//
// Contract: Score is deterministic given (data, seed): the same inputs give
// bit-identical scores for any worker count or run order; it honours
// ctx (returning an error wrapping ctx's cause); it returns an error, never
// panics, on bad data (NaN or infinite features, a single class, mismatched
// lengths). A Scorer is safe for concurrent use.
type Scorer interface {
	Name() string
	Score(ctx context.Context, data Data, seed uint64) (*Result, error)
}

// FoldScorer is a Scorer that can also be told the cross-validation folds:
// each row is scored by a model trained on the rows of the other folds
// (a protocol that owns its folds, e.g. the PULP paper's 8-fold CV whose
// measures are computed per held-out fold).
//
// Contract: folds holds one fold index in 0..k-1 per row of data, every
// fold non-empty; each fold's training rows (the other folds) hold both
// classes, else it is an error. The result is deterministic given (data,
// folds, seed), like Score's.
type FoldScorer interface {
	Scorer
	ScoreFolds(ctx context.Context, data Data, folds []int, seed uint64) (*Result, error)
}

// Config is a classifier's options. Each registered classifier has a struct
// with yaml tags that a config loader decodes into (strictly: yaml.v3's
// Decoder.KnownFields(true)) starting from Defaults(name), so that absent
// fields keep their documented defaults.
type Config interface {
	// Name is the registry name.
	Name() string
	// Validate reports every invalid field at once, each naming the YAML
	// field, its value and what is expected.
	Validate() error
	// New validates and returns the Scorer.
	New() (Scorer, error)
	// Key is a canonical string of everything that can change the scores
	// (it leaves out execution settings such as workers), for score caches:
	// equal keys, data and seed give equal scores.
	Key() string
}

// registry maps a classifier's name to a constructor of its default options.
var registry = map[string]func() Config{
	NNetBagName: func() Config { o := DefaultNNetBag(); return &o },
}

// Register adds a classifier to the registry. It panics on an empty or
// duplicate name: registration happens at init time, where that is a
// programming error.
func Register(name string, defaults func() Config) {
	if name == "" || defaults == nil {
		panic("classifiers: Register with an empty name or nil constructor")
	}
	if _, dup := registry[name]; dup {
		panic("classifiers: classifier " + name + " registered twice")
	}
	registry[name] = defaults
}

// Names lists the registered classifiers, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Defaults returns a fresh Config holding the named classifier's defaults
// (a pointer, ready to decode YAML into).
func Defaults(name string) (Config, error) {
	f, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown classifier %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return f(), nil
}

// KernelName says which compute kernel a classifier runs (e.g. scalar,
// avx512, avx2), for manifests, records and the start line of a run; "" when the
// classifier has no such notion.
func KernelName(c Config) string {
	if k, ok := c.(interface{ KernelName() string }); ok {
		return k.KernelName()
	}
	return ""
}

// ErrOneClass is returned (wrapped) when the targets hold a single class.
// It is oneclass.Err in this package's words: errors.Is matches it against
// the one-class error of any package (gbdt's and svm's included).
var ErrOneClass = oneclass.New("targets need at least one row of each class")

// check validates data and returns its dimensions.
func (data Data) check() (n, d int, err error) {
	if data.X == nil {
		return 0, 0, errors.New("nil feature matrix")
	}
	n, d = data.X.Dims()
	if len(data.Y) != n {
		return 0, 0, fmt.Errorf("%d targets for %d rows", len(data.Y), n)
	}
	if n < 2 {
		return 0, 0, fmt.Errorf("%d rows: need at least 2", n)
	}
	raw := data.X.RawMatrix()
	for i := range n {
		for k, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, 0, fmt.Errorf("feature %d of row %d is %v; features must be finite (impute or drop missing values first)", k, i, v)
			}
		}
	}
	for k := range d {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range n {
			v := raw.Data[i*raw.Stride+k]
			lo, hi = min(lo, v), max(hi, v)
		}
		if math.IsInf(hi-lo, 0) {
			return 0, 0, fmt.Errorf("column %d spans [%g, %g], a range that overflows float64; rescale it", k, lo, hi)
		}
	}
	pos := 0
	for _, y := range data.Y {
		if y {
			pos++
		}
	}
	if pos == 0 || pos == n {
		return 0, 0, fmt.Errorf("%d of %d targets positive: %w", pos, n, ErrOneClass)
	}
	return n, d, nil
}
