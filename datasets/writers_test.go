package datasets

// Test-only writers for the binary formats the package reads, so that the
// readers can be tested (and fuzzed from seeds) without the mirror's files:
// a compress(1) encoder, a minimal .xls (OLE2 + BIFF8) writer, tar.gz and zip.

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"testing"
	"unicode/utf16"
)

// compressZ encodes data in compress(1) format with codes of at most
// maxBits bits, in block mode, emitting a clear code whenever the table is
// full. The code widths and group padding follow the decoder's view (which
// adds table entries one code behind the encoder), as ncompress does.
func compressZ(data []byte, maxBits int) []byte {
	out := []byte{lzwMagic0, lzwMagic1, byte(maxBits) | lzwBlockMode}
	maxMax := 1 << maxBits
	var (
		acc       uint64
		accBits   int
		pos       int // bits written
		groupBase int
		nBits     = lzwInitBits
		dfe       = 257 // the decoder's next free entry
		first     = true
	)
	maxCode := func() int {
		if nBits == maxBits {
			return maxMax
		}
		return 1<<nBits - 1
	}
	put := func(code, width int) {
		acc |= uint64(code) << accBits
		accBits += width
		pos += width
		for accBits >= 8 {
			out = append(out, byte(acc))
			acc >>= 8
			accBits -= 8
		}
	}
	pad := func() {
		g := nBits * 8
		target := groupBase + (pos-groupBase+g-1)/g*g
		for pos < target {
			put(0, min(8, target-pos))
		}
		groupBase = pos
	}
	emit := func(code int) {
		for dfe > maxCode() && nBits < maxBits {
			pad()
			nBits++
		}
		put(code, nBits)
		if code == lzwClear {
			pad()
			nBits = lzwInitBits
			dfe = 256
			return
		}
		if !first && dfe < maxMax {
			dfe++
		}
		first = false
	}
	if len(data) == 0 {
		return out
	}
	dict := map[int]int{}
	next := 257
	w := int(data[0])
	for _, c := range data[1:] {
		key := w<<8 | int(c)
		if code, ok := dict[key]; ok {
			w = code
			continue
		}
		emit(w)
		if next < maxMax {
			dict[key] = next
			next++
		} else {
			emit(lzwClear)
			clear(dict)
			next = 257
		}
		w = int(c)
	}
	emit(w)
	if accBits > 0 {
		out = append(out, byte(acc))
	}
	return out
}

// xlsCell is a cell for makeXLS; exactly one of the value fields is used.
type xlsCell struct {
	row, col int
	str      string  // LABELSST
	num      float64 // NUMBER
	rk       uint32  // RK (raw)
	kind     byte    // 's', 'n', 'r'
}

func biffRec(typ uint16, data []byte) []byte {
	b := binary.LittleEndian.AppendUint16(nil, typ)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(data)))
	return append(b, data...)
}

// makeXLS builds a workbook with one worksheet named sheet holding cells.
// Strings go to the shared string table; with splitSST the last string's
// characters are split across an SST and a CONTINUE record. Small workbooks
// land in the compound file's mini stream, large ones in regular sectors.
func makeXLS(t testing.TB, sheet string, cells []xlsCell, splitSST bool) []byte {
	le := binary.LittleEndian
	var strs []string
	index := map[string]int{}
	for _, c := range cells {
		if c.kind == 's' {
			if _, ok := index[c.str]; !ok {
				index[c.str] = len(strs)
				strs = append(strs, c.str)
			}
		}
	}
	bof := func(typ uint16) []byte {
		d := make([]byte, 16)
		le.PutUint16(d, 0x0600)
		le.PutUint16(d[2:], typ)
		return biffRec(biffBOF, d)
	}
	var sst []byte
	sst = le.AppendUint32(sst, uint32(len(strs)))
	sst = le.AppendUint32(sst, uint32(len(strs)))
	var cont []byte
	for i, s := range strs {
		sst = le.AppendUint16(sst, uint16(len(s)))
		sst = append(sst, 0) // 8-bit characters
		if splitSST && i == len(strs)-1 && len(s) > 1 {
			h := len(s) / 2
			sst = append(sst, s[:h]...)
			cont = append([]byte{1}, nil...) // the rest as 16-bit characters
			for _, u := range utf16.Encode([]rune(s[h:])) {
				cont = le.AppendUint16(cont, u)
			}
			continue
		}
		sst = append(sst, s...)
	}
	name := append([]byte{byte(len(sheet)), 0}, sheet...)
	bsData := func(off uint32) []byte {
		d := le.AppendUint32(nil, off)
		d = append(d, 0, 0) // visible worksheet
		return append(d, name...)
	}
	globals := bof(0x0005)
	globals = append(globals, biffRec(biffBoundSheet, bsData(0))...)
	globals = append(globals, biffRec(biffSST, sst)...)
	if cont != nil {
		globals = append(globals, biffRec(biffContinue, cont)...)
	}
	globals = append(globals, biffRec(biffEOF, nil)...)
	// Patch the sheet offset into BOUNDSHEET (it follows the 20-byte BOF).
	le.PutUint32(globals[20+4:], uint32(len(globals)))

	ws := bof(0x0010)
	for _, c := range cells {
		d := le.AppendUint16(nil, uint16(c.row))
		d = le.AppendUint16(d, uint16(c.col))
		d = le.AppendUint16(d, 0) // XF
		switch c.kind {
		case 's':
			ws = append(ws, biffRec(biffLabelSST, le.AppendUint32(d, uint32(index[c.str])))...)
		case 'n':
			ws = append(ws, biffRec(biffNumber, le.AppendUint64(d, math.Float64bits(c.num)))...)
		case 'r':
			ws = append(ws, biffRec(biffRK, le.AppendUint32(d, c.rk))...)
		default:
			t.Fatalf("makeXLS: cell kind %q", c.kind)
		}
	}
	ws = append(ws, biffRec(biffEOF, nil)...)
	return makeCFB(t, "Workbook", append(globals, ws...))
}

