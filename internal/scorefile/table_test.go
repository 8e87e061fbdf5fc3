package scorefile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readTable reads in with spec through NewReader.
func readTable(t *testing.T, in string, spec Spec) (*Table, error) {
	t.Helper()
	r, err := NewReader(context.Background(), strings.NewReader(in), "x.csv")
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Read(spec)
}

// A UTF-8 byte-order mark at the start of the file is dropped before the
// CSV is parsed: also before a comment line and before a quoted header
// name, where dropping it from the first name (as before) was too late, and
// when the mark arrives one byte at a time.
func TestBOMDropped(t *testing.T) {
	for _, in := range []string{
		"\ufeffscore,label\n0.5,1\n0.25,0\n",
		"\ufeff# written by Excel\nscore,label\n0.5,1\n0.25,0\n",
		"\ufeff\"score\",label\n0.5,1\n0.25,0\n",
		"\ufeff\"score\",\"label\"\r\n0.5,1\r\n0.25,0\r\n",
	} {
		for _, chunk := range []int{1, 2, 7, 1 << 20} {
			d, err := Read(&chunks{in, chunk}, "x.csv")
			if err != nil || !slices.Equal(d.Scores, []float64{0.5, 0.25}) || !slices.Equal(d.Labels, []bool{true, false}) {
				t.Errorf("%q in chunks of %d: %+v, %v", in, chunk, d, err)
			}
		}
	}
	// A file of the mark alone is empty; one of a part of it is not a mark.
	if _, err := Read(strings.NewReader("\ufeff"), "x.csv"); err == nil || !strings.Contains(err.Error(), "x.csv: empty file") {
		t.Errorf("the mark alone: %v", err)
	}
	if _, err := Read(strings.NewReader("\xef\xbbscore,label\n0.5,1\n"), "x.csv"); err == nil || !strings.Contains(err.Error(), `(columns: "\xef\xbbscore", "label")`) {
		t.Errorf("a broken mark: %v", err)
	}
	// A mark inside the header is not dropped, and the error shows it.
	_, err := Read(strings.NewReader("label,\ufeffscore\n1,0.5\n"), "x.csv")
	if want := `no score column "score" in the header (columns: "label", "\ufeffscore")`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a mark inside: %v, want %q", err, want)
	}
	// UTF-16 text is named as such.
	_, err = Read(strings.NewReader("\xff\xfes\x00c\x00,\x00l\x00\n\x001\x00,\x000\x00\n\x00"), "x.csv")
	if err == nil || !strings.Contains(err.Error(), "x.csv:1: the header holds NUL bytes (UTF-16 text?)") {
		t.Errorf("UTF-16: %v", err)
	}
}

// A header that names a column twice, compared trimmed and
// case-insensitively, is refused with both positions, whatever the spec:
// before, the score file reader took the last copy silently.
func TestDuplicateColumnsRefused(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"score,label,score\n0.5,1,0.1\n", `x.csv:1: columns 1 and 3 are both named "score"`},
		{"Score,label, score \n0.5,1,0.1\n", `x.csv:1: columns 1 and 3 are both named "score"`},
		{"# c\nid,LABEL,score,label\n1,1,0.5,0\n", `x.csv:2: columns 2 and 4 are both named "label"`},
		{"score,label,,\n0.5,1,,\n", `x.csv:1: columns 3 and 4 are both named ""`},
		{"\ufeffscore,label,score\n0.5,1,0.1\n", `x.csv:1: columns 1 and 3 are both named "score"`},
	} {
		_, err := Read(strings.NewReader(c.in), "x.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
		if _, err := NewReader(context.Background(), strings.NewReader(c.in), "x.csv"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewReader %q: error %v, want %q", c.in, err, c.want)
		}
	}
}

