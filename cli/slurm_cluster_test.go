package cli

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
)

// EnvTestSlurm (PUEVAL_TEST_SLURM=1) lets TestSlurmCluster start a Slurm
// cluster; make test-slurm sets it, plain go test ./... does not.
const EnvTestSlurm = "PUEVAL_TEST_SLURM"

// TestSlurmCluster starts a real one-node Slurm (munged, slurmctld and
// slurmd of Debian's slurm-wlm, as root, configured by a slurm.conf it
// writes under its temporary directory, on free ports, with its own munge
// socket and key, so nothing of the machine's is touched) and runs pueval
// through it:
//
//  1. pueval slurm --submit runs the AAAI-2017 smoke config as a 3-task
//     array and the merge job after it; the merged records equal a local
//     -j 2 run's (timings and work aside) and the report is byte-identical.
//  2. A bigger variant of the smoke config (15 repeats, bags of 100 nets,
//     so a shard runs for seconds): task 2 is cancelled mid-way (scancel),
//     Slurm cancels the merge job waiting on it, task 2 is re-submitted
//     alone and resumes from its finished cells, a new merge job merges; the
//     result equals a local run's, report included.
//  3. A merge job given a shard of another config (another seed) fails,
//     naming the shard.
//
// It skips unless PUEVAL_TEST_SLURM=1, when not root, when a Slurm or munge
// program is missing, or without the UCI data; the daemons (and any job
// left) are stopped however the test ends.
func TestSlurmCluster(t *testing.T) {
	if os.Getenv(EnvTestSlurm) != "1" {
		t.Skipf("set %s=1 (make test-slurm) to start a one-node Slurm cluster for this test", EnvTestSlurm)
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: slurmd and munged of a test cluster must run as root")
	}
	for _, p := range []string{"munged", "munge", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel", "sinfo"} {
		if _, err := lookSbin(p); err != nil {
			t.Skipf("%s is not installed (apt-get install slurm-wlm munge): %v", p, err)
		}
	}
	if os.Getenv(datasets.EnvMirror) == "" {
		t.Skipf("%s is not set: this test needs the UCI data", datasets.EnvMirror)
	}
	start := time.Now()
	work := t.TempDir()
	bin := filepath.Join(work, "pueval")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/pueval").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	c := startCluster(t, filepath.Join(work, "cluster"))
	t.Logf("cluster up, pueval built: %s", time.Since(start).Round(time.Second))

	// The shards share one data and score cache, as on a shared file system.
	shared := filepath.Join(work, "shared-cache")
	pv := func(cache string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(c.env(), "PUEVAL_DATA="+cache)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	local := func(config, name string) string {
		t.Helper()
		dir := filepath.Join(work, name)
		cache := filepath.Join(work, name+"-cache")
		if out, err := pv(cache, "run", config, "-o", dir, "-j", "2"); err != nil {
			t.Fatalf("local run of %s: %v\n%s", config, err, out)
		}
		if out, err := pv(cache, "report", dir); err != nil {
			t.Fatalf("report: %v\n%s", err, out)
		}
		return dir
	}

	// 1. The smoke config as a 3-task array.
	t0 := time.Now()
	smokeLocal := local("aaai2017-smoke", "smoke-local")
	dirA := filepath.Join(work, "smoke-slurm")
	out, err := pv(shared, "slurm", "aaai2017-smoke", "-o", dirA, "--array", "3", "--cpus-per-task", "1", "--time", "10:00", "--submit")
	if err != nil {
		t.Fatalf("pueval slurm --submit: %v\n%s", err, out)
	}
	arrayA, mergeA := c.submitted(t, out)
	c.wait(t, 3*time.Minute, arrayA, mergeA)
	c.wantStates(t, arrayA, "COMPLETED", "COMPLETED", "COMPLETED")
	c.wantStates(t, mergeA, "COMPLETED")
	if a, b := plugintest.ResultsOnly(t, dirA), plugintest.ResultsOnly(t, smokeLocal); !bytes.Equal(a, b) || bytes.Count(a, []byte("\n")) != 18 {
		t.Errorf("the 3-task array's merged records differ from the local -j 2 run's (%d vs %d lines)",
			bytes.Count(a, []byte("\n")), bytes.Count(b, []byte("\n")))
	}
	sameReport(t, dirA, smokeLocal)
	if m, err := results.ReadManifest(dirA); err != nil || len(m.Shards) != 3 || m.Finished == nil {
		t.Errorf("merged manifest: %+v %v", m, err)
	}
	t.Logf("1. smoke config, 3-task array + merge job: equal to the local run (%s)", time.Since(t0).Round(time.Second))

	// 2. Cancel a shard mid-way, re-submit it, merge.
	t0 = time.Now()
	slow := filepath.Join(work, "slow.yaml")
	text := readSmoke(t)
	text = strings.Replace(strings.Replace(text, "repeats: 2", "repeats: 15", 1), "bags: 10", "bags: 100", 1)
	if err := os.WriteFile(slow, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	slowLocal := local(slow, "slow-local")
	t.Logf("   local run of the bigger config: %s", time.Since(t0).Round(time.Second))
	dirB := filepath.Join(work, "slow-slurm")
	if out, err = pv(shared, "slurm", slow, "-o", dirB, "--array", "3", "--cpus-per-task", "1", "--submit"); err != nil {
		t.Fatalf("pueval slurm --submit: %v\n%s", err, out)
	}
	arrayB, mergeB := c.submitted(t, out)
	shard2 := filepath.Join(dirB, "shards", "2", results.RecordsFile)
	for deadline := time.Now().Add(2 * time.Minute); countLines(shard2) < 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("task 2 wrote no records in 2 minutes\n%s", c.logs())
		}
	}
	if out, err := c.run("scancel", arrayB+"_2"); err != nil {
		t.Fatalf("scancel: %v\n%s", err, out)
	}
	c.wait(t, 2*time.Minute, arrayB+"_2", mergeB)
	done := countLines(shard2)
	if done >= 45 {
		t.Fatalf("task 2 finished its 45 cells before scancel reached it: make the bigger config bigger")
	}
	c.wantStates(t, arrayB+"_2", "CANCELLED")
	c.wantStates(t, mergeB, "CANCELLED") // --kill-on-invalid-dep: its dependency can never be satisfied
	// Re-submit task 2 alone, once the rest of the array is over, and a merge after it.
	again, err := c.sbatch("--array=2", "--dependency=afterany:"+arrayB, filepath.Join(dirB, "slurm", "array.sh"))
	if err != nil {
		t.Fatal(err)
	}
	mergeB2, err := c.sbatch("--dependency=afterok:"+again, "--kill-on-invalid-dep=yes", filepath.Join(dirB, "slurm", "merge.sh"))
	if err != nil {
		t.Fatal(err)
	}
	c.wait(t, 4*time.Minute, arrayB, again, mergeB2)
	c.wantStates(t, arrayB, "COMPLETED", "CANCELLED", "COMPLETED")
	c.wantStates(t, again, "COMPLETED")
	c.wantStates(t, mergeB2, "COMPLETED")
	log2, _ := os.ReadFile(filepath.Join(dirB, "slurm", "logs", "shard-2.out"))
	// The log holds both attempts (--open-mode=append): the last summary line is the re-run's.
	runs := regexp.MustCompile(`(\d+) cells run \(0 failed\), (\d+) from earlier runs`).FindAllStringSubmatch(string(log2), -1)
	if len(runs) != 2 {
		t.Fatalf("shard 2's log shows %d runs, want the cancelled one and the re-run:\n%s", len(runs), log2)
	}
	ran, earlier := atoi(runs[1][1]), atoi(runs[1][2])
	if earlier < done || ran+earlier != 45 || !strings.Contains(string(log2), "interrupted after") {
		t.Errorf("task 2 had %d records when cancelled; its re-run ran %d cells and kept %d from the cancelled run, want >= %d and 45 in all:\n%s",
			done, ran, earlier, done, log2)
	}
	if a, b := plugintest.ResultsOnly(t, dirB), plugintest.ResultsOnly(t, slowLocal); !bytes.Equal(a, b) || bytes.Count(a, []byte("\n")) != 135 {
		t.Errorf("after the cancel and re-submission, the merged records differ from the local run's (%d vs %d lines)",
			bytes.Count(a, []byte("\n")), bytes.Count(b, []byte("\n")))
	}
	sameReport(t, dirB, slowLocal)
	t.Logf("2. cancelled task 2 after %d of its 45 cells, re-submitted: it kept %d and ran %d; merge equal to the local run (%s)",
		done, earlier, ran, time.Since(t0).Round(time.Second))

	// 3. A shard of another config: the merge job fails, naming it.
	t0 = time.Now()
	other := filepath.Join(work, "other.yaml")
	if err := os.WriteFile(other, []byte(strings.Replace(readSmoke(t), "seed: 2017", "seed: 7", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	otherShard := filepath.Join(work, "other-shard3")
	if out, err := pv(shared, "run", other, "-o", otherShard, "--shard", "3/3"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	badLog := filepath.Join(work, "bad-merge.out")
	bad, err := c.sbatch("--output="+badLog, "--wrap", strings.Join([]string{bin, "merge", filepath.Join(work, "bad-merge"),
		filepath.Join(dirA, "shards", "1"), filepath.Join(dirA, "shards", "2"), otherShard}, " "))
	if err != nil {
		t.Fatal(err)
	}
	c.wait(t, time.Minute, bad)
	c.wantStates(t, bad, "FAILED")
	msg, _ := os.ReadFile(badLog)
	if want := "pueval: merge: shard " + otherShard + " (3/3) holds the results of another configuration"; !strings.Contains(string(msg), want) {
		t.Errorf("the merge job's log lacks %q:\n%s", want, msg)
	}
	t.Logf("3. a merge job with a shard of another config failed: %s (%s)", strings.TrimSpace(string(msg)), time.Since(t0).Round(time.Second))
	t.Logf("TestSlurmCluster took %s", time.Since(start).Round(time.Second))
}

// cluster is a one-node Slurm started by the test.
type cluster struct {
	dir   string
	conf  string
	procs []*exec.Cmd
	jobs  []string
}

// lookSbin finds a program in PATH or /usr/sbin (daemons live there, and
// PATH may not name it).
func lookSbin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	p := filepath.Join("/usr/sbin", name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s is not in PATH or /usr/sbin", name)
	}
	return p, nil
}

// freePorts returns n distinct TCP ports nothing listens on now. The
// listeners are all held until every port is known: one released at once
// can be handed out again by the next call (which once gave slurmctld and
// slurmd the same port).
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// startCluster starts munged, slurmctld and slurmd under dir and waits for
// the node to be idle.
func startCluster(t *testing.T, dir string) *cluster {
	t.Helper()
	c := &cluster{dir: dir, conf: filepath.Join(dir, "slurm.conf")}
	for _, d := range []string{"munge", "state", "spool"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { c.stop(t) })

	// munged with its own key and socket.
	key := make([]byte, 1024)
	rand.Read(key)
	keyPath := filepath.Join(dir, "munge", "munge.key")
	if err := os.WriteFile(keyPath, key, 0o400); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "munge", "munge.socket")
	c.start(t, "munged", "--foreground", "--force", "--socket="+sock, "--key-file="+keyPath,
		"--pid-file="+filepath.Join(dir, "munge", "munged.pid"), "--log-file="+filepath.Join(dir, "munge", "munged.log"),
		"--seed-file="+filepath.Join(dir, "munge", "munged.seed"))
	c.until(t, 20*time.Second, "munged to answer", func() bool {
		_, err := exec.Command(mustSbin(t, "munge"), "-S", sock, "-n").Output()
		return err == nil
	})

	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	ports := freePorts(t, 2) // slurmctld's and slurmd's
	conf := fmt.Sprintf(`# Written by pueval's TestSlurmCluster: a one-node cluster for one test.
ClusterName=pueval-test
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
AuthType=auth/munge
AuthInfo=socket=%[4]s
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/slurmctld.log
SlurmdLogFile=%[5]s/slurmd.log
SlurmUser=root
ReturnToService=2
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[6]d State=UNKNOWN
PartitionName=debug Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, ports[0], ports[1], sock, dir, runtime.NumCPU())
	if err := os.WriteFile(c.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	c.start(t, "slurmctld", "-D")
	c.until(t, 30*time.Second, "slurmctld to answer", func() bool {
		out, err := c.run("scontrol", "ping")
		return err == nil && strings.Contains(out, "UP")
	})
	c.start(t, "slurmd", "-D")
	c.until(t, 60*time.Second, "the node to be idle", func() bool {
		out, err := c.run("sinfo", "-h", "-o", "%T")
		return err == nil && strings.TrimSpace(out) == "idle"
	})
	return c
}

func mustSbin(t *testing.T, name string) string {
	t.Helper()
	p, err := lookSbin(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// env is the environment of the Slurm commands: SLURM_CONF names the
// test's slurm.conf (the daemons and the jobs they run read it too).
func (c *cluster) env() []string {
	return append(os.Environ(), "SLURM_CONF="+c.conf)
}

// start starts a daemon in the foreground; stop ends it.
func (c *cluster) start(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(mustSbin(t, name), args...)
	cmd.Env = c.env()
	logf, err := os.Create(filepath.Join(c.dir, name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	logf.Close()
	c.procs = append(c.procs, cmd)
}

// stop cancels the jobs the test submitted, then stops the daemons it
// started (SIGTERM, then SIGKILL after 15 s), last started first.
func (c *cluster) stop(t *testing.T) {
	if len(c.jobs) > 0 {
		c.run("scancel", c.jobs...)
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			if active, err := c.active(c.jobs...); err != nil || !active {
				break
			}
		}
	}
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		p.Process.Signal(syscall.SIGTERM)
		exited := make(chan struct{})
		go func() { p.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			p.Process.Kill()
			<-exited
		}
	}
	if t.Failed() {
		t.Log(c.logs())
	}
}

// logs returns the tails of the daemons' logs, for a failure's message.
func (c *cluster) logs() string {
	var b strings.Builder
	for _, f := range []string{"slurmctld.log", "slurmd.log", "munge/munged.log"} {
		data, _ := os.ReadFile(filepath.Join(c.dir, f))
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		fmt.Fprintf(&b, "--- %s (last lines)\n%s\n", f, strings.Join(lines[max(0, len(lines)-15):], "\n"))
	}
	return b.String()
}

// run runs a Slurm command against the test's cluster.
func (c *cluster) run(name string, args ...string) (string, error) {
	p, err := lookSbin(name)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(p, args...)
	cmd.Env = c.env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// sbatch submits a job with --parsable and returns its id.
func (c *cluster) sbatch(args ...string) (string, error) {
	out, err := c.run("sbatch", append([]string{"--parsable"}, args...)...)
	if err != nil {
		return "", fmt.Errorf("sbatch %v: %v\n%s", args, err, out)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
	c.jobs = append(c.jobs, id)
	return id, nil
}

// until polls cond every 100 ms until it holds, failing after limit.
func (c *cluster) until(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s\n%s", limit, what, c.logs())
		}
	}
}

// active reports whether any of the jobs (job ids, array job ids, or
// ARRAY_TASK ids) is pending or running.
func (c *cluster) active(ids ...string) (bool, error) {
	out, err := c.run("squeue", "-h", "-o", "%F %i %A")
	if err != nil {
		return false, fmt.Errorf("squeue: %v: %s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		for _, f := range strings.Fields(line) {
			if slices.Contains(ids, f) {
				return true, nil
			}
		}
	}
	return false, nil
}

// wait waits until none of the jobs is pending or running.
func (c *cluster) wait(t *testing.T, limit time.Duration, ids ...string) {
	t.Helper()
	c.until(t, limit, "jobs "+strings.Join(ids, ", ")+" to end", func() bool {
		active, err := c.active(ids...)
		if err != nil {
			t.Fatal(err)
		}
		return !active
	})
}

// wantStates checks the states of a job, or of an array job's tasks in
// task order, as scontrol show job reports them (accounting is off, so
// sacct cannot).
func (c *cluster) wantStates(t *testing.T, id string, want ...string) {
	t.Helper()
	out, err := c.run("scontrol", "show", "job", "-o", id)
	if err != nil {
		t.Fatalf("scontrol show job %s: %v\n%s", id, err, out)
	}
	type task struct {
		n     int
		state string
	}
	var tasks []task
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		st := regexp.MustCompile(`\bJobState=(\S+)`).FindStringSubmatch(line)
		if st == nil {
			continue
		}
		n := 0
		if m := regexp.MustCompile(`\bArrayTaskId=(\d+)\b`).FindStringSubmatch(line); m != nil {
			n = atoi(m[1])
		}
		tasks = append(tasks, task{n, st[1]})
	}
	slices.SortFunc(tasks, func(a, b task) int { return a.n - b.n })
	var got []string
	for _, x := range tasks {
		got = append(got, x.state)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("job %s: states %v, want %v\n%s", id, got, want, out)
	}
}

// submitted reads the array and merge job ids pueval slurm --submit printed.
func (c *cluster) submitted(t *testing.T, out string) (array, merge string) {
	t.Helper()
	a := regexp.MustCompile(`submitted array job (\d+)`).FindStringSubmatch(out)
	m := regexp.MustCompile(`submitted merge job (\d+)`).FindStringSubmatch(out)
	if a == nil || m == nil {
		t.Fatalf("pueval slurm --submit printed no job ids:\n%s", out)
	}
	c.jobs = append(c.jobs, a[1], m[1])
	return a[1], m[1]
}

func countLines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
