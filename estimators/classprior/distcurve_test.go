package classprior

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pueval/pueval/estimators/distcurve"
)

// The distcurve estimator on scores with a known class prior: the
// component N(2, 1), the mixture 30 % N(2, 1) and 70 % N(0, 1) (alpha =
// 0.3 by construction): the shipped network's estimate within 0.1 (its
// held-out MAE on the training recipe's Beta pairs is stated in package
// distcurve; Gaussians are outside that recipe, so the bound is looser), the
// same for the same stream, and errors for too few scores, a nil stream and
// bad options.
func TestDistCurveEstimator(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	comp, mix := make([]float64, 1000), make([]float64, 3000)
	for i := range comp {
		comp[i] = 2 + rng.NormFloat64()
	}
	for i := range mix {
		m := 0.0
		if i < 900 {
			m = 2
		}
		mix[i] = m + rng.NormFloat64()
	}
	c, err := Defaults(DistCurveName)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Key(), "distcurve/v2 repeats=10 network=") {
		t.Errorf("key %q", c.Key())
	}
	e, err := c.New()
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Labeled: comp, Unlabeled: mix}
	est, err := e.Estimate(context.Background(), in, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(est.Alpha-0.3) > 0.1 || est.Beta != 1 {
		t.Errorf("estimate %+v, want alpha near 0.3", est)
	}
	again, _ := e.Estimate(context.Background(), in, rand.New(rand.NewPCG(1, 1)))
	if again.Alpha != est.Alpha {
		t.Errorf("same stream: %v then %v", est.Alpha, again.Alpha)
	}
	if _, err := e.Estimate(context.Background(), Input{Labeled: comp[:3], Unlabeled: mix}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("3 labeled scores: no error")
	}
	if _, err := e.Estimate(context.Background(), in, nil); err == nil {
		t.Error("nil stream: no error")
	}
	if err := (&DistCurve{Network: "large"}).Validate(); err == nil || !strings.Contains(err.Error(), "network") {
		t.Errorf("network large: %v", err)
	}
	if (&DistCurve{Network: "small"}).Key() != c.Key() {
		t.Errorf("network small's key %q differs from the default's %q", (&DistCurve{Network: "small"}).Key(), c.Key())
	}
	if (&DistCurve{Network: "published"}).Key() == c.Key() {
		t.Errorf("network published has the default's key %q", c.Key())
	}
	pub, err := (&DistCurve{Network: "published"}).New()
	if publishedShipped() != (err == nil) {
		t.Errorf("network published, shipped %v: New() error %v", publishedShipped(), err)
	}
	if err == nil {
		// The published net on the same scores: the same bound (its
		// held-out MAE is within 0.003 of the small net's).
		pe, err := pub.Estimate(context.Background(), in, rand.New(rand.NewPCG(1, 1)))
		if err != nil || math.Abs(pe.Alpha-0.3) > 0.1 {
			t.Errorf("network published: estimate %+v, %v; want alpha near 0.3", pe, err)
		}
		t.Logf("alpha: small %.4f, published %.4f", est.Alpha, pe.Alpha)
	}
	if err := (&DistCurve{Repeats: -1}).Validate(); err == nil {
		t.Error("repeats -1: no error")
	}
}

// publishedShipped is whether this build has the published network.
func publishedShipped() bool {
	_, err := distcurve.ShippedNetwork(distcurve.NetPublished)
	return !errors.Is(err, distcurve.ErrNotShipped)
}
