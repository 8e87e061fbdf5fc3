package datasets

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Dataset is an encoded data set: n rows of d features, and a label per row.
type Dataset struct {
	Name string
	// X is the n x d feature matrix, rows and columns in file order.
	X *mat.Dense
	// Y is true for positive rows.
	Y []bool
	// Classes are the distinct values of the target column among the rows,
	// sorted, and ClassIndex is the index in Classes of each row's value:
	// what a one-vs-rest rule picks its positives from (Retarget). Both are
	// nil when the target is numeric (a greater_than/less_than rule).
	Classes    []string
	ClassIndex []int32
	Columns    []Column // one per column of X
	N          int      // rows
	NPos       int      // positive rows
	D          int      // features
	// Fingerprint is the sha256 of the encoded data (see package doc); it
	// equals the catalog's when the data verified.
	Fingerprint string
	// Complete is false when optional files were missing (Missing lists
	// them) and the data set holds fewer rows than the paper's.
	Complete bool
	Missing  []string
	Notes    string   // the catalog's notes
	Warnings []string // shortfalls, unverifiable fingerprints, ...
	Files    []FileInfo
	// FromCache is true when the data came from the encoded cache rather
	// than from parsing the raw files.
	FromCache bool
}

// FileInfo records where one catalogued file came from.
type FileInfo struct {
	Path        string `json:"path"`              // catalog path
	Used        string `json:"used"`              // archive path actually read (an extracted member, a decompressed twin)
	Local       string `json:"local"`             // file in the cache
	SHA256      string `json:"sha256"`            // of the raw bytes of Local
	Rows        int    `json:"rows"`              // rows it contributes
	Fingerprint string `json:"fingerprint"`       // of those rows
	Missing     bool   `json:"missing,omitempty"` // an optional file that was not found
}

// OneHotGroups returns the column indices of each one-hot group (columns of
// kind OneHot sharing a Source), in column order.
func (d *Dataset) OneHotGroups() [][]int {
	var groups [][]int
	idx := map[string]int{}
	for j, c := range d.Columns {
		if c.Kind != OneHot {
			continue
		}
		g, ok := idx[c.Source]
		if !ok {
			g = len(groups)
			idx[c.Source] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], j)
	}
	return groups
}

// FingerprintError says that data parsed from a file do not match the
// catalog's fingerprint.
type FingerprintError struct {
	Dataset  string
	File     string // catalog path; empty when every file matched but the whole did not
	Local    string // the file that was read
	Expected string
	Got      string
	// Rejected says what became of the raw files in the cache that may hold
	// the bad data: those behind File (its data and labels files), or, when
	// File is empty, those without a fingerprint of their own. A copy that
	// pueval fetched is removed, so that the next load fetches it again
	// rather than failing on the same copy after the mirror has been fixed;
	// a file put in the cache by hand is kept.
	Rejected []RejectedFile
}

func (e *FingerprintError) Error() string {
	if e.File == "" {
		if len(e.Rejected) == 0 {
			return fmt.Sprintf("%s: fingerprint mismatch of the encoded data set: expected %s, got %s (every file matched its own fingerprint, so the encoding or the catalog entry changed)",
				e.Dataset, e.Expected, e.Got)
		}
		return fmt.Sprintf("%s: fingerprint mismatch of the encoded data set: expected %s, got %s (every file with a fingerprint of its own matched it; of those without one, %s)",
			e.Dataset, e.Expected, e.Got, rejectedText(e.Rejected, ""))
	}
	msg := fmt.Sprintf("%s: fingerprint mismatch in file %s (read from %s): expected %s, got %s; the file differs from the one the catalog was made from",
		e.Dataset, e.File, e.Local, e.Expected, e.Got)
	if len(e.Rejected) == 0 {
		return msg + ": delete it from the cache to fetch it again, or fix the mirror"
	}
	return msg + ": " + rejectedText(e.Rejected, e.Local)
}

// RejectedFile records what was done with a raw file in the cache that
// failed verification (a fingerprint mismatch, or no bytes at all).
type RejectedFile struct {
	Local string // the file in the cache
	// Source is where pueval fetched it from, per uci/manifest.json; empty
	// when the cache copy was not fetched by pueval (put there by hand, or
	// replaced since it was fetched).
	Source  string
	Removed bool  // deleted from the cache: the next load fetches it again
	Err     error // why removing it failed
}

