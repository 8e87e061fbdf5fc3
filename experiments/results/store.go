package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// RecordsFile is the name of the records file in a results directory.
const RecordsFile = "records.jsonl"

// Store appends records to DIR/records.jsonl. It is safe for concurrent use.
type Store struct {
	mu    sync.Mutex
	dir   string
	f     *os.File
	last  map[string]Record // last record of each cell
	order []string          // cells in first-seen order
}

// OpenStore opens (creating if needed) the records file in dir and loads the
// records already there. A torn last line (a run killed mid-write) is cut off.
// A line that is not a valid record, other than the last, is an error naming
// the file and line, since silently dropping finished work is worse.
func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, RecordsFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, f: f, last: map[string]Record{}}
	good, err := s.load(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	// Cut a torn tail and position for appending.
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// load reads every complete record and returns the offset after the last good line.
func (s *Store) load(r io.Reader, path string) (int64, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var off int64
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			// An unterminated tail is a record torn by a kill: drop it.
			return off, nil
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		rec, perr := ParseRecord(line)
		if perr != nil {
			// A complete line that does not parse: if it is the last line, it may
			// be a torn write whose newline made it to disk; anything earlier is corruption.
			if _, peek := br.Peek(1); errors.Is(peek, io.EOF) {
				return off, nil
			}
			return 0, fmt.Errorf("%s:%d: %w", path, lineNo, perr)
		}
		s.remember(rec)
		off += int64(len(line))
	}
}

// ParseRecord decodes one line of records.jsonl; a schema-1 record comes
// back upgraded to the current schema (UpgradeRecord).
func ParseRecord(line []byte) (Record, error) {
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return Record{}, fmt.Errorf("not a record: %w", err)
	}
	if err := UpgradeRecord(&rec); err != nil {
		return Record{}, err
	}
	if err := rec.Validate(); err != nil {
		return Record{}, err
	}
	return rec, nil
}

func (s *Store) remember(r Record) {
	if _, ok := s.last[r.Cell]; !ok {
		s.order = append(s.order, r.Cell)
	}
	s.last[r.Cell] = r
}

// Done reports whether the cell's last record has status ok.
func (s *Store) Done(cell string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.last[cell]
	return ok && r.Status == StatusOK
}

// Records returns the last record of every cell, in first-seen order.
func (s *Store) Records() []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Record, 0, len(s.order))
	for _, c := range s.order {
		out = append(out, s.last[c])
	}
	return out
}

// Append writes one record with a single write and an fsync.
func (s *Store) Append(r Record) error {
	b, err := r.Marshal()
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.f.Write(b); err != nil {
		return fmt.Errorf("append to %s: %w", s.f.Name(), err)
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", s.f.Name(), err)
	}
	s.remember(r)
	return nil
}

// Finalize rewrites the records file with the last record of each cell, cells
// in the given order first (cells not listed follow in first-seen order), via
// a temporary file and a rename, so a crash leaves the old or the new file.
func (s *Store) Finalize(order []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	var buf bytes.Buffer
	emit := func(c string) error {
		r, ok := s.last[c]
		if !ok || seen[c] {
			return nil
		}
		seen[c] = true
		b, err := r.Marshal()
		if err != nil {
			return err
		}
		buf.Write(b)
		return nil
	}
	for _, c := range order {
		if err := emit(c); err != nil {
			return err
		}
	}
	for _, c := range s.order {
		if err := emit(c); err != nil {
			return err
		}
	}
	path := filepath.Join(s.dir, RecordsFile)
	if err := WriteFileAtomic(path, buf.Bytes()); err != nil {
		return err
	}
	// Reopen the new file for further appends.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	s.f.Close()
	s.f = f
	return nil
}

// Close closes the records file.
func (s *Store) Close() error { return s.f.Close() }

// ReadRecords reads the records of a results directory (or a records.jsonl
// path) without opening it for writing: the last record of each cell, in
// file order. A torn last line is ignored.
func ReadRecords(path string) ([]Record, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, RecordsFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := &Store{last: map[string]Record{}}
	if _, err := s.load(f, path); err != nil {
		return nil, err
	}
	return s.Records(), nil
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, fsynced and renamed over path.
func WriteFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}
