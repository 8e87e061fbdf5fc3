package experiments

import (
	"fmt"
	"math/rand/v2"

	"github.com/pueval/pueval/datasets/pusplit"
)

// AAAI2017 is the protocol of Jain, White, Radivojac, AAAI 2017 (noisy
// case-control; package pusplit): L holds n_L examples, round(beta n_L) of
// them positive; U is every remaining example, subsampled to at most
// max_unlabeled. It reads the grid axes beta (default 1, 0.95, 0.75) and
// labeled (n_L, optional).
//
//	protocol: {name: aaai2017, labeled: 1000, max_unlabeled: 10000}
//	datasets: [{name: pima, labeled: 100}]   # per data set: labeled (n_L)
//
// n_L is the grid's labeled value, else the data set's labeled, else the
// protocol's.
type AAAI2017 struct {
	Labeled      int `yaml:"labeled"`       // n_L
	MaxUnlabeled int `yaml:"max_unlabeled"` // cap on |U|; 0 = no cap
}

// AAAI2017Dataset is aaai2017's per-data-set options.
type AAAI2017Dataset struct {
	Labeled int `yaml:"labeled"` // n_L of this data set; 0 = the protocol's
}

// Validate checks the size.
func (o *AAAI2017Dataset) Validate() error {
	if o.Labeled < 0 {
		return fmt.Errorf("labeled = %d: want a positive n_L (or leave it out for the protocol's)", o.Labeled)
	}
	return nil
}

func (p *AAAI2017) Name() string { return "aaai2017" }

func (p *AAAI2017) Validate() error {
	var errs []error
	if p.Labeled < 1 {
		errs = append(errs, fmt.Errorf("labeled = %d: want a positive n_L", p.Labeled))
	}
	if p.MaxUnlabeled < 0 {
		errs = append(errs, fmt.Errorf("max_unlabeled = %d: want a cap >= 0 (0 = none)", p.MaxUnlabeled))
	}
	return joinErrs("protocol aaai2017", errs)
}

func (p *AAAI2017) Key() string {
	return fmt.Sprintf("aaai2017/v1 labeled=%d max_unlabeled=%d", p.Labeled, p.MaxUnlabeled)
}

func (p *AAAI2017) Axes() []AxisUse {
	return []AxisUse{{Name: "beta", Default: []string{"1", "0.95", "0.75"}}, {Name: "labeled"}}
}

func (p *AAAI2017) DatasetOptions() DatasetOptions { return &AAAI2017Dataset{} }

func (p *AAAI2017) New() (Protocol, error) { return p, p.Validate() }

// Split draws the split with pusplit.AAAI2017.
func (p *AAAI2017) Split(rng *rand.Rand, in SplitInput) (Split, error) {
	beta, ok := in.Cell.Float("beta")
	if !ok {
		return Split{}, fmt.Errorf("aaai2017: the cell has no beta")
	}
	nL := p.Labeled
	if o, ok := in.Options.(*AAAI2017Dataset); ok && o.Labeled > 0 {
		nL = o.Labeled
	}
	if k, ok := in.Cell.Int("labeled"); ok {
		nL = k
	}
	s, err := pusplit.AAAI2017(rng, in.Data.Y, nL, beta, p.MaxUnlabeled)
	return Split{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, err
}

// Compile-time checks.
var (
	_ ProtocolConfig = (*AAAI2017)(nil)
	_ Protocol       = (*AAAI2017)(nil)
	_ DatasetOptions = (*AAAI2017Dataset)(nil)
)

func init() {
	Protocols.Register("aaai2017", "AAAI-2017: n_L labeled with round(beta n_L) positives; U = the rest, at most max_unlabeled",
		func() ProtocolConfig { return &AAAI2017{Labeled: 1000, MaxUnlabeled: 10000} })
}
