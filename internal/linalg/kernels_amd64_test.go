//go:build amd64

package linalg

import "testing"

func testPickKernelsAMD64(t *testing.T) {
	s512, s2 := hasAVX512, hasAVX2
	defer func() { hasAVX512, hasAVX2 = s512, s2 }()
	for _, c := range []struct {
		avx512, avx2 bool
		want         string
	}{{true, true, "avx512"}, {false, true, "avx2"}, {false, false, "go"}} {
		hasAVX512, hasAVX2 = c.avx512, c.avx2
		if got := pickKernels().name; got != c.want {
			t.Errorf("AVX-512 %v, AVX2 %v: picked %s, want %s", c.avx512, c.avx2, got, c.want)
		}
	}
}