// text says what happened to the file and what to do; self is the file
// the message has already named (it is then called "it").
func (r RejectedFile) text(self string) string {
	who := r.Local
	if r.Local == self {
		who = "it"
	}
	switch {
	case r.Removed:
		return fmt.Sprintf("%s was fetched from %s and has been removed from the cache, so the next load fetches it again (fix the mirror's copy if that fails again)", who, r.Source)
	case r.Source != "":
		return fmt.Sprintf("%s was fetched from %s but could not be removed from the cache (%v): delete it, and fix the mirror's copy", who, r.Source, r.Err)
	}
	return fmt.Sprintf("%s was not fetched by pueval (uci/manifest.json has no record of this copy), so it was kept: check that file, or delete it to fetch it again", who)
}

func rejectedText(rs []RejectedFile, self string) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.text(self)
	}
	return strings.Join(parts, "; ")
}

// EmptyFileError says that a raw file, or a part of it (a zip member, a
// decompressed file), has no bytes. No catalogued file is empty, and the
// parsers would otherwise report only a symptom ("no data rows", "EOF")
// that names no file.
type EmptyFileError struct {
	Dataset  string
	File     string // catalog path
	Part     string // the empty part ("dir/a.zip!member"); empty when the file itself is
	Rejected RejectedFile
}

func (e *EmptyFileError) Error() string {
	what := fmt.Sprintf("file %s is empty: %s has 0 bytes", e.File, e.Rejected.Local)
	if e.Part != "" {
		what = fmt.Sprintf("file %s is empty: %s in %s has 0 bytes", e.File, e.Part, e.Rejected.Local)
	}
	return e.Dataset + ": " + what + "; " + e.Rejected.text(e.Rejected.Local)
}

// ErrUnavailable is matched (errors.Is) by errors for data sets that cannot
// be had: catalogued as missing from the project's mirror, and not found.
var ErrUnavailable = errors.New("data set not available")

// UnavailableError reports a data set that is catalogued as unavailable
// (Spec.Unavailable) and whose files were not found. A reproduction skips
// such a data set and reports Reason.
type UnavailableError struct {
	Dataset string
	Reason  string
	Err     error // the *MissingFileError, or nil when there is no parser
}

func (e *UnavailableError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("%s: not available: %s", e.Dataset, e.Reason)
	}
	return fmt.Sprintf("%s: not available: %s (%v)", e.Dataset, e.Reason, e.Err)
}

func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }
func (e *UnavailableError) Unwrap() error        { return e.Err }

// Store loads the data sets of a catalog from the cache and the mirror. It
// is safe for concurrent use; concurrent processes sharing a cache are safe
// too (every file is written atomically).
type Store struct {
	cat  *Catalog
	opts Options

	sharedMu sync.Mutex
	shared   map[string]*sharedLoad // LoadShared's data sets, by catalog name
}

// sharedLoad is one data set of LoadShared; mu is held while it loads, so
// that concurrent callers wait for one load instead of making several.
type sharedLoad struct {
	mu sync.Mutex
	ds *Dataset
}

// Open returns a Store for the catalog. Options usually come from
// DefaultOptions (the environment).
func Open(cat *Catalog, opts Options) (*Store, error) {
	if cat == nil {
		return nil, errors.New("datasets: nil catalog")
	}
	if opts.CacheDir == "" {
		return nil, fmt.Errorf("datasets: no cache directory (set %s)", EnvData)
	}
	if opts.Mirror == "" {
		opts.Mirror = DefaultMirror
	}
	opts.ConnectTimeout = limitOr(opts.ConnectTimeout, DefaultConnectTimeout)
	opts.HeaderTimeout = limitOr(opts.HeaderTimeout, DefaultHeaderTimeout)
	opts.StallTimeout = limitOr(opts.StallTimeout, DefaultStallTimeout)
	return &Store{cat: cat, opts: opts}, nil
}

// Catalog returns the store's catalog.
func (s *Store) Catalog() *Catalog { return s.cat }

