package classprior

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/estimators/kmpe"
)

// Registry names of the kernel mixture proportion estimators.
const (
	KM1Name = "km1"
	KM2Name = "km2"
)

// kmVersion is part of Key: bump it when a code change alters the
// estimates for the same options and features.
const kmVersion = 2 // 2: the kernel exp is portmath.Exp (the same bits on every CPU)

func init() {
	Register(KM1Name, func() Config { return &KM{name: KM1Name} })
	Register(KM2Name, func() Config { return &KM{name: KM2Name} })
}

// KM is the options of KM1 and KM2 (Ramaswamy, Scott, Tewari, ICML 2016;
// package estimators/kmpe), registered as "km1" (the value threshold nu2)
// and "km2" (the gradient threshold nu1). They read the feature rows of
// [Input]: the unlabeled rows are the mixture, the labeled rows the
// component, and the estimate's Alpha is kappa (the positive fraction of
// the unlabeled set), Beta = 1. Like the other estimators they refuse
// fewer than MinScores rows on a side and warn below FewLabeled labeled
// or FewUnlabeled unlabeled rows.
type KM struct {
	name string
	// Features is the scaling over the pooled rows: "zscore" (default,
	// population standard deviation), "minmax" or "raw" (the published
	// code's).
	Features string `yaml:"features" json:"features"`
	// Tolerance is the KKT gap of each QP (default 1e-10).
	Tolerance float64 `yaml:"tolerance" json:"tolerance"`
}

// Name returns "km1" or "km2".
func (c *KM) Name() string { return c.name }

// ReadsFeatures reports that KM reads Input's feature matrices.
func (c *KM) ReadsFeatures() bool { return true }

func (c *KM) withDefaults() KM {
	d := *c
	if d.Features == "" {
		d.Features = string(kmpe.DefaultScaling)
	}
	if d.Tolerance == 0 {
		d.Tolerance = kmpe.DefaultTol
	}
	return d
}

// Validate reports every invalid option at once.
func (c *KM) Validate() error {
	var errs []error
	if c.name != KM1Name && c.name != KM2Name {
		errs = append(errs, fmt.Errorf("name %q: want %s or %s (use Defaults)", c.name, KM1Name, KM2Name))
	}
	if err := kmpe.Scaling(c.Features).Validate(); err != nil {
		errs = append(errs, err)
	}
	if !(c.Tolerance >= 0) || math.IsInf(c.Tolerance, 0) {
		errs = append(errs, fmt.Errorf("tolerance %v: want a finite non-negative number (0 = default)", c.Tolerance))
	}
	if len(errs) > 0 {
		return fmt.Errorf("estimator %s: %w", c.name, errors.Join(errs...))
	}
	return nil
}

// New returns the estimator.
func (c *KM) New() (Estimator, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	d := c.withDefaults()
	return &kmEstimator{name: c.name, opt: kmpe.Options{Scaling: kmpe.Scaling(d.Features), Tol: d.Tolerance}}, nil
}

// Key is the name, the version and the options with their defaults, as JSON.
func (c *KM) Key() string {
	b, err := json.Marshal(c.withDefaults())
	if err != nil {
		panic("classprior: km options key: " + err.Error()) // a string and a number only
	}
	return fmt.Sprintf("%s/v%d %s", c.name, kmVersion, b)
}

var (
	_ Config        = (*KM)(nil)
	_ FeatureReader = (*KM)(nil)
	_ Estimator     = (*kmEstimator)(nil)
)

// kmCache shares the distances of a data set's rows between the km1 and
// km2 estimators and across the splits of that data set (an estimate does
// not depend on whether they were cached: see kmpe.Cache).
var kmCache = kmpe.NewCache(2)

type kmEstimator struct {
	name string
	opt  kmpe.Options
}

func (e *kmEstimator) Name() string { return e.name }

