package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func rec(cell, status string, auc float64) Record {
	return Record{
		Schema: SchemaVersion, Experiment: "exp", Cell: cell, Dataset: "pima",
		Grid: map[string]string{"beta": "0.95"}, Seed: "18446744073709551615", Status: status,
		Alpha: 0.25, Beta: 0.95,
		Metrics: map[string]map[string]float64{"auc": {"truth": 0.8, "pu": auc}},
		Timings: map[string]float64{"total": 1.5},
	}
}

func TestStoreAppendReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A run writes its manifest before its first record.
	if err := WriteManifest(dir, Manifest{Experiment: "exp"}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []Record{rec("a", StatusOK, 0.7), rec("b", StatusFailed, 0.6), rec("c", StatusOK, 0.5)} {
		if err := s.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	// A run killed mid-write leaves a torn line at the end.
	f, _ := os.OpenFile(filepath.Join(dir, RecordsFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"schema":1,"experiment":"exp","cell":"d","sta`)
	f.Close()

	s, err = OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Done("a") || s.Done("b") || !s.Done("c") || s.Done("d") {
		t.Errorf("done: a %v b %v c %v d %v", s.Done("a"), s.Done("b"), s.Done("c"), s.Done("d"))
	}
	// The retried failed cell succeeds; its last record wins.
	if err := s.Append(rec("b", StatusOK, 0.66)); err != nil {
		t.Fatal(err)
	}
	if err := s.Finalize([]string{"c", "b", "a"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	got, err := ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, r := range got {
		cells = append(cells, r.Cell)
	}
	if strings.Join(cells, ",") != "c,b,a" || got[1].Metrics["auc"]["pu"] != 0.66 || got[0].Seed != "18446744073709551615" {
		t.Errorf("records after finalize: %v %+v", cells, got[1])
	}
	b, _ := os.ReadFile(filepath.Join(dir, RecordsFile))
	if strings.Count(string(b), "\n") != 3 || strings.Contains(string(b), `"cell":"d"`) {
		t.Errorf("file after finalize:\n%s", b)
	}
}

func TestStoreCorruptMiddleLine(t *testing.T) {
	dir := t.TempDir()
	line, _ := (&Record{Schema: 1, Experiment: "e", Cell: "a", Status: StatusOK}).Marshal()
	os.WriteFile(filepath.Join(dir, RecordsFile), append(append(line, "garbage\n"...), line...), 0o644)
	WriteManifest(dir, Manifest{Experiment: "e"})
	_, err := OpenStore(dir)
	if err == nil || !strings.Contains(err.Error(), RecordsFile+":2:") {
		t.Errorf("error %v, want one naming line 2", err)
	}
}

func TestRecordValidate(t *testing.T) {
	r := rec("a", StatusOK, math.NaN())
	if _, err := r.Marshal(); err == nil || !strings.Contains(err.Error(), "auc/pu") {
		t.Errorf("NaN metric: %v", err)
	}
	r = rec("a", "done", 0.5)
	if _, err := r.Marshal(); err == nil {
		t.Error("unknown status accepted")
	}
}

func TestStoreConcurrentAppend(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			if err := s.Append(rec(string(rune('A'+i)), StatusOK, 0.5)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	s.Close()
	got, err := ReadRecords(filepath.Join(dir, RecordsFile))
	if err != nil || len(got) != 50 {
		t.Fatalf("%d records, %v", len(got), err)
	}
}

func TestScoreCache(t *testing.T) {
	c, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	k1, _ := Key("fingerprint", []int{1, 2, 3}, map[string]int{"bags": 100, "hidden": 5}, uint64(7))
	k2, _ := Key("fingerprint", []int{1, 2, 3}, map[string]int{"hidden": 5, "bags": 100}, uint64(7))
	k3, _ := Key("fingerprint", []int{1, 2, 4}, map[string]int{"bags": 100, "hidden": 5}, uint64(7))
	if k1 != k2 || k1 == k3 || len(k1) != 64 {
		t.Fatalf("keys %s %s %s", k1, k2, k3)
	}
	if _, ok, err := c.GetScores(k1); ok || err != nil {
		t.Fatalf("empty cache: ok %v err %v", ok, err)
	}
	want := Scores{Scores: []float64{0.25, math.SmallestNonzeroFloat64, -0.0, 1}, Labels: []bool{true, false, false, true}}
	if err := c.PutScores(k1, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := c.GetScores(k1)
	if !ok || err != nil {
		t.Fatalf("ok %v err %v", ok, err)
	}
	for i := range want.Scores {
		if math.Float64bits(got.Scores[i]) != math.Float64bits(want.Scores[i]) || got.Labels[i] != want.Labels[i] {
			t.Fatalf("row %d: %v/%v", i, got.Scores[i], got.Labels[i])
		}
	}
	// Flip one byte: the checksum catches it.
	p, _ := c.path(k1)
	b, _ := os.ReadFile(p)
	b[len(cacheMagic)+9] ^= 1
	os.WriteFile(p, b, 0o644)
	if _, _, err := c.GetScores(k1); !errors.Is(err, ErrCorrupt) {
		t.Errorf("corrupt entry: %v", err)
	}
}

func TestManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	m := Manifest{Experiment: "aaai2017", ConfigHash: "abc", Cells: 3, Started: now, Finished: &now,
		Data: map[string]string{"pima": "f00"}, Machine: Machine{Host: "h", CPUs: 2}}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(dir)
	if err != nil || got.Experiment != "aaai2017" || !got.Finished.Equal(now) || got.Data["pima"] != "f00" || got.Schema != SchemaVersion {
		t.Errorf("%+v %v", got, err)
	}
}

// Schema-1 records upgrade by the documented key mapping, worked by hand
// for one record of each paper's metrics.
func TestUpgradeRecord(t *testing.T) {
	aaai := `{"schema":1,"experiment":"e","cell":"pima/beta=1/repeat=0","status":"ok","estimates":{"E":{"method":"alphamax-n","alpha":0.3,"beta":0.9}},` +
		`"metrics":{"auc":{"truth":0.9,"truth_same_model":0.8,"pu":0.7,"IR":0.81,"IR_clip":0.82,"DR":0.83,"IE":0.84,"IE_clip":0.85,"DE":0.86},"aucpr":{"truth":0.5,"IE":0.4}}}`
	r, err := ParseRecord([]byte(aaai))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]float64{
		"auc": {"truth:traditional": 0.9, "truth:same-model": 0.8, "pu": 0.7, "indirect:real": 0.81, "indirect-clip:real": 0.82,
			"direct:real": 0.83, "indirect:alphamax-n": 0.84, "indirect-clip:alphamax-n": 0.85, "direct:alphamax-n": 0.86},
		"aucpr": {"truth:traditional": 0.5, "indirect:alphamax-n": 0.4},
	}
	if r.Schema != SchemaVersion || !reflect.DeepEqual(r.Metrics, want) || r.Estimates["alphamax-n"].Beta != 0.9 || len(r.Estimates) != 1 {
		t.Errorf("upgraded AAAI record: schema %d, metrics %v, estimates %v", r.Schema, r.Metrics, r.Estimates)
	}
	psb := `{"schema":1,"experiment":"e","cell":"c","status":"ok","estimates":{"E":{"method":"alphamax","alpha":0.3,"beta":1}},` +
		`"metrics":{"mcc":{"truth":0.6,"pu":0.2,"pu_truth":0.5,"CR":0.61,"CR_truth":0.59,"CE":0.7,"CE_truth":0.4}}}`
	r, err = ParseRecord([]byte(psb))
	if err != nil {
		t.Fatal(err)
	}
	wantPSB := map[string]float64{"truth:same-model": 0.6, "pu": 0.2, "truth-at:pu": 0.5, "recovered:real": 0.61,
		"truth-at:real": 0.59, "recovered:alphamax": 0.7, "truth-at:alphamax": 0.4}
	if !reflect.DeepEqual(r.Metrics["mcc"], wantPSB) {
		t.Errorf("upgraded PSB record: %v", r.Metrics["mcc"])
	}
	// A current record is left alone; unknown schemas and keys are errors.
	cur := Record{Schema: SchemaVersion, Metrics: map[string]map[string]float64{"auc": {"truth": 1}}}
	if err := UpgradeRecord(&cur); err != nil || cur.Metrics["auc"]["truth"] != 1 {
		t.Errorf("schema-2 record changed: %v %v", cur.Metrics, err)
	}
	for _, bad := range []string{
		`{"schema":3,"experiment":"e","cell":"c","status":"ok"}`,
		`{"schema":1,"experiment":"e","cell":"c","status":"ok","metrics":{"aul":{"pu":0.5}}}`,
		`{"schema":1,"experiment":"e","cell":"c","status":"ok","metrics":{"auc":{"XX":0.5}}}`,
		`{"schema":1,"experiment":"e","cell":"c","status":"ok","metrics":{"auc":{"IE":0.5}}}`,
	} {
		if _, err := ParseRecord([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestEstimateCache(t *testing.T) {
	c, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	k, _ := Key("estimate", 1)
	if _, ok, err := c.GetEstimate(k); ok || err != nil {
		t.Fatalf("empty cache: %v %v", ok, err)
	}
	want := Estimate{Method: "alphamax-n", Alpha: 0.1234567890123, Beta: 0.98, Warnings: []string{"few labeled"}}
	if err := c.PutEstimate(k, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := c.GetEstimate(k)
	if !ok || err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v %v %v", got, ok, err)
	}
	// Scores and estimates under the same key do not collide.
	if _, ok, _ := c.GetScores(k); ok {
		t.Error("an estimate read back as scores")
	}
	p, _ := c.estimatePath(k)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), "0.98", "0.99", 1)), 0o644)
	if _, _, err := c.GetEstimate(k); !errors.Is(err, ErrCorrupt) {
		t.Errorf("tampered entry: %v", err)
	}
	os.WriteFile(p, []byte("garbage"), 0o644)
	if _, _, err := c.GetEstimate(k); !errors.Is(err, ErrCorrupt) {
		t.Errorf("garbage entry: %v", err)
	}
}

func TestManifestSchemas(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ManifestFile), []byte(`{"schema":1,"experiment":"old","cells":3}`), 0o644)
	m, err := ReadManifest(dir)
	if err != nil || m.Schema != 1 || m.Report != "" || m.Experiment != "old" {
		t.Errorf("schema-1 manifest: %+v %v", m, err)
	}
	os.WriteFile(filepath.Join(dir, ManifestFile), []byte(`{"schema":7}`), 0o644)
	if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), "manifest schema 7") {
		t.Errorf("schema 7: %v", err)
	}
}

// A failed or short append (a full disk) is cut back to the last complete
// record: the file never holds a torn record before whole ones, the error
// names the file, and the store takes further appends.
func TestAppendFailureLeavesWholeRecords(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Append(rec("a", StatusOK, 0.7)); err != nil {
		t.Fatal(err)
	}
	// Half the record reaches the file, then the disk is full.
	s.write = func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, syscall.ENOSPC
	}
	err = s.Append(rec("b", StatusOK, 0.6))
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), filepath.Join(dir, RecordsFile)) {
		t.Fatalf("append on a full disk: %v", err)
	}
	// A short write without an error is one too.
	s.write = func(f *os.File, b []byte) (int, error) { return f.Write(b[:3]) }
	if err := s.Append(rec("b", StatusOK, 0.6)); !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("short write: %v", err)
	}
	s.write = (*os.File).Write
	if err := s.Append(rec("c", StatusOK, 0.5)); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRecords(dir)
	if err != nil || len(got) != 2 || got[0].Cell != "a" || got[1].Cell != "c" {
		t.Fatalf("records after the failures: %v %v", got, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, RecordsFile))
	if strings.Count(string(b), "\n") != 2 || !strings.HasSuffix(string(b), "}\n") {
		t.Errorf("file after the failures:\n%s", b)
	}
}