// Options returns the store's options.
func (s *Store) Options() Options { return s.opts }

func (s *Store) spec(name string) (*Spec, error) {
	sp, ok := s.cat.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown data set %q (catalogued: %s)", name, strings.Join(s.cat.Names(), ", "))
	}
	return sp, nil
}

// Load returns the named data set: from the encoded cache when it holds a
// copy made by the same spec whose fingerprint still checks, otherwise by
// fetching, parsing, encoding and verifying the raw files (and refreshing
// the encoded cache).
func (s *Store) Load(ctx context.Context, name string) (*Dataset, error) {
	sp, err := s.spec(name)
	if err != nil {
		return nil, err
	}
	if sp.Format.Kind == "none" {
		return nil, &UnavailableError{Dataset: sp.Name, Reason: sp.Unavailable}
	}
	if ds := s.loadEncoded(sp); ds != nil {
		return ds, nil
	}
	return s.build(ctx, sp, true)
}

// LoadShared is Load for callers that only read the data: each data set is
// loaded once per Store, and every call returns that same *Dataset (the
// same X), so that a run using one catalog entry under several label rules
// (Retarget; 20 Newsgroups one-group-vs-rest is 10 x 150 MB otherwise)
// holds its features once. The result must not be modified. A failed load
// is not remembered: the next call tries again.
func (s *Store) LoadShared(ctx context.Context, name string) (*Dataset, error) {
	s.sharedMu.Lock()
	if s.shared == nil {
		s.shared = map[string]*sharedLoad{}
	}
	e := s.shared[name]
	if e == nil {
		e = &sharedLoad{}
		s.shared[name] = e
	}
	s.sharedMu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ds != nil {
		return e.ds, nil
	}
	ds, err := s.Load(ctx, name)
	if err != nil {
		return nil, err
	}
	e.ds = ds
	return ds, nil
}

// Retarget returns the data set under a one-vs-rest label rule: a row is
// positive when its class (Classes, ClassIndex) matches one of the
// patterns, in the syntax of the catalog's target.positive (exact values;
// *, ? and [ ] glob), and negative otherwise. Rows the catalog's rule drops
// (target.negative) stay dropped. The result shares X, Columns, Classes
// and ClassIndex with d; only the labels are new.
//
// A rule that picks no class, or every class, is an error listing the
// classes. The fingerprint of the result identifies its content: d's when
// the labels are d's, else the hex sha256 of "pueval-retarget-v1" 0x00,
// d's fingerprint (which identifies X), 0x00, a byte per row (1 positive,
// 0 negative) and n as uint64 LE. It costs O(n), not a pass over X.
func (d *Dataset) Retarget(positive []string) (*Dataset, error) {
	if d.Classes == nil {
		return nil, fmt.Errorf("%s: its target is a number (a greater_than or less_than rule), so it has no classes to make positive", d.Name)
	}
	if len(positive) == 0 {
		return nil, fmt.Errorf("%s: no positive class given", d.Name)
	}
	for _, p := range positive {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("%s: bad pattern %q in positive: %v", d.Name, p, err)
		}
	}
	pos := make([]bool, len(d.Classes))
	npc := 0
	for i, c := range d.Classes {
		if pos[i] = matchValue(c, positive); pos[i] {
			npc++
		}
	}
	switch npc {
	case 0:
		return nil, fmt.Errorf("%s: positive %q matches none of its %d classes (%s)", d.Name, positive, len(d.Classes), strings.Join(d.Classes, ", "))
	case len(d.Classes):
		return nil, fmt.Errorf("%s: positive %q matches every one of its %d classes (%s), which leaves no negatives", d.Name, positive, len(d.Classes), strings.Join(d.Classes, ", "))
	}
	r := *d
	r.Y = make([]bool, len(d.ClassIndex))
	r.NPos = 0
	for i, c := range d.ClassIndex {
		if r.Y[i] = pos[c]; r.Y[i] {
			r.NPos++
		}
	}
	r.Warnings = slices.Clone(d.Warnings)
	if !slices.Equal(r.Y, d.Y) {
		r.Fingerprint = retargetFingerprint(d.Fingerprint, r.Y)
	}
	return &r, nil
}