// Estimate implements [Estimator] on in's feature rows (rng is not used).
func (e *kmEstimator) Estimate(ctx context.Context, in Input, _ *rand.Rand) (Estimate, error) {
	if err := context.Cause(ctx); err != nil {
		return Estimate{}, fmt.Errorf("%s: %w", e.name, err)
	}
	if in.UnlabeledFeatures == nil || in.LabeledFeatures == nil {
		return Estimate{}, fmt.Errorf("%s: reads feature rows: Input.UnlabeledFeatures and LabeledFeatures are required", e.name)
	}
	nL, _ := in.LabeledFeatures.Dims()
	nU, _ := in.UnlabeledFeatures.Dims()
	for _, side := range []struct {
		name string
		n    int
	}{{"labeled", nL}, {"unlabeled", nU}} {
		if side.n < MinScores {
			return Estimate{}, fmt.Errorf("%s: only %d %s rows: need at least %d", e.name, side.n, side.name, MinScores)
		}
	}
	r, err := kmResults.get(ctx, in, e.opt)
	if err != nil {
		return Estimate{}, fmt.Errorf("%s: %w", e.name, err)
	}
	est := Estimate{Method: e.name, Alpha: r.KM2, Beta: 1, KM: r, Warnings: sampleWarnings("rows", nL, nU, false)}
	lambda := r.Lambda2
	if e.name == KM1Name {
		est.Alpha, lambda = r.KM1, r.Lambda1
	}
	// The bisection runs on lambda in [1, 8]: kappa in [0.0135, 0.8748].
	if lambda < 1.04 || lambda > 7.96 {
		est.Warnings = append(est.Warnings, fmt.Sprintf("%s: lambda* %v at the end of the bisection interval [1, 8]: kappa is clipped to [0.0135, 0.8748]", e.name, lambda))
	}
	return est, nil
}

// denseRows views the rows of m as slices (no copy for a *mat.Dense).
func denseRows(m *mat.Dense) [][]float64 {
	r, c := m.Dims()
	raw := m.RawMatrix()
	out := make([][]float64, r)
	for i := range r {
		out[i] = raw.Data[i*raw.Stride : i*raw.Stride+c : i*raw.Stride+c]
	}
	return out
}

// kmResults remembers the last few KM results by their inputs: one run
// gives both KM1 and KM2 (they differ only in the threshold the bisection
// uses), and a config that lists km1 and km2 asks for the same split twice
// in a row. Concurrent cells each get their own entry; a caller waiting for
// another's run of the same input shares its result.
var kmResults = &kmMemo{}

type kmMemo struct {
	mu      sync.Mutex
	entries []*kmEntry // most recent last, at most kmMemoSize
}

const kmMemoSize = 8

type kmEntry struct {
	key  [32]byte
	once sync.Once
	r    *kmpe.Result
	err  error
}

func (m *kmMemo) get(ctx context.Context, in Input, opt kmpe.Options) (*kmpe.Result, error) {
	key := kmKey(in, opt)
	m.mu.Lock()
	var e *kmEntry
	for _, x := range m.entries {
		if x.key == key {
			e = x
			break
		}
	}
	if e == nil {
		e = &kmEntry{key: key}
		if len(m.entries) == kmMemoSize {
			m.entries = m.entries[1:]
		}
		m.entries = append(m.entries, e)
	}
	m.mu.Unlock()
	e.once.Do(func() {
		e.r, e.err = kmCache.Estimate(ctx, denseRows(in.UnlabeledFeatures), denseRows(in.LabeledFeatures), opt)
	})
	if e.err != nil {
		// A failed run (a cancelled context among them) is not remembered.
		m.mu.Lock()
		for i, x := range m.entries {
			if x == e {
				m.entries = append(m.entries[:i], m.entries[i+1:]...)
				break
			}
		}
		m.mu.Unlock()
	}
	return e.r, e.err
}

// kmKey hashes the options and every feature value of both sides.
func kmKey(in Input, opt kmpe.Options) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%+v|", opt)
	var b [8]byte
	for _, m := range []*mat.Dense{in.UnlabeledFeatures, in.LabeledFeatures} {
		r, c := m.Dims()
		fmt.Fprintf(h, "%dx%d|", r, c)
		for i := range r {
			for _, v := range m.RawRowView(i) {
				binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
				h.Write(b[:])
			}
		}
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}
