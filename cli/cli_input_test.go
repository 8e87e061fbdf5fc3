package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The commands that take no positional argument refuse one,
// instead of dropping it and every flag after it.
func TestLeftoverArgumentsAreErrors(t *testing.T) {
	in := writeFile(t, "s.csv", aaaiFigure1PU)
	pu, _ := puFile(t)
	dir := filepath.Join(t.TempDir(), "fig")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"metrics", "--input", in, "extra", "--pu"}, `pueval: metrics: unexpected argument "extra" (see 'pueval metrics -h')`},
		{[]string{"metrics", "extra", "--input", in}, `pueval: metrics: unexpected argument "extra" (see 'pueval metrics -h')`},
		{[]string{"correct", "--input", in, "--alpha", "0.2", "--beta", "1", "oops", "--outside", "clip"}, `pueval: correct: unexpected argument "oops" (see 'pueval correct -h')`},
		{[]string{"estimate", "--input", pu, "extra", "--method", "alphamax"}, `pueval: estimate: unexpected argument "extra" (see 'pueval estimate -h')`},
		{[]string{"figure", "aaai2017-fig4", "--out", dir, "extra"}, `pueval: figure: unexpected argument "extra" (see 'pueval figure -h')`},
		{[]string{"figure", "aaai2017-fig4", "aaai2017-fig3", "--out", dir}, `pueval: figure: unexpected argument "aaai2017-fig3" (see 'pueval figure -h')`},
		{[]string{"figure", "--out", dir, "aaai2017-fig4", "extra"}, `pueval: figure: unexpected argument "extra" (see 'pueval figure -h')`},
	} {
		out, _, err := runCLI(t, c.args...)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
		if out != "" {
			t.Errorf("%v: printed %q before failing", c.args, out)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a refused figure command created %s (%v)", dir, err)
	}
}

// `pueval figure nosuch --out DIR` fails before it creates DIR.
func TestFigureUnknownCreatesNothing(t *testing.T) {
	for _, args := range [][]string{
		{"nosuch", "--out", "DIR"}, {"--out", "DIR", "nosuch"}, {"nosuch", "--out", "DIR/sub"},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		for i := range args {
			args[i] = strings.Replace(args[i], "DIR", dir, 1)
		}
		_, _, err := runCLI(t, append([]string{"figure"}, args...)...)
		if want := `pueval: figure: unknown figure "nosuch" (known: aaai2017-fig3, aaai2017-fig4, claesen2015-fig1, psb2019-fig1)`; err == nil || err.Error() != want {
			t.Errorf("%v: error %v, want %q", args, err, want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%v: %s was created (%v)", args, dir, err)
		}
	}
	// -h after the name shows the help, as before the name.
	if out, _, err := runCLI(t, "figure", "aaai2017-fig4", "-h"); err != nil || !strings.Contains(out, "Figures:") {
		t.Errorf("figure NAME -h: %v\n%s", err, out)
	}
}

// respell rewrites the labels of a score file (the last column) with one and zero.
func respell(t *testing.T, path, one, zero string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		switch {
		case strings.HasSuffix(lines[i], ",1"):
			lines[i] = strings.TrimSuffix(lines[i], "1") + one
		case strings.HasSuffix(lines[i], ",0"):
			lines[i] = strings.TrimSuffix(lines[i], "0") + zero
		default:
			t.Fatalf("line %d: %q", i+1, lines[i])
		}
	}
	return writeFile(t, "respelled.csv", strings.Join(lines, "\n")+"\n")
}

// Labels written 1.0/0.0 (numpy) or True/False (pandas) give the
// same output as 1/0 in metrics, correct and estimate; other labels are
// errors naming file, line and value.
func TestLabelSpellings(t *testing.T) {
	small := writeFile(t, "s.csv", aaaiFigure1PU)
	pu, _ := puFile(t)
	for _, c := range []struct {
		file string
		args []string
	}{
		{small, []string{"metrics", "--pu"}},
		{small, []string{"correct", "--alpha", "0.2", "--beta", "1", "--format", "table"}},
		{pu, []string{"estimate", "--method", "alphamax"}},
	} {
		want, _, err := runCLI(t, append(c.args, "--input", c.file)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range [][2]string{{"1.0", "0.0"}, {"True", "False"}, {"TRUE", "false"}, {"1e0", "0.00"}} {
			got, _, err := runCLI(t, append(c.args, "--input", respell(t, c.file, sp[0], sp[1]))...)
			if err != nil || got != want {
				t.Errorf("%s with labels %s/%s: %v\n%s\nwant\n%s", c.args[0], sp[0], sp[1], err, got, want)
			}
		}
		bad := writeFile(t, "bad.csv", "score,label\n0.5,1.0\n0.25,2.0\n")
		_, _, err = runCLI(t, append(c.args, "--input", bad)...)
		if want := "pueval: " + c.args[0] + ": " + bad + `:3: column "label": label "2.0" is not 0 or 1`; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want one starting with %q", c.args[0], err, want)
		}
	}
}

// A line longer than 1 MiB is an error naming the file and line,
// in every command that reads a score file.
func TestLongLineRefused(t *testing.T) {
	long := writeFile(t, "long.csv", "score,label\n0.5,1\n0.25,0"+strings.Repeat(" ", 2<<20)+"\n")
	for _, args := range [][]string{
		{"metrics"}, {"correct", "--alpha", "0.2", "--beta", "1"}, {"estimate"},
	} {
		_, _, err := runCLI(t, append(args, "--input", long)...)
		if want := "pueval: " + args[0] + ": " + long + ":3: line longer than 1 MiB"; err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", args[0], err, want)
		}
	}
}

// The four commands that read one --input file and write in --format share
// parseInputFlags: each refuses a missing --input, an unknown --format and a
// positional argument the same way, and answers -h with its usage.
func TestInputCommandsCheckTheirFlags(t *testing.T) {
	in := writeFile(t, "s.csv", aaaiFigure1PU)
	for _, cmd := range []string{"metrics", "correct", "estimate", "evaluate"} {
		for _, c := range []struct {
			args []string
			want string
		}{
			{nil, "pueval: " + cmd + ": --input is required"},
			{[]string{"--input", in, "--format", "xml"}, "pueval: " + cmd + `: --format "xml": want json or table`},
			{[]string{"--input", in, "--format", "xml", "extra"}, "pueval: " + cmd + `: unexpected argument "extra" (see 'pueval ` + cmd + ` -h')`},
		} {
			out, _, err := runCLI(t, append([]string{cmd}, c.args...)...)
			if err == nil || err.Error() != c.want {
				t.Errorf("%s %v: error %v, want %q", cmd, c.args, err, c.want)
			}
			if out != "" {
				t.Errorf("%s %v: printed %q before failing", cmd, c.args, out)
			}
		}
		out, _, err := runCLI(t, cmd, "-h")
		if err != nil || !strings.HasPrefix(out, "Usage: pueval "+cmd+" ") || !strings.Contains(out, "-input") {
			t.Errorf("%s -h: %v\n%s", cmd, err, out)
		}
	}
}
