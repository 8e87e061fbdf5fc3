//go:build !amd64

package nnet

// The avx512 kernel is amd64 assembly (kernel_avx512.go); on other
// architectures it is listed but never available.

func avx512OK() bool { return false }

func newAVX512Kernel() kernel { panic("nnet: the avx512 kernel runs only on amd64") }
