package experiments

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// ReferenceDir is the folder, beside a paper's embedded configs, of the
// reference digests of their runs: ReferenceDir/NAME.digests, or
// NAME.digests.gz compressed, for the built-in config NAME (package
// experiments/reference reads them).
const ReferenceDir = "reference"

// referenceExts end the names of digest files, plain and compressed.
var referenceExts = []string{".digests", ".digests.gz"}

// registerReferences checks the files of fsys under ReferenceDir: each a
// digest file of one of the configs names, at most one per config; the
// caller holds builtinMu.
func registerReferences(dir string, fsys fs.FS, names []string) {
	entries, err := fs.ReadDir(fsys, ReferenceDir)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		panic(fmt.Sprintf("experiments: RegisterConfigs(%q): %v", dir, err))
	}
	seen := map[string]string{}
	for _, e := range entries {
		name, ok := "", false
		for _, ext := range referenceExts {
			if n, cut := strings.CutSuffix(e.Name(), ext); cut && !ok {
				name, ok = n, true
			}
		}
		if !ok || !slices.Contains(names, name+".yaml") {
			panic(fmt.Sprintf("experiments: RegisterConfigs(%q): %s/%s is no digest file of a config of the folder", dir, ReferenceDir, e.Name()))
		}
		if other, dup := seen[name]; dup {
			panic(fmt.Sprintf("experiments: RegisterConfigs(%q): %s and %s are both digests of %s", dir, other, e.Name(), name))
		}
		seen[name] = e.Name()
	}
}

// ReferenceDigests returns the reference digest file shipped with the
// built-in config name (ReferenceDir/name.digests or name.digests.gz beside
// it; package reference reads either) and where it comes from
// ("papers/P/reference/NAME.digests (embedded)"). ok is false when name is
// no built-in config or ships no digests.
func ReferenceDigests(name string) (data []byte, source string, ok bool, err error) {
	bc, found := builtinConfig(name)
	if !found {
		return nil, "", false, nil
	}
	for _, ext := range referenceExts {
		file := path.Join(ReferenceDir, name+ext)
		data, err = fs.ReadFile(bc.fsys, file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		source = path.Join(bc.dir, file) + embeddedSuffix
		if err != nil {
			return nil, source, false, err
		}
		return data, source, true, nil
	}
	return nil, "", false, nil
}

// BuiltinDir is the folder a built-in config was registered from
// ("papers/P"), and false for a name that is no built-in config.
func BuiltinDir(name string) (string, bool) {
	bc, ok := builtinConfig(name)
	return bc.dir, ok
}

// Reproduction is a paper's reproduction: the built-in configs whose runs
// make it, in the order they run (a later one may reuse an earlier one's
// cached scores and estimates), and those of its smoke run (the same
// pipeline in seconds).
type Reproduction struct {
	Paper string // the paper's name, e.g. "aul"
	Full  []string
	Smoke []string
}

var reproductions = map[string]Reproduction{}

// RegisterReproduction adds a paper's reproduction (pueval reproduce-all
// runs every one). Its configs must be registered first (RegisterConfigs).
// It panics on an empty or duplicate paper, no full or smoke config, or a
// config that is not registered: registration happens in init, where these
// are programming errors.
func RegisterReproduction(r Reproduction) {
	builtinMu.Lock()
	defer builtinMu.Unlock()
	if r.Paper == "" || len(r.Full) == 0 || len(r.Smoke) == 0 {
		panic(fmt.Sprintf("experiments: RegisterReproduction(%q): want a paper, full configs and smoke configs", r.Paper))
	}
	if _, dup := reproductions[r.Paper]; dup {
		panic(fmt.Sprintf("experiments: RegisterReproduction(%q) called twice", r.Paper))
	}
	for _, name := range slices.Concat(r.Full, r.Smoke) {
		if _, ok := builtins[name]; !ok {
			panic(fmt.Sprintf("experiments: RegisterReproduction(%q): %s is no registered config", r.Paper, name))
		}
	}
	r.Full, r.Smoke = slices.Clone(r.Full), slices.Clone(r.Smoke)
	reproductions[r.Paper] = r
}

// Reproductions are the registered reproductions, sorted by paper.
func Reproductions() []Reproduction {
	builtinMu.RLock()
	defer builtinMu.RUnlock()
	out := make([]Reproduction, 0, len(reproductions))
	for _, r := range reproductions {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Reproduction) int { return strings.Compare(a.Paper, b.Paper) })
	return out
}