// PU labels: 1 labeled, 0 or empty unlabeled; with Negatives, that value
// (any spelling of it) marks known negatives and -1 is also unlabeled.
func TestPULabels(t *testing.T) {
	P, N, U := Labeled, KnownNegative, Unlabeled
	in := "score,label\n0.9,1\n0.8,\n0.7,0\n0.6,1.0\n0.5,True\n0.4,false\n0.3, \n0.2,-0\n"
	tab, err := readTable(t, in, Spec{Label: Column{Name: "label"}, Score: Column{Name: "score"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []PULabel{P, U, U, P, P, U, U, U}; !slices.Equal(tab.Labels, want) {
		t.Errorf("labels %v, want %v", tab.Labels, want)
	}
	if tab.Count(P) != 3 || tab.Count(U) != 5 || !slices.Equal(tab.Labeled(), []bool{true, false, false, true, true, false, false, false}) {
		t.Errorf("counts %d %d, labeled %v", tab.Count(P), tab.Count(U), tab.Labeled())
	}
	three := "score,label\n0.9,1\n0.8,\n0.7,0\n0.6,-1\n0.5,-1.0\n0.4,0.0\n0.3,NEG\n0.2,neg\n"
	noNeg := "score,label\n0.9,1\n0.8,\n0.7,0\n0.6,-1\n0.5,-1.0\n0.4,0.0\n"
	hint := func(v string) string { return "; pass --negatives " + v }
	for _, c := range []struct {
		in, negatives string
		want          []PULabel
		err           string
	}{
		{three, "", nil, `x.csv:5: column "label": label "-1" is not 0 or 1 (1: labeled; 0 or empty: unlabeled; also read: 1.0, 0.0, true, false); pass --negatives -1`},
		{three, "0", nil, `x.csv:8: column "label": label "NEG" is not 1 (labeled), "0" (known negative), or -1 or empty (unlabeled); pass --negatives NEG`},
		{three, "-1", nil, `x.csv:8: column "label": label "NEG" is not 1 (labeled), "-1" (known negative), or 0 or empty (unlabeled)`},
		{three, "neg", []PULabel{P, U, U, U, U, U, N, N}, ""},
		{noNeg, "0", []PULabel{P, U, N, U, U, N}, ""},
		{noNeg, "false", []PULabel{P, U, N, U, U, N}, ""}, // false reads as 0
		{noNeg, "-1e0", []PULabel{P, U, U, N, N, U}, ""},
	} {
		spec := Spec{Label: Column{Name: "label"}, Score: Column{Name: "score"}, Negatives: c.negatives, LabelHint: hint}
		tab, err := readTable(t, c.in, spec)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("negatives %q: error %v, want %q", c.negatives, err, c.err)
			}
		case err != nil:
			t.Errorf("negatives %q: %v", c.negatives, err)
		case !slices.Equal(tab.Labels, c.want):
			t.Errorf("negatives %q: labels %v, want %v", c.negatives, tab.Labels, c.want)
		}
	}
	for _, c := range []struct{ v, want string }{
		{"", "want the label value that marks the known negatives"},
		{" ", "want the label value"},
		{"1", `"1" reads as 1`},
		{"1.0", `"1.0" reads as 1`},
		{"TRUE", `"TRUE" reads as 1`},
	} {
		if err := CheckNegatives(c.v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckNegatives(%q): %v, want %q", c.v, err, c.want)
		}
	}
	if _, err := readTable(t, three, Spec{Label: Column{Name: "label"}, Negatives: "1"}); err == nil || !strings.Contains(err.Error(), "x.csv: \"1\" reads as 1") {
		t.Errorf("Negatives 1: %v", err)
	}
	// Classes: an empty field is no class.
	if _, err := readTable(t, "score,label\n0.5,1\n0.4,\n", Spec{Label: Column{Name: "label"}, Labels: Classes}); err == nil ||
		!strings.Contains(err.Error(), `x.csv:3: column "label": label "" is not 0 or 1 (also read`) {
		t.Errorf("an empty class: %v", err)
	}
}

// Each column is read in the role the spec gives it; Columns says which,
// in the header's spelling; the rest are ignored.
func TestTableRoles(t *testing.T) {
	in := "id, X1 ,x2,Label,class,Score\n7,0.5,1e3,1,1,0.9\n8,-2,0,0,0,0.1\n"
	spec := Spec{Label: Column{"label", "--label"}, Score: Column{"score", "--score"}, Truth: Column{"class", "--truth"},
		Ignore: []string{"ID"}, Features: OtherColumns}
	tab, err := readTable(t, in, spec)
	if err != nil {
		t.Fatal(err)
	}
	want := Columns{Label: "Label", Score: "Score", Truth: "class", Features: []string{"X1", "x2"}, Ignored: []string{"id"}}
	if fmt.Sprint(tab.Columns) != fmt.Sprint(want) || !slices.Equal(tab.X, []float64{0.5, 1000, -2, 0}) ||
		!slices.Equal(tab.Scores, []float64{0.9, 0.1}) || !slices.Equal(tab.Truth, []bool{true, false}) || tab.N() != 2 {
		t.Errorf("read %+v", tab)
	}
	if s := tab.Columns.String(); s != `label "Label"; score "Score"; truth "class"; features "X1", "x2"; ignored "id"` {
		t.Errorf("String: %s", s)
	}
	wide := Columns{Label: "y", Features: []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}, Ignored: []string{}}
	if s := wide.String(); s != `label "y"; features 9: "a", "b", "c", "d", "e", "f", ..., "i"` {
		t.Errorf("String of 9 features: %s", s)
	}
	// Named features: exactly those; the rest ignored.
	spec.Ignore, spec.FeatureColumns = nil, []string{"x2"}
	tab, err = readTable(t, in, spec)
	if err != nil || !slices.Equal(tab.Columns.Features, []string{"x2"}) || !slices.Equal(tab.Columns.Ignored, []string{"id", "X1"}) || !slices.Equal(tab.X, []float64{1000, 0}) {
		t.Errorf("named features: %+v %v", tab, err)
	}
	// No features: every other column ignored.
	tab, err = readTable(t, in, Spec{Label: Column{Name: "label"}, Score: Column{Name: "score"}})
	if err != nil || len(tab.Columns.Features) != 0 || !slices.Equal(tab.Columns.Ignored, []string{"id", "X1", "x2", "class"}) || tab.X != nil {
		t.Errorf("no features: %+v %v", tab, err)
	}
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{Label: Column{"lab", "--label"}}, `x.csv:1: no label column "lab" in the header (columns: "id", "X1", "x2", "Label", "class", "Score"); name it with --label`},
		{Spec{Label: Column{Name: "label"}, Score: Column{"prob", "--score"}}, `no score column "prob" in the header`},
		{Spec{Label: Column{Name: "label"}, Ignore: []string{"nosuch"}, IgnoreFlag: "--ignore"}, `no ignored column "nosuch" in the header (columns: "id", "X1", "x2", "Label", "class", "Score"); name it with --ignore`},
		{Spec{Label: Column{Name: "label"}, Score: Column{Name: "label"}}, `x.csv:1: column "Label" cannot be both the label column and the score column`},
		{Spec{Label: Column{Name: "label"}, Score: Column{Name: "score"}, FeatureColumns: []string{"x1", "score"}}, `column "Score" cannot be both the score column and the feature`},
		{Spec{Label: Column{Name: "label"}, FeatureColumns: []string{"x1", "X1"}, FeatureFlag: "--feature-columns"}, `x.csv:1: column "X1" is listed twice (--feature-columns)`},
		{Spec{Label: Column{Name: "label"}, Ignore: []string{"id", "label"}}, `x.csv:1: column "Label" cannot be both the label column and the ignored column`},
	} {
		_, err := readTable(t, in, c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.spec, err, c.want)
		}
	}
	// A feature that is not a number names the flag that leaves it out.
	_, err = readTable(t, "id,x,label\nr1,1,1\n", Spec{Label: Column{Name: "label"}, Features: OtherColumns, IgnoreFlag: "--ignore"})
	if want := `x.csv:2: column "id": "r1" is not a finite number (if the column is not a feature, name it in --ignore)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	_, err = readTable(t, "x,label,class\n1,1,7\n", Spec{Label: Column{Name: "label"}, Truth: Column{Name: "class"}})
	if want := `x.csv:2: column "class": "7" is not 1 (positive) or 0 (negative)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// The row limits: Spec.MaxRows with its advice, and the feature values'
