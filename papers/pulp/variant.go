package pulp

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/pueval/pueval/experiments"
)

// VariantBase is the pulp-variant value that changes nothing: the config's
// protocol as written.
const VariantBase = "base"

// Variant is one value of the grid axis pulp-variant: the protocol options
// a cell overrides, for a sensitivity study that varies the choices the
// paper leaves open one at a time in a single run (every variant shares
// the rows and folds of its problem, prior and labeling). Its text is
// "base" or overrides joined by "+", each NAME-VALUE:
//
//	labeled-N             |L| (the labeled fraction of P, so the labeled rows per fold)
//	positives-N           |P|
//	folds-K               the cross-validation's K (so the rows per held-out fold)
//	components-K          the mixture's components
//	pca-D                 the dimensions kept before the mixture (0: none)
//	representativeness-S  density or posterior (Protocol.Representativeness)
//
// e.g. "labeled-100", "folds-4+labeled-300", "representativeness-posterior".
type Variant struct {
	Text      string
	overrides []override
}

type override struct {
	name string
	n    int    // the integer options
	s    string // representativeness
}

// variantOptions are the options a variant may override.
var variantOptions = []string{"labeled", "positives", "folds", "components", "pca", "representativeness"}

// ParseVariant parses a pulp-variant value; the error names the part
// that does not parse.
func ParseVariant(text string) (Variant, error) {
	v := Variant{Text: text}
	if text == VariantBase {
		return v, nil
	}
	if text == "" {
		return Variant{}, fmt.Errorf("empty: want %s or NAME-VALUE[+NAME-VALUE...]", VariantBase)
	}
	seen := map[string]bool{}
	for part := range strings.SplitSeq(text, "+") {
		name, val, ok := strings.Cut(part, "-")
		if !ok || !isVariantOption(name) {
			return Variant{}, fmt.Errorf("%q: want NAME-VALUE with NAME one of %s", part, strings.Join(variantOptions, ", "))
		}
		if seen[name] {
			return Variant{}, fmt.Errorf("%q: %s given twice", part, name)
		}
		seen[name] = true
		o := override{name: name}
		if name == "representativeness" {
			if val != RepDensity && val != RepPosterior {
				return Variant{}, fmt.Errorf("%q: want representativeness-%s or representativeness-%s", part, RepDensity, RepPosterior)
			}
			o.s = val
		} else {
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || strconv.Itoa(n) != val {
				return Variant{}, fmt.Errorf("%q: %s wants a non-negative integer in canonical form", part, name)
			}
			o.n = n
		}
		v.overrides = append(v.overrides, o)
	}
	return v, nil
}

func isVariantOption(name string) bool {
	for _, o := range variantOptions {
		if o == name {
			return true
		}
	}
	return false
}

// apply returns s with the variant's overrides.
func (v Variant) apply(s settings) settings {
	for _, o := range v.overrides {
		switch o.name {
		case "labeled":
			s.Labeled = o.n
		case "positives":
			s.Positives = o.n
		case "folds":
			s.Folds = o.n
		case "components":
			s.Components = o.n
		case "pca":
			s.PCA = o.n
		case "representativeness":
			s.Representativeness = o.s
		}
	}
	return s
}

// cellSettings are the protocol's settings with the cell's pulp-variant
// applied, checked.
func (p *Protocol) cellSettings(cell *experiments.Cell) (settings, error) {
	q := p.settings()
	av, ok := cell.Value(axisVariant)
	if !ok {
		return q, nil
	}
	v, ok := av.Value.(Variant)
	if !ok {
		return q, fmt.Errorf("biased-labeling: %s value %q is not a variant", axisVariant, av.Text)
	}
	q = v.apply(q)
	if err := q.validate(); err != nil {
		return q, fmt.Errorf("biased-labeling: %s %s: %w", axisVariant, v.Text, err)
	}
	return q, nil
}

func parseVariantAxis(file string, n *yaml.Node) (experiments.AxisValue, experiments.Errors) {
	if n.Kind != yaml.ScalarNode {
		return experiments.AxisValue{}, experiments.Errors{{File: file, Line: n.Line, Msg: fmt.Sprintf("grid.%s: want a text such as base or labeled-100", axisVariant)}}
	}
	v, err := ParseVariant(n.Value)
	if err != nil {
		return experiments.AxisValue{}, experiments.Errors{{File: file, Line: n.Line, Msg: fmt.Sprintf("grid.%s: %s: %v", axisVariant, n.Value, err)}}
	}
	return experiments.AxisValue{Text: v.Text, Value: v}, nil
}

func init() {
	experiments.RegisterAxis(experiments.Axis{
		Name: axisVariant,
		Doc: "a variant of protocol biased-labeling's options for one cell, for a sensitivity study in one run: base, or NAME-VALUE overrides joined by + " +
			"(labeled-N, positives-N, folds-K, components-K, pca-D, representativeness-density|posterior), e.g. labeled-100",
		Parse:    parseVariantAxis,
		Examples: [2]string{VariantBase, "labeled-100"},
	})
}
