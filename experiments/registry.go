package experiments

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Plugin is what every registered option struct implements (the pattern
// of classifiers.Config): a config loader takes a fresh one with its
// defaults from the registry, decodes the YAML options into it strictly
// (an unknown option is an error with its line), and calls Validate. Key is
// a canonical string of everything in the options that can change a
// result, for caches and for telling two configs apart; execution-only
// options (worker counts) stay out of it.
type Plugin interface {
	Name() string
	Validate() error
	Key() string
}

// Entry is one registered plug-in: its name, a line of documentation and
// the constructor of its default options.
type Entry[C Plugin] struct {
	Name     string
	Doc      string
	Defaults func() C
}

// Registry maps names to plug-ins of one kind (protocols, sources, truths,
// measures). It is safe for concurrent use; registration normally happens
// in init functions.
type Registry[C Plugin] struct {
	kind    string
	mu      sync.RWMutex
	entries map[string]Entry[C]
}

func newRegistry[C Plugin](kind string) *Registry[C] {
	return &Registry[C]{kind: kind, entries: map[string]Entry[C]{}}
}

// Register adds a plug-in. It panics on an empty name, a nil constructor,
// a constructor whose Name differs from name, or a duplicate: registration
// happens at init time, where each is a programming error.
func (r *Registry[C]) Register(name, doc string, defaults func() C) {
	if name == "" || defaults == nil {
		panic(fmt.Sprintf("experiments: %s registered with an empty name or nil constructor", r.kind))
	}
	if got := defaults().Name(); got != name {
		panic(fmt.Sprintf("experiments: %s %q registered with options named %q", r.kind, name, got))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.entries[name]; dup {
		panic(fmt.Sprintf("experiments: %s %q registered twice", r.kind, name))
	}
	r.entries[name] = Entry[C]{Name: name, Doc: doc, Defaults: defaults}
}

// Names lists the registered names, sorted.
func (r *Registry[C]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.entries))
}

// Entries lists the registered plug-ins, sorted by name.
func (r *Registry[C]) Entries() []Entry[C] {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Entry[C], 0, len(r.entries))
	for _, n := range slices.Sorted(maps.Keys(r.entries)) {
		out = append(out, r.entries[n])
	}
	return out
}

// Defaults returns fresh default options of the named plug-in.
func (r *Registry[C]) Defaults(name string) (C, error) {
	r.mu.RLock()
	e, ok := r.entries[name]
	r.mu.RUnlock()
	if !ok {
		var zero C
		return zero, fmt.Errorf("unknown %s %q (known: %s)", r.kind, name, strings.Join(r.Names(), ", "))
	}
	return e.Defaults(), nil
}

// The registries of the plug-in kinds that live in this package.
// Classifiers and class-prior estimators have theirs in their own packages
// (classifiers.Defaults, classprior.Defaults); reports in package report.
var (
	// Protocols turn a cell's data into labeled and unlabeled sets.
	Protocols = newRegistry[ProtocolConfig]("protocol")
	// Sources load a data set: the UCI catalog, generators, ready-made scores.
	Sources = newRegistry[SourceConfig]("source")
	// Truths define what a recovered metric is compared with.
	Truths = newRegistry[TruthConfig]("truth")
	// Measures compute a cell's metrics.
	Measures = newRegistry[MeasureConfig]("measure")
)