// retargetFingerprint is the fingerprint of base's features with labels y
// (see Retarget).
func retargetFingerprint(base string, y []bool) string {
	h := sha256.New()
	h.Write([]byte("pueval-retarget-v1\x00" + base + "\x00"))
	b := make([]byte, len(y), len(y)+8)
	for i, v := range y {
		if v {
			b[i] = 1
		}
	}
	h.Write(binary.LittleEndian.AppendUint64(b, uint64(len(y))))
	return hex.EncodeToString(h.Sum(nil))
}

// Verify parses the named data set from its raw files, ignoring the encoded
// cache, checks every fingerprint, and refreshes the encoded cache.
func (s *Store) Verify(ctx context.Context, name string) (*Dataset, error) {
	sp, err := s.spec(name)
	if err != nil {
		return nil, err
	}
	if sp.Format.Kind == "none" {
		return nil, &UnavailableError{Dataset: sp.Name, Reason: sp.Unavailable}
	}
	return s.build(ctx, sp, true)
}

// Fetch makes sure the raw files of the named data set are in the cache,
// copying or downloading what is missing. Missing optional files are
// reported in the result (Missing) rather than as an error.
func (s *Store) Fetch(ctx context.Context, name string) ([]FileInfo, error) {
	sp, err := s.spec(name)
	if err != nil {
		return nil, err
	}
	var out []FileInfo
	for _, f := range sp.Files {
		for _, p := range []string{f.Path, f.Labels} {
			if p == "" {
				continue
			}
			rf, err := s.opts.find(ctx, sp.Name, p)
			var me *MissingFileError
			if errors.As(err, &me) && f.Optional {
				out = append(out, FileInfo{Path: p, Missing: true})
				continue
			}
			if err != nil {
				return out, s.unavailable(sp, err)
			}
			out = append(out, FileInfo{Path: p, Used: rf.cand.rel, Local: rf.local, SHA256: rf.sha256})
		}
	}
	return out, nil
}

func (s *Store) unavailable(sp *Spec, err error) error {
	var me *MissingFileError
	if sp.Unavailable != "" && errors.As(err, &me) {
		return &UnavailableError{Dataset: sp.Name, Reason: sp.Unavailable, Err: err}
	}
	return err
}

// readFormat parses one part according to the format.
func readFormat(f Format, p part) (records, error) {
	switch f.Kind {
	case "delimited":
		return parseDelimited(p.data, delimiterByte(f.Delimiter))
	case "gas":
		return parseGas(p.data, f.Width)
	case "documents":
		return parseDocuments(p.data)
	case "xls":
		rows, err := readXLS(p.data, f.Sheet)
		if err != nil {
			return records{}, err
		}
		var rec records
		for i, r := range rows {
			if slices.ContainsFunc(r, func(c string) bool { return c != "" }) {
				rec.rows = append(rec.rows, r)
				rec.lines = append(rec.lines, i+1)
			}
		}
		return rec, nil
	}
	return records{}, fmt.Errorf("no parser for format %q", f.Kind)
}

// fixedNames are the columns of formats whose layout is fixed.
func fixedNames(f Format) []string {
	switch f.Kind {
	case "gas":
		names := []string{"class", "concentration"}
		for i := 1; i <= f.Width; i++ {
			names = append(names, fmt.Sprintf("f%d", i))
		}
		return names
	case "documents":
		return []string{"path", "class", "text"}
	case "idx":
		return []string{"label", "pixels"}
	}
	return nil
}

