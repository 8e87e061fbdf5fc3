package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A toy grid for the merge tests: data set d1 with 6 cells, then d2 with 3;
// shard k of n holds the cells whose grid index is k-1 mod n, as
// experiments.Config.Cells selects them.
var toyGrid = func() []CellRef {
	var grid []CellRef
	for _, c := range []struct {
		d string
		n int
	}{{"d1", 6}, {"d2", 3}} {
		for r := range c.n {
			grid = append(grid, CellRef{ID: fmt.Sprintf("%s/r=%d", c.d, r), Dataset: c.d, Grid: map[string]string{"beta": "0.95"},
				Repeat: r, Seed: fmt.Sprint(1000 + len(grid))})
		}
	}
	return grid
}()

func toyCells(sel Selection) ([]CellRef, error) {
	var out []CellRef
	for i, c := range toyGrid {
		if len(sel.Datasets) > 0 && !slices.Contains(sel.Datasets, c.Dataset) {
			continue
		}
		if sel.Shards > 0 && i%sel.Shards != sel.Shard-1 {
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

func toyOptions() MergeOptions {
	return MergeOptions{ConfigKey: "key1", Cells: toyCells, Machine: Machine{Host: "merger", OS: "linux", Arch: "amd64", CPUs: 2}}
}

// toyRecord is the record of a toy cell; its pu AUC is a function of the cell.
func toyRecord(c CellRef) Record {
	r := rec(c.ID, StatusOK, 0.5+float64(len(c.ID))/100)
	r.Dataset, r.Grid, r.Repeat, r.Seed = c.Dataset, c.Grid, c.Repeat, c.Seed
	r.Work = &Work{Models: 3}
	return r
}

type shardSpec struct {
	k, n        int
	skip        int // leave out the shard's last skip cells (an unfinished shard)
	unavailable []string
	key, hash   string
	repeats     int
}

// writeShard writes shard k/n of the toy grid into dir as pueval run does:
// the records (finalized in grid order) and the manifest.
func writeShard(t *testing.T, dir string, sp shardSpec) {
	t.Helper()
	if sp.key == "" {
		sp.key = "key1"
	}
	if sp.hash == "" {
		sp.hash = "hash1"
	}
	sel := Selection{Shard: sp.k, Shards: sp.n, Repeats: sp.repeats}
	cells, _ := toyCells(sel)
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	man := Manifest{Experiment: "exp", Config: "/cfg/exp.yaml", ConfigHash: sp.hash, ConfigKey: sp.key, CodeVersion: "v1",
		GoVersion: "go1.26", Kernel: "avx512", Report: "summary", Data: map[string]string{}, Cells: len(cells),
		Started:   time.Date(2026, 1, 1, 10, sp.k, 0, 0, time.UTC),
		Machine:   Machine{Host: "node" + string(rune('0'+sp.k)), OS: "linux", Arch: "amd64", CPUs: 2},
		Selection: &sel, Settings: map[string]string{"seed": strings.TrimPrefix(sp.key, "key")}}
	var order []string
	for i, c := range cells {
		if slices.Contains(sp.unavailable, c.Dataset) {
			if man.Unavailable == nil {
				man.Unavailable = map[string]string{}
			}
			man.Unavailable[c.Dataset] = "not available: no file"
			continue
		}
		man.Data[c.Dataset] = "fp-" + c.Dataset
		if i >= len(cells)-sp.skip {
			continue
		}
		if err := s.Append(toyRecord(c)); err != nil {
			t.Fatal(err)
		}
		order = append(order, c.ID)
		man.Done++
	}
	if sp.skip == 0 {
		if err := s.Finalize(order); err != nil {
			t.Fatal(err)
		}
		fin := man.Started.Add(time.Minute)
		man.Finished = &fin
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := WriteManifest(dir, man); err != nil {
		t.Fatal(err)
	}
}

// threeShards writes the complete shards 1/3, 2/3, 3/3 under root/shards.
func threeShards(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	for k := 1; k <= 3; k++ {
		d := filepath.Join(root, "shards", string(rune('0'+k)))
		writeShard(t, d, shardSpec{k: k, n: 3})
		dirs = append(dirs, d)
	}
	return dirs
}

// Three complete shards merge into the records of one run, in grid order,
// with a manifest that lists the shards.
func TestMergeShards(t *testing.T) {
	root := t.TempDir()
	dirs := threeShards(t, root)
	// The order of the directories does not matter.
	sum, err := Merge(root, []string{dirs[2], dirs[0], dirs[1]}, toyOptions())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != 9 || sum.Missing != 0 || len(sum.Warnings) != 0 {
		t.Errorf("summary %+v", sum)
	}
	got, err := ReadRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	var ids []string
	for i, c := range toyGrid {
		b, _ := (&[]Record{toyRecord(c)}[0]).Marshal()
		want = append(want, b...)
		if got[i].Cell != c.ID {
			t.Errorf("record %d is %s, want %s (grid order)", i, got[i].Cell, c.ID)
		}
		ids = append(ids, got[i].Cell)
	}
	if b, _ := os.ReadFile(filepath.Join(root, RecordsFile)); string(b) != string(want) {
		t.Errorf("merged records differ from the shards' records:\n%s", b)
	}
	m, err := ReadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	if m.Cells != 9 || m.Done != 9 || m.Failed != 0 || m.ConfigKey != "key1" || m.Report != "summary" || m.Selection != nil ||
		m.Machine.Host != "merger" || len(m.Data) != 2 || m.Kernel != "avx512" || m.CodeVersion != "v1" {
		t.Errorf("manifest %+v", m)
	}
	if m.Finished == nil || !m.Finished.Equal(time.Date(2026, 1, 1, 10, 4, 0, 0, time.UTC)) || !m.Started.Equal(time.Date(2026, 1, 1, 10, 1, 0, 0, time.UTC)) {
		t.Errorf("started %v finished %v: want the first shard's start and the last one's end", m.Started, m.Finished)
	}
	if len(m.Shards) != 3 {
		t.Fatalf("shards %+v", m.Shards)
	}
	for i, s := range m.Shards {
		k := string(rune('1' + i))
		if s.Dir != "shards/"+k || s.Shard != k+"/3" || s.Machine.Host != "node"+k || s.Records != s.Cells || s.Kernel != "avx512" || s.Finished == nil {
			t.Errorf("shard %d: %+v", i, s)
		}
	}
	// Merging again replaces the earlier merge.
	if _, err := Merge(root, dirs, toyOptions()); err != nil {
		t.Errorf("second merge: %v", err)
	}
}

// copyShard copies a shard directory's records and manifest.
func copyShard(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{RecordsFile, ManifestFile} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s lacks %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every refusal names the shard directory (and the cell) and says why.
func TestMergeRefusals(t *testing.T) {
	cases := []struct {
		name string
		// setup returns the directories to merge (after writing them under root)
		setup func(t *testing.T, root string) []string
		opts  func(o *MergeOptions)
		want  []string
	}{
		{"other config key", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			other := filepath.Join(root, "other")
			writeShard(t, other, shardSpec{k: 3, n: 3, key: "key2"})
			return []string{dirs[0], dirs[1], other}
		}, nil, []string{"shard " + "ROOT/other (3/3) holds the results of another configuration", "config key key2", "config key key1",
			"differing in (this shard's -> the first's: seed: 2 -> 1)"}},
		{"same key, other config file", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			other := filepath.Join(root, "other")
			writeShard(t, other, shardSpec{k: 3, n: 3, hash: "hash2"})
			return []string{dirs[0], dirs[1], other}
		}, nil, []string{"ROOT/other (3/3) ran another config file (sha256 hash2", "the file was edited between the shards"}},
		{"not the config given", func(t *testing.T, root string) []string {
			return threeShards(t, root)
		}, func(o *MergeOptions) { o.ConfigKey, o.Settings = "key9", map[string]string{"seed": "9"} }, []string{"another configuration",
			"than the config given (config key key9; differing in (the shards' -> the config's: seed: 1 -> 9))"}},
		{"the same cells, identical", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			copyShard(t, dirs[1], filepath.Join(root, "again"))
			return append(dirs, filepath.Join(root, "again"))
		}, nil, []string{"cell d1/r=1 is in both shard ROOT/shards/2 (2/3) and shard ROOT/again (2/3), with identical values", "given twice"}},
		{"the same cell, conflicting", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			copyShard(t, dirs[1], filepath.Join(root, "again"))
			editFile(t, filepath.Join(root, "again", RecordsFile), `"pu":0.56`, `"pu":0.57`)
			return append(dirs, filepath.Join(root, "again"))
		}, nil, []string{"cell d1/r=1 is in both shard ROOT/shards/2 (2/3) and shard ROOT/again (2/3), with conflicting values (metrics.auc.pu: 0.56 vs 0.57)"}},
		{"torn records", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			f, _ := os.OpenFile(filepath.Join(dirs[1], RecordsFile), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"schema":2,"experiment":"exp","cell":"d1/r=4","sta`)
			f.Close()
			return dirs
		}, nil, []string{"shard ROOT/shards/2: ROOT/shards/2/records.jsonl ends in a torn record (51 bytes after the last whole one)", "run it again to finish it"}},
		{"no manifest", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			os.Remove(filepath.Join(dirs[2], ManifestFile))
			return dirs
		}, nil, []string{"shard ROOT/shards/3 has no manifest.json"}},
		{"no such directory", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			return []string{dirs[0], dirs[1], filepath.Join(root, "nope")}
		}, nil, []string{"shard ROOT/nope: stat ROOT/nope: no such file or directory"}},
		{"an unfinished shard", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			os.RemoveAll(dirs[1])
			writeShard(t, dirs[1], shardSpec{k: 2, n: 3, skip: 2})
			return dirs
		}, nil, []string{"2 of the 9 cells are missing: shard ROOT/shards/2 (2/3) lacks 2 cell(s) (d1/r=4 and 1 more): it did not finish: run it again (it resumes"}},
		{"a shard not given", func(t *testing.T, root string) []string {
			return threeShards(t, root)[:2]
		}, nil, []string{"3 of the 9 cells are missing: shard 3/3 was not given (3 cell(s), d1/r=2 and 2 more)"}},
		{"the same shard twice, without records", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			writeShard(t, filepath.Join(root, "empty2"), shardSpec{k: 2, n: 3, skip: 3})
			writeShard(t, filepath.Join(root, "empty2b"), shardSpec{k: 2, n: 3, skip: 3})
			return []string{dirs[0], filepath.Join(root, "empty2"), filepath.Join(root, "empty2b"), dirs[2]}
		}, nil, []string{"shard ROOT/empty2 (2/3) and shard ROOT/empty2b (2/3) are the same shard"}},
		{"another shard count", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			writeShard(t, filepath.Join(root, "half"), shardSpec{k: 1, n: 2})
			return []string{dirs[0], filepath.Join(root, "half")}
		}, nil, []string{"shard ROOT/half (1/2) is one of 2 shards but shard ROOT/shards/1 (1/3) one of 3"}},
		{"another selection", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			writeShard(t, filepath.Join(root, "r1"), shardSpec{k: 2, n: 3, repeats: 1})
			return []string{dirs[0], filepath.Join(root, "r1"), dirs[2]}
		}, nil, []string{"shard ROOT/r1 (2/3) ran another selection (--repeats 1) than shard ROOT/shards/1 (1/3) (every repeat and data set)"}},
		{"a cell of another shard", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			editFile(t, filepath.Join(dirs[0], ManifestFile), `"shard": 1`, `"shard": 2`)
			return dirs[:1]
		}, nil, []string{"shard ROOT/shards/1 (2/3) holds cell d1/r=0, which is not a cell of its selection"}},
		{"other data", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			editFile(t, filepath.Join(dirs[2], ManifestFile), `"fp-d2"`, `"fp-d2-other"`)
			return dirs
		}, nil, []string{"data set d2 differs between shard ROOT/shards/2 (2/3) (fingerprint fp-d2) and shard ROOT/shards/3 (3/3) (fingerprint fp-d2-other)"}},
		{"data unavailable in one shard", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			os.RemoveAll(dirs[0])
			writeShard(t, dirs[0], shardSpec{k: 1, n: 3, unavailable: []string{"d2"}})
			return dirs
		}, nil, []string{"shard ROOT/shards/1 (1/3) lacks 1 cell(s) (d2/r=0): their data were unavailable there (d2: not available: no file) though other shards had them"}},
		{"output is a shard", func(t *testing.T, root string) []string {
			return threeShards(t, root)
		}, func(o *MergeOptions) {}, nil},
		{"a shard in use", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			holdLock(t, dirs[1], "exclusive")
			return dirs
		}, nil, []string{"shard ROOT/shards/2: ROOT/shards/2 is in use by process", "(results.test", "results directory in use"}},
		{"a cell twice in one shard", func(t *testing.T, root string) []string {
			return dirsWithConflict(t, root)
		}, nil, []string{"cell d1/r=1 is recorded twice with different values, at ROOT/shards/2/records.jsonl:1 and ROOT/shards/2/records.jsonl:4 (metrics.auc.pu: 0.56 vs 0.57)"}},
		{"a cell twice in one shard, partial", func(t *testing.T, root string) []string {
			return dirsWithConflict(t, root)
		}, func(o *MergeOptions) { o.Partial = true }, []string{"cell d1/r=1 is recorded twice with different values, at ROOT/shards/2/records.jsonl:1 and ROOT/shards/2/records.jsonl:4"}},
		{"a record of another data set", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			editFile(t, filepath.Join(dirs[0], RecordsFile), `"dataset":"d1"`, `"dataset":"d2"`)
			return dirs
		}, nil, []string{`ROOT/shards/1/records.jsonl:1 (shard ROOT/shards/1 (1/3)): the record of cell d1/r=0 has data set "d2", but the cell's is "d1"`}},
		{"a record of another seed", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			editFile(t, filepath.Join(dirs[1], RecordsFile), `"seed":"1004"`, `"seed":"1003"`)
			return dirs
		}, nil, []string{`ROOT/shards/2/records.jsonl:2 (shard ROOT/shards/2 (2/3)): the record of cell d1/r=4 has seed 1003, but the cell's is 1004`}},
		{"a record of another repeat", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			editFile(t, filepath.Join(dirs[0], RecordsFile), `"repeat":3`, `"repeat":5`)
			return dirs
		}, nil, []string{`ROOT/shards/1/records.jsonl:2 (shard ROOT/shards/1 (1/3)): the record of cell d1/r=3 has repeat 5, but the cell's is 3`}},
		{"a record of other grid values", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			editFile(t, filepath.Join(dirs[2], RecordsFile), `"grid":{"beta":"0.95"}`, `"grid":{"beta":"0.5"}`)
			return dirs
		}, nil, []string{`ROOT/shards/3/records.jsonl:1 (shard ROOT/shards/3 (3/3)): the record of cell d1/r=2 has grid values {beta=0.5}, but the cell's are {beta=0.95}`}},
		{"a record of another experiment", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			editFile(t, filepath.Join(dirs[2], RecordsFile), `"experiment":"exp"`, `"experiment":"exp2"`)
			return dirs
		}, nil, []string{`ROOT/shards/3/records.jsonl:1 (shard ROOT/shards/3 (3/3)): the record of cell d1/r=2 has experiment "exp2", but the shard ran experiment "exp"`}},
		{"a shard twice, through a link", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			link := filepath.Join(root, "link")
			if err := os.Symlink(dirs[1], link); err != nil {
				t.Fatal(err)
			}
			return append(dirs, link)
		}, nil, []string{"shard ROOT/link is given twice (also as ROOT/shards/2, the same directory through a link)"}},
		{"a merged directory as a shard", func(t *testing.T, root string) []string {
			dirs := threeShards(t, root)
			if _, err := Merge(filepath.Join(root, "m"), dirs, toyOptions()); err != nil {
				t.Fatal(err)
			}
			return []string{filepath.Join(root, "m")}
		}, nil, []string{"shard ROOT/m is itself a merge of 3 shards"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dirs := c.setup(t, root)
			o := toyOptions()
			out := filepath.Join(root, "merged")
			if c.opts != nil {
				c.opts(&o)
			}
			if c.want == nil { // the output directory is one of the shards
				out = dirs[0]
				c.want = []string{"shard ROOT/shards/1 is the output directory"}
			}
			_, err := Merge(out, dirs, o)
			if err == nil {
				t.Fatal("merged; want a refusal")
			}
			msg := strings.ReplaceAll(err.Error(), root, "ROOT")
			t.Log(msg)
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q\nlacks %q", msg, w)
				}
			}
			if _, serr := os.Stat(filepath.Join(root, "merged", RecordsFile)); serr == nil {
				t.Error("a refused merge wrote records")
			}
		})
	}
}

