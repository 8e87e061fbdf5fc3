package experiments

import (
	"context"
	"fmt"

	"github.com/pueval/pueval/datasets/pusplit"
)

// CaseControl is the protocol "case-control": a noisy case-control split
// (pusplit.CaseControl; the protocol of Jain, White and Radivojac, AAAI
// 2017). L holds n_L examples, round(beta n_L) of them positive; U is every
// remaining example, subsampled to at most max_unlabeled. It reads the grid
// axes beta (default 1) and labeled (n_L, optional).
//
//	protocol: {name: case-control, labeled: 1000, max_unlabeled: 10000}
//	datasets: [{name: pima, labeled: 100}]   # per data set: labeled (n_L)
//
// n_L is the grid's labeled value, else the data set's labeled, else the
// protocol's. A paper that uses the protocol with defaults of its own
// embeds CaseControl and gives its own Name, Key and Axes.
type CaseControl struct {
	Labeled      int `yaml:"labeled"`       // n_L
	MaxUnlabeled int `yaml:"max_unlabeled"` // cap on |U|; 0 = no cap
}

// CaseControlDataset is case-control's per-data-set options.
type CaseControlDataset struct {
	Labeled int `yaml:"labeled"` // n_L of this data set; 0 = the protocol's
}

// Validate checks the size.
func (o *CaseControlDataset) Validate() error {
	if o.Labeled < 0 {
		return fmt.Errorf("labeled = %d: want a positive n_L (or leave it out for the protocol's)", o.Labeled)
	}
	return nil
}

// CaseControlName is the registered name of CaseControl.
const CaseControlName = "case-control"

func (p *CaseControl) Name() string { return CaseControlName }

// Validate checks the sizes.
func (p *CaseControl) Validate() error { return p.ValidateAs(p.Name()) }

// ValidateAs checks the sizes, naming the protocol name in the error.
func (p *CaseControl) ValidateAs(name string) error {
	var errs []error
	if p.Labeled < 1 {
		errs = append(errs, fmt.Errorf("labeled = %d: want a positive n_L", p.Labeled))
	}
	if p.MaxUnlabeled < 0 {
		errs = append(errs, fmt.Errorf("max_unlabeled = %d: want a cap >= 0 (0 = none)", p.MaxUnlabeled))
	}
	return JoinErrors("protocol "+name, errs)
}

func (p *CaseControl) Key() string {
	return fmt.Sprintf("case-control/v1 labeled=%d max_unlabeled=%d", p.Labeled, p.MaxUnlabeled)
}

func (p *CaseControl) Axes() []AxisUse {
	return []AxisUse{{Name: AxisBeta, Default: []string{"1"}}, {Name: AxisLabeled}}
}

func (p *CaseControl) DatasetOptions() DatasetOptions { return &CaseControlDataset{} }

func (p *CaseControl) New() (Protocol, error) { return p, p.Validate() }

// Split draws the split with pusplit.CaseControl from in.Rand.
func (p *CaseControl) Split(_ context.Context, in SplitInput) (Split, error) {
	beta, ok := in.Cell.Float(AxisBeta)
	if !ok {
		return Split{}, fmt.Errorf("the cell has no beta")
	}
	nL := p.Labeled
	if o, ok := in.Options.(*CaseControlDataset); ok && o.Labeled > 0 {
		nL = o.Labeled
	}
	if k, ok := in.Cell.Int(AxisLabeled); ok {
		nL = k
	}
	s, err := pusplit.CaseControl(in.Rand, in.Data.Y, nL, beta, p.MaxUnlabeled)
	return Split{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, err
}

// Compile-time checks.
var (
	_ ProtocolConfig = (*CaseControl)(nil)
	_ Protocol       = (*CaseControl)(nil)
	_ DatasetOptions = (*CaseControlDataset)(nil)
)

func init() {
	Protocols.Register(CaseControlName, "noisy case-control: n_L labeled with round(beta n_L) positives; U = the rest, at most max_unlabeled",
		func() ProtocolConfig { return &CaseControl{Labeled: 1000, MaxUnlabeled: 10000} })
}
