package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// fakeSbatch puts an sbatch in PATH that logs its arguments to DIR/sbatch.log
// and prints the job ids 41;cluster then 42, as sbatch --parsable does.
func fakeSbatch(t *testing.T) (logPath string) {
	t.Helper()
	bin := t.TempDir()
	logPath = filepath.Join(bin, "sbatch.log")
	script := `#!/bin/sh
echo "$@" >> ` + logPath + `
n=$(wc -l < ` + logPath + `)
if [ "$n" -eq 1 ]; then echo "41;cluster"; else echo 42; fi
`
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return logPath
}

// `pueval slurm` writes the scripts (executable, paths absolute) and with
// --submit submits the array, then the merge job after it, and prints both
// ids.
func TestSlurmSubmit(t *testing.T) {
	logPath := fakeSbatch(t)
	t.Setenv("PUEVAL_DATA", "/shared/cache")
	dir := filepath.Join(t.TempDir(), "res")
	stdout, _, err := runCLI(t, "slurm", "aaai2017-smoke", "-o", dir, "--array", "3", "--time", "0:30:00", "--partition", "debug",
		"--cpus-per-task", "2", "--pueval", "/opt/pueval", "--submit")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wrote " + filepath.Join(dir, "slurm", "array.sh") + ": 3 tasks, shard K/3 of aaai2017-smoke (18 cells)",
		"submitted array job 41: 3 tasks\n", "submitted merge job 42: runs after every task of 41 succeeded\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	log, _ := os.ReadFile(logPath)
	wantLog := "--parsable " + filepath.Join(dir, "slurm", "array.sh") + "\n" +
		"--parsable --dependency=afterok:41 --kill-on-invalid-dep=yes " + filepath.Join(dir, "slurm", "merge.sh") + "\n"
	if string(log) != wantLog {
		t.Errorf("sbatch ran with\n%s\nwant\n%s", log, wantLog)
	}
	array, err := os.ReadFile(filepath.Join(dir, "slurm", "array.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --array=1-3\n", "#SBATCH --time=0:30:00\n", "#SBATCH --partition=debug\n", "#SBATCH --cpus-per-task=2\n",
		"export PUEVAL_DATA=/shared/cache\n", "/opt/pueval run aaai2017-smoke -o " + filepath.Join(dir, "shards") + `/"$k" --shard "$k"/3 -j 1` + "\n"} {
		if !strings.Contains(string(array), want) {
			t.Errorf("array.sh lacks %q:\n%s", want, array)
		}
	}
	for _, f := range []string{"array.sh", "merge.sh", "submit.sh"} {
		if fi, err := os.Stat(filepath.Join(dir, "slurm", f)); err != nil || fi.Mode()&0o100 == 0 {
			t.Errorf("%s: %v, not executable", f, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "slurm", "logs")); err != nil || !fi.IsDir() {
		t.Errorf("no log directory: %v", err)
	}
}

func TestSlurmRefusals(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"aaai2017-smoke"}, "--array 0: want the number of array tasks"},
		{[]string{"aaai2017-smoke", "--array", "19"}, "--array 19: the config aaai2017-smoke selects 18 cells, so at most 18 tasks have work"},
		{[]string{"aaai2017-smoke", "--array", "2", "--repeats", "1", "--datasets", "pima", "--array", "4"}, "selects 3 cells"},
		{[]string{"aaai2017-smoke", "--array", "3", "--time", "2h"}, `--time "2h": want minutes`},
		{[]string{"aaai2017-smoke", "--array", "3", "--time", "99999999999999999999"}, `--time "99999999999999999999": more than 365 days`},
		{[]string{"aaai2017-smoke", "--array", "3", "--time", "0"}, `--time "0": a limit of 0`},
		{[]string{"aaai2017-smoke", "--array", "3", "--partition", "a b"}, `--partition "a b"`},
		{[]string{"aaai2017-smoke", "--array", "3", "--cpus-per-task", "-2"}, "--cpus-per-task -2"},
		{[]string{"nope", "--array", "3"}, "no built-in config of that name"},
		{[]string{"aaai2017-smoke", "--array", "3", "-o", filepath.Join(dir, "a b")}, "contains white space"},
	} {
		_, _, err := runCLI(t, append([]string{"slurm"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "pueval: slurm: ") {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	// --submit without sbatch says where the scripts are.
	t.Setenv("PATH", t.TempDir())
	_, _, err := runCLI(t, "slurm", "aaai2017-smoke", "--array", "3", "-o", filepath.Join(dir, "r"), "--pueval", "/opt/pueval", "--submit")
	if err == nil || !strings.Contains(err.Error(), "sbatch is not in PATH: run "+filepath.Join(dir, "r", "slurm", "submit.sh")) {
		t.Errorf("no sbatch: %v", err)
	}
}

// rankingConfig writes a config of one scores-file data set (2 betas x 2
// repeats: 4 cells, no classifier) and its scores into a new directory,
// and returns the config's path.
func rankingConfig(t *testing.T, seed string) string {
	t.Helper()
	dir := t.TempDir()
	writeRanking(t, filepath.Join(dir, "scores.csv"), 0)
	cfg := filepath.Join(dir, "c.yaml")
	src := "experiment: ranked\nseed: " + seed + "\nrepeats: 2\nprotocol: {name: case-control, labeled: 30, max_unlabeled: 200}\n" +
		"grid: {beta: [1, 0.9]}\ndatasets: [{name: s, source: {name: scores-file, file: scores.csv}}]\nmetrics: [auc]\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// writeRanking writes 300 scores with labels, shifted by shift.
func writeRanking(t *testing.T, path string, shift float64) {
	t.Helper()
	var b strings.Builder
	b.WriteString("score,label\n")
	for i := range 300 {
		fmt.Fprintf(&b, "%g,%d\n", float64((i*37)%101)/100+shift+float64(i%3)/4, map[bool]int{true: 1}[i%3 == 0])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pueval slurm -o DIR checks every directory its jobs would write to before
// it writes or submits anything, refusing what the tasks or the merge would
// refuse only after the array ran: DIR holding a run's results; a shard
// directory of another config (naming the settings), of another --array, read
// from other data, or in use. A DIR whose shards are of this job continues.
func TestSlurmChecksBeforeWriting(t *testing.T) {
	t.Setenv("PUEVAL_DATA", t.TempDir())
	cfg := rankingConfig(t, "1")
	root := t.TempDir()
	run := func(config, out string, args ...string) {
		t.Helper()
		if _, stderr, err := runCLI(t, append([]string{"run", config, "-o", out}, args...)...); err != nil {
			t.Fatalf("run: %v\n%s", err, stderr)
		}
	}
	refused := func(name, want string) {
		t.Helper()
		out := filepath.Join(root, name)
		_, _, err := runCLI(t, "slurm", cfg, "--array", "2", "-o", out, "--pueval", "/opt/pueval")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v\nwant %q", name, err, want)
		}
		if _, err := os.Stat(filepath.Join(out, "slurm")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: the scripts were written (%v)", name, err)
		}
	}
	finished := filepath.Join(root, "finished")
	run(cfg, finished)
	refused("finished", finished+" holds the results of a finished run (pueval run, not a merge of shards): "+
		"the merge job would refuse to write there once the array ran; choose another -o")

	other := filepath.Join(root, "other", "shards", "1")
	run(rankingConfig(t, "2"), other, "--shard", "1/2")
	refused("other", "shard 1/2: "+other+" holds the results of another configuration (experiment ranked from ")
	refused("other", "(the directory's -> this one's: seed: 2 -> 1)")

	// Cells 0 and 3 of shard 1/3; shard 1/2 has 0 and 2.
	split := filepath.Join(root, "split", "shards", "1")
	run(cfg, split, "--shard", "1/3")
	refused("split", "shard 1/2: "+split+" holds cell s/beta=0.9/repeat=1, which is not a cell of shard 1/2 of this selection")

	changed := filepath.Join(root, "changed")
	run(cfg, filepath.Join(changed, "shards", "2"), "--shard", "2/2")
	writeRanking(t, filepath.Join(filepath.Dir(cfg), "scores.csv"), 1)
	refused("changed", "shard 2/2: data set s: its data changed since the records in "+filepath.Join(changed, "shards", "2")+" were computed")
	writeRanking(t, filepath.Join(filepath.Dir(cfg), "scores.csv"), 0)

	lock, err := results.LockDir(filepath.Join(root, "busy", "shards", "1"))
	if err != nil {
		t.Fatal(err)
	}
	// The lock is this test's own, so the refusal names this process.
	refused("busy", "shard 1/2: "+filepath.Join(root, "busy", "shards", "1")+" is locked by this pueval itself")
	lock.Unlock()

	// The data back as they were: the job continues its shards.
	if _, _, err := runCLI(t, "slurm", cfg, "--array", "2", "-o", changed, "--pueval", "/opt/pueval"); err != nil {
		t.Errorf("continuing a job: %v", err)
	}
	if _, err := os.Stat(filepath.Join(changed, "slurm", "array.sh")); err != nil {
		t.Error(err)
	}
}

// runFactLine is the run facts' line with the run's start, end and
// duration (report.factsSection).
var runFactLine = regexp.MustCompile(`<tr><th>Run</th><td>[^<]*</td></tr>`)

// reportFiles returns the files of dir/report (the lock file aside) by name.
func reportFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	root := filepath.Join(dir, "report")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == results.LockFile {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameReport fails the test unless the reports of two results directories
// are byte-identical, file by file, but for the "Run" line of the run facts
// at the top of index.html: when the run started and how long it took,
// which, like the records' timings, describes the execution and differs
// between any two runs.
func sameReport(t *testing.T, a, b string) {
	t.Helper()
	fa, fb := reportFiles(t, a), reportFiles(t, b)
	for _, f := range []map[string][]byte{fa, fb} {
		if html, ok := f["index.html"]; ok {
			f["index.html"] = runFactLine.ReplaceAll(html, []byte("<tr><th>Run</th><td>(the run's times)</td></tr>"))
		}
	}
	if len(fa) < 5 || len(fa) != len(fb) {
		t.Errorf("reports have %d and %d files", len(fa), len(fb))
	}
	for name, x := range fa {
		if y, ok := fb[name]; !ok || !bytes.Equal(x, y) {
			t.Errorf("report file %s differs (or is missing) between %s and %s", name, a, b)
		}
	}
}

// localRun runs CONFIG into a new directory with -j 2 and its own data
// cache, with its report when asked, and returns the directory: what a
// merge of shards must equal.
func localRun(t *testing.T, config string, withReport bool) string {
	t.Helper()
	t.Setenv("PUEVAL_DATA", t.TempDir())
	dir := filepath.Join(t.TempDir(), "local")
	if _, stderr, err := runCLI(t, "run", config, "-o", dir, "-j", "2"); err != nil {
		t.Fatalf("local run: %v\n%s", err, stderr)
	}
	if withReport {
		if _, _, err := runCLI(t, "report", dir); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The scripts of pueval slurm, run without Slurm (bash with the array
// task's SLURM_ARRAY_TASK_ID, the three tasks at once, against one cold data
// and score cache, then the merge script), give the records of one local
// -j 2 run (timings and work aside) and a byte-identical report; the shared
// cache ends up whole: no temporary files, every entry readable, the data
// cache's manifest listing every file fetched.
func TestSlurmScriptsWithoutSlurm(t *testing.T) {
	if os.Getenv(datasets.EnvMirror) == "" {
		t.Skipf("%s is not set: this test needs the UCI data", datasets.EnvMirror)
	}
	local := localRun(t, "aaai2017-smoke", true)

	cache := t.TempDir()
	t.Setenv("PUEVAL_DATA", cache) // pinned into the scripts
	dir := filepath.Join(t.TempDir(), "res")
	if _, _, err := runCLI(t, "slurm", "aaai2017-smoke", "-o", dir, "--array", "3", "--pueval", os.Args[0]); err != nil {
		t.Fatal(err)
	}
	script := func(name string, env ...string) *exec.Cmd {
		cmd := exec.Command("bash", filepath.Join(dir, "slurm", name))
		cmd.Env = append(os.Environ(), append(env, "PUEVAL_TEST_RUN_MAIN=1", "PUEVAL_DATA=/not/the/pinned/cache")...)
		return cmd
	}
	var wg sync.WaitGroup
	outs := make([][]byte, 3)
	errs := make([]error, 3)
	for k := 1; k <= 3; k++ {
		wg.Go(func() {
			outs[k-1], errs[k-1] = script("array.sh", "SLURM_ARRAY_TASK_ID="+string(rune('0'+k)), "SLURM_ARRAY_JOB_ID=7").CombinedOutput()
		})
	}
	wg.Wait()
	for k := range 3 {
		if errs[k] != nil || !strings.Contains(string(outs[k]), "pueval slurm: array job 7 task "+string(rune('1'+k))+" of 3") {
			t.Fatalf("task %d: %v\n%s", k+1, errs[k], outs[k])
		}
	}
	if out, err := script("merge.sh").CombinedOutput(); err != nil || !strings.Contains(string(out), "merged 3 shards") {
		t.Fatalf("merge.sh: %v\n%s", err, out)
	}
	if a, b := plugintest.ResultsOnly(t, dir), plugintest.ResultsOnly(t, local); !bytes.Equal(a, b) || bytes.Count(a, []byte("\n")) != 18 {
		t.Errorf("merged records differ from the local run's (%d vs %d lines)", bytes.Count(a, []byte("\n")), bytes.Count(b, []byte("\n")))
	}
	sameReport(t, dir, local)
	man, err := results.ReadManifest(dir)
	if err != nil || len(man.Shards) != 3 || man.Shards[1].Dir != "shards/2" || man.Finished == nil || man.Cells != 18 {
		t.Errorf("merged manifest: %+v %v", man, err)
	}
	checkCacheWhole(t, cache)
}

// checkCacheWhole checks a data and score cache that several processes
// wrote at once: no temporary file left, every score and estimate entry
// passes its checksum, every raw file fetched is in the cache manifest.
func checkCacheWhole(t *testing.T, cache string) {
	t.Helper()
	sc, err := results.OpenCache(filepath.Join(cache, "scores"))
	if err != nil {
		t.Fatal(err)
	}
	var raw []string
	entries := 0
	err = filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if strings.Contains(name, ".tmp") || strings.HasSuffix(name, ".part") {
			t.Errorf("temporary file left in the cache: %s", p)
		}
		key, kind, _ := strings.Cut(name, ".")
		switch {
		case kind == "scores":
			entries++
			if _, ok, err := sc.GetScores(key); !ok || err != nil {
				t.Errorf("score entry %s: %v", p, err)
			}
		case kind == "estimate":
			entries++
			if _, ok, err := sc.GetEstimate(key); !ok || err != nil {
				t.Errorf("estimate entry %s: %v", p, err)
			}
		case strings.Contains(p, string(filepath.Separator)+"uci"+string(filepath.Separator)) && !strings.HasPrefix(name, ".") && name != "manifest.json":
			rel, _ := filepath.Rel(filepath.Join(cache, "uci"), p)
			raw = append(raw, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if entries == 0 || len(raw) == 0 {
		t.Errorf("the cache holds %d score entries and %d raw files", entries, len(raw))
	}
	m, err := os.ReadFile(filepath.Join(cache, "uci", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range raw {
		if !strings.Contains(string(m), `"`+r+`"`) {
			t.Errorf("the data cache's manifest lacks %s (an update lost between processes)", r)
		}
	}
}

// pueval merge through the command line: the shards of the smoke config run
// one after another (sharing a cache) merge into the local run's records
// (TestSlurmScriptsWithoutSlurm compares the reports); a shard of another
// config is refused by name; two shards of three are refused unless
// --partial; --config must name the shards' config.
func TestMergeCommand(t *testing.T) {
	if os.Getenv(datasets.EnvMirror) == "" {
		t.Skipf("%s is not set: this test needs the UCI data", datasets.EnvMirror)
	}
	local := localRun(t, "aaai2017-smoke", false)
	t.Setenv("PUEVAL_DATA", t.TempDir())
	root := t.TempDir()
	var shards []string
	for k := 1; k <= 3; k++ {
		d := filepath.Join(root, "shard"+string(rune('0'+k)))
		if _, stderr, err := runCLI(t, "run", "aaai2017-smoke", "-o", d, "--shard", string(rune('0'+k))+"/3"); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		shards = append(shards, d)
	}
	out := filepath.Join(root, "merged")
	_, stderr, err := runCLI(t, append([]string{"merge", out}, shards...)...)
	if err != nil || !strings.Contains(stderr, "merged 3 shards (1/3 on ") || !strings.Contains(stderr, "18 records in grid order (0 failed)") {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if a, b := plugintest.ResultsOnly(t, out), plugintest.ResultsOnly(t, local); !bytes.Equal(a, b) || bytes.Count(a, []byte("\n")) != 18 {
		t.Error("merged records differ from the local run's")
	}

	// A shard of another config (another seed) is refused, naming it.
	other := writeFile(t, "other.yaml", strings.Replace(readSmoke(t), "seed: 2017", "seed: 7", 1))
	otherShard := filepath.Join(root, "other3")
	if _, stderr, err := runCLI(t, "run", other, "-o", otherShard, "--shard", "3/3", "--repeats", "1", "--datasets", "pima"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	_, _, err = runCLI(t, "merge", filepath.Join(root, "m2"), shards[0], shards[1], otherShard)
	if err == nil || !strings.Contains(err.Error(), "pueval: merge: shard "+otherShard+" (3/3) holds the results of another configuration (experiment aaai2017-smoke from "+other) {
		t.Errorf("other config: %v", err)
	}
	// Two shards only: refused, naming the missing one; --partial merges them.
	_, _, err = runCLI(t, "merge", filepath.Join(root, "m3"), shards[0], shards[2])
	if err == nil || !strings.Contains(err.Error(), "6 of the 18 cells are missing: shard 2/3 was not given") || !strings.Contains(err.Error(), "--partial") {
		t.Errorf("missing shard: %v", err)
	}
	if _, stderr, err := runCLI(t, "merge", "--partial", filepath.Join(root, "m3"), shards[0], shards[2]); err != nil || !strings.Contains(stderr, "6 cells missing (--partial)") {
		t.Errorf("--partial: %v\n%s", err, stderr)
	}
	// The config is read from the manifest; a config that is not the shards' is refused.
	if _, _, err := runCLI(t, append([]string{"merge", "--config", other, filepath.Join(root, "m4")}, shards...)...); err == nil || !strings.Contains(err.Error(), "than the config given") {
		t.Errorf("--config of another config: %v", err)
	}
	if _, _, err := runCLI(t, append([]string{"merge", filepath.Join(root, "m5")}, shards...)...); err != nil {
		t.Errorf("merge with the config from the manifest: %v", err)
	}
	if _, _, err := runCLI(t, "merge", out); err == nil || !strings.Contains(err.Error(), "want the output directory and at least one shard directory") {
		t.Errorf("no shards: %v", err)
	}
}

func readSmoke(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../papers/aaai2017/aaai2017-smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
