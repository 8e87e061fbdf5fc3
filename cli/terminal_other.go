//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package cli

import "os"

// fileIsTerminal reports whether f is a character device, the closest
// portable sign of a terminal.
func fileIsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
