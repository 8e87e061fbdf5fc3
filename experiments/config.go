package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/experiments/results"
)

// Config is an experiment: which data sets, which PU protocol and grid,
// which classifier, estimators, truths and measures, and which report.
// Execution settings (workers, output directory, subsets) are not part of
// it: they never change results. Every part that names a plug-in is
// decoded strictly into that plug-in's own options (an unknown option is an
// error with its line) starting from its documented defaults. A config
// computes what it states: estimators and truths it does not list are not
// run (Plan prints what a config resolves to).
//
//	experiment: NAME          required; results go to results/NAME: letters, digits, '.', '_', '-',
//	                          starting with a letter or digit, at most 128 bytes
//	description: TEXT
//	seed: 2017                every cell's seed is hashed from it and the cell's identity
//	repeats: 50               (default 50); at most MaxCells (1,000,000) cells in all:
//	                          data sets x grid points x repeats
//	protocol: {name: NAME, options}   required; registry Protocols
//	grid: {beta: [1, 0.95]}   axes the protocol reads (default: the protocol's), or the runner (classifier)
//	datasets:                 required; each a name with an optional source (default {name: uci}: the
//	  - name: pima            catalog) and the protocol's per-data-set options
//	    labeled: 100
//	classifier: {name: nnet-bag, bags: 100, ...}     (default nnet-bag with its defaults)
//	evaluate: pu              whose scores are measured: pu (the classifier trained labeled vs unlabeled,
//	                          default) or supervised (trained on all rows with the true labels)
//	estimators: [alphamax-n]  each NAME or {name: NAME, as: ID, options}; none when left out
//	truths: [same-model]      each NAME or {name: NAME, as: ID, options}; none when left out
//	metrics: [auc, aucpr]     required (also spelled measures:); each NAME or {name: NAME, options}; registry Measures
//	report: NAME              a registered report (package report; default summary)
type Config struct {
	Experiment  string
	Description string
	Seed        uint64
	Repeats     int
	Protocol    ProtocolConfig
	Grid        Grid
	Datasets    []DatasetSpec
	Classifier  classifiers.Config
	// ClassifierGiven says that the config names its classifier (else
	// Classifier is nnet-bag with its defaults).
	ClassifierGiven bool
	Evaluate        string
	Estimators      []EstimatorSpec
	Truths          []TruthSpec
	Metrics         []MeasureSpec
	Report          string

	Source string // where the config came from
	Dir    string // the config file's directory; "" for an embedded config
	Hash   string // sha256 of the file's bytes
}

// DatasetSpec is one data set of the grid.
type DatasetSpec struct {
	Name    string
	Source  SourceConfig
	Options DatasetOptions // the protocol's per-data-set options; nil when it takes none
	// Grid and Repeats are the data set's grid and number of repeats: the
	// config's, unless the data set's entry gives its own (grid: replaces
	// the values of the axes it names and adds axes; repeats: replaces).
	Grid    Grid
	Repeats int
	// Metrics are the data set's measures: the config's, unless the entry
	// gives its own list (metrics:), e.g. a costly measure option only where
	// a figure needs it.
	Metrics []MeasureSpec
	// OwnGrid, OwnRepeats and OwnMetrics say that the entry gave its own.
	OwnGrid, OwnRepeats, OwnMetrics bool
	// DegradeToAUC > 0 degrades the evaluated scores of evaluate: supervised
	// to this AUC (degrade_to_auc:; see DegradeScores): a weaker classifier
	// like a paper's, for a side-by-side table.
	DegradeToAUC float64
}

// EstimatorSpec is an estimator of the config under its ID (its name
// unless the config gives it another with as:).
type EstimatorSpec struct {
	ID     string
	Config classprior.Config
}

// TruthSpec is a truth of the config under its ID.
type TruthSpec struct {
	ID     string
	Config TruthConfig
}

// MeasureSpec is a measure of the config.
type MeasureSpec struct {
	ID     string
	Config MeasureConfig
}

// What evaluate: takes.
const (
	EvaluatePU         = "pu"
	EvaluateSupervised = "supervised"
)

// DefaultReport is the report of a config without report:.
const DefaultReport = "summary"

// LoadOptions are the checks a config gets against the world outside it.
type LoadOptions struct {
	Catalog []string // names of the UCI catalog's data sets (nil: not checked)
	Reports []string // registered reports (nil: not checked)
}

