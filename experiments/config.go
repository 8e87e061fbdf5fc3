package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/configs"
	"github.com/pueval/pueval/datasets/pusplit"
	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/experiments/results"
)

// Protocol names (package pusplit).
const (
	ProtocolAAAI2017 = "aaai2017"
	ProtocolPSB2019  = "psb2019"
)

// Truth definitions (DESIGN.md section 8).
const (
	TruthTraditional = "traditional"
	TruthSameModel   = "same-model"
)

// Config is an experiment: which data sets, which PU protocol and grid, which
// classifier and estimator, and what to measure. Execution settings (workers,
// output directory, subsets) are not part of it: they never change results.
//
// Defaults, applied to absent fields: repeats 50; protocol aaai2017 with
// labeled 1000 and max_unlabeled 10000 (psb2019: the paper's sizes, see
// pusplit.PSBSizes); betas {1, 0.95, 0.75} (aaai2017) or {1, 0.9, 0.8, 0.7}
// (psb2019); classifier nnet-bag with its documented defaults; estimator
// alphamax-n with its defaults; metrics auc, aucpr (aaai2017) or acc, bacc,
// f1, mcc (psb2019); truth traditional and same-model (aaai2017) or
// same-model (psb2019); outside drop and clip.
type Config struct {
	Experiment  string        `yaml:"experiment"`
	Description string        `yaml:"description"`
	Seed        uint64        `yaml:"seed"`
	Repeats     int           `yaml:"repeats"`
	Protocol    Protocol      `yaml:"protocol"`
	Datasets    []DatasetSpec `yaml:"datasets"`
	Betas       []float64     `yaml:"betas"`
	Classifier  yaml.Node     `yaml:"classifier"` // name + that classifier's options
	Estimator   yaml.Node     `yaml:"estimator"`  // name + classprior.Options
	Metrics     []string      `yaml:"metrics"`
	Truth       []string      `yaml:"truth"`
	Outside     []string      `yaml:"outside"`

	// Decoded and validated by LoadConfig.
	Source        string             `yaml:"-"` // where the config came from
	Hash          string             `yaml:"-"` // sha256 of the file's bytes
	ClassifierCfg classifiers.Config `yaml:"-"`
	EstimatorName string             `yaml:"-"`
	EstimatorOpts classprior.Options `yaml:"-"`
}

// Protocol selects the PU split protocol and its sizes.
type Protocol struct {
	Name         string `yaml:"name"`          // aaai2017 | psb2019
	Labeled      int    `yaml:"labeled"`       // aaai2017: n_L (per data set override in datasets)
	MaxUnlabeled int    `yaml:"max_unlabeled"` // aaai2017: cap on the unlabeled set
}

// DatasetSpec is one data set of the grid.
type DatasetSpec struct {
	Name      string `yaml:"name"`
	Labeled   int    `yaml:"labeled"`   // aaai2017: n_L; psb2019: n_l (0 = the protocol's)
	Unlabeled int    `yaml:"unlabeled"` // psb2019: n_u (0 = the paper's rule)
}

// Known metric names of a config.
var knownMetrics = map[string][]string{
	ProtocolAAAI2017: {results.MetricAUC, results.MetricAUCPR},
	ProtocolPSB2019:  {results.MetricAcc, results.MetricBAcc, results.MetricF1, results.MetricMCC},
}

// ReadConfig reads a config: path names a file on disk, or, when no such file
// exists and path has no directory part, a config embedded in the binary
// (configs/NAME.yaml, with or without the .yaml suffix). catalog lists the
// known data sets (nil skips that check).
func ReadConfig(path string, catalog []string) (*Config, error) {
	b, err := os.ReadFile(path)
	src := path
	if errors.Is(err, fs.ErrNotExist) && !strings.ContainsRune(path, os.PathSeparator) {
		name := strings.TrimSuffix(path, ".yaml") + ".yaml"
		if eb, eerr := fs.ReadFile(configs.FS, name); eerr == nil {
			b, err, src = eb, nil, "configs/"+name+" (embedded)"
		}
	}
	if err != nil {
		return nil, err
	}
	return ParseConfig(b, src, catalog)
}

