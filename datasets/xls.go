package datasets

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
)

// Excel 97-2003 (.xls, BIFF8) reading, just enough for UCI's spreadsheets
// (Concrete_Data.xls): the cell values of one worksheet.
//
// An .xls file is an OLE2 compound file ([MS-CFB]) whose "Workbook" stream
// holds BIFF8 records ([MS-XLS]). We read the compound file's sector
// allocation table, follow the Workbook stream's sector chain, find the
// sheet's offset in its BOUNDSHEET record, and collect its cells from the
// NUMBER, RK, MULRK, LABELSST (strings from the shared string table, SST),
// LABEL, FORMULA (cached result) and BOOLERR records. Formatting, dates and
// everything else are ignored: numbers come back as the float64 Excel stores,
// written with strconv's shortest round-trip form, so parsing them again
// gives the stored double exactly. Written from the two specifications
// instead of using a third-party reader so that malformed input gives an
// error (this code is fuzzed) and the module stays small.

const (
	cfbSignature  = 0xE11AB1A1E011CFD0
	cfbFreeSect   = 0xFFFFFFFF
	cfbEndOfChain = 0xFFFFFFFE
	// maxXLSSize bounds what we accept; UCI's spreadsheets are < 1 MB.
	maxXLSSize = 256 << 20
	// maxXLSCells bounds the sheet grid (rows x columns) we allocate.
	maxXLSCells = 2_000_000
)

type cfbFile struct {
	data       []byte
	sectorSize int
	fat        []uint32
	miniFAT    []uint32
	miniStream []byte
	miniSize   int
	cutoff     uint32
}

func (c *cfbFile) sector(i uint32) ([]byte, error) {
	off := (int64(i) + 1) * int64(c.sectorSize)
	if i >= cfbEndOfChain-16 || off+int64(c.sectorSize) > int64(len(c.data)) {
		return nil, fmt.Errorf("compound file: sector %d lies outside the file (%d bytes)", i, len(c.data))
	}
	return c.data[off : off+int64(c.sectorSize)], nil
}

// chain concatenates the sectors of a chain that starts at first, using
// table (the FAT or the mini FAT) and sectors of size size read by get.
func chain(first uint32, table []uint32, get func(uint32) ([]byte, error), what string) ([]byte, error) {
	var out []byte
	seen := 0
	for s := first; s != cfbEndOfChain; {
		if int(s) >= len(table) {
			return nil, fmt.Errorf("compound file: %s chain points at sector %d, beyond the allocation table (%d entries)", what, s, len(table))
		}
		if seen++; seen > len(table) {
			return nil, fmt.Errorf("compound file: %s chain has a cycle", what)
		}
		b, err := get(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, b...)
		s = table[s]
	}
	return out, nil
}

