package classifiers

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/metrics"
	"gonum.org/v1/gonum/mat"
)

func TestSmokeTmp(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		for _, cfg := range []struct {
			n    int
			pos  float64
			d    int
			sep  float64
			rad  bool
		}{{4000, 0.5, 4, 1.2, false}, {4000, 0.2, 4, 1.2, false}, {4000, 0.5, 2, 0, true}} {
			rng := rand.New(rand.NewPCG(seed, 99))
			x := mat.NewDense(cfg.n, cfg.d, nil)
			y := make([]bool, cfg.n)
			bayes := make([]float64, cfg.n)
			for i := range cfg.n {
				y[i] = float64(i) < cfg.pos*float64(cfg.n)
				for k := range cfg.d {
					v := rng.NormFloat64()
					if cfg.rad {
						if !y[i] {
							v *= 2
						}
						bayes[i] -= v * v
					} else {
						if y[i] {
							v += cfg.sep / math.Sqrt(float64(cfg.d))
						}
						bayes[i] += v
					}
					x.Set(i, k, v)
				}
			}
			pop := synth.GaussianAUC(cfg.sep, 1, 0, 1)
			if cfg.rad {
				pop = 0.8
			}
			o := DefaultNNetBag()
			o.Bags = 20
			start := time.Now()
			res, err := o.Score(context.Background(), Data{X: x, Y: y}, seed)
			if err != nil {
				t.Fatal(err)
			}
			r, _ := metrics.Rank(res.Scores, y)
			rb, _ := metrics.Rank(bayes, y)
			t.Logf("seed %d cfg %+v: oob %.4f bayes-sample %.4f pop %.4f  d_pop %+.4f d_sample %+.4f (%v)", seed, cfg, r.AUC(), rb.AUC(), pop, r.AUC()-pop, r.AUC()-rb.AUC(), time.Since(start).Round(time.Millisecond))
		}
	}
}
