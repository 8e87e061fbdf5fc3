package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// CellRef is a cell of a config's grid as the runner makes it: its ID and
// the identity its record carries (data set, grid values as canonical
// text, repeat, seed as decimal text). Merge checks every record against it.
type CellRef struct {
	ID      string
	Dataset string
	Grid    map[string]string
	Repeat  int
	Seed    string
}

// MergeOptions are what Merge needs besides the directories.
type MergeOptions struct {
	// ConfigKey is the key of the config the shards must have run (the
	// config's key hash, Manifest.ConfigKey); empty: the first shard's.
	ConfigKey string
	// Settings are that config's settings (Manifest.Settings): a refusal
	// of shards of another config names the settings that differ.
	Settings map[string]string
	// Cells expands the config's grid: the cells a run of sel holds, in
	// grid order (experiments.Config.Cells). Required.
	Cells func(sel Selection) ([]CellRef, error)
	// Partial merges shards that lack cells (an unfinished shard, a shard
	// not given) instead of refusing; the merged manifest then has no
	// Finished time, and a later merge of the complete shards replaces it.
	Partial bool
	// Machine is where the merge runs, recorded as the merged manifest's.
	Machine Machine
}

// MergeSummary is what Merge wrote.
type MergeSummary struct {
	Records, Failed int // records merged, and of them failed
	Missing         int // cells of the selection no shard holds (only with Partial)
	Shards          []ShardRun
	// Warnings say what differs between the shards without changing the
	// results: code versions, Go versions, kernels.
	Warnings []string
}

// MissingCellsError is Merge's error when the shards lack cells of their
// selection and MergeOptions.Partial is not set.
type MissingCellsError struct {
	Missing, Cells int
	// Lacks says, for each shard that lacks cells (or is not given), which
	// and why; one line each.
	Lacks []string
}

func (e *MissingCellsError) Error() string {
	return fmt.Sprintf("%d of the %d cells are missing: %s", e.Missing, e.Cells, strings.Join(e.Lacks, "; "))
}

// shardIn is one shard directory as Merge reads it.
type shardIn struct {
	dir      string // as given
	man      Manifest
	sel      Selection // Shards >= 1
	recs     []Record
	lines    map[string]int // line of each cell's record in records
	records  string         // path of the records file
	expected []CellRef
	lock     *Lock
}

func (s *shardIn) label() string {
	return fmt.Sprintf("shard %s (%d/%d)", s.dir, s.sel.Shard, s.sel.Shards)
}

