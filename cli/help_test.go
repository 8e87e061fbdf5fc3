package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/pueval/pueval/report"
)

// TestHelpOneLinePerCommand: pueval help gives every command one line, and
// every line fits in 80 columns, so that the list reads on any terminal.
func TestHelpOneLinePerCommand(t *testing.T) {
	out, _, err := runCLI(t, "help")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	for _, c := range commands {
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "  "+c.name+" ") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("pueval help: %d lines for %s, want 1", n, c.name)
		}
		if len(c.summary) > summaryWidth {
			t.Errorf("%s: summary of %d characters, more than %d: %q", c.name, len(c.summary), summaryWidth, c.summary)
		}
	}
	for _, l := range lines {
		if len(l) > 80 {
			t.Errorf("pueval help: line of %d characters: %q", len(l), l)
		}
	}
}

// TestVersionFlags: --version and -version print what pueval version prints.
func TestVersionFlags(t *testing.T) {
	want, _, err := runCLI(t, "version")
	if err != nil || !strings.HasPrefix(want, "pueval "+Version()+" (go") {
		t.Fatalf("pueval version: %q, %v", want, err)
	}
	for _, flag := range []string{"--version", "-version"} {
		if out, _, err := runCLI(t, flag); err != nil || out != want {
			t.Errorf("pueval %s: %q, %v; want %q", flag, out, err, want)
		}
	}
}

// TestVersionFrom: a version given at build time wins; else the module's
// version the go command recorded; else the commit it recorded; else devel.
func TestVersionFrom(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "996b1968ff2b450c2bd29148622b186b1eee6ffc"}, {Key: "vcs.modified", Value: "false"}}
	dirty := []debug.BuildSetting{{Key: "vcs.revision", Value: "996b1968ff2b450c2bd29148622b186b1eee6ffc"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		ldflags string
		bi      *debug.BuildInfo
		want    string
	}{
		{"v1.2", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128230306-996b1968ff2b"}}, "v1.2"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128230306-996b1968ff2b"}}, "v0.0.0-20261128230306-996b1968ff2b"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "996b1968ff2b"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: dirty}, "996b1968ff2b+dirty"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"", nil, "devel"},
	} {
		if got := versionFrom(c.ldflags, c.bi); got != c.want {
			t.Errorf("versionFrom(%q, %+v) = %q, want %q", c.ldflags, c.bi, got, c.want)
		}
	}
}

// TestMakeBuildAndGoInstallSameVersion builds pueval as make build does and
// as go install does, and checks that both report the same version.
func TestMakeBuildAndGoInstallSameVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pueval twice")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	viaMake := filepath.Join(tmp, "make", "pueval")
	build := exec.Command("make", "-s", "build", "BIN="+viaMake)
	build.Dir = root
	build.Env = withoutVar(os.Environ(), "VERSION") // what a plain make build gets
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	install := exec.Command("go", "install", "./cmd/pueval")
	install.Dir = root
	install.Env = append(os.Environ(), "GOBIN="+filepath.Join(tmp, "install"))
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	var versions []string
	for _, bin := range []string{viaMake, filepath.Join(tmp, "install", "pueval")} {
		out, err := exec.Command(bin, "version").CombinedOutput()
		if err != nil {
			t.Fatalf("%s version: %v\n%s", bin, err, out)
		}
		versions = append(versions, string(out))
	}
	if versions[0] != versions[1] {
		t.Errorf("make build reports %q, go install %q", versions[0], versions[1])
	}
}

// TestReproduceHelpListsPapers: pueval reproduce -h names every paper (its
// report's title) and gives every built-in config a line with its
// description.
func TestReproduceHelpListsPapers(t *testing.T) {
	out, _, err := runCLI(t, "reproduce", "-h")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"aaai2017", "psb2019", "claesen2015", "aul", "pulp"} {
		p, ok := report.Lookup(name)
		if !ok {
			t.Fatalf("no report %s registered", name)
		}
		if !strings.Contains(out, "\n  "+p.Title+"\n") {
			t.Errorf("reproduce -h does not name the paper %q:\n%s", p.Title, out)
		}
		if !strings.Contains(out, "\n    "+name+" ") {
			t.Errorf("reproduce -h has no line for the config %s", name)
		}
	}
	if !regexp.MustCompile(`\n    aaai2017-smoke +smoke test of the AAAI-2017 pipeline\n`).MatchString(out) {
		t.Errorf("reproduce -h does not describe aaai2017-smoke:\n%s", out)
	}
}

// TestReproduceWithoutDataSaysHow: a reproduction whose every data set is
// missing (an empty mirror, an empty cache) fails saying how to provide the
// data: PUEVAL_UCI_MIRROR and the data cache directory.
func TestReproduceWithoutDataSaysHow(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("PUEVAL_UCI_MIRROR", t.TempDir())
	t.Setenv("PUEVAL_DATA", cache)
	_, _, err := runCLI(t, "reproduce", "aaai2017-smoke", "-o", filepath.Join(t.TempDir(), "out"), "--no-report")
	if err == nil {
		t.Fatal("no error")
	}
	for _, s := range []string{"no cell ran", "PUEVAL_UCI_MIRROR", "the data cache " + cache + " (set by PUEVAL_DATA)"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
}

// withoutVar is env without the variable name.
func withoutVar(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