// rawConfig is the YAML layout; the plug-in parts stay nodes until their
// plug-in is known.
type rawConfig struct {
	Experiment  yaml.Node `yaml:"experiment"` // parsed by hand: one error for a value that is not a name
	Description string    `yaml:"description"`
	Seed        yaml.Node `yaml:"seed"`    // parsed by hand: yaml.v3 wraps integers above 2^63 silently
	Repeats     yaml.Node `yaml:"repeats"` // parsed by hand: one error for a value that is not a count
	Protocol    yaml.Node `yaml:"protocol"`
	Grid        yaml.Node `yaml:"grid"`
	Datasets    yaml.Node `yaml:"datasets"`
	Classifier  yaml.Node `yaml:"classifier"`
	Evaluate    string    `yaml:"evaluate"`
	Estimators  yaml.Node `yaml:"estimators"`
	Truths      yaml.Node `yaml:"truths"`
	Metrics     yaml.Node `yaml:"metrics"`
	Measures    yaml.Node `yaml:"measures"` // metrics: by its other name
	Report      string    `yaml:"report"`
}

// movedKeys are top-level keys of the schema-1 configs, with how to write them now.
var movedKeys = map[string]string{
	"betas":     "betas: is now a grid axis: write grid: {beta: [...]}",
	"estimator": "estimator: is now a list: write estimators: [{name: ..., options}]",
	"truth":     "truth: is now truths: [...]",
	"outside":   "outside: is now an option of the auc and aucpr measures: metrics: [{name: auc, outside: [drop, clip]}]",
}

// MaxConfigSize bounds a config file: the papers' configs are a few KB, and
// a runaway file would otherwise take minutes and gigabytes to reject.
const MaxConfigSize = 1 << 20

// ReadConfig reads a config: path names a file on disk, or, when no such file
// exists and path has no directory part, a built-in config (one registered
// with RegisterConfigs, by its name with or without the .yaml suffix;
// BuiltinConfigs lists them).
func ReadConfig(path string, opts LoadOptions) (*Config, error) {
	b, err := readLimited(path, MaxConfigSize)
	src, dir := path, filepath.Dir(path)
	if errors.Is(err, fs.ErrNotExist) && !strings.ContainsRune(path, os.PathSeparator) {
		name := strings.TrimSuffix(path, ".yaml")
		bc, ok := builtinConfig(name)
		if !ok {
			return nil, fmt.Errorf("%s: no such file, and no built-in config of that name (built-in: %s)", path, strings.Join(BuiltinConfigs(), ", "))
		}
		eb, eerr := fs.ReadFile(bc.fsys, name+".yaml")
		if eerr != nil {
			return nil, fmt.Errorf("built-in config %s: %w", name, eerr)
		}
		b, err, src, dir = eb, nil, embeddedSource(bc.dir, name), ""
	}
	if err != nil {
		return nil, err
	}
	cfg, err := ParseConfig(b, src, opts)
	if cfg != nil {
		cfg.Dir = dir
	}
	return cfg, err
}

// embeddedSuffix ends the Source of a built-in config.
const embeddedSuffix = " (embedded)"

// embeddedSource is the Source (and the manifest's config field) of the
// built-in config name registered from the folder dir: "dir/name.yaml
// (embedded)".
func embeddedSource(dir, name string) string {
	return path.Join(dir, name+".yaml") + embeddedSuffix
}

// BuiltinName returns the name of a built-in config from its Source (what
// ReadConfig takes to read it again), and false for a file's path.
func BuiltinName(source string) (string, bool) {
	rest, ok := strings.CutSuffix(source, embeddedSuffix)
	if !ok {
		return "", false
	}
	return strings.TrimSuffix(path.Base(rest), ".yaml"), true
}

// builtin is a registered config's file system and folder.
type builtin struct {
	dir  string
	fsys fs.FS
}

var (
	builtinMu sync.RWMutex
	builtins  = map[string]builtin{}
)

// RegisterConfigs adds every *.yaml file at the root of fsys to the
// built-in configs, by its name without .yaml, so that an installed binary
// runs them from any directory (pueval reproduce NAME). dir is the folder
// the files come from in the source tree ("papers/NAME"), for the record.
// Reference digests of the configs' runs may sit beside them
// (ReferenceDir/NAME.digests, see ReferenceDigests).
// A paper's package calls it in its init with its embedded configs. It
// panics when a name is registered twice: registration happens at init
// time, where a clash is a programming error.
func RegisterConfigs(dir string, fsys fs.FS) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil || len(names) == 0 {
		panic(fmt.Sprintf("experiments: RegisterConfigs(%q): no *.yaml files (%v)", dir, err))
	}
	builtinMu.Lock()
	defer builtinMu.Unlock()
	for _, n := range names {
		name := strings.TrimSuffix(n, ".yaml")
		if old, dup := builtins[name]; dup {
			panic(fmt.Sprintf("experiments: config %q registered from %s and from %s", name, old.dir, dir))
		}
		builtins[name] = builtin{dir: dir, fsys: fsys}
	}
	registerReferences(dir, fsys, names)
}

func builtinConfig(name string) (builtin, bool) {
	builtinMu.RLock()
	defer builtinMu.RUnlock()
	b, ok := builtins[name]
	return b, ok
}

