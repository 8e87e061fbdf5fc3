package distcurve

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"sync"
)

// networkFile is the shipped estimator network, written by
// estimators/distcurve/train (see the package documentation for the command).
//
//go:embed network.bin
var networkFile []byte

var shipped = sync.OnceValues(func() (*Network, error) {
	var n Network
	if err := n.UnmarshalBinary(networkFile); err != nil {
		return nil, fmt.Errorf("distcurve: embedded network: %w", err)
	}
	return &n, nil
})

// DefaultNetwork returns the shipped network (shared: do not modify it).
func DefaultNetwork() (*Network, error) { return shipped() }

// Estimate returns DistCurve's estimate of alpha, the proportion of the
// component in the mixture, with the shipped network: component = the
// transformed scores of the labeled examples, mixture = those of the
// unlabeled examples; alpha is then the class prior of the unlabeled set.
// rng drives the curve's component draws ([Curve] with [DefaultRepeats]).
// Errors (empty side, NaN or infinite score, nil rng, a curve of zero
// distances) wrap [ErrInput].
func Estimate(component, mixture []float64, rng *rand.Rand) (float64, error) {
	n, err := DefaultNetwork()
	if err != nil {
		return 0, err
	}
	return n.Estimate(component, mixture, rng)
}

// Estimate is [Estimate] with this network.
func (n *Network) Estimate(component, mixture []float64, rng *rand.Rand) (float64, error) {
	c, err := Curve(component, mixture, DefaultRepeats, rng)
	if err != nil {
		return 0, fmt.Errorf("distcurve: estimate: %w", err)
	}
	a, err := n.Predict(c)
	if err != nil {
		return 0, fmt.Errorf("distcurve: estimate: %w", err)
	}
	return a, nil
}
