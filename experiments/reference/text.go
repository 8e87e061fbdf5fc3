package reference

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// maxListed bounds the settings and data sets a cause names.
const maxListed = 6

// causes are the likely causes of res's differences that the run's
// manifest and the reference's header show, the most likely first.
func causes(res *Result, h Header, man results.Manifest) []string {
	var out []string
	if man.ConfigKey != "" && man.ConfigKey != h.ConfigKey {
		out = append(out, "another config: "+settingsDiff(man.Settings, h.Settings))
	}
	if d := dataDiff(res, man.Data, h.Data); d != "" {
		out = append(out, d)
	}
	if v := otherVersions(man, h.CodeVersion); len(v) > 0 {
		out = append(out, fmt.Sprintf("another code version: %s here, %s in the reference", strings.Join(v, ", "), h.CodeVersion))
	}
	if len(res.Missing) > 0 && man.Finished == nil {
		out = append(out, fmt.Sprintf("the run has not finished (%d cells missing): run the same command again to finish it", len(res.Missing)))
	}
	if slices.ContainsFunc(res.Differ, func(d Diff) bool { return slices.Contains(d.Fields, "status") }) {
		out = append(out, "some cells failed in one run and not in the other: their records' error says why")
	}
	if len(out) == 0 && len(res.Differ) > 0 {
		out = append(out, fmt.Sprintf("none that the manifests show (the same config, data and code version as the reference, "+
			"whose records are the same bits on every CPU; here %s, the reference %s): unless the records were edited, "+
			"a bug of pueval, worth reporting with this directory", platform(man.Machine, man.Kernel), platform(h.Machine, h.Kernel)))
	}
	return out
}

// platform is where a run ran: "linux/amd64, kernel avx512".
func platform(m results.Machine, kernel string) string {
	s := orUnknown(m.OS) + "/" + orUnknown(m.Arch)
	if kernel != "" {
		s += ", kernel " + kernel
	}
	return s
}

// settingsDiff names the settings whose values differ between the run's
// and the reference's config, or says that the manifest keeps none.
func settingsDiff(here, ref map[string]string) string {
	if len(here) == 0 || len(ref) == 0 {
		return "its config key differs from the reference's (the manifests keep no settings to compare)"
	}
	names := map[string]bool{}
	for k := range here {
		names[k] = true
	}
	for k := range ref {
		names[k] = true
	}
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(names)) {
		a, inHere := here[k]
		b, inRef := ref[k]
		switch {
		case !inHere:
			diffs = append(diffs, fmt.Sprintf("%s (only the reference's: %s)", k, b))
		case !inRef:
			diffs = append(diffs, fmt.Sprintf("%s (only this run's: %s)", k, a))
		case a != b:
			diffs = append(diffs, fmt.Sprintf("%s (here %s, the reference %s)", k, a, b))
		}
	}
	if len(diffs) == 0 {
		return "its config key differs from the reference's, though no setting the manifests keep does"
	}
	return "settings that differ: " + listSome(diffs)
}