// Merge merges the results directories of the shards of one config (each
// written by pueval run --shard k/n) into out: records.jsonl with one record
// per cell in grid order, and a manifest that lists the shards. The result
// is what one run of the whole selection into out would have written,
// timings and the training work aside, so its report is the same.
//
// It refuses, with an error naming the shard directory (and the cell):
// a directory without a manifest; a shard still being written (its lock is
// held); a records file whose last line is torn (an interrupted shard: run it
// again to finish it); shards of different configs (another config key, or
// the same key from another config file) or of different selections; the
// same cell in two shards (saying whether their values are identical or
// which value conflicts); a record that is not a cell of its shard's
// selection, or whose identity (experiment, data set, grid values, repeat,
// seed) is not that of its cell ID (naming the file and line); a cell
// recorded twice within a shard with different values (naming both lines);
// a data set read with different data by two shards; and, unless
// opts.Partial, cells that no shard holds (a MissingCellsError). out must
// not be one of the shards, and must be empty or hold an earlier merge of
// the same config (which is replaced) that no run has continued since.
// Reading the shards needs only read permission (their lock is taken
// shared, ReadLockDir), so shards on read-only storage merge.
func Merge(out string, dirs []string, opts MergeOptions) (MergeSummary, error) {
	var sum MergeSummary
	absOut, err := checkMergeDirs(out, dirs, opts)
	if err != nil {
		return sum, err
	}
	shards := make([]*shardIn, 0, len(dirs))
	defer func() {
		for _, s := range shards {
			s.lock.Unlock()
		}
	}()
	for _, d := range dirs {
		s, err := readShard(d)
		if err != nil {
			return sum, err
		}
		shards = append(shards, s)
	}
	// The first shard as given (sortShards reorders shards) is the
	// reference of the checks and the base of the merged manifest.
	first := shards[0]
	if err := checkShards(shards, opts); err != nil {
		return sum, err
	}
	byCell, err := cellsOfShards(shards)
	if err != nil {
		return sum, err
	}
	if err := sortShards(shards); err != nil {
		return sum, err
	}
	man, err := mergeData(first.man, shards)
	if err != nil {
		return sum, err
	}

	// The cells of the whole selection. A data set is unavailable when every
	// shard that should hold cells of it says so.
	whole := Selection{Repeats: first.sel.Repeats, Datasets: first.sel.Datasets}
	all, err := opts.Cells(whole)
	if err != nil {
		return sum, fmt.Errorf("the cells of the selection: %w", err)
	}
	unavailable := unavailableEverywhere(shards)
	if len(unavailable) > 0 {
		man.Unavailable = unavailable
	}
	notGivenOf, err := cellsOfShardsNotGiven(shards, whole, first.sel.Shards, opts.Cells)
	if err != nil {
		return sum, err
	}
	merged, lacks, notGiven := gatherCells(all, byCell, unavailable, shards, notGivenOf)
	missing, lines := describeMissing(shards, lacks, notGiven, first.sel.Shards)
	if missing > 0 && !opts.Partial {
		return sum, &MissingCellsError{Missing: missing, Cells: len(merged) + missing, Lacks: lines}
	}

	sum.Warnings = completeManifest(&man, first, shards, merged, len(all), whole, absOut, opts.Machine, missing == 0)
	if err := writeMerged(out, man, merged); err != nil {
		return sum, err
	}
	sum.Records, sum.Failed, sum.Missing, sum.Shards = len(merged), man.Failed, missing, man.Shards
	return sum, nil
}

