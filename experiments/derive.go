package experiments

import (
	"cmp"
	"io/fs"
	"slices"

	"github.com/pueval/pueval/experiments/results"
)

// Derivation returns the built-in config this config derives from, and the
// settings in which it differs: a copy of a paper's config with some
// settings changed (an ablation) says what it changed. The candidates are
// the built-in configs with the same protocol (a paper's protocol); of
// them the one whose settings differ in the fewest entries (Settings,
// results.SettingsDiff) is chosen, on a tie the one with the same report,
// then the first by name. It returns nil for a built-in config itself and
// for a config whose protocol no built-in config has. Built-in configs
// that do not load with this binary's plug-ins are passed over.
func (c *Config) Derivation() *results.Derivation {
	if _, builtin := BuiltinName(c.Source); builtin || c.Protocol == nil {
		return nil
	}
	type candidate struct {
		source     string
		diffs      []string
		sameReport bool
	}
	mine := c.Settings()
	var cands []candidate
	for _, name := range BuiltinConfigs() {
		b, err := readBuiltin(name)
		if err != nil || b.Protocol == nil || b.Protocol.Name() != c.Protocol.Name() {
			continue
		}
		cands = append(cands, candidate{b.Source, results.SettingsDiff(b.Settings(), mine), b.Report == c.Report})
	}
	if len(cands) == 0 {
		return nil
	}
	best := slices.MinFunc(cands, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(len(a.diffs), len(b.diffs)), -cmpBool(a.sameReport, b.sameReport), cmp.Compare(a.source, b.source))
	})
	return &results.Derivation{Config: best.source, Differences: append([]string{}, best.diffs...)}
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// readBuiltin parses the built-in config name from its embedded file (not
// from a file of that name in the working directory, as ReadConfig would).
func readBuiltin(name string) (*Config, error) {
	bc, ok := builtinConfig(name)
	if !ok {
		return nil, fs.ErrNotExist
	}
	b, err := fs.ReadFile(bc.fsys, name+".yaml")
	if err != nil {
		return nil, err
	}
	return ParseConfig(b, embeddedSource(bc.dir, name), LoadOptions{})
}
