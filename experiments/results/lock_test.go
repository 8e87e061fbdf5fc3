package results

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHelperHoldLock is not a test: run as a child process with
// PUEVAL_HOLD_LOCK=DIR, it holds DIR's lock (PUEVAL_HOLD_MODE: exclusive,
// shared, or shared-silent: opened read-only, recording nothing, as a
// reader on read-only storage) until killed.
func TestHelperHoldLock(t *testing.T) {
	dir := os.Getenv("PUEVAL_HOLD_LOCK")
	if dir == "" {
		return
	}
	var err error
	switch os.Getenv("PUEVAL_HOLD_MODE") {
	case "exclusive":
		_, err = LockDir(dir)
	case "shared":
		_, err = ReadLockDir(dir)
	default:
		var f *os.File
		if f, err = os.Open(filepath.Join(dir, LockFile)); err == nil {
			err = lockFile(f, false)
		}
	}
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("locked")
	time.Sleep(time.Minute)
	os.Exit(0)
}

// holdLock starts a child process that holds dir's lock (see
// TestHelperHoldLock) and returns its pid once it does.
func holdLock(t *testing.T, dir string, mode string) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldLock$")
	cmd.Env = append(os.Environ(), "PUEVAL_HOLD_LOCK="+dir, "PUEVAL_HOLD_MODE="+mode)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "locked\n" {
		t.Fatalf("the lock holder says %q", line)
	}
	return cmd.Process.Pid
}

// The refusal of a held lock names the holder as the lock file records it:
// another process by pid and command line; this process itself (the same
// directory reached twice) as itself; a holder that could not record itself
// (a reader on read-only storage) as such, not as the stale pid in the file.
func TestLockNamesHolder(t *testing.T) {
	dir := t.TempDir()
	pid := holdLock(t, dir, "exclusive")
	_, err := LockDir(dir)
	want := fmt.Sprintf("%s is in use by process %d (results.test -test.run=^TestHelperHoldLock$)", dir, pid)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "another pueval") {
		t.Errorf("held by another process: %v\nwant %q", err, want)
	}
	if _, err := ReadLockDir(dir); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), want) {
		t.Errorf("a reader while another process writes: %v", err)
	}

	own := t.TempDir()
	l, err := LockDir(own)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(own, link); err != nil {
		t.Fatal(err)
	}
	_, err = LockDir(link)
	want = fmt.Sprintf("%s is locked by this pueval itself (process %d: results.test", link, os.Getpid())
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), want) {
		t.Errorf("held by this process: %v\nwant %q", err, want)
	}

	// A reader that recorded nothing: the file names a process that ended.
	silent := t.TempDir()
	ended := exec.Command("true")
	if err := ended.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	os.WriteFile(filepath.Join(silent, LockFile), []byte(fmt.Sprintf("%d pueval run old.yaml\n", ended.Process.Pid)), 0o644)
	holdLock(t, silent, "shared-silent")
	_, err = LockDir(silent)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "in use by another process (one that could not record itself") ||
		strings.Contains(err.Error(), fmt.Sprint(ended.Process.Pid)) {
		t.Errorf("held by a silent reader: %v", err)
	}
	// Readers share the lock.
	shared := t.TempDir()
	holdLock(t, shared, "shared")
	r, err := ReadLockDir(shared)
	if err != nil {
		t.Errorf("a second reader: %v", err)
	}
	r.Unlock()
}

// makeReadOnly makes dir and everything under it unwritable for this
// process: a read-only bind mount of it over itself as root (whom file
// modes do not stop), its files' write bits cleared otherwise.
func makeReadOnly(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() == 0 {
		if out, err := exec.Command("mount", "--bind", dir, dir).CombinedOutput(); err != nil {
			t.Skipf("root cannot bind-mount here (%v: %s), and file modes do not stop root", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", dir).Run() })
		if out, err := exec.Command("mount", "-o", "remount,bind,ro", dir).CombinedOutput(); err != nil {
			t.Skipf("cannot remount read-only: %v: %s", err, out)
		}
	} else {
		var paths []string
		filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
			if err == nil {
				paths = append(paths, p)
			}
			return nil
		})
		for _, p := range paths {
			fi, _ := os.Stat(p)
			os.Chmod(p, fi.Mode().Perm()&^0o222)
		}
		t.Cleanup(func() {
			for _, p := range paths {
				fi, _ := os.Stat(p)
				os.Chmod(p, fi.Mode().Perm()|0o200)
			}
		})
	}
	if err := os.WriteFile(filepath.Join(dir, "probe"), nil, 0o644); err == nil {
		t.Fatalf("%s is still writable", dir)
	}
}

// Shards on read-only storage merge: reading them needs only read
// permission, with or without a lock file in them.
func TestMergeReadOnlyShards(t *testing.T) {
	root := t.TempDir()
	dirs := threeShards(t, root)
	os.Remove(filepath.Join(dirs[2], LockFile)) // copied without it
	makeReadOnly(t, filepath.Join(root, "shards"))
	out := filepath.Join(root, "merged")
	sum, err := Merge(out, dirs, toyOptions())
	if err != nil || sum.Records != len(toyGrid) {
		t.Fatalf("merge of read-only shards: %+v, %v", sum, err)
	}
	// While a run writes a shard, a merge still refuses it.
	w := filepath.Join(root, "writable")
	writeShard(t, w, shardSpec{k: 1, n: 3})
	pid := holdLock(t, w, "exclusive")
	_, err = Merge(filepath.Join(root, "m2"), []string{w, dirs[1], dirs[2]}, toyOptions())
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("in use by process %d", pid)) {
		t.Errorf("a shard being written: %v", err)
	}
}

// The output directory reached through a link to a shard is refused as a
// shard, not by the lock this merge holds on it.
func TestMergeOutputLinkToShard(t *testing.T) {
	root := t.TempDir()
	dirs := threeShards(t, root)
	link := filepath.Join(root, "out")
	if err := os.Symlink(dirs[0], link); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(link, dirs, toyOptions()); err == nil || !strings.Contains(err.Error(), "shard "+dirs[0]+" is the output directory") {
		t.Errorf("output linked to a shard: %v", err)
	}
}
