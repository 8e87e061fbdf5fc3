package portmath

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/pueval/pueval/internal/goldenbits"
)

// TestNormFloat64: on amd64 the standard library's stream draw for draw (2
// million draws from each of 5 seeds; 2.75 % of draws leave the rectangles
// for the wedges and the tail, where the two differ in how they compute),
// and the two sources left in the same state; everywhere the draws' first two moments (mean 0 within 4
// standard errors, variance 1 within 1 %) and a tail beyond zigR as often
// as 2 (1 - Phi(zigR)) = 5.76e-4 (within 10 %).
func TestNormFloat64(t *testing.T) {
	const n = 2000000
	var sum, sum2 float64
	tail, slow := 0, 0
	for seed := range uint64(5) {
		a, b := rand.New(rand.NewPCG(seed, 77)), rand.New(rand.NewPCG(seed, 77))
		for k := range n {
			got := NormFloat64(a)
			if runtime.GOARCH == "amd64" {
				if want := b.NormFloat64(); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("seed %d, draw %d: %v, math/rand/v2 %v", seed, k, got, want)
				}
			}
			sum += got
			sum2 += float64(got * got)
			if math.Abs(got) > zigR {
				tail++
			}
		}
		if runtime.GOARCH == "amd64" && a.Uint64() != b.Uint64() {
			t.Fatalf("seed %d: the sources are in different states after the draws", seed)
		}
	}
	// How often a first uniform leaves the rectangles (the wedges and the
	// tail, where the two versions' arithmetic differs).
	r := rand.New(rand.NewPCG(0, 77))
	for range n {
		u := r.Uint64()
		if absInt32(int32(u)) >= zigK[u>>32&0x7F] {
			slow++
		}
	}
	total := float64(5 * n)
	mean, variance := sum/total, sum2/total-(sum/total)*(sum/total)
	if math.Abs(mean) > 4/math.Sqrt(total) || math.Abs(variance-1) > 0.01 {
		t.Errorf("mean %v, variance %v over %v draws", mean, variance, total)
	}
	if p := float64(tail) / total; math.Abs(p/5.76e-4-1) > 0.1 {
		t.Errorf("P(|z| > %v) = %v, want 5.76e-4", zigR, p)
	}
	t.Logf("%d draws, %d beyond zigR, %.2f %% outside the rectangles", int(total), tail, 100*float64(slow)/n)
}

// goldenNormal is the hash of 1,000,000 draws of NormFloat64, written on
// amd64 (AVX-512, FMA); `make test-cross` checks it under qemu-aarch64 and
// emulated Haswell and Nehalem CPUs through TestGoldenBits.
const goldenNormal = "8570ce88ad0af618"

func normalGoldenHash() string {
	r := rand.New(rand.NewPCG(29, 30))
	h := goldenbits.New()
	for range 1000000 {
		h.Add(NormFloat64(r))
	}
	return h.String()
}