// BuiltinConfigs lists the built-in experiment configs, sorted, by the
// names ReadConfig and `pueval reproduce` take.
func BuiltinConfigs() []string {
	builtinMu.RLock()
	defer builtinMu.RUnlock()
	return slices.Sorted(maps.Keys(builtins))
}

// readLimited reads a file of at most limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes: a config is at most %d KiB", path, limit, limit>>10)
	}
	return b, nil
}

// ParseConfig decodes and validates a config. Every problem is reported at
// once, each with file:line (type Errors).
func ParseConfig(data []byte, file string, opts LoadOptions) (*Config, error) {
	if len(data) > MaxConfigSize {
		return nil, Errors{{File: file, Msg: fmt.Sprintf("%d bytes: a config is at most %d KiB", len(data), MaxConfigSize>>10)}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, Errors{parseYAMLError(file, err.Error())}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, Errors{{File: file, Msg: "empty config, or not a mapping of settings"}}
	}
	root := doc.Content[0]
	d := &decoder{file: file}
	raw := d.raw(root)
	line := func(key string) int { return keyLine(root, key) }

	sum := sha256.Sum256(data)
	cfg := &Config{Source: file, Hash: hex.EncodeToString(sum[:])}
	d.header(cfg, raw, line)
	d.protocolAndDatasets(cfg, raw, line, opts.Catalog)
	d.scoring(cfg, raw, line)
	d.estimators(cfg, &raw.Estimators, line)
	d.truths(cfg, &raw.Truths)
	d.measures(cfg, raw, line)
	cfg.Report = raw.Report
	if cfg.Report == "" {
		cfg.Report = DefaultReport
	}
	if opts.Reports != nil && !slices.Contains(opts.Reports, cfg.Report) {
		d.add(line("report"), "report: unknown report %q (known: %s)", cfg.Report, strings.Join(opts.Reports, ", "))
	}
	d.checkKinds(cfg, line)
	if err := cfg.checkCellCount(); err != nil {
		d.add(cellCountLine(root), "%v", err)
	}
	if len(d.errs) > 0 {
		slices.SortStableFunc(d.errs, func(a, b FieldError) int { return a.Line - b.Line })
		return nil, d.errs
	}
	return cfg, nil
}

// cellCountLine is the line an error about the number of cells points
// at: the repeats, else the grid, else the data sets.
func cellCountLine(root *yaml.Node) int {
	for _, k := range []string{"repeats", "grid", "datasets"} {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == k {
				return root.Content[i].Line
			}
		}
	}
	return root.Line
}

// raw decodes the top level of a config: a key given twice is one error
// (the first is kept, so that the rest of the config is checked as usual;
// yaml.v3 would refuse the whole document and every key would look
// missing), and a key that moved gets a message saying where to.
func (d *decoder) raw(root *yaml.Node) *rawConfig {
	d.errs = append(d.errs, dropDuplicateKeys(d.file, root)...)
	kept := &yaml.Node{Kind: yaml.MappingNode, Tag: root.Tag, Line: root.Line, Column: root.Column}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if msg, ok := movedKeys[root.Content[i].Value]; ok {
			d.add(root.Content[i].Line, "%s", msg)
			continue
		}
		kept.Content = append(kept.Content, root.Content[i], root.Content[i+1])
	}
	var raw rawConfig
	d.errs = append(d.errs, decodeStrict(d.file, kept, &raw)...)
	if raw.Measures.Kind != 0 {
		if raw.Metrics.Kind != 0 {
			d.add(raw.Measures.Line, "measures: and metrics: name the same list (measures: is metrics: by its other name): give one")
		} else {
			raw.Metrics = raw.Measures
		}
	}
	return &raw
}

// header reads the experiment's name, seed and repeats.
func (d *decoder) header(cfg *Config, raw *rawConfig, line func(string) int) {
	cfg.Description, cfg.Repeats = raw.Description, 50
	switch n := &raw.Experiment; {
	case n.Kind != 0 && n.Kind != yaml.ScalarNode:
		d.add(n.Line, "experiment: %s: want a name (letters, digits, '.', '_' or '-')", yamlText(n))
	default:
		if n.ShortTag() != "!!null" {
			cfg.Experiment = n.Value
		}
		if err := checkExperimentName(cfg.Experiment); err != nil {
			d.add(line("experiment"), "%v", err)
		}
	}
	if raw.Seed.Kind != 0 {
		seed, err := strconv.ParseUint(raw.Seed.Value, 10, 64)
		if raw.Seed.Kind != yaml.ScalarNode || err != nil {
			d.add(raw.Seed.Line, "seed: %q: want an integer in [0, 18446744073709551615]", yamlText(&raw.Seed))
		}
		cfg.Seed = seed
	}
	if raw.Repeats.Kind != 0 {
		k, ok := decodeRepeats(&raw.Repeats)
		if !ok {
			d.add(raw.Repeats.Line, "repeats: %s: want a number of repeats in [1, %d] (leave it out for 50)", yamlText(&raw.Repeats), maxRepeats)
		}
		cfg.Repeats = k
	}
}

