//go:build !amd64

package kmpe

// The assembly kernels are amd64 only (vec_amd64.go): elsewhere the plain
// Go runs.

func pickKernels() *vecKernels { return &goKernels }

// allKernels lists the implementations that can run here.
func allKernels() []*vecKernels { return []*vecKernels{&goKernels} }
