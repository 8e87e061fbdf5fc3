package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// RecordsFile is the name of the records file in a results directory.
const RecordsFile = "records.jsonl"

// Store appends records to DIR/records.jsonl. It is safe for concurrent
// use, and it holds the directory's lock (LockDir) from OpenStore to Close,
// so no other process writes the directory meanwhile.
type Store struct {
	mu    sync.Mutex
	dir   string
	f     *os.File
	lock  *Lock
	size  int64             // bytes of complete records in the file
	last  map[string]Record // last record of each cell
	line  map[string]int    // line of each cell's record in the file read
	order []string          // cells in first-seen order
	// write writes a record's bytes at the end of the file; tests replace it
	// to inject short writes and errors.
	write func(f *os.File, b []byte) (int, error)
	// writeFile writes a whole file atomically (Finalize's rewrite); tests
	// replace it to fill the disk.
	writeFile func(path string, data []byte) error
}

func newStore() *Store {
	return &Store{last: map[string]Record{}, line: map[string]int{}, write: (*os.File).Write, writeFile: WriteFileAtomic}
}

// MaxRecordSize bounds a line of records.jsonl: a record is a few KB, and a
// file that is not a records file must not be read into memory whole.
const MaxRecordSize = 16 << 20

// OpenStore takes the lock of dir (creating dir if needed), opens (creating
// if needed) its records file and loads the records already there. A torn
// last line (a run killed mid-write) is cut off. A line that is not a valid
// record, other than the last, is an error naming the file and line, since
// silently dropping finished work is worse; so are two different records of
// a finished cell (see load). A records file that pueval did not write (one
// with records but no manifest beside it, or whose first line is not a
// record) is refused by name and left as it is.
func OpenStore(dir string) (*Store, error) {
	lock, err := LockDir(dir)
	if err != nil {
		return nil, err
	}
	s, err := openStore(dir, lock)
	if err != nil {
		lock.Unlock()
		return nil, err
	}
	return s, nil
}

func openStore(dir string, lock *Lock) (*Store, error) {
	path := filepath.Join(dir, RecordsFile)
	if err := checkOwnRecords(dir, path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	s := newStore()
	s.dir, s.f, s.lock = dir, f, lock
	good, err := s.load(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	// Cut a torn tail and position for appending.
	if err := s.truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// checkOwnRecords refuses a records file with content but no manifest
// beside it: a run writes its manifest before its first record, so such a
// file is not pueval's, and cutting its "torn" last line would damage it.
func checkOwnRecords(dir, path string) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s was not written by pueval (%s has no %s, which a run writes before its first record): "+
			"pueval changes nothing in it; run into another directory (-o), or move the file away", path, dir, ManifestFile)
	}
	return nil
}

// truncate cuts the file to n bytes (the end of the last complete record)
// and positions the next write there.
func (s *Store) truncate(n int64) error {
	if err := s.f.Truncate(n); err != nil {
		return fmt.Errorf("truncate %s: %w", s.f.Name(), err)
	}
	if _, err := s.f.Seek(n, io.SeekStart); err != nil {
		return fmt.Errorf("seek %s: %w", s.f.Name(), err)
	}
	s.size = n
	return nil
}

// load reads every complete record and returns the offset after the last
// good line. A cell may have several records only as a failed cell and its
// retries (the last one counts); a finished cell recorded again is an error
// naming both lines, unless the two records are identical but for timings
// and training work (a re-appended copy), when the first is kept.
func (s *Store) load(r io.Reader, path string) (int64, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var off int64
	for lineNo := 1; ; lineNo++ {
		line, err := readLine(br, MaxRecordSize)
		if errors.Is(err, io.EOF) {
			// An unterminated tail is a record torn by a kill: drop it; but a
			// first line that cannot be the start of a record is not pueval's.
			if lineNo == 1 && len(line) > 0 && !recordPrefix(line) {
				return 0, notRecordsFile(path, errors.New("it is not a record"))
			}
			return off, nil
		}
		if errors.Is(err, errLongLine) {
			return 0, fmt.Errorf("%s:%d: a line longer than %d MiB: not a records file", path, lineNo, MaxRecordSize>>20)
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		rec, perr := ParseRecord(line)
		if perr != nil {
			if lineNo == 1 && !recordPrefix(line) {
				return 0, notRecordsFile(path, perr)
			}
			// A complete line that does not parse: if it is the last line, it may
			// be a torn write whose newline made it to disk; anything earlier is corruption.
			if _, peek := br.Peek(1); errors.Is(peek, io.EOF) {
				return off, nil
			}
			return 0, fmt.Errorf("%s:%d: %w", path, lineNo, perr)
		}
		if err := s.add(rec, path, lineNo); err != nil {
			return 0, err
		}
		off += int64(len(line))
	}
}

// recordPrefix reports whether line begins as every record line does (a
// torn record keeps at least part of that beginning).
func recordPrefix(line []byte) bool {
	const start = `{"schema":`
	n := min(len(line), len(start))
	return n > 0 && string(line[:n]) == start[:n]
}

func notRecordsFile(path string, why error) error {
	return fmt.Errorf("%s is not a pueval records file: its first line is not a pueval record (%v); pueval changes nothing in it", path, why)
}

// add remembers a record read from line lineNo of path (see load).
func (s *Store) add(r Record, path string, lineNo int) error {
	if prev, ok := s.last[r.Cell]; ok && prev.Status != StatusFailed {
		if diff := recordDiff(prev, r); diff != "" {
			return fmt.Errorf("cell %s is recorded twice with different values, at %s:%d and %s:%d (%s): "+
				"pueval records a finished cell once, so the file was edited or joined from two runs; "+
				"delete the wrong line (or both, to run the cell again)", r.Cell, path, s.line[r.Cell], path, lineNo, diff)
		}
		return nil // the same record again: the first copy stands
	}
	s.remember(r)
	s.line[r.Cell] = lineNo
	return nil
}

var errLongLine = errors.New("line too long")

// readLine reads up to and including the next newline; io.EOF for an
// unterminated tail, errLongLine past limit bytes.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return nil, errLongLine
		}
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return line, err
		}
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

