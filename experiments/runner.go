package experiments

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/datasets/pusplit"
	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/experiments/results"
)

// Runner runs the cells of an experiment and stores their records.
type Runner struct {
	Config *Config
	// Data is the UCI catalog's store (nil when no data set comes from it).
	Data  *datasets.Store
	Cache *results.Cache // nil: no score or estimate cache
	// Workers is the number of cells run at once (the -j flag); 0 means 1.
	// Each cell's classifier trains its nets on all cores regardless.
	Workers int
	// Log receives progress and warnings (the terminal's stderr).
	Log io.Writer
	// CodeVersion is recorded in the manifest.
	CodeVersion string
	// Selection is the part of the grid the cells passed to Run were
	// selected by, recorded in the manifest (pueval merge reads it).
	Selection Selection

	// prior is the manifest of the results directory the run continues
	// (nil for a new directory), read by checkOwner; priorDir is that
	// directory.
	prior    *results.Manifest
	priorDir string

	protocol   Protocol
	estimators []runEstimator
	truths     []runTruth
	measures   map[string]runMeasures // by data set
	data       map[string]*Data

	scorersMu sync.Mutex
	scorers   map[classifiers.Config]classifiers.Scorer

	supMu sync.Mutex
	sup   map[string]*supEntry // by data set and classifier key

	trained   atomic.Int64 // classifier trainings actually run
	cacheHits atomic.Int64 // classifier trainings answered by the score cache
}

type runEstimator struct {
	id       string
	est      classprior.Estimator
	key      string
	features bool // reads feature rows
}

// runMeasures are a data set's measures.
type runMeasures struct {
	list     []Measure
	recovers bool // one recovers with the true alpha, beta: beta <= alpha fails a cell early
}

type runTruth struct {
	id    string
	truth Truth
}

type supEntry struct {
	once   sync.Once
	name   string // for the manifest: the data set, and the classifier axis label when there is one
	scores []float64
	work   *results.Work // nil: from the score cache
	err    error
	// The scores degraded to a data set's degrade_to_auc, computed once.
	degOnce  sync.Once
	degraded Degraded
	degErr   error
}

// Summary is what a run did.
type Summary struct {
	Cells       int               // cells selected
	Skipped     int               // already done in an earlier run
	Ran         int               // cells run now (ok or failed)
	Failed      int               // of Ran
	Trained     int               // classifier trainings run
	CacheHits   int               // classifier trainings served by the score cache
	Unavailable map[string]string // data sets that could not be used, with the reason
	Interrupted bool
	Duration    time.Duration
}

// Run runs the cells that outDir does not hold yet (a re-run continues where
// a killed or interrupted run stopped) and writes records.jsonl and
// manifest.json there. On cancellation it stops taking cells, records
// nothing for the cells in flight, and returns an error saying how to
// continue; finished cells are never lost.
func (r *Runner) Run(ctx context.Context, cells []Cell, outDir string) (Summary, error) {
	start := time.Now()
	sum := Summary{Cells: len(cells), Unavailable: map[string]string{}}
	if err := r.prepare(); err != nil {
		return sum, err
	}
	store, err := results.OpenStore(outDir)
	if err != nil {
		return sum, err
	}
	defer store.Close()
	if err := r.checkOwner(outDir); err != nil {
		return sum, err
	}
	// The first error writing a record stops the run: the cells in flight are
	// cancelled (and recorded nowhere), the finished ones are kept.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)

	man := r.newManifest(start, outDir)
	todo, err := r.loadData(ctx, cells, store, &sum, &man)
	if err != nil {
		return sum, err
	}
	if err := results.WriteManifest(outDir, man); err != nil {
		return sum, err
	}
	prog := NewProgress(r.Log, len(cells)-countUnavailable(cells, sum.Unavailable), sum.Skipped)
	storeErr := r.runCells(ctx, stop, todo, store, &sum, prog)
	sum.Trained, sum.CacheHits = int(r.trained.Load()), int(r.cacheHits.Load())
	sum.Duration = time.Since(start)
	return sum, r.finish(ctx, cells, store, outDir, &sum, &man, storeErr)
}

