//go:build !amd64

package nnet

// The avx512 and avx2 kernels are amd64 assembly (kernel_avx512.go); on
// other architectures they are listed but never available.

var hasAVX512, hasAVX2 = false, false

func avx512OK() bool { return false }

func avx2OK() bool { return false }

func newAVX2Kernel() kernel { panic("nnet: the avx2 kernel runs only on amd64") }

func newAVX512Kernel() kernel { panic("nnet: the avx512 kernel runs only on amd64") }
