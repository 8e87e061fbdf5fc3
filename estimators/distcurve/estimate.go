package distcurve

import (
	"bytes"
	"compress/gzip"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"sync"
)

// networkFiles holds the shipped estimator networks, written by
// estimators/distcurve/train (see the package documentation for the
// commands): network.bin (the small net) and, once trained,
// network-published.bin.gz (the paper's net, gzip'd).
//
//go:embed network*.bin*
var networkFiles embed.FS

// The shipped networks' names.
const (
	// NetSmall is the default network: 100 -> 256 -> 128 -> 64 -> 1.
	NetSmall = "small"
	// NetPublished is the paper's: 100 -> 2048 -> 1024 -> 512 -> 1 with
	// batch normalisation (folded into the weights) and dropout.
	NetPublished = "published"
)

// ErrNotShipped is returned for a network whose weight file is not in this
// build.
var ErrNotShipped = errors.New("network not shipped")

// loadShipped reads an embedded weight file, gunzipping a .gz one.
func loadShipped(file string) (*Network, error) {
	data, err := networkFiles.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("distcurve: %w: %s is not in this build (its training has not finished; see the package documentation)", ErrNotShipped, file)
	}
	if err != nil {
		return nil, fmt.Errorf("distcurve: embedded network %s: %w", file, err)
	}
	if len(file) > 3 && file[len(file)-3:] == ".gz" {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("distcurve: embedded network %s: %w", file, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("distcurve: embedded network %s: %w", file, err)
		}
	}
	var n Network
	if err := n.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("distcurve: embedded network %s: %w", file, err)
	}
	return &n, nil
}

var (
	shippedSmall     = sync.OnceValues(func() (*Network, error) { return loadShipped("network.bin") })
	shippedPublished = sync.OnceValues(func() (*Network, error) { return loadShipped("network-published.bin.gz") })
)

// DefaultNetwork returns the default shipped network, [NetSmall] (shared:
// do not modify it).
func DefaultNetwork() (*Network, error) { return shippedSmall() }

// ShippedNetwork returns the shipped network of that name, [NetSmall] or
// [NetPublished], decoded once (shared: do not modify it). A network not in
// this build gives an error wrapping [ErrNotShipped].
func ShippedNetwork(name string) (*Network, error) {
	switch name {
	case NetSmall:
		return shippedSmall()
	case NetPublished:
		return shippedPublished()
	}
	return nil, fmt.Errorf("distcurve: network %q: want %q or %q", name, NetSmall, NetPublished)
}

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
