package experiments

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Axis is a kind of grid axis: how its values are written in a config and
// what they mean. The config's grid: maps axis names to lists of values;
// the cells of an experiment are every combination of the data sets, the
// axes' values and the repeats. Each value has a canonical text, which is
// part of the cell's ID, its seed and Record.Grid, so two values with the
// same text are the same grid point.
type Axis struct {
	Name string
	// Doc says what the axis means and which values it takes.
	Doc string
	// Runner is true for an axis the runner itself reads (classifier), false
	// for one the protocol reads: a protocol accepts the axes its Axes lists.
	Runner bool
	// Parse decodes one value. Text is its canonical form; Value is what the
	// consumer reads (a float64 for beta, an int for labeled, ...).
	Parse func(file string, n *yaml.Node) (AxisValue, Errors)
	// Examples are two valid, different values as YAML, for documentation
	// and the conformance test.
	Examples [2]string
}

// AxisValue is one value of a grid axis.
type AxisValue struct {
	Text  string // canonical text: cell IDs, seeds, Record.Grid
	Value any    // what the axis' consumer reads
}

var (
	axesMu sync.RWMutex
	axes   = map[string]Axis{}
)

// RegisterAxis adds a kind of grid axis. It panics on an empty or duplicate
// name, a name that cannot appear in a cell ID, or a nil parser.
func RegisterAxis(a Axis) {
	if a.Name == "" || a.Parse == nil || strings.ContainsAny(a.Name, "/= ") || a.Name == "repeat" {
		panic(fmt.Sprintf("experiments: axis %q: want a name without '/', '=' or spaces, not \"repeat\", and a parser", a.Name))
	}
	axesMu.Lock()
	defer axesMu.Unlock()
	if _, dup := axes[a.Name]; dup {
		panic(fmt.Sprintf("experiments: axis %q registered twice", a.Name))
	}
	axes[a.Name] = a
}

// Axes lists the registered axes, sorted by name.
func Axes() []Axis {
	axesMu.RLock()
	defer axesMu.RUnlock()
	out := make([]Axis, 0, len(axes))
	for _, n := range slices.Sorted(maps.Keys(axes)) {
		out = append(out, axes[n])
	}
	return out
}

// LookupAxis returns the registered axis of that name.
func LookupAxis(name string) (Axis, bool) {
	axesMu.RLock()
	defer axesMu.RUnlock()
	a, ok := axes[name]
	return a, ok
}

// Grid is the axes of an experiment with their values, in the config's
// order (which is the order of expansion: the first axis varies slowest).
type Grid struct {
	Axes []GridAxis
}

// GridAxis is one axis of a grid and its values.
type GridAxis struct {
	Name   string
	Values []AxisValue
}

// Values returns the values of the named axis (nil when the grid lacks it).
func (g Grid) Values(name string) []AxisValue {
	for _, a := range g.Axes {
		if a.Name == name {
			return a.Values
		}
	}
	return nil
}

// Floats returns the values of a float-valued axis (beta, ...), in order.
func (g Grid) Floats(name string) []float64 {
	var out []float64
	for _, v := range g.Values(name) {
		if f, ok := v.Value.(float64); ok {
			out = append(out, f)
		}
	}
	return out
}

// mergeGrids returns base with the values of the axes over names replaced
// by over's, and over's other axes added at the end.
func mergeGrids(base, over Grid) Grid {
	var out Grid
	for _, a := range base.Axes {
		if v := over.Values(a.Name); v != nil {
			a = GridAxis{Name: a.Name, Values: v}
		}
		out.Axes = append(out.Axes, a)
	}
	for _, a := range over.Axes {
		if base.Values(a.Name) == nil {
			out.Axes = append(out.Axes, a)
		}
	}
	return out
}

// text is the grid as canonical text, "axis=v1,v2;..." in the grid's order.
func (g Grid) text() string {
	var b strings.Builder
	for i, a := range g.Axes {
		if i > 0 {
			b.WriteString(";")
		}
		b.WriteString(a.Name + "=")
		for j, v := range a.Values {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(v.Text)
		}
	}
	return b.String()
}

// AxisUse is an axis a protocol reads.
type AxisUse struct {
	Name string
	// Default holds the values, as YAML, that the grid gets when the
	// config's grid: lacks the axis; nil makes the axis optional.
	Default []string
}

