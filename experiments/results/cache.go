package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// Cache is the content-keyed cache of what a run computes: a classifier's
// out-of-bag scores (GetScores, PutScores; DIR/<key[:2]>/<key>.scores) and
// an estimator's class prior and noise (GetEstimate, PutEstimate), one
// file per entry, so that a rerun or an ablation that changes something
// downstream of them recomputes neither.
type Cache struct {
	dir string
}

// Scores is a cached entry: one score and one label per row.
type Scores struct {
	Scores []float64
	Labels []bool
}

// ErrCorrupt is returned (wrapped) by GetScores and GetEstimate for an
// entry that fails its checksum.
var ErrCorrupt = errors.New("corrupt score cache entry")

// ErrOtherKey is returned (wrapped) by GetScores and GetEstimate for a whole
// entry whose checksummed bytes name another key than the one it is filed
// under: a file renamed or swapped on disk. The caller recomputes (and
// Puts, which replaces it), as for a corrupt entry.
var ErrOtherKey = errors.New("score cache entry of another key")

// Entries bind their key: it is inside the bytes the checksum covers, so a
// valid entry moved to another key's file is told apart from a hit. Entries
// of the first layout (v1) did not; a valid one reads as a miss (and is
// rewritten by the caller's Put), an invalid one as corrupt.
const (
	cacheMagic   = "pueval-scores-v2\n"
	cacheMagicV1 = "pueval-scores-v1\n"
)

// errV1 marks a valid v1 entry: a miss.
var errV1 = errors.New("cache entry of the first layout, not bound to its key")