// checkMergeDirs checks Merge's arguments: some shards, a grid expansion,
// and no shard given twice or as the output directory (by path, or through
// a link: the same directory on disk). It returns out's absolute path.
func checkMergeDirs(out string, dirs []string, opts MergeOptions) (string, error) {
	if len(dirs) == 0 {
		return "", errors.New("no shard directories to merge")
	}
	if opts.Cells == nil {
		return "", errors.New("merge: no grid expansion (MergeOptions.Cells)")
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	outInfo, _ := os.Stat(out) // nil: out does not exist yet
	seenDir := map[string]string{}
	var seen []os.FileInfo
	var seenName []string
	for _, d := range dirs {
		a, err := filepath.Abs(d)
		if err != nil {
			return "", err
		}
		fi, _ := os.Stat(d)
		if a == absOut || (fi != nil && outInfo != nil && os.SameFile(fi, outInfo)) {
			return "", fmt.Errorf("shard %s is the output directory: merge into another directory", d)
		}
		if prev, ok := seenDir[a]; ok {
			return "", fmt.Errorf("shard %s is given twice (also as %s)", d, prev)
		}
		if fi != nil {
			for i, o := range seen {
				if os.SameFile(fi, o) {
					return "", fmt.Errorf("shard %s is given twice (also as %s, the same directory through a link)", d, seenName[i])
				}
			}
			seen, seenName = append(seen, fi), append(seenName, d)
		}
		seenDir[a] = d
	}
	return absOut, nil
}

// checkShards refuses shards of different configs or selections, and
// expands each shard's selection into its cells (shardIn.expected).
func checkShards(shards []*shardIn, opts MergeOptions) error {
	if err := checkSameConfig(shards, opts.ConfigKey, opts.Settings); err != nil {
		return err
	}
	if err := checkSameSelection(shards); err != nil {
		return err
	}
	for _, s := range shards {
		var err error
		if s.expected, err = opts.Cells(s.sel); err != nil {
			return fmt.Errorf("shard %s: the cells of its selection: %w", s.dir, err)
		}
	}
	return nil
}

// cellsOfShards returns the shards' records by cell, refusing a record that
// is not a cell of its shard, a record whose identity is not its cell's, and
// a cell that is in two shards.
func cellsOfShards(shards []*shardIn) (map[string]Record, error) {
	owner := map[string]*shardIn{} // cell -> shard that holds it
	byCell := map[string]Record{}
	for _, s := range shards {
		mine := map[string]CellRef{}
		for _, c := range s.expected {
			mine[c.ID] = c
		}
		for _, r := range s.recs {
			ref, ok := mine[r.Cell]
			if !ok {
				return nil, fmt.Errorf("%s holds cell %s, which is not a cell of its selection: "+
					"was the directory written by another selection or shard count?", s.label(), r.Cell)
			}
			if why := identityMismatch(r, ref, s.man.Experiment); why != "" {
				return nil, fmt.Errorf("%s:%d (%s): the record of cell %s has %s: "+
					"the record was edited or copied from another cell or experiment; merge refuses it",
					s.records, s.lines[r.Cell], s.label(), r.Cell, why)
			}
			if o, ok := owner[r.Cell]; ok {
				if diff := recordDiff(byCell[r.Cell], r); diff != "" {
					return nil, fmt.Errorf("cell %s is in both %s and %s, with conflicting values (%s)", r.Cell, o.label(), s.label(), diff)
				}
				return nil, fmt.Errorf("cell %s is in both %s and %s, with identical values (timings aside): the same shard given twice?",
					r.Cell, o.label(), s.label())
			}
			owner[r.Cell], byCell[r.Cell] = s, r
		}
	}
	return byCell, nil
}

// identityMismatch says how a record's identity contradicts its cell (the
// cell of its ID as the runner expands the grid) and the experiment: "" when
// experiment, data set, grid values, repeat and seed all agree.
func identityMismatch(r Record, c CellRef, experiment string) string {
	grid := func(g map[string]string) string {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(g)) {
			parts = append(parts, k+"="+g[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	switch {
	case r.Experiment != experiment:
		return fmt.Sprintf("experiment %q, but the shard ran experiment %q", r.Experiment, experiment)
	case r.Dataset != c.Dataset:
		return fmt.Sprintf("data set %q, but the cell's is %q", r.Dataset, c.Dataset)
	case !maps.Equal(r.Grid, c.Grid):
		return fmt.Sprintf("grid values %s, but the cell's are %s", grid(r.Grid), grid(c.Grid))
	case r.Repeat != c.Repeat:
		return fmt.Sprintf("repeat %d, but the cell's is %d", r.Repeat, c.Repeat)
	case r.Seed != c.Seed:
		return fmt.Sprintf("seed %s, but the cell's is %s", r.Seed, c.Seed)
	}
	return ""
}

// sortShards puts the shards in shard order, refusing a shard given twice.
func sortShards(shards []*shardIn) error {
	slices.SortStableFunc(shards, func(a, b *shardIn) int { return a.sel.Shard - b.sel.Shard })
	for i := 1; i < len(shards); i++ {
		if shards[i].sel.Shard == shards[i-1].sel.Shard {
			return fmt.Errorf("%s and %s are the same shard: give each shard once", shards[i-1].label(), shards[i].label())
		}
	}
	return nil
}

// mergeData returns base with the shards' data, warnings and traditional
// work merged in (Unavailable cleared), refusing a data set that two shards
// read with different data.
func mergeData(base Manifest, shards []*shardIn) (Manifest, error) {
	man := base
	man.Data, man.Unavailable, man.Warnings, man.Traditional = map[string]string{}, nil, nil, nil
	dataFrom := map[string]*shardIn{}
	for _, s := range shards {
		for _, name := range slices.Sorted(maps.Keys(s.man.Data)) {
			fp := s.man.Data[name]
			if prev, ok := man.Data[name]; ok && prev != fp {
				return man, fmt.Errorf("data set %s differs between %s (fingerprint %.12s) and %s (fingerprint %.12s): the shards read different data",
					name, dataFrom[name].label(), prev, s.label(), fp)
			}
			man.Data[name], dataFrom[name] = fp, s
		}
		for _, w := range s.man.Warnings {
			if !slices.Contains(man.Warnings, w) {
				man.Warnings = append(man.Warnings, w)
			}
		}
		for k, w := range s.man.Traditional {
			if man.Traditional == nil {
				man.Traditional = map[string]*Work{}
			}
			if _, ok := man.Traditional[k]; !ok {
				man.Traditional[k] = w
			}
		}
	}
	return man, nil
}

// cellsOfShardsNotGiven returns, for every cell of a shard k/n of which no
// directory was given, that k.
func cellsOfShardsNotGiven(shards []*shardIn, whole Selection, n int, expand func(Selection) ([]CellRef, error)) (map[string]int, error) {
	given := map[int]bool{}
	for _, s := range shards {
		given[s.sel.Shard] = true
	}
	notGivenOf := map[string]int{}
	for k := 1; k <= n; k++ {
		if given[k] {
			continue
		}
		cells, err := expand(Selection{Repeats: whole.Repeats, Datasets: whole.Datasets, Shard: k, Shards: n})
		if err != nil {
			return nil, fmt.Errorf("the cells of shard %d/%d: %w", k, n, err)
		}
		for _, c := range cells {
			notGivenOf[c.ID] = k
		}
	}
	return notGivenOf, nil
}

// gatherCells returns the records of the cells all in grid order, the cells
// of unavailable data sets left out, and the cells no record holds: by the
// shard given that lacks them (lacks), or by the shard k/n not given
// (notGiven; k = 0: no shard holds it).
func gatherCells(all []CellRef, byCell map[string]Record, unavailable map[string]string, shards []*shardIn,
	notGivenOf map[string]int) (merged []Record, lacks map[*shardIn][]string, notGiven map[int][]string) {
	shardOf := map[string]*shardIn{}
	for _, s := range shards {
		for _, c := range s.expected {
			shardOf[c.ID] = s
		}
	}
	lacks = map[*shardIn][]string{}
	notGiven = map[int][]string{}
	for _, c := range all {
		if _, skip := unavailable[c.Dataset]; skip {
			continue
		}
		if r, ok := byCell[c.ID]; ok {
			merged = append(merged, r)
			continue
		}
		if s := shardOf[c.ID]; s != nil {
			lacks[s] = append(lacks[s], c.ID)
			continue
		}
		k := notGivenOf[c.ID] // 0: no shard k/n holds it
		notGiven[k] = append(notGiven[k], c.ID)
	}
	return merged, lacks, notGiven
}

// describeMissing counts the missing cells and says, one line per shard
// (of n), which it lacks and why.
func describeMissing(shards []*shardIn, lacks map[*shardIn][]string, notGiven map[int][]string, n int) (missing int, lines []string) {
	for _, s := range shards {
		cells := lacks[s]
		if len(cells) == 0 {
			continue
		}
		missing += len(cells)
		lines = append(lines, fmt.Sprintf("%s lacks %d cell(s) (%s): %s", s.label(), len(cells), example(cells), whyLacking(s, cells)))
	}
	for _, k := range slices.Sorted(maps.Keys(notGiven)) {
		cells := notGiven[k]
		missing += len(cells)
		if k > 0 {
			lines = append(lines, fmt.Sprintf("shard %d/%d was not given (%d cell(s), %s)", k, n, len(cells), example(cells)))
		} else {
			lines = append(lines, fmt.Sprintf("%d cell(s) belong to no shard given (%s)", len(cells), example(cells)))
		}
	}
	return missing, lines
}

// completeManifest makes man the manifest of one run of the whole
// selection (cells cells) with its shards: the counts of merged, the
// earliest start, the last finish when every shard finished and no cell is
// missing (complete), and the shards' versions joined. It returns the
// warnings on versions that differ between the shards, sorted.
func completeManifest(man *Manifest, first *shardIn, shards []*shardIn, merged []Record, cells int, whole Selection,
	absOut string, machine Machine, complete bool) []string {
	man.Cells = cells
	man.Done, man.Failed = 0, 0
	for _, r := range merged {
		if r.Status == StatusOK {
			man.Done++
		} else {
			man.Failed++
		}
	}
	man.Selection = nil
	if !whole.IsZero() {
		man.Selection = &whole
	}
	man.Machine = machine
	man.Started, man.Finished = first.man.Started, nil
	var finished *time.Time
	codes, gos, kernels := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range shards {
		if s.man.Started.Before(man.Started) {
			man.Started = s.man.Started
		}
		if s.man.Finished == nil {
			complete = false
		} else if finished == nil || s.man.Finished.After(*finished) {
			finished = s.man.Finished
		}
		codes[s.man.CodeVersion], gos[s.man.GoVersion] = true, true
		if s.man.Kernel != "" {
			kernels[s.man.Kernel] = true
		}
		man.Shards = append(man.Shards, shardRun(s, absOut))
	}
	if complete {
		man.Finished = finished
	}
	man.CodeVersion = joinKeys(codes)
	man.GoVersion = joinKeys(gos)
	man.Kernel = joinKeys(kernels)
	var warnings []string
	for what, set := range map[string]map[string]bool{"code versions": codes, "Go versions": gos, "kernels": kernels} {
		if len(set) > 1 {
			warnings = append(warnings, fmt.Sprintf("the shards ran with different %s (%s); each shard's is in the manifest", what, joinKeys(set)))
		}
	}
	slices.Sort(warnings)
	return warnings
}

// shardRun is the merged manifest's entry of shard s.
func shardRun(s *shardIn, absOut string) ShardRun {
	sr := ShardRun{Dir: shardDirName(absOut, s.dir), Shard: fmt.Sprintf("%d/%d", s.sel.Shard, s.sel.Shards),
		Machine: s.man.Machine, Started: s.man.Started, Finished: s.man.Finished, CodeVersion: s.man.CodeVersion,
		GoVersion: s.man.GoVersion, Kernel: s.man.Kernel, Cells: len(s.expected), Records: len(s.recs)}
	for _, r := range s.recs {
		if r.Status != StatusOK {
			sr.Failed++
		}
	}
	return sr
}

// readShard reads a shard directory under its lock, taken shared and with
// read permission only (ReadLockDir): its manifest and its records, refusing
// a torn records file.
func readShard(dir string) (*shardIn, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("shard %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("shard %s is not a directory", dir)
	}
	man, err := ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("shard %s has no %s: not a pueval results directory, or its run never started", dir, ManifestFile)
	}
	if err != nil {
		return nil, fmt.Errorf("shard %s: %w", dir, err)
	}
	if man.ConfigKey == "" {
		return nil, fmt.Errorf("shard %s was written by a pueval older than config keys (manifest schema %d): run the shard again with this pueval (it keeps its finished cells)", dir, man.Schema)
	}
	if len(man.Shards) > 0 {
		return nil, fmt.Errorf("shard %s is itself a merge of %d shards: merge its shards instead", dir, len(man.Shards))
	}
	lock, err := ReadLockDir(dir)
	if err != nil {
		return nil, fmt.Errorf("shard %s: %w", dir, err)
	}
	path := filepath.Join(dir, RecordsFile)
	recs, lines, err := readRecordsWhole(path)
	if err != nil {
		lock.Unlock()
		return nil, fmt.Errorf("shard %s: %w", dir, err)
	}
	sel := Selection{Shard: 1, Shards: 1}
	if man.Selection != nil {
		sel = *man.Selection
		if sel.Shards == 0 {
			sel.Shard, sel.Shards = 1, 1
		}
	}
	return &shardIn{dir: dir, man: man, sel: sel, recs: recs, lines: lines, records: path, lock: lock}, nil
}

// readRecordsWhole reads a records file like ReadRecords, and the line of
// each cell's record, but refuses a torn last line: merging would silently
// drop that cell's finished work.
func readRecordsWhole(path string) ([]Record, map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	s := newStore()
	good, err := s.load(f, path)
	if err != nil {
		return nil, nil, err
	}
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, nil, err
	}
	if good != end {
		return nil, nil, fmt.Errorf("%s ends in a torn record (%d bytes after the last whole one): the shard was interrupted while writing; "+
			"run it again to finish it (it keeps its finished cells and cuts the torn line), then merge", path, end-good)
	}
	return s.Records(), s.line, nil
}

// maxDiffsNamed bounds the differing settings a refusal names.
const maxDiffsNamed = 8

// settingsDiffer is "; differing in (sides: A -> B; ...)" for two
// manifests' settings, a's value first (sides says whose is whose), or ""
// when either has none (older manifests) or none differs.
func settingsDiffer(a, b map[string]string, sides string) string {
	if a == nil || b == nil {
		return ""
	}
	if d := DiffText(SettingsDiff(a, b), maxDiffsNamed); d != "" {
		return "; differing in (" + sides + ": " + d + ")"
	}
	return ""
}

// checkSameConfig refuses shards whose config key or config file differ,
// or whose key is not want (when want is set; settings are the wanted
// config's), naming the settings that differ where the manifests hold them.
func checkSameConfig(shards []*shardIn, want string, settings map[string]string) error {
	first := shards[0]
	for _, s := range shards[1:] {
		if s.man.ConfigKey != first.man.ConfigKey {
			return fmt.Errorf("%s holds the results of another configuration (experiment %s from %s, config key %.12s) than %s "+
				"(experiment %s from %s, config key %.12s%s): merge shards of one config",
				s.label(), s.man.Experiment, s.man.Config, s.man.ConfigKey, first.label(), first.man.Experiment, first.man.Config, first.man.ConfigKey,
				settingsDiffer(s.man.Settings, first.man.Settings, "this shard's -> the first's"))
		}
		if s.man.ConfigHash != first.man.ConfigHash {
			return fmt.Errorf("%s ran another config file (sha256 %.12s, from %s) than %s (sha256 %.12s, from %s), with the same results key: "+
				"the file was edited between the shards (its description or report); run the shard again with the others' config file "+
				"(it keeps its finished cells) so that one config describes the merge",
				s.label(), s.man.ConfigHash, s.man.Config, first.label(), first.man.ConfigHash, first.man.Config)
		}
	}
	if want != "" && first.man.ConfigKey != want {
		return fmt.Errorf("the shards hold the results of another configuration (experiment %s from %s, config key %.12s) than the config given (config key %.12s%s)",
			first.man.Experiment, first.man.Config, first.man.ConfigKey, want, settingsDiffer(first.man.Settings, settings, "the shards' -> the config's"))
	}
	return nil
}

// checkSameSelection refuses shards of different selections or shard counts.
func checkSameSelection(shards []*shardIn) error {
	first := shards[0]
	for _, s := range shards[1:] {
		if s.sel.Repeats != first.sel.Repeats || !slices.Equal(s.sel.Datasets, first.sel.Datasets) {
			return fmt.Errorf("%s ran another selection (%s) than %s (%s): merge shards run with the same --repeats and --datasets",
				s.label(), describeSelection(s.sel), first.label(), describeSelection(first.sel))
		}
		if s.sel.Shards != first.sel.Shards {
			return fmt.Errorf("%s is one of %d shards but %s one of %d: merge the shards of one split",
				s.label(), s.sel.Shards, first.label(), first.sel.Shards)
		}
	}
	return nil
}

func describeSelection(s Selection) string {
	var parts []string
	if s.Repeats > 0 {
		parts = append(parts, "--repeats "+strconv.Itoa(s.Repeats))
	}
	if len(s.Datasets) > 0 {
		parts = append(parts, "--datasets "+strings.Join(s.Datasets, ","))
	}
	if len(parts) == 0 {
		return "every repeat and data set"
	}
	return strings.Join(parts, " ")
}

// unavailableEverywhere returns the data sets that every shard expected to
// hold cells of lists as unavailable, with the first shard's reason.
func unavailableEverywhere(shards []*shardIn) map[string]string {
	out := map[string]string{}
	denied := map[string]bool{}
	for _, s := range shards {
		needs := map[string]bool{}
		for _, c := range s.expected {
			needs[c.Dataset] = true
		}
		for d := range needs {
			why, ok := s.man.Unavailable[d]
			if !ok {
				denied[d] = true
				continue
			}
			if _, seen := out[d]; !seen {
				out[d] = why
			}
		}
	}
	for d := range denied {
		delete(out, d)
	}
	return out
}

// whyLacking says why a shard lacks cells, and what to do.
func whyLacking(s *shardIn, cells []string) string {
	var gone []string
	for _, c := range s.expected {
		if why, ok := s.man.Unavailable[c.Dataset]; ok && slices.Contains(cells, c.ID) && !slices.Contains(gone, c.Dataset+": "+why) {
			gone = append(gone, c.Dataset+": "+why)
		}
	}
	if len(gone) > 0 {
		return "their data were unavailable there (" + strings.Join(gone, "; ") + ") though other shards had them"
	}
	if s.man.Finished == nil {
		return "it did not finish: run it again (it resumes from its finished cells)"
	}
	return "it finished without them: run it again to run them"
}

// example names the first cell of a list, and how many more there are.
func example(cells []string) string {
	if len(cells) == 1 {
		return cells[0]
	}
	return fmt.Sprintf("%s and %d more", cells[0], len(cells)-1)
}

func joinKeys(set map[string]bool) string {
	return strings.Join(slices.Sorted(maps.Keys(set)), ", ")
}

// shardDirName is the shard's directory as the merged manifest names it:
// relative to the merged directory when inside it, else absolute.
func shardDirName(absOut, dir string) string {
	a, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if rel, err := filepath.Rel(absOut, a); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return a
}

// writeMerged writes the merged records and manifest into out under its
// lock, refusing an out that holds anything but an earlier merge of the
// same config.
func writeMerged(out string, man Manifest, recs []Record) error {
	lock, err := LockDir(out)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	old, err := ReadManifest(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if fi, serr := os.Stat(filepath.Join(out, RecordsFile)); serr == nil && fi.Size() > 0 {
			return fmt.Errorf("%s holds records but no manifest: merge into another directory", out)
		}
	case err != nil:
		return err
	case len(old.Shards) == 0:
		return fmt.Errorf("%s holds the results of a run (not of a merge): merge into another directory, or delete its %s and %s to replace them",
			out, RecordsFile, ManifestFile)
	case old.ConfigKey != man.ConfigKey:
		return fmt.Errorf("%s holds a merge of another configuration (experiment %s, config key %.12s%s): merge into another directory",
			out, old.Experiment, old.ConfigKey, settingsDiffer(old.Settings, man.Settings, "the directory's -> these shards'"))
	case len(old.Runs) > 0:
		return fmt.Errorf("%s holds a merge that %d later run(s) continued (the last started %s on %s): a new merge would drop the cells they ran; "+
			"merge into another directory", out, len(old.Runs), old.Runs[len(old.Runs)-1].Started.Format(time.RFC3339), old.Runs[len(old.Runs)-1].Machine.Host)
	}
	var buf bytes.Buffer
	for _, r := range recs {
		b, err := r.Marshal()
		if err != nil {
			return err
		}
		buf.Write(b)
	}
	if err := WriteFileAtomic(filepath.Join(out, RecordsFile), buf.Bytes()); err != nil {
		return err
	}
	return WriteManifest(out, man)
}

// recordDiff describes the first difference between two records of one
// cell, timings and training work aside: "" when they are the same.
func recordDiff(a, b Record) string {
	a.Timings, a.Work, b.Timings, b.Work = nil, nil, nil, nil
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	if erra != nil || errb != nil {
		return fmt.Sprintf("unreadable: %v %v", erra, errb)
	}
	if bytes.Equal(ja, jb) {
		return ""
	}
	var ma, mb any
	if json.Unmarshal(ja, &ma) != nil || json.Unmarshal(jb, &mb) != nil {
		return "they differ"
	}
	if d := jsonDiff("", ma, mb); d != "" {
		return d
	}
	return "they differ"
}

// jsonDiff returns the path and values of the first difference between two
// decoded JSON values, keys in sorted order.
func jsonDiff(path string, a, b any) string {
	ma, oka := a.(map[string]any)
	mb, okb := b.(map[string]any)
	if oka && okb {
		keys := slices.Sorted(maps.Keys(ma))
		for k := range mb {
			if _, ok := ma[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			va, ina := ma[k]
			vb, inb := mb[k]
			switch {
			case !ina:
				return fmt.Sprintf("%s: absent vs %s", p, short(vb))
			case !inb:
				return fmt.Sprintf("%s: %s vs absent", p, short(va))
			}
			if d := jsonDiff(p, va, vb); d != "" {
				return d
			}
		}
		return ""
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if bytes.Equal(ja, jb) {
		return ""
	}
	return fmt.Sprintf("%s: %s vs %s", path, short(a), short(b))
}

// short is a JSON value's text, cut to a readable length.
func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}
