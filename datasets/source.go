package datasets

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// DefaultMirror is the archive base used when PUEVAL_UCI_MIRROR is unset.
const DefaultMirror = "https://archive.ics.uci.edu/ml/"

// Default timeouts of an http(s) mirror (Options). The whole request has no
// limit: a slow mirror that keeps sending finishes, a dead one fails.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultHeaderTimeout  = 60 * time.Second
	DefaultStallTimeout   = 60 * time.Second
)

// Environment variables read by DefaultOptions.
const (
	EnvMirror = "PUEVAL_UCI_MIRROR"
	EnvData   = "PUEVAL_DATA"
)

// Options configure a Store.
type Options struct {
	// CacheDir holds fetched raw files (under uci/, in archive layout, with
	// uci/manifest.json) and encoded data sets (under encoded/).
	CacheDir string
	// Mirror is the archive base: a directory laid out like the archive, a
	// file:// URL, or an http(s) base URL. It replaces DefaultMirror.
	Mirror string
	// Client is used for http(s) mirrors (default: http.DefaultClient, with
	// no overall limit). The timeouts below apply to any client: they bound
	// each phase of a request instead of its whole, so that a large download
	// that keeps progressing is never cut off, while a mirror that falls
	// silent fails once the phase's limit runs out.
	Client *http.Client
	// ConnectTimeout bounds getting a connection to an http(s) mirror (name
	// lookup, TCP connect, TLS handshake). Zero means
	// DefaultConnectTimeout; negative, no limit.
	ConnectTimeout time.Duration
	// HeaderTimeout bounds the wait for the response headers once connected
	// (a server that accepts the connection and never answers). Zero means
	// DefaultHeaderTimeout; negative, no limit.
	HeaderTimeout time.Duration
	// StallTimeout bounds the wait for the next bytes of a response body:
	// a download fails when nothing arrives for this long, however long it
	// has run. Zero means DefaultStallTimeout; negative, no limit.
	StallTimeout time.Duration
	// Log, if set, receives one line per file copied or downloaded.
	Log io.Writer
}

// DefaultOptions reads the environment: the cache is $PUEVAL_DATA, else
// $XDG_CACHE_HOME/pueval, else ~/.cache/pueval (os.UserCacheDir on other
// systems); the mirror is $PUEVAL_UCI_MIRROR, else DefaultMirror.
func DefaultOptions() (Options, error) {
	var o Options
	o.CacheDir = os.Getenv(EnvData)
	if o.CacheDir == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			var err error
			if base, err = os.UserCacheDir(); err != nil {
				return o, fmt.Errorf("no cache directory: set %s (%v)", EnvData, err)
			}
		}
		o.CacheDir = filepath.Join(base, "pueval")
	}
	o.Mirror = os.Getenv(EnvMirror)
	if o.Mirror == "" {
		o.Mirror = DefaultMirror
	}
	return o, nil
}

// MissingFileError says that a catalogued file is in neither the cache nor
// the mirror, and how to provide it.
type MissingFileError struct {
	Dataset string
	File    string   // catalog path, e.g. "machine-learning-databases/x/y.zip!m"
	Tried   []string // cache paths and mirror locations looked at
	Cache   string   // where to put the file by hand
	// CacheDir is the data cache Cache lies in ($PUEVAL_DATA, or its
	// default), named so that a reader knows which directory is meant.
	CacheDir string
	Note     string // e.g. that the mirror directory itself does not exist
}

func (e *MissingFileError) Error() string {
	note := ""
	if e.Note != "" {
		note = " (" + e.Note + ")"
	}
	return fmt.Sprintf("%s: file %s is missing: looked in %s%s; to provide it, %s",
		e.Dataset, e.File, strings.Join(e.Tried, ", "), note, provideHint(e.Cache, e.CacheDir))
}

// provideHint says how to provide a raw file that could not be had: from a
// mirror named by PUEVAL_UCI_MIRROR, or by hand at its path in the data
// cache (cacheDir, which PUEVAL_DATA sets).
func provideHint(file, cacheDir string) string {
	where := ""
	if cacheDir != "" {
		where = fmt.Sprintf(" (in the data cache %s, set by %s)", cacheDir, EnvData)
	}
	return fmt.Sprintf("set %s to a directory or http(s) URL laid out like %s that has it, or put the file at %s%s",
		EnvMirror, DefaultMirror, file, where)
}