// makeCFB wraps one stream in a version-3 compound file (512-byte sectors):
// sector 0 the FAT, 1 the directory, 2 the mini FAT (for streams below the
// 4096-byte cutoff, which then live in the root entry's mini stream), then
// the data.
func makeCFB(t testing.TB, name string, stream []byte) []byte {
	le := binary.LittleEndian
	const ss = 512
	sectors := func(n int) int { return (n + ss - 1) / ss }
	mini := len(stream) < 4096
	var data []byte // what goes into regular sectors from sector 3 on
	var miniFAT []uint32
	if mini {
		nMini := (len(stream) + 63) / 64
		for i := 0; i < nMini; i++ {
			if i == nMini-1 {
				miniFAT = append(miniFAT, cfbEndOfChain)
			} else {
				miniFAT = append(miniFAT, uint32(i+1))
			}
		}
		data = append([]byte(nil), stream...)
		data = append(data, make([]byte, nMini*64-len(stream))...)
	} else {
		data = stream
	}
	nData := sectors(len(data))
	if 3+nData > ss/4 {
		t.Fatalf("makeCFB: stream too large for one FAT sector")
	}
	fat := make([]uint32, ss/4)
	for i := range fat {
		fat[i] = cfbFreeSect
	}
	fat[0] = 0xFFFFFFFD // FAT sector
	fat[1] = cfbEndOfChain
	fat[2] = cfbEndOfChain
	for i := 0; i < nData; i++ {
		if i == nData-1 {
			fat[3+i] = cfbEndOfChain
		} else {
			fat[3+i] = uint32(4 + i)
		}
	}
	hdr := make([]byte, ss)
	le.PutUint64(hdr, cfbSignature)
	le.PutUint16(hdr[0x18:], 0x3E)
	le.PutUint16(hdr[0x1A:], 3)
	le.PutUint16(hdr[0x1C:], 0xFFFE)
	le.PutUint16(hdr[0x1E:], 9)
	le.PutUint16(hdr[0x20:], 6)
	le.PutUint32(hdr[0x2C:], 1)
	le.PutUint32(hdr[0x30:], 1)
	le.PutUint32(hdr[0x38:], 4096)
	if mini {
		le.PutUint32(hdr[0x3C:], 2)
		le.PutUint32(hdr[0x40:], 1)
	} else {
		le.PutUint32(hdr[0x3C:], cfbEndOfChain)
	}
	le.PutUint32(hdr[0x44:], cfbEndOfChain)
	le.PutUint32(hdr[0x4C:], 0)
	for i := 1; i < 109; i++ {
		le.PutUint32(hdr[0x4C+4*i:], cfbFreeSect)
	}
	entry := func(name string, typ byte, start, size uint32) []byte {
		e := make([]byte, 128)
		u := utf16.Encode([]rune(name))
		for i, c := range u {
			le.PutUint16(e[2*i:], c)
		}
		le.PutUint16(e[64:], uint16(2*len(u)+2))
		e[66] = typ
		le.PutUint32(e[68:], cfbFreeSect) // left sibling
		le.PutUint32(e[72:], cfbFreeSect) // right sibling
		le.PutUint32(e[76:], cfbFreeSect) // child
		le.PutUint32(e[116:], start)
		le.PutUint32(e[120:], size)
		return e
	}
	dir := make([]byte, 0, ss)
	if mini {
		root := entry("Root Entry", 5, 3, uint32(len(data)))
		le.PutUint32(root[76:], 1)
		dir = append(dir, root...)
		dir = append(dir, entry(name, 2, 0, uint32(len(stream)))...)
	} else {
		root := entry("Root Entry", 5, cfbEndOfChain, 0)
		le.PutUint32(root[76:], 1)
		dir = append(dir, root...)
		dir = append(dir, entry(name, 2, 3, uint32(len(stream)))...)
	}
	dir = append(dir, make([]byte, ss-len(dir))...)
	mf := make([]byte, ss)
	for i := range ss / 4 {
		v := uint32(cfbFreeSect)
		if i < len(miniFAT) {
			v = miniFAT[i]
		}
		le.PutUint32(mf[4*i:], v)
	}
	var out bytes.Buffer
	out.Write(hdr)
	for _, v := range fat {
		out.Write(le.AppendUint32(nil, v))
	}
	out.Write(dir)
	out.Write(mf)
	out.Write(data)
	out.Write(make([]byte, nData*ss-len(data)))
	return out.Bytes()
}

// makeTarGz builds a .tar.gz of the given files (name -> content), in order.
func makeTarGz(t testing.TB, names []string, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(files[n])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// makeZip builds a zip of the given members, in order.
func makeZip(t testing.TB, names []string, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(files[n])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
