package nnet

import "golang.org/x/sys/cpu"

// The amd64 CPU checks and constructors of the vector kernels (vecKernel,
// kernel_vec.go). The neon kernel is arm64 assembly: listed here, never
// available.

// hasAVX512 is whether the CPU (and the OS, which must save the ZMM
// registers) supports the AVX-512 subsets the kernel uses: F, CD, BW, DQ
// and VL, as Go's own simd/archsimd X86.AVX512 requires.
var hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512CD && cpu.X86.HasAVX512BW &&
	cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL

// avx512OK reports whether the avx512 kernel can run here.
func avx512OK() bool { return hasAVX512 }

// hasAVX2 is whether the CPU (and the OS) supports AVX2 and FMA, which the
// avx2 kernel needs.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// avx2OK reports whether the avx2 kernel can run here.
func avx2OK() bool { return hasAVX2 }

func newAVX512Kernel() kernel { return &vecKernel{r: &avx512Routines} }

func newAVX2Kernel() kernel { return &vecKernel{r: &avx2Routines} }

// hasNEON is a variable, as on arm64, so that tests can mask it anywhere.
var hasNEON = false

func neonOK() bool { return false }

func newNEONKernel() kernel { panic("nnet: the neon kernel runs only on arm64") }
