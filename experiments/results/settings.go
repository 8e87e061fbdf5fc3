package results

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// SettingsDiff lists the settings that differ between two configs'
// settings (Manifest.Settings; experiments.Config.Settings), old first and
// by name: "seed: 11 -> 12", "classifier: bags=4 -> bags=5". Of a plug-in's
// options only those that differ are shown. An item added to or removed
// from a list is named by the list's entry alone. It returns nil when the
// settings are the same.
func SettingsDiff(old, new map[string]string) []string {
	var changed []string
	for _, name := range slices.Sorted(maps.Keys(settingNames(old, new))) {
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
	return changed
}

// DiffText joins a SettingsDiff into one line, "; " between the
// differences, at most max of them and then "and N more"; "" for none.
func DiffText(diffs []string, max int) string {
	if len(diffs) > max {
		diffs = append(slices.Clone(diffs[:max]), fmt.Sprintf("and %d more", len(diffs)-max))
	}
	return strings.Join(diffs, "; ")
}

// settingNames is the union of the names of two settings maps.
func settingNames[V any](a, b map[string]V) map[string]bool {
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
	for _, k := range slices.Sorted(maps.Keys(settingNames(fa, fb))) {
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
