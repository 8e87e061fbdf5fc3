package report

import (
	"fmt"
	"html"
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

// VerdictOf is Holds when ok, else Fails. Call it only once the comparison
// was made on values from the records: a check with nothing to compare is
// NotChecked, not a vacuous pass.
func VerdictOf(ok bool) Verdict {
	if ok {
		return Holds
	}
	return Fails
}

// VerdictOver is the verdict of a claim about every one of some units
// (measures, scenarios, data sets, cells), from how many of them passed the
// comparison, how many failed it and how many could not be compared (the
// records lack a value). One failure refutes the claim; it holds only when
// every unit was compared and passed; anything else leaves it unchecked, so
// that a unit without values never counts as a pass or as a failure.
func VerdictOver(passed, failed, uncompared int) Verdict {
	switch {
	case failed > 0:
		return Fails
	case passed == 0 || uncompared > 0:
		return NotChecked
	}
	return Holds
}

// Claim is one of a paper's claims checked on the records: where the paper
// makes it, what it says, the comparison the reproduction makes, the
// verdict and the numbers behind it. Every paper's claims are Claims, so
// that the verdicts are counted and tested the same way; each paper keeps
// the line layout its claims.md has always had (String covers the common
// two).
type Claim struct {
	N       int    // its number in the paper's list of claims (0: unnumbered)
	Item    string // where the paper makes it: "Fig. 2", "Sec. 4, Table 1"
	Paper   string // what the paper claims, in its words and numbers ("" when Test restates it)
	Test    string // the comparison made on the records
	Verdict Verdict
	Detail  string // the values compared, or why no comparison could be made
}

// String is the claim's line. With the paper's own statement it is
// "N. Item: the paper: Paper. Test: Test: verdict. Measured: Detail" (no
// "N. " when unnumbered); without it, "Item: Test: verdict (Detail)". The
// detail is left out when empty.
func (c Claim) String() string {
	if c.Paper == "" {
		s := fmt.Sprintf("%s: %s: %s", c.Item, c.Test, c.Verdict)
		if c.Detail != "" {
			s += " (" + c.Detail + ")"
		}
		return s
	}
	s := fmt.Sprintf("%s: the paper: %s. Test: %s: %s", c.Item, c.Paper, c.Test, c.Verdict)
	if c.N > 0 {
		s = fmt.Sprintf("%d. %s", c.N, s)
	}
	if c.Detail != "" {
		s += ". Measured: " + c.Detail
	}
	return s
}

// CountVerdicts counts the claims that hold, that do not and that could not
// be checked.
func CountVerdicts(claims []Claim) (held, failed, open int) {
	for _, c := range claims {
		switch c.Verdict {
		case Holds:
			held++
		case Fails:
			failed++
		default:
			open++
		}
	}
	return held, failed, open
}

// ClaimsSummary is the one-sentence count of the verdicts:
// "3 hold, 1 do not, 2 could not be checked on these records."
func ClaimsSummary(claims []Claim) string {
	held, failed, open := CountVerdicts(claims)
	return fmt.Sprintf("%d hold, %d do not, %d could not be checked on these records.", held, failed, open)
}

// ClaimsList is the claims as a Markdown list, one "- " line each, laid
// out by line (Claim.String for most papers).
func ClaimsList(claims []Claim, line func(Claim) string) string {
	var b strings.Builder
	for _, c := range claims {
		b.WriteString("- " + line(c) + "\n")
	}
	return b.String()
}

// ClaimsMarkdown is a claims.md: the heading, intro (paragraphs, each
// ending in a blank line; "" for none), the claims' list and the config's
// data sets that did not run.
func ClaimsMarkdown(heading, intro string, claims []Claim, line func(Claim) string, missing map[string]string) string {
	return "# " + heading + "\n\n" + intro + ClaimsList(claims, line) + MissingMarkdown(missing)
}

// ClaimsHTML is the claims as an HTML list, laid out by line, a claim that
// does not hold marked as a problem (class "problem", the page's red): red
// is kept for what went wrong, so that it stands out.
func ClaimsHTML(claims []Claim, line func(Claim) string) string {
	var b strings.Builder
	b.WriteString("<ul>\n")
	for _, c := range claims {
		cls := ""
		if c.Verdict == Fails {
			cls = ` class="problem"`
		}
		fmt.Fprintf(&b, "<li%s>%s</li>\n", cls, html.EscapeString(line(c)))
	}
	b.WriteString("</ul>\n")
	return b.String()
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