// OpenCache opens (creating if needed) a cache in dir.
func OpenCache(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

// Dir is the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// Key hashes its parts, encoded as JSON, into a hex SHA-256 key. Pass every
// value that determines the scores (struct fields in a fixed order; maps are
// encoded with sorted keys).
func Key(parts ...any) (string, error) {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for i, p := range parts {
		if err := enc.Encode(p); err != nil {
			return "", fmt.Errorf("cache key part %d: %w", i, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (c *Cache) path(key string) (string, error) {
	if len(key) < 8 || strings.ContainsAny(key, "/\\\n") {
		return "", fmt.Errorf("score cache key %q too short or not a file name", key)
	}
	return filepath.Join(c.dir, key[:2], key+".scores"), nil
}

// GetScores returns the scores stored under key; ok is false when there is
// none. A corrupt entry returns an error wrapping ErrCorrupt, an entry of
// another key one wrapping ErrOtherKey (the caller recomputes and Puts).
func (c *Cache) GetScores(key string) (s Scores, ok bool, err error) {
	p, err := c.path(key)
	if err != nil {
		return Scores{}, false, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Scores{}, false, nil
	}
	if err != nil {
		return Scores{}, false, err
	}
	got, s, err := decodeScores(b)
	if errors.Is(err, errV1) {
		return Scores{}, false, nil
	}
	if err != nil {
		return Scores{}, false, fmt.Errorf("%s: %w", p, err)
	}
	if got != key {
		return Scores{}, false, otherKey(p, got, key)
	}
	return s, true, nil
}

func otherKey(path, got, want string) error {
	return fmt.Errorf("%s: %w: it holds the entry of key %.16s..., not of %.16s... (renamed or swapped on disk)", path, ErrOtherKey, got, want)
}

// PutScores stores scores atomically (temporary file + rename).
func (c *Cache) PutScores(key string, s Scores) error {
	if len(s.Scores) != len(s.Labels) {
		return fmt.Errorf("score cache: %d scores but %d labels", len(s.Scores), len(s.Labels))
	}
	p, err := c.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return WriteFileAtomic(p, encodeScores(key, s))
}

// Layout: magic, uint64 key length, the key, uint64 n, n float64 (little
// endian bits), n label bytes, sha256 of all before.
func encodeScores(key string, s Scores) []byte {
	n := len(s.Scores)
	b := make([]byte, 0, len(cacheMagic)+16+len(key)+9*n+sha256.Size)
	b = append(b, cacheMagic...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(key)))
	b = append(b, key...)
	b = binary.LittleEndian.AppendUint64(b, uint64(n))
	for _, x := range s.Scores {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	for _, l := range s.Labels {
		if l {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return appendSum(b)
}

// appendSum appends the sha256 of b to b.
func appendSum(b []byte) []byte {
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// decodeScores decodes an entry and the key it names; errV1 for a valid
// entry of the first layout.
func decodeScores(b []byte) (string, Scores, error) {
	v1 := bytes.HasPrefix(b, []byte(cacheMagicV1))
	if !v1 && !bytes.HasPrefix(b, []byte(cacheMagic)) || len(b) < len(cacheMagic)+8+sha256.Size {
		return "", Scores{}, fmt.Errorf("%w: bad header", ErrCorrupt)
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return "", Scores{}, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	body = body[len(cacheMagic):]
	var key string
	if !v1 {
		k := binary.LittleEndian.Uint64(body)
		body = body[8:]
		if k > uint64(len(body)) || uint64(len(body))-k < 8 {
			return "", Scores{}, fmt.Errorf("%w: a key of %d bytes in a body of %d", ErrCorrupt, k, len(body))
		}
		key, body = string(body[:k]), body[k:]
	}
	s, err := decodeRows(body)
	if err == nil && v1 {
		err = errV1
	}
	return key, s, err
}

// decodeRows decodes n, the n scores and the n labels of an entry.
func decodeRows(body []byte) (Scores, error) {
	n := binary.LittleEndian.Uint64(body)
	body = body[8:]
	// Compare without multiplying n: 9n overflows for a crafted n, and the
	// allocation below must never see a count the body cannot hold.
	if uint64(len(body))%9 != 0 || uint64(len(body))/9 != n {
		return Scores{}, fmt.Errorf("%w: %d bytes for %d rows", ErrCorrupt, len(body), n)
	}
	s := Scores{Scores: make([]float64, n), Labels: make([]bool, n)}
	for i := range s.Scores {
		s.Scores[i] = math.Float64frombits(binary.LittleEndian.Uint64(body[8*i:]))
	}
	for i, v := range body[8*n:] {
		s.Labels[i] = v == 1
	}
	return s, nil
}

// An estimate entry is its key on a line, the Estimate as JSON on the next
// and a line with the sha256 of the two (key line and JSON), in
// DIR/<key[:2]>/<key>.estimate: estimators can be slow (kernel mixture
// proportion estimation takes minutes), and an ablation that changes only
// the measures or the truths reuses them. The first layout (v1) had no key
// line; a valid v1 entry reads as a miss.
const (
	estimateMagic   = "pueval-estimate-v2\n"
	estimateMagicV1 = "pueval-estimate-v1\n"
)

func (c *Cache) estimatePath(key string) (string, error) {
	p, err := c.path(key)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(p, ".scores") + ".estimate", nil
}

// GetEstimate returns the estimate stored under key; ok is false when there
// is none. A corrupt entry returns an error wrapping ErrCorrupt, an entry of
// another key one wrapping ErrOtherKey.
func (c *Cache) GetEstimate(key string) (e Estimate, ok bool, err error) {
	p, err := c.estimatePath(key)
	if err != nil {
		return Estimate{}, false, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Estimate{}, false, nil
	}
	if err != nil {
		return Estimate{}, false, err
	}
	got, e, err := decodeEstimate(b)
	if errors.Is(err, errV1) {
		return Estimate{}, false, nil
	}
	if err != nil {
		return Estimate{}, false, fmt.Errorf("%s: %w", p, err)
	}
	if got != key {
		return Estimate{}, false, otherKey(p, got, key)
	}
	return e, true, nil
}

// decodeEstimate decodes an estimate entry and the key it names; errV1 for
// a valid entry of the first layout.
func decodeEstimate(b []byte) (string, Estimate, error) {
	body, ok := bytes.CutPrefix(b, []byte(estimateMagic))
	v1 := false
	if !ok {
		body, v1 = bytes.CutPrefix(b, []byte(estimateMagicV1))
	}
	i := bytes.LastIndexByte(bytes.TrimSuffix(body, []byte("\n")), '\n')
	if !ok && !v1 || i < 0 {
		return "", Estimate{}, fmt.Errorf("%w: bad layout", ErrCorrupt)
	}
	signed, sum := body[:i], bytes.TrimSpace(body[i+1:])
	if got := sha256.Sum256(signed); hex.EncodeToString(got[:]) != string(sum) {
		return "", Estimate{}, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	key, js := "", signed
	if !v1 {
		k, rest, found := bytes.Cut(signed, []byte("\n"))
		if !found {
			return "", Estimate{}, fmt.Errorf("%w: no key line", ErrCorrupt)
		}
		key, js = string(k), rest
	}
	var e Estimate
	if err := json.Unmarshal(js, &e); err != nil {
		return "", Estimate{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if v1 {
		return "", Estimate{}, errV1
	}
	return key, e, nil
}

// PutEstimate stores an estimate atomically (temporary file + rename).
func (c *Cache) PutEstimate(key string, e Estimate) error {
	p, err := c.estimatePath(key)
	if err != nil {
		return err
	}
	js, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("estimate cache: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return WriteFileAtomic(p, encodeEstimate(key, js))
}

// encodeEstimate lays an estimate entry out: magic, key line, JSON, sum line.
func encodeEstimate(key string, js []byte) []byte {
	signed := append(append([]byte(key), '\n'), js...)
	sum := sha256.Sum256(signed)
	b := append([]byte(estimateMagic), signed...)
	return append(append(append(b, '\n'), hex.EncodeToString(sum[:])...), '\n')
}
