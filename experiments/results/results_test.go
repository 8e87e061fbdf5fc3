package results

import (
	"errors"
	"math"
	"os"
	"path/filepath"
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