// build fetches, parses and encodes a data set from its raw files, and
// verifies it when verify is set (only freezing new fingerprints turns it off).
func (s *Store) build(ctx context.Context, sp *Spec, verify bool) (*Dataset, error) {
	t := &sourceTable{names: fixedNames(sp.Format)}
	if t.names == nil && len(sp.Format.Names) > 0 {
		t.names = sp.Format.Names
	}
	ds := &Dataset{Name: sp.Name, Notes: strings.TrimSpace(sp.Notes), Complete: true}
	// raws[k] are the raw files read for ds.Files[k] (its data file, and
	// its labels file if any): the ones to reject if its data fail.
	raws := make([][]*rawFile, 0, len(sp.Files))
	for fi, f := range sp.Files {
		rf, err := s.opts.find(ctx, sp.Name, f.Path)
		var me *MissingFileError
		if errors.As(err, &me) && f.Optional {
			ds.Missing = append(ds.Missing, f.Path)
			ds.Files = append(ds.Files, FileInfo{Path: f.Path, Missing: true})
			raws = append(raws, nil)
			continue
		}
		if err != nil {
			return nil, s.unavailable(sp, err)
		}
		info := FileInfo{Path: f.Path, Used: rf.cand.rel, Local: rf.local, SHA256: rf.sha256}
		parts, err := s.readParts(sp, f.Path, rf)
		if err != nil {
			return nil, err
		}
		var labels *records
		var lf *rawFile
		var lparts []part
		if f.Labels != "" {
			lf, err = s.opts.find(ctx, sp.Name, f.Labels)
			if err != nil {
				return nil, s.unavailable(sp, err)
			}
			lparts, err = s.readParts(sp, f.Labels, lf)
			if err != nil {
				return nil, err
			}
			if len(parts) != 1 || len(lparts) != 1 {
				return nil, fmt.Errorf("%s: labels need exactly one data file and one labels file, got %d (%s) and %d (%s)", sp.Name, len(parts), rf.local, len(lparts), lf.local)
			}
			if sp.Format.Kind != "idx" { // idx labels are binary: readIDX reads them
				rec, err := parseDelimited(lparts[0].data, 0)
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %w (read from %s)", sp.Name, lparts[0].name, err, lf.local)
				}
				labels = &rec
			}
		}
		for _, p := range parts {
			var rec records
			var err error
			if sp.Format.Kind == "idx" {
				// Either file may be the bad one: the error names the part
				// (images or labels); both are in the same archive here.
				rec, err = readIDX(sp.Format, p, lparts[0])
				if err != nil {
					local := rf.local
					if lf.local != rf.local {
						local += " and " + lf.local
					}
					return nil, fmt.Errorf("%s: %w (read from %s)", sp.Name, err, local)
				}
			} else if rec, err = readFormat(sp.Format, p); err != nil {
				return nil, fmt.Errorf("%s: %s: %w (read from %s)", sp.Name, p.name, err, rf.local)
			}
			if err := t.add(sp, fi, p.name, rec, labels); err != nil {
				return nil, fmt.Errorf("%s: %w", sp.Name, err)
			}
		}
		ds.Files = append(ds.Files, info)
		if lf != nil && lf.local != rf.local { // MNIST's images and labels share one archive
			raws = append(raws, []*rawFile{rf, lf})
		} else {
			raws = append(raws, []*rawFile{rf})
		}
	}
	enc, err := encodeTable(sp, t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sp.Name, err)
	}
	for k := range ds.Files { // one per spec file, in spec order
		ds.Files[k].Rows = enc.fileRows[k]
		ds.Files[k].Fingerprint = enc.fileFP[k]
	}
	ds.X = mat.NewDense(enc.n, enc.d, enc.x)
	ds.Y = enc.y
	ds.Classes, ds.ClassIndex = enc.classes, enc.classIndex
	ds.Columns = enc.cols
	ds.N, ds.D = enc.n, enc.d
	for _, v := range enc.y {
		if v {
			ds.NPos++
		}
	}
	ds.Fingerprint = Fingerprint(enc.x, enc.y, enc.d)
	if err := s.check(sp, ds, verify); err != nil {
		s.reject(sp, ds, raws, err)
		return nil, err
	}
	if err := s.saveEncoded(sp, ds); err != nil {
		ds.Warnings = append(ds.Warnings, fmt.Sprintf("could not write the encoded cache: %v", err))
	}
	return ds, nil
}

