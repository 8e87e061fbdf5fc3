package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Claesen2015 is the protocol of Claesen, Davis, De Smet, De Moor 2015
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
type Claesen2015 struct{}

// Claesen2015Dataset is claesen2015's per-data-set options: with Unlabeled
// > 0 the data set is drawn by sizes, otherwise by fractions.
type Claesen2015Dataset struct {
	Unlabeled     int     `yaml:"unlabeled"`      // sizes: |U|
	UnlabeledBeta float64 `yaml:"unlabeled_beta"` // sizes: the fraction of positives in U
	Labeled       int     `yaml:"labeled"`        // sizes: known positives when the grid has no labeled axis
}

// Validate checks the sizes.
func (o *Claesen2015Dataset) Validate() error {
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
	return joinErrs("claesen2015 data set", errs)
}

// The axes of the protocol: fractions of the positives and of the
// negatives whose labels are known.
const (
	axisKnownPositives = "known-positives"
	axisKnownNegatives = "known-negatives"
)

func (p *Claesen2015) Name() string                   { return "claesen2015" }
func (p *Claesen2015) Validate() error                { return nil }
func (p *Claesen2015) Key() string                    { return "claesen2015/v1" }
func (p *Claesen2015) DatasetOptions() DatasetOptions { return &Claesen2015Dataset{} }
func (p *Claesen2015) New() (Protocol, error)         { return p, nil }

func (p *Claesen2015) Axes() []AxisUse {
	return []AxisUse{{Name: axisKnownPositives}, {Name: axisKnownNegatives}, {Name: "labeled"}}
}

// Split draws the known positives, the known negatives and U.
func (p *Claesen2015) Split(rng *rand.Rand, in SplitInput) (Split, error) {
	o, _ := in.Options.(*Claesen2015Dataset)
	if o == nil {
		o = &Claesen2015Dataset{}
	}
	var pos, neg []int
	for i, y := range in.Data.Y {
		if y {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	kp, hasKP := in.Cell.Float(axisKnownPositives)
	kn, _ := in.Cell.Float(axisKnownNegatives)
	if o.Unlabeled == 0 {
		if !hasKP {
			return Split{}, fmt.Errorf("claesen2015: the cell has no %s fraction and the data set no unlabeled size", axisKnownPositives)
		}
		nkp, nkn := int(kp*float64(len(pos))), int(kn*float64(len(neg)))
		if nkp < 1 {
			return Split{}, fmt.Errorf("claesen2015: %v of %d positives is no known positive", kp, len(pos))
		}
		known, restPos := takeRandom(rng, pos, nkp)
		knownNeg, restNeg := takeRandom(rng, neg, nkn)
		return Split{Labeled: sorted(known), Unlabeled: sorted(append(restPos, restNeg...)), Negatives: sorted(knownNeg)}, nil
	}
	if hasKP || kn > 0 {
		return Split{}, fmt.Errorf("claesen2015: the data set draws by sizes (unlabeled: %d); the %s and %s axes draw by fractions", o.Unlabeled, axisKnownPositives, axisKnownNegatives)
	}
	nL := o.Labeled
	if k, ok := in.Cell.Int("labeled"); ok {
		nL = k
	}
	uPos := int(math.Round(o.UnlabeledBeta * float64(o.Unlabeled)))
	uNeg := o.Unlabeled - uPos
	if nL < 1 || nL+uPos > len(pos) || uNeg > len(neg) {
		return Split{}, fmt.Errorf("claesen2015: %d known positives and U of %d positives and %d negatives need more than the data's %d positives and %d negatives",
			nL, uPos, uNeg, len(pos), len(neg))
	}
	known, restPos := takeRandom(rng, pos, nL)
	up, _ := takeRandom(rng, restPos, uPos)
	un, _ := takeRandom(rng, neg, uNeg)
	return Split{Labeled: sorted(known), Unlabeled: sorted(append(up, un...))}, nil
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

// parseFractionAxis parses a fraction in (0, 1), or [0, 1) with zero.
func parseFractionAxis(axis string, zero bool) func(string, *yaml.Node) (AxisValue, Errors) {
	return func(file string, n *yaml.Node) (AxisValue, Errors) {
		var f float64
		err := n.Decode(&f)
		if err == nil && !(f < 1 && (f > 0 || (zero && f == 0))) {
			err = fmt.Errorf("%v is not in %s, 1)", f, map[bool]string{true: "[0", false: "(0"}[zero])
		}
		if err != nil {
			return AxisValue{}, Errors{{File: file, Line: n.Line, Msg: fmt.Sprintf("grid.%s: %s: %v", axis, n.Value, cleanYAMLError(err))}}
		}
		return AxisValue{Text: strconv.FormatFloat(f, 'g', -1, 64), Value: f}, nil
	}
}

// Compile-time checks.
var (
	_ ProtocolConfig = (*Claesen2015)(nil)
	_ Protocol       = (*Claesen2015)(nil)
	_ DatasetOptions = (*Claesen2015Dataset)(nil)
)

func init() {
	RegisterAxis(Axis{Name: axisKnownPositives, Doc: "the fraction of the positives whose label is known, in (0, 1) (claesen2015; scar-fraction: the AUL paper's beta)",
		Parse: parseFractionAxis(axisKnownPositives, false), Examples: [2]string{"0.05", "0.1"}})
	RegisterAxis(Axis{Name: axisKnownNegatives, Doc: "the fraction of the negatives whose label is known, in [0, 1) (claesen2015)",
		Parse: parseFractionAxis(axisKnownNegatives, true), Examples: [2]string{"0", "0.4"}})
	Protocols.Register("claesen2015", "Claesen et al. 2015: a fraction (or a number) of the positives known, perhaps some negatives, the rest unlabeled",
		func() ProtocolConfig { return &Claesen2015{} })
}
