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

const cacheMagic = "pueval-scores-v1\n"

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
	if len(key) < 8 {
		return "", fmt.Errorf("score cache key %q too short", key)
	}
	return filepath.Join(c.dir, key[:2], key+".scores"), nil
}

// GetScores returns the scores stored under key; ok is false when there is none. A corrupt
// entry returns an error wrapping ErrCorrupt (the caller recomputes and Puts).
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
	s, err = decodeScores(b)
	if err != nil {
		return Scores{}, false, fmt.Errorf("%s: %w", p, err)
	}
	return s, true, nil
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
	return WriteFileAtomic(p, encodeScores(s))
}

// Layout: magic, uint64 n, n float64 (little endian bits), n label bytes, sha256 of all before.
func encodeScores(s Scores) []byte {
	n := len(s.Scores)
	b := make([]byte, 0, len(cacheMagic)+8+9*n+sha256.Size)
	b = append(b, cacheMagic...)
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

func decodeScores(b []byte) (Scores, error) {
	if len(b) < len(cacheMagic)+8+sha256.Size || !bytes.HasPrefix(b, []byte(cacheMagic)) {
		return Scores{}, fmt.Errorf("%w: bad header", ErrCorrupt)
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return Scores{}, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	body = body[len(cacheMagic):]
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

// An estimate entry is the Estimate as JSON followed by a line with the
// sha256 of that JSON, in DIR/<key[:2]>/<key>.estimate: estimators can be
// slow (kernel mixture proportion estimation takes minutes), and an
// ablation that changes only the measures or the truths reuses them.
const estimateMagic = "pueval-estimate-v1\n"

func (c *Cache) estimatePath(key string) (string, error) {
	p, err := c.path(key)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(p, ".scores") + ".estimate", nil
}

// GetEstimate returns the estimate stored under key; ok is false when there
// is none. A corrupt entry returns an error wrapping ErrCorrupt.
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
	body, ok := bytes.CutPrefix(b, []byte(estimateMagic))
	i := bytes.LastIndexByte(bytes.TrimSuffix(body, []byte("\n")), '\n')
	if !ok || i < 0 {
		return Estimate{}, false, fmt.Errorf("%s: %w: bad layout", p, ErrCorrupt)
	}
	js, sum := body[:i], bytes.TrimSpace(body[i+1:])
	if got := sha256.Sum256(js); hex.EncodeToString(got[:]) != string(sum) {
		return Estimate{}, false, fmt.Errorf("%s: %w: checksum mismatch", p, ErrCorrupt)
	}
	if err := json.Unmarshal(js, &e); err != nil {
		return Estimate{}, false, fmt.Errorf("%s: %w: %v", p, ErrCorrupt, err)
	}
	return e, true, nil
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
	sum := sha256.Sum256(js)
	b := append([]byte(estimateMagic), js...)
	b = append(append(append(b, '\n'), hex.EncodeToString(sum[:])...), '\n')
	return WriteFileAtomic(p, b)
}
