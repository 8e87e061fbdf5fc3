//go:build !unix

package results

import (
	"errors"
	"os"
)

// Without flock (Windows, Plan 9, wasm) the lock is not enforced: a second
// process is not refused. pueval's targets are Unix machines.
var errWouldBlock = errors.New("lock would block")

func lockFile(f *os.File, exclusive bool) error { return nil }
func unlockFile(f *os.File) error               { return nil }

// processAlive cannot tell here: a recorded holder is taken to be running.
func processAlive(pid int) bool { return true }

func readOnly(err error) bool { return errors.Is(err, os.ErrPermission) }
