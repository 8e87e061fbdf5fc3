package aul

import (
	"context"
	"fmt"

	"github.com/pueval/pueval/experiments"

	"github.com/pueval/pueval/datasets/pusplit"
)

// Protocol is the single-training-set SCAR protocol with a labeled
// fraction of the positives (pusplit.SCARFraction): L = round(f n_P)
// positives drawn without replacement, U = every other row. f is the grid
// axis known-positives (the AUL paper's beta; not the AAAI-2017 beta, the
// positive share of L, which is 1 here). The record's alpha is the class
// prior of U, (n_P - n_L)/(n - n_L). It has no options.
//
//	protocol: {name: scar-fraction}
//	grid: {known-positives: [0.1, 0.2, 0.4]}
type Protocol struct{}

func (p *Protocol) Name() string                               { return "scar-fraction" }
func (p *Protocol) Validate() error                            { return nil }
func (p *Protocol) Key() string                                { return "scar-fraction/v1" }
func (p *Protocol) DatasetOptions() experiments.DatasetOptions { return nil }
func (p *Protocol) New() (experiments.Protocol, error)         { return p, nil }

func (p *Protocol) Axes() []experiments.AxisUse {
	return []experiments.AxisUse{{Name: experiments.AxisKnownPositives, Default: []string{"0.1", "0.2", "0.4"}}}
}

// Split draws L and U.
func (p *Protocol) Split(_ context.Context, in experiments.SplitInput) (experiments.Split, error) {
	f, ok := in.Cell.Float(experiments.AxisKnownPositives)
	if !ok {
		return experiments.Split{}, fmt.Errorf("scar-fraction: the cell has no %s fraction", experiments.AxisKnownPositives)
	}
	s, err := pusplit.SCARFraction(in.Rand, in.Data.Y, f)
	return experiments.Split{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, err
}

// Compile-time checks.
var (
	_ experiments.ProtocolConfig = (*Protocol)(nil)
	_ experiments.Protocol       = (*Protocol)(nil)
)

func init() {
	experiments.Protocols.Register("scar-fraction", "SCAR with a labeled fraction of the positives (the AUL paper's beta): L = round(f n_P) positives, U = the rest",
		func() experiments.ProtocolConfig { return &Protocol{} })
}
