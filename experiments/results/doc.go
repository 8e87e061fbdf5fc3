// Package results stores what an experiment produces:
//
//   - records.jsonl: one JSON object per finished cell ([Record]), written
//     with a single append and an fsync each, so a killed run loses at most
//     the cell in flight. On reopening, a torn last line is cut off, a
//     failed cell's later record (its retry) supersedes it, and cells whose
//     last record is "ok" count as done, so a re-run skips them and retries
//     failed ones. A finished cell recorded twice is refused, naming both
//     lines, unless the two records are the same but for timings and
//     training work (a re-appended copy: the first is kept); so is a
//     records file pueval did not write (no manifest beside it, or a first
//     line that is not a record), which is left as it is.
//     [Store.Finalize] puts the file in grid order, one record per cell, so
//     the finished file does not depend on the number of workers or on
//     interruptions (timings aside); a file already in order is not
//     rewritten, and a rewrite (atomic, through a temporary file) that fails
//     leaves every record in place.
//   - manifest.json ([Manifest]): config hash, code version, the report,
//     protocol, estimators, truths and measures the config names, every
//     setting that can change a record (each plug-in with its options), the
//     built-in config the config derives from with the settings it changed
//     ([Derivation]), data fingerprints, start and end times, machine;
//     written atomically. [SettingsDiff] names the settings in which two
//     manifests differ.
//   - a content-keyed cache ([Cache]): the out-of-bag scores (and
//     labels) of a cell under a key hashed from everything that determines
//     them (data fingerprint, split, classifier configuration, seed), so an
//     ablation that changes only the estimator or the recovery reuses them;
//     and the estimates of the estimators, under a key of the estimator's
//     options, its input and its random stream, so one that changes only the
//     measures or the truths reuses those too. Entries carry a SHA-256
//     checksum over their key and content, so a corrupt entry, or one
//     renamed or swapped on disk, is reported and treated as missing (an
//     entry of the first layout, whose checksum did not cover its key, is
//     a miss and is rewritten).
//     Every entry is written to a temporary file and renamed into place, so
//     runs on several machines (the shards of a Slurm job array) can share
//     one cache on a shared file system: a reader sees a whole entry or
//     none, and two writers of one key write the same bytes.
//
// [Merge] joins the directories of the shards of one config (pueval run
// --shard k/n, a manifest's Selection) into one: records in grid order, a
// manifest that lists the shards ([ShardRun]); it refuses shards of another
// config (naming the settings that differ), overlapping cells, torn records, records whose identity is not
// their cell's and, unless asked, missing cells. It needs only read
// permission on the shards. A run continuing a merged directory keeps its
// shards in the manifest and adds itself to its runs ([RunInfo]).
//
// # Schema
//
// Records and manifests carry a schema version (SchemaVersion, 2). A record's
// metrics are keyed by metric name and then by what the value estimates
// (the key constants: pu, truth:ID, direct:SOURCE, ...). Schema-1 records
// (keys truth, IR, CE_truth, ...) are upgraded on reading by an
// exact key mapping ([UpgradeRecord]), so their directories are reported and
// continued as they are; a record of any other schema is an error.
//
// The package imports no other stage: the runner fills the records.
package results
