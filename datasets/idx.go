package datasets

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// IDX files (LeCun's MNIST distribution): all integers big-endian.
//
//	images: magic 0x00000803 (2051: unsigned bytes, 3 dimensions), n, rows,
//	        cols (uint32 each), then n*rows*cols pixel bytes, image after
//	        image, each row-major (top row first)
//	labels: magic 0x00000801 (2049: unsigned bytes, 1 dimension), n, then
//	        n label bytes; image i goes with label i
//
// The idx format kind reads an images file with its labels file (the
// catalog's files[].labels), keeps the first per_class images of each label
// in file order, optionally resamples them to resample x resample pixels by
// area averaging, and scales the pixels to [0, 1] (divides by 255).

const (
	idxImagesMagic = 2051
	idxLabelsMagic = 2049
	// idxSide is the image side the idx format accepts: MNIST's 28x28. The
	// PULP preprocessing (1000 per digit, 16x16) is stated for MNIST, so a
	// file of another size is a wrong file rather than another data set.
	idxSide = 28
)

// idxImages is a parsed IDX images file.
type idxImages struct {
	n, rows, cols int
	pix           []byte // n*rows*cols, image after image
}

// parseIDXImages checks the header of an IDX images file (magic, and a
// length that is exactly the header plus n*rows*cols bytes) and returns its
// images. The pixels alias data.
func parseIDXImages(data []byte) (*idxImages, error) {
	if len(data) < 16 {
		return nil, fmt.Errorf("IDX images: %d bytes, shorter than the 16-byte header", len(data))
	}
	if err := idxMagic(data, idxImagesMagic, "images"); err != nil {
		return nil, err
	}
	n := uint64(binary.BigEndian.Uint32(data[4:]))
	rows := uint64(binary.BigEndian.Uint32(data[8:]))
	cols := uint64(binary.BigEndian.Uint32(data[12:]))
	if n == 0 || rows == 0 || cols == 0 {
		return nil, fmt.Errorf("IDX images: header says %d images of %dx%d pixels", n, rows, cols)
	}
	// Each factor is < 2^32, so rows*cols < 2^64; n*(rows*cols) may not be:
	// compare by division so that a lying header cannot overflow the check.
	per := rows * cols
	body := uint64(len(data) - 16)
	if body%per != 0 || body/per != n {
		hi, lo := bits.Mul64(n, per)
		want := "more than 2^64"
		if hi == 0 && lo <= math.MaxUint64-16 {
			want = strconv.FormatUint(16+lo, 10)
		}
		return nil, fmt.Errorf("IDX images: %d bytes, want 16 + %d x %d x %d = %s (truncated, or not this file)",
			len(data), n, rows, cols, want)
	}
	return &idxImages{n: int(n), rows: int(rows), cols: int(cols), pix: data[16:]}, nil
}

// parseIDXLabels checks the header of an IDX labels file and returns its
// labels (aliasing data).
func parseIDXLabels(data []byte) ([]byte, error) {
	if len(data) < 8 {
		return nil, fmt.Errorf("IDX labels: %d bytes, shorter than the 8-byte header", len(data))
	}
	if err := idxMagic(data, idxLabelsMagic, "labels"); err != nil {
		return nil, err
	}
	n := uint64(binary.BigEndian.Uint32(data[4:]))
	if n == 0 {
		return nil, fmt.Errorf("IDX labels: header says 0 labels")
	}
	if uint64(len(data)-8) != n {
		return nil, fmt.Errorf("IDX labels: %d bytes, want 8 + %d = %d (truncated, or not this file)", len(data), n, 8+n)
	}
	return data[8:], nil
}

// idxMagic checks the 4-byte magic; a file of the other kind (labels given
// for images, or the reverse) says so, since that is the likely mistake.
func idxMagic(data []byte, want uint32, what string) error {
	got := binary.BigEndian.Uint32(data)
	if got == want {
		return nil
	}
	other := ""
	switch got {
	case idxImagesMagic:
		other = " (that of an IDX images file)"
	case idxLabelsMagic:
		other = " (that of an IDX labels file)"
	}
	return fmt.Errorf("IDX %s: magic 0x%08x%s, want 0x%08x (%d)", what, got, other, want, want)
}

