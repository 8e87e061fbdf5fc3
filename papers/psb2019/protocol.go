package psb2019

import (
	"context"
	"fmt"
	"math"

	"github.com/pueval/pueval/experiments"

	"github.com/pueval/pueval/datasets/pusplit"
)

// Protocol is the stratified protocol of Ramola, Jain, Radivojac, PSB 2019
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
type Protocol struct{}

// DatasetOptions is psb2019's per-data-set options.
type DatasetOptions struct {
	Labeled   int `yaml:"labeled"`   // n_l; 0 = n_u/10
	Unlabeled int `yaml:"unlabeled"` // n_u; 0 = the paper's rule
}

// Validate checks the sizes.
func (o *DatasetOptions) Validate() error {
	if o.Labeled < 0 || o.Unlabeled < 0 {
		return fmt.Errorf("labeled = %d, unlabeled = %d: sizes must not be negative (0 = the paper's rule)", o.Labeled, o.Unlabeled)
	}
	return nil
}

func (p *Protocol) Name() string                               { return "psb2019" }
func (p *Protocol) Validate() error                            { return nil }
func (p *Protocol) Key() string                                { return "psb2019/v1" }
func (p *Protocol) DatasetOptions() experiments.DatasetOptions { return &DatasetOptions{} }
func (p *Protocol) New() (experiments.Protocol, error)         { return p, nil }

func (p *Protocol) Axes() []experiments.AxisUse {
	return []experiments.AxisUse{{Name: "beta", Default: []string{"1", "0.9", "0.8", "0.7"}}, {Name: "labeled"}}
}

// Split draws the split with pusplit.Stratified at the sizes above.
func (p *Protocol) Split(_ context.Context, in experiments.SplitInput) (experiments.Split, error) {
	beta, ok := in.Cell.Float("beta")
	if !ok {
		return experiments.Split{}, fmt.Errorf("psb2019: the cell has no beta")
	}
	o, _ := in.Options.(*DatasetOptions)
	if o == nil {
		o = &DatasetOptions{}
	}
	var nl, nu int
	if o.Unlabeled > 0 {
		nl, nu = o.Labeled, o.Unlabeled
		if nl == 0 {
			nl = nu / 10
		}
	} else {
		var err error
		if nl, nu, err = Sizes(in.Data.N(), in.Data.NPos(), in.Grid.Floats("beta")); err != nil {
			return experiments.Split{}, err
		}
		if o.Labeled > 0 {
			nl = o.Labeled
		}
	}
	if k, ok := in.Cell.Int("labeled"); ok {
		nl = k
	}
	s, err := pusplit.Stratified(in.Rand, in.Data.Y, nl, nu, beta)
	return experiments.Split{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, err
}

// Compile-time checks.
var (
	_ experiments.ProtocolConfig = (*Protocol)(nil)
	_ experiments.Protocol       = (*Protocol)(nil)
	_ experiments.DatasetOptions = (*DatasetOptions)(nil)
)

func init() {
	experiments.Protocols.Register("psb2019", "PSB-2019: stratified; n_l labeled with round(beta n_l) positives, n_u unlabeled at the remaining class ratio",
		func() experiments.ProtocolConfig { return &Protocol{} })
}

// Sizes returns the PSB-2019 paper's set sizes for a data set with n
// examples and n1 positives: the largest n_u in {10000, 5000, 2000, 1000}
// such that for every beta in betas the labeled set (n_l = n_u/10, with
// round(beta*n_l) positives) and an unlabeled set of n_u can be drawn, i.e.
// the labeled draw fits in each class and n_l + n_u <= n. The paper does not
// state its rule beyond "10,000 in all data sets with sufficient size,
// otherwise 5000, 2000 or 1000"; this is the natural reading.
func Sizes(n, n1 int, betas []float64) (nL, nU int, err error) {
	for _, u := range []int{10000, 5000, 2000, 1000} {
		l := u / 10
		ok := l+u <= n
		for _, b := range betas {
			kPos := int(math.Round(b * float64(l)))
			// After L, the remaining data must still hold the unlabeled set's share of
			// each class: U needs round(alpha*u) <= remaining positives, which holds
			// when u <= remaining examples, since alpha is the remaining fraction.
			if kPos > n1 || l-kPos > n-n1 {
				ok = false
			}
		}
		if ok {
			return l, u, nil
		}
	}
	return 0, 0, fmt.Errorf("psb2019: a data set of %d examples (%d positive) is too small for n_u = 1000, n_l = 100", n, n1)
}