// candidate is one place a catalogued file may be found: an archive path,
// and the zip member pattern to read from it ("" = the file itself).
type candidate struct {
	rel    string
	member string
}

// candidates lists where a catalog path may be found, best first. Besides
// the path itself: a zip (or .tar.gz) member may also be stored extracted,
// next to the archive ("dir/member") or in a folder named after it
// ("dir/stem/member"), as the project's mirror stores gas and bank; a
// compressed .Z or .gz file may also be stored decompressed (the mirror
// keeps both).
func candidates(p string) []candidate {
	container, member, isMember := strings.Cut(p, "!")
	if isMember {
		c := []candidate{{container, member}}
		if !strings.ContainsAny(member, "*?[") {
			dir := path.Dir(container)
			stem := archiveStem(path.Base(container))
			c = append(c, candidate{path.Join(dir, member), ""}, candidate{path.Join(dir, stem, member), ""})
		}
		return c
	}
	c := []candidate{{p, ""}}
	for _, ext := range []string{".Z", ".gz"} {
		if strings.HasSuffix(p, ext) && !strings.HasSuffix(p, ".tar.gz") {
			c = append(c, candidate{strings.TrimSuffix(p, ext), ""})
		}
	}
	return c
}

// isZipContainer and isTarContainer say which archive a member path
// ("a.zip!m", "a.tgz!m") reads; the suffix decides, as for .Z and .gz.
func isZipContainer(p string) bool { return strings.HasSuffix(strings.ToLower(p), ".zip") }

func isTarContainer(p string) bool {
	l := strings.ToLower(p)
	return strings.HasSuffix(l, ".tar.gz") || strings.HasSuffix(l, ".tgz")
}

// archiveStem is an archive's name without its archive extension
// ("a.tar.gz" -> "a", "a.zip" -> "a").
func archiveStem(name string) string {
	l := strings.ToLower(name)
	for _, ext := range []string{".tar.gz", ".tgz", ".zip"} {
		if strings.HasSuffix(l, ext) {
			return name[:len(name)-len(ext)]
		}
	}
	return strings.TrimSuffix(name, path.Ext(name))
}

// rawFile is a file found in the cache, read into memory.
type rawFile struct {
	cand   candidate
	local  string // path in the cache
	data   []byte
	sha256 string
}

func (o *Options) cachePath(rel string) string {
	return filepath.Join(o.CacheDir, "uci", filepath.FromSlash(rel))
}

func isHTTP(m string) bool {
	return strings.HasPrefix(m, "http://") || strings.HasPrefix(m, "https://")
}

// mirrorDir returns the directory of a directory mirror ("" for http).
func (o *Options) mirrorDir() string {
	if isHTTP(o.Mirror) {
		return ""
	}
	if u, err := url.Parse(o.Mirror); err == nil && u.Scheme == "file" {
		return filepath.FromSlash(u.Path)
	}
	return o.Mirror
}

func (o *Options) mirrorLocation(rel string) string {
	if isHTTP(o.Mirror) {
		return strings.TrimSuffix(o.Mirror, "/") + "/" + escapePath(rel)
	}
	return filepath.Join(o.mirrorDir(), filepath.FromSlash(rel))
}