func openCFB(data []byte) (*cfbFile, error) {
	if len(data) < 512 {
		return nil, errors.New("not an .xls file: shorter than a compound-file header")
	}
	if len(data) > maxXLSSize {
		return nil, fmt.Errorf(".xls file of %d bytes exceeds the %d-byte limit", len(data), maxXLSSize)
	}
	le := binary.LittleEndian
	if le.Uint64(data) != cfbSignature {
		return nil, errors.New("not an .xls file: missing the OLE2 compound-file signature")
	}
	shift := le.Uint16(data[0x1E:])
	if shift != 9 && shift != 12 {
		return nil, fmt.Errorf("compound file: sector shift %d, want 9 or 12", shift)
	}
	c := &cfbFile{data: data, sectorSize: 1 << shift, cutoff: le.Uint32(data[0x38:])}
	miniShift := le.Uint16(data[0x20:])
	if miniShift != 6 {
		return nil, fmt.Errorf("compound file: mini sector shift %d, want 6", miniShift)
	}
	c.miniSize = 64
	nFAT := le.Uint32(data[0x2C:])
	dirStart := le.Uint32(data[0x30:])
	miniFATStart := le.Uint32(data[0x3C:])
	difatStart := le.Uint32(data[0x44:])
	nDIFAT := le.Uint32(data[0x48:])
	nSectors := uint32(len(data)/c.sectorSize) + 1
	if nFAT > nSectors || nDIFAT > nSectors {
		return nil, fmt.Errorf("compound file: header claims %d FAT and %d DIFAT sectors in a file of %d sectors", nFAT, nDIFAT, nSectors)
	}

	// The DIFAT lists the FAT's sectors: 109 entries in the header, the rest
	// in a chain of DIFAT sectors whose last entry points at the next one.
	var fatSectors []uint32
	for i := 0; i < 109; i++ {
		fatSectors = append(fatSectors, le.Uint32(data[0x4C+4*i:]))
	}
	s := difatStart
	for i := uint32(0); i < nDIFAT && s != cfbEndOfChain && s != cfbFreeSect; i++ {
		b, err := c.sector(s)
		if err != nil {
			return nil, fmt.Errorf("DIFAT: %w", err)
		}
		n := c.sectorSize/4 - 1
		for j := 0; j < n; j++ {
			fatSectors = append(fatSectors, le.Uint32(b[4*j:]))
		}
		s = le.Uint32(b[4*n:])
	}
	if int(nFAT) > len(fatSectors) {
		return nil, fmt.Errorf("compound file: header claims %d FAT sectors but the DIFAT lists %d", nFAT, len(fatSectors))
	}
	for _, fs := range fatSectors[:nFAT] {
		b, err := c.sector(fs)
		if err != nil {
			return nil, fmt.Errorf("FAT: %w", err)
		}
		for j := 0; j < c.sectorSize; j += 4 {
			c.fat = append(c.fat, le.Uint32(b[j:]))
		}
	}

	dir, err := chain(dirStart, c.fat, c.sector, "directory")
	if err != nil {
		return nil, err
	}
	if len(dir) < 128 {
		return nil, errors.New("compound file: empty directory")
	}
	// Entry 0 is the root storage; its stream is the mini stream that holds
	// streams shorter than the cutoff (4096 bytes).
	if miniFATStart != cfbEndOfChain && miniFATStart != cfbFreeSect {
		mf, err := chain(miniFATStart, c.fat, c.sector, "mini FAT")
		if err != nil {
			return nil, err
		}
		for j := 0; j+4 <= len(mf); j += 4 {
			c.miniFAT = append(c.miniFAT, le.Uint32(mf[j:]))
		}
		rootStart := le.Uint32(dir[116:])
		ms, err := chain(rootStart, c.fat, c.sector, "mini stream")
		if err != nil {
			return nil, err
		}
		c.miniStream = ms
	}
	return c, nil
}

// stream returns the named stream (e.g. "Workbook") of the compound file.
func (c *cfbFile) stream(names ...string) ([]byte, error) {
	dir, err := chain(binary.LittleEndian.Uint32(c.data[0x30:]), c.fat, c.sector, "directory")
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	for off := 0; off+128 <= len(dir); off += 128 {
		e := dir[off : off+128]
		nameLen := int(le.Uint16(e[64:]))
		if e[66] != 2 || nameLen < 2 || nameLen > 64 {
			continue // not a stream
		}
		u := make([]uint16, nameLen/2-1) // without the terminating NUL
		for i := range u {
			u[i] = le.Uint16(e[2*i:])
		}
		name := string(utf16.Decode(u))
		for _, want := range names {
			if name != want {
				continue
			}
			start, size := le.Uint32(e[116:]), le.Uint32(e[120:])
			var b []byte
			if size < c.cutoff {
				b, err = chain(start, c.miniFAT, c.miniSector, name+" stream")
			} else {
				b, err = chain(start, c.fat, c.sector, name+" stream")
			}
			if err != nil {
				return nil, err
			}
			if int64(size) > int64(len(b)) {
				return nil, fmt.Errorf("compound file: stream %s claims %d bytes but its chain holds %d", name, size, len(b))
			}
			return b[:size], nil
		}
	}
	return nil, fmt.Errorf("compound file has no %q stream (not an Excel 97-2003 workbook?)", names[0])
}

func (c *cfbFile) miniSector(i uint32) ([]byte, error) {
	off := int(i) * c.miniSize
	if off < 0 || off+c.miniSize > len(c.miniStream) {
		return nil, fmt.Errorf("compound file: mini sector %d lies outside the mini stream", i)
	}
	return c.miniStream[off : off+c.miniSize], nil
}