// selectPerClass returns the indices of the first k rows of each label, in
// file order (all rows when k is 0). A label with fewer than k rows is an
// error: the result would not be the balanced sample the rule promises.
func selectPerClass(labels []byte, k int) ([]int, error) {
	if k == 0 {
		out := make([]int, len(labels))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var count [256]int
	var out []int
	for i, l := range labels {
		if count[l] < k {
			count[l]++
			out = append(out, i)
		}
	}
	for l, c := range count {
		if c > 0 && c < k {
			return nil, fmt.Errorf("label %d has %d images, fewer than per_class %d", l, c, k)
		}
	}
	return out, nil
}

// areaWeights returns, for each of out cells along an axis of in pixels,
// the overlap of cell o, [o*in/out, (o+1)*in/out), with each input pixel
// [i, i+1): w[o*in+i]. Every input pixel's weights sum to 1 and every
// cell's to in/out. For 28 -> 16 the bounds are multiples of 1/4, so the
// weights are exact in float64.
func areaWeights(in, out int) []float64 {
	w := make([]float64, out*in)
	for o := range out {
		lo := float64(o*in) / float64(out)
		hi := float64((o+1)*in) / float64(out)
		for i := range in {
			a, b := max(lo, float64(i)), min(hi, float64(i+1))
			if b > a {
				w[o*in+i] = b - a
			}
		}
	}
	return w
}

// resampleArea shrinks a square in x in image to out x out by area
// averaging: output pixel (r, c) covers the input area [r*s, (r+1)*s) x
// [c*s, (c+1)*s), s = in/out, and is the mean of the input over that area,
// each input pixel weighted by the area of its overlap:
//
//	dst[r*out+c] = sum_ij wr(i) wc(j) src[i*in+j] / (s^2 * div)
//
// (div scales the result: 255 maps bytes to [0, 1]). With byte inputs and
// 28 -> 16, the weighted sum is exact (multiples of 1/16 below 2^53), so
// each output is the exact mean rounded once. The mass is kept: the sum of
// the outputs times s^2 is the sum of the inputs / div.
func resampleArea(dst []float64, src []byte, in, out int, div float64) {
	w := areaWeights(in, out)
	den := float64(in*in) / float64(out*out) * div
	for r := range out {
		wr := w[r*in : (r+1)*in]
		for c := range out {
			wc := w[c*in : (c+1)*in]
			sum := 0.0
			for i, a := range wr {
				if a == 0 {
					continue
				}
				row := src[i*in : (i+1)*in]
				for j, b := range wc {
					if b != 0 && row[j] != 0 {
						// Rounded before adding: no fused multiply-add on arm64.
						sum += float64(a * b * float64(row[j]))
					}
				}
			}
			dst[r*out+c] = sum / den
		}
	}
}

// idxColumns names the encoded pixels px_r_c (0-based row and column of
// the output image).
func idxColumns(side int) []Column {
	cols := make([]Column, 0, side*side)
	for r := range side {
		for c := range side {
			name := "px_" + strconv.Itoa(r) + "_" + strconv.Itoa(c)
			cols = append(cols, Column{Name: name, Kind: Numeric, Source: name})
		}
	}
	return cols
}

// idxSideOut is the side of the encoded images.
func idxSideOut(f Format) int {
	if f.Resample > 0 {
		return f.Resample
	}
	return idxSide
}

// readIDX reads an images part with its labels part: rows [label, ""] (the
// second column stands for the pixels, which are in values) for the images
// kept, in file order; lines are the 1-based image numbers.
func readIDX(f Format, images, labels part) (records, error) {
	var rec records
	im, err := parseIDXImages(images.data)
	if err != nil {
		return rec, fmt.Errorf("%s: %w", images.name, err)
	}
	lb, err := parseIDXLabels(labels.data)
	if err != nil {
		return rec, fmt.Errorf("%s: %w", labels.name, err)
	}
	if im.rows != idxSide || im.cols != idxSide {
		return rec, fmt.Errorf("%s: images are %dx%d pixels, want %dx%d (MNIST)", images.name, im.rows, im.cols, idxSide, idxSide)
	}
	if len(lb) != im.n {
		return rec, fmt.Errorf("%s has %d images but %s has %d labels", images.name, im.n, labels.name, len(lb))
	}
	keep, err := selectPerClass(lb, f.PerClass)
	if err != nil {
		return rec, fmt.Errorf("%s: %w", labels.name, err)
	}
	side := idxSideOut(f)
	d := side * side
	px := idxSide * idxSide
	vals := make([]float64, len(keep)*d) // one allocation for all rows
	rec.rows = make([][]string, len(keep))
	rec.lines = make([]int, len(keep))
	rec.values = make([][]float64, len(keep))
	names := make([]string, 256)
	for l := range names {
		names[l] = strconv.Itoa(l)
	}
	for k, i := range keep {
		src := im.pix[i*px : (i+1)*px]
		dst := vals[k*d : (k+1)*d]
		if side == idxSide {
			for j, v := range src {
				dst[j] = float64(v) / 255
			}
		} else {
			resampleArea(dst, src, idxSide, side, 255)
		}
		rec.rows[k] = []string{names[lb[i]], ""}
		rec.lines[k] = i + 1
		rec.values[k] = dst
	}
	return rec, nil
}
