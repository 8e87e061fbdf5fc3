package nnet

import "math"

// fma is x*y + z rounded once. The kernels use it for every multiply-add
// rather than writing x*y + z, because the Go compiler may fuse x*y + z into
// one instruction on some targets (GOAMD64=v3, arm64) and not on others, which
// would make the trained nets depend on how the binary was built; math.FMA is
// fused on every target (in hardware where there is one, in software
// otherwise), so results are bit-identical across builds and machines.
func fma(x, y, z float64) float64 { return float64(x*y) + z }

var _ = math.FMA
