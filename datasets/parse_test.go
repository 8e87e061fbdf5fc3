package datasets

import (
	"slices"
	"strings"
	"testing"
)

func TestParseDelimited(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    string
		delim byte
		rows  [][]string
		lines []int
	}{
		{"comma CRLF", "1,2,3\r\n4,5,6\r\n", ',', [][]string{{"1", "2", "3"}, {"4", "5", "6"}}, []int{1, 2}},
		{"no final newline, blank lines", "\n1,2\n\n3,4", ',', [][]string{{"1", "2"}, {"3", "4"}}, []int{2, 4}},
		{"padded (pendigits)", "  47,100, 27\n", ',', [][]string{{"47", "100", "27"}}, []int{1}},
		{"quoted header (wine, bank)", "\"fixed acidity\";\"pH\"\n7.4;3.51\n", ';', [][]string{{"fixed acidity", "pH"}, {"7.4", "3.51"}}, []int{1, 2}},
		{"quoted delimiter and quote", `"a;b";"say ""hi""";c` + "\n", ';', [][]string{{"a;b", `say "hi"`, "c"}}, []int{1}},
		{"empty fields", "1,,3,\n", ',', [][]string{{"1", "", "3", ""}}, []int{1}},
		{"whitespace (housing)", " 0.00632  18.00   2.310  0\n\t1 2\t3  4  \n", 0, [][]string{{"0.00632", "18.00", "2.310", "0"}, {"1", "2", "3", "4"}}, []int{1, 2}},
		{"tab CRLF (airfoil)", "800\t0\t0.3048\r\n", '\t', [][]string{{"800", "0", "0.3048"}}, []int{1}},
		{"BOM", "\xef\xbb\xbfx,y\n", ',', [][]string{{"x", "y"}}, []int{1}},
		{"splice padding", "EI,    ATRINS-DONOR-521,               CCAG\n", ',', [][]string{{"EI", "ATRINS-DONOR-521", "CCAG"}}, []int{1}},
	} {
		rec, err := parseDelimited([]byte(c.in), c.delim)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.EqualFunc(rec.rows, c.rows, slices.Equal) || !slices.Equal(rec.lines, c.lines) {
			t.Errorf("%s: rows %q lines %v, want %q %v", c.name, rec.rows, rec.lines, c.rows, c.lines)
		}
	}
}

func TestParseDelimitedErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1,2\n3,\"4\n", "line 2: unterminated quoted field"},
		{"1,\"2\"x,3\n", "line 1: unexpected 'x' after a quoted field"},
	} {
		_, err := parseDelimited([]byte(c.in), ',')
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseGas(t *testing.T) {
	rec, err := parseGas([]byte("1;10.000000 1:15596.162100 3:-0.5\n\n5;50.000000 2:7 1:1\r\n"), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"1", "10.000000", "15596.162100", "0", "-0.5"}, {"5", "50.000000", "1", "7", "0"}}
	if !slices.EqualFunc(rec.rows, want, slices.Equal) || !slices.Equal(rec.lines, []int{1, 3}) {
		t.Errorf("rows %q lines %v, want %q [1 3]", rec.rows, rec.lines, want)
	}
	for _, c := range []struct{ in, want string }{
		{"1 1:2\n", `line 1: first field "1" is not CLASS;CONCENTRATION`},
		{"1;2 1:2 x\n", `line 1: "x" is not INDEX:VALUE`},
		{"1;2 4:2\n", "line 1: feature index 4 outside 1..3"},
		{"1;2\n1;2 2:1 2:3\n", "line 2: feature index 2 given twice"},
	} {
		_, err := parseGas([]byte(c.in), 3)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseDocuments(t *testing.T) {
	names := []string{"train/comp.graphics/1", "train/sci.med/2", "test/comp.graphics/3"}
	files := map[string]string{names[0]: "Pixels and pixels", names[1]: "Doctor", names[2]: ""}
	rec, err := parseDocuments(makeTarGz(t, names, files))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{names[0], "comp.graphics", files[names[0]]}, {names[1], "sci.med", "Doctor"}, {names[2], "comp.graphics", ""}}
	if !slices.EqualFunc(rec.rows, want, slices.Equal) {
		t.Errorf("rows %q, want %q", rec.rows, want)
	}
	if _, err := parseDocuments(makeTarGz(t, []string{"toplevel"}, map[string]string{"toplevel": "x"})); err == nil || !strings.Contains(err.Error(), "class directory") {
		t.Errorf("document without a class directory: %v", err)
	}
	if _, err := parseDocuments([]byte("not gzip")); err == nil {
		t.Error("not gzip: no error")
	}
}

func TestTokens(t *testing.T) {
	var got []string
	tokens("From: A.B@C.edu (I'm x_y 42)\n\xe9t\xe9 OK", func(w []byte) { got = append(got, string(w)) })
	// scikit-learn's \b\w\w+\b, lower-cased; non-ASCII bytes separate tokens.
	want := []string{"from", "edu", "x_y", "42", "ok"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens %q, want %q", got, want)
	}
}
