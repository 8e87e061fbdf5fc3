package report

import (
	"fmt"
	"html"
	"path/filepath"
	"strings"
	"time"
)

// Landing is the page that links the reports of several papers'
// reproductions (pueval reproduce-all's index.html), one card per paper.
type Landing struct {
	Title       string
	CodeVersion string // of the pueval that wrote the page
	// Took is the time spent on all the runs and reports (zero: not known).
	Took   time.Duration
	Papers []LandingPaper
}

// LandingPaper is one paper's card: its runs, in the order they ran.
type LandingPaper struct {
	Paper string // the paper's name (its folder papers/NAME)
	Runs  []LandingRun
}

// LandingRun is one run of a paper's reproduction.
type LandingRun struct {
	Config string // the built-in config it ran
	// Report is index.html of its report, relative to the landing page;
	// empty when the run has no report (Missing says why).
	Report  string
	Missing string
	// Overview is the report's overview (zero when Report is empty).
	Overview Overview
	// Took is the wall-clock time spent on the run and its report (zero:
	// not known).
	Took time.Duration
}

// WriteLanding writes the landing page l to dir/index.html.
func WriteLanding(dir string, l Landing) error {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title>
<style>
body { font-family: sans-serif; max-width: 1400px; margin: 1em auto; padding: 0 1em; line-height: 1.35; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(380px, 1fr)); gap: 1em; }
.card { border: 1px solid #ccc; border-radius: 6px; padding: 0.6em 1em; }
.card h2 { font-size: 120%%; margin: 0.2em 0 0.5em; }
.card ul { margin: 0.3em 0; padding-left: 1.2em; }
.paper { color: #777; } .problem { color: #a33; } .ok { color: #262; }
p, li { overflow-wrap: anywhere; }
</style></head><body>
<h1>%s</h1>
`, html.EscapeString(l.Title), html.EscapeString(l.Title))
	took := "not measured"
	if l.Took > 0 {
		took = formatDuration(l.Took)
	}
	fmt.Fprintf(&b, "<p>Written by pueval %s. Each card: the paper's claims checked on the records, each run's records "+
		"compared with the digests of a reference run of its config (pueval verify), the cells, the time spent on the run and "+
		"its report (%s for all), and the links to the reports.</p>\n", html.EscapeString(l.CodeVersion), took)
	b.WriteString("<div class=\"cards\">\n")
	for _, p := range l.Papers {
		b.WriteString(landingCard(p))
	}
	b.WriteString("</div>\n<h2>Reports</h2>\n<ul>\n")
	for _, p := range l.Papers {
		for _, r := range p.Runs {
			if r.Report != "" {
				fmt.Fprintf(&b, "<li><a href=\"%s\">%s</a>: %s</li>\n", html.EscapeString(r.Report), html.EscapeString(r.Config), html.EscapeString(r.Overview.Title))
			}
		}
	}
	b.WriteString("</ul>\n</body></html>\n")
	return WriteFile(filepath.Join(dir, "index.html"), []byte(b.String()))
}

// landingCard is the HTML of one paper's card: the title (linking the first
// run's report), the claims over its runs, then per run its report, the
// verification, the cells and the time.
func landingCard(p LandingPaper) string {
	var b strings.Builder
	b.WriteString("<div class=\"card\">\n")
	title := p.Paper
	for _, r := range p.Runs {
		if r.Report != "" && r.Overview.Title != "" {
			title = r.Overview.Title
			break
		}
	}
	link := ""
	for _, r := range p.Runs {
		if r.Report != "" {
			link = r.Report
			break
		}
	}
	if link != "" {
		fmt.Fprintf(&b, "<h2><a href=\"%s\">%s</a></h2>\n", html.EscapeString(link), html.EscapeString(title))
	} else {
		fmt.Fprintf(&b, "<h2>%s</h2>\n", html.EscapeString(title))
	}
	fmt.Fprintf(&b, "<p class=\"paper\">papers/%s</p>\n", html.EscapeString(p.Paper))
	// One run: its claims head the card. Several (aul's three): each run's
	// report checks the claims its records allow, some of them the same
	// claims on other scores, so each run lists its own.
	if len(p.Runs) == 1 {
		fmt.Fprintf(&b, "<p>Claims: %s</p>\n", claimsText(p.Runs[0].Overview.Claims))
	}
	b.WriteString("<ul>\n")
	var took time.Duration
	for _, r := range p.Runs {
		b.WriteString(landingRun(r, len(p.Runs) > 1))
		took += r.Took
	}
	b.WriteString("</ul>\n")
	if took > 0 {
		fmt.Fprintf(&b, "<p>Time: %s.</p>\n", formatDuration(took))
	}
	b.WriteString("</div>\n")
	return b.String()
}

// landingRun is one run's item of a card, with the claims of its report
// when withClaims.
func landingRun(r LandingRun, withClaims bool) string {
	if r.Report == "" {
		return fmt.Sprintf("<li>%s: <span class=\"problem\">no report: %s</span></li>\n", html.EscapeString(r.Config), html.EscapeString(r.Missing))
	}
	o := r.Overview
	cells := fmt.Sprintf("%d of %d cells", o.Records, o.Cells)
	if o.Failed > 0 {
		cells += fmt.Sprintf(", <span class=\"problem\">%d failed</span>", o.Failed)
	}
	verify := html.EscapeString(o.Verify.Line)
	switch {
	case o.Verify.Line == "":
		verify = "not compared with a reference"
	case o.Verify.Problem:
		verify = "<span class=\"problem\">" + verify + "</span>"
	}
	s := fmt.Sprintf("<li><a href=\"%s\">%s</a>: %s; verify: %s", html.EscapeString(r.Report), html.EscapeString(r.Config), cells, verify)
	if r.Took > 0 {
		s += fmt.Sprintf("; %s", formatDuration(r.Took))
	}
	if withClaims {
		s += "; claims: " + claimsText(o.Claims)
	}
	return s + "</li>\n"
}

// claimsText counts a report's claims by verdict, those that do not hold
// marked as a problem (nil: the report checks no claims).
func claimsText(c *ClaimCounts) string {
	if c == nil {
		return "its report checks no claim as pass or fail (see its tables)."
	}
	not := fmt.Sprintf("%d do NOT hold", c.DoNotHold)
	if c.DoNotHold > 0 {
		not = "<span class=\"problem\">" + not + "</span>"
	}
	return fmt.Sprintf("%d hold, %s, %d not checked.", c.Hold, not, c.NotChecked)
}

// formatDuration is d to the second, as "1 h 2 min 3 s", "2 min 3 s" or "3 s".
func formatDuration(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	switch {
	case s >= 3600:
		return fmt.Sprintf("%d h %d min %d s", s/3600, s%3600/60, s%60)
	case s >= 60:
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("%d s", s)
}