// BIFF8 record types used here.
const (
	biffBOF        = 0x0809
	biffEOF        = 0x000A
	biffBoundSheet = 0x0085
	biffSST        = 0x00FC
	biffContinue   = 0x003C
	biffLabelSST   = 0x00FD
	biffLabel      = 0x0204
	biffNumber     = 0x0203
	biffRK         = 0x027E
	biffMulRK      = 0x00BD
	biffFormula    = 0x0006
	biffString     = 0x0207
	biffBoolErr    = 0x0205
)

type biffRecord struct {
	typ  uint16
	data []byte
	off  int // offset in the stream, for error messages
}

func biffRecords(ws []byte, start int) ([]biffRecord, error) {
	var recs []biffRecord
	for off := start; off+4 <= len(ws); {
		typ := binary.LittleEndian.Uint16(ws[off:])
		n := int(binary.LittleEndian.Uint16(ws[off+2:]))
		if off+4+n > len(ws) {
			return nil, fmt.Errorf("BIFF record %#04x at offset %d overruns the stream", typ, off)
		}
		recs = append(recs, biffRecord{typ, ws[off+4 : off+4+n], off})
		off += 4 + n
		if typ == biffEOF {
			break
		}
	}
	return recs, nil
}

// sstReader reads strings from an SST record and its CONTINUE records. A
// string's characters may continue in the next record, which then starts
// with a fresh option byte saying whether they are stored as 8- or 16-bit.
type sstReader struct {
	segs [][]byte
	seg  int
	pos  int
}

func (r *sstReader) need(n int) error {
	for r.pos+n > len(r.segs[r.seg]) {
		if r.pos < len(r.segs[r.seg]) || r.seg+1 >= len(r.segs) {
			return errors.New("SST: string data runs past its records")
		}
		r.seg++
		r.pos = 0
	}
	return nil
}

func (r *sstReader) bytes(n int) ([]byte, error) {
	if err := r.need(n); err != nil {
		return nil, err
	}
	b := r.segs[r.seg][r.pos : r.pos+n]
	r.pos += n
	return b, nil
}

// skip skips n bytes that may span records (rich-text runs, phonetic data).
func (r *sstReader) skip(n int) error {
	for n > 0 {
		if r.pos == len(r.segs[r.seg]) {
			if r.seg+1 >= len(r.segs) {
				return errors.New("SST: string data runs past its records")
			}
			r.seg++
			r.pos = 0
		}
		k := min(n, len(r.segs[r.seg])-r.pos)
		r.pos += k
		n -= k
	}
	return nil
}

func (r *sstReader) str() (string, error) {
	h, err := r.bytes(3)
	if err != nil {
		return "", err
	}
	nChars := int(binary.LittleEndian.Uint16(h))
	flags := h[2]
	var nRuns, extLen int
	if flags&0x08 != 0 {
		b, err := r.bytes(2)
		if err != nil {
			return "", err
		}
		nRuns = int(binary.LittleEndian.Uint16(b))
	}
	if flags&0x04 != 0 {
		b, err := r.bytes(4)
		if err != nil {
			return "", err
		}
		extLen = int(binary.LittleEndian.Uint32(b))
	}
	wide := flags&0x01 != 0
	// Do not trust nChars for the allocation: at most what the records hold.
	u := make([]uint16, 0, min(nChars, len(r.segs[r.seg])-r.pos+1))
	for len(u) < nChars {
		if r.pos == len(r.segs[r.seg]) {
			// Characters continue in the next record, after an option byte.
			if r.seg+1 >= len(r.segs) {
				return "", errors.New("SST: string characters run past its records")
			}
			r.seg++
			r.pos = 0
			opt, err := r.bytes(1)
			if err != nil {
				return "", err
			}
			wide = opt[0]&0x01 != 0
		}
		seg := r.segs[r.seg]
		if wide {
			if r.pos+2 > len(seg) {
				return "", errors.New("SST: a 16-bit character is split across records")
			}
			u = append(u, binary.LittleEndian.Uint16(seg[r.pos:]))
			r.pos += 2
		} else {
			u = append(u, uint16(seg[r.pos]))
			r.pos++
		}
	}
	if err := r.skip(4*nRuns + extLen); err != nil {
		return "", err
	}
	return string(utf16.Decode(u)), nil
}

