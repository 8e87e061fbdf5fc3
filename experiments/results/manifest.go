package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// ManifestFile is the name of the manifest in a results directory.
const ManifestFile = "manifest.json"

// Manifest describes a run of an experiment: what was run, with which code and
// data, on which machine, and when.
type Manifest struct {
	Schema     int    `json:"schema"`
	Experiment string `json:"experiment"`
	// Config is where the config came from: an absolute path, or a
	// built-in config's "papers/P/NAME.yaml (embedded)". Manifests written
	// before it was made absolute may hold a path relative to the directory
	// the run started in.
	Config     string `json:"config"`
	ConfigHash string `json:"config_hash"` // sha256 of the config file's bytes
	// ConfigKey is the sha256 of the config's science-relevant part (every
	// setting that can change a record; experiments.Config.Key): a results
	// directory belongs to one ConfigKey. Empty in schema-1 manifests.
	ConfigKey   string `json:"config_key,omitempty"`
	CodeVersion string `json:"code_version"`
	GoVersion   string `json:"go_version"`
	Kernel      string `json:"kernel,omitempty"` // classifier kernel used (e.g. scalar, avx512)
	// Report names the report the config asks for (its report: field; a
	// registered report of package report). Empty in schema-1 manifests.
	Report string `json:"report,omitempty"`
	// Protocol is the config's protocol name.
	Protocol string `json:"protocol,omitempty"`
	// Estimators, Truths and Metrics are the IDs of the config's estimators,
	// truths and measures, in the config's order: the first estimator is the
	// one a paper's "E" columns use.
	Estimators  []string          `json:"estimators,omitempty"`
	Truths      []string          `json:"truths,omitempty"`
	Metrics     []string          `json:"metrics,omitempty"`
	Data        map[string]string `json:"data,omitempty"`        // data set -> fingerprint
	Unavailable map[string]string `json:"unavailable,omitempty"` // data sets skipped, with the reason
	Warnings    []string          `json:"warnings,omitempty"`    // about the data (e.g. an incomplete data set)
	Cells       int               `json:"cells"`
	Done        int               `json:"done"`
	Failed      int               `json:"failed"`
	Started     time.Time         `json:"started"`
	Finished    *time.Time        `json:"finished,omitempty"` // nil while running or interrupted
	// Machine is where the run happened; for a directory written by Merge,
	// where the merge ran (Shards says where each shard ran).
	Machine Machine `json:"machine"`
	// Selection is the part of the grid the run was asked for (pueval
	// run's --repeats, --datasets, --shard); absent for the whole grid. Merge
	// reads it to know which cells each shard must hold.
	Selection *Selection `json:"selection,omitempty"`
	// Shards lists the shards a directory written by Merge was merged from,
	// in shard order; absent for a run.
	Shards []ShardRun `json:"shards,omitempty"`
	// Runs lists the runs that continued a directory written by Merge
	// (pueval run into the output of a --partial merge), in order; absent
	// otherwise. Machine, Started, CodeVersion and the like above are then
	// the last run's; Shards stay the shards'.
	Runs []RunInfo `json:"runs,omitempty"`
	// Traditional describes the traditional-truth bags this run trained
	// (by data set; absent when their scores came from the score cache).
	Traditional map[string]*Work `json:"traditional,omitempty"`
	// Settings are the config's settings that can change a record, by name
	// (experiments.Config.Settings): what a refusal to continue the
	// directory with another config names. Absent in older manifests.
	Settings map[string]string `json:"settings,omitempty"`
	// Derived names the built-in config (a paper's) the run's config
	// derives from and the settings in which it differs
	// (experiments.Config.Derivation): what an ablation changed. Absent
	// for a built-in config, for a config whose protocol no built-in
	// config has, and in older manifests.
	Derived *Derivation `json:"derived,omitempty"`
}

// Derivation is a config's relation to the built-in config it derives
// from.
type Derivation struct {
	// Config is the built-in config's source: "papers/aul/aul.yaml
	// (embedded)".
	Config string `json:"config"`
	// Differences are the settings that differ, the built-in config's value
	// first (SettingsDiff): "repeats: 20 -> 2". Empty when none does (a copy
	// of the file, renamed or not).
	Differences []string `json:"differences"`
}

