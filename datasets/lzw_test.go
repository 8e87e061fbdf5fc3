package datasets

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lzwSample is text with enough repetition and variety to grow the code
// width to its maximum and, with small maxBits, to fill the table and force
// clear codes.
func lzwSample(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("page block text graphic line picture 0.5 12 345 6789 class shuttle rad flow bypass")
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		if r.IntN(7) == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
		if r.IntN(50) == 0 {
			b.WriteByte(byte(r.IntN(256))) // any byte value
		}
	}
	return b.Bytes()
}

func TestDecompressZRoundTrip(t *testing.T) {
	for _, maxBits := range []int{10, 12, 16} { // 9 is degenerate: compress(1) decoders widen past it
		for _, n := range []int{0, 1, 2, 100, 5000, 200000} {
			in := lzwSample(n)[:n]
			got, err := decompressZ(compressZ(in, maxBits))
			if err != nil {
				t.Fatalf("maxBits %d, n %d: %v", maxBits, n, err)
			}
			if !bytes.Equal(got, in) {
				t.Fatalf("maxBits %d, n %d: round trip differs (got %d bytes)", maxBits, n, len(got))
			}
		}
	}
}

// TestCompressZMatchesGzip checks the test encoder itself against an
// independent decoder: gzip -d reads compress(1) files. (The decoder is
// checked against real compress output by TestMirrorZFiles.)
func TestCompressZMatchesGzip(t *testing.T) {
	gz, err := exec.LookPath("gzip")
	if err != nil {
		t.Skip("gzip not installed")
	}
	for _, maxBits := range []int{10, 12, 16} {
		in := lzwSample(100000)
		p := filepath.Join(t.TempDir(), "x.Z")
		if err := os.WriteFile(p, compressZ(in, maxBits), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(gz, "-dc", p).Output()
		if err != nil {
			t.Fatalf("maxBits %d: gzip -dc: %v", maxBits, err)
		}
		if !bytes.Equal(out, in) {
			t.Fatalf("maxBits %d: gzip decodes %d bytes, want the %d encoded", maxBits, len(out), len(in))
		}
	}
}

func TestDecompressZErrors(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{[]byte("plain text"), "missing 1f 9d header"},
		{[]byte{0x1f, 0x9d}, "missing 1f 9d header"},
		{[]byte{0x1f, 0x9d, 0x80 | 8}, "maximum code width 8 bits"},
		{[]byte{0x1f, 0x9d, 0x80 | 17}, "maximum code width 17 bits"},
		{[]byte{0x1f, 0x9d, 0x90 | 0x20}, "reserved flag bits"},
		// First code 0x1ff (9 bits, all ones) is not a literal.
		{[]byte{0x1f, 0x9d, 0x90, 0xff, 0x01}, "first code 511"},
		// 'a' (0x61), then code 300 while the table's next entry is 257.
		{[]byte{0x1f, 0x9d, 0x90, 0x61, 0x58, 0x02}, "code 300 at bit 9 exceeds the table size 257"},
	} {
		_, err := decompressZ(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("% x: error %v, want %q", c.in, err, c.want)
		}
	}
	if !errors.Is(func() error { _, err := decompressZ(nil); return err }(), errNotCompress) {
		t.Error("nil input: want errNotCompress")
	}
}

// A truncated stream decodes to a prefix of the original (compress pads
// only to a byte, so the decoder cannot tell a truncation from the end).
func TestDecompressZTruncated(t *testing.T) {
	in := lzwSample(20000)
	z := compressZ(in, 16)
	got, err := decompressZ(z[:len(z)/2])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || !bytes.HasPrefix(in, got) {
		t.Fatalf("got %d bytes, not a prefix of the input", len(got))
	}
}
