package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// LockFile is the name of a results directory's lock file.
const LockFile = ".lock"

// ErrLocked is matched (errors.Is) by LockDir's and ReadLockDir's error
// when another process (or this one, through another path) holds the lock.
var ErrLocked = errors.New("results directory in use")

// Lock is the lock of a results directory: while one process holds it
// exclusively (LockDir), no other can write records, the manifest or the
// report there, nor read the directory as a shard (ReadLockDir), which
// holds it shared. It is an advisory lock of the operating system on
// DIR/.lock (flock on Unix), released when the process exits however it
// exits, so a killed run never leaves a stale lock; the file itself holds
// the holder's pid and command line, for the error message of the next one.
type Lock struct {
	f  *os.File
	fi os.FileInfo // of f, to recognise a lock this process already holds
}

// held are the locks this process holds: a second lock of the same file
// through another path (a link, a directory given twice) is named as this
// process's own, not as another program's.
var (
	heldMu sync.Mutex
	held   = map[*Lock]bool{}
)

// LockDir creates dir if needed and takes its lock. When another process
// holds it, the error wraps ErrLocked and names the directory and the
// holder's pid and command.
func LockDir(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := lockFile(f, true); err != nil {
		return nil, lockError(dir, path, f, err)
	}
	// Record the holder; the lock, not the content, is what excludes.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(holderLine()), 0)
	}
	return hold(f), nil
}

// ReadLockDir takes dir's lock shared, for reading the directory (merge's
// shards): any number of readers at once, no writer meanwhile. It needs only
// read permission: on read-only storage it locks DIR/.lock opened for
// reading (without recording the holder), and a directory without a lock
// file, which no run can be writing, needs no lock (nil Lock, no error).
func ReadLockDir(dir string) (*Lock, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	writable := err == nil
	if err != nil && readOnly(err) {
		f, err = os.Open(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := lockFile(f, false); err != nil {
		return nil, lockError(dir, path, f, err)
	}
	if writable {
		if err := f.Truncate(0); err == nil {
			f.WriteAt([]byte(holderLine()), 0)
		}
	}
	return hold(f), nil
}

// hold registers a lock taken on f as this process's.
func hold(f *os.File) *Lock {
	l := &Lock{f: f}
	if fi, err := f.Stat(); err == nil {
		l.fi = fi
	}
	heldMu.Lock()
	held[l] = true
	heldMu.Unlock()
	return l
}

// lockError is the error of a lock of path (dir's lock file, open as f)
// that failed with err; it closes f.
func lockError(dir, path string, f *os.File, err error) error {
	defer f.Close()
	if !errors.Is(err, errWouldBlock) {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	if own := heldByThisProcess(f); own {
		return fmt.Errorf("%s is locked by this pueval itself (process %d: %s): the directory is named twice, perhaps through a link: %w",
			dir, os.Getpid(), commandLine(), ErrLocked)
	}
	return fmt.Errorf("%s is in use by %s: %w; wait for it to finish, or write elsewhere (-o)", dir, holderOf(path), ErrLocked)
}

// heldByThisProcess reports whether this process holds a lock on f's file.
func heldByThisProcess(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	heldMu.Lock()
	defer heldMu.Unlock()
	for l := range held {
		if l.fi != nil && os.SameFile(l.fi, fi) {
			return true
		}
	}
	return false
}

// holderOf names the holder the lock file at path records: "process PID
// (COMMAND)" while that process runs. A holder that could not record
// itself (a reader on read-only storage) leaves an earlier holder's line,
// whose process has ended: it is then "another process".
func holderOf(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "another process"
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pidText, cmd, _ := strings.Cut(strings.TrimSpace(line), " ")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 || pid == os.Getpid() || !processAlive(pid) {
		return "another process (one that could not record itself in " + path + ", such as a pueval merge reading it from read-only storage)"
	}
	if cmd = strings.TrimSpace(cmd); cmd == "" {
		return "process " + strconv.Itoa(pid)
	}
	return fmt.Sprintf("process %d (%s)", pid, cmd)
}

// holderLine is what a lock file records of its holder: its pid and command
// line, on one line.
func holderLine() string {
	return strconv.Itoa(os.Getpid()) + " " + commandLine() + "\n"
}

// commandLine is this process's command line (the program's base name and
// its arguments) on one line of at most 200 bytes.
func commandLine() string {
	args := append([]string{filepath.Base(os.Args[0])}, os.Args[1:]...)
	s := strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, strings.Join(args, " "))
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:197], "") + "..."
	}
	return s
}

// Unlock releases the lock. A nil Lock is a no-op.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	heldMu.Lock()
	delete(held, l)
	heldMu.Unlock()
	err := unlockFile(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
