package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair and returns its terminal side.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pts.Close() })
	// Drain what the command writes, so that it never blocks on a full
	// terminal buffer.
	go func() {
		b := make([]byte, 1<<16)
		for {
			if _, err := ptm.Read(b); err != nil {
				return
			}
		}
	}()
	return pts
}

// The practitioner commands write a table to a terminal and JSON elsewhere
// (a pipe, a file, /dev/null, which is a character device but no
// terminal), unless --format says which.
func TestFormatFollowsTerminal(t *testing.T) {
	pts := openPTY(t)
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, c := range []struct {
		f    *os.File
		want string
	}{{pts, "table"}, {devNull, "json"}, {file, "json"}} {
		for _, given := range []string{"", "json", "table"} {
			got := given
			if err := resolveFormat(&env{stdout: c.f, stderr: os.Stderr}, &got); err != nil {
				t.Fatal(err)
			}
			want := given
			if given == "" {
				want = c.want
			}
			if got != want {
				t.Errorf("%s, --format %q: %q, want %q", c.f.Name(), given, got, want)
			}
		}
	}
	bad := "xml"
	if err := resolveFormat(&env{stdout: file}, &bad); err == nil || !strings.Contains(err.Error(), `--format "xml": want json or table`) {
		t.Errorf("--format xml: %v", err)
	}
}
