package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockFile is the name of a results directory's lock file.
const LockFile = ".lock"

// ErrLocked is matched (errors.Is) by LockDir's error when another process
// holds the lock.
var ErrLocked = errors.New("results directory in use")

// Lock is the exclusive lock of a results directory: while one process
// holds it, no other can write records, the manifest or the report there.
// It is an advisory lock of the operating system on DIR/.lock (flock on
// Unix), released when the process exits however it exits, so a killed run
// never leaves a stale lock; the file itself holds the holder's pid, for
// the error message of the next one.
type Lock struct {
	f *os.File
}

// LockDir creates dir if needed and takes its lock. When another process
// holds it, the error wraps ErrLocked and names the directory and the
// holder's pid.
func LockDir(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := lockFile(f); err != nil {
		holder := "another process"
		if b, rerr := os.ReadFile(path); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				holder = "process " + strconv.Itoa(pid)
			}
		}
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("%s is in use by %s (another pueval writing there): %w; wait for it to finish, or write elsewhere (-o)",
				dir, holder, ErrLocked)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// Record the holder; the lock, not the content, is what excludes.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f}, nil
}

// Unlock releases the lock. A nil Lock is a no-op.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := unlockFile(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