// limit, named with the line.
func TestTableLimits(t *testing.T) {
	in := "x,y,label\n1,2,1\n3,4,0\n5,6,0\n"
	_, err := readTable(t, in, Spec{Label: Column{Name: "label"}, Features: OtherColumns, MaxRows: 2, TooMany: "subsample"})
	if want := "x.csv:4: more than 2 data rows: subsample"; err == nil || err.Error() != want {
		t.Errorf("MaxRows: %v, want %q", err, want)
	}
	defer func(n int) { maxCells = n }(maxCells)
	maxCells = 5
	_, err = readTable(t, in, Spec{Label: Column{Name: "label"}, Features: OtherColumns})
	if want := "x.csv:4: more than 2 data rows of 2 features (at most 5 values)"; err == nil || err.Error() != want {
		t.Errorf("cells: %v, want %q", err, want)
	}
}

// Open reads a file's header, Read its rows once; a missing file is named;
// a context done before the rows stops the read with its cause.
func TestOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	if err := os.WriteFile(path, []byte("\ufeffscore,label\n0.5,1\n0.4,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Has(" SCORE ") || r.Has("x") || !slices.Equal(r.Header(), []string{"score", "label"}) || r.Name() != path {
		t.Errorf("header %v", r.Header())
	}
	spec := Spec{Label: Column{Name: "label"}, Score: Column{Name: "score"}}
	cols, err := r.Columns(spec)
	if err != nil || cols.Score != "score" {
		t.Errorf("Columns: %+v %v", cols, err)
	}
	tab, err := r.Read(spec)
	if err != nil || tab.N() != 2 || tab.Labels[1] != Unlabeled {
		t.Errorf("read %+v, %v", tab, err)
	}
	if _, err := r.Read(spec); err == nil || !strings.Contains(err.Error(), "read already") {
		t.Errorf("a second Read: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
	if _, err := Open(context.Background(), path+".missing"); err == nil || !strings.Contains(err.Error(), "s.csv.missing") {
		t.Errorf("missing file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r, err = NewReader(ctx, &slowRows{}, "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cancel()
	if _, err := r.Read(spec); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "x.csv: stopped after 0 data rows") {
		t.Errorf("cancelled: %v", err)
	}
}

// Any spec on any input: no panic, errors name the file, and a table's
// parts agree in length.
func FuzzReadTable(f *testing.F) {
	f.Add("score,label,x\n0.5,1,2\n0.1,,3\n", "", "x")
	f.Add("\ufeff# c\n\"score\",label\n0.5,1\n", "0", "")
	f.Add("score,label,Score\n1,1,2\n", "", "")
	f.Add("score,label\n0.5,-1\n0.2,neg\n", "neg", "")
	f.Add("\xff\xfes\x00", "", "")
	f.Fuzz(func(t *testing.T, in, negatives, feature string) {
		spec := Spec{Label: Column{Name: "label"}, Score: Column{Name: "score"}, Negatives: negatives, Features: OtherColumns}
		if feature != "" {
			spec.FeatureColumns = []string{feature}
		}
		tab, err := readTable(t, in, spec)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "x.csv") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		n := tab.N()
		if n == 0 || len(tab.Scores) != n || len(tab.X) != n*len(tab.Columns.Features) || tab.Truth != nil {
			t.Fatalf("%d rows, %d scores, %d values of %d features", n, len(tab.Scores), len(tab.X), len(tab.Columns.Features))
		}
		if negatives == "" && tab.Count(KnownNegative) > 0 {
			t.Fatal("known negatives without Negatives")
		}
	})
}

// Feature columns that look like identifiers are named: a row number
// (integers in an arithmetic progression in file order), integers that
// differ in every row; real features are not: floats, integers with
// repeats, a constant, and any column of a file with few rows.
func TestSuspectFeatures(t *testing.T) {
	var b strings.Builder
	b.WriteString("idx,id,count,flag,x,const,label\n")
	for i := range 30 {
		fmt.Fprintf(&b, "%d,%d,%d,%d,%v,5,%d\n", 10-3*i, (i*7919)%1000, i%4, i%2, float64(i)/3, i%2)
	}
	spec := Spec{Label: Column{Name: "label"}, Features: OtherColumns}
	tab, err := readTable(t, b.String(), spec)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`feature column "idx" holds integers in steps of -3 in file order (a row number?): name it in --ignore`,
		`feature column "id" holds integers that differ in every row (an identifier?): name it in --ignore`,
	}
	if got := tab.SuspectFeatures("name it in --ignore"); !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
	// On 19 rows, none.
	lines := strings.SplitAfterN(b.String(), "\n", 21)
	tab, err = readTable(t, strings.Join(lines[:20], ""), spec)
	if err != nil || tab.N() != 19 || tab.SuspectFeatures("") != nil {
		t.Errorf("19 rows: %v %q", err, tab.SuspectFeatures(""))
	}
}
