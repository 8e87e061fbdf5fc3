package sgemm

import "unsafe"

// unsafeSlice views n floats from p (the kernels' pointer arguments).
func unsafeSlice(p *float32, n int) []float32 { return unsafe.Slice(p, n) }