// newManifest is the manifest of a run starting now into outDir: the config
// (a file by its absolute path, so that pueval merge finds it from any
// directory), the code, the machine and the plug-ins, and the shards and
// runs of a merge the run continues; the data, counts and end come later.
func (r *Runner) newManifest(start time.Time, outDir string) results.Manifest {
	cfg := r.Config
	source := cfg.Source
	if _, builtin := BuiltinName(source); !builtin {
		if abs, err := filepath.Abs(source); err == nil {
			source = abs
		}
	}
	man := results.Manifest{Experiment: cfg.Experiment, Config: source, ConfigHash: cfg.Hash, ConfigKey: cfg.KeyHash(),
		CodeVersion: r.CodeVersion, GoVersion: runtime.Version(), Kernel: cfg.KernelName(),
		Report: cfg.Report, Protocol: cfg.Protocol.Name(), Derived: cfg.Derivation(),
		Data: map[string]string{}, Started: start.UTC(), Machine: Machine()}
	if sel := r.Selection.record(); !sel.IsZero() {
		man.Selection = &sel
	}
	for _, e := range cfg.Estimators {
		man.Estimators = append(man.Estimators, e.ID)
	}
	for _, t := range cfg.Truths {
		man.Truths = append(man.Truths, t.ID)
	}
	for _, d := range cfg.Datasets {
		for _, m := range d.Metrics {
			if !slices.Contains(man.Metrics, m.ID) {
				man.Metrics = append(man.Metrics, m.ID)
			}
		}
	}
	if old, err := results.ReadManifest(outDir); err == nil { // checkOwner has refused an unreadable one
		man.ContinueMerge(old)
	}
	return man
}

// loadData loads every data set of the cells first: it fills the
// manifest's settings and fingerprints and turns an unavailable data set
// into one clear message, not a failed cell each. A data set whose data
// differ from those the directory's records were computed on is refused
// (checkData) before anything is written. It returns the cells the store
// does not hold yet.
func (r *Runner) loadData(ctx context.Context, cells []Cell, store *results.Store, sum *Summary, man *results.Manifest) ([]Cell, error) {
	man.Settings = r.Config.Settings()
	var todo []Cell
	for _, c := range cells {
		name := c.Dataset.Name
		if _, bad := sum.Unavailable[name]; bad {
			continue
		}
		if _, ok := r.data[name]; !ok {
			d, err := r.load(ctx, c.Dataset)
			if reason, skip := unavailable(err); skip {
				sum.Unavailable[name] = reason
				fmt.Fprintf(r.Log, "pueval: skipping data set %s: %v\n", name, err)
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("data set %s: %w", name, err)
			}
			if err := r.checkData(name, d.Fingerprint); err != nil {
				return nil, err
			}
			for _, w := range d.Warnings {
				fmt.Fprintf(r.Log, "pueval: data set %s: %s\n", name, w)
				man.Warnings = append(man.Warnings, name+": "+w)
			}
			r.data[name] = d
			man.Data[name] = d.Fingerprint
		}
		if store.Done(c.ID) {
			sum.Skipped++
			continue
		}
		todo = append(todo, c)
	}
	// The records of the data sets this run did not read stay in the
	// directory, and so do their fingerprints.
	if r.prior != nil {
		for name, fp := range r.prior.Data {
			if _, ok := man.Data[name]; !ok {
				man.Data[name] = fp
			}
		}
	}
	man.Unavailable = sum.Unavailable
	man.Cells = len(cells)
	return todo, nil
}

// unavailable says whether a load error is a data set that is not
// available (the run skips it), with the short reason the manifest and
// the report keep; the log has the full story.
func unavailable(err error) (reason string, ok bool) {
	if err == nil || !errors.Is(err, datasets.ErrUnavailable) && !errors.As(err, new(*datasets.MissingFileError)) {
		return "", false
	}
	var ue *datasets.UnavailableError
	if errors.As(err, &ue) {
		return "not available: " + ue.Reason, true
	}
	return err.Error(), true
}

// checkData refuses a data set whose fingerprint (of its content, as its
// source loaded it: a catalog entry, a file, a generator) differs from the
// one the manifest of the directory the run continues recorded: its
// records were computed on other data, and the records of both would mix
// in one file under one fingerprint. Every data set a run reads passes
// here, whatever its source.
func (r *Runner) checkData(name, fingerprint string) error {
	if r.prior == nil {
		return nil
	}
	old, ok := r.prior.Data[name]
	if !ok || old == fingerprint {
		return nil
	}
	return fmt.Errorf("data set %s: its data changed since the records in %s were computed (fingerprint %s in its manifest, %s now): "+
		"continuing would mix records of both in one file; run into a new directory (-o), or delete %s to start over",
		name, r.priorDir, old, fingerprint, r.priorDir)
}