// One process at a time writes a results directory: a second store (or
// LockDir) is refused, naming the holder's pid, until the first is closed.
func TestStoreLock(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenStore(dir)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("process %d", os.Getpid())) {
		t.Fatalf("second store: %v", err)
	}
	if _, err := LockDir(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("LockDir while the store is open: %v", err)
	}
	s.Close()
	s2, err := OpenStore(dir)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	s2.Close()
}

// Results and caches are readable by the group, like any file the user
// writes (WriteFileAtomic's temporary files start 0600).
func TestFilesAreShared(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenStore(dir)
	s.Append(rec("a", StatusOK, 0.7))
	if err := s.Finalize([]string{"a"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	WriteManifest(dir, Manifest{Experiment: "e"})
	c, _ := OpenCache(filepath.Join(dir, "cache"))
	k, _ := Key("x")
	c.PutScores(k, Scores{Scores: []float64{1}, Labels: []bool{true}})
	c.PutEstimate(k, Estimate{Method: "m"})
	p, _ := c.path(k)
	e, _ := c.estimatePath(k)
	for _, f := range []string{filepath.Join(dir, RecordsFile), filepath.Join(dir, ManifestFile), p, e} {
		fi, err := os.Stat(f)
		if err != nil || fi.Mode().Perm()&0o044 != 0o044 {
			t.Errorf("%s: mode %v (%v), want group and others to read it", f, fi.Mode(), err)
		}
	}
}

// A crafted score-cache entry whose row count n makes 9n overflow to its
// body's length (n = 10/9 mod 2^64), with a valid checksum, is refused as
// corrupt by name, without allocating n rows.
func TestCraftedScoreCacheEntry(t *testing.T) {
	c, _ := OpenCache(t.TempDir())
	k, _ := Key("crafted")
	var inv9 uint64 = 1
	for range 64 { // Newton's iteration for the inverse of 9 mod 2^64
		inv9 *= 2 - 9*inv9
	}
	n := 10 * inv9
	if 9*n != 10 {
		t.Fatalf("9 * %d = %d", n, 9*n)
	}
	b := append([]byte(cacheMagicV1), binary.LittleEndian.AppendUint64(nil, n)...)
	b = append(b, make([]byte, 10)...)
	sum := sha256.Sum256(b)
	p, _ := c.path(k)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, append(b, sum[:]...), 0o644)
	_, ok, err := c.GetScores(k)
	if ok || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), p) {
		t.Errorf("crafted entry: ok %v, %v", ok, err)
	}
}

// A records file whose line exceeds MaxRecordSize is refused by name and
// line, without reading it whole.
func TestRecordLineLimit(t *testing.T) {
	dir := t.TempDir()
	line, _ := (&Record{Schema: SchemaVersion, Experiment: "e", Cell: "a", Status: StatusOK}).Marshal()
	big := append(bytes.TrimSuffix(line, []byte("\n")), bytes.Repeat([]byte("x"), MaxRecordSize+10)...)
	os.WriteFile(filepath.Join(dir, RecordsFile), append(big, '\n'), 0o644)
	if _, err := ReadRecords(dir); err == nil || !strings.Contains(err.Error(), RecordsFile+":1: a line longer than 16 MiB") {
		t.Errorf("long line: %v", err)
	}
}
