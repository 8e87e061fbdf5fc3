package nnet

import "golang.org/x/sys/cpu"

// The arm64 CPU check and constructor of the neon kernel (vecKernel,
// kernel_vec.go, over the routines of kernel_neon_arm64.s). The avx512 and
// avx2 kernels are amd64 assembly: listed here, never available.

// hasNEON is whether the CPU has the Advanced SIMD (ASIMD, "NEON") and
// floating-point units the neon kernel uses. Both are mandatory in ARMv8-A
// (every arm64 CPU Go runs on has them); the check keeps the kernel's
// requirement explicit, and tests mask the variable
// (TestAutoPicksVectorKernel).
var hasNEON = cpu.ARM64.HasASIMD && cpu.ARM64.HasFP

// neonOK reports whether the neon kernel can run here.
func neonOK() bool { return hasNEON }

func newNEONKernel() kernel { return &vecKernel{r: &neonRoutines} }

var hasAVX512, hasAVX2 = false, false

func avx512OK() bool { return false }

func avx2OK() bool { return false }

func newAVX2Kernel() kernel { panic("nnet: the avx2 kernel runs only on amd64") }

func newAVX512Kernel() kernel { panic("nnet: the avx512 kernel runs only on amd64") }
