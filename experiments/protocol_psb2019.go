package experiments

import (
	"fmt"
	"math/rand/v2"

	"github.com/pueval/pueval/datasets/pusplit"
)

// PSB2019 is the stratified protocol of Ramola, Jain, Radivojac, PSB 2019
// (package pusplit): L holds n_l examples, round(beta n_l) of them
// positive; alpha is the share of positives among the examples left, and U
// holds n_u of them with round(alpha n_u) positives. It reads the grid axes
// beta (default 1, 0.9, 0.8, 0.7) and labeled (n_l, optional). It has no
// protocol-wide options.
//
//	protocol: {name: psb2019}
//	datasets: [{name: abalone, unlabeled: 2000, labeled: 200}]   # per data set: n_u, n_l
//
// Sizes: n_u is the data set's unlabeled, else the paper's rule (the largest
// of 10,000, 5,000, 2,000, 1,000 for which every beta of the grid fits;
// pusplit.PSBSizes); n_l is the grid's labeled value, else the data set's
// labeled, else n_u/10.
type PSB2019 struct{}

// PSB2019Dataset is psb2019's per-data-set options.
type PSB2019Dataset struct {
	Labeled   int `yaml:"labeled"`   // n_l; 0 = n_u/10
	Unlabeled int `yaml:"unlabeled"` // n_u; 0 = the paper's rule
}

// Validate checks the sizes.
func (o *PSB2019Dataset) Validate() error {
	if o.Labeled < 0 || o.Unlabeled < 0 {
		return fmt.Errorf("labeled = %d, unlabeled = %d: sizes must not be negative (0 = the paper's rule)", o.Labeled, o.Unlabeled)
	}
	return nil
}

func (p *PSB2019) Name() string                   { return "psb2019" }
func (p *PSB2019) Validate() error                { return nil }
func (p *PSB2019) Key() string                    { return "psb2019/v1" }
func (p *PSB2019) DatasetOptions() DatasetOptions { return &PSB2019Dataset{} }
func (p *PSB2019) New() (Protocol, error)         { return p, nil }

func (p *PSB2019) Axes() []AxisUse {
	return []AxisUse{{Name: "beta", Default: []string{"1", "0.9", "0.8", "0.7"}}, {Name: "labeled"}}
}

// Split draws the split with pusplit.PSB2019 at the sizes above.
func (p *PSB2019) Split(rng *rand.Rand, in SplitInput) (Split, error) {
	beta, ok := in.Cell.Float("beta")
	if !ok {
		return Split{}, fmt.Errorf("psb2019: the cell has no beta")
	}
	o, _ := in.Options.(*PSB2019Dataset)
	if o == nil {
		o = &PSB2019Dataset{}
	}
	var nl, nu int
	if o.Unlabeled > 0 {
		nl, nu = o.Labeled, o.Unlabeled
		if nl == 0 {
			nl = nu / 10
		}
	} else {
		var err error
		if nl, nu, err = pusplit.PSBSizes(in.Data.N(), in.Data.NPos(), in.Grid.Floats("beta")); err != nil {
			return Split{}, err
		}
		if o.Labeled > 0 {
			nl = o.Labeled
		}
	}
	if k, ok := in.Cell.Int("labeled"); ok {
		nl = k
	}
	s, err := pusplit.PSB2019(rng, in.Data.Y, nl, nu, beta)
	return Split{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, err
}

// Compile-time checks.
var (
	_ ProtocolConfig = (*PSB2019)(nil)
	_ Protocol       = (*PSB2019)(nil)
	_ DatasetOptions = (*PSB2019Dataset)(nil)
)

func init() {
	Protocols.Register("psb2019", "PSB-2019: stratified; n_l labeled with round(beta n_l) positives, n_u unlabeled at the remaining class ratio",
		func() ProtocolConfig { return &PSB2019{} })
}
