package results

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// writeLines writes records (and raw lines) as a records file with a
// manifest beside it, as a run leaves them, and returns the file's path.
func writeLines(t *testing.T, dir string, lines ...any) string {
	t.Helper()
	var b []byte
	for _, l := range lines {
		switch l := l.(type) {
		case Record:
			m, err := l.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			b = append(b, m...)
		case string:
			b = append(b, l...)
		}
	}
	path := filepath.Join(dir, RecordsFile)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteManifest(dir, Manifest{Experiment: "exp"}); err != nil {
		t.Fatal(err)
	}
	return path
}

// A finished cell recorded twice with different values is refused by the
// store (a continued run) and by ReadRecords (the report), naming the cell
// and both lines, and the file is left as it is. A failed cell's retry
// supersedes it; an identical copy (timings aside) collapses into the
// first.
func TestStoreDuplicateCell(t *testing.T) {
	dir := t.TempDir()
	again := rec("a", StatusOK, 0.71)
	path := writeLines(t, dir, rec("a", StatusOK, 0.7), rec("b", StatusOK, 0.6), again)
	before, _ := os.ReadFile(path)
	want := fmt.Sprintf("cell a is recorded twice with different values, at %s:1 and %s:3 (metrics.auc.pu: 0.7 vs 0.71)", path, path)
	if _, err := OpenStore(dir); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("store: %v\nwant %q", err, want)
	}
	if _, err := ReadRecords(dir); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadRecords: %v\nwant %q", err, want)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the refused file was changed")
	}
	// An ok record after the failed one is its retry; a failed one after an
	// ok one is not.
	writeLines(t, dir, rec("a", StatusFailed, 0.7), rec("a", StatusOK, 0.8))
	if got, err := ReadRecords(dir); err != nil || len(got) != 1 || got[0].Metrics["auc"]["pu"] != 0.8 {
		t.Errorf("a failed cell and its retry: %v %v", got, err)
	}
	writeLines(t, dir, rec("a", StatusOK, 0.7), rec("a", StatusFailed, 0.7))
	if _, err := ReadRecords(dir); err == nil || !strings.Contains(err.Error(), "status: \"ok\" vs \"failed\"") {
		t.Errorf("a finished cell recorded again as failed: %v", err)
	}
	// The same record appended again (another timing): the first stays, and
	// Finalize writes it once.
	copyOf := rec("a", StatusOK, 0.7)
	copyOf.Timings = map[string]float64{"total": 9}
	writeLines(t, dir, rec("a", StatusOK, 0.7), rec("b", StatusOK, 0.6), copyOf)
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Records(); len(got) != 2 || got[0].Timings["total"] != 1.5 {
		t.Errorf("identical copies: %+v", got)
	}
	if err := s.Finalize([]string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); bytes.Count(b, []byte("\n")) != 2 {
		t.Errorf("after finalize:\n%s", b)
	}
}

// A records file pueval did not write is refused by name and left as it is:
// one without a manifest beside it, or whose first line is not a record
// (even as its only, or unterminated, line, which would otherwise be cut as
// a torn record). A torn first record is still cut.
func TestStoreForeignFile(t *testing.T) {
	for _, c := range []struct {
		name, content string
		manifest      bool
		want          string
	}{
		{"csv without manifest", "id,score\n1,0.5\n2,0.7", false, "was not written by pueval (DIR has no manifest.json"},
		{"one line without manifest", `{"id":1}`, false, "was not written by pueval"},
		{"one complete foreign line", "id,score\n", true, "DIR/records.jsonl is not a pueval records file: its first line is not a pueval record"},
		{"one unterminated foreign line", "id,score", true, "DIR/records.jsonl is not a pueval records file"},
		{"JSON of another program", `{"id":1,"score":0.5}` + "\n", true, "is not a pueval records file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, RecordsFile)
			os.WriteFile(path, []byte(c.content), 0o644)
			if c.manifest {
				WriteManifest(dir, Manifest{Experiment: "exp"})
			}
			_, err := OpenStore(dir)
			if err == nil || !strings.Contains(strings.ReplaceAll(err.Error(), dir, "DIR"), c.want) {
				t.Errorf("store: %v\nwant %q", err, c.want)
			}
			if b, _ := os.ReadFile(path); string(b) != c.content {
				t.Errorf("the file was changed to %q", b)
			}
		})
	}
	// A run killed in its first record leaves a torn first line: cut.
	dir := t.TempDir()
	path := writeLines(t, dir, `{"schema":2,"experiment":"exp","cell":"a","sta`)
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if b, _ := os.ReadFile(path); len(b) != 0 || len(s.Records()) != 0 {
		t.Errorf("torn first record: file %q", b)
	}
}

// Finalize leaves a file already in order as it is, so a rerun of a
// finished run needs no free space; a rewrite that fails (a full disk) says
// that nothing is lost, and leaves the file whole.
func TestFinalizeOnFullDisk(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	WriteManifest(dir, Manifest{Experiment: "exp"})
	for _, c := range []string{"a", "b"} {
		if err := s.Append(rec(c, StatusOK, 0.7)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, RecordsFile)
	before, _ := os.ReadFile(path)
	writes := 0
	s.writeFile = func(string, []byte) error { writes++; return syscall.ENOSPC }
	if err := s.Finalize([]string{"a", "b"}); err != nil || writes != 0 {
		t.Errorf("finalize of a file in order: %v, %d rewrites", err, writes)
	}
	err = s.Finalize([]string{"b", "a"})
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "nothing is lost: "+path+" still holds all 2 records") {
		t.Errorf("rewrite on a full disk: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the failed rewrite changed the file")
	}
	// With room, the rewrite happens and appends go on after it.
	s.writeFile = WriteFileAtomic
	if err := s.Finalize([]string{"b", "a"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(rec("c", StatusOK, 0.5)); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRecords(dir)
	if err != nil || len(got) != 3 || got[0].Cell != "b" || got[1].Cell != "a" || got[2].Cell != "c" {
		t.Errorf("records after the rewrite: %v %v", got, err)
	}
}
