package results

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
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
	c, err := OpenScoreCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	k1, _ := Key("fingerprint", []int{1, 2, 3}, map[string]int{"bags": 100, "hidden": 5}, uint64(7))
	k2, _ := Key("fingerprint", []int{1, 2, 3}, map[string]int{"hidden": 5, "bags": 100}, uint64(7))
	k3, _ := Key("fingerprint", []int{1, 2, 4}, map[string]int{"bags": 100, "hidden": 5}, uint64(7))
	if k1 != k2 || k1 == k3 || len(k1) != 64 {
		t.Fatalf("keys %s %s %s", k1, k2, k3)
	}
	if _, ok, err := c.Get(k1); ok || err != nil {
		t.Fatalf("empty cache: ok %v err %v", ok, err)
	}
	want := Scores{Scores: []float64{0.25, math.SmallestNonzeroFloat64, -0.0, 1}, Labels: []bool{true, false, false, true}}
	if err := c.Put(k1, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := c.Get(k1)
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
	if _, _, err := c.Get(k1); !errors.Is(err, ErrCorrupt) {
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
	c, err := OpenScoreCache(t.TempDir())
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
	if _, ok, _ := c.Get(k); ok {
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
