// Package reference computes the digests of a run's records and compares a
// run with a reference run of the same config, cell by cell.
//
// pueval's records are the same bits on every CPU and architecture, for any
// worker count and any order of the cells, so a run of a config can be
// checked against a run made elsewhere without shipping its records: only
// their digests. A record's digest ([Of]) is the FNV-64a hash of its JSON
// line (as [results.Record.Marshal] writes it) without its timings, its
// training work and its kernel name (how long and on what it ran, not what
// it found). Go writes a float64 in JSON as the shortest text that reads
// back to the same bits, so the digest sees every bit of every number.
//
// Beside the record's digest every field group has a 32-bit digest of its
// own (the FNV-64a hash of its JSON, folded), so that a cell that differs
// names what differs in it: identity (schema, experiment, cell, data set,
// grid values and repeat together), seed, sizes, alpha, beta, status,
// error, warnings, and one group per estimate (estimates.ID), per measure
// (metrics.NAME) and per curve (curves.NAME).
//
// A digest file ([Write], [Read]) holds a header line of JSON (what the
// reference run was: experiment, config key and hash, code and Go version,
// kernel, machine, data fingerprints, the config's settings, the field
// groups) and one line per cell, in the grid order of the run's records:
//
//	pueval reference digests 1
//	{"experiment":"aaai2017-smoke","config_key":"…",…,"fields":["alpha","beta",…]}
//	HASH16 F1 F2 … CELL
//
// where HASH16 is the record's digest in 16 hex digits, each F the digest of
// one field group of the header's list in 8 hex digits ("-" when the record
// has no such group), and CELL the cell's identity, the rest of the line.
//
// [Compare] sets a run's records and manifest against a reference: cells
// identical, cells that differ (with the field groups that differ), cells
// of the reference the run does not hold (outside the run's selection, of a
// data set the run could not use, or missing) and cells the reference does
// not hold (of a data set the reference run could not use, which are not
// compared, or extra); and, when they are not all identical, the likely
// causes the
// manifests show: another config (the settings that differ), other data
// (the data sets whose fingerprints differ), another code version.
package reference
