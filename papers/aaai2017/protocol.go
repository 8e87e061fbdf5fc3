package aaai2017

import (
	"context"
	"fmt"

	"github.com/pueval/pueval/experiments"
)

// Protocol is the protocol "aaai2017" of Jain, White and Radivojac (AAAI
// 2017): the noisy case-control split of the core (experiments.CaseControl:
// L holds n_L examples, round(beta n_L) of them positive; U is every
// remaining example, at most max_unlabeled) with the paper's defaults:
// n_L = 1000, |U| at most 10,000, beta in {1, 0.95, 0.75}.
//
//	protocol: {name: aaai2017, labeled: 1000, max_unlabeled: 10000}
//	datasets: [{name: pima, labeled: 100}]   # per data set: labeled (n_L)
type Protocol struct {
	experiments.CaseControl `yaml:",inline"`
}

func (p *Protocol) Name() string    { return Name }
func (p *Protocol) Validate() error { return p.ValidateAs(Name) }

func (p *Protocol) Key() string {
	return fmt.Sprintf("aaai2017/v1 labeled=%d max_unlabeled=%d", p.Labeled, p.MaxUnlabeled)
}

func (p *Protocol) Axes() []experiments.AxisUse {
	return []experiments.AxisUse{{Name: experiments.AxisBeta, Default: []string{"1", "0.95", "0.75"}}, {Name: experiments.AxisLabeled}}
}

func (p *Protocol) New() (experiments.Protocol, error) { return p, p.Validate() }

// Split draws the split as the core's case-control protocol does.
func (p *Protocol) Split(ctx context.Context, in experiments.SplitInput) (experiments.Split, error) {
	s, err := p.CaseControl.Split(ctx, in)
	if err != nil {
		return s, fmt.Errorf("%s: %w", Name, err)
	}
	return s, nil
}

// Compile-time checks.
var (
	_ experiments.ProtocolConfig = (*Protocol)(nil)
	_ experiments.Protocol       = (*Protocol)(nil)
)

func init() {
	experiments.Protocols.Register(Name, "the AAAI-2017 paper's: case-control with n_L = 1000, |U| <= 10,000, beta in {1, 0.95, 0.75}",
		func() experiments.ProtocolConfig {
			return &Protocol{experiments.CaseControl{Labeled: 1000, MaxUnlabeled: 10000}}
		})
}
