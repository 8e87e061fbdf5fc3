//go:build !unix

package sgemm

// cpuSeconds is unknown here: the per-CPU metric is left out.
func cpuSeconds() float64 { return 0 }
