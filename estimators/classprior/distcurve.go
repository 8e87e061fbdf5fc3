package classprior

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/pueval/pueval/estimators/distcurve"
)

// DistCurveName is the registry name of DistCurve.
const DistCurveName = "distcurve"

// distCurveVersion is part of Key: bump it when a code change alters the
// estimates for the same options and scores.
const distCurveVersion = 2 // 2: no fused multiply-adds on arm64 (amd64 results unchanged)

// DistCurve is the options of DistCurve (Zeiberg, Jain, Radivojac, AAAI
// 2020; package estimators/distcurve), registered as "distcurve": the
// distance curve of the unlabeled scores to draws of the labeled ones,
// averaged over repeats, read by pueval's shipped estimator network. It
// estimates alpha, the class prior of U, from univariate scores (a
// classifier trained labeled against unlabeled); beta is 1.
//
//	estimators: [{name: distcurve, repeats: 10, network: small}]
type DistCurve struct {
	// Repeats is the number of nearest-neighbour removal passes averaged
	// (the published code's L); 0 means distcurve.DefaultRepeats.
	Repeats int `yaml:"repeats"`
	// Network is the shipped network that reads the curve: "small" (the
	// default, also when empty: 100-256-128-64-1) or "published" (the
	// paper's 100-2048-1024-512-1 with batch normalisation and dropout).
	// Package distcurve documents both and their accuracy; a build without
	// the published weights refuses "published" when the estimator is made.
	Network string `yaml:"network,omitempty" json:"network,omitempty"`
}

func (c *DistCurve) Name() string { return DistCurveName }

func (c *DistCurve) repeats() int {
	if c.Repeats == 0 {
		return distcurve.DefaultRepeats
	}
	return c.Repeats
}

func (c *DistCurve) network() string {
	if c.Network == "" {
		return distcurve.NetSmall
	}
	return c.Network
}

// Validate checks the repeats and the network's name.
func (c *DistCurve) Validate() error {
	if c.Repeats < 0 || c.Repeats > 1000 {
		return fmt.Errorf("estimator %s: repeats %d: want 1 to 1000 (0 for %d)", DistCurveName, c.Repeats, distcurve.DefaultRepeats)
	}
	if n := c.network(); n != distcurve.NetSmall && n != distcurve.NetPublished {
		return fmt.Errorf("estimator %s: network %q: want %s or %s", DistCurveName, c.Network, distcurve.NetSmall, distcurve.NetPublished)
	}
	return nil
}

// networkHashes names each shipped network by the first 8 bytes of its
// weights' sha256, so that a retrained network never serves estimates
// cached with the old one.
var networkHashes = map[string]func() (string, error){
	distcurve.NetSmall:     sync.OnceValues(func() (string, error) { return networkHash(distcurve.NetSmall) }),
	distcurve.NetPublished: sync.OnceValues(func() (string, error) { return networkHash(distcurve.NetPublished) }),
}

func networkHash(name string) (string, error) {
	n, err := distcurve.ShippedNetwork(name)
	if err != nil {
		return "", err
	}
	b, err := n.MarshalBinary()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8]), nil
}

// Key is the name, the version, the repeats and the chosen network's hash.
func (c *DistCurve) Key() string {
	h, err := "unknown", error(nil)
	if f, ok := networkHashes[c.network()]; ok {
		h, err = f()
	}
	if err != nil {
		h = "unreadable"
	}
	return fmt.Sprintf("%s/v%d repeats=%d network=%s", DistCurveName, distCurveVersion, c.repeats(), h)
}

// New validates the options and loads the chosen network.
func (c *DistCurve) New() (Estimator, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	n, err := distcurve.ShippedNetwork(c.network())
	if err != nil {
		return nil, fmt.Errorf("estimator %s: network %s: %w", DistCurveName, c.network(), err)
	}
	return &distCurve{repeats: c.repeats(), net: n}, nil
}

type distCurve struct {
	repeats int
	net     *distcurve.Network
}

func (e *distCurve) Name() string { return DistCurveName }

// Estimate reads the labeled scores as the component and the unlabeled as
// the mixture; rng draws the component points of the curve.
func (e *distCurve) Estimate(ctx context.Context, in Input, rng *rand.Rand) (Estimate, error) {
	if err := ctx.Err(); err != nil {
		return Estimate{}, fmt.Errorf("distcurve: %w", context.Cause(ctx))
	}
	for _, side := range []struct {
		name string
		s    []float64
	}{{"labeled", in.Labeled}, {"unlabeled", in.Unlabeled}} {
		if err := checkScores(side.name, side.s); err != nil {
			return Estimate{}, fmt.Errorf("distcurve: %w", err)
		}
	}
	if rng == nil {
		return Estimate{}, fmt.Errorf("distcurve: no random stream")
	}
	curve, err := distcurve.CurveContext(ctx, in.Labeled, in.Unlabeled, e.repeats, rng)
	if err != nil {
		return Estimate{}, err
	}
	a, err := e.net.Predict(curve)
	if err != nil {
		return Estimate{}, err
	}
	w := sampleWarnings("scores", len(in.Labeled), len(in.Unlabeled), false)
	if w == nil {
		w = []string{}
	}
	return Estimate{Method: DistCurveName, Alpha: a, Beta: 1, Warnings: w}, nil
}

// Compile-time checks.
var (
	_ Config    = (*DistCurve)(nil)
	_ Estimator = (*distCurve)(nil)
)

func init() {
	Register(DistCurveName, func() Config { return &DistCurve{} })
}
