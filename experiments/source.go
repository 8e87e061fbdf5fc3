package experiments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/datasets/pusplit"
	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/internal/scorefile"
)

// Data is a data set as a cell sees it: either features, which a classifier
// turns into scores, or ready-made scores (a ranking), with the true label
// of every row.
type Data struct {
	Name string
	// X holds the features, n x d; nil for a ranking.
	X *mat.Dense
	// Scores holds one score per row (higher = more positive) for a ranking
	// source; nil for features.
	Scores []float64
	// Y is true for the positive rows.
	Y []bool
	// Fingerprint identifies the content (part of score and estimate cache
	// keys, recorded in the manifest).
	Fingerprint string
	// Warnings are shortfalls the run reports once (an incomplete data set).
	Warnings []string
}

// costWeight is the prior guess of what a cell of the data set costs,
// rows x (columns + 1), for the ETA before any of its cells has finished
// (Progress.Plan); only ratios between data sets matter.
func (d *Data) costWeight() float64 {
	if d.X == nil {
		return float64(len(d.Scores))
	}
	n, c := d.X.Dims()
	return float64(n) * float64(c+1)
}

// N is the number of rows.
func (d *Data) N() int { return len(d.Y) }

// D is the number of features (0 for a ranking).
func (d *Data) D() int {
	if d.X == nil {
		return 0
	}
	_, c := d.X.Dims()
	return c
}

// NPos is the number of positive rows.
func (d *Data) NPos() int {
	n := 0
	for _, y := range d.Y {
		if y {
			n++
		}
	}
	return n
}

// Source kinds: what a source's data hold.
const (
	KindFeatures = "features" // a feature matrix: a classifier scores it
	KindScores   = "scores"   // a ranking: no classifier
)

// SourceConfig is the options of a data source (registry Sources; a data
// set's source: field, by default {name: uci}).
type SourceConfig interface {
	Plugin
	// Kind is KindFeatures or KindScores.
	Kind() string
	// New returns the source.
	New() (Source, error)
}

// Source loads a data set.
type Source interface {
	// Load returns the data of the data set env.Name. An unavailable data
	// set is an error matching datasets.ErrUnavailable or a
	// *datasets.MissingFileError: the run skips it with the reason.
	Load(ctx context.Context, env SourceEnv) (*Data, error)
}

// SourceEnv is what a source gets to load a data set.
type SourceEnv struct {
	// Name is the data set's name in the config.
	Name string
	// Catalog is the UCI data-set store of the run (nil when it has none).
	Catalog *datasets.Store
	// Rand is a stream for generators, seeded from the experiment seed and
	// the data set's name: a generated data set is the same in every cell.
	Rand *rand.Rand
	// Dir is the directory of the config file ("" for an embedded config):
	// relative paths in a source's options are relative to it.
	Dir string
}

// CatalogUser is implemented by the options of a source that reads the UCI
// catalog; the config loader checks the name against the catalog.
type CatalogUser interface {
	CatalogName() string
}

// UCI is the source of the data sets of the catalog (configs/datasets.yaml):
// the default source of a data set.
//
//	source: {name: uci, dataset: pima}   # dataset: the catalog name (default: the data set's name)
//	source: {name: uci, dataset: anuran, max_rows: 4000, subsample_seed: 1}
//	source: {name: uci, dataset: 20news, positive: [alt.atheism]}
//
// max_rows > 0 keeps a stratified subsample of that many rows when the data
// set has more (pusplit.StratifiedSubsample: the positive share is kept to
// within 1/(2 max_rows)), drawn once from subsample_seed alone, so every cell
// and every run sees the same rows; the rows keep their file order. The
// AUL paper caps its data sets at 4,000 rows this way.
//
// positive replaces the catalog entry's rule by one-vs-rest: a row is
// positive when its class (the value of the entry's target column: a
// 20 Newsgroups group, an MNIST digit) matches one of the patterns, in the
// syntax of the catalog's target.positive (exact values; *, ? and [ ]
// glob), negative otherwise (datasets.Dataset.Retarget). The PULP paper's
// 20 problems are ten groups and ten digits this way. The features are
// loaded once per run however many data sets retarget one entry: they share
// one matrix (datasets.Store.LoadShared). A pattern that matches no class,
// or every class, fails the load with the list of classes; the subsample of
// max_rows, if any, is drawn on the new labels.
type UCI struct {
	Dataset       string   `yaml:"dataset"`
	MaxRows       int      `yaml:"max_rows"`
	SubsampleSeed uint64   `yaml:"subsample_seed"`
	Positive      []string `yaml:"positive"`
	name          string   // the data set's name in the config, for the default
}

