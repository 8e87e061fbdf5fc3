package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Verdict is the outcome of checking a paper's claim on the records, shared
// by the papers' claims.md files.
type Verdict int

const (
	NotChecked Verdict = iota // the records lack what the check needs
	Holds
	Fails
)

func (v Verdict) String() string {
	switch v {
	case Holds:
		return "holds"
	case Fails:
		return "does NOT hold"
	}
	return "not checked"
}

// VerdictOf is Holds when ok, else Fails.
func VerdictOf(ok bool) Verdict {
	if ok {
		return Holds
	}
	return Fails
}

// MissingMarkdown is the closing list of a claims.md: the config's data
// sets that did not run, each with the reason ("" when none is missing).
func MissingMarkdown(missing map[string]string) string {
	if len(missing) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nData sets of the config not in this run:\n\n")
	for _, k := range slices.Sorted(maps.Keys(missing)) {
		fmt.Fprintf(&b, "- %s: %s\n", k, missing[k])
	}
	return b.String()
}
