package experiments

import (
	"fmt"
	"math/rand/v2"

	"github.com/pueval/pueval/datasets/pusplit"
)

// SCARFraction is the single-training-set SCAR protocol with a labeled
// fraction of the positives (pusplit.SCARFraction): L = round(f n_P)
// positives drawn without replacement, U = every other row. f is the grid
// axis known-positives (the AUL paper's beta; not the AAAI-2017 beta, the
// positive share of L, which is 1 here). The record's alpha is the class
// prior of U, (n_P - n_L)/(n - n_L). It has no options.
//
//	protocol: {name: scar-fraction}
//	grid: {known-positives: [0.1, 0.2, 0.4]}
type SCARFraction struct{}

func (p *SCARFraction) Name() string                   { return "scar-fraction" }
func (p *SCARFraction) Validate() error                { return nil }
func (p *SCARFraction) Key() string                    { return "scar-fraction/v1" }
func (p *SCARFraction) DatasetOptions() DatasetOptions { return nil }
func (p *SCARFraction) New() (Protocol, error)         { return p, nil }

func (p *SCARFraction) Axes() []AxisUse {
	return []AxisUse{{Name: axisKnownPositives, Default: []string{"0.1", "0.2", "0.4"}}}
}

// Split draws L and U.
func (p *SCARFraction) Split(rng *rand.Rand, in SplitInput) (Split, error) {
	f, ok := in.Cell.Float(axisKnownPositives)
	if !ok {
		return Split{}, fmt.Errorf("scar-fraction: the cell has no %s fraction", axisKnownPositives)
	}
	s, err := pusplit.SCARFraction(rng, in.Data.Y, f)
	return Split{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, err
}

// Compile-time checks.
var (
	_ ProtocolConfig = (*SCARFraction)(nil)
	_ Protocol       = (*SCARFraction)(nil)
)

func init() {
	Protocols.Register("scar-fraction", "SCAR with a labeled fraction of the positives (the AUL paper's beta): L = round(f n_P) positives, U = the rest",
		func() ProtocolConfig { return &SCARFraction{} })
}
