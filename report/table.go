package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"html"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Table is a table of reproduced numbers, each optionally beside the value
// a paper published, rendered as Markdown, LaTeX, CSV and HTML. Rows start
// with label cells (what the row is: data set, beta, sizes, run counts) and
// continue with one number per value column.
type Table struct {
	Caption string   // first line of the Markdown, a comment in LaTeX; not in CSV or HTML
	Labels  []Column // the leading columns that say what a row is
	Values  []Column // the columns of numbers
	Rows    []Row
	// Compared says the table has published values: the CSV then has, for
	// every value column X, the columns X, X_paper and X_diff (empty where a
	// row has no published counterpart), so its layout does not depend on
	// which rows the paper happens to have.
	Compared bool
	Notes    []string // after the Markdown table and the HTML table; not in LaTeX or CSV
}

// Column is a column of a Table.
type Column struct {
	Name    string // header in Markdown and HTML, and in CSV unless CSV is set
	CSV     string // header in CSV; empty: Name
	LaTeX   string // header in LaTeX, as LaTeX; empty: Name escaped
	NoLaTeX bool   // left out of the LaTeX table (e.g. run counts, which papers do not print)
	Signed  bool   // a value column of signed numbers: "+0.012" rather than "0.012"
}

// Row is a row of a Table.
type Row struct {
	Labels []Label   // one per label column
	Values []float64 // one per value column; NaN: no value ("-", empty in CSV)
	// Paper holds the published values, one per value column (NaN where the
	// paper has none); nil when the paper has no such row.
	Paper []float64
	// NotComparable, when set, says why the row is not comparable with the
	// paper's (e.g. the data differ): its published values still show, but
	// the summary rows (Summary) leave it out. The table's notes should say
	// it where a reader sees the row.
	NotComparable string
}

// Label is a label cell, with its text in the formats that need another.
type Label struct {
	Text  string // in Markdown and HTML (escaped there), and in CSV and LaTeX unless set
	CSV   string // empty: Text
	LaTeX string // as LaTeX; empty: Text escaped
}

func (c Column) csvName() string {
	if c.CSV != "" {
		return c.CSV
	}
	return c.Name
}

func (c Column) latexName() string {
	if c.LaTeX != "" {
		return c.LaTeX
	}
	return LaTeXEscape(c.Name)
}

func (l Label) csvText() string {
	if l.CSV != "" {
		return l.CSV
	}
	return l.Text
}

func (l Label) latexText() string {
	if l.LaTeX != "" {
		return l.LaTeX
	}
	return LaTeXEscape(l.Text)
}

// label and value tolerate short rows (a missing cell is empty or NaN)
// rather than panic while a report is being written.
func (r Row) label(i int) Label {
	if i < len(r.Labels) {
		return r.Labels[i]
	}
	return Label{}
}

func (r Row) value(i int) float64 {
	if i < len(r.Values) {
		return r.Values[i]
	}
	return math.NaN()
}

// paper returns the published value of column i and whether the row has a
// published counterpart at all.
func (r Row) paper(i int) (float64, bool) {
	if r.Paper == nil {
		return math.NaN(), false
	}
	if i < len(r.Paper) {
		return r.Paper[i], true
	}
	return math.NaN(), true
}

func (c Column) format(x float64) string {
	if c.Signed {
		return signed3(x)
	}
	return f3(x)
}

