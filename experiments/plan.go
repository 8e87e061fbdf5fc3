package experiments

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/pueval/pueval/classifiers"
)

// Plan is what a config resolves to, one line per part: the protocol, the
// grid, every data set with its source, the classifier, each estimator,
// truth and measure, each with every option (defaults included) in YAML
// flow style, and the report. pueval config check prints it, so that a
// reader sees what a run computes, not only what the file says.
func (c *Config) Plan() string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("experiment: %s (seed %d, repeats %d)", c.Experiment, c.Seed, c.Repeats)
	line("protocol: %s", pluginText(c.Protocol.Name(), c.Protocol))
	if len(c.Grid.Axes) > 0 {
		line("grid: %s", c.Grid.text())
	}
	line("datasets:")
	for _, d := range c.Datasets {
		text := "  " + d.Name + ": source " + pluginText(d.Source.Name(), d.Source)
		if d.Options != nil {
			text += ", options " + optionsText(d.Options)
		}
		if d.OwnGrid {
			text += ", grid " + d.Grid.text()
		}
		if d.OwnRepeats {
			text += fmt.Sprintf(", repeats %d", d.Repeats)
		}
		if d.DegradeToAUC > 0 {
			text += fmt.Sprintf(", scores degraded to AUC %v", d.DegradeToAUC)
		}
		if d.OwnMetrics {
			text += ", measures " + measureNames(d.Metrics)
		}
		line("%s", text)
	}
	switch {
	case c.UsesClassifier():
		line("classifier: %s", pluginText(c.Classifier.Name(), c.Classifier))
	case c.Grid.Values(classifierAxis) != nil:
		line("classifier: the grid's classifier axis:")
		for _, v := range c.Grid.Values(classifierAxis) {
			if clf, ok := v.Value.(classifiers.Config); ok {
				line("  %s: %s", v.Text, pluginText(clf.Name(), clf))
			}
		}
	default:
		line("classifier: none (every data set is a ranking)")
	}
	line("evaluate: %s", c.Evaluate)
	list := func(what string, n int, item func(i int) string) {
		if n == 0 {
			line("%s: none", what)
			return
		}
		line("%s:", what)
		for i := range n {
			line("  %s", item(i))
		}
	}
	list("estimators", len(c.Estimators), func(i int) string {
		e := c.Estimators[i]
		return idText(e.ID, e.Config.Name()) + pluginText("", e.Config)
	})
	list("truths", len(c.Truths), func(i int) string {
		t := c.Truths[i]
		return idText(t.ID, t.Config.Name()) + pluginText("", t.Config)
	})
	list("measures", len(c.Metrics), func(i int) string {
		return pluginText(c.Metrics[i].Config.Name(), c.Metrics[i].Config)
	})
	line("report: %s", c.Report)
	return b.String()
}

// idText is "ID (NAME) " when a plug-in runs under another ID, else "NAME ".
func idText(id, name string) string {
	if id == name {
		return name + " "
	}
	return id + " (" + name + ") "
}

// pluginText is a plug-in's name and its options in YAML flow style.
func pluginText(name string, opts any) string {
	o := optionsText(opts)
	switch {
	case name == "":
		return o
	case o == "{}":
		return name
	}
	return name + " " + o
}

func measureNames(ms []MeasureSpec) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.ID
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// optionsText writes a plug-in's options (its exported YAML fields) in
// YAML flow style on one line.
func optionsText(opts any) string {
	var n yaml.Node
	if err := n.Encode(opts); err != nil {
		return fmt.Sprintf("(options not printable: %v)", err)
	}
	flow(&n)
	out, err := yaml.Marshal(&n)
	if err != nil {
		return fmt.Sprintf("(options not printable: %v)", err)
	}
	return strings.TrimSpace(string(out))
}

func flow(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		flow(c)
	}
}