// readParts checks that a raw file and each part it provides (zip members,
// a decompressed file) have bytes, and returns the parts. Errors name the
// catalog path and the file in the cache.
func (s *Store) readParts(sp *Spec, path string, rf *rawFile) ([]part, error) {
	if len(rf.data) == 0 {
		return nil, &EmptyFileError{Dataset: sp.Name, File: path, Rejected: s.opts.discardFetched(rf)}
	}
	parts, err := rf.parts()
	if err != nil {
		return nil, fmt.Errorf("%s: %w (read from %s)", sp.Name, err, rf.local)
	}
	for _, p := range parts {
		if len(p.data) == 0 {
			return nil, &EmptyFileError{Dataset: sp.Name, File: path, Part: p.name, Rejected: s.opts.discardFetched(rf)}
		}
	}
	return parts, nil
}

// reject handles the raw files behind the fingerprint errors in err (a
// *FingerprintError, or several joined): each copy that pueval fetched is
// removed from the cache (see discardFetched), and the error records what
// was done. The encoded cache entry of the data set is removed as well, so
// that no encoded copy of data the catalog rejects outlives this failure
// (one may have been written without verification, or under an older
// catalog). raws[k] are the raw files of ds.Files[k].
func (s *Store) reject(sp *Spec, ds *Dataset, raws [][]*rawFile, err error) {
	var fes []*FingerprintError
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if fe, ok := e.(*FingerprintError); ok {
				fes = append(fes, fe)
			}
		}
	} else if fe, ok := err.(*FingerprintError); ok {
		fes = append(fes, fe)
	}
	if len(fes) == 0 {
		return
	}
	os.Remove(s.encodedPath(sp.Name))
	// One raw file (a zip) may hold several catalogued files: it is
	// discarded once, and every error that involves it says so.
	done := map[string]RejectedFile{}
	for _, fe := range fes {
		for k, f := range ds.Files {
			if f.Missing || k >= len(raws) {
				continue
			}
			var suspect bool
			if fe.File != "" {
				suspect = f.Path == fe.File
			} else {
				// Every file with a fingerprint of its own matched it, so
				// the bad data can only be in one without.
				i := slices.IndexFunc(sp.Files, func(x FileSpec) bool { return x.Path == f.Path })
				suspect = i >= 0 && sp.Files[i].Fingerprint == ""
			}
			if !suspect {
				continue
			}
			for _, rf := range raws[k] {
				r, ok := done[rf.local]
				if !ok {
					r = s.opts.discardFetched(rf)
					done[rf.local] = r
				}
				fe.Rejected = append(fe.Rejected, r)
			}
		}
	}
}

// add appends a parsed part to the table, resolving the header.
func (t *sourceTable) add(sp *Spec, file int, name string, rec records, labels *records) error {
	rows, lines := rec.rows, rec.lines
	if labels != nil {
		n := len(rows)
		if sp.Format.Header {
			n--
		}
		if len(labels.rows) != n {
			return fmt.Errorf("%s: %d data rows but %d labels", name, n, len(labels.rows))
		}
		off := len(rows) - n
		for i, l := range labels.rows {
			if len(l) != 1 {
				return fmt.Errorf("%s: labels line %d: %d fields, want 1", name, labels.lines[i], len(l))
			}
			rows[off+i] = append(rows[off+i], l[0])
		}
		if off == 1 {
			rows[0] = append(rows[0], "label")
		}
	}
	if sp.Format.Header {
		if len(rows) == 0 {
			return fmt.Errorf("%s: empty, but a header was expected", name)
		}
		if i, j, ok := duplicateName(rows[0]); ok {
			return fmt.Errorf("%s:%d: columns %d and %d of the header are both named %q (names are compared trimmed and case-insensitively)", name, lines[0], i+1, j+1, rows[0][j])
		}
		if t.names == nil {
			t.names = rows[0]
		} else if !slices.Equal(t.names, rows[0]) {
			return fmt.Errorf("%s:%d: header %q differs from the first file's %q", name, lines[0], rows[0], t.names)
		}
		rows, lines = rows[1:], lines[1:]
	}
	if t.names == nil && len(rows) > 0 {
		for i := range rows[0] {
			t.names = append(t.names, fmt.Sprintf("col%d", i+1))
		}
	}
	pi := int32(len(t.parts))
	t.parts = append(t.parts, name)
	// Only idx rows carry numbers (its pixels), and every one of them does.
	if (rec.values != nil) != (sp.Format.Kind == "idx") || rec.values != nil && len(rec.values) != len(rows) {
		return fmt.Errorf("%s: %d numeric rows for %d parsed rows", name, len(rec.values), len(rows)) // a parser bug, not bad data
	}
	for i, r := range rows {
		if len(r) != len(t.names) {
			return fmt.Errorf("%s:%d: %d fields, want %d", name, lines[i], len(r), len(t.names))
		}
		if rec.values != nil {
			t.values = append(t.values, rec.values[i])
		}
		t.rows = append(t.rows, r)
		t.file = append(t.file, int32(file))
		t.part = append(t.part, pi)
		t.line = append(t.line, int32(lines[i]))
	}
	return nil
}

