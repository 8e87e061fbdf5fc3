package slurm

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden scripts in testdata")

// goldenJob is the job of the golden scripts: every option set, a path
// that needs quoting, the environment pinned.
func goldenJob() Job {
	return Job{Pueval: "/opt/pueval/bin/pueval", Config: "/home/ada/configs/aaai2017.yaml", Experiment: "aaai2017",
		Dir: "/scratch/ada/results/aaai2017", Tasks: 3, Partition: "short", Time: "2:00:00", CPUsPerTask: 4,
		RunArgs: []string{"-j", "2", "--datasets", "pima,housing"},
		Env:     []string{"PUEVAL_DATA=/shared/pueval cache", "PUEVAL_UCI_MIRROR=/shared/uci"}}
}

// The scripts are compared with testdata/*.golden, read by hand against
// sbatch's manual (#SBATCH directives before the first command, %a the
// array index, --dependency=afterok:ID, --kill-on-invalid-dep=yes,
// --parsable); go test ./internal/slurm -update rewrites them.
func TestGoldenScripts(t *testing.T) {
	j := goldenJob()
	if err := j.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"array.sh": j.ArrayScript(), "merge.sh": j.MergeScript(), "submit.sh": j.SubmitScript()} {
		path := filepath.Join("testdata", name+".golden")
		if *update {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if text != string(want) {
			t.Errorf("%s differs from %s:\n%s", name, path, text)
		}
	}
}

// A job without options writes no optional directive; every #SBATCH line
// comes before the first command (sbatch ignores any after it).
func TestScriptsMinimal(t *testing.T) {
	j := Job{Pueval: "/p/pueval", Config: "aaai2017-smoke", Experiment: "aaai2017-smoke", Dir: "/r", Tasks: 1}
	if err := j.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{j.ArrayScript(), j.MergeScript()} {
		for _, opt := range []string{"--partition", "--time"} {
			if strings.Contains(s, opt) {
				t.Errorf("script names %s though none was given:\n%s", opt, s)
			}
		}
		commands := false
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "#SBATCH") && commands {
				t.Errorf("#SBATCH after the first command: %q\n%s", line, s)
			}
			if line != "" && !strings.HasPrefix(line, "#") {
				commands = true
			}
		}
	}
	if a := j.ArrayScript(); !strings.Contains(a, "#SBATCH --array=1-1\n") || strings.Contains(a, "--cpus-per-task") ||
		!strings.Contains(a, "/p/pueval run aaai2017-smoke -o /r/shards/\"$k\" --shard \"$k\"/1\n") {
		t.Errorf("array script:\n%s", a)
	}
}

func TestCheckTime(t *testing.T) {
	// sbatch(1), --time: "minutes", "minutes:seconds", "hours:minutes:seconds",
	// "days-hours", "days-hours:minutes" and "days-hours:minutes:seconds".
	for _, ok := range []string{"30", "0", "30:00", "90:30", "1:00:00", "48:00:00", "2-0", "2-12", "2-12:30", "1-00:00:00", "UNLIMITED"} {
		if err := CheckTime(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "1h", "1:60", "1:00:60", "1:60:00", "-1", "1-24", "1-2:60", "1:2:3:4", "1.5", "2-", " 30"} {
		if err := CheckTime(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		edit func(j *Job)
		want string
	}{
		{func(j *Job) { j.Tasks = 0 }, "--array 0: want at least 1 task"},
		{func(j *Job) { j.Pueval = "bin/pueval" }, `the pueval binary "bin/pueval" is not an absolute path`},
		{func(j *Job) { j.Dir = "results/x" }, `the results directory "results/x" is not an absolute path`},
		{func(j *Job) { j.Dir = "/scratch/my results" }, "contains white space"},
		{func(j *Job) { j.Dir = "/scratch/100%" }, "contains white space, a quote, %"},
		{func(j *Job) { j.Config = "configs/x.yaml" }, "neither an absolute path nor a built-in config's name"},
		{func(j *Job) { j.Partition = "short; rm -rf /" }, `--partition "short; rm -rf /"`},
		{func(j *Job) { j.Time = "2h" }, `--time "2h"`},
		{func(j *Job) { j.CPUsPerTask = -1 }, "--cpus-per-task -1"},
		{func(j *Job) { j.Env = []string{"1X=y"} }, `"1X=y" is not NAME=VALUE`},
	} {
		j := goldenJob()
		c.edit(&j)
		if err := j.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	j := goldenJob()
	j.Partition = "short,long"
	if err := j.Validate(); err != nil {
		t.Errorf("two partitions: %v", err)
	}
}

func TestParseJobID(t *testing.T) {
	for in, want := range map[string]string{"123\n": "123", "123;cluster\n": "123", "sbatch: warning: x\n77\n": "77"} {
		if got, err := ParseJobID(in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "Submitted batch job 123", "12a"} {
		if _, err := ParseJobID(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{"/a/b-c_d.e": "/a/b-c_d.e", "a b": "'a b'", "it's": `'it'\''s'`, "": "''", "$HOME": "'$HOME'", "pima,housing": "pima,housing"} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
