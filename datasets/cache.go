package datasets

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// The encoded cache keeps each data set's encoded matrix so that repeated
// loads skip fetching, decompressing and parsing. One file per data set,
// <cache>/encoded/<name>.pds:
//
//	"PUEVALDS"              8-byte magic
//	version                 uint32 LE (cacheVersion)
//	header length h         uint32 LE
//	header                  h bytes of JSON (cacheHeader)
//	X                       n*d float64 LE, row-major
//	Y                       n bytes, 1 = positive
//	class index             n uint32 LE, each row's index in the header's
//	                        classes (only when it lists classes: a class
//	                        target; see Dataset.Classes)
//
// The class index is not part of the fingerprint (the catalog's
// fingerprints stay those of X and Y); the header's class_sha256 guards it,
// and the labels must follow from it by the catalog's rule.
//
// A cached file is used only when its spec hash equals the catalog entry's
// (any change to files, format, target or features rebuilds it), its
// fingerprint, recomputed from the payload on every load, equals the one it
// recorded, the data still pass the catalog's checks (fingerprints, counts),
// and, for an incomplete data set, none of the missing files has since
// appeared in the raw cache.

const (
	cacheMagic = "PUEVALDS"
	// cacheVersion 2 added the classes; a version-1 file (no classes) is
	// rebuilt rather than read without them.
	cacheVersion = 2
	// maxCacheHeader bounds the JSON header (column names of the widest data
	// set are ~20 KB).
	maxCacheHeader = 64 << 20
)

type cacheHeader struct {
	SpecHash    string     `json:"spec_hash"`
	Name        string     `json:"name"`
	N           int        `json:"n"`
	D           int        `json:"d"`
	NPos        int        `json:"n_pos"`
	Fingerprint string     `json:"fingerprint"`
	Complete    bool       `json:"complete"`
	Missing     []string   `json:"missing,omitempty"`
	Columns     []Column   `json:"columns"`
	Files       []FileInfo `json:"files"`
	Classes     []string   `json:"classes,omitempty"`
	ClassSHA256 string     `json:"class_sha256,omitempty"` // classSum of Classes and the class index
}

// classSum is the hex sha256 of the classes (one uint32 LE length and the
// bytes each) followed by the class index as it is stored (uint32 LE).
func classSum(classes []string, idx []byte) string {
	h := sha256.New()
	var b [4]byte
	for _, c := range classes {
		binary.LittleEndian.PutUint32(b[:], uint32(len(c)))
		h.Write(b[:])
		h.Write([]byte(c))
	}
	h.Write(idx)
	return hex.EncodeToString(h.Sum(nil))
}

func (s *Store) encodedPath(name string) string {
	return filepath.Join(s.opts.CacheDir, "encoded", name+".pds")
}

// saveEncoded writes the encoded data set atomically.
func (s *Store) saveEncoded(sp *Spec, ds *Dataset) error {
	var idx []byte
	if ds.Classes != nil {
		idx = make([]byte, 0, 4*len(ds.ClassIndex))
		for _, c := range ds.ClassIndex {
			idx = binary.LittleEndian.AppendUint32(idx, uint32(c))
		}
	}
	h := cacheHeader{SpecHash: sp.specHash(), Name: ds.Name, N: ds.N, D: ds.D, NPos: ds.NPos,
		Fingerprint: ds.Fingerprint, Complete: ds.Complete, Missing: ds.Missing,
		Columns: ds.Columns, Files: ds.Files, Classes: ds.Classes}
	if ds.Classes != nil {
		h.ClassSHA256 = classSum(ds.Classes, idx)
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return err
	}
	raw := ds.X.RawMatrix()
	buf := make([]byte, 0, 16+len(hb)+8*ds.N*ds.D+ds.N+len(idx))
	buf = append(buf, cacheMagic...)
	buf = binary.LittleEndian.AppendUint32(buf, cacheVersion)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(hb)))
	buf = append(buf, hb...)
	for i := 0; i < ds.N; i++ {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+ds.D] {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
	}
	for _, v := range ds.Y {
		if v {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
	}
	buf = append(buf, idx...)
	_, _, err = writeAtomic(context.Background(), s.encodedPath(sp.Name), bytes.NewReader(buf), int64(len(buf)))
	return err
}

// decoded is the content of an encoded cache file.
type decoded struct {
	h     *cacheHeader
	x     []float64
	y     []bool
	class []int32 // nil when the header lists no classes
}

