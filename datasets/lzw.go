package datasets

import (
	"errors"
	"fmt"
)

// Unix compress(1) (".Z") decoding.
//
// The standard library's compress/lzw implements the GIF/TIFF variants, not
// compress(1)'s, which differs in three ways that matter: a three-byte header
// (0x1f 0x9d, then a flags byte holding the maximum code width and the
// "block mode" bit); in block mode code 256 clears the table; and codes are
// written in groups of eight, so whenever the code width grows or the table
// is cleared the rest of the current group (a multiple of width*8 bits
// counted from where that width began) is padding to skip. The logic below
// follows ncompress 4.2.4's decompress(), including its quirk that the first
// code after a clear still adds a (never used) table entry.

const (
	lzwMagic0    = 0x1f
	lzwMagic1    = 0x9d
	lzwBitsMask  = 0x1f
	lzwBlockMode = 0x80
	lzwInitBits  = 9
	lzwClear     = 256
	lzwMaxBits   = 16
)

// errNotCompress is returned for input without the compress(1) header.
var errNotCompress = errors.New("not a compress(1) .Z file (missing 1f 9d header)")

// maxLZWOutput bounds the decompressed size so that a corrupt or hostile file
// cannot exhaust memory; the largest .Z file UCI serves expands to ~1.2 MB.
const maxLZWOutput = 1 << 30

// decompressZ decodes a whole compress(1) stream. A stream that ends in the
// middle of a code group is accepted (compress pads only to a byte), but a
// code that refers past the table is an error with its bit offset.
func decompressZ(in []byte) ([]byte, error) {
	if len(in) < 3 || in[0] != lzwMagic0 || in[1] != lzwMagic1 {
		return nil, errNotCompress
	}
	maxBits := int(in[2] & lzwBitsMask)
	blockMode := in[2]&lzwBlockMode != 0
	if maxBits < lzwInitBits || maxBits > lzwMaxBits {
		return nil, fmt.Errorf(".Z header: maximum code width %d bits, want 9..16", maxBits)
	}
	if in[2]&0x60 != 0 {
		return nil, fmt.Errorf(".Z header: reserved flag bits set (byte %#02x)", in[2])
	}
	data := in[3:]
	maxMaxCode := 1 << maxBits

	prefix := make([]uint16, maxMaxCode)
	suffix := make([]byte, maxMaxCode)
	for i := range 256 {
		suffix[i] = byte(i)
	}
	stack := make([]byte, 0, maxMaxCode)

	nBits := lzwInitBits
	maxCode := 1<<nBits - 1
	freeEnt := 256
	if blockMode {
		freeEnt = 257
	}
	totalBits := len(data) * 8
	pos := 0       // bit position of the next code
	groupBase := 0 // bit position where the current code width began
	oldCode := -1
	var finChar byte
	out := make([]byte, 0, len(in)*3)

	// skipGroup moves pos to the end of the current group of eight codes.
	skipGroup := func() {
		g := nBits * 8
		used := pos - groupBase
		pos = groupBase + (used+g-1)/g*g
		groupBase = pos
	}

	for pos+nBits <= totalBits {
		if freeEnt > maxCode {
			skipGroup()
			nBits++
			if nBits == maxBits {
				maxCode = maxMaxCode
			} else {
				maxCode = 1<<nBits - 1
			}
			continue
		}
		// Read nBits bits, least significant first (at most 16 bits from
		// an offset of up to 7: three bytes).
		byteIdx, bitIdx := pos>>3, pos&7
		var window uint32
		for k := 0; k < 3 && byteIdx+k < len(data); k++ {
			window |= uint32(data[byteIdx+k]) << (8 * k)
		}
		code := int(window>>bitIdx) & (1<<nBits - 1)
		pos += nBits

		if oldCode == -1 {
			if code >= 256 {
				return nil, fmt.Errorf(".Z data: first code %d at bit %d is not a literal", code, pos-nBits)
			}
			finChar = byte(code)
			oldCode = code
			out = append(out, finChar)
			continue
		}
		if code == lzwClear && blockMode {
			for i := range prefix[:256] {
				prefix[i] = 0
			}
			freeEnt = 256 // ncompress sets FIRST-1; the next code then fills slot 256
			skipGroup()
			nBits = lzwInitBits
			maxCode = 1<<nBits - 1
			continue
		}
		inCode := code
		stack = stack[:0]
		if code >= freeEnt {
			if code > freeEnt {
				return nil, fmt.Errorf(".Z data: corrupt input: code %d at bit %d exceeds the table size %d", code, pos-nBits, freeEnt)
			}
			stack = append(stack, finChar)
			code = oldCode
		}
		for code >= 256 {
			stack = append(stack, suffix[code])
			code = int(prefix[code])
		}
		finChar = suffix[code]
		stack = append(stack, finChar)
		if len(out)+len(stack) > maxLZWOutput {
			return nil, fmt.Errorf(".Z data: output exceeds %d bytes", maxLZWOutput)
		}
		for i := len(stack) - 1; i >= 0; i-- {
			out = append(out, stack[i])
		}
		if freeEnt < maxMaxCode {
			prefix[freeEnt] = uint16(oldCode)
			suffix[freeEnt] = finChar
			freeEnt++
		}
		oldCode = inCode
	}
	return out, nil
}