// decodeRepeats reads a number of repeats in [1, maxRepeats]; ok is false
// for anything else (a word, a list, a number out of range).
func decodeRepeats(n *yaml.Node) (k int, ok bool) {
	if n.Kind != yaml.ScalarNode || n.Decode(&k) != nil {
		return 0, false
	}
	return k, k >= 1 && k <= maxRepeats
}

// maxExperimentName bounds an experiment's name: it is a directory's name,
// and file systems take at most 255 bytes.
const maxExperimentName = 128

// checkExperimentName checks that an experiment's name can name its
// results directory (results/NAME) and nothing else: letters, digits, '.',
// '_' and '-', starting with a letter or a digit (so never "", "." or
// "..", never a path), at most maxExperimentName bytes.
func checkExperimentName(name string) error {
	if name == "" {
		return errors.New("experiment: a name is required")
	}
	ok := len(name) <= maxExperimentName
	for i, r := range name {
		ok = ok && (unicode.IsLetter(r) || unicode.IsDigit(r) || i > 0 && (r == '.' || r == '_' || r == '-'))
	}
	if !ok {
		return fmt.Errorf("experiment %q: a name names the results directory (results/NAME): "+
			"want letters, digits, '.', '_' or '-', starting with a letter or a digit, at most %d bytes", name, maxExperimentName)
	}
	return nil
}

// maxValueText bounds the text of a value in an error message.
const maxValueText = 80

// yamlText is a value as the config wrote it, on one line: a scalar's
// text, a list or mapping in flow style ("[1]", "{a: 1}"), at most
// maxValueText bytes.
func yamlText(n *yaml.Node) string {
	n = resolveAlias(n)
	text := n.Value
	if n.Kind != yaml.ScalarNode {
		c := deepCopy(n)
		c.Anchor = ""
		flow(c)
		b, err := yaml.Marshal(c)
		if err != nil {
			return "(" + kindName(n) + ")"
		}
		text = strings.TrimSpace(string(b))
	}
	if len(text) > maxValueText {
		text = strings.ToValidUTF8(text[:maxValueText], "") + "..."
	}
	return text
}

// deepCopy copies a node and its children. Aliases inside stay aliases
// (*name): expanding them could multiply a small config into an enormous
// text.
func deepCopy(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = deepCopy(k)
	}
	return &c
}

// protocolAndDatasets reads the protocol, then the grid and the data sets
// it shapes (each data set's own grid and repeats merged with the config's).
func (d *decoder) protocolAndDatasets(cfg *Config, raw *rawConfig, line func(string) int, catalog []string) {
	if raw.Protocol.Kind == 0 {
		d.add(line("protocol"), "protocol: required: protocol: {name: NAME, options} (known: %s)", strings.Join(Protocols.Names(), ", "))
	} else {
		cfg.Protocol = decodePlugin(d, &raw.Protocol, "protocol", "", Protocols)
	}
	// Without a protocol the grid's axes are only checked against the registry.
	var uses []AxisUse
	protoName := ""
	if cfg.Protocol != nil {
		uses, protoName = cfg.Protocol.Axes(), cfg.Protocol.Name()
	}
	grid, gerrs := decodeGrid(d.file, &raw.Grid, uses, protoName)
	d.errs = append(d.errs, gerrs...)
	cfg.Grid = grid
	cfg.Datasets = d.datasets(&raw.Datasets, line("datasets"), cfg.Protocol, catalog)
	for i := range cfg.Datasets {
		ds := &cfg.Datasets[i]
		if !ds.OwnGrid {
			ds.Grid = cfg.Grid
		} else {
			ds.Grid = mergeGrids(cfg.Grid, ds.Grid)
		}
		if !ds.OwnRepeats {
			ds.Repeats = cfg.Repeats
		}
	}
}

// scoring reads the classifier (default: nnet-bag with its defaults) and
// what is evaluated.
func (d *decoder) scoring(cfg *Config, raw *rawConfig, line func(string) int) {
	if raw.Classifier.Kind == 0 {
		c, _ := classifiers.Defaults(classifiers.NNetBagName)
		cfg.Classifier = c
	} else {
		cfg.Classifier = d.classifier(&raw.Classifier, "classifier")
		cfg.ClassifierGiven = true
	}
	cfg.Evaluate = raw.Evaluate
	if cfg.Evaluate == "" {
		cfg.Evaluate = EvaluatePU
	}
	if cfg.Evaluate != EvaluatePU && cfg.Evaluate != EvaluateSupervised {
		d.add(line("evaluate"), "evaluate: %q: want %s (the classifier trained labeled vs unlabeled) or %s (trained with the true labels)",
			cfg.Evaluate, EvaluatePU, EvaluateSupervised)
	}
	for _, ds := range cfg.Datasets {
		if ds.DegradeToAUC > 0 && cfg.Evaluate != EvaluateSupervised {
			d.add(line("evaluate"), "data set %s: degrade_to_auc degrades the scores of evaluate: %s; this config evaluates %s", ds.Name, EvaluateSupervised, cfg.Evaluate)
		}
	}
}

