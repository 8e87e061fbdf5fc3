package report

import (
	"fmt"
	"html"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pueval/pueval/experiments/results"
)

// fact is one line of the run's facts: a name and its HTML.
type fact struct{ name, html string }

// factsSection is the head of the index page: what a reader needs to judge
// the numbers before reading them - the code and kernel that made them,
// when and where, how complete the run is, and what is known about its
// data (the manifest's warnings, and the data sets it could not use, listed
// with their reasons at the end of the page). Facts the manifest lacks (a
// schema-1 directory, or none) are left out; the record counts and kernels
// come from the records.
func factsSection(in Input) string {
	m := in.Manifest
	var fs []fact
	add := func(name, text string) {
		if text != "" {
			fs = append(fs, fact{name, html.EscapeString(text)})
		}
	}
	add("Experiment", joinNonEmpty(" ", m.Experiment, parens(m.Config)))
	add("Code version", joinNonEmpty(" ", m.CodeVersion, parens(m.GoVersion)))
	kernel := m.Kernel
	if kernel == "" {
		kernel = strings.Join(recordKernels(in.Records), ", ")
	}
	add("Kernel", kernel)
	add("Run", runTimes(m))
	switch v := in.Verify; {
	case v.Problem:
		fs = append(fs, fact{"Verification", `<span class="problem">` + html.EscapeString(v.Line) + "</span>"})
	default:
		add("Verification", v.Line)
	}
	if mc := m.Machine; mc.Host != "" || mc.CPUs > 0 {
		add("Machine", fmt.Sprintf("%s, %s/%s, %d CPUs", mc.Host, mc.OS, mc.Arch, mc.CPUs))
	}
	if cells := cellCounts(m, in.Records); slices.ContainsFunc(in.Records, func(r results.Record) bool { return r.Status == results.StatusFailed }) {
		fs = append(fs, fact{"Cells", html.EscapeString(cells) + " (<a href=\"#failed\">which</a>)"})
	} else {
		add("Cells", cells)
	}
	fs = append(fs, pluginFacts(m)...)
	if len(m.Data) > 0 {
		add("Data sets", fmt.Sprintf("%d: %s", len(m.Data), strings.Join(slices.Sorted(maps.Keys(m.Data)), ", ")))
	}
	if len(m.Warnings) > 0 {
		var b strings.Builder
		b.WriteString("<ul>")
		for _, w := range m.Warnings {
			fmt.Fprintf(&b, "<li>%s</li>", html.EscapeString(w))
		}
		b.WriteString("</ul>")
		fs = append(fs, fact{"Data notes", b.String()})
	}
	if n := len(m.Unavailable); n > 0 {
		fs = append(fs, fact{"Not in this run", fmt.Sprintf("%d data set(s): %s (<a href=\"#missing\">why</a>)",
			n, html.EscapeString(strings.Join(slices.Sorted(maps.Keys(m.Unavailable)), ", ")))})
	}
	if len(fs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<table class=\"facts\">\n")
	for _, f := range fs {
		fmt.Fprintf(&b, "<tr><th>%s</th><td>%s</td></tr>\n", f.name, f.html)
	}
	b.WriteString("</table>\n")
	return b.String()
}

// pluginFacts are the facts of what the run computed: every plug-in with
// its options (the manifest's settings: protocol, classifier, estimators,
// truths, metrics, data sources), the built-in config it derives from with
// the settings that differ, and every setting in a fold. A manifest
// without settings (older ones) gives the plug-ins' IDs.
func pluginFacts(m results.Manifest) []fact {
	s := m.Settings
	if s == nil {
		var fs []fact
		for _, f := range []struct {
			name string
			ids  []string
		}{{"Estimators", m.Estimators}, {"Truths", m.Truths}, {"Metrics", m.Metrics}} {
			if len(f.ids) > 0 {
				fs = append(fs, fact{f.name, html.EscapeString(strings.Join(f.ids, ", "))})
			}
		}
		return fs
	}
	var fs []fact
	add := func(name string, items []string) {
		if len(items) > 0 {
			fs = append(fs, fact{name, htmlList(items)})
		}
	}
	add("Protocol", nonEmpty(s["protocol"]))
	classifiers := nonEmpty(s["classifier"])
	for _, k := range slices.Sorted(maps.Keys(s)) {
		if label, ok := strings.CutPrefix(k, "grid.classifier."); ok {
			classifiers = append(classifiers, label+" (grid): "+s[k])
		}
	}
	add("Classifier", classifiers)
	for _, l := range []struct{ name, list, item string }{
		{"Estimators", "estimators", "estimators."}, {"Truths", "truths", "truths."}, {"Metrics", "metrics", "metrics."},
		{"Data sources", "datasets", ""},
	} {
		var items []string
		for _, id := range splitList(s[l.list]) {
			key := s[l.item+id]
			if l.item == "" {
				key = s["datasets."+id+".source"]
			}
			items = append(items, joinNonEmpty(": ", id, key))
		}
		add(l.name, items)
	}
	if d := m.Derived; d != nil {
		what := "no setting differs"
		if len(d.Differences) > 0 {
			what = fmt.Sprintf("%d setting(s) differ, the built-in config's value first:", len(d.Differences))
		}
		fs = append(fs, fact{"Derived from", html.EscapeString(d.Config+": "+what) + htmlList(d.Differences)})
	}
	var all []string
	for _, k := range slices.Sorted(maps.Keys(s)) {
		all = append(all, k+": "+s[k])
	}
	fs = append(fs, fact{"All settings", fmt.Sprintf("<details><summary>the %d settings that can change a record</summary>%s</details>", len(all), htmlList(all))})
	return fs
}

// htmlList is the items as an HTML list, escaped; "" for none.
func htmlList(items []string) string {
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<ul>")
	for _, it := range items {
		fmt.Fprintf(&b, "<li>%s</li>", html.EscapeString(it))
	}
	b.WriteString("</ul>")
	return b.String()
}

// nonEmpty is []string{s}, or nil for "".
func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// splitList splits a settings list ("a, b"; experiments.Config.Settings).
func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ", ")
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), sep)
}

// parens is "(s)", or "" for an empty s.
func parens(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

// recordKernels are the distinct kernels the records name, sorted.
func recordKernels(recs []results.Record) []string {
	seen := map[string]bool{}
	for _, r := range recs {
		if r.Kernel != "" {
			seen[r.Kernel] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// runTimes is when the run started and finished, in UTC to the minute, with
// its duration; "" without a start.
func runTimes(m results.Manifest) string {
	if m.Started.IsZero() {
		return ""
	}
	start := m.Started.UTC()
	s := start.Format("2006-01-02 15:04")
	if m.Finished == nil {
		return s + " UTC, not finished"
	}
	end := m.Finished.UTC()
	layout := "2006-01-02 15:04"
	if end.Format("2006-01-02") == start.Format("2006-01-02") {
		layout = "15:04"
	}
	return fmt.Sprintf("%s to %s UTC (%s)", s, end.Format(layout), end.Sub(start).Round(time.Second))
}

// cellCounts is the manifest's count of cells done and failed, then the
// records': ok and failed.
func cellCounts(m results.Manifest, recs []results.Record) string {
	ok, failed := 0, 0
	for _, r := range recs {
		switch r.Status {
		case results.StatusOK:
			ok++
		case results.StatusFailed:
			failed++
		}
	}
	rec := fmt.Sprintf("records: %d ok, %d failed", ok, failed)
	if m.Cells == 0 {
		return rec
	}
	return fmt.Sprintf("%d of %d done, %d failed; %s", m.Done, m.Cells, m.Failed, rec)
}
