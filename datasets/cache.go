package datasets

import (
	"bytes"
	"context"
	"encoding/binary"
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
//
// A cached file is used only when its spec hash equals the catalog entry's
// (any change to files, format, target or features rebuilds it), its
// fingerprint, recomputed from the payload on every load, equals the one it
// recorded, the data still pass the catalog's checks (fingerprints, counts),
// and, for an incomplete data set, none of the missing files has since
// appeared in the raw cache.

const (
	cacheMagic   = "PUEVALDS"
	cacheVersion = 1
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
}

func (s *Store) encodedPath(name string) string {
	return filepath.Join(s.opts.CacheDir, "encoded", name+".pds")
}

// saveEncoded writes the encoded data set atomically.
func (s *Store) saveEncoded(sp *Spec, ds *Dataset) error {
	h := cacheHeader{SpecHash: sp.specHash(), Name: ds.Name, N: ds.N, D: ds.D, NPos: ds.NPos,
		Fingerprint: ds.Fingerprint, Complete: ds.Complete, Missing: ds.Missing,
		Columns: ds.Columns, Files: ds.Files}
	hb, err := json.Marshal(h)
	if err != nil {
		return err
	}
	raw := ds.X.RawMatrix()
	buf := make([]byte, 0, 16+len(hb)+8*ds.N*ds.D+ds.N)
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
	_, _, err = writeAtomic(context.Background(), s.encodedPath(sp.Name), bytes.NewReader(buf), int64(len(buf)))
	return err
}

// decodeEncoded parses an encoded cache file. It checks the structure, not
// whether the file is current (see loadEncoded).
func decodeEncoded(b []byte) (*cacheHeader, []float64, []bool, error) {
	if len(b) < 16 || string(b[:8]) != cacheMagic {
		return nil, nil, nil, errors.New("not an encoded data-set file")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != cacheVersion {
		return nil, nil, nil, fmt.Errorf("encoded file version %d, want %d", v, cacheVersion)
	}
	hl := int(binary.LittleEndian.Uint32(b[12:]))
	if hl > maxCacheHeader || 16+hl > len(b) {
		return nil, nil, nil, fmt.Errorf("header length %d exceeds the file", hl)
	}
	var h cacheHeader
	if err := json.Unmarshal(b[16:16+hl], &h); err != nil {
		return nil, nil, nil, fmt.Errorf("header: %w", err)
	}
	p := b[16+hl:]
	if h.N <= 0 || h.D <= 0 || len(h.Columns) != h.D {
		return nil, nil, nil, fmt.Errorf("header: n=%d d=%d with %d columns", h.N, h.D, len(h.Columns))
	}
	if int64(h.N)*int64(h.D) > int64(len(p))/8 || len(p) != 8*h.N*h.D+h.N {
		return nil, nil, nil, fmt.Errorf("payload of %d bytes, want %d for n=%d d=%d", len(p), 8*h.N*h.D+h.N, h.N, h.D)
	}
	x := make([]float64, h.N*h.D)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	ys := p[8*h.N*h.D:]
	y := make([]bool, h.N)
	for i, c := range ys {
		switch c {
		case 0:
		case 1:
			y[i] = true
		default:
			return nil, nil, nil, fmt.Errorf("label byte %d of row %d", c, i)
		}
	}
	return &h, x, y, nil
}

// loadEncoded returns the data set from the encoded cache, or nil when the
// cache has no current, intact copy (the caller then rebuilds it).
func (s *Store) loadEncoded(sp *Spec) *Dataset {
	b, err := os.ReadFile(s.encodedPath(sp.Name))
	if err != nil {
		return nil
	}
	h, x, y, err := decodeEncoded(b)
	if err != nil || h.SpecHash != sp.specHash() || h.Name != sp.Name {
		return nil
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
	ds := &Dataset{Name: h.Name, X: mat.NewDense(h.N, h.D, x), Y: y, Columns: h.Columns,
		N: h.N, NPos: h.NPos, D: h.D, Fingerprint: h.Fingerprint, Complete: true,
		Missing: h.Missing, Notes: strings.TrimSpace(sp.Notes), Files: h.Files, FromCache: true}
	// Verify against the catalog as it is now (its fingerprints or counts
	// may have changed since the file was written); warnings are made here.
	if err := s.check(sp, ds, true); err != nil {
		return nil
	}
	return ds
}