// estimators reads the estimators: list. A config without one runs none.
func (d *decoder) estimators(cfg *Config, n *yaml.Node, line func(string) int) {
	for _, it := range d.list(n, "estimators", true) {
		c, err := classprior.Defaults(it.name)
		if err != nil {
			d.add(it.nameLine, "estimators[%d]: %v", it.index, err)
			continue
		}
		d.options(it.rest, c, fmt.Sprintf("estimators[%d]", it.index), it.line)
		cfg.Estimators = append(cfg.Estimators, EstimatorSpec{ID: it.id, Config: c})
	}
	for _, e := range cfg.Estimators {
		if e.ID == results.Real || e.ID == results.PU {
			d.add(line("estimators"), "estimators: %q is reserved (a key source); give the estimator another ID with as:", e.ID)
		}
	}
}

// truths reads the truths: list. A config without one has none.
func (d *decoder) truths(cfg *Config, n *yaml.Node) {
	for _, it := range d.list(n, "truths", true) {
		if c := decodeListPlugin(d, it, "truths", Truths); c != nil {
			cfg.Truths = append(cfg.Truths, TruthSpec{ID: it.id, Config: c})
		}
	}
}

// measures reads the metrics: list (also spelled measures:), required
// unless every data set lists its own, and hands it to the data sets that
// do not.
func (d *decoder) measures(cfg *Config, raw *rawConfig, line func(string) int) {
	allOwn := len(cfg.Datasets) > 0
	for _, ds := range cfg.Datasets {
		allOwn = allOwn && ds.OwnMetrics
	}
	key := "metrics"
	if raw.Measures.Kind != 0 && raw.Metrics.Line == raw.Measures.Line {
		key = "measures"
	}
	if (raw.Metrics.Kind == 0 && !allOwn) || (raw.Metrics.Kind == yaml.SequenceNode && len(raw.Metrics.Content) == 0) {
		d.add(line(key), "%s: list at least one measure (known: %s)", key, strings.Join(Measures.Names(), ", "))
	}
	for _, it := range d.list(&raw.Metrics, key, false) {
		if c := decodeListPlugin(d, it, key, Measures); c != nil {
			cfg.Metrics = append(cfg.Metrics, MeasureSpec{ID: it.id, Config: c})
		}
	}
	for i := range cfg.Datasets {
		if ds := &cfg.Datasets[i]; !ds.OwnMetrics {
			ds.Metrics = cfg.Metrics
		}
	}
}

// maxRepeats bounds repeats so that a typo is an error, not a grid of a
// billion cells.
const maxRepeats = 1000000

// dropDuplicateKeys reports every mapping key given twice (at any depth) and
// removes the later copies.
func dropDuplicateKeys(file string, n *yaml.Node) Errors {
	var errs Errors
	if n.Kind == yaml.MappingNode {
		first := map[string]int{}
		kept := n.Content[:0:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if l, dup := first[k.Value]; dup && k.Kind == yaml.ScalarNode {
				errs = append(errs, FieldError{File: file, Line: k.Line, Msg: fmt.Sprintf("%s: given twice (first on line %d); the first is used", k.Value, l)})
				continue
			}
			first[k.Value] = k.Line
			kept = append(kept, k, n.Content[i+1])
		}
		n.Content = kept
	}
	for _, c := range n.Content {
		errs = append(errs, dropDuplicateKeys(file, c)...)
	}
	return errs
}

// decoder collects the errors of one config.
type decoder struct {
	file string
	errs Errors
}

