package benchevaluate

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
)

// RecipeVersion names the way cases are built (the split's draw, the
// models' training, the cache's layout). Changing any of them changes it,
// so that no cached scores of the old recipe are served.
const RecipeVersion = "pueval-bench-evaluate-v1"

// Scored is a split's held-out scores from one model, with which rows are
// labeled and every row's true class: all an evaluation reads.
type Scored struct {
	Scores  []float64
	Labeled []bool
	Truth   []bool
}

// Cache keeps Scored on disk under a directory, one file per recipe.
type Cache struct {
	Dir string
}

const cacheMagic = "pueval-bench-scores\n"

// path is the file of a recipe: its sha256 in hex, under a directory of
// its first two digits.
func (c Cache) path(recipe string) string {
	sum := sha256.Sum256([]byte(recipe))
	h := hex.EncodeToString(sum[:])
	return filepath.Join(c.Dir, h[:2], h+".scores")
}

// Get returns the recipe's scores, ok false when none are cached. A file
// that is damaged or holds another recipe is an error naming it.
func (c Cache) Get(recipe string) (Scored, bool, error) {
	p := c.path(recipe)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Scored{}, false, nil
	}
	if err != nil {
		return Scored{}, false, fmt.Errorf("score cache: %w", err)
	}
	s, err := decodeScored(b, recipe)
	if err != nil {
		return Scored{}, false, fmt.Errorf("score cache: %s: %w (remove it to rebuild)", p, err)
	}
	return s, true, nil
}

// Put stores the recipe's scores, through a temporary file renamed into
// place, so the cache never holds a partial file.
func (c Cache) Put(recipe string, s Scored) error {
	p := c.path(recipe)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("score cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("score cache: %w", err)
	}
	_, werr := f.Write(encodeScored(recipe, s))
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("score cache: %s: %w", f.Name(), err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("score cache: %w", err)
	}
	return nil
}

// encodeScored lays out: the magic line; the recipe's length (uint32 LE)
// and bytes; n (uint64 LE); n scores as float64 bits LE; n bytes (bit 0
// labeled, bit 1 positive); the sha256 of everything before it.
func encodeScored(recipe string, s Scored) []byte {
	var b bytes.Buffer
	b.WriteString(cacheMagic)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(recipe))))
	b.WriteString(recipe)
	b.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(s.Scores))))
	for _, v := range s.Scores {
		b.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
	}
	for i := range s.Scores {
		var f byte
		if s.Labeled[i] {
			f |= 1
		}
		if s.Truth[i] {
			f |= 2
		}
		b.WriteByte(f)
	}
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

func decodeScored(b []byte, recipe string) (Scored, error) {
	if len(b) < len(cacheMagic)+4+8+sha256.Size || string(b[:len(cacheMagic)]) != cacheMagic {
		return Scored{}, errors.New("not a score file")
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return Scored{}, errors.New("checksum mismatch: the file is damaged")
	}
	r := body[len(cacheMagic):]
	lr := int(binary.LittleEndian.Uint32(r))
	if lr > len(r)-4-8 {
		return Scored{}, errors.New("recipe length past the end")
	}
	if got := string(r[4 : 4+lr]); got != recipe {
		return Scored{}, fmt.Errorf("holds recipe %q, not %q", got, recipe)
	}
	r = r[4+lr:]
	n := binary.LittleEndian.Uint64(r)
	r = r[8:]
	if n > uint64(len(r))/9 || uint64(len(r)) != 9*n {
		return Scored{}, fmt.Errorf("%d rows announced, %d bytes of rows", n, len(r))
	}
	s := Scored{Scores: make([]float64, n), Labeled: make([]bool, n), Truth: make([]bool, n)}
	for i := range s.Scores {
		s.Scores[i] = math.Float64frombits(binary.LittleEndian.Uint64(r[8*i:]))
	}
	flags := r[8*n:]
	for i, f := range flags {
		s.Labeled[i], s.Truth[i] = f&1 != 0, f&2 != 0
	}
	return s, nil
}
