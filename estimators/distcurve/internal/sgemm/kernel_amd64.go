package sgemm

import "golang.org/x/sys/cpu"

//go:generate go run gen_kernel.go

//go:noescape
func kernColAVX512(kc int, a *float32, ks int, b, c *float32, ldc int, load bool)

//go:noescape
func kernRowAVX512(kc int, a *float32, rs int, b, c *float32, ldc int, load bool)

// hasAVX512 is whether the CPU and OS support AVX-512 F (ZMM registers,
// VFMADD231PS on them).
var hasAVX512 = cpu.X86.HasAVX512F

func init() {
	if hasAVX512 {
		kernels = kernelSet{name: "avx512", col: kernColAVX512, row: kernRowAVX512}
	}
}