// decodeGrid reads the config's grid: mapping (nil when absent), adds the
// default axes of the protocol that it lacks, and checks that every axis
// is registered and read by the protocol or the runner (protocol "": no
// protocol is known, so that check is left out).
func decodeGrid(file string, node *yaml.Node, uses []AxisUse, protocol string) (Grid, Errors) {
	return decodeGridNode(file, node, uses, protocol, true)
}

// decodeGridNode is decodeGrid; withDefaults adds the protocol's default
// axes the node lacks (a data set's own grid leaves them to the config's).
func decodeGridNode(file string, node *yaml.Node, uses []AxisUse, protocol string, withDefaults bool) (Grid, Errors) {
	var g Grid
	var errs Errors
	add := func(line int, format string, args ...any) {
		errs = append(errs, FieldError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	accepted := func(name string) bool {
		return slices.ContainsFunc(uses, func(u AxisUse) bool { return u.Name == name })
	}
	parseValues := func(a Axis, list []*yaml.Node) []AxisValue {
		var vals []AxisValue
		seen := map[string]int{}
		for _, vn := range list {
			v, verrs := a.Parse(file, vn)
			if len(verrs) > 0 {
				errs = append(errs, verrs...)
				continue
			}
			if l, dup := seen[v.Text]; dup {
				add(vn.Line, "grid.%s: %s is listed twice (also on line %d)", a.Name, v.Text, l)
				continue
			}
			seen[v.Text] = vn.Line
			vals = append(vals, v)
		}
		return vals
	}
	if node != nil && node.Kind != 0 {
		if node.Kind != yaml.MappingNode {
			add(node.Line, "grid: want a mapping of axis names to lists of values, e.g. grid: {beta: [1, 0.95]}")
			return g, errs
		}
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			a, ok := LookupAxis(k.Value)
			switch {
			case !ok:
				var names []string
				for _, a := range Axes() {
					names = append(names, a.Name)
				}
				add(k.Line, "grid: unknown axis %q (known: %s)", k.Value, strings.Join(names, ", "))
				continue
			case !a.Runner && protocol != "" && !accepted(k.Value):
				var names []string
				for _, u := range uses {
					names = append(names, u.Name)
				}
				add(k.Line, "grid: protocol %s does not read axis %q (it reads: %s)", protocol, k.Value, strings.Join(names, ", "))
				continue
			case slices.ContainsFunc(g.Axes, func(x GridAxis) bool { return x.Name == k.Value }):
				add(k.Line, "grid: axis %q listed twice", k.Value)
				continue
			}
			list := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				list = v.Content
			}
			if len(list) == 0 {
				add(v.Line, "grid.%s: list at least one value", k.Value)
				continue
			}
			g.Axes = append(g.Axes, GridAxis{Name: k.Value, Values: parseValues(a, list)})
		}
	}
	for _, u := range uses {
		if !withDefaults || u.Default == nil || g.Values(u.Name) != nil {
			continue
		}
		a, ok := LookupAxis(u.Name)
		if !ok {
			add(0, "protocol %s reads axis %q, which is not registered", protocol, u.Name)
			continue
		}
		var list []*yaml.Node
		for _, s := range u.Default {
			var n yaml.Node
			if err := yaml.Unmarshal([]byte(s), &n); err != nil || len(n.Content) != 1 {
				add(0, "protocol %s: default %q of axis %s is not YAML", protocol, s, u.Name)
				continue
			}
			list = append(list, n.Content[0])
		}
		g.Axes = append(g.Axes, GridAxis{Name: u.Name, Values: parseValues(a, list)})
	}
	return g, errs
}

// Names of the built-in axes.
const (
	AxisBeta           = "beta"
	AxisLabeled        = "labeled"
	AxisKnownPositives = "known-positives"
	AxisKnownNegatives = "known-negatives"
)