// decodeEncoded parses an encoded cache file. It checks the structure (and
// the class index against its checksum), not whether the file is current
// (see loadEncoded).
func decodeEncoded(b []byte) (*decoded, error) {
	if len(b) < 16 || string(b[:8]) != cacheMagic {
		return nil, errors.New("not an encoded data-set file")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != cacheVersion {
		return nil, fmt.Errorf("encoded file version %d, want %d", v, cacheVersion)
	}
	hl := int(binary.LittleEndian.Uint32(b[12:]))
	if hl > maxCacheHeader || 16+hl > len(b) {
		return nil, fmt.Errorf("header length %d exceeds the file", hl)
	}
	var h cacheHeader
	if err := json.Unmarshal(b[16:16+hl], &h); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	p := b[16+hl:]
	if h.N <= 0 || h.D <= 0 || len(h.Columns) != h.D {
		return nil, fmt.Errorf("header: n=%d d=%d with %d columns", h.N, h.D, len(h.Columns))
	}
	ci := 0 // bytes of the class index
	if h.Classes != nil {
		ci = 4 * h.N
	}
	if int64(h.N)*int64(h.D) > int64(len(p))/8 || len(p) != 8*h.N*h.D+h.N+ci {
		return nil, fmt.Errorf("payload of %d bytes, want %d for n=%d d=%d", len(p), 8*h.N*h.D+h.N+ci, h.N, h.D)
	}
	x := make([]float64, h.N*h.D)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	ys := p[8*h.N*h.D : 8*h.N*h.D+h.N]
	y := make([]bool, h.N)
	for i, c := range ys {
		switch c {
		case 0:
		case 1:
			y[i] = true
		default:
			return nil, fmt.Errorf("label byte %d of row %d", c, i)
		}
	}
	out := &decoded{h: &h, x: x, y: y}
	if h.Classes != nil {
		idx := p[8*h.N*h.D+h.N:]
		if classSum(h.Classes, idx) != h.ClassSHA256 {
			return nil, errors.New("class index: checksum mismatch")
		}
		out.class = make([]int32, h.N)
		for i := range out.class {
			c := binary.LittleEndian.Uint32(idx[4*i:])
			if c >= uint32(len(h.Classes)) {
				return nil, fmt.Errorf("class %d of row %d: only %d classes", c, i, len(h.Classes))
			}
			out.class[i] = int32(c)
		}
	}
	return out, nil
}

// loadEncoded returns the data set from the encoded cache, or nil when the
// cache has no current, intact copy (the caller then rebuilds it).
func (s *Store) loadEncoded(sp *Spec) *Dataset {
	b, err := os.ReadFile(s.encodedPath(sp.Name))
	if err != nil {
		return nil
	}
	dec, err := decodeEncoded(b)
	if err != nil {
		return nil
	}
	h, x, y := dec.h, dec.x, dec.y
	if h.SpecHash != sp.specHash() || h.Name != sp.Name {
		return nil
	}
	// A class target has its classes, and the labels follow from them by
	// the catalog's rule (a numeric target has none).
	numeric := sp.Target.GreaterThan != "" || sp.Target.LessThan != ""
	if numeric != (dec.class == nil) {
		return nil
	}
	if !numeric {
		pos := make([]bool, len(h.Classes))
		for i, c := range h.Classes {
			pos[i] = matchValue(c, sp.Target.Positive)
		}
		for i, c := range dec.class {
			if pos[c] != y[i] {
				return nil
			}
		}
	}
	if Fingerprint(x, y, h.D) != h.Fingerprint {
		return nil // damaged: rebuild from the raw files
	}
	for _, m := range h.Missing {
		for _, c := range candidates(m) {
			if exists(s.opts.cachePath(c.rel)) {
				return nil // a missing file has been provided since
			}
		}
	}
	npos := 0
	for _, v := range y {
		if v {
			npos++
		}
	}
	if npos != h.NPos {
		return nil
	}
	ds := &Dataset{Name: h.Name, X: mat.NewDense(h.N, h.D, x), Y: y, Classes: h.Classes, ClassIndex: dec.class, Columns: h.Columns,
		N: h.N, NPos: h.NPos, D: h.D, Fingerprint: h.Fingerprint, Complete: true,
		Missing: h.Missing, Notes: strings.TrimSpace(sp.Notes), Files: h.Files, FromCache: true}
	// Verify against the catalog as it is now (its fingerprints or counts
	// may have changed since the file was written); warnings are made here.
	if err := s.check(sp, ds, true); err != nil {
		return nil
	}
	return ds
}
