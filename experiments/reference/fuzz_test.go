package reference

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzRead: any bytes as a digest file give a reference or an error, never
// a panic; a reference read writes back to a file that reads the same cells.
func FuzzRead(f *testing.F) {
	ref, _ := FromRun(testRecords(), testManifest())
	good, _ := ref.Bytes()
	f.Add(good)
	if z, err := ref.Gzipped(); err == nil {
		f.Add(z)
	}
	if b, err := os.ReadFile("../../papers/aaai2017/reference/aaai2017-smoke.digests"); err == nil {
		f.Add(b[:min(len(b), 4000)])
	}
	lines := strings.SplitAfter(string(good), "\n")
	// A truncated file, a duplicated cell, a digest of the wrong length,
	// a header with a blank field name, a cell line without its cell.
	f.Add([]byte(strings.Join(lines[:4], "")))
	f.Add([]byte(lines[0] + lines[1] + lines[2] + lines[2] + lines[4]))
	f.Add([]byte(lines[0] + lines[1] + "0" + lines[2] + lines[3] + lines[4]))
	f.Add([]byte(Magic + "\n" + `{"experiment":"e","cells":1,"fields":["a b"]}` + "\n0000000000000000 00000000 c\n"))
	f.Add([]byte(Magic + "\n" + `{"experiment":"e","cells":1,"fields":["a"]}` + "\n0000000000000000 00000000\n"))
	f.Add([]byte(Magic + "\n" + `{"experiment":"e","cells":-1,"fields":[]}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ref, err := Read(bytes.NewReader(data), "fuzz.digests")
		if err != nil {
			return
		}
		b, err := ref.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		again, err := Read(bytes.NewReader(b), "again.digests")
		if err != nil {
			t.Fatalf("a reference read does not read back after writing: %v\n%s", err, b)
		}
		if len(again.Cells) != len(ref.Cells) {
			t.Fatalf("%d cells read back, %d written", len(again.Cells), len(ref.Cells))
		}
		for i, c := range again.Cells {
			w := ref.Cells[i]
			if c.ID != w.ID || c.Hash != w.Hash || len(differingFields(w, c)) > 0 {
				t.Fatalf("cell %d reads back as %+v, was %+v", i, c, w)
			}
		}
	})
}