// UCISourceName is the registry name of the catalog source.
const UCISourceName = "uci"

func (s *UCI) Name() string { return UCISourceName }
func (s *UCI) Kind() string { return KindFeatures }

// Validate checks max_rows and the syntax of the positive patterns; the
// config loader checks the name against the catalog. Whether a pattern
// matches a class is known only once the data are loaded (Load).
func (s *UCI) Validate() error {
	var errs []error
	if s.MaxRows < 0 {
		errs = append(errs, fmt.Errorf("max_rows = %d: want 0 (every row) or a number of rows", s.MaxRows))
	}
	if s.Positive != nil && len(s.Positive) == 0 {
		errs = append(errs, errors.New("positive: empty list: give the classes to make positive, or leave positive: out for the catalog's rule"))
	}
	for _, p := range s.Positive {
		if p == "" {
			errs = append(errs, errors.New("positive: an empty pattern"))
		} else if _, err := path.Match(p, ""); err != nil {
			errs = append(errs, fmt.Errorf("positive: bad pattern %q: %v", p, err))
		}
	}
	return JoinErrors("uci", errs)
}

// positive returns the positive patterns sorted and without duplicates:
// the same rule however it is written, for the key.
func (s *UCI) positive() []string {
	if len(s.Positive) == 0 {
		return nil
	}
	p := slices.Clone(s.Positive)
	slices.Sort(p)
	return slices.Compact(p)
}

// Key names the catalog entry, the positive rule and the subsample (each
// absent when not given, so the keys of configs that use neither are
// unchanged).
func (s *UCI) Key() string {
	k := "uci dataset=" + s.CatalogName()
	if p := s.positive(); p != nil {
		q := make([]string, len(p))
		for i, v := range p {
			q[i] = strconv.Quote(v)
		}
		k += " positive=[" + strings.Join(q, ",") + "]"
	}
	if s.MaxRows > 0 {
		k += fmt.Sprintf(" max_rows=%d", s.MaxRows)
	}
	if s.SubsampleSeed != 0 {
		k += fmt.Sprintf(" subsample_seed=%d", s.SubsampleSeed)
	}
	return k
}

// CatalogName is the catalog entry this source loads.
func (s *UCI) CatalogName() string {
	if s.Dataset != "" {
		return s.Dataset
	}
	return s.name
}

func (s *UCI) New() (Source, error) { return s, nil }

func (s *UCI) Load(ctx context.Context, env SourceEnv) (*Data, error) {
	if env.Catalog == nil {
		return nil, fmt.Errorf("data set %s: no UCI data-set store was given to the runner", env.Name)
	}
	// Shared: data sets that retarget one catalog entry (and the entry
	// itself) hold one feature matrix. Nothing downstream writes to X or Y.
	ds, err := env.Catalog.LoadShared(ctx, s.CatalogName())
	if err != nil {
		return nil, err
	}
	if p := s.positive(); p != nil {
		if ds, err = ds.Retarget(p); err != nil {
			return nil, fmt.Errorf("data set %s: source uci, positive: %w", env.Name, err)
		}
	}
	d := &Data{Name: env.Name, X: ds.X, Y: ds.Y, Fingerprint: ds.Fingerprint, Warnings: slices.Clone(ds.Warnings)}
	if s.MaxRows > 0 && d.N() > s.MaxRows {
		return subsampleRows(d, s.MaxRows, s.SubsampleSeed)
	}
	return d, nil
}

