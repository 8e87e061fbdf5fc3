//go:build amd64

package kmpe

import "testing"

// pickKernels takes AVX-512 where the CPU has it, else AVX2, else the
// plain Go. The CPU's features are masked to check the choice on a CPU
// without them (the kernels themselves are compared in
// TestVecKernelsAgree).
func TestPickKernels(t *testing.T) {
	want := "go"
	switch {
	case hasAVX512:
		want = "avx512"
	case hasAVX2:
		want = "avx2"
	}
	if got := pickKernels().name; got != want || vk.name != want {
		t.Fatalf("pickKernels() = %q, in use %q; want %q (hasAVX512 %v, hasAVX2 %v)", got, vk.name, want, hasAVX512, hasAVX2)
	}
	t.Logf("kernels in use: %s", vk.name)
	saved512, saved2 := hasAVX512, hasAVX2
	defer func() { hasAVX512, hasAVX2 = saved512, saved2 }()
	hasAVX512 = false
	if got, want := pickKernels().name, map[bool]string{true: "avx2", false: "go"}[saved2]; got != want {
		t.Errorf("without AVX-512: %q, want %q", got, want)
	}
	if n := len(allKernels()); n != 1+btoi(saved2) {
		t.Errorf("without AVX-512: %d implementations listed", n)
	}
	hasAVX2 = false
	if got := pickKernels().name; got != "go" {
		t.Errorf("without AVX-512 and AVX2: %q, want go", got)
	}
	if n := len(allKernels()); n != 1 {
		t.Errorf("without AVX-512 and AVX2: %d implementations listed", n)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
