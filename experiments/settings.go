package experiments

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/classifiers"
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
// Settings, old first: "seed: 11 -> 12; classifier: bags=4 -> bags=5".
// Of a plug-in's options only those that differ are shown. An item added
// to or removed from a list is named by the list's entry alone. It returns
// "" when the settings are the same.
func DiffSettings(old, new map[string]string) string {
	var changed []string
	for _, name := range slices.Sorted(maps.Keys(joinKeys(old, new))) {
		a, inOld := old[name]
		b, inNew := new[name]
		if inOld && inNew && a == b {
			continue
		}
		if (!inOld || !inNew) && parentDiffers(name, old, new) {
			continue // the list's own entry names the item
		}
		switch {
		case !inOld:
			changed = append(changed, name+": (none) -> "+valueText(b))
		case !inNew:
			changed = append(changed, name+": "+valueText(a)+" -> (none)")
		default:
			x, y := differingParts(a, b)
			changed = append(changed, name+": "+x+" -> "+y)
		}
	}
	if len(changed) > maxDiffs {
		changed = append(changed[:maxDiffs], fmt.Sprintf("and %d more", len(changed)-maxDiffs))
	}
	return strings.Join(changed, "; ")
}

func joinKeys[V any](a, b map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// parentDiffers reports whether a setting that encloses name ("datasets"
// for "datasets.pima.source") differs between old and new.
func parentDiffers(name string, old, new map[string]string) bool {
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		p := name[:i]
		a, inOld := old[p]
		b, inNew := new[p]
		if (inOld || inNew) && (a != b || inOld != inNew) {
			return true
		}
	}
	return false
}

func valueText(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// differingParts returns the parts of two plug-in keys that differ. A
// key is its name and version, then options as name=value or as a JSON
// object (an estimator's): "nnet-bag/v3 bags=4 hidden=5". When both values
// are keys of one name and version, only the options that differ are
// returned (of a JSON object, the fields by their path: grid.log_points=7);
// otherwise the whole values.
func differingParts(a, b string) (string, string) {
	fa, okA := keyFields(a)
	fb, okB := keyFields(b)
	if !okA || !okB || fa[""] != fb[""] {
		return valueText(a), valueText(b)
	}
	var da, db []string
	for _, k := range slices.Sorted(maps.Keys(joinKeys(fa, fb))) {
		x, inA := fa[k]
		y, inB := fb[k]
		if x == y && inA == inB {
			continue
		}
		da, db = append(da, k+"="+fieldText(x, inA)), append(db, k+"="+fieldText(y, inB))
	}
	return strings.Join(da, " "), strings.Join(db, " ")
}

func fieldText(v string, ok bool) string {
	if !ok {
		return "(none)"
	}
	return v
}

// keyFields reads a plug-in key into its fields: "" is its first word (the
// name and version), every other its options by name (a JSON object's
// fields by their dotted path). ok is false for a value of another shape.
func keyFields(s string) (map[string]string, bool) {
	w := strings.Fields(s)
	if len(w) < 2 {
		return nil, false
	}
	out := map[string]string{"": w[0]}
	for _, x := range w[1:] {
		if strings.HasPrefix(x, "{") {
			var v any
			if json.Unmarshal([]byte(x), &v) != nil {
				return nil, false
			}
			flattenJSON(out, "", v)
			continue
		}
		k, v, ok := strings.Cut(x, "=")
		if _, dup := out[k]; !ok || k == "" || dup {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

// flattenJSON adds the leaves of a decoded JSON value under their dotted
// paths, each as JSON text.
func flattenJSON(out map[string]string, path string, v any) {
	if m, ok := v.(map[string]any); ok && (len(m) > 0 || path == "") {
		for k, x := range m {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flattenJSON(out, p, x)
		}
		return
	}
	b, _ := json.Marshal(v)
	out[path] = string(b)
}