// dirsWithConflict is three shards, the second of which records its first
// cell again at its end with another value.
func dirsWithConflict(t *testing.T, root string) []string {
	t.Helper()
	dirs := threeShards(t, root)
	r := toyRecord(toyGrid[1])
	r.Metrics["auc"]["pu"] = 0.57
	b, _ := r.Marshal()
	f, err := os.OpenFile(filepath.Join(dirs[1], RecordsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(b)
	f.Close()
	return dirs
}

// --partial merges what there is: the manifest has no finish time and says
// how many cells there are; a later complete merge replaces it.
func TestMergePartial(t *testing.T) {
	root := t.TempDir()
	dirs := threeShards(t, root)
	os.RemoveAll(dirs[1])
	writeShard(t, dirs[1], shardSpec{k: 2, n: 3, skip: 2})
	o := toyOptions()
	o.Partial = true
	out := filepath.Join(root, "merged")
	sum, err := Merge(out, dirs, o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Missing != 2 || sum.Records != 7 || m.Finished != nil || m.Cells != 9 || m.Done != 7 || m.Shards[1].Records != 1 || m.Shards[1].Cells != 3 {
		t.Errorf("partial merge: %+v\nmanifest %+v", sum, m)
	}
	var me *MissingCellsError
	if _, err := Merge(out, dirs, toyOptions()); !errors.As(err, &me) || me.Missing != 2 {
		t.Errorf("without --partial: %v", err)
	}
	os.RemoveAll(dirs[1])
	writeShard(t, dirs[1], shardSpec{k: 2, n: 3})
	if sum, err := Merge(out, dirs, toyOptions()); err != nil || sum.Records != 9 {
		t.Errorf("complete merge over the partial one: %+v %v", sum, err)
	}
}

// A data set that every shard found unavailable is left out, as one run
// leaves it out: the manifest keeps the reason.
func TestMergeUnavailableEverywhere(t *testing.T) {
	root := t.TempDir()
	var dirs []string
	for k := 1; k <= 3; k++ {
		d := filepath.Join(root, string(rune('0'+k)))
		writeShard(t, d, shardSpec{k: k, n: 3, unavailable: []string{"d2"}})
		dirs = append(dirs, d)
	}
	out := filepath.Join(root, "merged")
	sum, err := Merge(out, dirs, toyOptions())
	if err != nil {
		t.Fatal(err)
	}
	m, _ := ReadManifest(out)
	if sum.Records != 6 || m.Cells != 9 || m.Unavailable["d2"] != "not available: no file" || m.Finished == nil {
		t.Errorf("%+v\n%+v", sum, m)
	}
}

// The output directory must not hold a run's results: merge never
// overwrites them.
func TestMergeKeepsRunResults(t *testing.T) {
	root := t.TempDir()
	dirs := threeShards(t, filepath.Join(root, "s"))
	out := filepath.Join(root, "run")
	writeShard(t, out, shardSpec{k: 1, n: 1})
	before, _ := os.ReadFile(filepath.Join(out, RecordsFile))
	_, err := Merge(out, dirs, toyOptions())
	if err == nil || !strings.Contains(err.Error(), "holds the results of a run (not of a merge)") {
		t.Errorf("merge into a run's directory: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(out, RecordsFile)); string(after) != string(before) {
		t.Error("the run's records changed")
	}
	// Shards of different code versions merge, with a warning.
	editFile(t, filepath.Join(dirs[2], ManifestFile), `"code_version": "v1"`, `"code_version": "v2"`)
	sum, err := Merge(filepath.Join(root, "m"), dirs, toyOptions())
	if err != nil || len(sum.Warnings) != 1 || !strings.Contains(sum.Warnings[0], "different code versions (v1, v2)") {
		t.Errorf("%+v %v", sum, err)
	}
}

// A merge into the directory of another config's merge is refused, naming
// the settings that differ (the toy shards' settings are their key's
// number as the seed: key1's 1, key2's 2).
func TestMergeOverAnotherConfigsMerge(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "merged")
	if _, err := Merge(out, threeShards(t, root), toyOptions()); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for k := 1; k <= 3; k++ {
		d := filepath.Join(root, "other", string(rune('0'+k)))
		writeShard(t, d, shardSpec{k: k, n: 3, key: "key2"})
		dirs = append(dirs, d)
	}
	o := toyOptions()
	o.ConfigKey = ""
	_, err := Merge(out, dirs, o)
	if err == nil || !strings.Contains(err.Error(), "holds a merge of another configuration (experiment exp, config key key1; differing in (the directory's -> these shards': seed: 1 -> 2))") {
		t.Errorf("merge over another config's merge: %v", err)
	}
}