// shortString decodes an XLUnicodeString (16-bit length) or, with
// lenBytes = 1, a ShortXLUnicodeString.
func shortString(b []byte, lenBytes int) (string, error) {
	if len(b) < lenBytes+1 {
		return "", errors.New("string record too short")
	}
	n := int(b[0])
	if lenBytes == 2 {
		n = int(binary.LittleEndian.Uint16(b))
	}
	wide := b[lenBytes]&0x01 != 0
	b = b[lenBytes+1:]
	if wide {
		if len(b) < 2*n {
			return "", errors.New("string record too short for its length")
		}
		u := make([]uint16, n)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
		return string(utf16.Decode(u)), nil
	}
	if len(b) < n {
		return "", errors.New("string record too short for its length")
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = uint16(b[i])
	}
	return string(utf16.Decode(u)), nil
}

func rkValue(rk uint32) float64 {
	var v float64
	if rk&0x02 != 0 {
		v = float64(int32(rk) >> 2)
	} else {
		v = math.Float64frombits(uint64(rk&0xFFFFFFFC) << 32)
	}
	if rk&0x01 != 0 {
		v /= 100
	}
	return v
}

func formatCell(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// readXLS returns the cells of the worksheet named sheet (the first sheet
// when sheet is empty) as rows of strings, up to the last non-empty row and
// column; empty cells are "".
func readXLS(data []byte, sheet string) ([][]string, error) {
	c, err := openCFB(data)
	if err != nil {
		return nil, err
	}
	ws, err := c.stream("Workbook", "Book")
	if err != nil {
		return nil, err
	}
	recs, err := biffRecords(ws, 0)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 || recs[0].typ != biffBOF || len(recs[0].data) < 4 {
		return nil, errors.New("workbook stream does not start with a BOF record")
	}
	if v := binary.LittleEndian.Uint16(recs[0].data); v != 0x0600 {
		return nil, fmt.Errorf("BIFF version %#04x; only BIFF8 (Excel 97-2003, 0x0600) is supported", v)
	}
	var sst []string
	sheetOff := -1
	var sheetNames []string
	for i, r := range recs {
		switch r.typ {
		case biffBoundSheet:
			if len(r.data) < 8 {
				return nil, fmt.Errorf("BOUNDSHEET record at offset %d too short", r.off)
			}
			name, err := shortString(r.data[6:], 1)
			if err != nil {
				return nil, fmt.Errorf("BOUNDSHEET record at offset %d: %w", r.off, err)
			}
			sheetNames = append(sheetNames, name)
			if r.data[5] == 0 && sheetOff < 0 && (sheet == "" || sheet == name) { // type 0 = worksheet
				sheetOff = int(binary.LittleEndian.Uint32(r.data))
			}
		case biffSST:
			if len(r.data) < 8 {
				return nil, fmt.Errorf("SST record at offset %d too short", r.off)
			}
			n := int(binary.LittleEndian.Uint32(r.data[4:]))
			segs := [][]byte{r.data[8:]}
			for _, cr := range recs[i+1:] {
				if cr.typ != biffContinue {
					break
				}
				segs = append(segs, cr.data)
			}
			rd := &sstReader{segs: segs}
			if n > len(ws) {
				return nil, fmt.Errorf("SST record claims %d strings in a %d-byte stream", n, len(ws))
			}
			sst = make([]string, 0, n)
			for k := 0; k < n; k++ {
				s, err := rd.str()
				if err != nil {
					return nil, fmt.Errorf("SST string %d: %w", k, err)
				}
				sst = append(sst, s)
			}
		}
	}
	if sheetOff < 0 {
		if sheet != "" {
			return nil, fmt.Errorf("workbook has no worksheet %q (sheets: %q)", sheet, sheetNames)
		}
		return nil, errors.New("workbook has no worksheet")
	}
	if sheetOff >= len(ws) {
		return nil, fmt.Errorf("worksheet offset %d lies outside the workbook stream", sheetOff)
	}
	srecs, err := biffRecords(ws, sheetOff)
	if err != nil {
		return nil, err
	}
	if len(srecs) == 0 || srecs[0].typ != biffBOF {
		return nil, fmt.Errorf("worksheet at offset %d does not start with a BOF record", sheetOff)
	}

	type cell struct {
		row, col int
		val      string
	}
	var cells []cell
	maxRow, maxCol := -1, -1
	add := func(row, col int, v string) {
		cells = append(cells, cell{row, col, v})
		maxRow = max(maxRow, row)
		maxCol = max(maxCol, col)
	}
	le := binary.LittleEndian
	for i, r := range srecs[1:] {
		d := r.data
		short := func(n int) error {
			if len(d) < n {
				return fmt.Errorf("record %#04x at offset %d: %d bytes, want at least %d", r.typ, r.off, len(d), n)
			}
			return nil
		}
		switch r.typ {
		case biffNumber:
			if err := short(14); err != nil {
				return nil, err
			}
			add(int(le.Uint16(d)), int(le.Uint16(d[2:])), formatCell(math.Float64frombits(le.Uint64(d[6:]))))
		case biffRK:
			if err := short(10); err != nil {
				return nil, err
			}
			add(int(le.Uint16(d)), int(le.Uint16(d[2:])), formatCell(rkValue(le.Uint32(d[6:]))))
		case biffMulRK:
			if err := short(6); err != nil {
				return nil, err
			}
			row, col := int(le.Uint16(d)), int(le.Uint16(d[2:]))
			for k := 4; k+6 <= len(d)-2; k += 6 {
				add(row, col, formatCell(rkValue(le.Uint32(d[k+2:]))))
				col++
			}
		case biffLabelSST:
			if err := short(10); err != nil {
				return nil, err
			}
			idx := int(le.Uint32(d[6:]))
			if idx >= len(sst) {
				return nil, fmt.Errorf("LABELSST at offset %d refers to string %d of %d", r.off, idx, len(sst))
			}
			add(int(le.Uint16(d)), int(le.Uint16(d[2:])), sst[idx])
		case biffLabel:
			if err := short(8); err != nil {
				return nil, err
			}
			s, err := shortString(d[6:], 2)
			if err != nil {
				return nil, fmt.Errorf("LABEL at offset %d: %w", r.off, err)
			}
			add(int(le.Uint16(d)), int(le.Uint16(d[2:])), s)
		case biffBoolErr:
			if err := short(8); err != nil {
				return nil, err
			}
			v := strconv.Itoa(int(d[6]))
			if d[7] != 0 {
				v = "" // an error value (#N/A, #DIV/0!, ...) reads as an empty cell
			}
			add(int(le.Uint16(d)), int(le.Uint16(d[2:])), v)
		case biffFormula:
			if err := short(14); err != nil {
				return nil, err
			}
			row, col := int(le.Uint16(d)), int(le.Uint16(d[2:]))
			res := d[6:14]
			if le.Uint16(res[6:]) != 0xFFFF {
				add(row, col, formatCell(math.Float64frombits(le.Uint64(res))))
				break
			}
			switch res[0] {
			case 0: // string result, in the STRING record that follows
				for _, nr := range srecs[i+2:] {
					if nr.typ == biffString {
						s, err := shortString(nr.data, 2)
						if err != nil {
							return nil, fmt.Errorf("STRING at offset %d: %w", nr.off, err)
						}
						add(row, col, s)
						break
					}
					if nr.typ != 0x04BC && nr.typ != 0x0221 && nr.typ != 0x0236 { // SHRFMLA, ARRAY, TABLE may come between
						break
					}
				}
			case 1: // boolean
				add(row, col, strconv.Itoa(int(res[2])))
			}
		}
	}
	if maxRow < 0 {
		return nil, nil
	}
	// Rows without cells stay nil (callers skip empty rows), so memory
	// follows the cells present, not the sheet's extent.
	used := make([]bool, maxRow+1)
	nUsed := 0
	for _, c := range cells {
		if !used[c.row] {
			used[c.row] = true
			nUsed++
		}
	}
	if nUsed*(maxCol+1) > maxXLSCells {
		return nil, fmt.Errorf("worksheet of %d rows x %d columns exceeds the %d-cell limit", nUsed, maxCol+1, maxXLSCells)
	}
	rows := make([][]string, maxRow+1)
	for _, c := range cells {
		if rows[c.row] == nil {
			rows[c.row] = make([]string, maxCol+1)
		}
		rows[c.row][c.col] = c.val
	}
	return rows, nil
}