// Machine identifies where a run happened.
type Machine struct {
	Host string `json:"host"`
	OS   string `json:"os"`
	Arch string `json:"arch"`
	CPUs int    `json:"cpus"`
}

// Selection is the part of a config's grid that a run was asked for: the
// first Repeats repeats (0: all), the data sets Datasets (none: all) and,
// when Shards > 0, shard Shard of Shards (the cells whose grid index is
// Shard-1 mod Shards).
type Selection struct {
	Repeats  int      `json:"repeats,omitempty"`
	Datasets []string `json:"datasets,omitempty"`
	Shard    int      `json:"shard,omitempty"`
	Shards   int      `json:"shards,omitempty"`
}

// IsZero reports whether the selection is the whole grid.
func (s Selection) IsZero() bool {
	return s.Repeats == 0 && len(s.Datasets) == 0 && s.Shards == 0
}

// ShardRun describes one shard of a merged directory: where it was, which
// shard it ran, on which machine, when, and with which code.
type ShardRun struct {
	// Dir is the shard's directory: relative to the merged directory when
	// it lies inside it (shards/2), else absolute.
	Dir         string     `json:"dir"`
	Shard       string     `json:"shard"` // "k/n"
	Machine     Machine    `json:"machine"`
	Started     time.Time  `json:"started"`
	Finished    *time.Time `json:"finished,omitempty"`
	CodeVersion string     `json:"code_version"`
	GoVersion   string     `json:"go_version"`
	Kernel      string     `json:"kernel,omitempty"`
	Cells       int        `json:"cells"`   // cells the shard was asked for
	Records     int        `json:"records"` // records merged from it
	Failed      int        `json:"failed"`  // of Records, with status failed
}

// RunInfo describes a run that continued a merged directory: where, when,
// with which code, on which part of the grid, and the cells it ran.
type RunInfo struct {
	Machine     Machine    `json:"machine"`
	Started     time.Time  `json:"started"`
	Finished    *time.Time `json:"finished,omitempty"` // nil while running or interrupted
	CodeVersion string     `json:"code_version"`
	GoVersion   string     `json:"go_version"`
	Kernel      string     `json:"kernel,omitempty"`
	Selection   *Selection `json:"selection,omitempty"`
	Ran         int        `json:"ran"`    // cells it ran (ok or failed)
	Failed      int        `json:"failed"` // of Ran, with status failed
}

// ContinueMerge keeps, in m (the manifest of a run starting in a directory
// whose manifest is old), the provenance of a directory written by Merge:
// old's shards and the runs that continued it, with this run (m's machine,
// start, code and selection) added last. A run's manifest as old changes
// nothing.
func (m *Manifest) ContinueMerge(old Manifest) {
	if len(old.Shards) == 0 {
		return
	}
	m.Shards = slices.Clone(old.Shards)
	m.Runs = append(slices.Clone(old.Runs), RunInfo{Machine: m.Machine, Started: m.Started, CodeVersion: m.CodeVersion,
		GoVersion: m.GoVersion, Kernel: m.Kernel, Selection: m.Selection})
}

// EndRun records in the run that ContinueMerge added how many cells it ran
// and failed, and when it finished (nil: it stopped before the end). Without
// such a run it does nothing.
func (m *Manifest) EndRun(finished *time.Time, ran, failed int) {
	if len(m.Runs) == 0 {
		return
	}
	r := &m.Runs[len(m.Runs)-1]
	r.Finished, r.Ran, r.Failed = finished, ran, failed
}

// WriteManifest writes dir/manifest.json atomically.
func WriteManifest(dir string, m Manifest) error {
	m.Schema = SchemaVersion
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, ManifestFile), append(b, '\n'))
}

// ReadManifest reads dir/manifest.json (schema 1 or the current one; its
// Schema field says which).
func ReadManifest(dir string) (Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return Manifest{}, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", path, err)
	}
	// Schema 1 had no report, protocol or plug-in lists; everything else reads the same.
	if m.Schema != 1 && m.Schema != SchemaVersion {
		return Manifest{}, fmt.Errorf("%s: manifest schema %d: this pueval reads schemas 1 and %d", path, m.Schema, SchemaVersion)
	}
	return m, nil
}