// runCells runs the cells on r.Workers workers and appends their records.
// It returns the first error writing a record (after which stop has
// cancelled the cells in flight).
func (r *Runner) runCells(ctx context.Context, stop context.CancelCauseFunc, todo []Cell, store *results.Store, sum *Summary, prog *Progress) error {
	// Repeat by repeat: every data set then finishes cells early, which
	// keeps the ETA representative from the first minutes (Progress); the
	// order changes no result (each cell's seed is its own) and the store
	// writes the records in grid order at the end.
	slices.SortStableFunc(todo, func(a, b Cell) int { return cmp.Compare(a.Repeat, b.Repeat) })
	left, prior := map[string]int{}, map[string]float64{}
	for _, c := range todo {
		name := c.Dataset.Name
		left[name]++
		if _, ok := prior[name]; !ok {
			prior[name] = r.data[name].costWeight()
		}
	}
	prog.Plan(left, prior)
	w := &cellWorkers{r: r, stop: stop, store: store, sum: sum, prog: prog, seenFailure: map[string]bool{}}
	jobs := make(chan Cell)
	var wg sync.WaitGroup
	for range max(1, r.Workers) {
		wg.Go(func() {
			for c := range jobs {
				w.run(ctx, c)
			}
		})
	}
feed:
	for _, c := range todo {
		select {
		case jobs <- c:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return w.storeErr
}

// cellWorkers is what the workers of runCells share.
type cellWorkers struct {
	r           *Runner
	stop        context.CancelCauseFunc
	store       *results.Store
	sum         *Summary
	prog        *Progress
	mu          sync.Mutex
	storeErr    error
	seenFailure map[string]bool
}

// run runs one cell and appends its record; an interrupted cell records
// nothing.
func (w *cellWorkers) run(ctx context.Context, c Cell) {
	var rec results.Record
	var err error
	// Profile samples carry the data set (pueval run --cpuprofile;
	// go tool pprof -tagfocus dataset=bank).
	began := time.Now()
	pprof.Do(ctx, pprof.Labels("dataset", c.Dataset.Name), func(ctx context.Context) {
		rec, err = w.r.runCell(ctx, c)
	})
	took := time.Since(began)
	if err != nil && ctx.Err() != nil {
		return // interrupted: the cell is not finished, record nothing
	}
	if aerr := w.store.Append(rec); aerr != nil {
		w.mu.Lock()
		if w.storeErr == nil {
			w.storeErr = aerr
			w.stop(aerr)
		}
		w.mu.Unlock()
		return
	}
	w.mu.Lock()
	w.sum.Ran++
	if rec.Status == results.StatusFailed {
		w.sum.Failed++
		// One line per kind of failure: a data set whose every beta < 1 cell
		// fails the same way should not flood the log.
		kind := c.Dataset.Name + "\x00" + rec.Error
		if !w.seenFailure[kind] {
			w.seenFailure[kind] = true
			w.prog.Message("pueval: cell %s failed: %s (further cells of %s failing the same way are counted, not shown)",
				c.ID, rec.Error, c.Dataset.Name)
		}
	}
	w.mu.Unlock()
	// A cell whose classifier's scores came from the score cache
	// (no Work) is not a fair sample of the cells left.
	cached := w.r.trainsPerCell(w.r.data[c.Dataset.Name]) && rec.Work == nil && rec.Status != results.StatusFailed
	w.prog.Finished(c.ID, c.Dataset.Name, took, rec.Status == results.StatusFailed, cached)
}

// finish writes the manifest of a run that stopped (a record that could
// not be written, an interruption) or ended, and on a finished run puts
// the records in grid order.
func (r *Runner) finish(ctx context.Context, cells []Cell, store *results.Store, outDir string, sum *Summary, man *results.Manifest, storeErr error) error {
	// The finished cells are in the file (a failed append cut its partial
	// record): the manifest says how many, and a re-run continues.
	for _, rec := range store.Records() {
		if rec.Status == results.StatusOK {
			man.Done++
		} else {
			man.Failed++
		}
	}
	man.EndRun(nil, sum.Ran, sum.Failed)
	if storeErr != nil {
		if err := results.WriteManifest(outDir, *man); err != nil {
			storeErr = errors.Join(storeErr, err)
		}
		return fmt.Errorf("run stopped after %d cells: writing records: %w (the finished cells are kept; fix the cause and run the same command again to continue)",
			sum.Skipped+sum.Ran, storeErr)
	}
	if ctx.Err() != nil {
		sum.Interrupted = true
		if err := results.WriteManifest(outDir, *man); err != nil {
			return err
		}
		return fmt.Errorf("interrupted after %d of %d cells (finished cells are kept in %s; run the same command again to continue)",
			sum.Skipped+sum.Ran, len(cells), outDir)
	}
	order := make([]string, len(cells))
	for i, c := range cells {
		order[i] = c.ID
	}
	if err := store.Finalize(order); err != nil {
		// Every record is stored: the manifest counts them, unfinished.
		if merr := results.WriteManifest(outDir, *man); merr != nil {
			err = errors.Join(err, merr)
		}
		return err
	}
	done := time.Now().UTC()
	man.Finished = &done
	man.EndRun(&done, sum.Ran, sum.Failed)
	for _, e := range r.sup {
		if e.work != nil {
			if man.Traditional == nil {
				man.Traditional = map[string]*results.Work{}
			}
			man.Traditional[e.name] = e.work
		}
	}
	return results.WriteManifest(outDir, *man)
}

// checkOwner refuses to run into a results directory that holds the results
// of another configuration: its manifest's ConfigKey (or, for a schema-1
// manifest, which has none, its experiment name) must be this config's.
// The refusal names the settings that differ when the manifest keeps its
// config's settings (older manifests do not: then it names the keys). It
// keeps the manifest for the checks of the data (checkData).
func (r *Runner) checkOwner(dir string) error {
	r.prior, r.priorDir = nil, dir
	m, err := results.ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	r.prior = &m
	cfg := r.Config
	same := m.ConfigKey == cfg.KeyHash()
	if m.ConfigKey == "" { // schema 1
		same = m.Experiment == cfg.Experiment
	}
	if same {
		return nil
	}
	what := "differs in a setting that changes results"
	if diff := DiffSettings(m.Settings, cfg.Settings()); m.Settings != nil && diff != "" {
		what = "differs in settings that change results (the directory's -> this one's: " + diff + ")"
	}
	return fmt.Errorf("%s holds the results of another configuration (experiment %s from %s, config key %.12s); "+
		"this one (experiment %s from %s, config key %.12s) %s: "+
		"run it into another directory (-o), or delete %s to start over",
		dir, m.Experiment, m.Config, m.ConfigKey, cfg.Experiment, cfg.Source, cfg.KeyHash(), what, dir)
}

// Check makes the checks Run makes on a results directory before its
// first cell, writing nothing (but the lock file of a directory that
// exists): that no other process holds its lock, that it holds the results
// of this config (checkOwner), and that every data set of the cells that
// its manifest records reads the same data now (checkData; a data set
// unavailable here is left to the run). A directory that does not exist
// passes. pueval slurm calls it for each shard's directory before it
// writes or submits a job.
func (r *Runner) Check(ctx context.Context, cells []Cell, dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	lock, err := results.LockDir(dir)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if err := r.checkOwner(dir); err != nil || r.prior == nil {
		return err
	}
	checked := map[string]bool{}
	for _, c := range cells {
		name := c.Dataset.Name
		if _, known := r.prior.Data[name]; !known || checked[name] {
			continue
		}
		checked[name] = true
		d, err := r.load(ctx, c.Dataset)
		if _, skip := unavailable(err); skip {
			continue
		}
		if err != nil {
			return fmt.Errorf("data set %s: %w", name, err)
		}
		if err := r.checkData(name, d.Fingerprint); err != nil {
			return err
		}
	}
	return nil
}

// prepare builds the protocol, estimators, truths and measures and empties
// the data sets; runCell can run once the cells' data sets are loaded.
func (r *Runner) prepare() error {
	cfg := r.Config
	var err error
	if r.protocol, err = cfg.Protocol.New(); err != nil {
		return fmt.Errorf("protocol: %w", err)
	}
	r.estimators = nil
	for _, e := range cfg.Estimators {
		est, err := e.Config.New()
		if err != nil {
			return fmt.Errorf("estimator %s: %w", e.ID, err)
		}
		fr, ok := e.Config.(classprior.FeatureReader)
		r.estimators = append(r.estimators, runEstimator{id: e.ID, est: est, key: e.Config.Key(), features: ok && fr.ReadsFeatures()})
	}
	r.truths = nil
	for _, t := range cfg.Truths {
		tr, err := t.Config.New()
		if err != nil {
			return fmt.Errorf("truth %s: %w", t.ID, err)
		}
		r.truths = append(r.truths, runTruth{id: t.ID, truth: tr})
	}
	r.measures = map[string]runMeasures{}
	for _, d := range cfg.Datasets {
		var rm runMeasures
		for _, m := range d.Metrics {
			if ru, ok := m.Config.(RecoveryUser); ok && ru.UsesRecovery() {
				rm.recovers = true
			}
			ms, err := m.Config.New()
			if err != nil {
				return fmt.Errorf("measure %s: %w", m.ID, err)
			}
			rm.list = append(rm.list, ms)
		}
		r.measures[d.Name] = rm
	}
	if r.Log == nil {
		r.Log = io.Discard
	}
	r.data, r.sup, r.scorers = map[string]*Data{}, map[string]*supEntry{}, map[classifiers.Config]classifiers.Scorer{}
	return nil
}

// load loads a data set through its source.
func (r *Runner) load(ctx context.Context, spec *DatasetSpec) (*Data, error) {
	src, err := spec.Source.New()
	if err != nil {
		return nil, err
	}
	d, err := src.Load(ctx, SourceEnv{Name: spec.Name, Catalog: r.Data, Dir: r.Config.Dir,
		Rand: derive(r.Config.Seed, "source/"+spec.Name)})
	if err != nil {
		return nil, err
	}
	switch {
	case d.N() < 2:
		return nil, fmt.Errorf("source %s gave %d rows", spec.Source.Name(), d.N())
	case d.X == nil && len(d.Scores) != d.N():
		return nil, fmt.Errorf("source %s gave %d scores for %d labels and no features", spec.Source.Name(), len(d.Scores), d.N())
	case d.X != nil && d.X.RawMatrix().Rows != d.N():
		return nil, fmt.Errorf("source %s gave %d feature rows for %d labels", spec.Source.Name(), d.X.RawMatrix().Rows, d.N())
	}
	return d, nil
}

func countUnavailable(cells []Cell, un map[string]string) int {
	n := 0
	for _, c := range cells {
		if _, ok := un[c.Dataset.Name]; ok {
			n++
		}
	}
	return n
}

// Machine describes the machine this process runs on, as a manifest records it.
func Machine() results.Machine {
	host, _ := os.Hostname()
	return results.Machine{Host: host, OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU()}
}

// derive returns a math/rand/v2 stream for one purpose within a cell.
func derive(seed uint64, purpose string) *rand.Rand {
	return rand.New(rand.NewPCG(hashSeed(seed, purpose, "1"), hashSeed(seed, purpose, "2")))
}

// trainsPerCell says whether each cell of data set d trains its own PU
// classifier (labeled vs unlabeled; the record's Work describes it, absent
// when the scores came from the score cache), rather than reading the data
// set's given scores or only a model trained once per data set.
func (r *Runner) trainsPerCell(d *Data) bool {
	return d != nil && d.Scores == nil && (r.Config.Evaluate == EvaluatePU || r.needsPUScores())
}

// runCell computes one cell's record. It returns an error only when ctx was
// cancelled; any other problem is a record with status failed.
//
// The stages, each a plug-in: the protocol splits the data (stream
// "split"); the cell's classifier scores L u U out of bag, trained L vs U
// (the PU classifier; seed "classifier"), unless the data are a ranking;
// each estimator estimates (alpha, beta) from those scores (and the
// features, for estimators that read them); each truth gives its scores;
// each measure computes its metrics.
func (r *Runner) runCell(ctx context.Context, c Cell) (results.Record, error) {
	t0 := time.Now()
	rec := results.Record{Schema: results.SchemaVersion, Experiment: r.Config.Experiment, Cell: c.ID,
		Dataset: c.Dataset.Name, Grid: c.GridTexts(), Repeat: c.Repeat,
		Seed: strconv.FormatUint(c.Seed, 10), Status: results.StatusOK, Timings: map[string]float64{}}
	fail := func(err error) (results.Record, error) {
		if ctx.Err() != nil {
			return rec, ctx.Err()
		}
		rec.Status, rec.Error = results.StatusFailed, err.Error()
		rec.Estimates, rec.Metrics, rec.Curves = nil, nil, nil
		rec.Timings["total"] = time.Since(t0).Seconds()
		return rec, nil
	}
	data := r.data[c.Dataset.Name]
	if data == nil {
		return fail(fmt.Errorf("data set %s is not loaded", c.Dataset.Name))
	}
	cr, err := r.split(ctx, &c, data, &rec)
	if err != nil {
		return fail(err)
	}
	rec.Timings["split"] = time.Since(t0).Seconds()
	t1 := time.Now()
	puScores, err := r.cellScores(ctx, cr, &rec)
	if err != nil {
		return fail(err)
	}
	rec.Timings["classifier"] = time.Since(t1).Seconds()
	t2 := time.Now()
	if err := r.estimates(ctx, cr, puScores, &rec); err != nil {
		return fail(err)
	}
	rec.Timings["estimator"] = time.Since(t2).Seconds()
	// The first cell of a data set trains the supervised model of the
	// traditional truth (or waits for it): timed apart so that projections
	// can leave it out.
	t3 := time.Now()
	for _, t := range r.truths {
		s, err := t.truth.Scores(ctx, cr)
		if err != nil {
			return fail(fmt.Errorf("%s truth: %w", t.id, err))
		}
		cr.Truths = append(cr.Truths, TruthScores{ID: t.id, On: t.truth.On(), Scores: s})
	}
	rec.Timings["truths"] = time.Since(t3).Seconds()
	t4 := time.Now()
	out := NewValues(cr)
	for _, m := range r.measures[c.Dataset.Name].list {
		if err := m.Measure(ctx, cr, out); err != nil {
			return fail(err)
		}
	}
	rec.Metrics, rec.Curves = out.m, out.curves
	rec.Warnings = append(rec.Warnings, cr.warnings...)
	rec.Timings["metrics"] = time.Since(t4).Seconds()
	rec.Timings["total"] = time.Since(t0).Seconds()
	return rec, nil
}

// split draws the cell's PU split with the protocol and returns the cell
// in the making; it fills the record's sizes and true alpha and beta.
func (r *Runner) split(ctx context.Context, c *Cell, data *Data, rec *results.Record) (*CellRun, error) {
	streams := CellStreams(c)
	split, err := r.protocol.Split(ctx, SplitInput{Data: data, Options: c.Dataset.Options, Cell: c, Grid: &c.Dataset.Grid,
		Rand: streams.Rand("split"), Streams: streams})
	if err != nil {
		return nil, err
	}
	rec.Sizes = results.Sizes{N: data.N(), D: data.D(), NPos: data.NPos(), Labeled: len(split.Labeled),
		Unlabeled: len(split.Unlabeled), Negatives: len(split.Negatives)}
	ps := pusplit.Split{Labeled: split.Labeled, Unlabeled: split.Unlabeled}
	rec.Alpha, rec.Beta = ps.Alpha(data.Y), ps.Beta(data.Y)
	if err := recovery.CheckPriors(rec.Alpha, rec.Beta); err != nil && r.measures[c.Dataset.Name].recovers {
		// Fail before training: the recoveries would refuse these values.
		return nil, trueRecoveryError(rec.Alpha, rec.Beta, err)
	}
	rows := append(append([]int{}, split.Labeled...), split.Unlabeled...)
	truth := make([]bool, len(rows))
	for i, row := range rows {
		truth[i] = data.Y[row]
	}
	return &CellRun{Cell: c, Data: data, Split: split, Rows: rows, NL: len(split.Labeled), Y: truth,
		Alpha: rec.Alpha, Beta: rec.Beta, Env: cellEnv{r: r, data: data, cell: c}}, nil
}

// cellScores sets the evaluated scores of the cell (cr.Scores): the PU
// classifier's (labeled vs unlabeled, out of bag), a ranking's own, or
// under evaluate: supervised the supervised model's (perhaps degraded). It
// returns the scores the estimators read: the PU classifier's or the
// ranking's (nil when no estimator reads scores).
func (r *Runner) cellScores(ctx context.Context, cr *CellRun, rec *results.Record) ([]float64, error) {
	data, c := cr.Data, cr.Cell
	var puScores []float64
	if data.Scores != nil {
		puScores = make([]float64, len(cr.Rows))
		for i, row := range cr.Rows {
			puScores[i] = data.Scores[row]
		}
	} else if r.trainsPerCell(data) {
		var err error
		if puScores, err = r.puScores(ctx, cr, rec); err != nil {
			return nil, err
		}
	}
	cr.Scores = puScores
	if data.Scores == nil && r.Config.Evaluate == EvaluateSupervised {
		all, err := r.supervised(ctx, data, c)
		if err != nil {
			return nil, fmt.Errorf("supervised classifier: %w", err)
		}
		if target := c.Dataset.DegradeToAUC; target > 0 {
			d, err := r.degradedSupervised(ctx, data, c, target)
			if err != nil {
				return nil, fmt.Errorf("degrade_to_auc: %w", err)
			}
			if d.Warning != "" {
				cr.Warn("%s", d.Warning)
			}
			all = d.Scores
		}
		cr.Scores = make([]float64, len(cr.Rows))
		for i, row := range cr.Rows {
			cr.Scores[i] = all[row]
		}
		rec.Kernel = classifiers.KernelName(r.Config.classifierOf(c))
	}
	return puScores, nil
}

// puScores trains the cell's PU classifier (labeled vs unlabeled, out of
// bag; on the protocol's folds when it has them) through the score cache.
func (r *Runner) puScores(ctx context.Context, cr *CellRun, rec *results.Record) ([]float64, error) {
	data, c, split := cr.Data, cr.Cell, cr.Split
	clf := r.Config.classifierOf(c)
	var key string
	var err error
	if split.Folds == nil {
		key, err = results.Key("pu-scores-v1", data.Fingerprint, split.Labeled, split.Unlabeled, clf.Key(), c.Seed)
	} else {
		// The protocol's folds: each row is scored by the model of the
		// other folds (the key names them).
		if err := checkFolds(split.Folds, len(cr.Rows)); err != nil {
			return nil, fmt.Errorf("%s: %w", r.Config.Protocol.Name(), err)
		}
		key, err = results.Key("pu-scores-folds-v1", data.Fingerprint, split.Labeled, split.Unlabeled, split.Folds, clf.Key(), c.Seed)
	}
	if err != nil {
		return nil, err
	}
	pseudo := make([]bool, len(cr.Rows))
	for i := range cr.NL {
		pseudo[i] = true
	}
	var scores []float64
	pprof.Do(ctx, pprof.Labels("stage", "classifier"), func(ctx context.Context) {
		scores, rec.Work, err = r.score(ctx, clf, key, data, cr.Rows, pseudo, split.Folds, hashSeed(c.Seed, "classifier"))
	})
	rec.Kernel = classifiers.KernelName(clf)
	if err != nil {
		return nil, fmt.Errorf("classifier: %w", err)
	}
	return scores, nil
}

// estimates runs the estimators; one that fails leaves its estimate out
// with a warning. It returns an error only when ctx was cancelled.
func (r *Runner) estimates(ctx context.Context, cr *CellRun, puScores []float64, rec *results.Record) error {
	for _, e := range r.estimators {
		te := time.Now()
		est, err := r.estimate(ctx, e, cr, puScores)
		rec.Timings["estimator:"+e.id] = time.Since(te).Seconds()
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			cr.Warn("estimator %s: %v: its estimates are missing", e.id, err)
			continue
		}
		if rec.Estimates == nil {
			rec.Estimates = map[string]results.Estimate{}
		}
		rec.Estimates[e.id] = est
		cr.Estimates = append(cr.Estimates, NamedEstimate{ID: e.id, Alpha: est.Alpha, Beta: est.Beta})
	}
	return nil
}

// needsPUScores reports whether an estimator reads scores (every estimator
// that is not purely a feature reader does).
func (r *Runner) needsPUScores() bool {
	for _, e := range r.estimators {
		if !e.features {
			return true
		}
	}
	return false
}

// estimate runs one estimator on a cell, through the estimate cache: the key
// hashes the estimator's options, its input (the scores of L and U, and for
// a feature reader the data's fingerprint and the rows) and its random
// stream's seed.
func (r *Runner) estimate(ctx context.Context, e runEstimator, cr *CellRun, scores []float64) (results.Estimate, error) {
	seed := hashSeed(cr.Cell.Seed, "estimator", e.id)
	in := classprior.Input{}
	if scores != nil {
		in.Labeled, in.Unlabeled = scores[:cr.NL], scores[cr.NL:]
	}
	var rows any
	if e.features {
		if cr.Data.X == nil {
			return results.Estimate{}, fmt.Errorf("it reads features, and data set %s has none", cr.Data.Name)
		}
		in.LabeledFeatures = gatherRows(cr.Data.X, cr.Rows[:cr.NL])
		in.UnlabeledFeatures = gatherRows(cr.Data.X, cr.Rows[cr.NL:])
		rows = []any{cr.Data.Fingerprint, cr.Rows, cr.NL}
	}
	var key string
	if r.Cache != nil {
		var err error
		if key, err = results.Key("estimate-v1", e.key, floatsHash(scores), cr.NL, rows, seed); err != nil {
			return results.Estimate{}, err
		}
		got, ok, err := r.Cache.GetEstimate(key)
		if err != nil {
			fmt.Fprintf(r.Log, "pueval: estimate cache: %v (recomputing)\n", err)
		}
		if ok {
			return got, nil
		}
	}
	est, err := e.est.Estimate(ctx, in, derive(seed, "rng"))
	if err != nil {
		return results.Estimate{}, err
	}
	out := results.Estimate{Method: est.Method, Alpha: est.Alpha, Beta: est.Beta, Warnings: est.Warnings}
	if math.IsNaN(out.Alpha) || math.IsNaN(out.Beta) || math.IsInf(out.Alpha, 0) || math.IsInf(out.Beta, 0) {
		return results.Estimate{}, fmt.Errorf("estimate alpha %v, beta %v is not finite", out.Alpha, out.Beta)
	}
	if r.Cache != nil {
		if err := r.Cache.PutEstimate(key, out); err != nil {
			fmt.Fprintf(r.Log, "pueval: estimate cache: %v\n", err)
		}
	}
	return out, nil
}

// floatsHash is the sha256 of the float64 bits of xs, in hex.
func floatsHash(xs []float64) string {
	h := sha256.New()
	var b [8]byte
	for _, x := range xs {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// scorer returns the Scorer of a classifier configuration (made once).
func (r *Runner) scorer(clf classifiers.Config) (classifiers.Scorer, error) {
	r.scorersMu.Lock()
	defer r.scorersMu.Unlock()
	if s, ok := r.scorers[clf]; ok {
		return s, nil
	}
	s, err := clf.New()
	if err != nil {
		return nil, err
	}
	r.scorers[clf] = s
	return s, nil
}

// score returns the out-of-bag scores of the classifier clf trained on the
// given rows of data (nil: every row) with targets y, from the score cache
// when it has them; with folds (one per row), each row's score comes from
// the model trained on the other folds (classifiers.FoldScorer). The work
// summary is nil for a cache hit.
func (r *Runner) score(ctx context.Context, clf classifiers.Config, key string, data *Data, rows []int, y []bool, folds []int, seed uint64) ([]float64, *results.Work, error) {
	if r.Cache != nil {
		s, ok, err := r.Cache.GetScores(key)
		if err != nil {
			fmt.Fprintf(r.Log, "pueval: score cache: %v (recomputing)\n", err)
		}
		if ok && len(s.Scores) == len(y) {
			r.cacheHits.Add(1)
			return s.Scores, nil, nil
		}
	}
	scorer, err := r.scorer(clf)
	if err != nil {
		return nil, nil, err
	}
	x := data.X
	if rows != nil {
		x = gatherRows(data.X, rows)
	}
	fs, ok := scorer.(classifiers.FoldScorer)
	if folds != nil && !ok {
		return nil, nil, fmt.Errorf("%s cannot train on the protocol's cross-validation folds (it has no ScoreFolds)", clf.Name())
	}
	r.trained.Add(1)
	var res *classifiers.Result
	if folds == nil {
		res, err = scorer.Score(ctx, classifiers.Data{X: x, Y: y}, seed)
	} else {
		res, err = fs.ScoreFolds(ctx, classifiers.Data{X: x, Y: y}, folds, seed)
	}
	if err != nil {
		return nil, nil, err
	}
	if r.Cache != nil {
		if err := r.Cache.PutScores(key, results.Scores{Scores: res.Scores, Labels: y}); err != nil {
			fmt.Fprintf(r.Log, "pueval: score cache: %v\n", err)
		}
	}
	return res.Scores, work(res.Models), nil
}

// work summarises the models of a bag.
func work(models []classifiers.ModelStats) *results.Work {
	if len(models) == 0 {
		return nil
	}
	w := &results.Work{Models: len(models)}
	for _, m := range models {
		w.Epochs += float64(m.Epochs)
		w.TrainRows += float64(m.TrainRows)
		w.ValOnlyRows += float64(m.ValOnlyRows)
		w.Inputs += float64(m.Inputs)
		w.GFlop += m.Flops / 1e9
	}
	n := float64(len(models))
	w.Epochs, w.TrainRows, w.ValOnlyRows, w.Inputs = w.Epochs/n, w.TrainRows/n, w.ValOnlyRows/n, w.Inputs/n
	return w
}

// supervised returns the scores of every row of data from the cell's
// classifier trained once per data set (and classifier and experiment seed)
// on all rows with the true labels, scored out of bag. Concurrent cells
// wait for one training.
func (r *Runner) supervised(ctx context.Context, data *Data, cell *Cell) ([]float64, error) {
	if data.X == nil {
		return nil, fmt.Errorf("data set %s is a ranking: it has no features to train a supervised classifier on", data.Name)
	}
	clf := r.Config.classifierOf(cell)
	e := r.supEntryFor(data, cell)
	e.once.Do(func() {
		seed := hashSeed(r.Config.Seed, "traditional", data.Name)
		key, err := results.Key("traditional-scores-v1", data.Fingerprint, clf.Key(), seed)
		if err != nil {
			e.err = err
			return
		}
		pprof.Do(ctx, pprof.Labels("stage", "traditional"), func(ctx context.Context) {
			e.scores, e.work, e.err = r.score(ctx, clf, key, data, nil, data.Y, nil, seed)
		})
	})
	return e.scores, e.err
}

// supEntryFor returns the supervised scores' entry of a data set and the
// cell's classifier axis value, created on first use.
func (r *Runner) supEntryFor(data *Data, cell *Cell) *supEntry {
	name := data.Name
	if v, ok := cell.Values[classifierAxis]; ok {
		name += "/" + classifierAxis + "=" + v.Text
	}
	r.supMu.Lock()
	defer r.supMu.Unlock()
	e := r.sup[name]
	if e == nil {
		e = &supEntry{name: name}
		r.sup[name] = e
	}
	return e
}

// degradedSupervised returns the supervised scores degraded to target
// (DegradeScores), computed once per data set and classifier: every cell of
// the data set evaluates the same scores.
func (r *Runner) degradedSupervised(ctx context.Context, data *Data, cell *Cell, target float64) (Degraded, error) {
	all, err := r.supervised(ctx, data, cell)
	if err != nil {
		return Degraded{}, err
	}
	e := r.supEntryFor(data, cell)
	e.degOnce.Do(func() {
		e.degraded, e.degErr = DegradeScores(all, data.Y, target, hashSeed(r.Config.Seed, "degrade", data.Name))
	})
	return e.degraded, e.degErr
}

func gatherRows(x *mat.Dense, rows []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		out.SetRow(i, x.RawRowView(r))
	}
	return out
}

// checkFolds checks a protocol's folds: one per row, each in 0..k-1 with
// every fold of 0..k-1 used, k >= 2.
func checkFolds(folds []int, n int) error {
	if len(folds) != n {
		return fmt.Errorf("%d folds for %d rows", len(folds), n)
	}
	k := 0
	for _, f := range folds {
		if f < 0 {
			return fmt.Errorf("fold %d is negative", f)
		}
		k = max(k, f+1)
	}
	used := make([]bool, k)
	for _, f := range folds {
		used[f] = true
	}
	for f, u := range used {
		if !u {
			return fmt.Errorf("fold %d of %d holds no row", f, k)
		}
	}
	if k < 2 {
		return fmt.Errorf("%d fold: want at least 2", k)
	}
	return nil
}
