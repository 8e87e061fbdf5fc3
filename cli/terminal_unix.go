//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// fileIsTerminal reports whether f is a terminal: it answers a terminal's
// ioctl (a character device such as /dev/null does not).
func fileIsTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}