func (d *decoder) add(line int, format string, args ...any) {
	d.errs = append(d.errs, FieldError{File: d.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// options decodes the option keys rest into a plug-in's options and
// validates them; it reports whether they are good.
func (d *decoder) options(rest *yaml.Node, opts interface{ Validate() error }, where string, line int) bool {
	n := len(d.errs)
	if rest != nil && len(rest.Content) > 0 {
		d.errs = append(d.errs, decodeStrict(d.file, rest, opts)...)
	}
	if len(d.errs) > n {
		return false
	}
	if err := opts.Validate(); err != nil {
		d.add(line, "%s: %v", where, err)
		return false
	}
	return true
}

// decodePlugin decodes a {name: ..., options} mapping (or a bare name)
// into the named plug-in's options; def is the name when none is given ("":
// required). It returns nil after reporting an error.
func decodePlugin[C Plugin](d *decoder, n *yaml.Node, where, def string, reg *Registry[C]) C {
	var zero C
	name, rest, nameLine, err := splitName(n, def)
	if err != nil {
		d.add(n.Line, "%s: %v", where, err)
		return zero
	}
	if name == "" {
		d.add(n.Line, "%s: name is required (known: %s)", where, strings.Join(reg.Names(), ", "))
		return zero
	}
	c, err := reg.Defaults(name)
	if err != nil {
		d.add(nameLine, "%s: %v", where, err)
		return zero
	}
	// Bad options are reported; the plug-in is still returned so that the
	// checks that depend on it (the grid's axes) do not add false errors.
	d.options(rest, c, where, n.Line)
	return c
}

// classifier decodes a {name: ..., options} mapping into a classifier's options.
func (d *decoder) classifier(n *yaml.Node, where string) classifiers.Config {
	name, rest, nameLine, err := splitName(n, classifiers.NNetBagName)
	if err != nil {
		d.add(n.Line, "%s: %v", where, err)
		return nil
	}
	c, err := classifiers.Defaults(name)
	if err != nil {
		d.add(nameLine, "%s: %v", where, err)
		return nil
	}
	if !d.options(rest, c, where, n.Line) {
		return nil
	}
	return c
}

// listItem is one entry of a plug-in list: its name, ID, option keys and lines.
type listItem struct {
	index          int
	name, id       string
	rest           *yaml.Node
	line, nameLine int
}

// list reads a list of plug-ins: each a bare name or {name: ..., [as: ID,]
// options}. IDs (the name, unless as: gives another) must be unique and
// usable in record keys.
func (d *decoder) list(n *yaml.Node, where string, withAs bool) []listItem {
	n = resolveAlias(n)
	if n.Kind == 0 {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.add(n.Line, "%s: want a list, e.g. %s: [NAME, {name: NAME, option: value}]", where, where)
		return nil
	}
	var items []listItem
	seen := map[string]int{}
	for i, e := range n.Content {
		name, rest, nameLine, err := splitName(e, "")
		if err != nil {
			d.add(e.Line, "%s[%d]: %v", where, i, err)
			continue
		}
		if name == "" {
			d.add(e.Line, "%s[%d]: name is required", where, i)
			continue
		}
		it := listItem{index: i, name: name, id: name, rest: rest, line: e.Line, nameLine: nameLine}
		if as := takeKey(rest, "as"); as != nil {
			if !withAs {
				d.add(as.Line, "%s[%d]: as: is not taken here (a measure's values are named by its metrics)", where, i)
				continue
			}
			it.id = as.Value
		}
		if !validID(it.id) {
			d.add(e.Line, "%s[%d]: ID %q: want letters, digits, '-', '_' or '.', starting with a letter or digit", where, i, it.id)
			continue
		}
		if l, dup := seen[it.id]; dup {
			d.add(e.Line, "%s[%d]: %q is listed twice (also on line %d); give one another ID with as:", where, i, it.id, l)
			continue
		}
		seen[it.id] = e.Line
		items = append(items, it)
	}
	return items
}

// decodeListPlugin decodes one list item into its plug-in's options.
func decodeListPlugin[C Plugin](d *decoder, it listItem, where string, reg *Registry[C]) C {
	var zero C
	c, err := reg.Defaults(it.name)
	if err != nil {
		d.add(it.nameLine, "%s[%d]: %v", where, it.index, err)
		return zero
	}
	d.options(it.rest, c, fmt.Sprintf("%s[%d]", where, it.index), it.line)
	return c
}

// datasets reads the datasets: list.
func (d *decoder) datasets(n *yaml.Node, line int, proto ProtocolConfig, catalog []string) []DatasetSpec {
	if n.Kind == 0 || (n.Kind == yaml.SequenceNode && len(n.Content) == 0) {
		d.add(line, "datasets: list at least one data set")
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.add(n.Line, "datasets: want a list of data sets")
		return nil
	}
	var out []DatasetSpec
	seen := map[string]bool{}
	for i, e := range n.Content {
		where := fmt.Sprintf("datasets[%d]", i)
		name, rest, _, err := splitName(e, "")
		if err != nil {
			d.add(e.Line, "%s: %v", where, err)
			continue
		}
		if name == "" {
			d.add(e.Line, "%s: name is required", where)
			continue
		}
		if strings.ContainsAny(name, "/= ") {
			d.add(e.Line, "%s: name %q: want no '/', '=' or spaces (it is part of cell IDs)", where, name)
			continue
		}
		if seen[name] {
			d.add(e.Line, "%s: %q listed twice", where, name)
			continue
		}
		seen[name] = true
		if spec, ok := d.dataset(name, rest, e, where, proto, catalog); ok {
			// Kept even when its options are bad (the errors are reported), so that
			// the checks over all data sets see it.
			out = append(out, spec)
		}
	}
	return out
}

// dataset reads one entry of datasets: (its name taken): the source, its
// own grid, measures, degrade_to_auc and repeats, and the protocol's
// per-data-set options. It returns false when the source is unusable.
func (d *decoder) dataset(name string, rest, e *yaml.Node, where string, proto ProtocolConfig, catalog []string) (DatasetSpec, bool) {
	spec := DatasetSpec{Name: name}
	if sn := takeKey(rest, "source"); sn != nil {
		if spec.Source = decodePlugin(d, sn, where+".source", "", Sources); spec.Source == nil {
			return spec, false
		}
	} else {
		spec.Source = &UCI{}
	}
	if u, isUCI := spec.Source.(*UCI); isUCI {
		u.name = name
	}
	if cu, isCat := spec.Source.(CatalogUser); isCat && catalog != nil && !slices.Contains(catalog, cu.CatalogName()) {
		d.add(e.Line, "%s: unknown data set %q (see 'pueval datasets list')", where, cu.CatalogName())
	}
	if gn := takeKey(rest, "grid"); gn != nil {
		var uses []AxisUse
		protoName := ""
		if proto != nil {
			uses, protoName = proto.Axes(), proto.Name()
		}
		g, gerrs := decodeGridNode(d.file, gn, uses, protoName, false)
		d.errs = append(d.errs, gerrs...)
		spec.Grid, spec.OwnGrid = g, true
	}
	mn := takeKey(rest, "metrics")
	if alt := takeKey(rest, "measures"); alt != nil {
		if mn != nil {
			d.add(alt.Line, "%s: measures: and metrics: name the same list: give one", where)
		}
		mn = alt
	}
	if mn != nil {
		for _, it := range d.list(mn, where+".metrics", false) {
			if c := decodeListPlugin(d, it, where+".metrics", Measures); c != nil {
				spec.Metrics = append(spec.Metrics, MeasureSpec{ID: it.id, Config: c})
			}
		}
		spec.OwnMetrics = true
		if len(resolveAlias(mn).Content) == 0 {
			d.add(mn.Line, "%s.metrics: list at least one measure", where)
		}
	}
	if dn := takeKey(rest, "degrade_to_auc"); dn != nil {
		var a float64
		if err := dn.Decode(&a); err != nil || !(a > 0.5 && a < 1) {
			d.add(dn.Line, "%s: degrade_to_auc: %s: want the AUC the evaluated scores are degraded to, in (0.5, 1)", where, yamlText(dn))
		}
		spec.DegradeToAUC = a
	}
	if rn := takeKey(rest, "repeats"); rn != nil {
		k, ok := decodeRepeats(rn)
		if !ok {
			d.add(rn.Line, "%s: repeats: %s: want a number of repeats in [1, %d]", where, yamlText(rn), maxRepeats)
		}
		spec.Repeats, spec.OwnRepeats = k, true
	}
	if proto != nil {
		if opts := proto.DatasetOptions(); opts != nil {
			d.options(rest, opts, where, e.Line)
			spec.Options = opts
		} else if rest != nil && len(rest.Content) > 0 {
			k := rest.Content[0]
			d.add(k.Line, "%s: unknown field %q: protocol %s takes no per-data-set options (known: name, source, grid, repeats, metrics, degrade_to_auc)", where, k.Value, proto.Name())
		}
	}
	return spec, true
}

// checkKinds checks what the data sets' kinds allow: a ranking (a source of
// ready-made scores) has no features for a classifier, a supervised model
// or a feature-reading estimator.
func (d *decoder) checkKinds(cfg *Config, line func(string) int) {
	var rankings []string
	classifierAxisOnRanking := false
	for _, ds := range cfg.Datasets {
		if ds.Source != nil && ds.Source.Kind() == KindScores {
			rankings = append(rankings, ds.Name)
			classifierAxisOnRanking = classifierAxisOnRanking || ds.Grid.Values(classifierAxis) != nil
		}
	}
	if len(rankings) == 0 {
		return
	}
	these := strings.Join(rankings, ", ")
	if cfg.Evaluate == EvaluateSupervised {
		d.add(line("evaluate"), "evaluate: supervised trains a classifier, but data set(s) %s are rankings (scores without features)", these)
	}
	for _, t := range cfg.Truths {
		if _, ok := t.Config.(*Traditional); ok {
			d.add(line("truths"), "truths: %s trains a supervised classifier, but data set(s) %s are rankings (scores without features)", t.ID, these)
		}
	}
	for _, e := range cfg.Estimators {
		if fr, ok := e.Config.(classprior.FeatureReader); ok && fr.ReadsFeatures() {
			d.add(line("estimators"), "estimators: %s reads features, but data set(s) %s are rankings (scores without features)", e.ID, these)
		}
	}
	if classifierAxisOnRanking {
		d.add(line("grid"), "grid: the %s axis varies the classifier, but data set(s) %s are rankings (no classifier runs)", classifierAxis, these)
	}
}

// validID reports whether s can be an estimator's or truth's ID: it is part
// of record keys ("direct:ID"), so no ':' or '/'.
func validID(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || i > 0 && (r == '-' || r == '_' || r == '.')
		if !ok {
			return false
		}
	}
	return true
}

// splitName takes the "name" key out of a {name: ..., options...} mapping
// (or reads a bare scalar as the name) and returns it (def when absent), the
// node of the remaining keys and the line of the name.
func splitName(n *yaml.Node, def string) (name string, rest *yaml.Node, line int, err error) {
	n = resolveAlias(n)
	switch n.Kind {
	case 0:
		return def, nil, 0, nil
	case yaml.ScalarNode:
		return n.Value, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}, n.Line, nil
	case yaml.MappingNode:
	default:
		return "", nil, 0, fmt.Errorf("want a name or a mapping with a name and options, got %s", kindName(n))
	}
	rest = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	name, line = def, n.Line
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "name" {
			name, line = n.Content[i+1].Value, n.Content[i].Line
			continue
		}
		rest.Content = append(rest.Content, n.Content[i], n.Content[i+1])
	}
	return name, rest, line, nil
}

