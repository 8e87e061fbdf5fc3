package datasets

import (
	"bytes"
	"os"
	"testing"
)

// Fuzz targets, one per parser. `go test` runs their seed corpora as unit
// tests; `make fuzz` (or go test -fuzz FuzzX ./datasets) explores further.
// Each checks that bad input gives an error rather than a panic, a hang or
// an absurd allocation, plus a property where there is a cheap one.

func FuzzParseDelimited(f *testing.F) {
	for _, s := range []string{toyCSV, "1,2\n3,\"4\n", " 47,100, 27\r\n", "a;\"b;c\";\"\"\"\"\n", "\xef\xbb\xbfx\ty\n", "\xef\xbb\xbf\"id\",x,ID\r\n1,2,3\r\n", ""} {
		f.Add([]byte(s), byte(','))
		f.Add([]byte(s), byte(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, delim byte) {
		rec, err := parseDelimited(data, delim)
		if err != nil {
			return
		}
		if len(rec.rows) != len(rec.lines) {
			t.Fatalf("%d rows but %d line numbers", len(rec.rows), len(rec.lines))
		}
		for i := 1; i < len(rec.lines); i++ {
			if rec.lines[i] <= rec.lines[i-1] {
				t.Fatalf("line numbers not increasing: %v", rec.lines)
			}
		}
	})
}

func FuzzParseGas(f *testing.F) {
	f.Add([]byte("1;10.000000 1:15596.162100 2:1.868245 3:2.371604\n5;50.0 3:1\n"), 3)
	f.Add([]byte("1 1:2\n"), 3)
	f.Add([]byte("1;2 0:1\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, width int) {
		if width < 0 || width > 1000 {
			return
		}
		rec, err := parseGas(data, width)
		if err != nil {
			return
		}
		for _, r := range rec.rows {
			if len(r) != width+2 {
				t.Fatalf("row of %d fields, want %d", len(r), width+2)
			}
		}
	})
}

func FuzzDecompressZ(f *testing.F) {
	f.Add(compressZ(lzwSample(3000), 16))
	f.Add(compressZ(lzwSample(3000), 10))
	f.Add(compressZ([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"), 12)) // the KwKwK case
	f.Add([]byte{0x1f, 0x9d, 0x90})
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := decompressZ(data)
		if err != nil {
			return
		}
		// Round trip what was decoded.
		back, err := decompressZ(compressZ(out, 16))
		if err != nil || !bytes.Equal(back, out) {
			t.Fatalf("re-encoding %d decoded bytes does not round-trip: %v", len(out), err)
		}
	})
}

func FuzzReadXLS(f *testing.F) {
	f.Add(makeXLS(f, "Sheet1", toyCells, false))
	f.Add(makeXLS(f, "Sheet1", toyCells, true))
	f.Add(makeXLS(f, "S", append(toyCells[:3:3], manyCells(3, 300)...), false))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := readXLS(data, "")
		if err != nil {
			return
		}
		w := -1
		for _, r := range rows {
			if r == nil {
				continue // a row without cells
			}
			if w >= 0 && len(r) != w {
				t.Fatal("ragged sheet")
			}
			w = len(r)
		}
	})
}

func FuzzParseDocuments(f *testing.F) {
	f.Add(makeTarGz(f, []string{"a/comp.x/1", "a/sci/2"}, map[string]string{"a/comp.x/1": "pixels pixels", "a/sci/2": "doctor"}))
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := parseDocuments(data)
		if err != nil {
			return
		}
		for _, r := range rec.rows {
			if len(r) != 3 || r[1] == "" {
				t.Fatalf("row %q", r)
			}
		}
	})
}

func FuzzParseCatalog(f *testing.F) {
	f.Add([]byte(fixtureCatalog))
	f.Add([]byte("version: 1\ndatasets:\n  - name: x\n    files: [{path: a.zip!*}]\n"))
	f.Add([]byte("version: [\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cat, err := ParseCatalog(data, "fuzz.yaml")
		if err != nil {
			return
		}
		for _, sp := range cat.Datasets {
			if sp.specHash() == "" {
				t.Fatal("empty spec hash")
			}
		}
	})
}

// FuzzDecodeEncoded: the encoded cache is a file format too; a damaged file
// must be rejected (and then rebuilt), never trusted or crash.
func FuzzDecodeEncoded(f *testing.F) {
	mirror, cat := fixture(f)
	st := openFixture(f, mirror, cat)
	for _, name := range []string{"toy", "toyseq", "toydocs"} {
		if _, err := st.Load(bg, name); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(st.encodedPath(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec, err := decodeEncoded(data)
		if err != nil {
			return
		}
		h := dec.h
		if len(dec.x) != h.N*h.D || len(dec.y) != h.N || (dec.class != nil && len(dec.class) != h.N) {
			t.Fatalf("n=%d d=%d but %d values, %d labels and %d classes", h.N, h.D, len(dec.x), len(dec.y), len(dec.class))
		}
		for i, c := range dec.class {
			if c < 0 || int(c) >= len(h.Classes) {
				t.Fatalf("row %d: class %d of %d", i, c, len(h.Classes))
			}
		}
	})
}

// FuzzReadIDX: IDX images and labels of any bytes give rows or an error,
// never a panic or rows of the wrong width.
func FuzzReadIDX(f *testing.F) {
	f.Add(idxImagesFile(3, 28, 28, toyIDXPixel), idxLabelsFile(1, 2, 1), 1, 16)
	f.Add(idxImagesFile(2, 28, 28, toyIDXPixel), idxLabelsFile(1, 2), 0, 0)
	f.Add(idxImagesFile(1, 2, 2, toyIDXPixel), idxLabelsFile(1), 0, 7)
	f.Fuzz(func(t *testing.T, images, labels []byte, perClass, resample int) {
		if perClass < 0 || perClass > 100 || resample < 0 || resample > idxSide {
			return // the catalog refuses these
		}
		fm := Format{Kind: "idx", PerClass: perClass, Resample: resample}
		rec, err := readIDX(fm, part{"images", images}, part{"labels", labels})
		if err != nil {
			return
		}
		side := idxSideOut(fm)
		if len(rec.rows) != len(rec.values) || len(rec.rows) != len(rec.lines) {
			t.Fatalf("%d rows, %d values, %d lines", len(rec.rows), len(rec.values), len(rec.lines))
		}
		for i, v := range rec.values {
			if len(v) != side*side {
				t.Fatalf("row %d: %d values, want %d", i, len(v), side*side)
			}
			for _, p := range v {
				if !(p >= 0 && p <= 1) {
					t.Fatalf("row %d: pixel %v outside [0, 1]", i, p)
				}
			}
		}
	})
}