// ParseConfig decodes and validates a config. Every problem is reported at
// once, each with file:line (type Errors).
func ParseConfig(data []byte, file string, catalog []string) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, Errors{parseYAMLError(file, err.Error())}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, Errors{{File: file, Msg: "empty config"}}
	}
	cfg := &Config{Source: file}
	sum := sha256.Sum256(data)
	cfg.Hash = hex.EncodeToString(sum[:])
	errs := decodeStrict(file, &doc, cfg)
	root := doc.Content[0]
	line := func(key string) int { return keyLine(root, key) }
	add := func(l int, format string, args ...any) {
		errs = append(errs, FieldError{File: file, Line: l, Msg: fmt.Sprintf(format, args...)})
	}

	// Defaults and validation, field by field.
	if cfg.Experiment == "" {
		add(line("experiment"), "experiment: a name is required")
	}
	if cfg.Protocol.Name == "" {
		cfg.Protocol.Name = ProtocolAAAI2017
	}
	aaai := cfg.Protocol.Name == ProtocolAAAI2017
	switch cfg.Protocol.Name {
	case ProtocolAAAI2017:
		if cfg.Protocol.Labeled == 0 {
			cfg.Protocol.Labeled = 1000
		}
		if cfg.Protocol.MaxUnlabeled == 0 {
			cfg.Protocol.MaxUnlabeled = 10000
		}
	case ProtocolPSB2019:
		if cfg.Protocol.MaxUnlabeled != 0 {
			add(line("protocol"), "protocol.max_unlabeled: psb2019 sets the unlabeled size per data set (datasets[].unlabeled)")
		}
	default:
		add(line("protocol"), "protocol.name %q: want %s or %s", cfg.Protocol.Name, ProtocolAAAI2017, ProtocolPSB2019)
	}
	if cfg.Protocol.Labeled < 0 || cfg.Protocol.MaxUnlabeled < 0 {
		add(line("protocol"), "protocol: sizes must not be negative")
	}
	if cfg.Repeats == 0 {
		cfg.Repeats = 50
	}
	if cfg.Repeats < 0 {
		add(line("repeats"), "repeats %d: want a positive number", cfg.Repeats)
	}
	if len(cfg.Datasets) == 0 {
		add(line("datasets"), "datasets: list at least one data set")
	}
	seen := map[string]bool{}
	dsNode := mappingValue(root, "datasets")
	for i, d := range cfg.Datasets {
		l := line("datasets")
		if dsNode != nil && i < len(dsNode.Content) {
			l = dsNode.Content[i].Line
		}
		switch {
		case d.Name == "":
			add(l, "datasets[%d]: name is required", i)
		case catalog != nil && !slices.Contains(catalog, d.Name):
			add(l, "datasets[%d]: unknown data set %q (see 'pueval datasets list')", i, d.Name)
		case seen[d.Name]:
			add(l, "datasets[%d]: %q listed twice", i, d.Name)
		}
		seen[d.Name] = true
		if d.Labeled < 0 || d.Unlabeled < 0 {
			add(l, "datasets[%d]: sizes must not be negative", i)
		}
		if aaai && d.Unlabeled != 0 {
			add(l, "datasets[%d]: unlabeled is a psb2019 size; aaai2017 uses protocol.max_unlabeled", i)
		}
	}
	if len(cfg.Betas) == 0 {
		if aaai {
			cfg.Betas = []float64{1, 0.95, 0.75}
		} else {
			cfg.Betas = []float64{1, 0.9, 0.8, 0.7}
		}
	}
	for _, b := range cfg.Betas {
		if !(b > 0 && b <= 1) {
			add(line("betas"), "betas: %v is not in (0, 1]", b)
		}
	}
	if hasDup(cfg.Betas) {
		add(line("betas"), "betas: a value is listed twice")
	}

	// Classifier: {name: ..., options...}.
	cname, cnode, err := splitName(&cfg.Classifier, classifiers.NNetBagName)
	if err != nil {
		add(cfg.Classifier.Line, "classifier: %v", err)
	} else if c, derr := classifiers.Defaults(cname); derr != nil {
		add(keyLineOr(&cfg.Classifier, "name", line("classifier")), "classifier.name %q: %v (known: %s)", cname, derr, strings.Join(classifiers.Names(), ", "))
	} else {
		if cnode != nil {
			errs = append(errs, decodeStrict(file, cnode, c)...)
		}
		if verr := c.Validate(); verr != nil {
			add(line("classifier"), "classifier: %v", verr)
		}
		cfg.ClassifierCfg = c
	}
	// Estimator: {name: ..., classprior options...}.
	ename, enode, err := splitName(&cfg.Estimator, "alphamax-n")
	if err != nil {
		add(cfg.Estimator.Line, "estimator: %v", err)
	} else {
		cfg.EstimatorName = ename
		if !slices.Contains(classprior.Methods(), ename) {
			add(keyLineOr(&cfg.Estimator, "name", line("estimator")), "estimator.name %q: want one of %s", ename, strings.Join(classprior.Methods(), ", "))
		}
		if enode != nil {
			errs = append(errs, decodeStrict(file, enode, &cfg.EstimatorOpts)...)
		}
		if verr := cfg.EstimatorOpts.Validate(); verr != nil {
			add(line("estimator"), "estimator: %v", verr)
		}
	}

	// What to measure.
	if known, ok := knownMetrics[cfg.Protocol.Name]; ok {
		if len(cfg.Metrics) == 0 {
			cfg.Metrics = slices.Clone(known)
		}
		for _, m := range cfg.Metrics {
			if !slices.Contains(known, m) {
				add(line("metrics"), "metrics: %q is not a %s metric (want %s)", m, cfg.Protocol.Name, strings.Join(known, ", "))
			}
		}
	}
	if len(cfg.Truth) == 0 {
		cfg.Truth = []string{TruthTraditional, TruthSameModel}
		if !aaai {
			cfg.Truth = []string{TruthSameModel}
		}
	}
	for _, t := range cfg.Truth {
		switch {
		case t != TruthTraditional && t != TruthSameModel:
			add(line("truth"), "truth: %q: want %s or %s", t, TruthTraditional, TruthSameModel)
		case t == TruthTraditional && !aaai:
			add(line("truth"), "truth: %s is defined for aaai2017 only (PSB-2019 judges the PU classifier itself)", t)
		}
	}
	if len(cfg.Outside) == 0 {
		cfg.Outside = []string{"drop", "clip"}
	}
	for _, o := range cfg.Outside {
		if _, err := recovery.ParseOutside(o); err != nil {
			add(line("outside"), "outside: %q: want drop or clip", o)
		}
	}
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(a, b FieldError) int { return a.Line - b.Line })
		return nil, errs
	}
	return cfg, nil
}

