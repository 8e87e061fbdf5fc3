package gmm

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// newsLike is n×d tf-idf-like data, as 20 Newsgroups after feature selection:
// each row holds about 40 distinct terms drawn from a Zipf-like popularity
// over d columns, mixed from 3 topics, weighted by log term frequency, and
// L2-normalised. About 97% of the entries are 0.
func newsLike(rng *rand.Rand, n, d int) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	topics := make([][]int, 3)
	for t := range topics {
		topics[t] = rng.Perm(d)
	}
	for i := range n {
		row := x.RawRowView(i)
		topic := topics[rng.IntN(3)]
		for range 40 {
			// Zipf-like rank: exponential in log space.
			r := int(math.Exp(rng.Float64()*math.Log(float64(d)))) - 1
			row[topic[r]] += 1
		}
		s := 0.0
		for c, v := range row {
			if v > 0 {
				row[c] = 1 + math.Log(v)
				s += row[c] * row[c]
			}
		}
		s = 1 / math.Sqrt(s)
		for c := range row {
			row[c] *= s
		}
	}
	return x
}

// mnistLike is n×256 (16×16) image-like data: each row is one of 3 blurred
// stroke templates with random shifts of intensity and noise, in [0, 1], with
// zero borders.
func mnistLike(rng *rand.Rand, n int) *mat.Dense {
	const side = 16
	x := mat.NewDense(n, side*side, nil)
	for i := range n {
		row := x.RawRowView(i)
		kind := rng.IntN(3)
		cx, cy := 7.5+rng.NormFloat64(), 7.5+rng.NormFloat64()
		for py := 2; py < side-2; py++ {
			for px := 2; px < side-2; px++ {
				dx, dy := float64(px)-cx, float64(py)-cy
				var dist float64
				switch kind {
				case 0: // ring
					dist = math.Abs(math.Hypot(dx, dy) - 4)
				case 1: // vertical bar
					dist = math.Abs(dx)
				default: // diagonal
					dist = math.Abs(dx-dy) / math.Sqrt2
				}
				v := math.Exp(-dist*dist/2) + 0.1*rng.NormFloat64()
				row[py*side+px] = min(max(v, 0), 1)
			}
		}
	}
	return x
}

func benchRep(b *testing.B, x *mat.Dense) {
	rows := allRows(x)
	o := DefaultOptions()
	for b.Loop() {
		if _, err := Representativeness(context.Background(), x, rows, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRepresentativeness: 1000 positives of 20news-like (1000 sparse
// tf-idf features) and MNIST-like (256 pixels) data; target under 2 s each on
// one core (GOMAXPROCS=1).
func BenchmarkRepresentativeness(b *testing.B) {
	b.Run("news1000x1000", func(b *testing.B) {
		benchRep(b, newsLike(rand.New(rand.NewPCG(1, 1)), 1000, 1000))
	})
	b.Run("mnist1000x256", func(b *testing.B) {
		benchRep(b, mnistLike(rand.New(rand.NewPCG(2, 2)), 1000))
	})
}
