package nnet

// madd is x*y + z with the product rounded before the addition, written with
// an explicit conversion because the Go specification lets a compiler fuse
// x*y + z into one fused multiply-add, and the gc compiler does so on some
// targets (GOAMD64=v3, arm64) but not on others (the default GOAMD64=v1).
// Fusion changes the rounding, so trained nets would depend on how the
// binary was built; the explicit conversion forbids it everywhere, so a bag's
// scores are bit-identical across builds and architectures.
//
// math.FMA (always fused) would give the same guarantee, but on the default
// amd64 build every call carries a CPU-feature branch with a software
// fallback, which made the kernel spill its registers: measured with
// BenchmarkEpochBank (CPU time, minimum of 6 runs), math.FMA took 495 us per
// epoch with GOAMD64=v1 and 381 us with v3, madd 428 us and 438 us.
func madd(x, y, z float64) float64 { return float64(x*y) + z }