// escapePath escapes each segment of an archive path for a URL (UCI paths
// hold spaces and parentheses: "00406/Anuran Calls (MFCCs).zip").
func escapePath(rel string) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// find returns the catalogued file p of data set ds from the cache, fetching
// it from the mirror into the cache first when the cache lacks it.
func (o *Options) find(ctx context.Context, ds, p string) (*rawFile, error) {
	cands := candidates(p)
	var tried []string
	for _, c := range cands {
		local := o.cachePath(c.rel)
		data, err := os.ReadFile(local)
		if err == nil {
			return &rawFile{cand: c, local: local, data: data, sha256: sha256Hex(data)}, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", ds, err)
		}
		tried = append(tried, local)
	}
	for _, c := range cands {
		loc := o.mirrorLocation(c.rel)
		tried = append(tried, loc)
		local := o.cachePath(c.rel)
		_, err := o.fetch(ctx, c.rel, local)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil && ctx.Err() != nil {
			return nil, fmt.Errorf("%s: fetching %s: %w", ds, loc, err)
		}
		if err != nil {
			// The mirror (by default the UCI archive itself) failed: no
			// network, a dead server, a timeout. Say how to do without it.
			return nil, fmt.Errorf("%s: fetching %s: %w; to provide the file without it, %s", ds, loc, err, provideHint(local, o.CacheDir))
		}
		data, err := os.ReadFile(local)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ds, err)
		}
		return &rawFile{cand: c, local: local, data: data, sha256: sha256Hex(data)}, nil
	}
	me := &MissingFileError{Dataset: ds, File: p, Tried: tried, Cache: o.cachePath(cands[0].rel), CacheDir: o.CacheDir}
	if d := o.mirrorDir(); d != "" {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			me.Note = "the mirror directory " + d + " does not exist"
		}
	}
	return nil, me
}

var errNotFound = errors.New("not found")

// fetch copies or downloads archive path rel from the mirror to local,
// atomically, and records it in the cache manifest. It returns errNotFound
// when the mirror does not have the file.
func (o *Options) fetch(ctx context.Context, rel, local string) (string, error) {
	var (
		body io.ReadCloser
		size int64 = -1
		loc        = o.mirrorLocation(rel)
	)
	if isHTTP(o.Mirror) {
		resp, err := o.httpDo(ctx, http.MethodGet, loc)
		if err != nil {
			return "", err
		}
		switch {
		case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
			resp.Body.Close()
			return "", errNotFound
		case resp.StatusCode != http.StatusOK:
			resp.Body.Close()
			return "", fmt.Errorf("HTTP %s", resp.Status)
		}
		body, size = resp.Body, resp.ContentLength
	} else {
		f, err := os.Open(loc)
		if errors.Is(err, fs.ErrNotExist) {
			return "", errNotFound
		}
		if err != nil {
			return "", err
		}
		st, err := f.Stat()
		if err != nil || st.IsDir() {
			f.Close()
			if err == nil {
				return "", errNotFound // a directory, not the file
			}
			return "", err
		}
		body, size = f, st.Size()
	}
	defer body.Close()
	if o.Log != nil {
		fmt.Fprintf(o.Log, "fetching %s -> %s\n", loc, local)
	}
	sum, n, err := writeAtomic(ctx, local, body, size)
	if err != nil {
		return "", err
	}
	if err := o.recordManifest(rel, manifestEntry{SHA256: sum, Bytes: n, Source: loc, Fetched: time.Now().UTC().Format(time.RFC3339)}); err != nil {
		return "", err
	}
	return sum, nil
}

// ctxReader stops a copy when its context is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// staleAfter is the age after which a leftover temporary file (from a killed
// process) is removed.
const staleAfter = time.Hour

// writeAtomic writes r to dst through a temporary file in the same directory
// that is renamed into place only when complete (size bytes when size >= 0),
// synced, and closed; on any failure the temporary file is removed, so dst is
// either absent or whole. It returns the sha256 and length of what was
// written.
func writeAtomic(ctx context.Context, dst string, r io.Reader, size int64) (string, int64, error) {
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", 0, err
	}
	prefix := "." + filepath.Base(dst) + "."
	if old, _ := filepath.Glob(filepath.Join(dir, globEscape(prefix)+"*.part")); len(old) > 0 {
		for _, f := range old {
			if st, err := os.Stat(f); err == nil && time.Since(st.ModTime()) > staleAfter {
				os.Remove(f)
			}
		}
	}
	tmp, err := os.CreateTemp(dir, prefix+"*.part")
	if err != nil {
		return "", 0, err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), ctxReader{ctx, r})
	if err != nil {
		return "", n, fmt.Errorf("after %d bytes: %w", n, err)
	}
	if size >= 0 && n != size {
		return "", n, fmt.Errorf("truncated: got %d of %d bytes", n, size)
	}
	if err := tmp.Sync(); err != nil {
		return "", n, err
	}
	if err := tmp.Close(); err != nil {
		return "", n, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return "", n, err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", n, err
	}
	ok = true
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// The cache manifest (uci/manifest.json) records, for provenance, each raw
// file's sha256, size, where it came from and when. Fingerprints, not these
// hashes, decide whether data verify (a copy that differs in line endings
// is still the same data); the hashes decide whether a copy that failed is
// the one pueval fetched, and may be removed (discardFetched).
type manifestEntry struct {
	SHA256  string `json:"sha256"`
	Bytes   int64  `json:"bytes"`
	Source  string `json:"source"`
	Fetched string `json:"fetched"`
}

