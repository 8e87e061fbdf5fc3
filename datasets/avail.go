package datasets

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"sync"
)

// Availability states (Availability.State).
const (
	// AvailComplete: every file is in the cache or the mirror.
	AvailComplete = "complete"
	// AvailPartial: every required file is there, some optional ones are
	// not: the data set loads, incomplete (Gas in the project's mirror).
	AvailPartial = "partial"
	// AvailMissing: a required file is in neither: loading fails.
	AvailMissing = "missing"
	// AvailUnknown: an http(s) mirror could not be asked about a file and
	// no required file is known to be missing.
	AvailUnknown = "unknown"
	// AvailNoParser: the catalog has no parser for the data set (format
	// kind none); it cannot be loaded whatever files there are.
	AvailNoParser = "no-parser"
)

// Availability says which files of a data set can be had from the cache or
// the mirror, found the way Load finds them but without reading or
// fetching anything.
type Availability struct {
	Dataset string             `json:"dataset"`
	State   string             `json:"state"` // AvailComplete, AvailPartial, ...
	Found   int                `json:"found"` // files found, of Total
	Total   int                `json:"total"` // data files and labels files
	Files   []FileAvailability `json:"files"`
}

// FileAvailability says where one catalogued file (a data file or a labels
// file) was found.
type FileAvailability struct {
	Path     string `json:"path"` // catalog path
	Optional bool   `json:"optional,omitempty"`
	// Where is the cache file or the mirror location that has it (a zip
	// member stored extracted, or a decompressed twin, counts); empty when
	// it is in neither.
	Where  string `json:"where,omitempty"`
	Cached bool   `json:"cached,omitempty"` // Where is in the cache
	// Unknown says why the mirror could not be asked (an http(s) mirror
	// that did not answer); the file is then neither found nor known to be
	// missing.
	Unknown string `json:"unknown,omitempty"`
	reason  string // Unknown without the URL, for Summary
}

// Missing returns the catalog paths of the files known to be missing.
func (a *Availability) Missing() []string {
	var out []string
	for _, f := range a.Files {
		if f.Where == "" && f.Unknown == "" {
			out = append(out, f.Path)
		}
	}
	return out
}

// Summary is a short text for a table: "yes", "partial: 8 of 10 files",
// "missing", "missing: 1 of 2 files", "unknown: ...", "no parser".
func (a *Availability) Summary() string {
	switch a.State {
	case AvailComplete:
		return "yes"
	case AvailPartial:
		return fmt.Sprintf("partial: %d of %d files", a.Found, a.Total)
	case AvailMissing:
		if a.Found == 0 {
			return "missing"
		}
		return fmt.Sprintf("missing: %d of %d files", a.Found, a.Total)
	case AvailUnknown:
		for _, f := range a.Files {
			if f.reason != "" {
				return "unknown: " + f.reason
			}
		}
		return "unknown"
	case AvailNoParser:
		return "no parser"
	}
	return a.State
}

// Availability reports, for each named data set (all when none is named),
// which of its files are in the cache or the mirror. It reads and fetches
// nothing: a directory mirror is looked at, an http(s) mirror asked with
// HEAD requests under the Options' timeouts. Once an http(s) mirror fails
// to answer, the remaining files are reported unknown rather than asked
// one by one. The error is for an unknown name or a cancelled context.
func (s *Store) Availability(ctx context.Context, names ...string) ([]*Availability, error) {
	if len(names) == 0 {
		names = s.cat.Names()
	}
	specs := make([]*Spec, len(names))
	for i, n := range names {
		sp, err := s.spec(n)
		if err != nil {
			return nil, err
		}
		specs[i] = sp
	}
	p := &prober{o: &s.opts}
	out := make([]*Availability, len(specs))
	// Data sets are looked at in parallel: over http(s), each file costs a
	// round trip, and the catalog has about a hundred files.
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, sp := range specs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = p.dataset(ctx, sp)
		}()
	}
	wg.Wait()
	return out, ctx.Err()
}

// prober looks for files; it remembers an http(s) mirror that did not
// answer.
type prober struct {
	o    *Options
	mu   sync.Mutex
	down error
}

func (p *prober) dataset(ctx context.Context, sp *Spec) *Availability {
	a := &Availability{Dataset: sp.Name}
	var reqMissing, unknown bool
	for _, f := range sp.Files {
		for _, fp := range []string{f.Path, f.Labels} {
			if fp == "" {
				continue
			}
			fa := p.file(ctx, fp)
			fa.Optional = f.Optional
			a.Total++
			switch {
			case fa.Where != "":
				a.Found++
			case fa.Unknown != "":
				unknown = true
			case !f.Optional:
				reqMissing = true
			}
			a.Files = append(a.Files, fa)
		}
	}
	switch {
	case sp.Format.Kind == "none":
		a.State = AvailNoParser
	case reqMissing:
		a.State = AvailMissing
	case unknown:
		a.State = AvailUnknown
	case a.Found == a.Total:
		a.State = AvailComplete
	default:
		a.State = AvailPartial
	}
	return a
}

// file looks for one catalog path at the places find reads it from: each
// candidate in the cache, then each in the mirror.
func (p *prober) file(ctx context.Context, fp string) FileAvailability {
	fa := FileAvailability{Path: fp}
	cands := candidates(fp)
	for _, c := range cands {
		if local := p.o.cachePath(c.rel); isRegular(local) && hasMember(local, c.member) {
			fa.Where, fa.Cached = local, true
			return fa
		}
	}
	for _, c := range cands {
		loc := p.o.mirrorLocation(c.rel)
		if !isHTTP(p.o.Mirror) {
			if isRegular(loc) && hasMember(loc, c.member) {
				fa.Where = loc
				return fa
			}
			continue
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down != nil {
			fa.Unknown, fa.reason = down.Error(), "the mirror did not answer"
			return fa
		}
		// A zip's members cannot be listed without downloading it: the zip
		// being there counts as its member being there.
		ok, err := p.o.probeHTTP(ctx, loc)
		if err != nil {
			fa.Unknown = fmt.Sprintf("%s: %v", loc, err)
			var se *httpStatusError
			if errors.As(err, &se) {
				fa.reason = se.Error()
			} else {
				fa.reason = "the mirror did not answer"
				p.mu.Lock()
				if p.down == nil {
					p.down = fmt.Errorf("the mirror did not answer (%s)", fa.Unknown)
				}
				p.mu.Unlock()
			}
			continue
		}
		if ok {
			fa.Where, fa.Unknown, fa.reason = loc, "", ""
			return fa
		}
	}
	return fa
}

func isRegular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// hasMember reports whether the zip file holds a member matching the
// pattern (always true for "", the file itself). A file that is not a
// readable zip counts as having it: it is there, and loading it reports
// what is wrong with it. So does a gzipped tar: it has no index, and
// listing its members means decompressing all of it (MNIST's 55 MB), too
// much for a look at what is there; loading names a member it lacks.
func hasMember(file, member string) bool {
	if member == "" || isTarContainer(file) {
		return true
	}
	zr, err := zip.OpenReader(file)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return true
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() {
			continue
		}
		if ok, _ := path.Match(member, zf.Name); ok || zf.Name == member {
			return true
		}
	}
	return false
}