// Labeled returns n_L (aaai2017) or n_l (psb2019, 0 = the paper's rule) of a data set.
func (c *Config) Labeled(d DatasetSpec) int {
	if d.Labeled > 0 {
		return d.Labeled
	}
	return c.Protocol.Labeled
}

// splitName takes the "name" key out of a {name: ..., options...} mapping
// and returns it (def when absent) and the node of the remaining keys.
func splitName(n *yaml.Node, def string) (string, *yaml.Node, error) {
	if n.Kind == 0 {
		return def, nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return "", nil, fmt.Errorf("want a mapping with a name and options, got %s", kindName(n))
	}
	rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	name := def
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "name" {
			name = n.Content[i+1].Value
			continue
		}
		rest.Content = append(rest.Content, n.Content[i], n.Content[i+1])
	}
	return name, rest, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return "a scalar"
	case yaml.SequenceNode:
		return "a list"
	}
	return "something else"
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
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

func keyLineOr(m *yaml.Node, key string, def int) int {
	if l := keyLine(m, key); l > 0 {
		return l
	}
	return def
}

func hasDup(xs []float64) bool {
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			if xs[i] == xs[j] {
				return true
			}
		}
	}
	return false
}

// formatBeta is the canonical text of a grid value (shortest round-trip form).
func formatBeta(b float64) string { return strconv.FormatFloat(b, 'g', -1, 64) }

// yamlNodeType is skipped by checkKnown: such fields are decoded by their own rules.
var yamlNodeType = reflect.TypeOf(yaml.Node{})

// PSBSizesFor returns the labeled and unlabeled sizes of a data set of n rows
// and n1 positives under psb2019: the config's when given, else the paper's rule.
func (c *Config) PSBSizesFor(d DatasetSpec, n, n1 int) (int, int, error) {
	if d.Unlabeled > 0 {
		l := d.Labeled
		if l == 0 {
			l = d.Unlabeled / 10
		}
		return l, d.Unlabeled, nil
	}
	l, u, err := pusplit.PSBSizes(n, n1, c.Betas)
	if d.Labeled > 0 {
		l = d.Labeled
	}
	return l, u, err
}