// f3 formats a number at the papers' three decimals; NaN is "-".
func f3(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// signed3 is f3 with an explicit sign, for differences and signed errors.
func signed3(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	if x >= 0 {
		return "+" + strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// csvNumber keeps six significant digits, enough to recompute what the
// tables print; NaN is an empty field.
func csvNumber(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// mdEscape keeps a pipe in a cell from ending it.
func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// LaTeXEscape escapes the characters LaTeX treats specially in text.
func LaTeXEscape(s string) string {
	return latexReplacer.Replace(s)
}

var latexReplacer = strings.NewReplacer(
	`\`, `\textbackslash{}`, `&`, `\&`, `%`, `\%`, `$`, `\$`, `#`, `\#`, `_`, `\_`,
	`{`, `\{`, `}`, `\}`, `~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`)

// Markdown renders the table after its caption; a value with a published
// counterpart reads "ours (paper, ours - paper)".
func (t Table) Markdown() string {
	var b strings.Builder
	if t.Caption != "" {
		fmt.Fprintf(&b, "%s\n\n", t.Caption)
	}
	b.WriteString("|")
	for _, c := range t.Labels {
		fmt.Fprintf(&b, " %s |", mdEscape(c.Name))
	}
	for _, c := range t.Values {
		fmt.Fprintf(&b, " %s |", mdEscape(c.Name))
	}
	b.WriteString("\n|" + strings.Repeat("---|", len(t.Labels)+len(t.Values)) + "\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for i := range t.Labels {
			fmt.Fprintf(&b, " %s |", mdEscape(r.label(i).Text))
		}
		for i, c := range t.Values {
			v := r.value(i)
			if p, ok := r.paper(i); ok {
				fmt.Fprintf(&b, " %s (%s, %s) |", c.format(v), c.format(p), signed3(v-p))
			} else {
				fmt.Fprintf(&b, " %s |", c.format(v))
			}
		}
		b.WriteString("\n")
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "\nNote: %s\n", n)
	}
	return b.String()
}

// LaTeX renders the table as a tabular, the caption as a comment above it;
// a value with a published counterpart reads "ours (paper)", the papers'
// tables being too wide for the difference.
func (t Table) LaTeX() string {
	var labels, values []int
	for i, c := range t.Labels {
		if !c.NoLaTeX {
			labels = append(labels, i)
		}
	}
	for i, c := range t.Values {
		if !c.NoLaTeX {
			values = append(values, i)
		}
	}
	var b strings.Builder
	if t.Caption != "" {
		// One comment line per caption line: a newline would end the comment.
		for _, line := range strings.Split(t.Caption, "\n") {
			fmt.Fprintf(&b, "%% %s\n", line)
		}
	}
	spec := ""
	if n := len(labels) + len(values); n > 0 {
		spec = "l" + strings.Repeat("r", n-1)
	}
	fmt.Fprintf(&b, "\\begin{tabular}{%s}\n\\hline\n", spec)
	var head []string
	for _, i := range labels {
		head = append(head, t.Labels[i].latexName())
	}
	for _, i := range values {
		head = append(head, t.Values[i].latexName())
	}
	b.WriteString(strings.Join(head, " & ") + " \\\\\n\\hline\n")
	for _, r := range t.Rows {
		var cells []string
		for _, i := range labels {
			cells = append(cells, r.label(i).latexText())
		}
		for _, i := range values {
			c, v := t.Values[i], r.value(i)
			if p, ok := r.paper(i); ok {
				cells = append(cells, fmt.Sprintf("%s (%s)", c.format(v), c.format(p)))
			} else {
				cells = append(cells, c.format(v))
			}
		}
		b.WriteString(strings.Join(cells, " & ") + " \\\\\n")
	}
	b.WriteString("\\hline\n\\end{tabular}\n")
	return b.String()
}

// CSV renders the table with full-precision numbers (six significant
// digits); a Compared table has, for each value column X, X, X_paper and
// X_diff.
func (t Table) CSV() string {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	var head []string
	for _, c := range t.Labels {
		head = append(head, c.csvName())
	}
	for _, c := range t.Values {
		if t.Compared {
			head = append(head, c.csvName(), c.csvName()+"_paper", c.csvName()+"_diff")
		} else {
			head = append(head, c.csvName())
		}
	}
	w.Write(head)
	for _, r := range t.Rows {
		var rec []string
		for i := range t.Labels {
			rec = append(rec, r.label(i).csvText())
		}
		for i := range t.Values {
			v := r.value(i)
			if t.Compared {
				p, _ := r.paper(i)
				rec = append(rec, csvNumber(v), csvNumber(p), csvNumber(v-p))
			} else {
				rec = append(rec, csvNumber(v))
			}
		}
		w.Write(rec)
	}
	// Writes go to a bytes.Buffer, which does not fail.
	w.Flush()
	return buf.String()
}

// HTML renders the table for the index page (without the caption, which
// the page sets as a heading): a published value follows ours in a grey
// span (the page's style sets it on a line of its own, which keeps wide
// tables within the page), and a Compared table ends with the summary rows
// of comparisonSummary.
func (t Table) HTML() string {
	var b strings.Builder
	b.WriteString("<table>\n<thead><tr>")
	for _, c := range t.Labels {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(c.Name))
	}
	for _, c := range t.Values {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(c.Name))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range t.Rows {
		b.WriteString("<tr>")
		for i := range t.Labels {
			fmt.Fprintf(&b, "<td>%s</td>", html.EscapeString(r.label(i).Text))
		}
		for i, c := range t.Values {
			v := r.value(i)
			if p, ok := r.paper(i); ok {
				b.WriteString(comparedCell(c, v, p))
			} else {
				fmt.Fprintf(&b, "<td>%s</td>", c.format(v))
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n")
	b.WriteString(t.summaryHTML())
	b.WriteString("</table>\n")
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(n))
	}
	return b.String()
}

// comparedCell is a value cell with its published counterpart: "ours
// (paper, ours - paper)".
func comparedCell(c Column, ours, paper float64) string {
	return fmt.Sprintf("<td>%s <span class=\"paper\">(%s, %s)</span></td>", c.format(ours), c.format(paper), signed3(ours-paper))
}

// ColumnSummary compares one value column with the paper over the rows
// that have both values: their number, the mean of ours and of the
// published values, and the mean absolute difference.
type ColumnSummary struct {
	N                int
	Ours, Paper, Abs float64 // NaN when N is 0
}

// Summary compares every value column with the paper (a table without
// published values gives N = 0 everywhere), over the comparable rows.
func (t Table) Summary() []ColumnSummary {
	out := make([]ColumnSummary, len(t.Values))
	for i := range t.Values {
		var s ColumnSummary
		for _, r := range t.Rows {
			v := r.value(i)
			p, ok := r.paper(i)
			if !ok || math.IsNaN(v) || math.IsNaN(p) || r.NotComparable != "" {
				continue
			}
			s.N++
			s.Ours += v
			s.Paper += p
			s.Abs += math.Abs(v - p)
		}
		if s.N == 0 {
			s.Ours, s.Paper, s.Abs = math.NaN(), math.NaN(), math.NaN()
		} else {
			n := float64(s.N)
			s.Ours, s.Paper, s.Abs = s.Ours/n, s.Paper/n, s.Abs/n
		}
		out[i] = s
	}
	return out
}

// summaryHTML is the foot of a Compared table, so a reader need not scan
// every row to see how the reproduction compares: per column, the means of
// ours and of the paper's values over the rows that have both (with their
// difference), and the mean absolute difference. Empty for a table that is
// not Compared or has no published value.
func (t Table) summaryHTML() string {
	if !t.Compared || len(t.Values) == 0 {
		return ""
	}
	sum := t.Summary()
	if !slices.ContainsFunc(sum, func(s ColumnSummary) bool { return s.N > 0 }) {
		return ""
	}
	span := ""
	if len(t.Labels) > 1 {
		span = fmt.Sprintf(" colspan=\"%d\"", len(t.Labels))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<tfoot>\n<tr><th%s>ours vs paper: mean over the rows with both</th>", span)
	for i, c := range t.Values {
		if s := sum[i]; s.N > 0 {
			b.WriteString(strings.Replace(comparedCell(c, s.Ours, s.Paper), "<td>", fmt.Sprintf("<td title=\"%d rows\">", s.N), 1))
		} else {
			b.WriteString("<td>-</td>")
		}
	}
	fmt.Fprintf(&b, "</tr>\n<tr><th%s>mean |ours - paper|</th>", span)
	for i := range t.Values {
		fmt.Fprintf(&b, "<td>%s</td>", f3(sum[i].Abs))
	}
	b.WriteString("</tr>\n</tfoot>\n")
	return b.String()
}

// WriteFiles writes the table as dir/base.md, dir/base.tex and dir/base.csv.
func (t Table) WriteFiles(dir, base string) error {
	for _, f := range []struct{ ext, body string }{{".md", t.Markdown()}, {".tex", t.LaTeX()}, {".csv", t.CSV()}} {
		if err := writeFile(dir, base+f.ext, f.body); err != nil {
			return err
		}
	}
	return nil
}

// ReadPaperCSV reads a CSV of published values from fsys (a paper
// package's embedded files), skipping '#' comment lines, which name the
// source. It returns the header and at least one row.
func ReadPaperCSV(fsys fs.FS, name string) ([][]string, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("published values: %w", err)
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%s: no rows", name)
	}
	return recs, nil
}
