//go:build !amd64 && !arm64

package nnet

// The vector kernels are amd64 (avx512, avx2) and arm64 (neon) assembly
// (kernel_vec.go); on other architectures they are listed but never
// available.

var hasAVX512, hasAVX2, hasNEON = false, false, false

func avx512OK() bool { return false }

func avx2OK() bool { return false }

func neonOK() bool { return false }

func newAVX2Kernel() kernel { panic("nnet: the avx2 kernel runs only on amd64") }

func newAVX512Kernel() kernel { panic("nnet: the avx512 kernel runs only on amd64") }

func newNEONKernel() kernel { panic("nnet: the neon kernel runs only on arm64") }
