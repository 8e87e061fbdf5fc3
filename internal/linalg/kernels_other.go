//go:build !amd64

package linalg

// The assembly kernels are amd64 only (kernels_amd64.go): elsewhere the
// plain Go runs.

func pickKernels() *kernels { return &goKernels }

// allKernels lists the implementations that can run here.
func allKernels() []*kernels { return []*kernels{&goKernels} }
