package experiments

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/pueval/pueval/classifiers"
)

// classifierAxis is the grid axis that varies the classifier: each value is
// a classifier configuration with a label, the value's text in cell IDs.
//
//	grid:
//	  classifier:
//	    - {label: small, name: nnet-bag, bags: 10}
//	    - {label: paper, name: nnet-bag, bags: 100}
//
// A cell of that axis trains (and caches) its own classifier; the config's
// classifier: is then not used.
const classifierAxis = "classifier"

func init() {
	RegisterAxis(Axis{
		Name:     classifierAxis,
		Doc:      "the classifier: each value {label: TEXT, name: NAME, options...}; the label names the value in cell IDs",
		Runner:   true,
		Parse:    parseClassifierValue,
		Examples: [2]string{"{label: small, name: nnet-bag, bags: 10}", "{label: paper, name: nnet-bag, bags: 100}"},
	})
}

// parseClassifierValue decodes one classifier of the axis; its Value is the
// classifiers.Config.
func parseClassifierValue(file string, n *yaml.Node) (AxisValue, Errors) {
	d := &decoder{file: file}
	if n.Kind != yaml.MappingNode {
		d.add(n.Line, "grid.%s: want {label: TEXT, name: NAME, options...}, got %s", classifierAxis, kindName(n))
		return AxisValue{}, d.errs
	}
	m := *n
	m.Content = append([]*yaml.Node(nil), n.Content...)
	label := takeKey(&m, "label")
	switch {
	case label == nil:
		d.add(n.Line, "grid.%s: each value needs a label (it names the value in cell IDs)", classifierAxis)
	case !validID(label.Value):
		d.add(label.Line, "grid.%s: label %q: want letters, digits, '-', '_' or '.'", classifierAxis, label.Value)
	}
	c := d.classifier(&m, "grid."+classifierAxis)
	if len(d.errs) > 0 {
		return AxisValue{}, d.errs
	}
	return AxisValue{Text: label.Value, Value: c}, nil
}

// classifierOf returns the classifier of a cell: its classifier axis value,
// else the config's.
func (c *Config) classifierOf(cell *Cell) classifiers.Config {
	if v, ok := cell.Values[classifierAxis].Value.(classifiers.Config); ok {
		return v
	}
	return c.Classifier
}

// KernelName names the compute kernel(s) of the classifiers the cells
// train (classifiers.KernelName): the config's classifier, or, with a
// classifier axis, the distinct kernels of its values joined by "," ("" when
// none has a kernel, e.g. SVMs), for the run's first line and manifest.
func (c *Config) KernelName() string {
	var names []string
	seen := map[string]bool{}
	add := func(clf classifiers.Config) {
		if k := classifiers.KernelName(clf); k != "" && !seen[k] {
			seen[k] = true
			names = append(names, k)
		}
	}
	axis := false
	for _, d := range c.Datasets {
		for _, v := range d.Grid.Values(classifierAxis) {
			if clf, ok := v.Value.(classifiers.Config); ok {
				axis = true
				add(clf)
			}
		}
	}
	if !axis && c.Classifier != nil {
		add(c.Classifier)
	}
	return strings.Join(names, ",")
}
