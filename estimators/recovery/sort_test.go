package recovery

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/metrics"
)

// byEtaOrder is the total order of Algorithm 1's sort.
func byEtaOrder(a, b metrics.ROCPoint) int {
	return cmp.Or(cmp.Compare(a.FPR, b.FPR), cmp.Compare(a.TPR, b.TPR), cmp.Compare(b.Threshold, a.Threshold))
}

// The bucket sort gives exactly slices.SortFunc's result (the order is
// total) on every shape of input: nearly sorted etas as Algorithm 1
// produces them, random etas, reversed ones, every eta equal (one
// bucket, sorted by slices.SortFunc), etas only at 0 and 1 (clipped
// points), ties of eta and gamma, NaNs, and lengths 0 to 40,000, with the
// bucket table reused from call to call; sortXY likewise.
func TestSortByKeyIsSortFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	shapes := map[string]func(i, n int) float64{
		"nearly sorted": func(i, n int) float64 { return min(1, max(0, float64(i)/float64(n)+0.01*rng.NormFloat64())) },
		"random":        func(int, int) float64 { return rng.Float64() },
		"reversed":      func(i, n int) float64 { return 1 - float64(i)/float64(n) },
		"all equal":     func(int, int) float64 { return 0.25 },
		"ends":          func(int, int) float64 { return float64(rng.IntN(2)) },
		"few values":    func(int, int) float64 { return float64(rng.IntN(5)) / 4 },
		"with NaN": func(int, int) float64 {
			if rng.IntN(10) == 0 {
				return math.NaN()
			}
			return rng.Float64()
		},
	}
	var s bucketSorter
	for name, eta := range shapes {
		for _, n := range []int{0, 1, 2, 5, 13, 100, 1000, 5000, 40000} {
			pts := make([]metrics.ROCPoint, n)
			for i := range pts {
				pts[i] = metrics.ROCPoint{Threshold: float64(n - i), FPR: eta(i, n), TPR: float64(rng.IntN(3)) / 2}
			}
			checkSortXY(t, &s, name, pts)
			want := slices.Clone(pts)
			slices.SortFunc(want, byEtaOrder)
			if err := sortByKey(context.Background(), &s, pts, func(p metrics.ROCPoint) float64 { return p.FPR }, byEtaOrder); err != nil {
				t.Fatal(err)
			}
			for i := range pts {
				if byEtaOrder(pts[i], want[i]) != 0 || math.IsNaN(pts[i].FPR) != math.IsNaN(want[i].FPR) {
					t.Fatalf("%s, %d points: position %d is %+v, want %+v", name, n, i, pts[i], want[i])
				}
			}
		}
	}
}

// checkSortXY checks sortXY against slices.SortFunc on the points' (FPR,
// TPR), NaNs left out (sortXY's points are finite).
func checkSortXY(t *testing.T, s *bucketSorter, name string, pts []metrics.ROCPoint) {
	t.Helper()
	var xy []XY
	for _, p := range pts {
		if !math.IsNaN(p.FPR) {
			xy = append(xy, XY{p.FPR, p.TPR})
		}
	}
	want := slices.Clone(xy)
	slices.SortFunc(want, compareXY)
	if err := s.sortXY(context.Background(), xy); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(xy, want) {
		t.Fatalf("%s, %d points: sortXY differs from slices.SortFunc", name, len(xy))
	}
}

// A cancelled context stops the sort within its first pass.
func TestSortByKeyStops(t *testing.T) {
	pts := make([]metrics.ROCPoint, 10*interrupt.Every)
	for i := range pts {
		pts[i].FPR = float64(len(pts)-i) / float64(len(pts))
	}
	ctx := interrupt.NewCountdown(1)
	err := sortByKey(ctx, &bucketSorter{}, pts, func(p metrics.ROCPoint) float64 { return p.FPR }, byEtaOrder)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if calls := ctx.Calls(); calls > 2 {
		t.Errorf("asked its context %d times after it was done, want it to stop at once", calls-1)
	}
}
