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
// reference digests of their runs: ReferenceDir/NAME.digests for the
// built-in config NAME (package experiments/reference reads them).
const ReferenceDir = "reference"

// referenceExt ends the name of a digest file.
const referenceExt = ".digests"

// registerReferences checks the digest files of fsys (under ReferenceDir),
// each of which must name one of the configs names; the caller holds
// builtinMu.
func registerReferences(dir string, fsys fs.FS, names []string) {
	files, err := fs.Glob(fsys, path.Join(ReferenceDir, "*"+referenceExt))
	if err != nil {
		panic(fmt.Sprintf("experiments: RegisterConfigs(%q): %v", dir, err))
	}
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), referenceExt)
		if !slices.Contains(names, name+".yaml") {
			panic(fmt.Sprintf("experiments: RegisterConfigs(%q): %s names no config of the folder", dir, f))
		}
	}
}

// ReferenceDigests returns the reference digest file shipped with the
// built-in config name (ReferenceDir/name.digests beside it) and where it
// comes from ("papers/P/reference/NAME.digests (embedded)"). ok is false
// when name is no built-in config or ships no digests.
func ReferenceDigests(name string) (data []byte, source string, ok bool, err error) {
	bc, found := builtinConfig(name)
	if !found {
		return nil, "", false, nil
	}
	file := path.Join(ReferenceDir, name+referenceExt)
	data, err = fs.ReadFile(bc.fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", false, nil
	}
	source = path.Join(bc.dir, file) + embeddedSuffix
	if err != nil {
		return nil, source, false, err
	}
	return data, source, true, nil
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
