package claesen2015

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/pueval/pueval/experiments"
)

// Protocol is the protocol of Claesen, Davis, De Smet, De Moor 2015
// ("Assessing binary classifiers using only positive and unlabeled data"):
// some positives are known (labeled), perhaps some negatives too, and the
// rest of the data is unlabeled. Two ways to draw a cell, per data set:
//
//   - fractions (the paper's Fig. 5 and appendix tables; the published
//     code's induce_partial_labels): exactly int(kp #positives) known
//     positives and int(kn #negatives) known negatives, drawn without
//     replacement; every other row is unlabeled. kp and kn are the grid
//     axes known-positives and known-negatives (kn default 0).
//   - sizes (Figs. 2 and 4): the data set's unlabeled: N and
//     unlabeled_beta: b give U = round(b N) positives and N - round(b N)
//     negatives, drawn from the rows left after the known positives; the
//     number of known positives is the grid's labeled value, else the data
//     set's labeled. There are no known negatives. A large generated pool
//     (synth-scores with a large n) makes the cells of different repeats
//     nearly independent samples.
//
// The record's alpha is the fraction of positives in U: the paper's beta.
//
//	protocol: {name: claesen2015}
//	datasets:
//	  - {name: covtype, source: {name: scores-file, file: covtype_scores.csv}, grid: {known-positives: [0.05]}}
//	  - {name: d3, source: {...}, unlabeled: 100000, unlabeled_beta: 0.2, grid: {labeled: [100, 1000]}}
type Protocol struct{}

// DatasetOptions is claesen2015's per-data-set options: with Unlabeled
// > 0 the data set is drawn by sizes, otherwise by fractions.
type DatasetOptions struct {
	Unlabeled     int     `yaml:"unlabeled"`      // sizes: |U|
	UnlabeledBeta float64 `yaml:"unlabeled_beta"` // sizes: the fraction of positives in U
	Labeled       int     `yaml:"labeled"`        // sizes: known positives when the grid has no labeled axis
}

// Validate checks the sizes.
func (o *DatasetOptions) Validate() error {
	var errs []error
	if o.Unlabeled < 0 || o.Labeled < 0 {
		errs = append(errs, fmt.Errorf("unlabeled = %d, labeled = %d: sizes must not be negative", o.Unlabeled, o.Labeled))
	}
	if o.Unlabeled > 0 && !(o.UnlabeledBeta > 0 && o.UnlabeledBeta < 1) {
		errs = append(errs, fmt.Errorf("unlabeled_beta = %v: want the fraction of positives in U, in (0, 1)", o.UnlabeledBeta))
	}
	if o.Unlabeled == 0 && (o.UnlabeledBeta != 0 || o.Labeled != 0) {
		errs = append(errs, fmt.Errorf("unlabeled_beta and labeled draw by sizes: give unlabeled too"))
	}
	return experiments.JoinErrors("claesen2015 data set", errs)
}

func (p *Protocol) Name() string                               { return "claesen2015" }
func (p *Protocol) Validate() error                            { return nil }
func (p *Protocol) Key() string                                { return "claesen2015/v1" }
func (p *Protocol) DatasetOptions() experiments.DatasetOptions { return &DatasetOptions{} }
func (p *Protocol) New() (experiments.Protocol, error)         { return p, nil }

func (p *Protocol) Axes() []experiments.AxisUse {
	return []experiments.AxisUse{{Name: experiments.AxisKnownPositives}, {Name: experiments.AxisKnownNegatives}, {Name: "labeled"}}
}

// Split draws the known positives, the known negatives and U.
func (p *Protocol) Split(_ context.Context, in experiments.SplitInput) (experiments.Split, error) {
	o, _ := in.Options.(*DatasetOptions)
	if o == nil {
		o = &DatasetOptions{}
	}
	var pos, neg []int
	for i, y := range in.Data.Y {
		if y {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	kp, hasKP := in.Cell.Float(experiments.AxisKnownPositives)
	kn, _ := in.Cell.Float(experiments.AxisKnownNegatives)
	if o.Unlabeled == 0 {
		if !hasKP {
			return experiments.Split{}, fmt.Errorf("claesen2015: the cell has no %s fraction and the data set no unlabeled size", experiments.AxisKnownPositives)
		}
		nkp, nkn := int(kp*float64(len(pos))), int(kn*float64(len(neg)))
		if nkp < 1 {
			return experiments.Split{}, fmt.Errorf("claesen2015: %v of %d positives is no known positive", kp, len(pos))
		}
		known, restPos := takeRandom(in.Rand, pos, nkp)
		knownNeg, restNeg := takeRandom(in.Rand, neg, nkn)
		return experiments.Split{Labeled: sorted(known), Unlabeled: sorted(append(restPos, restNeg...)), Negatives: sorted(knownNeg)}, nil
	}
	if hasKP || kn > 0 {
		return experiments.Split{}, fmt.Errorf("claesen2015: the data set draws by sizes (unlabeled: %d); the %s and %s axes draw by fractions", o.Unlabeled, experiments.AxisKnownPositives, experiments.AxisKnownNegatives)
	}
	nL := o.Labeled
	if k, ok := in.Cell.Int("labeled"); ok {
		nL = k
	}
	uPos := int(math.Round(o.UnlabeledBeta * float64(o.Unlabeled)))
	uNeg := o.Unlabeled - uPos
	if nL < 1 || nL+uPos > len(pos) || uNeg > len(neg) {
		return experiments.Split{}, fmt.Errorf("claesen2015: %d known positives and U of %d positives and %d negatives need more than the data's %d positives and %d negatives",
			nL, uPos, uNeg, len(pos), len(neg))
	}
	known, restPos := takeRandom(in.Rand, pos, nL)
	up, _ := takeRandom(in.Rand, restPos, uPos)
	un, _ := takeRandom(in.Rand, neg, uNeg)
	return experiments.Split{Labeled: sorted(known), Unlabeled: sorted(append(up, un...))}, nil
}

// takeRandom returns k elements of pool drawn uniformly without replacement
// (a partial Fisher-Yates shuffle of a copy) and the rest.
func takeRandom(rng *rand.Rand, pool []int, k int) (chosen, rest []int) {
	p := append([]int(nil), pool...)
	for i := range k {
		j := i + rng.IntN(len(p)-i)
		p[i], p[j] = p[j], p[i]
	}
	return p[:k], p[k:]
}

func sorted(x []int) []int {
	out := append([]int(nil), x...)
	slices.Sort(out)
	return out
}

// Compile-time checks.
var (
	_ experiments.ProtocolConfig = (*Protocol)(nil)
	_ experiments.Protocol       = (*Protocol)(nil)
	_ experiments.DatasetOptions = (*DatasetOptions)(nil)
)

func init() {
	experiments.Protocols.Register("claesen2015", "Claesen et al. 2015: a fraction (or a number) of the positives known, perhaps some negatives, the rest unlabeled",
		func() experiments.ProtocolConfig { return &Protocol{} })
}
