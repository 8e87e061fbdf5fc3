package slurm

import (
	"flag"
	"math/big"
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
	// A limit is positive and at most MaxTimeDays (365) days: 525600
	// minutes, 8760 hours or 365-0 is the largest.
	for _, ok := range []string{"30", "30:00", "90:30", "0:01", "0:00:01", "1:00:00", "48:00:00", "2-0", "2-12", "2-12:30", "1-00:00:00",
		"525600", "525599:59", "8760:00:00", "365-0", "364-23:59:59", "0-0:0:1", "UNLIMITED", "INFINITE"} {
		if err := CheckTime(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "1h", "1:60", "1:00:60", "1:60:00", "-1", "1-24", "1-2:60", "1:2:3:4", "1.5", "2-", " 30"} {
		if err := CheckTime(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for bad, want := range map[string]string{
		"99999999999999999999":      "more than 365 days",
		"525601":                    "more than 365 days",
		"8760:00:01":                "more than 365 days",
		"365-0:0:1":                 "more than 365 days",
		"99999999999999999999-0":    "more than 365 days",
		"1:99999999999999999999":    "seconds 99999999999999999999 is not below 60",
		"9223372036854775807:59:59": "more than 365 days",
		"153722867280912930-0":      "more than 365 days",
		"0":                         "a limit of 0, which sbatch reads as no limit: write UNLIMITED",
		"0:00":                      "a limit of 0",
		"0-0:00:00":                 "a limit of 0",
	} {
		if err := CheckTime(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
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

// FuzzCheckTime: any text is accepted or refused without a panic; a limit
// accepted is UNLIMITED or digits in sbatch's shapes, and never longer than
// MaxTimeDays (the total parsed independently, in big integers).
func FuzzCheckTime(f *testing.F) {
	for _, s := range []string{"30", "1:00:00", "2-12:30", "99999999999999999999", "0", "365-0:0:1", "1:99999999999999999999", "UNLIMITED"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckTime(s) != nil || s == "UNLIMITED" || s == "INFINITE" {
			return
		}
		days, rest, hasDays := strings.Cut(s, "-")
		if !hasDays {
			days, rest = "0", s
		}
		parts := strings.Split(rest, ":")
		// Seconds per unit of each field, by shape.
		units := map[bool][][]int64{false: {{60}, {60, 1}, {3600, 60, 1}}, true: {{3600}, {3600, 60}, {3600, 60, 1}}}[hasDays]
		if len(parts) > 3 {
			t.Fatalf("%q accepted with %d fields", s, len(parts))
		}
		total := new(big.Int)
		d, ok := new(big.Int).SetString(days, 10)
		if !ok {
			t.Fatalf("%q accepted: days %q", s, days)
		}
		total.Mul(d, big.NewInt(86400))
		for i, p := range parts {
			v, ok := new(big.Int).SetString(p, 10)
			if !ok || v.Sign() < 0 {
				t.Fatalf("%q accepted: field %q", s, p)
			}
			total.Add(total, v.Mul(v, big.NewInt(units[len(parts)-1][i])))
		}
		if total.Sign() <= 0 || total.Cmp(big.NewInt(MaxTimeDays*86400)) > 0 {
			t.Errorf("%q accepted: %v seconds", s, total)
		}
	})
}
