package classifiers

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pueval/pueval/metrics"
)

func TestSmokeTmp(t *testing.T) {
	data := bankLike(rand.New(rand.NewPCG(1, 2)), 11000, 0.1)
	o := DefaultNNetBag()
	o.Bags = 20
	start := time.Now()
	res, err := o.Score(context.Background(), data, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := metrics.Rank(res.Scores, data.Y)
	ep := 0
	for _, m := range res.Models {
		ep += m.Epochs
	}
	t.Logf("auc %.4f time %v epochs/net %.1f filled %d m0 %+v", r.AUC(), time.Since(start), float64(ep)/20, res.Filled, res.Models[0])
}