// The built-in axes: those of the generic protocols' vocabulary, which
// several protocols read. A protocol's own axes are registered by its
// package.
func init() {
	RegisterAxis(Axis{
		Name: AxisBeta,
		Doc: "the proportion of positives among the labeled examples (1 = clean labels); " +
			"a number in (0, 1]",
		Parse:    UnitFloatAxis(AxisBeta, false),
		Examples: [2]string{"1", "0.95"},
	})
	RegisterAxis(Axis{
		Name:     AxisLabeled,
		Doc:      "the number of labeled examples, for the protocols that read it; overrides the protocol's and the data set's",
		Parse:    PositiveIntAxis(AxisLabeled),
		Examples: [2]string{"100", "1000"},
	})
	RegisterAxis(Axis{Name: AxisKnownPositives, Doc: "the fraction of the positives whose label is known, in (0, 1)",
		Parse: FractionAxis(AxisKnownPositives, false), Examples: [2]string{"0.05", "0.1"}})
	RegisterAxis(Axis{Name: AxisKnownNegatives, Doc: "the fraction of the negatives whose label is known, in [0, 1)",
		Parse: FractionAxis(AxisKnownNegatives, true), Examples: [2]string{"0", "0.4"}})
}

// AxisParser decodes one value of a grid axis (Axis.Parse).
type AxisParser = func(file string, n *yaml.Node) (AxisValue, Errors)

// UnitFloatAxis parses a number in (0, 1] (or (0, 1) with open). Its text
// is the shortest form that reads back as the same float64 ("0.95", "1"),
// the form cell IDs had before grids had more than one axis.
func UnitFloatAxis(axis string, open bool) AxisParser {
	return func(file string, n *yaml.Node) (AxisValue, Errors) {
		var f float64
		err := n.Decode(&f)
		if err == nil && (math.IsNaN(f) || !(f > 0 && (f < 1 || (!open && f == 1)))) {
			hi := "1]"
			if open {
				hi = "1)"
			}
			err = fmt.Errorf("%v is not in (0, %s", f, hi)
		}
		if err != nil {
			return AxisValue{}, axisError(file, n, axis, cleanYAMLError(err))
		}
		return AxisValue{Text: strconv.FormatFloat(f, 'g', -1, 64), Value: f}, nil
	}
}

// FractionAxis parses a fraction in (0, 1), or [0, 1) with zero, written as
// UnitFloatAxis writes it.
func FractionAxis(axis string, zero bool) AxisParser {
	return func(file string, n *yaml.Node) (AxisValue, Errors) {
		var f float64
		err := n.Decode(&f)
		if err == nil && !(f < 1 && (f > 0 || (zero && f == 0))) {
			err = fmt.Errorf("%v is not in %s, 1)", f, map[bool]string{true: "[0", false: "(0"}[zero])
		}
		if err != nil {
			return AxisValue{}, axisError(file, n, axis, cleanYAMLError(err))
		}
		return AxisValue{Text: strconv.FormatFloat(f, 'g', -1, 64), Value: f}, nil
	}
}

// PositiveIntAxis parses a positive integer.
func PositiveIntAxis(axis string) AxisParser {
	return func(file string, n *yaml.Node) (AxisValue, Errors) {
		var k int
		err := n.Decode(&k)
		if err == nil && k < 1 {
			err = fmt.Errorf("%d is not a positive integer", k)
		}
		if err != nil {
			return AxisValue{}, axisError(file, n, axis, cleanYAMLError(err))
		}
		return AxisValue{Text: strconv.Itoa(k), Value: k}, nil
	}
}

// ChoiceAxis parses one of a fixed set of words; the value is the word.
func ChoiceAxis(axis string, choices ...string) AxisParser {
	return func(file string, n *yaml.Node) (AxisValue, Errors) {
		if n.Kind == yaml.ScalarNode && slices.Contains(choices, n.Value) {
			return AxisValue{Text: n.Value, Value: n.Value}, nil
		}
		want := strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
		return AxisValue{}, Errors{{File: file, Line: n.Line, Msg: fmt.Sprintf("grid.%s: %q: want %s", axis, n.Value, want)}}
	}
}

// axisError is the error of a grid value that does not parse.
func axisError(file string, n *yaml.Node, axis, msg string) Errors {
	return Errors{{File: file, Line: n.Line, Msg: fmt.Sprintf("grid.%s: %s: %s", axis, n.Value, msg)}}
}

// cleanYAMLError drops yaml.v3's "yaml: unmarshal errors:\n  line N: " prefix.
func cleanYAMLError(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": cannot"); i >= 0 && strings.Contains(msg, "line ") {
		return strings.TrimSpace(msg[i+1:])
	}
	return msg
}