// duplicateName finds two names that are the same trimmed and
// case-insensitively (a column reference could pick either): the first
// such pair's indices, i < j.
func duplicateName(names []string) (i, j int, ok bool) {
	seen := make(map[string]int, len(names))
	for j, n := range names {
		key := strings.ToLower(strings.TrimSpace(n))
		if i, dup := seen[key]; dup {
			return i, j, true
		}
		seen[key] = j
	}
	return 0, 0, false
}

// expected returns the counts and fingerprint the catalog gives for what
// was loaded (the complete data set, or a catalogued partial one).
func expected(sp *Spec, missing []string) (Counts, string, bool) {
	if len(missing) == 0 {
		return sp.Expect, sp.Fingerprint, true
	}
	for _, p := range sp.Partial {
		a, b := slices.Clone(p.Missing), slices.Clone(missing)
		slices.Sort(a)
		slices.Sort(b)
		if slices.Equal(a, b) {
			return p.Expect, p.Fingerprint, true
		}
	}
	return Counts{}, "", false
}

// check verifies fingerprints and counts (unless verify is false) and adds
// warnings.
func (s *Store) check(sp *Spec, ds *Dataset, verify bool) error {
	var errs []error
	for k, f := range ds.Files {
		if f.Missing || !verify {
			continue
		}
		i := slices.IndexFunc(sp.Files, func(x FileSpec) bool { return x.Path == f.Path })
		if i < 0 {
			return fmt.Errorf("%s: file %s is not in the catalog entry", sp.Name, f.Path)
		}
		want := sp.Files[i].Fingerprint
		if want != "" && f.Fingerprint != want {
			errs = append(errs, &FingerprintError{Dataset: sp.Name, File: f.Path, Local: ds.Files[k].Local, Expected: want, Got: f.Fingerprint})
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	got := Counts{N: ds.N, NPos: ds.NPos, D: ds.D}
	want, fp, known := expected(sp, ds.Missing)
	if len(ds.Missing) > 0 {
		ds.Complete = false
		ds.Warnings = append(ds.Warnings, fmt.Sprintf("incomplete: %d of %d files missing (%s); n_pos/n/d = %d/%d/%d instead of the complete data set's %d/%d/%d",
			len(ds.Missing), len(sp.Files), strings.Join(ds.Missing, ", "), got.NPos, got.N, got.D, sp.Expect.NPos, sp.Expect.N, sp.Expect.D))
	}
	switch {
	case !verify:
		return nil
	case !known:
		ds.Warnings = append(ds.Warnings, fmt.Sprintf("the catalog has no counts or fingerprint for this subset of files; computed fingerprint %s", ds.Fingerprint))
		return nil
	case fp == "":
		ds.Warnings = append(ds.Warnings, fmt.Sprintf("the catalog has no fingerprint for this data set, so it is unverified; computed %s", ds.Fingerprint))
	case fp != ds.Fingerprint:
		return &FingerprintError{Dataset: sp.Name, Expected: fp, Got: ds.Fingerprint}
	}
	if got != want {
		msg := fmt.Sprintf("n_pos/n/d = %d/%d/%d, but the catalog expects %d/%d/%d", got.NPos, got.N, got.D, want.NPos, want.N, want.D)
		if fp != "" {
			return fmt.Errorf("%s: %s with a matching fingerprint: the catalog entry is inconsistent", sp.Name, msg)
		}
		ds.Warnings = append(ds.Warnings, msg)
	}
	return nil
}

// exists reports whether a regular file exists.
func exists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() || err != nil && !errors.Is(err, fs.ErrNotExist)
}