// manifestMu serialises this process's updates of the cache manifest;
// lockManifest serialises them with other processes sharing the cache.
var manifestMu sync.Mutex

// lockManifest takes the cache manifest's lock file (uci/.manifest.lock, an
// advisory lock of the operating system): several pueval processes (the
// shards of a job array) share one cache, and each updates the manifest by
// reading, changing and rewriting it, so without the lock one could drop
// another's entry. The returned function releases it (closing the file
// releases the lock, also when the process dies). The caller holds
// manifestMu, and goes ahead without the lock when it cannot be had.
func (o *Options) lockManifest() (unlock func(), err error) {
	path := filepath.Join(filepath.Dir(o.manifestPath()), ".manifest.lock")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := flock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}

func (o *Options) manifestPath() string { return filepath.Join(o.CacheDir, "uci", "manifest.json") }

// readManifest returns the cache manifest (empty when absent or unreadable:
// it is rewritten on the next fetch, and a file it does not list is only
// ever kept, never removed).
func (o *Options) readManifest() map[string]manifestEntry {
	m := map[string]manifestEntry{}
	if b, err := os.ReadFile(o.manifestPath()); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

func (o *Options) recordManifest(rel string, e manifestEntry) error {
	manifestMu.Lock()
	defer manifestMu.Unlock()
	// Without the lock (a file system without flock) the update goes ahead:
	// the manifest is provenance, and the file itself is in place already.
	if unlock, err := o.lockManifest(); err == nil {
		defer unlock()
	}
	m := o.readManifest()
	m[rel] = e
	return o.writeManifest(m)
}

// writeManifest replaces the manifest; the caller holds manifestMu.
func (o *Options) writeManifest(m map[string]manifestEntry) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	_, _, err = writeAtomic(context.Background(), o.manifestPath(), bytes.NewReader(append(b, '\n')), -1)
	return err
}

// discardFetched removes a raw file that failed verification from the cache
// when pueval fetched it, in this process or an earlier one: the manifest
// has an entry for its archive path whose sha256 is that of the bytes read.
// Kept, the bad copy would be read by every later load, so fixing the mirror
// would not fix the next run; removed, the next load fetches it again. A
// copy put in the cache by hand (no such entry) is the user's and is kept;
// the error then names it.
func (o *Options) discardFetched(rf *rawFile) RejectedFile {
	r := RejectedFile{Local: rf.local}
	manifestMu.Lock()
	defer manifestMu.Unlock()
	if unlock, err := o.lockManifest(); err == nil {
		defer unlock()
	}
	m := o.readManifest()
	e, ok := m[rf.cand.rel]
	if !ok || e.SHA256 != rf.sha256 {
		return r
	}
	r.Source = e.Source
	if err := os.Remove(rf.local); err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.Err = err
		return r
	}
	r.Removed = true
	// The entry described the removed copy. Failing to drop it is harmless
	// (a later copy has its own sha256, and the next fetch rewrites it).
	delete(m, rf.cand.rel)
	_ = o.writeManifest(m)
	return r
}

// part is one parsed unit of input: a file or a zip member, decompressed.
type part struct {
	name string // for messages: the archive path, with "!member" for zip members
	data []byte
}

// maxMemberSize bounds a decompressed zip or tar member or .gz file (the
// largest UCI file we know of expands to ~80 MB).
const maxMemberSize = 2 << 30