// Append writes one record with a single write and an fsync. A failed or
// short write (a full disk) is undone: the file is cut back to the last
// complete record, so it never holds a torn record before whole ones, and
// the error names the file and the cause.
func (s *Store) Append(r Record) error {
	b, err := r.Marshal()
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.write(s.f, b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err == nil {
		err = s.f.Sync()
	}
	if err != nil {
		if terr := s.truncate(s.size); terr != nil {
			return fmt.Errorf("append to %s: %w (and cutting the partial record failed: %v)", s.f.Name(), err, terr)
		}
		return fmt.Errorf("append to %s: %w", s.f.Name(), err)
	}
	s.size += int64(len(b))
	s.remember(r)
	return nil
}

// Finalize puts the records file in order: the last record of each cell,
// cells in the given order first (cells not listed follow in first-seen
// order). A file already so is left as it is (a rerun of a finished run
// writes nothing, so it needs no free space); otherwise it is rewritten via
// a temporary file and a rename, so a crash leaves the old or the new file,
// and a rewrite that fails (a full disk) leaves the old one, every record
// in it, and says so.
func (s *Store) Finalize(order []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := s.ordered(order)
	if err != nil {
		return err
	}
	same, err := s.fileHolds(data)
	if err != nil || same {
		return err
	}
	path := filepath.Join(s.dir, RecordsFile)
	if err := s.writeFile(path, data); err != nil {
		return fmt.Errorf("putting the records in grid order: %w; nothing is lost: %s still holds all %d records, "+
			"in the order their cells finished (the rewrite needs %d bytes of free space beside it): "+
			"free some and run the same command again to put them in order", err, path, len(s.order), len(data))
	}
	// Reopen the new file for further appends.
	f, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	s.f.Close()
	s.f = f
	return s.truncate(int64(len(data)))
}

// ordered returns the records file's content in order (Finalize).
func (s *Store) ordered(order []string) ([]byte, error) {
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
			return nil, err
		}
	}
	for _, c := range s.order {
		if err := emit(c); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// fileHolds reports whether the records file's complete records are data,
// byte for byte.
func (s *Store) fileHolds(data []byte) (bool, error) {
	if s.size != int64(len(data)) {
		return false, nil
	}
	r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, s.size), 1<<20)
	chunk := make([]byte, 1<<16)
	for off := 0; off < len(data); {
		n, err := io.ReadFull(r, chunk[:min(len(chunk), len(data)-off)])
		if err != nil {
			return false, fmt.Errorf("read %s: %w", s.f.Name(), err)
		}
		if !bytes.Equal(chunk[:n], data[off:off+n]) {
			return false, nil
		}
		off += n
	}
	return true, nil
}

// Close closes the records file and releases the directory's lock.
func (s *Store) Close() error {
	err := s.f.Close()
	if uerr := s.lock.Unlock(); err == nil {
		err = uerr
	}
	return err
}

// ReadRecords reads the records of a results directory (or a records.jsonl
// path) without opening it for writing: the last record of each cell, in
// file order. A torn last line is ignored; two different records of a
// finished cell are an error naming both lines (see OpenStore).
func ReadRecords(path string) ([]Record, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, RecordsFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := newStore()
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
	// CreateTemp makes the file 0600; results and caches are shared with a
	// group as readily as files written with os.Create.
	werr := tmp.Chmod(0o644)
	if werr == nil {
		_, werr = tmp.Write(data)
	}
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