// resolveAlias follows a YAML alias (*name) to the node its anchor marks,
// so that a config can reuse a list or mapping (metrics: *appendix).
func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// takeKey removes key from a mapping node and returns its value (nil when absent).
func takeKey(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
			return v
		}
	}
	return nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return "a scalar"
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	return "something else"
}

func keyLine(m *yaml.Node, key string) int {
	if m == nil || m.Kind != yaml.MappingNode {
		return 0
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i].Line
		}
	}
	return m.Line
}

// JoinErrors joins a plug-in's option errors under a prefix (nil when
// there are none): the error of an options struct's Validate.
func JoinErrors(prefix string, errs []error) error {
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s: %w", prefix, err)
	}
	return nil
}

// Key is a canonical text of everything in the config that can change a
// result: the experiment's name, seed and repeats, the protocol, the grid,
// the data sets with their sources and options, the classifier, what is
// evaluated, and every estimator, truth and measure with its options (each
// plug-in's Key). Execution settings are not in a config, and the
// description and the report are left out: they change no record. A
// results directory belongs to one Key (its manifest keeps its hash).
func (c *Config) Key() string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("experiment %q seed %d repeats %d", c.Experiment, c.Seed, c.Repeats)
	line("protocol %s", c.Protocol.Key())
	for _, a := range c.Grid.Axes {
		for _, v := range a.Values {
			if clf, ok := v.Value.(classifiers.Config); ok {
				line("grid %s %q %s", a.Name, v.Text, clf.Key())
			} else {
				line("grid %s %q", a.Name, v.Text)
			}
		}
	}
	for _, d := range c.Datasets {
		opts, _ := yaml.Marshal(d.Options)
		line("dataset %q source %s options %q", d.Name, d.Source.Key(), opts)
		if d.OwnGrid || d.OwnRepeats {
			line("dataset %q grid %q repeats %d", d.Name, d.Grid.text(), d.Repeats)
		}
		if d.DegradeToAUC > 0 {
			line("dataset %q degrade_to_auc %v", d.Name, d.DegradeToAUC)
		}
	}
	if c.UsesClassifier() {
		line("classifier %s", c.Classifier.Key())
	}
	line("evaluate %s", c.Evaluate)
	for _, e := range c.Estimators {
		line("estimator %q %s", e.ID, e.Config.Key())
	}
	for _, t := range c.Truths {
		line("truth %q %s", t.ID, t.Config.Key())
	}
	for _, m := range c.Metrics {
		line("measure %q %s", m.ID, m.Config.Key())
	}
	for _, d := range c.Datasets {
		if d.OwnMetrics {
			for _, m := range d.Metrics {
				line("dataset %q measure %q %s", d.Name, m.ID, m.Config.Key())
			}
		}
	}
	return b.String()
}

// UsesClassifier reports whether a cell trains the config's classifier: a
// data set with features and no classifier axis of its own (a grid's
// classifier values replace it; a ranking trains nothing).
func (c *Config) UsesClassifier() bool {
	for _, d := range c.Datasets {
		if d.Source != nil && d.Source.Kind() != KindScores && d.Grid.Values(classifierAxis) == nil {
			return true
		}
	}
	return false
}

// KeyHash is the SHA-256 of Key, in hex: the manifest's config_key.
func (c *Config) KeyHash() string {
	sum := sha256.Sum256([]byte(c.Key()))
	return hex.EncodeToString(sum[:])
}
