package experiments

import (
	"strconv"
	"strings"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/experiments/results"
)

// Settings returns the config's settings that can change a record, by
// name: what Key holds, one entry per part, so that two configs can be
// told apart setting by setting (DiffSettings). A list is an entry of its
// IDs in order ("estimators": "alphamax-n, published") and an entry per
// item ("estimators.published": its plug-in's Key); a data set's parts are
// under "datasets.NAME."; a grid axis is "grid.AXIS" (its values in order).
// Two configs with the same Key have the same settings, and the other way
// round.
func (c *Config) Settings() map[string]string {
	s := map[string]string{
		"experiment": c.Experiment,
		"seed":       strconv.FormatUint(c.Seed, 10),
		"repeats":    strconv.Itoa(c.Repeats),
		"evaluate":   c.Evaluate,
	}
	if c.Protocol != nil {
		s["protocol"] = c.Protocol.Key()
	}
	gridSettings(s, "grid", c.Grid)
	var names []string
	for _, d := range c.Datasets {
		names = append(names, d.Name)
		p := "datasets." + d.Name
		if d.Source != nil {
			s[p+".source"] = d.Source.Key()
		}
		if d.Options != nil {
			s[p+".options"] = optionsText(d.Options)
		}
		if d.OwnGrid || d.OwnRepeats {
			s[p+".grid"], s[p+".repeats"] = d.Grid.text(), strconv.Itoa(d.Repeats)
		}
		if d.DegradeToAUC > 0 {
			s[p+".degrade_to_auc"] = strconv.FormatFloat(d.DegradeToAUC, 'g', -1, 64)
		}
		if d.OwnMetrics {
			listSettings(s, p+".metrics", len(d.Metrics), func(i int) (string, string) { return d.Metrics[i].ID, d.Metrics[i].Config.Key() })
		}
	}
	s["datasets"] = strings.Join(names, ", ")
	if c.Classifier != nil && c.UsesClassifier() {
		s["classifier"] = c.Classifier.Key()
	}
	listSettings(s, "estimators", len(c.Estimators), func(i int) (string, string) { return c.Estimators[i].ID, c.Estimators[i].Config.Key() })
	listSettings(s, "truths", len(c.Truths), func(i int) (string, string) { return c.Truths[i].ID, c.Truths[i].Config.Key() })
	listSettings(s, "metrics", len(c.Metrics), func(i int) (string, string) { return c.Metrics[i].ID, c.Metrics[i].Config.Key() })
	return s
}

// gridSettings adds a grid's axes (in order) and each axis' values; a
// classifier value's options go under "grid.classifier.LABEL".
func gridSettings(s map[string]string, prefix string, g Grid) {
	var axes []string
	for _, a := range g.Axes {
		axes = append(axes, a.Name)
		var texts []string
		for _, v := range a.Values {
			texts = append(texts, v.Text)
			if clf, ok := v.Value.(classifiers.Config); ok {
				s[prefix+"."+a.Name+"."+v.Text] = clf.Key()
			}
		}
		s[prefix+"."+a.Name] = strings.Join(texts, ", ")
	}
	s[prefix] = strings.Join(axes, ", ")
}

// listSettings adds a list of plug-ins: its IDs in order, and each one's key.
func listSettings(s map[string]string, prefix string, n int, item func(i int) (id, key string)) {
	ids := make([]string, n)
	for i := range n {
		id, key := item(i)
		ids[i] = id
		s[prefix+"."+id] = key
	}
	s[prefix] = strings.Join(ids, ", ")
}

// maxDiffs bounds the differences DiffSettings names.
const maxDiffs = 8

// DiffSettings names the settings that differ between two configs'
// Settings, old first: "seed: 11 -> 12; classifier: bags=4 -> bags=5", at
// most maxDiffs of them (results.SettingsDiff, results.DiffText). It
// returns "" when the settings are the same.
func DiffSettings(old, new map[string]string) string {
	return results.DiffText(results.SettingsDiff(old, new), maxDiffs)
}
