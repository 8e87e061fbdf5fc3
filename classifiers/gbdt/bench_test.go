package gbdt

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// mushroomLike draws n rows of 22 categorical features one-hot encoded into
// 117 binary columns (the AUL paper's Mushroom encoding; category counts
// 6,4,10,2,9,4,3,2,12,2,5,4,4,9,9,2,4,3,5,9,6,7 add up to 117), with
// category probabilities that depend on the class.
func mushroomLike(rng *rand.Rand, n int) (*mat.Dense, []bool) {
	cats := []int{6, 4, 10, 2, 9, 4, 3, 2, 12, 2, 5, 4, 4, 9, 9, 2, 4, 3, 5, 9, 6, 7}
	d := 0
	for _, c := range cats {
		d += c
	}
	x := mat.NewDense(n, d, nil)
	y := make([]bool, n)
	for i := range n {
		y[i] = rng.IntN(2) == 0
		off := 0
		for f, c := range cats {
			v := rng.IntN(c)
			if y[i] && f%3 == 0 && rng.IntN(3) == 0 {
				v = 0 // class-dependent category
			}
			x.Set(i, off+v, 1)
			off += c
		}
	}
	return x, y
}

// BenchmarkTrain times one 100-round model with the default options on a
// 4,000 x 117 Mushroom-like problem (binary columns) and a 4,601 x 57
// Spambase-shaped one (continuous and binary columns, 39 % positive).
func BenchmarkTrain(b *testing.B) {
	for _, c := range benchProblems() {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Train(context.Background(), c.x, c.y, nil, DefaultParams()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOOF times 5-fold out-of-fold scoring on the same problems.
func BenchmarkOOF(b *testing.B) {
	for _, c := range benchProblems() {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := OOF(context.Background(), c.x, c.y, DefaultFolds, DefaultParams(), rand.New(rand.NewPCG(1, 2))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type benchProblem struct {
	name string
	x    *mat.Dense
	y    []bool
}

func benchProblems() []benchProblem {
	mx, my := mushroomLike(rand.New(rand.NewPCG(1, 1)), 4000)
	sx, sy := synth(rand.New(rand.NewPCG(2, 2)), 4601, 57, 0.394)
	return []benchProblem{{"mushroom-like-4000x117", mx, my}, {"spambase-like-4601x57", sx, sy}}
}