// parts returns the decompressed contents that a raw file provides for its
// catalog path: the zip or tar members matching the pattern (in name
// order), a decompressed .Z or .gz, or the bytes themselves.
func (f *rawFile) parts() ([]part, error) {
	rel := f.cand.rel
	if f.cand.member != "" && isTarContainer(rel) {
		return tarMembers(rel, f.data, f.cand.member)
	}
	if f.cand.member != "" {
		zr, err := zip.NewReader(bytes.NewReader(f.data), int64(len(f.data)))
		if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		var out []part
		names := make([]string, 0, len(zr.File))
		byName := map[string]*zip.File{}
		for _, zf := range zr.File {
			if zf.FileInfo().IsDir() || strings.HasSuffix(zf.Name, "/") {
				continue
			}
			if ok, _ := path.Match(f.cand.member, zf.Name); ok || zf.Name == f.cand.member {
				if _, dup := byName[zf.Name]; !dup {
					names = append(names, zf.Name)
				}
				byName[zf.Name] = zf
			}
		}
		sort.Strings(names)
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: no member matches %q", rel, f.cand.member)
		}
		for _, name := range names {
			rc, err := byName[name].Open()
			if err != nil {
				return nil, fmt.Errorf("%s!%s: %w", rel, name, err)
			}
			b, err := io.ReadAll(io.LimitReader(rc, maxMemberSize+1))
			rc.Close()
			if err != nil {
				return nil, fmt.Errorf("%s!%s: %w", rel, name, err)
			}
			if len(b) > maxMemberSize {
				return nil, fmt.Errorf("%s!%s: larger than %d bytes", rel, name, maxMemberSize)
			}
			out = append(out, part{rel + "!" + name, b})
		}
		return out, nil
	}
	switch {
	case strings.HasSuffix(rel, ".Z"):
		b, err := decompressZ(f.data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		return []part{{rel, b}}, nil
	case strings.HasSuffix(rel, ".gz") && !strings.HasSuffix(rel, ".tar.gz"):
		b, err := gunzip(f.data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		return []part{{rel, b}}, nil
	}
	return []part{{rel, f.data}}, nil
}

// tarMembers returns the regular files of a gzipped tar whose names match
// the pattern, in name order (the last of duplicate names wins, as when the
// tar is extracted). The whole archive is read, so a damaged archive is an
// error even when the damage lies past the members wanted.
func tarMembers(rel string, data []byte, member string) ([]part, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		// Alone, a short file gives just "unexpected EOF".
		return nil, fmt.Errorf("%s: gzip header: %w", rel, err)
	}
	tr := tar.NewReader(zr)
	byName := map[string][]byte{}
	var total int64
	for entry := 1; ; entry++ {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: tar entry %d: %w", rel, entry, err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if ok, _ := path.Match(member, name); !ok && name != member {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, maxMemberSize+1))
		if err != nil {
			return nil, fmt.Errorf("%s!%s: %w", rel, name, err)
		}
		if total += int64(len(b)); total > maxMemberSize {
			return nil, fmt.Errorf("%s!%s: the members read exceed %d bytes", rel, name, maxMemberSize)
		}
		byName[name] = b
	}
	// A truncated gzip stream can end exactly at a tar block boundary and
	// look like a short archive: the gzip trailer (CRC and length) is only
	// checked when the stream is read to its end.
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return nil, fmt.Errorf("%s: gzip data: %w", rel, err)
	}
	if len(byName) == 0 {
		return nil, fmt.Errorf("%s: no member matches %q", rel, member)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]part, len(names))
	for i, n := range names {
		out[i] = part{rel + "!" + n, byName[n]}
	}
	return out, nil
}

func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		// Alone, a short file gives just "unexpected EOF".
		return nil, fmt.Errorf("gzip header: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(zr, maxMemberSize+1))
	if err != nil {
		return nil, fmt.Errorf("gzip data: %w", err)
	}
	if len(b) > maxMemberSize {
		return nil, fmt.Errorf("decompresses to more than %d bytes", maxMemberSize)
	}
	return b, nil
}
