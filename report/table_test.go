package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A 2 x 2 table by hand: a row with published values (one of them missing)
// and a row without, characters each format must escape, a signed column,
// a label column left out of LaTeX, and a note.
func handTable() Table {
	nan := math.NaN()
	return Table{Caption: "cap", Compared: true, Notes: []string{"n1"},
		Labels: []Column{{Name: "Data", CSV: "dataset"}, {Name: "runs", NoLaTeX: true}},
		Values: []Column{{Name: "a_b", LaTeX: "$a$"}, {Name: "c", Signed: true}},
		Rows: []Row{
			{Labels: []Label{{Text: "x_1", LaTeX: "X"}, {Text: "2"}}, Values: []float64{0.5, -0.25}, Paper: []float64{0.4, nan}},
			{Labels: []Label{{Text: "y|z&w"}, {Text: "1"}}, Values: []float64{nan, 0.125}},
		}}
}

func TestTableMarkdown(t *testing.T) {
	want := "cap\n\n" +
		"| Data | runs | a_b | c |\n" +
		"|---|---|---|---|\n" +
		"| x_1 | 2 | 0.500 (0.400, +0.100) | -0.250 (-, -) |\n" +
		"| y\\|z&w | 1 | - | +0.125 |\n" +
		"\nNote: n1\n"
	if got := handTable().Markdown(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTableLaTeX(t *testing.T) {
	want := "% cap\n" +
		"\\begin{tabular}{lrr}\n\\hline\n" +
		"Data & $a$ & c \\\\\n\\hline\n" +
		"X & 0.500 (0.400) & -0.250 (-) \\\\\n" +
		"y|z\\&w & - & +0.125 \\\\\n" +
		"\\hline\n\\end{tabular}\n"
	if got := handTable().LaTeX(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTableCSV(t *testing.T) {
	want := "dataset,runs,a_b,a_b_paper,a_b_diff,c,c_paper,c_diff\n" +
		"x_1,2,0.5,0.4,0.1,-0.25,,\n" +
		"y|z&w,1,,,,0.125,,\n"
	tab := handTable()
	if got := tab.CSV(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Without published values there are no _paper and _diff columns.
	tab.Compared = false
	tab.Rows[0].Paper = nil
	if got := tab.CSV(); got != "dataset,runs,a_b,c\nx_1,2,0.5,-0.25\ny|z&w,1,,0.125\n" {
		t.Errorf("not compared:\n%s", got)
	}
}

// TestTableHTML: head, body, and the foot of a Compared table comparing
// each column with the paper over the rows that have both values (here
// only a_b's first row: c's published value is missing).
func TestTableHTML(t *testing.T) {
	want := "<table>\n" +
		"<thead><tr><th>Data</th><th>runs</th><th>a_b</th><th>c</th></tr></thead>\n<tbody>\n" +
		"<tr><td>x_1</td><td>2</td><td>0.500 <span class=\"paper\">(0.400, +0.100)</span></td><td>-0.250 <span class=\"paper\">(-, -)</span></td></tr>\n" +
		"<tr><td>y|z&amp;w</td><td>1</td><td>-</td><td>+0.125</td></tr>\n" +
		"</tbody>\n<tfoot>\n" +
		"<tr><th colspan=\"2\">ours vs paper: mean over the rows with both</th><td title=\"1 rows\">0.500 <span class=\"paper\">(0.400, +0.100)</span></td><td>-</td></tr>\n" +
		"<tr><th colspan=\"2\">mean |ours - paper|</th><td>0.100</td><td>-</td></tr>\n" +
		"</tfoot>\n</table>\n<p class=\"note\">n1</p>\n"
	if got := handTable().HTML(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Without published values there is no foot.
	tab := handTable()
	tab.Compared, tab.Rows[0].Paper = false, nil
	if got := tab.HTML(); strings.Contains(got, "tfoot") {
		t.Errorf("a table without published values has a foot:\n%s", got)
	}
}

// TestTableSummary: means over the rows that have both values, by hand:
// ours 0.5 and 0.3 against 0.4 and 0.6 give means 0.4 and 0.5 and a mean
// absolute difference of (0.1 + 0.3)/2 = 0.2; the row without a published
// value and the NaN are left out.
func TestTableSummary(t *testing.T) {
	nan := math.NaN()
	tab := Table{Compared: true, Values: []Column{{Name: "x"}, {Name: "y"}},
		Rows: []Row{
			{Values: []float64{0.5, 1}, Paper: []float64{0.4, nan}},
			{Values: []float64{0.3, 2}, Paper: []float64{0.6, nan}},
			{Values: []float64{9, 3}},
		}}
	s := tab.Summary()
	if s[0].N != 2 || math.Abs(s[0].Ours-0.4) > 1e-15 || math.Abs(s[0].Paper-0.5) > 1e-15 || math.Abs(s[0].Abs-0.2) > 1e-15 {
		t.Errorf("x: %+v", s[0])
	}
	if s[1].N != 0 || !math.IsNaN(s[1].Ours) {
		t.Errorf("y: %+v", s[1])
	}
}

// A short row renders its missing cells as empty rather than panicking.
func TestTableShortRow(t *testing.T) {
	tab := handTable()
	tab.Rows = []Row{{Labels: []Label{{Text: "x"}}}}
	if got := tab.Markdown(); got != "cap\n\n| Data | runs | a_b | c |\n|---|---|---|---|\n| x |  | - | - |\n\nNote: n1\n" {
		t.Errorf("got:\n%s", got)
	}
}

func TestLaTeXEscape(t *testing.T) {
	if got := LaTeXEscape(`a_b & 5% $x$ #1 {y} ~ ^ \`); got != `a\_b \& 5\% \$x\$ \#1 \{y\} \textasciitilde{} \textasciicircum{} \textbackslash{}` {
		t.Errorf("%s", got)
	}
}

// Report files are written atomically and readable by all: a rewrite
// replaces the whole file and leaves no temporary file behind.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.md")
	if err := WriteFile(p, []byte("a long first version\n")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("short\n")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	entries, _ := os.ReadDir(dir)
	if string(b) != "short\n" || fi.Mode().Perm() != 0o644 || len(entries) != 1 {
		t.Errorf("content %q, mode %v, %d files", b, fi.Mode(), len(entries))
	}
}
