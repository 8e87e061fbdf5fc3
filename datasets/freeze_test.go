package datasets

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

var freeze = flag.Bool("freeze", false, "recompute the fingerprints of ../configs/datasets.yaml from the mirror and write them into the file")

// TestFreezeFingerprints rewrites the catalog's fingerprints with the ones
// computed on the mirror (go test ./datasets -run TestFreezeFingerprints
// -freeze, with PUEVAL_UCI_MIRROR set). Review the diff before committing:
// a changed fingerprint means the encoded data changed.
func TestFreezeFingerprints(t *testing.T) {
	if !*freeze {
		t.Skip("run with -freeze to rewrite the catalog's fingerprints")
	}
	mirror := os.Getenv(EnvMirror)
	if mirror == "" {
		t.Fatalf("-freeze needs %s", EnvMirror)
	}
	const catalogPath = "../configs/datasets.yaml"
	cat, err := ReadCatalogFile(catalogPath)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(cat, Options{CacheDir: t.TempDir(), Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	whole := map[string]string{}   // data set -> fingerprint of the complete data
	partial := map[string]string{} // data set -> fingerprint of the partial data
	files := map[string]string{}   // data set + "\x00" + path -> file fingerprint
	for _, sp := range cat.Datasets {
		if sp.Unavailable != "" {
			continue
		}
		ds, err := st.build(context.Background(), sp, true)
		if err != nil {
			t.Fatalf("%s: %v", sp.Name, err)
		}
		if ds.Complete {
			whole[sp.Name] = ds.Fingerprint
		} else {
			partial[sp.Name] = ds.Fingerprint
		}
		for _, f := range ds.Files {
			if !f.Missing {
				files[sp.Name+"\x00"+f.Path] = f.Fingerprint
			}
		}
	}
	b, err := os.ReadFile(catalogPath)
	if err != nil {
		t.Fatal(err)
	}
	var (
		nameRE    = regexp.MustCompile(`^  - name: (\S+)$`)
		inlineRE  = regexp.MustCompile(`^(\s*- \{path: )(.+?)(, fingerprint: )"[0-9a-f]*"(\})$`)
		blockRE   = regexp.MustCompile(`^\s*- path: (.+)$`)
		fpLineRE  = regexp.MustCompile(`^(\s+)fingerprint: "[0-9a-f]*"$`)
		topKeyRE  = regexp.MustCompile(`^    [a-z_]+:`)
		ds, block string
		inPartial bool
		changed   int
	)
	lines := strings.Split(string(b), "\n")
	set := func(i int, prefix, fp string) {
		if fp == "" {
			return
		}
		nl := prefix + `fingerprint: "` + fp + `"`
		if lines[i] != nl {
			changed++
		}
		lines[i] = nl
	}
	for i, l := range lines {
		if m := nameRE.FindStringSubmatch(l); m != nil {
			ds, block, inPartial = m[1], "", false
			continue
		}
		if topKeyRE.MatchString(l) {
			inPartial = strings.HasPrefix(l, "    partial:")
		}
		if m := inlineRE.FindStringSubmatch(l); m != nil {
			if fp := files[ds+"\x00"+m[2]]; fp != "" {
				nl := m[1] + m[2] + m[3] + `"` + fp + `"` + m[4]
				if nl != l {
					changed++
				}
				lines[i] = nl
			}
			continue
		}
		if m := blockRE.FindStringSubmatch(l); m != nil {
			block = m[1]
			continue
		}
		m := fpLineRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		switch {
		case len(m[1]) == 4:
			set(i, m[1], whole[ds])
		case inPartial:
			set(i, m[1], partial[ds])
		case block != "":
			set(i, m[1], files[ds+"\x00"+block])
			block = ""
		}
	}
	if err := os.WriteFile(catalogPath, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("freeze: %d fingerprint lines changed in %s\n", changed, catalogPath)
}
