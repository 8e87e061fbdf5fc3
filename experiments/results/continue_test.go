package results

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A run that continues a --partial merge keeps its shards in the manifest
// and adds itself; merging again over it, which would drop the run's
// cells, is refused.
func TestContinuedMerge(t *testing.T) {
	root := t.TempDir()
	dirs := threeShards(t, root)
	opts := toyOptions()
	opts.Partial = true
	out := filepath.Join(root, "merged")
	if _, err := Merge(out, dirs[:2], opts); err != nil {
		t.Fatal(err)
	}
	old, err := ReadManifest(out)
	if err != nil || len(old.Shards) != 2 {
		t.Fatalf("merged manifest: %+v %v", old, err)
	}
	start := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	m := Manifest{Experiment: "exp", ConfigKey: "key1", CodeVersion: "v2", GoVersion: "go1.26", Started: start,
		Machine: Machine{Host: "laptop"}, Shards: nil}
	m.ContinueMerge(old)
	end := start.Add(time.Hour)
	m.EndRun(&end, 3, 1)
	if len(m.Shards) != 2 || m.Shards[1].Shard != "2/3" || len(m.Runs) != 1 {
		t.Fatalf("continued manifest: %+v", m)
	}
	if r := m.Runs[0]; r.Machine.Host != "laptop" || !r.Started.Equal(start) || !r.Finished.Equal(end) || r.Ran != 3 || r.Failed != 1 || r.CodeVersion != "v2" {
		t.Errorf("the run's provenance: %+v", r)
	}
	// A second continuation adds a second run.
	again := Manifest{Machine: Machine{Host: "node9"}}
	again.ContinueMerge(m)
	if len(again.Runs) != 2 || again.Runs[0].Machine.Host != "laptop" || again.Runs[1].Machine.Host != "node9" || len(again.Shards) != 2 {
		t.Errorf("second continuation: %+v", again)
	}
	// A run's own manifest is no merge: nothing to keep.
	plain := Manifest{}
	plain.ContinueMerge(Manifest{Machine: Machine{Host: "x"}})
	if plain.Shards != nil || plain.Runs != nil {
		t.Errorf("continuing a run: %+v", plain)
	}
	if err := WriteManifest(out, m); err != nil {
		t.Fatal(err)
	}
	_, err = Merge(out, dirs, toyOptions())
	if err == nil || !strings.Contains(err.Error(), "holds a merge that 1 later run(s) continued (the last started 2026-02-01T09:00:00Z on laptop)") {
		t.Errorf("merge over a continued merge: %v", err)
	}
}