// dataDiff names the data sets of the cells that differ, are missing or
// are extra whose fingerprints differ from the reference's ("" if none).
func dataDiff(res *Result, here, ref map[string]string) string {
	involved := map[string]bool{}
	for _, d := range res.Differ {
		involved[datasetOf(d.Cell)] = true
	}
	for _, id := range slices.Concat(res.Missing, res.Extra) {
		involved[datasetOf(id)] = true
	}
	var diffs []string
	for _, ds := range slices.Sorted(maps.Keys(involved)) {
		a, b := here[ds], ref[ds]
		if a != "" && b != "" && a != b {
			diffs = append(diffs, fmt.Sprintf("%s (fingerprint %s here, %s in the reference)", ds, short(a), short(b)))
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return "other data: " + listSome(diffs)
}

// otherVersions are the code versions that wrote the run (its shards' and
// continuations' too) other than ref, in order of appearance.
func otherVersions(man results.Manifest, ref string) []string {
	var vs []string
	add := func(v string) {
		if v != "" && v != ref && !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	add(man.CodeVersion)
	for _, s := range man.Shards {
		add(s.CodeVersion)
	}
	for _, r := range man.Runs {
		add(r.CodeVersion)
	}
	return vs
}

// listSome joins the first maxListed items, saying how many more there are.
func listSome(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(items[:maxListed], "; "), len(items)-maxListed)
}

// short is the first 12 characters of a fingerprint.
func short(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// Line is the verdict in one line: "identical to the reference run (N
// cells)", the same on the part of the grid the run holds, or what differs
// with the first likely cause.
func (r *Result) Line() string {
	s := r.verdict()
	if !r.OK() && len(r.Causes) > 0 {
		s += " (likely cause: " + r.Causes[0] + ")"
	}
	return s
}

// verdict is Line without the cause.
func (r *Result) verdict() string {
	if r.OK() {
		if r.NotSelected == 0 && len(r.Unavailable) == 0 && len(r.RefUnavailable) == 0 {
			return fmt.Sprintf("identical to the reference run (%d cells)", r.Identical)
		}
		return fmt.Sprintf("identical to the reference run on the %d cells both hold (%s)", r.Identical, r.notHeld())
	}
	var parts []string
	if n := len(r.Differ); n > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d cells differ", n, r.Compared))
	}
	if n := len(r.Missing); n > 0 {
		parts = append(parts, fmt.Sprintf("%d missing", n))
	}
	if n := len(r.Extra); n > 0 {
		parts = append(parts, fmt.Sprintf("%d not in the reference", n))
	}
	if r.Compared == 0 && len(parts) == 0 {
		parts = append(parts, "no cell of the reference in this run")
	}
	return "DIFFERS from the reference run: " + strings.Join(parts, ", ")
}

// notHeld says which reference cells the run does not hold, and why.
func (r *Result) notHeld() string {
	var parts []string
	if r.NotSelected > 0 {
		parts = append(parts, fmt.Sprintf("%d more outside its selection", r.NotSelected))
	}
	for _, ds := range slices.Sorted(maps.Keys(r.Unavailable)) {
		parts = append(parts, fmt.Sprintf("%d of data set %s, which it could not use", r.Unavailable[ds], ds))
	}
	s := ""
	if len(parts) > 0 {
		s = "the reference's other cells: " + strings.Join(parts, ", ")
	}
	var own []string
	for _, ds := range slices.Sorted(maps.Keys(r.RefUnavailable)) {
		own = append(own, fmt.Sprintf("%d of data set %s, which the reference run could not use", r.RefUnavailable[ds], ds))
	}
	if len(own) > 0 {
		if s != "" {
			s += "; "
		}
		s += "not compared: " + strings.Join(own, ", ")
	}
	return s
}

// Text is the comparison in full: the verdict (Line without its cause),
// where the reference comes from, then (when not OK) the cells that differ with their field groups,
// the missing and extra cells (at most maxCells of each list), the field
// groups that differ with their counts, and every likely cause.
func (r *Result) Text(maxCells int) string {
	var b strings.Builder
	h := r.Reference.Header
	fmt.Fprintf(&b, "%s\n", r.verdict())
	fmt.Fprintf(&b, "reference: %s: %s, %d cells, code version %s, %s\n", r.Reference.Source, h.Experiment,
		len(r.Reference.Cells), orUnknown(h.CodeVersion), platform(h.Machine, h.Kernel))
	if r.OK() {
		return b.String()
	}
	count := map[string]int{}
	for i, d := range r.Differ {
		for _, f := range d.Fields {
			count[f]++
		}
		if i < maxCells {
			what := strings.Join(d.Fields, ", ")
			if what == "" {
				what = "the record differs, though no field group's digest does"
			}
			fmt.Fprintf(&b, "  differs: %s: %s\n", d.Cell, what)
		}
	}
	more(&b, len(r.Differ), maxCells, "differing cells")
	for _, l := range []struct {
		what string
		ids  []string
	}{{"missing", r.Missing}, {"not in the reference", r.Extra}} {
		for i, id := range l.ids {
			if i < maxCells {
				fmt.Fprintf(&b, "  %s: %s\n", l.what, id)
			}
		}
		more(&b, len(l.ids), maxCells, l.what+" cells")
	}
	if len(count) > 0 {
		var fs []string
		for _, f := range slices.Sorted(maps.Keys(count)) {
			fs = append(fs, fmt.Sprintf("%s (%d)", f, count[f]))
		}
		fmt.Fprintf(&b, "field groups that differ (cells): %s\n", strings.Join(fs, ", "))
	}
	for _, c := range r.Causes {
		fmt.Fprintf(&b, "likely cause: %s\n", c)
	}
	return b.String()
}

// more notes the items of a list of n beyond the limit shown.
func more(b *strings.Builder, n, limit int, what string) {
	if n > limit {
		fmt.Fprintf(b, "  ... and %d more %s\n", n-limit, what)
	}
}
