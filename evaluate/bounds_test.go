package evaluate

import (
	"context"
	"testing"
)

// The bounds' band is the bootstrap band while it keeps at most
// MaxBandCells counts, the DKW band past it: with 1,000 resamples (the
// default), 2,000 labeled rows (2,000 distinct ranks, 2 million counts) get
// the bootstrap band, 20,000 (20 million counts) the DKW band, and the
// bounds still hold the recovered AUC at the given alpha.
func TestBoundsBandPastLimit(t *testing.T) {
	for _, c := range []struct {
		nL, nU    int
		band      string
		resamples int
	}{{2000, 8000, "bootstrap", DefaultBoundsResamples}, {20000, 30000, "dkw", 0}} {
		scores, labeled, _ := puScores(t, 3, 2, 0.3, 1, c.nL, c.nU)
		res, err := Run(context.Background(), Input{Scores: scores, Labeled: labeled}, Options{Priors: &GivenPriors{Alpha: 0.3, Beta: 1}})
		if err != nil {
			t.Fatal(err)
		}
		b := res.Bounds
		if b == nil || b.Band != c.band || b.Resamples != c.resamples {
			t.Fatalf("%d labeled: bounds %+v, want the %s band of %d resamples", c.nL, b, c.band, c.resamples)
		}
		if auc := res.Metrics.AUC.Recovered; !(b.AUC.Low <= auc && auc <= b.AUC.High) {
			t.Errorf("%d labeled: AUC bounds [%v, %v] without the recovered AUC %v", c.nL, b.AUC.Low, b.AUC.High, auc)
		}
	}
}