// subsampleRows keeps a stratified subsample of n rows of d drawn from
// seed, in file order. The fingerprint names the subsample, so caches
// keyed by it never mix the full data with a subsample.
func subsampleRows(d *Data, n int, seed uint64) (*Data, error) {
	rows, err := pusplit.StratifiedSubsample(rand.New(rand.NewPCG(seed, hashSeed(seed, "stratified-subsample"))), d.Y, n)
	if err != nil {
		return nil, fmt.Errorf("data set %s: %w", d.Name, err)
	}
	x := gatherRows(d.X, rows)
	y := make([]bool, len(rows))
	for i, r := range rows {
		y[i] = d.Y[r]
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s|stratified-subsample n=%d seed=%d", d.Fingerprint, n, seed))
	return &Data{Name: d.Name, X: x, Y: y, Fingerprint: hex.EncodeToString(sum[:]), Warnings: d.Warnings}, nil
}

// SynthGaussian generates a data set of features: negatives from N(0, I),
// positives shifted by separation/sqrt(d) in every coordinate (package
// synth's Gaussian; the Bayes-optimal AUC is Phi(separation/sqrt 2)).
//
//	source: {name: synth-gaussian, n: 2000, d: 5, positive_fraction: 0.3, separation: 2}
type SynthGaussian struct {
	N                int     `yaml:"n"`
	D                int     `yaml:"d"`
	PositiveFraction float64 `yaml:"positive_fraction"`
	Separation       float64 `yaml:"separation"`
}

func (s *SynthGaussian) Name() string { return "synth-gaussian" }
func (s *SynthGaussian) Kind() string { return KindFeatures }

func (s *SynthGaussian) Validate() error {
	var errs []error
	if s.N < 2 || s.N > 1e7 {
		errs = append(errs, fmt.Errorf("n = %d: want an integer in [2, 1e7]", s.N))
	}
	if s.D < 1 || s.D > 10000 {
		errs = append(errs, fmt.Errorf("d = %d: want an integer in [1, 10000]", s.D))
	}
	errs = append(errs, checkFraction("positive_fraction", s.PositiveFraction, s.N))
	if math.IsNaN(s.Separation) || math.IsInf(s.Separation, 0) || s.Separation < 0 {
		errs = append(errs, fmt.Errorf("separation = %v: want a finite number >= 0", s.Separation))
	}
	return JoinErrors("source synth-gaussian", errs)
}

func (s *SynthGaussian) Key() string {
	return fmt.Sprintf("synth-gaussian/v1 n=%d d=%d positive_fraction=%v separation=%v", s.N, s.D, s.PositiveFraction, s.Separation)
}

func (s *SynthGaussian) New() (Source, error) { return s, s.Validate() }

func (s *SynthGaussian) Load(ctx context.Context, env SourceEnv) (*Data, error) {
	nPos := int(math.Round(s.PositiveFraction * float64(s.N)))
	x, y, err := synth.Gaussian(env.Rand, s.N, nPos, s.D, s.Separation)
	if err != nil {
		return nil, err
	}
	return &Data{Name: env.Name, X: mat.NewDense(s.N, s.D, x), Y: y,
		Fingerprint: datasets.Fingerprint(x, y, s.D)}, nil
}

// SynthScores generates a ranking: binormal scores, positives from
// N(pos_mean, pos_sd^2), negatives from N(neg_mean, neg_sd^2); its AUC is
// Phi((pos_mean - neg_mean)/sqrt(pos_sd^2 + neg_sd^2)). No classifier runs.
//
//	source: {name: synth-scores, n: 10000, positive_fraction: 0.3, pos_mean: 1, pos_sd: 1, neg_mean: 0, neg_sd: 1}
type SynthScores struct {
	N                int     `yaml:"n"`
	PositiveFraction float64 `yaml:"positive_fraction"`
	PosMean          float64 `yaml:"pos_mean"`
	PosSD            float64 `yaml:"pos_sd"`
	NegMean          float64 `yaml:"neg_mean"`
	NegSD            float64 `yaml:"neg_sd"`
}

func (s *SynthScores) Name() string { return "synth-scores" }
func (s *SynthScores) Kind() string { return KindScores }

func (s *SynthScores) Validate() error {
	var errs []error
	if s.N < 2 || s.N > 1e8 {
		errs = append(errs, fmt.Errorf("n = %d: want an integer in [2, 1e8]", s.N))
	}
	errs = append(errs, checkFraction("positive_fraction", s.PositiveFraction, s.N))
	for _, p := range []struct {
		name string
		v    float64
		sd   bool
	}{{"pos_mean", s.PosMean, false}, {"neg_mean", s.NegMean, false}, {"pos_sd", s.PosSD, true}, {"neg_sd", s.NegSD, true}} {
		if math.IsNaN(p.v) || math.IsInf(p.v, 0) || (p.sd && !(p.v > 0)) {
			errs = append(errs, fmt.Errorf("%s = %v: want a finite number%s", p.name, p.v, map[bool]string{true: " > 0"}[p.sd]))
		}
	}
	return JoinErrors("source synth-scores", errs)
}

func (s *SynthScores) Key() string {
	return fmt.Sprintf("synth-scores/v1 n=%d positive_fraction=%v pos=N(%v,%v) neg=N(%v,%v)",
		s.N, s.PositiveFraction, s.PosMean, s.PosSD, s.NegMean, s.NegSD)
}

func (s *SynthScores) New() (Source, error) { return s, s.Validate() }

func (s *SynthScores) Load(ctx context.Context, env SourceEnv) (*Data, error) {
	nPos := int(math.Round(s.PositiveFraction * float64(s.N)))
	scores, y, err := synth.Ranking(env.Rand, synth.Normal(s.PosMean, s.PosSD), synth.Normal(s.NegMean, s.NegSD), s.N, nPos)
	if err != nil {
		return nil, err
	}
	return &Data{Name: env.Name, Scores: scores, Y: y, Fingerprint: datasets.Fingerprint(scores, y, 1)}, nil
}

// ScoresFile reads a ranking from a score file: CSV with a header naming a
// score and a label column (label 1 = positive, 0 = negative), the format
// `pueval metrics` reads. Environment variables in the path are expanded
// (${PUEVAL_CLAESEN_DATA}/covtype_scores.csv); a relative path is relative to
// the config file. A missing file, or a variable that is not set, makes the
// data set unavailable: the run skips it and says why, as for a catalog
// data set that is not in the mirror.
//
//	source: {name: scores-file, file: covtype_scores.csv}
type ScoresFile struct {
	File string `yaml:"file"`
}

func (s *ScoresFile) Name() string { return "scores-file" }
func (s *ScoresFile) Kind() string { return KindScores }

func (s *ScoresFile) Validate() error {
	if s.File == "" {
		return fmt.Errorf("source scores-file: file is required")
	}
	return nil
}

// Key names the file; the content is in the data's fingerprint.
func (s *ScoresFile) Key() string { return "scores-file file=" + s.File }

func (s *ScoresFile) New() (Source, error) { return s, s.Validate() }

func (s *ScoresFile) Load(ctx context.Context, env SourceEnv) (*Data, error) {
	var unset []string
	path := os.Expand(s.File, func(v string) string {
		val, ok := os.LookupEnv(v)
		if !ok || val == "" {
			unset = append(unset, v)
		}
		return val
	})
	if len(unset) > 0 {
		return nil, &datasets.UnavailableError{Dataset: env.Name,
			Reason: fmt.Sprintf("%s names $%s, which is not set (set it to the folder that holds the file)", s.File, strings.Join(unset, ", $"))}
	}
	if !filepath.IsAbs(path) && env.Dir != "" {
		path = filepath.Join(env.Dir, path)
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, &datasets.UnavailableError{Dataset: env.Name, Reason: fmt.Sprintf("%s does not exist", path)}
	}
	d, err := scorefile.ReadFileContext(ctx, path)
	if err != nil {
		return nil, err
	}
	return &Data{Name: env.Name, Scores: d.Scores, Y: d.Labels, Fingerprint: datasets.Fingerprint(d.Scores, d.Labels, 1)}, nil
}

// Compile-time checks: each source's options are its Source.
var (
	_ SourceConfig = (*UCI)(nil)
	_ Source       = (*UCI)(nil)
	_ CatalogUser  = (*UCI)(nil)
	_ SourceConfig = (*SynthGaussian)(nil)
	_ Source       = (*SynthGaussian)(nil)
	_ SourceConfig = (*SynthScores)(nil)
	_ Source       = (*SynthScores)(nil)
	_ SourceConfig = (*ScoresFile)(nil)
	_ Source       = (*ScoresFile)(nil)
)

func checkFraction(name string, f float64, n int) error {
	if !(f > 0 && f < 1) {
		return fmt.Errorf("%s = %v: want a number in (0, 1)", name, f)
	}
	if k := math.Round(f * float64(n)); k < 1 || k > float64(n-1) {
		return fmt.Errorf("%s = %v of n = %d rows leaves a class empty", name, f, n)
	}
	return nil
}

func init() {
	Sources.Register(UCISourceName, "a data set of the UCI catalog (configs/datasets.yaml); the default source",
		func() SourceConfig { return &UCI{} })
	Sources.Register("synth-gaussian", "features: two Gaussian classes in d dimensions, Bayes AUC Phi(separation/sqrt 2)",
		func() SourceConfig { return &SynthGaussian{N: 2000, D: 5, PositiveFraction: 0.3, Separation: 2} })
	Sources.Register("synth-scores", "a ranking: binormal scores with their labels (no classifier)",
		func() SourceConfig {
			return &SynthScores{N: 10000, PositiveFraction: 0.3, PosMean: 1, PosSD: 1, NegMean: 0, NegSD: 1}
		})
	Sources.Register("scores-file", "a ranking read from a score,label CSV file (no classifier)",
		func() SourceConfig { return &ScoresFile{} })
}
